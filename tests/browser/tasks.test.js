// Every lesson's "try it" tasks, done in a real browser: each step that asks the learner to flip a
// switch shows the task, its button flips that switch on the lab, and the changed design then
// shows what the lesson promised (every invariant holding, or one broken) at its last event.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import {
  ROOT,
  assertNoErrors,
  courseLessonIds,
  lessonFile,
  lessonUrl,
  newPage,
  open,
  stepper,
  waitForStep,
  waitForText,
  useSite,
} from './support.js';

/** The tasks of a lesson file, in file order: `try = { switch, on, expect }`, one a line. */
function tasksOf(file) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const pattern = /^try = \{ switch = "(\w+)", on = (true|false), expect = "(holds|breaks)" \}$/gm;
  return [...text.matchAll(pattern)].map(([, name, on, expect]) => ({ name, on: on === 'true', expect }));
}

/** Which design the lab shows: the index of the design bar's current button. */
const currentDesign = (page) =>
  page
    .getByRole('navigation', { name: 'Designs in this lesson' })
    .getByRole('button')
    .evaluateAll((buttons) => buttons.findIndex((button) => button.getAttribute('aria-current') !== null));

const partTitle = (page) =>
  page.getByRole('region').filter({ hasText: /^\s*Part \d+ of \d+/ }).getByRole('heading', { level: 2 }).textContent();

describe("every lesson's tasks", () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  for (const id of courseLessonIds()) {
    const tasks = tasksOf(lessonFile(id));
    it(`${id}: each "try it" is shown where the lesson puts it and does what it promises`, async () => {
      // Lesson 13's tasks belong to another change; every other lesson lets the learner make a fix.
      if (id !== 'retry-bounds') assert.ok(tasks.length >= 1, `${id} has at least one task`);
      const { page, errors, close } = await newPage(browser);
      await open(page, lessonUrl(origin, id));
      const first = await waitForText(stepper(page).count, /^Step 1 of \d+$/, { what: 'the step count' });
      const total = Number(first.match(/of (\d+)/)[1]);
      const task = page.getByRole('group', { name: 'Try it' });

      // Walk with Next; a task's step is the first step of the part that shows it.
      const found = [];
      let part = null;
      for (let step = 1; found.length < tasks.length; step += 1) {
        assert.ok(step <= total, `${id}: found ${found.length} of ${tasks.length} tasks before the end`);
        if (step > 1) {
          await page.keyboard.press('ArrowRight');
          await waitForStep(page, step, total);
        }
        const title = await partTitle(page).catch(() => null);
        if (title !== part && (await task.count()) > 0) found.push(step);
        part = title;
      }

      for (const [index, { name, on, expect }] of tasks.entries()) {
        const where = `${id}, task ${index + 1} (${name} ${on ? 'on' : 'off'}) at step ${found[index]}`;
        await open(page, lessonUrl(origin, id, found[index]));
        await waitForStep(page, found[index], total);
        await task.getByText(on ? /^Turn on the switch/ : /^Turn off the switch/).waitFor();
        await task.getByRole('button', { name: 'Flip it for me' }).click();
        const done = expect === 'holds' ? 'Done: in this run every invariant holds.' : 'Done: in this run an invariant breaks.';
        await task.getByText(done).waitFor();
        await page.getByRole('navigation', { name: 'Designs in this lesson' }).getByText('your changes').waitFor();

        // Step to the changed design's last event: the Invariants panel must agree with the task.
        const design = await currentDesign(page);
        let [step, steps] = (await stepper(page).count.textContent()).match(/(\d+) of (\d+)/).slice(1).map(Number);
        while (step < steps) {
          await page.keyboard.press('ArrowRight');
          await waitForStep(page, step + 1, steps);
          if ((await currentDesign(page)) !== design) {
            await page.keyboard.press('ArrowLeft');
            await waitForStep(page, step, steps);
            break;
          }
          step += 1;
        }
        const invariants = await page.getByRole('region', { name: 'Invariants' }).innerText();
        assert.equal(/broken at event/.test(invariants), expect === 'breaks', `${where}: the Invariants panel at the design's last event`);
        await page.getByRole('button', { name: "Back to the lesson's design" }).click();
      }
      assertNoErrors(errors, id);
      await close();
    });
  }
});
