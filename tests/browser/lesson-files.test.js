// Lessons fetched one by one: the app embeds only the course's outline, and a lesson's file
// (dist/lessons/lesson-ID-HASH.json) comes when a page needs it. The map asks for none; a lesson
// is asked for once by each app module however often it is opened; while its file is on its way the page says so,
// and a file that does not come gives an alert with "Try again", never a blank page.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { assertNoErrors, courseLessonIds, DIST, holdRequests, lessonUrl, newPage, open, stepOn, stepper, useSite, waitForText } from './support.js';

const LESSON_FILE = /\/lessons\/lesson-([a-z0-9-]+)-[0-9a-f]{16}\.json$/;

/** The lesson files the page asks for, by lesson id, as it asks. */
function watchLessonFiles(page) {
  const asked = [];
  page.on('request', (request) => {
    const match = LESSON_FILE.exec(new URL(request.url()).pathname);
    if (match) asked.push(match[1]);
  });
  return asked;
}

/** A network failure the test caused shows in the console as a failed load: only that is expected. */
const notTheAbortedFile = (errors) => errors.filter((error) => !/Failed to load resource/.test(error));

describe('lesson files', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('the build holds one file a lesson, named with its content, and nothing else in lessons/', () => {
    const files = fs.readdirSync(path.join(DIST, 'lessons')).filter((name) => !/\.(gz|br)$/.test(name));
    const ids = files.map((name) => LESSON_FILE.exec(`/lessons/${name}`)?.[1]);
    assert.deepEqual([...ids].sort(), [...courseLessonIds()].sort(), files.join(' '));
  });

  it('the course map asks for no lesson file', async () => {
    const { page, errors, close } = await newPage(browser);
    const asked = watchLessonFiles(page);
    await open(page, `${origin}/#/`);
    await page.locator('main.home .lesson-card a').first().waitFor();
    // Past the moment the page settles and fetches the second module.
    await page.waitForTimeout(2_500);
    assert.deepEqual(asked, []);
    assertNoErrors(errors);
    await close();
  });

  it('a lesson is asked for once by each module, however often it is opened and whatever asks for it', async () => {
    const { page, errors, close } = await newPage(browser);
    const asked = watchLessonFiles(page);
    await open(page, `${origin}/#/`);
    await page.locator('main.home a[href="#/lesson/lost-reply"]').click();
    await stepper(page).count.waitFor();
    await stepOn(page);
    await page.getByRole('link', { name: 'Course', exact: true }).click();
    await page.locator('main.home .lesson-card a').first().waitFor();
    await page.goBack();
    await waitForText(stepper(page).count, /^Step 2 of \d+$/, { what: 'the lesson again' });
    // The sandbox is the whole app's page: the page is handed over to it, which keeps lessons
    // in memory of its own, so it reads the file once more (from the browser's cache: the name
    // holds the content's hash), and then never again, whatever asks.
    await page.goto(`${origin}/#/sandbox`);
    await page.getByLabel('Start from a design').selectOption({ value: 'lost-reply/reconcile' });
    await page.getByRole('button', { name: 'Start from this design', exact: true }).click();
    await waitForText(() => page.getByLabel('Scenario (TOML)').inputValue(), /reconcile\s*=\s*true/, { what: 'the design in the text' });
    await page.goto(lessonUrl(origin, 'lost-reply', 1));
    await stepper(page).count.waitFor();
    await page.goto(lessonUrl(origin, 'naive-retry', 1));
    await stepper(page).count.waitFor();
    assert.deepEqual(asked, ['lost-reply', 'lost-reply', 'naive-retry'], 'once in the first module, once in the whole app');
    assertNoErrors(errors);
    await close();
  });

  it('at a lesson\'s address a held file shows the lesson loading, then its steps when it comes', async () => {
    const { page, errors, close } = await newPage(browser);
    const { release } = await holdRequests(page, LESSON_FILE);
    await page.goto(lessonUrl(origin, 'lost-reply'));
    // The app starts without the file: the lesson's title and a loading line, never a blank page.
    const loading = page.getByRole('status').filter({ hasText: 'Loading the lesson…' });
    await loading.waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('[data-prerender]').count(), 0, 'the app replaced the prerendered step');
    assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /\S/);
    assert.equal(await stepper(page).group.count(), 0);
    release();
    await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: 'the lesson once its file came' });
    assert.equal(await loading.count(), 0);
    await stepOn(page);
    assertNoErrors(errors);
    await close();
  });

  it('a file that does not come shows an alert, and Try again opens the lesson', async () => {
    const { page, errors, close } = await newPage(browser);
    let failing = true;
    await page.route(LESSON_FILE, (route) => (failing ? route.abort('failed') : route.continue()));
    await open(page, `${origin}/#/`);
    await page.locator('main.home a[href="#/lesson/lost-reply"]').click();
    const alert = page.getByRole('alert').filter({ hasText: /could not be loaded/ });
    await alert.waitFor();
    assert.match(await page.getByRole('heading', { level: 1 }).textContent(), /\S/, 'the lesson\'s title, not a blank page');
    assert.ok(await page.getByRole('link', { name: 'Back to the course map' }).isVisible());
    failing = false;
    await page.getByRole('button', { name: 'Try again', exact: true }).click();
    await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: 'the lesson after Try again' });
    assert.equal(await alert.count(), 0);
    assertNoErrors(notTheAbortedFile(errors));
    await close();
  });
});
