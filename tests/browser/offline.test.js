// Offline: the service worker (static/sw.js, given the build's files by scripts/postbuild.mjs)
// caches the site on the first visit, so a reload with no network opens a lesson, steps it,
// opens the sandbox and runs the explorer. A new build is announced, never mid-lesson, and Reload
// swaps to it. The manifest makes the lab installable.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import {
  DIST, assertNoErrors, courseLessonIds, lessonUrl, newPage, open, startServer, stepOn, stepper, stopServer, useSite,
  waitForServiceWorker, waitForText,
} from './support.js';

describe('offline', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('after one visit, a reload with no network opens a lesson and the sandbox', async () => {
    const { page, errors, close } = await newPage(browser, { serviceWorkers: 'allow' });
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await waitForServiceWorker(page);
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((name) => name.startsWith('idempotency-lab ')));
      return (await cache.keys()).map((request) => new URL(request.url).pathname);
    });
    assert.ok(cached.some((file) => /^\/idempotency-lab-[0-9a-f]+_bg\.wasm$/.test(file)), `the first module is cached: ${cached.join(' ')}`);
    assert.ok(cached.includes('/idempotency-lab-whole_bg.wasm') && cached.includes('/idempotency-lab-whole.js'), 'the whole app is cached');
    assert.ok(cached.includes('/lab-worker_bg.wasm'), 'the Web Worker\'s module is cached');
    // Every lesson's file (the app fetches one when a lesson opens).
    const lessonFiles = fs.readdirSync(path.join(DIST, 'lessons')).filter((name) => name.endsWith('.json'));
    assert.ok(lessonFiles.length > 0);
    for (const file of lessonFiles) assert.ok(cached.includes(`/lessons/${file}`), `${file} is cached`);

    await page.context().setOffline(true);
    await page.goto(lessonUrl(origin, 'naive-retry', 1));
    await page.reload();
    await stepper(page).count.waitFor();
    await stepOn(page);
    assert.match(await stepper(page).count.textContent(), /^Step 2 of \d+$/);
    // Every lesson opens offline, its file from the cache.
    for (const id of courseLessonIds()) {
      await page.goto(lessonUrl(origin, id, 1));
      await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: `lesson ${id} offline` });
    }
    await page.goto(`${origin}/#/sandbox`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByLabel('Scenario (TOML)').waitFor();
    // Its text is written by the second module, from the cache.
    await waitForText(() => page.getByLabel('Scenario (TOML)').inputValue(), /^workflow = "/m, { what: 'the sandbox text offline' });
    // Reloaded at the sandbox's address, the page starts the whole app at once, from the cache.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sandbox' }).waitFor();
    await waitForText(() => page.getByLabel('Scenario (TOML)').inputValue(), /^workflow = "/m, { what: 'the sandbox text after an offline reload' });
    // The explorer's module comes from the cache too.
    await page.getByRole('button', { name: 'What could go wrong?', exact: true }).click();
    await page.getByRole('region', { name: 'What the explorer found' }).waitFor({ timeout: 60_000 });
    assertNoErrors(errors);
    await close();
  });

  it('a new build says "A new version of the lab is ready: Reload" outside a lesson, and Reload swaps to it', async () => {
    // A copy of the build, whose service worker then changes as a new build's would.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-update-'));
    fs.cpSync(DIST, copy, { recursive: true });
    const { server, origin: host } = await startServer(copy);
    const { page, errors, close } = await newPage(browser, { serviceWorkers: 'allow' });
    try {
      await open(page, lessonUrl(host, 'lost-reply', 1));
      await waitForServiceWorker(page);
      const worker = path.join(copy, 'sw.js');
      fs.writeFileSync(worker, fs.readFileSync(worker, 'utf8').replace(/^const VERSION = '([^']*)';$/m, "const VERSION = '$1-next';"));
      // The next visit finds the new build; it installs and waits while the learner is in a lesson.
      await page.reload();
      await stepper(page).count.waitFor();
      await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state === 'installed', null, { timeout: 60_000 });
      const notice = page.getByRole('status').filter({ hasText: 'A new version of the lab is ready' });
      await stepOn(page);
      assert.equal(await notice.count(), 0, 'no notice mid-lesson');
      await page.evaluate(() => { location.hash = '#/'; });
      await notice.waitFor();
      assert.equal((await notice.innerText()).trim(), 'A new version of the lab is ready: Reload');
      await notice.getByRole('button', { name: 'Reload' }).click();
      await page.waitForFunction(async () => (await caches.keys()).some((name) => name.endsWith('-next')), null, { timeout: 30_000 });
      await page.waitForFunction(async () => (await caches.keys()).length === 1, null, { timeout: 30_000 });
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await notice.count(), 0, 'the new version runs: no notice');
      assertNoErrors(errors);
    } finally {
      await close();
      await stopServer(server);
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('the manifest names the lab, its start and its icon', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const response = await page.request.get(new URL(href, `${origin}/`).href);
    assert.equal(response.status(), 200);
    const manifest = await response.json();
    assert.equal(manifest.name, 'Idempotency Lab');
    assert.equal(manifest.start_url, './');
    assert.equal(manifest.display, 'standalone');
    const icon = await page.request.get(new URL(manifest.icons[0].src, `${origin}/`).href);
    assert.equal(icon.status(), 200, 'the icon is there');
    assertNoErrors(errors);
    await close();
  });
});
