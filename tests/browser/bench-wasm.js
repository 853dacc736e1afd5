// `make bench`, in the browser: serves dist/, opens the engine page in Debian's headless Chromium,
// runs its measurement several times and prints the figures of the last run, then the explorer's
// fastest run. When the native explorer bench's command is given (BENCH_NATIVE_CMD), it runs
// just before each browser run, and the native/wasm ratio is printed for each pair as well as
// for the fastest of each: a shared machine's speed drifts by tens of percent from one minute to
// the next, so a ratio of two figures taken minutes apart says more about the minute than the
// build. The native bench reports the fastest of a few runs, as the page does.
// Environment: BENCH_RUNS (default 5) measurements; BENCH_DIST (default ../../dist) the site;
// BENCH_NATIVE_CMD a shell command that prints the native explorer bench's lines.
// Prints figures; asserts nothing about speed.

import { execSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

import { launchBrowser, startServer, stopServer } from './support.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
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
  let fastestNative = null;
  const pairs = [];
  let lastTables = [];
  for (let run = 1; run <= runs; run++) {
    const native = nativeExplorer();
    if (native && (!fastestNative || native.milliseconds < fastestNative.milliseconds)) fastestNative = native;
    await page.getByRole('button', { name: 'Run the measurement' }).click();
    await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor({ timeout: 600_000 });
    lastTables = [];
    let wasm = null;
    for (const table of await page.getByRole('table').all()) {
      const caption = await table.locator('caption').textContent();
      const rows = [];
      for (const row of await table.getByRole('row').all()) {
        const cells = await row.locator('th, td').allTextContents();
        rows.push(cells);
        if (cells[0].includes('2 faults,')) wasm = { milliseconds: number(cells[4]), rate: number(cells[5]), run };
      }
      lastTables.push({ caption, rows });
    }
    if (wasm && (!fastest || wasm.milliseconds < fastest.milliseconds)) fastest = wasm;
    if (wasm && native) pairs.push({ run, native, wasm, ratio: wasm.milliseconds / native.milliseconds });
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
  }
  if (pairs.length > 0) {
    for (const { run, native, wasm, ratio } of pairs) {
      console.log(`  run ${run}: natively ${native.milliseconds} ms just before, in wasm ${wasm.milliseconds} ms: wasm/native = ${ratio.toFixed(2)}x`);
    }
    const ratios = pairs.map((pair) => pair.ratio).sort((a, b) => a - b);
    const median = ratios.length % 2 === 1
      ? ratios[(ratios.length - 1) / 2]
      : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
    console.log(`explorer, K=2 P=2, wasm/native time: median of ${pairs.length} paired runs ${median.toFixed(2)}x (from ${ratios[0].toFixed(2)}x to ${ratios[ratios.length - 1].toFixed(2)}x); fastest against fastest: ${fastestNative.milliseconds} ms natively, ${fastest.milliseconds} ms in wasm, ${(fastest.milliseconds / fastestNative.milliseconds).toFixed(2)}x; ${fastestNative.rate.toFixed(0)} schedules/s natively, ${fastest.rate} in wasm`);
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

/** The native explorer bench's K=2 row (BENCH_NATIVE_CMD), or null when no command is given. */
function nativeExplorer() {
  const command = process.env.BENCH_NATIVE_CMD;
  if (!command) return null;
  const output = execSync(command, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const match = output.match(/K=2 P=2:.* in +([\d.]+) ms \(([\d.]+) schedules\/s/);
  if (!match) throw new Error(`BENCH_NATIVE_CMD printed no K=2 row:\n${output}`);
  return { milliseconds: Number(match[1]), rate: Number(match[2]) };
}
