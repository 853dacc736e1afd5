// `make bench`, the site: one table of the gzip and brotli size of every file of dist/ and of
// the minimal Yew app (tests/minimal-app/dist, built in the same run with the same profile), the
// first paint of the course map and of a lesson beside the minimal app (median of 7 cold loads,
// served compressed by scripts/serve-dist.mjs), and Lighthouse's scores when it can run.
// Prints figures; asserts nothing.

import fs from 'node:fs';
import path from 'node:path';

import { compressed, siteFiles } from '../../scripts/postbuild.mjs';
import { createServer } from '../../scripts/serve-dist.mjs';
import { DIST, ROOT, launchBrowser, stopServer } from './support.js';

const MINIMAL = path.join(ROOT, 'tests', 'minimal-app', 'dist');
// The floor: Yew, every lesson, the engine's run and explorer and the trace's JSON, with no UI.
const FLOOR = path.join(ROOT, 'tests', 'floor-app', 'dist');
const RUNS = 7;

const kb = (bytes) => (bytes / 1024).toFixed(1); // KiB
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** [{ file, raw, gzip, brotli }] for the site in `dist`, and their total. */
function sizes(dist) {
  const rows = siteFiles(dist).map((file) => {
    const bytes = fs.readFileSync(file);
    const { gzip, brotli } = compressed(bytes);
    return { file: path.relative(dist, file), raw: bytes.length, gzip: gzip.length, brotli: brotli.length };
  });
  const total = rows.reduce(
    (sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip, brotli: sum.brotli + row.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
  return { rows, total: { file: 'total', ...total } };
}

function printSizes(title, { rows, total }) {
  console.log(`\n${title}\n| file | raw KiB | gzip KiB | brotli KiB |\n|---|---:|---:|---:|`);
  for (const row of [...rows, total]) {
    console.log(`| ${row.file} | ${kb(row.raw)} | ${kb(row.gzip)} | ${kb(row.brotli)} |`);
  }
}

async function serve(dist) {
  const server = createServer(dist);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/**
 * Milliseconds from the start of navigation to the first frame painted after `selector`'s
 * element is in the page (a MutationObserver sees it, the next animation frame paints it), in a
 * fresh context: nothing cached. With `app`, only the app's own element counts, enabled: not one
 * of the markup prerendered for the address (scripts/postbuild.mjs), whose buttons are disabled
 * until the app is there.
 */
async function firstPaint(browser, { url, selector, app = false }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(([wanted, own]) => {
      const seen = () => {
        const element = document.querySelector(wanted);
        if (!element || (own && (element.disabled || element.closest('[data-prerender]')))) return false;
        requestAnimationFrame(() => {
          window.firstPaintMs = performance.now();
        });
        return true;
      };
      new MutationObserver((_, observer) => {
        if (seen()) observer.disconnect();
      }).observe(document, { childList: true, subtree: true, attributes: own });
    }, [selector, app]);
    await page.goto(url);
    await page.waitForFunction(() => window.firstPaintMs !== undefined, null, { timeout: 30_000 });
    return await page.evaluate(() => window.firstPaintMs);
  } finally {
    await context.close();
  }
}

/** Lighthouse's category scores for a URL, or the reason it could not run. */
async function lighthouseScores(url) {
  let lighthouse;
  let launch;
  try {
    ({ default: lighthouse } = await import('lighthouse'));
    ({ launch } = await import('chrome-launcher'));
  } catch (error) {
    return { error: `the lighthouse npm package is not installed (${error.code ?? error.message})` };
  }
  const chrome = await launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
    const { categories, audits } = result.lhr;
    return {
      performance: Math.round(categories.performance.score * 100),
      accessibility: Math.round(categories.accessibility.score * 100),
      'best practices': Math.round(categories['best-practices'].score * 100),
      seo: Math.round(categories.seo.score * 100),
      LCP: audits['largest-contentful-paint'].displayValue,
      TBT: audits['total-blocking-time'].displayValue,
      // What keeps accessibility, best practices or SEO under 100.
      failing: ['accessibility', 'best-practices', 'seo']
        .flatMap((category) => categories[category].auditRefs)
        .filter(({ id, weight }) => weight > 0 && audits[id].score !== null && audits[id].score < 1)
        .map(({ id }) => id)
        .join(', ') || 'none',
    };
  } catch (error) {
    return { error: error.message.split('\n')[0] };
  } finally {
    chrome.kill();
  }
}

for (const dist of [DIST, MINIMAL, FLOOR]) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.error(`${dist}/index.html is missing: make bench builds it first`);
    process.exit(1);
  }
}
const lab = sizes(DIST);
const minimal = sizes(MINIMAL);
printSizes('Idempotency Lab, dist/', lab);
printSizes('Minimal Yew 0.23 counter app, tests/minimal-app/dist/ (same profile)', minimal);
console.log(`\nwhole site: ${kb(lab.total.gzip)} KiB gzip, ${kb(lab.total.brotli)} KiB brotli; ` +
  `minimal app: ${kb(minimal.total.gzip)} KiB gzip, ${kb(minimal.total.brotli)} KiB brotli; ` +
  `ratio ${(lab.total.gzip / minimal.total.gzip).toFixed(2)}× gzip, ${(lab.total.brotli / minimal.total.brotli).toFixed(2)}× brotli`);
const floor = sizes(FLOOR);
console.log(`the floor (tests/floor-app: Yew, the lessons, the engine's run and explorer, the trace's JSON; ` +
  `no UI): ${kb(floor.total.gzip)} KiB gzip, ${kb(floor.total.brotli)} KiB brotli; ` +
  `the lab's pages above it: ${kb(lab.total.gzip - floor.total.gzip)} KiB gzip`);

const site = await serve(DIST);
const yardstick = await serve(MINIMAL);
const browser = await launchBrowser();
const pages = [
  { name: 'course map', url: `${site.origin}/#/`, selector: 'h1' },
  { name: 'lesson (its first step and Next painted: prerendered, Next disabled until the app runs)', url: `${site.origin}/#/lesson/lost-reply`, selector: '.stepper button.primary' },
  { name: "lesson (the app's working Next button)", url: `${site.origin}/#/lesson/lost-reply`, selector: '.stepper button.primary', app: true },
  { name: 'minimal app', url: `${yardstick.origin}/`, selector: 'h1' },
];
try {
  // Round by round, one cold load of each page, so a busy moment of the machine falls on all three.
  const runs = pages.map(() => []);
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, page] of pages.entries()) runs[index].push(await firstPaint(browser, page));
  }
  const times = runs.map(median);
  const base = times[pages.length - 1];
  console.log(`\nFirst paint, median of ${RUNS} cold loads (interleaved), served compressed (brotli), Chromium ${browser.version()} headless\n| page | ms | × minimal app |\n|---|---:|---:|`);
  pages.forEach((page, index) => console.log(`| ${page.name} | ${times[index].toFixed(0)} | ${(times[index] / base).toFixed(2)} |`));
} finally {
  await browser.close();
}

console.log('\nLighthouse (mobile defaults, served compressed)');
for (const [name, url] of [['course map', `${site.origin}/#/`], ['lesson', `${site.origin}/#/lesson/lost-reply`], ['minimal app', `${yardstick.origin}/`]]) {
  const scores = await lighthouseScores(url);
  console.log(`| ${name} | ${Object.entries(scores).map(([key, value]) => `${key} ${value}`).join(' | ')} |`);
}
await stopServer(site.server);
await stopServer(yardstick.server);
