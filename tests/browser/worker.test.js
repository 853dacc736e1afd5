// The second module (crate lab-worker, a Web Worker): a lesson never waits for it. While its
// request is held the lesson steps and the explorer panel says it is loading, then it works; if
// it cannot be loaded the panel says so and the lesson still steps. A search runs in the worker:
// the learner steps the lab meanwhile, no task on the page's thread takes over 50 ms, and Cancel
// ends it at once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, holdRequests, lessonUrl, newPage, open, stepOn, stepNumber, stepper, useSite, waitForText, watchLongTasks } from './support.js';

const explorerButton = (page) => page.getByRole('button', { name: 'What could go wrong?', exact: true });
const findings = (page) => page.getByRole('region', { name: 'What the explorer found' });
const SECOND_MODULE = /\/worker\.js$/;

describe('the second module', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('a lesson steps while the second module is held; the explorer says it is loading, then works', async () => {
    const { page, errors, close } = await newPage(browser);
    const { release, asked } = await holdRequests(page, SECOND_MODULE);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await stepOn(page);
    assert.equal(await stepNumber(page), 2, 'Next works without the second module');
    await explorerButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Loading the explorer…' }).waitFor();
    await stepOn(page);
    assert.equal(await stepNumber(page), 3, 'Next works while the explorer waits for its module');
    assert.ok(asked() >= 1, 'the page asked for the second module');
    release();
    await findings(page).waitFor({ timeout: 60_000 });
    assert.match(await findings(page).innerText(), /schedules, [\d,]+ distinct states/);
    assertNoErrors(errors);
    await close();
  });

  it('a second module that cannot be loaded shows a notice, and the lesson still steps', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.route(SECOND_MODULE, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await explorerButton(page).click();
    await waitForText(page.locator('.explore .notice'), /^The explorer could not be loaded: .*The lesson works without it; reload the page to try again\.$/, { what: 'the notice' });
    await stepOn(page);
    assert.equal(await stepNumber(page), 2, 'Next works without the second module');
    // A 404 is logged by the browser as a console error; nothing else may be.
    assertNoErrors(errors.filter((error) => !/404|Failed to load resource|worker\.js/i.test(error)));
    await close();
  });

  it('a search runs while the learner steps, with no task over 50 ms on the page, and Cancel ends it at once', async () => {
    const { page, errors, close } = await newPage(browser);
    await watchLongTasks(page);
    // The sandbox with 4 generated records: a search of seconds (it stops at the budget's 2,000,000
    // engine steps).
    await open(page, `${origin}/#/sandbox`);
    await page.getByLabel('Records to generate').fill('4');
    await page.getByLabel('Records to generate').press('Tab');
    await page.getByRole('button', { name: 'Generate records' }).click();
    await waitForText(() => page.getByLabel('Number of operations').inputValue(), '4', { what: 'the operation count' });
    await page.waitForTimeout(500);
    const clicked = await page.evaluate(() => performance.now());
    await explorerButton(page).click();
    const progress = page.getByRole('status').filter({ hasText: /^Exploring: [\d,]+ distinct states/ });
    await progress.waitFor();
    // The lab steps while the search runs.
    const before = await stepNumber(page);
    await stepper(page).next.click();
    await waitForText(stepper(page).count, new RegExp(`^Step ${before + 1} of \\d+$`), { what: 'a step during the search' });
    const first = await progress.textContent();
    await waitForText(async () => ((await progress.textContent()) === first ? 'same' : 'moved'), 'moved', { what: 'the progress line' });
    const cancelAt = Date.now();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await findings(page).getByText(/Cancelled: the figures count what was explored so far\./).waitFor();
    const cancelled = Date.now() - cancelAt;
    const ended = await page.evaluate(() => performance.now());
    const tasks = await page.evaluate(({ from, to }) => window.longTasks.filter((task) => task.start >= from && task.start <= to), { from: clicked, to: ended });
    console.log(`explorer in the worker: ${Math.round(ended - clicked)} ms of search before Cancel; Cancel to cancelled shown ${cancelled} ms; main-thread tasks over 50 ms meanwhile: ${tasks.length}${tasks.length ? ` (${tasks.map((task) => Math.round(task.duration)).join(', ')} ms)` : ''}`);
    assert.deepEqual(tasks, [], 'no main-thread task over 50 ms while the search ran');
    assert.ok(cancelled < 2_000, `Cancel took effect at once (${cancelled} ms)`);
    // The page goes on: a new search can start.
    await explorerButton(page).click();
    await progress.waitFor({ timeout: 30_000 });
    assertNoErrors(errors);
    await close();
  });
});
