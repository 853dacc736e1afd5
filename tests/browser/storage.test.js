// Saved progress and settings: progress survives a reload, corrupt stored data gives a notice
// and a clean reset (never a crash), and presenter mode is a real, remembered toggle.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  assertNoErrors,
  lessonUrl,
  newPage,
  open,
  screenshot,
  stepper,
  waitForStep,
  waitForText,
  useSite,
} from './support.js';

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
    await screenshot(page, 'progress-home');
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
    it(`shows a notice and resets when stored data is corrupt (${what})`, async () => {
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
      await screenshot(page, `corrupt-${what.replace(/\W+/g, '-')}`);
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
      // The app keeps working, and the notice does not come back.
      await page.getByRole('link', { name: 'A missing reply is not a failed action' }).click();
      await waitForText(stepper(page).count, /^Step 1 of \d+$/);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      assert.equal(await page.getByRole('status').filter({ hasText: /could not be read/ }).count(), 0);
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
    await page.screenshot({ path: 'test-output/screenshots/presenter-mode.png' });
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
});
