// `make bench`, in the browser: serves dist/, opens the engine page in Debian's headless Chromium,
// runs its measurement several times and prints the figures of the last run, then the explorer's
// fastest run and, when the native explorer bench's output is given (path in BENCH_NATIVE), the
// ratio of native to wasm speed. The native bench reports the fastest of a few runs too, so the
// two figures are measured alike.
// Environment: BENCH_RUNS (default 3) measurements; BENCH_DIST (default ../../dist) the site.
// Prints figures; asserts nothing about speed.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser, startServer, stopServer } from './support.js';

const runs = Number(process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_RUNS must be a whole number of at least 1, not ${process.env.BENCH_RUNS}`);
const dist = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : undefined;

const { server, origin } = await startServer(dist);
const browser = await launchBrowser();
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/#/engine`);
  // The explorer's K=2 row of the fastest run: its time (ms) and schedules per second.
  let fastest = null;
  let lastTables = [];
  for (let run = 1; run <= runs; run++) {
    await page.getByRole('button', { name: 'Run the measurement' }).click();
    await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor({ timeout: 600_000 });
    lastTables = [];
    for (const table of await page.getByRole('table').all()) {
      const caption = await table.locator('caption').textContent();
      const rows = [];
      for (const row of await table.getByRole('row').all()) {
        const cells = await row.locator('th, td').allTextContents();
        rows.push(cells);
        if (cells[0].includes('2 faults,')) {
          const found = { milliseconds: number(cells[4]), rate: number(cells[5]), run };
          if (!fastest || found.milliseconds < fastest.milliseconds) fastest = found;
        }
      }
      lastTables.push({ caption, rows });
    }
  }
  console.log(`\nIn Chromium (${browser.version()}), wasm build of ${dist ?? 'dist/'}, run ${runs} of ${runs}:`);
  for (const { caption, rows } of lastTables) {
    console.log(`\n${caption}`);
    for (const cells of rows) console.log(cells.map((text) => text.padStart(14)).join(' '));
  }
  console.log(`\n${await page.getByRole('status').textContent()}`);
  if (fastest) {
    // A shared machine's load moves the figures: say it beside them.
    console.log(`explorer, K=2 P=2, fastest of ${runs} runs (run ${fastest.run}): ${fastest.milliseconds} ms, ${fastest.rate} schedules/s (load average over the last minute: ${os.loadavg()[0].toFixed(2)})`);
    const nativeFile = process.env.BENCH_NATIVE;
    const match = nativeFile && fs.existsSync(nativeFile)
      && fs.readFileSync(nativeFile, 'utf8').match(/K=2 P=2:.* in +([\d.]+) ms \(([\d.]+) schedules\/s/);
    if (match) {
      const [nativeMilliseconds, nativeRate] = [Number(match[1]), Number(match[2])];
      console.log(`explorer, K=2 P=2: ${nativeMilliseconds} ms natively, ${fastest.milliseconds} ms in wasm; ${nativeRate.toFixed(0)} schedules/s natively, ${fastest.rate} in wasm: native/wasm = ${(nativeRate / fastest.rate).toFixed(2)}x`);
    }
  }
  await context.close();
} finally {
  await browser.close();
  await stopServer(server);
}

/** A figure as the page prints it ("1,234") as a number. */
function number(text) {
  return Number(text.replaceAll(',', ''));
}
