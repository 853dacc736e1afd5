// Shared helpers for the real-browser tests: a static server for dist/, Debian's headless
// Chromium through playwright-core, console-error capture, and the expected states
// of a lesson computed from the engine's own traces (never hand-typed).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

import { basePath } from '../../scripts/serve-dist.mjs';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

/** How long to wait for anything to appear in the page, in milliseconds. */
export const TIMEOUT = 10_000;

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Serves dist/ (or another build, `root`) on 127.0.0.1 at an ephemeral port, under the path it
 * was built for (its <base href>: `/`, or a sub-path such as `/sub/path/`). Unknown paths get
 * index.html (the app routes by the hash, so any path must boot it). Resolves to
 * { server, origin }, `origin` with the build's sub-path if it has one (`${origin}/#/…` opens it).
 */
export async function startServer(root = DIST) {
  const index = path.join(root, 'index.html');
  if (!fs.existsSync(index)) {
    throw new Error(`${index} is missing: run make build first (make test-browser builds test-output/subpath/ too)`);
  }
  const prefix = basePath(fs.readFileSync(index, 'utf8'));
  const server = http.createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end('bad request');
      return;
    }
    if (pathname.startsWith(prefix)) pathname = `/${pathname.slice(prefix.length)}`;
    let file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root) || !isFile(file)) file = index; // also stops ../ escapes
    const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    fs.createReadStream(file).pipe(response);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return { server, origin: `http://127.0.0.1:${port}${prefix.slice(0, -1)}` };
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Registers the suite's before and after hooks: a static server for dist/ (or the build in
 * `root`, see startServer) and a browser, both closed at the end. `use` receives
 * { origin, browser } once they are up.
 */
export function useSite(use, root = DIST) {
  let server;
  let browser;
  before(async () => {
    let origin;
    ({ server, origin } = await startServer(root));
    browser = await launchBrowser();
    use({ origin, browser });
  });
  after(async () => {
    await browser?.close();
    await stopServer(server);
  });
}

export function stopServer(server) {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** Debian's Chromium, headless; Playwright gives it a fresh temporary profile. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A new page in a fresh browser context (no local storage, cookies or cache from another test),
 * that records console errors and uncaught exceptions. Returns { page, errors, close }. Warnings
 * are allowed; call assertNoErrors(errors) at the end. The lab's service worker is blocked (so
 * routes see every request, and no test caches the build) unless `serviceWorkers: 'allow'`.
 */
export async function newPage(browser, { serviceWorkers = 'block', ...options } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers, ...options });
  context.setDefaultTimeout(TIMEOUT);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { page, errors, close: () => context.close() };
}

/**
 * Holds every request of `page` whose URL matches `url` until `release()`: returns
 * { release, asked }, `asked()` being how many were asked for so far.
 */
export async function holdRequests(page, url) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let asked = 0;
  await page.route(url, async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/** Waits until the page is controlled by the lab's service worker, with the build cached. */
export async function waitForServiceWorker(page) {
  await page.waitForFunction(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === 'activated';
  }, null, { timeout: 60_000 });
  // First visit: the worker claims the page once it is active.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

export function assertNoErrors(errors, where = 'the page') {
  assert.deepEqual(errors, [], `${where} logged errors:\n${errors.join('\n')}`);
}

/**
 * Opens a URL and waits until the app has rendered its main heading (not the course map
 * prerendered into index.html, which the app replaces as it mounts).
 */
export async function open(page, url) {
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
}

/** Polls a text source until it matches (string: equal after trimming; RegExp: test). */
export async function waitForText(read, expected, { timeout = TIMEOUT, what = 'text' } = {}) {
  const get = typeof read === 'function' ? read : () => read.textContent();
  const matches = (text) =>
    expected instanceof RegExp ? expected.test(text) : text.replace(/\s+/g, ' ').trim() === expected;
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = (await get()) ?? '';
    } catch (error) {
      last = `<${error.message.split('\n')[0]}>`;
    }
    if (matches(last)) return last;
    if (Date.now() > deadline) {
      throw new assert.AssertionError({
        message: `timed out after ${timeout} ms waiting for ${what} to be ${expected}; last saw ${JSON.stringify(last)}`,
        actual: last,
        expected: String(expected),
        operator: 'waitForText',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// ---------------------------------------------------------------------------------------------
// The lesson page, read as a person reads it.

export function lessonUrl(origin, id, step) {
  return step === undefined ? `${origin}/#/lesson/${id}` : `${origin}/#/lesson/${id}/${step}`;
}

export function stepper(page) {
  const group = page.getByRole('group', { name: 'Step through the run' });
  return {
    group,
    restart: group.getByRole('button', { name: 'Restart', exact: true }),
    back: group.getByRole('button', { name: 'Back', exact: true }),
    next: group.getByRole('button', { name: 'Next', exact: true }),
    count: group.getByText(/^Step \d+ of \d+$/),
  };
}

/** The step number the stepper shows. */
export async function stepNumber(page) {
  return Number((await stepper(page).count.textContent()).match(/^Step (\d+)/)[1]);
}

/** The lab's "Predict first" notice, shown when Next waits for the part's prediction. */
export function predictFirst(page) {
  return page.getByRole('alert').filter({ hasText: 'Predict first.' });
}

/**
 * One step on, as a learner who does not predict: `press` (Next by default) and, when the lesson
 * holds Next back for the part's prediction, "Skip the prediction", which moves on. Resolves once
 * the step count has changed.
 */
export async function stepOn(page, press = () => stepper(page).next.click()) {
  const count = stepper(page).count;
  const before = await count.textContent();
  await press();
  const skip = page.getByRole('button', { name: 'Skip the prediction' });
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    if ((await count.textContent()) !== before) return;
    if (await skip.isVisible()) await skip.click();
    else await page.waitForTimeout(15);
  }
  throw new Error(`Next did not move on from "${before}" within ${TIMEOUT} ms`);
}

/** Waits for "Step K of N" in the stepper. */
export function waitForStep(page, step, total) {
  return waitForText(stepper(page).count, `Step ${step} of ${total}`, { what: 'the step count' });
}

/** The text of an element as a screen reader gets it: without aria-hidden parts, spaces collapsed. */
function spokenText(elements) {
  return elements.map((element) => {
    const copy = element.cloneNode(true);
    copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
    return copy.textContent.replace(/\s+/g, ' ').trim();
  });
}

/**
 * The row of one operation in the Records table, keyed by column header. Each cell is
 * { value, changed, duplicate }: value without the "(changed)" and "⚠ duplicate" marks.
 */
export async function readRecordRow(page, op) {
  const table = page.getByRole('table', { name: 'Records' });
  const headers = await table.getByRole('columnheader').evaluateAll(spokenText);
  const row = table.getByRole('row', { name: new RegExp(op) });
  const cells = await row.getByRole('cell').evaluateAll(spokenText);
  assert.equal(headers[0], 'Operation');
  assert.equal(cells.length, headers.length - 1, `the ${op} row has a cell for every column`);
  const result = {};
  headers.slice(1).forEach((header, index) => {
    let text = cells[index];
    const changed = / \(changed\)$/.test(text) || text === '(changed)';
    text = text.replace(/ ?\(changed\)$/, '');
    const duplicate = /⚠ duplicate$/.test(text);
    text = text.replace(/ ?⚠ duplicate$/, '');
    result[header] = { value: text, changed, duplicate };
  });
  return result;
}

/** The invariants as listed in the Invariants section: [{ statement, broken, text }]. */
export async function readInvariants(page) {
  const section = page.getByRole('region', { name: 'Invariants' });
  const items = await section.getByRole('listitem').evaluateAll(spokenText);
  return items.map((text) => {
    const match = /^(.*?): (holds|broken at event \d+.*)$/.exec(text);
    assert.ok(match, `an invariant reads "statement: holds|broken ...", got ${JSON.stringify(text)}`);
    return { statement: match[1], broken: match[2].startsWith('broken'), text };
  });
}

/** Everything a learner sees change from step to step (the Records row of `op`), for comparing two visits of one step. */
export async function readLessonState(page, op = 'OP-001') {
  const { count } = stepper(page);
  const lab = page.getByRole('region', { name: 'Lab' });
  const [step, records, invariants, event, narrative, design] = await Promise.all([
    count.textContent(),
    readRecordRow(page, op),
    readInvariants(page),
    page.getByRole('region', { name: 'What just happened' }).evaluateAll(spokenText),
    page
      .getByRole('region')
      .filter({ hasText: /^\s*Part \d+ of \d+/ })
      .getByRole('heading', { level: 2 })
      .textContent(),
    lab
      .getByRole('navigation', { name: 'Designs in this lesson' })
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-current'))),
  ]);
  return { step, records, invariants, event: event[0], narrative, design };
}

// ---------------------------------------------------------------------------------------------
// Expected states, from the course files and the engine.

/** The lesson file whose `id` is this one. */
export function lessonFile(id) {
  const dir = path.join(ROOT, 'lessons');
  const file = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.toml') && name !== 'course.toml')
    .find((name) => {
      // Only the top-level id names the lesson: the part before the first [table].
      const head = fs.readFileSync(path.join(dir, name), 'utf8').split(/^\[/m)[0];
      return new RegExp(`^id\\s*=\\s*"${id}"`, 'm').test(head);
    });
  assert.ok(file, `a lesson file has id "${id}"`);
  return path.join('lessons', file);
}

/** The lesson ids of lessons/course.toml, in order (every `lessons = [...]` of its sections). */
export function courseLessonIds() {
  const toml = fs.readFileSync(path.join(ROOT, 'lessons', 'course.toml'), 'utf8').replace(/#.*$/gm, '');
  const ids = [];
  for (const [, list] of toml.matchAll(/^\s*lessons\s*=\s*\[([^\]]*)\]/gm)) {
    ids.push(...[...list.matchAll(/"([^"]+)"/g)].map((match) => match[1]));
  }
  return ids;
}

/** Runs `lab ARGS` (the binary $LAB_BIN names, else through cargo) and returns what it printed. */
export function labText(args) {
  const [command, prefix] = process.env.LAB_BIN ? [process.env.LAB_BIN, []] : ['cargo', ['run', '-q', '-p', 'lab', '--']];
  return execFileSync(command, [...prefix, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** Runs `lab ARGS` and reads its JSON lines. */
export function labJson(args) {
  return labText(args)
    .trim()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/**
 * Runs the lesson through the engine's CLI (`cargo run -p lab -- run FILE --json`, or the binary
 * named by $LAB_BIN), with `extra` arguments (e.g. `--switch reconcile=on`): one trace per design, in the lesson file's order. Each line is
 * {"name": "lesson / design", "trace": {...}, "text": [{"outcome", "labels"}, ...]}. An event's
 * `outcome` is data (engine/TRACE.md); the words the page shows are `text`'s, copied onto each
 * event as `outcomeText`.
 */
export function engineTraces(lessonFile, extra = []) {
  const [command, args] = process.env.LAB_BIN
    ? [process.env.LAB_BIN, ['run', lessonFile, '--json', ...extra]]
    : ['cargo', ['run', '-q', '-p', 'lab', '--', 'run', lessonFile, '--json', ...extra]];
  let output;
  try {
    output = execFileSync(command, args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(`could not run the lesson through the engine (${command} ${args.join(' ')}): ${error.stderr || error.message}`);
  }
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const { trace, text, applies } = JSON.parse(line);
      trace.events.forEach((event, index) => {
        event.outcomeText = text[index].outcome;
      });
      trace.applies = applies;
      return trace;
    });
}

/** How many steps a lesson has: one a frame of every design (its events + 1). */
export const stepCount = (traces) => traces.reduce((sum, trace) => sum + trace.events.length + 1, 0);

/** The 1-based URL step of `cursor` in the design at `design`, from the engine's traces. */
export const stepOf = (traces, design, cursor) => stepCount(traces.slice(0, design)) + cursor + 1;

const STATUS_WORDS = {
  pending: 'pending',
  unknown: 'unknown',
  verified: 'verified',
  failed: 'failed',
  needs_review: 'needs review',
  cancelled: 'cancelled',
};

/** The Records-table cells a world state should show for one operation (as the UI words them). */
export function expectedCells(state, op) {
  const job = state.journal[op];
  const held = state.provider.filter((record) => record.operation === op).map((record) => record.receipt);
  return {
    Journal: job ? `${STATUS_WORDS[job.status] ?? job.status}${job.reason ? ` (${job.reason})` : ''}` : 'no row',
    Attempts: job ? String(job.attempts) : '–',
    Receipt: job?.receipt ?? '–',
    'Provider records': held.length === 0 ? 'none' : `${held.length}: ${held.join(', ')}`,
    duplicate: held.length > 1,
  };
}

/**
 * The state after every event of a trace, rebuilt from its format-4 JSON the way engine/TRACE.md
 * says (initial state, then each event's changes, tick = event.tick + 1): written here from the
 * document, not from the engine's code, so the browser tests also check that the document and
 * the format agree. states[0] is the initial state; states[n] the state after event n.
 */
export function traceStates(trace) {
  const copy = (value) => structuredClone(value);
  const state = copy(trace.initial);
  const states = [copy(state)];
  const row = (rowid) => state.table.rows.findIndex((candidate) => candidate.rowid === rowid);
  for (const event of trace.events) {
    for (const change of event.changes) {
      switch (change.change) {
        case 'job': state.journal[change.row.id] = change.row; break;
        case 'provider': state.provider.push(change.record); break;
        case 'key_expired': for (const at of change.records) state.provider[at].key_expired = true; break;
        case 'in_flight': state.in_flight.push(change.request); break;
        case 'landed': state.in_flight.splice(change.position, 1); break;
        case 'row': state.table.rows.push(change.row); break;
        case 'row_deleted': state.table.rows.splice(row(change.rowid), 1); break;
        case 'row_value': state.table.rows[row(change.rowid)].value = change.value; break;
        case 'dedup': if (!state.table.dedup.includes(change.key)) { state.table.dedup.push(change.key); state.table.dedup.sort(); } break;
        case 'tracker': if (!(change.key in state.tracker)) state.tracker[change.key] = change.operation; break;
        case 'effect': state.effects.push(change.effect); break;
        case 'model_calls': state.model_calls = change.value; break;
        case 'progress': state.progress = change.value; break;
        case 'deepest_calls': state.deepest_calls = change.value; break;
        case 'cancelled': state.cancelled = [...new Set([...state.cancelled, change.worker])].sort((a, b) => a - b); break;
        case 'worker': Object.assign(state.workers[change.worker], { state: change.state, op: change.op, run: change.run }); break;
        case 'result': state.workers[change.worker].results.push(change.result); break;
        default: throw new Error(`event ${event.index}: a change of unknown kind ${JSON.stringify(change)}`);
      }
    }
    state.tick = event.tick + 1;
    states.push(copy(state));
  }
  return states;
}

/**
 * The verdicts the Invariants panel lists for a run: those its scenario can break, as `lab run
 * --json` names them (engine/src/invariant.rs, Invariant::applies): every invariant but
 * eventually_answered outside the charge workflow (the one that answers "in progress"), and
 * stops_when_cancelled where the engine reads the cancel flag before every step.
 */
export const listed = (trace) => trace.verdicts.filter((verdict) => trace.applies.includes(verdict.invariant));

/**
 * Every frame of the lesson: the designs play one after another, each contributing
 * events.length + 1 frames (cursor 0 is the initial state). The URL step is frame + 1.
 */
export function lessonFrames(traces, op) {
  const frames = [];
  traces.forEach((trace, design) => {
    const verdicts = listed(trace);
    const states = traceStates(trace);
    for (let cursor = 0; cursor <= trace.events.length; cursor += 1) {
      const state = states[cursor];
      const previous = cursor === 0 ? null : states[cursor - 1];
      frames.push({
        step: frames.length + 1,
        design,
        cursor,
        events: trace.events.length,
        event: cursor === 0 ? null : trace.events[cursor - 1],
        cells: expectedCells(state, op),
        previous: previous && expectedCells(previous, op),
        broken: verdicts.map((verdict) => verdict.broken_at !== null && verdict.broken_at <= cursor),
        verdicts,
      });
    }
  });
  return frames;
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page and returns its violations, one line each. The page's CSP forbids
 * inline scripts (so no addScriptTag); the DevTools protocol evaluates axe's source directly.
 */
export async function axeViolations(page) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.map(({ id, impact, help, nodes }) => `${id} (${impact}): ${help}: ${nodes.slice(0, 5).join(', ')}${nodes.length > 5 ? ` and ${nodes.length - 5} more` : ''}`);
}

/** Records every main-thread task over 50 ms in window.longTasks, from the page's start. */
export async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task `watchLongTasks` recorded since `window.longTasks` was last emptied (0 if none). */
export async function longestTask(page) {
  return page.evaluate(() => Math.max(0, ...window.longTasks.map((task) => task.duration)));
}
