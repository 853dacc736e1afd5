// Every lesson of the course, walked to its end and back in a real browser: the state after
// Back is the state before Next, every design shows what the engine says (an unsafe design
// visibly breaks an invariant, a safe one visibly keeps them all), and nothing logs an error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, courseLessonIds, engineTraces, lessonFile, lessonUrl, newPage, open, stepper,
  waitForStep, waitForText, useSite, stepOn, stepCount } from './support.js';

/** What a learner sees change from step to step, as text. */
async function visible(page) {
  const [records, invariants, event] = await Promise.all([
    page.getByRole('table', { name: 'Records' }).innerText(),
    page.getByRole('region', { name: 'Invariants' }).innerText(),
    page.getByRole('region', { name: 'What just happened' }).innerText(),
  ]);
  return { records, invariants, event };
}

describe('the whole course', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  for (const id of courseLessonIds()) {
    it(`${id}: to the end and back, every design as the engine computed it`, async () => {
      const traces = engineTraces(lessonFile(id));
      const { page, errors, close } = await newPage(browser);
      const { next, back } = stepper(page);
      await open(page, lessonUrl(origin, id));
      const first = await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: 'the step count' });
      const total = Number(first.match(/of (\d+)/)[1]);
      assert.equal(total, stepCount(traces), 'one step per frame of every design');

      // The last frame of each design: its invariants panel must say what the engine says.
      const ends = new Map();
      let frame = 0;
      traces.forEach((trace, index) => {
        frame += trace.events.length + 1;
        ends.set(frame, { design: index + 1, broken: trace.verdicts.some((verdict) => verdict.broken_at !== null) });
      });

      // Forward with the right arrow key (a presentation remote's key), back with the button.
      const seen = [await visible(page)];
      await next.focus();
      for (let step = 2; step <= total; step += 1) {
        await stepOn(page, () => page.keyboard.press('ArrowRight'));
        await waitForStep(page, step, total);
        seen.push(await visible(page));
      }
      for (const [step, { design, broken }] of ends) {
        const shows = /broken at event/.test(seen[step - 1].invariants);
        assert.equal(shows, broken, `${id}, design ${design}, its last step: the invariants panel ${broken ? 'shows a broken invariant' : 'shows every invariant holding'}`);
      }

      for (let step = total - 1; step >= 1; step -= 1) {
        await back.click();
        await waitForStep(page, step, total);
        assert.deepEqual(await visible(page), seen[step - 1], `${id}: after Back, step ${step} shows what it showed before Next`);
      }
      assertNoErrors(errors, id);
      await close();
    });
  }
});
