// `make bench`, in the browser: serves dist/, opens the engine page in Debian's headless Chromium,
// runs its measurement and prints the figures, with the ratio of native to wasm speed for the
// explorer when the native explorer bench's output is given (path in BENCH_NATIVE).
// Prints figures; asserts nothing about speed.

import fs from 'node:fs';

import { launchBrowser, startServer, stopServer } from './support.js';

const { server, origin } = await startServer();
const browser = await launchBrowser();
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/#/engine`);
  await page.getByRole('button', { name: 'Run the measurement' }).click();
  await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor({ timeout: 600_000 });
  const tables = await page.getByRole('table').all();
  console.log(`\nIn Chromium (${browser.version()}), wasm build of dist/:`);
  let wasmRate = null;
  for (const table of tables) {
    console.log(`\n${await table.locator('caption').textContent()}`);
    const rows = await table.getByRole('row').all();
    for (const row of rows) {
      const cells = (await row.locator('th, td').allTextContents()).map((text) => text.padStart(14));
      console.log(cells.join(' '));
      if (cells[0].includes('2 faults,')) wasmRate = Number(cells[5].replaceAll(',', ''));
    }
  }
  const status = await page.getByRole('status').textContent();
  console.log(`\n${status}`);
  const nativeFile = process.env.BENCH_NATIVE;
  if (wasmRate && nativeFile && fs.existsSync(nativeFile)) {
    const match = fs.readFileSync(nativeFile, 'utf8').match(/K=2 P=2:.*\(([\d.]+) schedules\/s/);
    if (match) {
      const nativeRate = Number(match[1]);
      console.log(`explorer, K=2 P=2: ${nativeRate.toFixed(0)} schedules/s natively, ${wasmRate} in wasm: native/wasm = ${(nativeRate / wasmRate).toFixed(2)}x`);
    }
  }
  await context.close();
} finally {
  await browser.close();
  await stopServer(server);
}
