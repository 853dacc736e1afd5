// The keyboard, and the lesson's questions.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, lessonUrl, newPage, open, predictFirst, stepper, useSite, waitForStep, waitForText } from './support.js';

const LESSON = 'lost-reply';

const isFocused = (locator) => locator.evaluate((element) => element === document.activeElement);

describe('interaction', () => {
  let origin;
  let browser;
  /** How many steps the lesson has, as its first page says (read by openLesson). */
  let total;
  useSite((site) => ({ origin, browser } = site));

  /** Opens the lesson at step 1 and reads "Step 1 of N". */
  const openLesson = async (page) => {
    await open(page, lessonUrl(origin, LESSON));
    const text = await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: 'the step count' });
    total = Number(text.match(/of (\d+)/)[1]);
  };

  it('Tab reaches Next, and Enter and Space activate it', async () => {
    const { page, errors, close } = await newPage(browser);
    await openLesson(page);
    const { next, back } = stepper(page);

    // The first Tab lands on the skip link, which moves focus to the page's main content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.ok(await isFocused(skip), 'the first Tab focuses "Skip to content"');
    await page.keyboard.press('Enter');
    assert.ok(await isFocused(page.getByRole('main')), 'the skip link moves focus to the main content');

    let presses = 0;
    while (!(await isFocused(next))) {
      presses += 1;
      assert.ok(presses <= 40, 'Tab reaches the Next button within 40 presses');
      await page.keyboard.press('Tab');
    }

    // The first part asks a prediction: Enter on Next asks for it first, and stays put.
    await page.keyboard.press('Enter');
    await predictFirst(page).waitFor();
    await waitForStep(page, 1, total);
    assert.ok(await isFocused(next), 'Next keeps the focus when it waits for a prediction');
    // The learner picks an answer; then Enter and Space on Next each step on.
    const question = page.getByRole('group', { name: /^Predict: / }).first();
    await question.getByRole('button').first().click();
    await waitForText(() => predictFirst(page).count().then(String), '0', { what: 'the notice gone once answered' });
    await next.focus();
    await page.keyboard.press('Enter');
    await waitForStep(page, 2, total);
    assert.ok(await isFocused(next), 'Next keeps the focus after Enter');
    await page.keyboard.press('Space');
    await waitForStep(page, 3, total);
    assert.ok(await isFocused(next), 'Next keeps the focus after Space');
    // Space on a focused button presses that button; it must not also start playback.
    const play = stepper(page).group.getByRole('button', { name: /^(Play|Pause)$/ });
    if ((await play.count()) > 0) {
      assert.equal(await play.getAttribute('aria-pressed'), 'false', 'Space on Next does not start playback');
    }
    assert.equal(new URL(page.url()).hash, `#/lesson/${LESSON}/3`);

    // Shift+Tab goes back to Back, now enabled, and it works from the keyboard too.
    for (let press = 1; !(await isFocused(back)); press += 1) {
      assert.ok(press <= 5, 'Shift+Tab from Next reaches Back within 5 presses');
      await page.keyboard.press('Shift+Tab');
    }
    await page.keyboard.press('Enter');
    await waitForStep(page, 2, total);
    assertNoErrors(errors);
    await close();
  });

  it('the first question answers a wrong and a right pick', async () => {
    const { page, errors, close } = await newPage(browser);
    await openLesson(page);
    const question = page.getByRole('group', { name: /^Predict: A submit times out/ });
    const feedback = question.getByRole('status');
    assert.equal(await feedback.count(), 0, 'no feedback before a pick');

    const wrong = question.getByRole('button', { name: 'Nothing: a timeout means the request failed.' });
    await wrong.click();
    await waitForText(feedback, /^Not quite\. /, { what: 'the feedback' });
    assert.equal(await wrong.getAttribute('aria-pressed'), 'true');

    const right = question.getByRole('button', { name: 'We cannot tell from the timeout alone.' });
    await right.click();
    await waitForText(feedback, /^Correct\. /, { what: 'the feedback' });
    assert.equal(await right.getAttribute('aria-pressed'), 'true');
    assert.equal(await wrong.getAttribute('aria-pressed'), 'false', 'only the last pick is pressed');
    assert.equal(await feedback.count(), 1, 'one feedback at a time');
    assertNoErrors(errors);
    await close();
  });

  it('every question gives feedback for every option, and exactly one is correct', async () => {
    const { page, errors, close } = await newPage(browser);
    // The parts with questions: the start of each design, and the end (so the lesson binds them).
    await openLesson(page);
    await page.getByRole('navigation', { name: 'Designs in this lesson' }).getByRole('button', { name: /^Design 3\b/ }).click();
    const designTwo = Number((await waitForText(stepper(page).count, /^Step (?!1 of)\d+ of \d+$/)).match(/\d+/)[0]);
    let questions = 0;
    for (const step of [1, designTwo, total]) {
      await open(page, lessonUrl(origin, LESSON, step));
      await waitForStep(page, step, total);
      const groups = page.getByRole('group', { name: /^(Predict|Check): / });
      const count = await groups.count();
      assert.ok(count >= 1, `step ${step} asks a question`);
      for (let index = 0; index < count; index += 1) {
        const group = groups.nth(index);
        const name = await group.getAttribute('aria-label');
        // The options, not the "Show event N" button a chosen option's explanation may end with.
        const options = group.getByRole('listitem').getByRole('button');
        const verdicts = [];
        for (let option = 0; option < (await options.count()); option += 1) {
          await options.nth(option).click();
          const text = await waitForText(group.getByRole('status'), /^(Correct|Not quite)\. \S/, { what: `feedback in "${name}"` });
          verdicts.push(text.startsWith('Correct.'));
        }
        assert.equal(verdicts.filter(Boolean).length, 1, `exactly one right answer to "${name}": ${verdicts}`);
        questions += 1;
      }
    }
    assert.ok(questions >= 3, `the lesson asks at least three questions (${questions})`);
    assertNoErrors(errors);
    await close();
  });
});
