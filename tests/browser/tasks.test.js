// Every lesson's tasks, done in a real browser, and the prediction Next waits for. The tasks come
// from the checker itself (`lab tasks`: each one compiled and held to its promise), so nothing
// here is hand-typed: each task is opened at its part, done by role and accessible name, and the
// page must then show what the engine says (an invariant holding or broken at the design's last
// event, a policy's calls, the event a "run until" names, the wrong line of the code panel).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, courseLessonIds, engineTraces, labJson, lessonFile, lessonUrl, newPage, open,
  predictFirst, stepOn, stepper, waitForStep, waitForText, useSite, stepOf, stepCount } from './support.js';
import { board, buildByKeyboard, checkDesign, courseTasks, programLines } from './board.js';

const TASKS = courseTasks();

/** Which design the lab shows: the index of the design bar's current button. */
const currentDesign = (page) =>
  page
    .getByRole('navigation', { name: 'Designs in this lesson' })
    .getByRole('button')
    .evaluateAll((buttons) => buttons.findIndex((button) => button.getAttribute('aria-current') !== null));

const partTitle = (page) =>
  page.getByRole('region').filter({ hasText: /^\s*Part \d+ of \d+/ }).getByRole('heading', { level: 2 }).textContent();

const stepNumbers = async (page) =>
  (await stepper(page).count.textContent()).match(/(\d+) of (\d+)/).slice(1).map(Number);

/** Steps on to the last event of the design on show; says whether its Invariants panel shows a break. */
async function brokenAtDesignEnd(page) {
  const design = await currentDesign(page);
  let [step, steps] = await stepNumbers(page);
  while (step < steps) {
    await stepOn(page, () => page.keyboard.press('ArrowRight'));
    await waitForStep(page, step + 1, steps);
    if ((await currentDesign(page)) !== design) {
      await page.keyboard.press('ArrowLeft');
      await waitForStep(page, step, steps);
      break;
    }
    step += 1;
  }
  return /broken at event/.test(await page.getByRole('region', { name: 'Invariants' }).innerText());
}


const promise = (expect) =>
  expect === 'holds' ? 'every invariant holds.' : 'an invariant breaks.';

/**
 * A goal: the card names no switch. A wrong try (another switch that leaves the run broken) is
 * answered with the invariant and the event that refute it, and Show event goes there; the
 * lesson's own switch, flipped by hand on the lab, reaches the goal.
 */
async function goal(page, task, where, step) {
  const box = page.getByRole('group', { name: 'Try it' });
  await box.getByText(`Goal: ${task.goal}`).waitFor();
  assert.doesNotMatch(await box.innerText(), /Turn (on|off) the switch/, `${where}: a goal names no switch`);
  assert.equal(await box.getByRole('status').count(), 0, `${where}: no verdict before the learner acts`);
  // The answer is behind "Stuck?": its label names the lab's switch.
  await box.getByText('Stuck?').click();
  const answer = (await box.getByRole('strong').last().textContent()).trim();
  await box.getByText('Stuck?').click();
  const lab = page.getByRole('region', { name: 'Try it yourself: switches' });
  const switches = lab.getByRole('switch');
  const rows = await switches.evaluateAll((all) =>
    all.map((one) => ({ name: one.closest('label').innerText.trim(), enabled: !one.disabled })));
  const names = rows.map((row) => row.name);
  let triedWrong = false;
  for (const [index, { name, enabled }] of rows.entries()) {
    if (!enabled || name.includes(answer) || name.startsWith('Fault:')) continue;
    await switches.nth(index).click();
    const verdict = await waitForText(box.getByRole('status').first(), /^(Not yet: .* breaks at event \d+\.|Done: )/, { what: `the verdict on "${name}"` });
    if (verdict.startsWith('Not yet')) {
      const event = Number(verdict.match(/breaks at event (\d+)/)[1]);
      await box.getByRole('button', { name: `Show event ${event}` }).click();
      await waitForText(page.getByRole('region', { name: 'Invariants' }), new RegExp(`broken at event ${event}`), { what: `${where}: the refuting event` });
      triedWrong = true;
      // Back to the task's step: the refuting event may lie in a later part.
      let [now, total] = await stepNumbers(page);
      while (now !== step) {
        await stepOn(page, () => page.keyboard.press(now < step ? 'ArrowRight' : 'ArrowLeft'));
        now += now < step ? 1 : -1;
        await waitForStep(page, now, total);
      }
    }
    await switches.nth(index).click();
    if (triedWrong) break;
  }
  assert.ok(triedWrong || names.length <= 1, `${where}: some wrong try is explained (switches: ${names.join(', ')})`);
  await switches.nth(names.findIndex((name) => name.includes(answer))).click();
  await box.getByText(/^Done: every invariant holds in your design\. The lesson's own answer: /).waitFor();
  assert.equal(await brokenAtDesignEnd(page), false, `${where}: the learner's design holds to its last event`);
}

const DO = {
  async flip(page, task, where, { step }) {
    if (task.goal) return goal(page, task, where, step);
    const box = page.getByRole('group', { name: 'Try it' });
    await box.getByText(task.on ? /^Turn on the switch/ : /^Turn off the switch/).waitFor();
    await box.getByRole('button', { name: 'Flip it for me' }).click();
    await box.getByText(`Done: in this run ${promise(task.expect)}`).waitFor();
    await page.getByRole('navigation', { name: 'Designs in this lesson' }).getByText('your changes').waitFor();
    assert.equal(await brokenAtDesignEnd(page), task.expect === 'breaks', `${where}: the Invariants panel at the design's last event`);
  },

  async inject(page, task, where, { step }) {
    const box = page.getByRole('group', { name: 'Try it' });
    await box.getByText(/^Inject the fault /).waitFor();
    await box.getByRole('button', { name: 'Inject it for me' }).click();
    await box.getByText(/^The fault is in\. Answer the prediction/).waitFor();
    // Next waits for the prediction, and so does the outcome.
    await page.keyboard.press('ArrowRight');
    await predictFirst(page).waitFor();
    // Still at the step (the fault may have changed how many steps the lesson has).
    await waitForText(stepper(page).count, new RegExp(`^Step ${step} of \\d+$`), { what: 'the step count' });
    const question = page.getByRole('group', { name: /^Predict: / }).first();
    await question.getByRole('button').first().click();
    await box.getByText(/^Done: the fault is in, and in this run /).waitFor();
    assert.match(await box.innerText(), new RegExp(promise(task.expect).replace('.', '\\.')), `${where}: the outcome shown`);
    assert.equal(await predictFirst(page).count(), 0, `${where}: an answer releases Next`);
    assert.equal(await brokenAtDesignEnd(page), task.expect === 'breaks', `${where}: the Invariants panel at the design's last event`);
  },

  async until(page, task, where, { traces, part }) {
    // Reached when the cursor reaches the event: not one step before, and exactly there.
    const target = stepOf(traces, part.design, task.event);
    const done = page.getByText(`Done: you ran until event ${task.event}.`);
    await page.getByRole('group', { name: 'Try it' }).getByText(`Run until event ${task.event}: `).waitFor();
    let [step, total] = await stepNumbers(page);
    while (step < target) {
      assert.equal(await done.count(), 0, `${where}: not done at step ${step}, before event ${task.event}`);
      await stepOn(page, () => page.keyboard.press('ArrowRight'));
      step += 1;
      await waitForStep(page, step, total);
    }
    await done.waitFor();
    const event = traces[part.design].events[task.event - 1];
    assert.ok(task.what.startsWith(event.outcomeText), `${where}: the task names what event ${task.event} shows`);
  },

  async choose(page, task, where) {
    const box = page.getByRole('group', { name: 'Try it' });
    const feedback = box.getByRole('status');
    for (const option of task.options) {
      await box.getByRole('button', { name: option.label, exact: true }).click();
      const text = await waitForText(feedback, option.correct ? /^Correct\. / : /^Not quite\. /, { what: `the verdict on "${option.label}"` });
      if (option.change.policy) {
        const { model, clients, capacity_per_tick: capacity, seed, attempts_max: attempts } = task.contention;
        const capacityArgs = capacity === null ? [] : ['--capacity', `${capacity}`];
        const [run] = labJson(['retries', '--model', model, '--clients', `${clients}`, ...capacityArgs, '--attempts', `${attempts}`, '--seed', `${seed}`, '--seeds', '1', '--policy', option.change.policy.policy, '--json']);
        assert.match(text, new RegExp(` ${run.calls} calls from ${clients} clients; the last at tick ${run.completed_tick}\\.`), `${where}: "${option.label}" runs in the engine`);
      } else {
        const shows = option.correct ? 'every invariant holds.' : 'an invariant breaks.';
        await waitForText(feedback, new RegExp(`The lab now runs this design: ${shows.replace('.', '\\.')}$`), { what: `the run of "${option.label}"` });
      }
    }
    const best = task.options.find((option) => option.correct);
    await box.getByRole('button', { name: best.label, exact: true }).click();
    await waitForText(feedback, /^Correct\. /, { what: 'the verdict on the right option' });
    if (!best.change.policy) {
      assert.equal(await brokenAtDesignEnd(page), false, `${where}: the chosen design holds to its last event`);
    }
  },

  async build(page, task, where, { part }) {
    const texts = part.texts;
    const { run } = board(page);
    await board(page).check.waitFor();
    // A known wrong arrangement first: it breaks, with its misconception and a counterexample.
    for (const wrong of task.wrong.slice(0, 1)) {
      await buildByKeyboard(page, programLines(wrong.program, texts));
      const verdict = await checkDesign(page);
      assert.match(verdict, /^Breaks /, `${where}: "${wrong.misconception}" breaks`);
      assert.match(verdict, /Shortest counterexample: /, `${where}: the verdict gives the counterexample`);
      await board(page).box.getByText(`${wrong.misconception}:`).waitFor();
      await board(page).box.getByRole('button', { name: 'Open it in the player' }).waitFor();
    }
    // Then the reference, by keyboard: it holds under every schedule of the budget.
    await buildByKeyboard(page, programLines(task.reference, texts));
    const verdict = await checkDesign(page);
    assert.match(verdict, /^Holds under every schedule of up to /, `${where}: the reference holds`);
    // And its own run, in the player, keeps every invariant to its last event.
    await run.click();
    // The board keeps the arrow keys for itself; the player's are the stepper's.
    await stepper(page).next.focus();
    assert.equal(await brokenAtDesignEnd(page), false, `${where}: the built program's run in the player`);
  },

  async hunt(page, task, where) {
    // Every placement the task offers, tried as a person would, by the two choices and the
    // button, until one breaks; each verdict is the engine's (the checker counted the breaking).
    const box = page.getByRole('group', { name: 'Try it' });
    const place = box.getByRole('combobox', { name: /^Where it strikes/ });
    const fault = box.getByRole('combobox', { name: /^The fault/ });
    const places = await place.getByRole('option').allTextContents();
    assert.equal(places.length, task.points.length, `${where}: every fault point of the run is offered`);
    let holding = 0;
    for (const [index, point] of task.points.entries()) {
      await place.selectOption({ index });
      for (const kind of point.faults) {
        await fault.selectOption(kind);
        await box.getByRole('button', { name: 'Strike here' }).click();
        const verdict = await waitForText(box.getByRole('status').first(), /^(Found it\.|It holds\.)/, { what: `the verdict on ${kind} at ${places[index]}` });
        if (verdict.startsWith('Found it.')) {
          await box.getByText('Done: you found a fault that beats the design.').waitFor();
          assert.match(verdict, new RegExp(`${task.breaking} of the ${task.placements} placements on offer break it`), `${where}: the checker's count`);
          await stepper(page).next.focus();
          assert.equal(await brokenAtDesignEnd(page), true, `${where}: the run in the lab breaks`);
          return;
        }
        holding += 1;
      }
    }
    assert.fail(`${where}: no placement broke the design (${holding} tried)`);
  },

  async find_line(page, task, where) {
    const code = page.getByRole('region', { name: 'Code' });
    const box = page.getByRole('group', { name: 'Try it' });
    const lines = code.getByRole('button', { name: /^Line \d+: / });
    const names = await lines.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
    const right = names.findIndex((name) => name.replace(/^Line \d+: /, '') === task.line);
    assert.ok(right >= 0, `${where}: the code panel has the line "${task.line}" as a button`);
    const wrong = right === 0 ? 1 : 0;
    await lines.nth(wrong).click();
    await waitForText(box.getByRole('status'), /^Not this line\. /, { what: 'the verdict on a wrong line' });
    // The right one, by keyboard.
    await lines.nth(right).focus();
    await page.keyboard.press('Enter');
    await waitForText(box.getByRole('status'), /^Correct\. /, { what: 'the verdict on the wrong line' });
    assert.equal(await lines.nth(right).getAttribute('aria-pressed'), 'true');
  },
};

describe("every lesson's tasks", () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  for (const id of courseLessonIds()) {
    const tasks = TASKS.filter((task) => task.lesson === id);
    it(`${id}: each task is shown at its part and does what it promises`, async () => {
      assert.ok(tasks.length >= 1, `${id} asks the learner to act at least once`);
      const traces = engineTraces(lessonFile(id));
      const total = stepCount(traces);
      const { page, errors, close } = await newPage(browser);
      for (const part of tasks) {
        const [kind] = Object.keys(part.task);
        const task = part.task[kind];
        const step = stepOf(traces, part.design, part.at);
        const where = `${id}, part ${part.part} (${kind}) at step ${step}`;
        await open(page, lessonUrl(origin, id, step));
        await waitForStep(page, step, total);
        assert.equal((await partTitle(page)).trim(), part.title, `${where}: the part that shows the task`);
        await DO[kind](page, task, where, { step, total, traces, part });
        const reset = page.getByRole('button', { name: "Back to the lesson's design" });
        if ((await reset.count()) > 0) await reset.click();
      }
      assertNoErrors(errors, id);
      await close();
    });
  }
});

describe('a prediction comes before Next', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('Next asks for the prediction; a skip moves on, shows, and is kept apart from answers in the progress', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply'));
    const [, total] = await stepNumbers(page);
    const { next, back } = stepper(page);

    // The Next button first asks; so does the keyboard.
    await next.click();
    await predictFirst(page).waitFor();
    await waitForStep(page, 1, total);
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 1, total);
    assert.equal(await predictFirst(page).count(), 1);

    // A skip moves on, and the question says it was skipped.
    await page.getByRole('button', { name: 'Skip the prediction' }).click();
    await waitForStep(page, 2, total);
    const question = page.getByRole('group', { name: /^Predict: A submit times out/ });
    await question.getByText('Skipped: you did not predict. You can still answer.').waitFor();
    // Once skipped, Next goes on.
    await next.click();
    await waitForStep(page, 3, total);
    await back.click();
    await waitForStep(page, 2, total);

    const saved = () =>
      page.evaluate(() => {
        for (let index = 0; index < localStorage.length; index += 1) {
          const value = localStorage.getItem(localStorage.key(index));
          if (value?.includes('"predictions"')) return JSON.parse(value).predictions;
        }
        return null;
      });
    await waitForText(async () => JSON.stringify(await saved()), JSON.stringify({ 'lost-reply': { answered: [], skipped: [1] } }), { what: 'the saved predictions' });

    // An answer after the skip counts as answered.
    await question.getByRole('button', { name: 'We cannot tell from the timeout alone.' }).click();
    assert.equal(await question.getByText(/^Skipped:/).count(), 0, 'the skip note gives way to the answer');
    await waitForText(async () => JSON.stringify(await saved()), JSON.stringify({ 'lost-reply': { answered: [1], skipped: [] } }), { what: 'the saved predictions' });

    // A part whose prediction was answered first: Next goes straight on.
    const designThree = page.getByRole('navigation', { name: 'Designs in this lesson' }).getByRole('button', { name: /^Design 3\b/ });
    await designThree.click();
    const [start] = await stepNumbers(page);
    await page.getByRole('group', { name: /^Predict: When `?OP-002`? comes back/ }).getByRole('button').first().click();
    await next.click();
    await waitForStep(page, start + 1, total);
    assert.equal(await predictFirst(page).count(), 0);

    // The course map says how the learner met the lesson's predictions.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Course' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: /A missing reply is not a failed action/ }) });
    await card.getByText('2 predictions answered, 0 skipped').waitFor();

    // After a reload the answers are remembered: Next does not ask again.
    await open(page, lessonUrl(origin, 'lost-reply'));
    await page.reload();
    await waitForStep(page, 1, total);
    await next.click();
    await waitForStep(page, 2, total);
    assert.equal(await predictFirst(page).count(), 0, 'a prediction answered before is not asked again after a reload');
    assertNoErrors(errors);
    await close();
  });
});
