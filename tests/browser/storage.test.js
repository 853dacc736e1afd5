// Saved progress and settings: progress survives a reload, corrupt stored data gives a notice
// and a clean start while the data is kept under a backup key (never a crash, never deleted),
// imports merge and can be undone, export and reset work, a refused save is said in the page,
// two tabs merge, and a build under a sub-path keeps its own data. Presenter mode is a real,
// remembered toggle.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { DIST, assertNoErrors, lessonUrl, newPage, open, stepper, waitForStep, waitForText, useSite } from './support.js';

describe('saved progress and settings', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('remembers where the learner stopped, across a reload', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'naive-retry'));
    const total = Number((await waitForText(stepper(page).count, /^Step 1 of \d+$/)).match(/of (\d+)/)[1]);
    for (let step = 2; step <= 5; step += 1) {
      await stepper(page).next.click();
      await waitForStep(page, step, total);
    }
    await page.goto(`${origin}/`);
    await page.reload();
    const resume = page.getByRole('link', { name: /Continue where you left off/ });
    await resume.waitFor();
    await page.getByText(`5 of ${total} steps`).waitFor();
    await resume.click();
    await waitForStep(page, 5, total);
    assert.match(page.url(), /#\/lesson\/naive-retry\/5$/);
    assertNoErrors(errors);
    await close();
  });

  for (const [key, value, what] of [
    ['idempotency-lab/progress', '{"version": 1, "lessons": ', 'cut-off JSON'],
    ['idempotency-lab/progress', '{"version": 999, "lessons": {}}', 'a newer format'],
    ['idempotency-lab/settings', '["not", "settings"]', 'the wrong shape'],
  ]) {
    it(`shows a notice, starts afresh and keeps corrupt stored data under a backup key (${what})`, async () => {
      const { page, errors, close } = await newPage(browser);
      await page.addInitScript(
        ([storedKey, storedValue]) => {
          if (!sessionStorage.getItem('seeded')) {
            localStorage.setItem(storedKey, storedValue);
            sessionStorage.setItem('seeded', '1');
          }
        },
        [key, value],
      );
      await open(page, `${origin}/`);
      const notice = page.getByRole('status').filter({ hasText: /could not be read/ });
      await notice.waitFor();
      // The notice names the key the data is kept under, and the data is there, unchanged.
      const backup = `${key}.backup-1`;
      assert.match(await notice.textContent(), new RegExp(`kept, unchanged, under the key "${backup}"`));
      if (what === 'a newer format') assert.match(await notice.textContent(), /written by a newer version of the lab/);
      assert.equal(await page.evaluate((name) => localStorage.getItem(name), backup), value);
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
      // The app keeps working, and the notice does not come back.
      await page.getByRole('link', { name: 'A missing reply is not a failed action' }).click();
      await waitForText(stepper(page).count, /^Step 1 of \d+$/);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await page.getByRole('status').filter({ hasText: /could not be read/ }).count(), 0);
      assert.equal(await page.evaluate((name) => localStorage.getItem(name), backup), value);
      assertNoErrors(errors);
      await close();
    });
  }

  it('toggles presenter mode with p and the header button, and remembers it', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.setViewportSize({ width: 1280, height: 720 });
    await open(page, lessonUrl(origin, 'lost-reply', 9));
    const toggle = page.getByRole('button', { name: 'Presenter mode' });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await page.keyboard.press('p');
    await waitForText(() => toggle.getAttribute('aria-pressed'), 'true', { what: 'presenter mode' });
    await page.getByRole('button', { name: 'Hide lesson text' }).click();
    await page.getByRole('button', { name: 'Show lesson text' }).waitFor();
    // What an instructor needs is on the first screen: the event and the records.
    for (const region of ['What just happened', 'Records']) {
      const box = await page.getByRole('region', { name: region }).boundingBox();
      assert.ok(box && box.y < 720, `${region} starts on the first 1280x720 screen (y = ${box?.y})`);
    }
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true', 'presenter mode survives a reload');
    await toggle.click();
    await waitForText(() => toggle.getAttribute('aria-pressed'), 'false', { what: 'presenter mode' });
    assertNoErrors(errors);
    await close();
  });

  // ------------------------------------------------------------------------------------------
  // Import, export and reset, from the course map.

  const PROGRESS = 'idempotency-lab/progress';
  const SETTINGS = 'idempotency-lab/settings';

  /** Stores `entries` ({ key: text }) before the app's first load in this page, and only then. */
  async function seed(page, entries) {
    await page.addInitScript((stored) => {
      if (!sessionStorage.getItem('seeded')) {
        for (const [key, text] of Object.entries(stored)) localStorage.setItem(key, text);
        sessionStorage.setItem('seeded', '1');
      }
    }, entries);
  }

  function stored(page, key = PROGRESS) {
    return page.evaluate((name) => JSON.parse(localStorage.getItem(name)), key);
  }

  function lessonsOf(progress) {
    return Object.fromEntries(Object.entries(progress.lessons).map(([id, lesson]) => [id, lesson.furthest]));
  }

  const SAVED = {
    version: 1,
    lessons: {
      'naive-retry': { furthest: 5, total: 20, completed: false },
    },
    last: ['naive-retry', 5],
    last_milliseconds: 2_000_000_000_000,
  };

  function importFile(page, name, text) {
    return page.getByLabel('Import progress').setInputFiles({
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
  }

  const ioStatus = (page) => page.locator('.io-status');

  it('merges an imported file with saved progress, and Undo puts back exactly what was there', async () => {
    const { page, errors, close } = await newPage(browser);
    const before = JSON.stringify(SAVED);
    await seed(page, { [PROGRESS]: before });
    await open(page, `${origin}/`);
    await page.getByText('5 of 20 steps').waitFor();
    // An older export: less far in one lesson, another lesson, an older position.
    const file = {
      version: 1,
      lessons: {
        'naive-retry': { furthest: 2, total: 20, completed: false },
        'lost-reply': { furthest: 3, total: 10, completed: false },
      },
      last: ['lost-reply', 3],
      last_milliseconds: 1_000,
    };
    await importFile(page, 'older.json', JSON.stringify(file));
    await waitForText(ioStatus(page), /^Progress imported: 2 lessons from the file, merged with yours/);
    assert.deepEqual(lessonsOf(await stored(page)), { 'lost-reply': 3, 'naive-retry': 5 });
    assert.deepEqual((await stored(page)).last, ['naive-retry', 5], 'the more recent position stays');
    await page.getByText('5 of 20 steps').waitFor();
    await page.getByText('3 of 10 steps').waitFor();
    await page.getByRole('button', { name: 'Undo import' }).click();
    await waitForText(ioStatus(page), /^Import undone/);
    assert.deepEqual(await stored(page), SAVED, 'Undo restores exactly the progress before');
    assert.equal(await page.getByText('3 of 10 steps').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Undo import' }).count(), 0);
    // An empty export changes nothing.
    await importFile(page, 'empty-export.json', '{"version": 1, "lessons": {}, "last": null}');
    await waitForText(ioStatus(page), /^Progress imported: 0 lessons/);
    assert.deepEqual(lessonsOf(await stored(page)), { 'naive-retry': 5 });
    assertNoErrors(errors);
    await close();
  });

  for (const [what, text, message] of [
    ['an empty file', '', /could not be imported \(it is empty\)/],
    ['the wrong version', '{"version": 0, "lessons": {}}', /could not be imported \(it has format version 0, and this version of the lab reads only version 1\)/],
    ['a file over the size limit', 'x'.repeat(1024 * 1024 + 1), /could not be imported \(it is 1048577 bytes long, more than the 1048576 bytes/],
  ]) {
    it(`refuses ${what} and leaves progress as it was`, async () => {
      const { page, errors, close } = await newPage(browser);
      await seed(page, { [PROGRESS]: JSON.stringify(SAVED) });
      await open(page, `${origin}/`);
      await importFile(page, 'file.json', text);
      const status = await waitForText(ioStatus(page), message);
      assert.match(status, /Your progress is unchanged\.$/);
      assert.deepEqual(await stored(page), SAVED);
      assert.equal(await page.getByRole('button', { name: 'Undo import' }).count(), 0);
      assertNoErrors(errors);
      await close();
    });
  }

  it('exports progress as a file that imports back, and resets only after confirming', async () => {
    const { page, errors, close } = await newPage(browser);
    await seed(page, { [PROGRESS]: JSON.stringify(SAVED) });
    await open(page, `${origin}/`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export progress' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'idempotency-lab-progress.json');
    const exported = fs.readFileSync(await download.path(), 'utf8');
    assert.deepEqual(JSON.parse(exported), SAVED);
    await waitForText(ioStatus(page), 'Progress exported to idempotency-lab-progress.json.');

    await page.getByRole('button', { name: 'Reset progress' }).click();
    await page.getByRole('group', { name: 'Confirm reset' }).getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await stored(page), SAVED, 'Cancel keeps progress');
    await page.getByRole('button', { name: 'Reset progress' }).click();
    await page.getByRole('button', { name: 'Yes, reset' }).click();
    await waitForText(ioStatus(page), /^Progress reset/);
    assert.deepEqual(lessonsOf(await stored(page)), {});
    assert.equal(await page.getByText('5 of 20 steps').count(), 0);
    // The exported file brings it back.
    await importFile(page, 'idempotency-lab-progress.json', exported);
    await waitForText(ioStatus(page), /^Progress imported: 1 lesson/);
    await page.getByText('5 of 20 steps').waitFor();
    assert.deepEqual(await stored(page), SAVED);
    assertNoErrors(errors);
    await close();
  });

  it('says in the page when the browser refuses to save, and keeps working in memory', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.addInitScript(() => {
      Storage.prototype.setItem = function refuse() {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await open(page, lessonUrl(origin, 'naive-retry'));
    const alert = page.getByRole('alert').filter({ hasText: /could not be saved/ });
    await alert.waitFor();
    assert.match(await alert.textContent(), /QuotaExceededError|quota/);
    assert.match(await alert.textContent(), /The lab keeps working/);
    const total = Number((await waitForText(stepper(page).count, /^Step 1 of \d+$/)).match(/of (\d+)/)[1]);
    await stepper(page).next.click();
    await waitForStep(page, 2, total);
    await stepper(page).next.click();
    await waitForStep(page, 3, total);
    // Progress is kept in memory for this visit.
    await page.evaluate(() => { location.hash = '#/'; });
    await page.getByText(`3 of ${total} steps`).waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await alert.waitFor({ state: 'detached' });
    assertNoErrors(errors);
    await close();
  });

  it('merges progress saved by another tab and follows its settings', async () => {
    const { page, errors, close } = await newPage(browser);
    const other = await page.context().newPage();
    other.on('pageerror', (error) => errors.push(`other tab: ${error.message}`));
    await open(page, `${origin}/`);
    await open(other, `${origin}/`);
    // Both tabs are open; each goes its own way.
    await page.evaluate(() => { location.hash = '#/lesson/naive-retry/5'; });
    const total = Number((await waitForText(stepper(page).count, /^Step 5 of \d+$/)).match(/of (\d+)/)[1]);
    await other.evaluate(() => { location.hash = '#/lesson/lost-reply/3'; });
    await waitForText(stepper(other).count, /^Step 3 of \d+$/);
    await waitForText(
      async () => JSON.stringify(lessonsOf(await stored(page))),
      JSON.stringify({ 'lost-reply': 3, 'naive-retry': 5 }),
      { what: 'the saved progress of both tabs' },
    );
    // The first tab knows the other's lesson without a reload.
    await page.evaluate(() => { location.hash = '#/'; });
    await page.getByText(`5 of ${total} steps`).waitFor();
    await page.getByText(/^3 of \d+ steps$/).waitFor();
    // A stale write from another tab (less far, an older position) takes nothing away.
    await other.evaluate((key) => {
      localStorage.setItem(key, JSON.stringify({
        version: 1,
        lessons: { 'naive-retry': { furthest: 1, total: 99, completed: false } },
        last: ['naive-retry', 1],
        last_milliseconds: 1,
      }));
    }, PROGRESS);
    await waitForText(async () => JSON.stringify((await stored(page)).lessons['naive-retry']?.total), '99', {
      what: 'the merged total',
    });
    const merged = await stored(page);
    assert.deepEqual(lessonsOf(merged), { 'lost-reply': 3, 'naive-retry': 5 });
    assert.deepEqual(merged.last, ['lost-reply', 3]);
    // Settings: the other tab's newer choice wins.
    await other.getByRole('button', { name: 'Presenter mode' }).click();
    await waitForText(
      () => page.getByRole('button', { name: 'Presenter mode' }).getAttribute('aria-pressed'),
      'true',
      { what: 'presenter mode in the first tab' },
    );
    assertNoErrors(errors);
    await close();
  });

  it('keeps the data of a build under a sub-path apart from the root build', async () => {
    const { page, errors, close } = await newPage(browser);
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    assert.match(html, /<base href="\/"/);
    await page.route(`${origin}/sub/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: html.replace('<base href="/"', '<base href="/sub/"') }),
    );
    // A lesson's file is fetched beside index.html, under the sub-path, where a sub-path build
    // has it: here the root build's.
    const lessonFiles = [];
    await page.route(`${origin}/sub/lessons/**`, (route) => {
      const file = new URL(route.request().url()).pathname.slice('/sub'.length);
      lessonFiles.push(file);
      route.fulfill({ contentType: 'application/json', body: fs.readFileSync(path.join(DIST, file)) });
    });
    await seed(page, {
      [PROGRESS]: JSON.stringify(SAVED),
      [SETTINGS]: '{"version":1,"theme":"dark","presenter":false,"speed":"normal"}',
    });
    await open(page, `${origin}/sub/`);
    assert.equal(await page.getByText('5 of 20 steps').count(), 0, 'the root build\'s progress is not shown');
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), null);
    await page.evaluate(() => { location.hash = '#/lesson/lost-reply/2'; });
    await waitForText(stepper(page).count, /^Step 2 of \d+$/);
    assert.equal(lessonFiles.length, 1, 'the lesson\'s file was fetched under the sub-path');
    assert.deepEqual(lessonsOf(await stored(page, `/sub/${PROGRESS}`)), { 'lost-reply': 2 });
    assert.deepEqual(await stored(page), SAVED, 'the root build\'s progress is untouched');
    // The theme script before the app reads the sub-path's settings too.
    await page.evaluate((key) => {
      localStorage.setItem(key, '{"version":1,"theme":"light","presenter":false,"speed":"normal"}');
    }, `/sub/${SETTINGS}`);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), 'light');
    assertNoErrors(errors);
    await close();
  });
});
