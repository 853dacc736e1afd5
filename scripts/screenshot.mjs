#!/usr/bin/env node
// Regenerates the README's screenshot, docs/screenshot.png: the built site (dist/, from
// `make build`) in Debian's headless Chromium through playwright-core, launched and served the
// way the browser tests do (tests/browser/support.js). It opens a lesson and steps on, as a
// learner who skips the predictions, until the records show a duplicate; then it takes the
// window (tall enough for the records, the diagram and the invariants), light theme, animations
// off. `make screenshot` runs it.
// Usage: node scripts/screenshot.mjs [LESSON] [OUT]   (default: naive-retry docs/screenshot.png)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchBrowser, open, startServer, stepOn, stopServer } from '../tests/browser/support.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const lesson = process.argv[2] ?? 'naive-retry';
const out = path.resolve(ROOT, process.argv[3] ?? 'docs/screenshot.png');
/** Steps at the most before giving up on seeing a duplicate. */
const STEPS_MAX = 80;

const { server, origin } = await startServer();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1500 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await open(page, `${origin}/#/lesson/${lesson}`);
  const duplicate = page.locator('table td.duplicate');
  let steps = 0;
  while ((await duplicate.count()) === 0) {
    if (steps === STEPS_MAX) {
      throw new Error(`no duplicate in the records of lesson ${lesson} after ${STEPS_MAX} steps`);
    }
    await stepOn(page);
    steps += 1;
  }
  // The narrative and the lab as a learner sees them, from the top of the page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: out });
  console.log(`screenshot: ${path.relative(ROOT, out)}, lesson ${lesson} after ${steps} steps`);
} finally {
  await browser.close();
  await stopServer(server);
}
