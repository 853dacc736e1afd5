// The learner predicts before the page tells. While a part's prediction is unanswered, or its
// task not done, nothing on the page says the outcome ahead: no design's label or kind, no
// fault or break marked ahead of the step, no later design's run side by side. Each cue is
// checked absent (not merely invisible: a screen reader must not find it either) before the
// answer, and present after. A wrong option's explanation can show the event that refutes it.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, engineTraces, lessonFile, lessonUrl, newPage, open, stepCount, stepOf,
  stepper, waitForStep, waitForText, useSite } from './support.js';
import { courseTasks } from './board.js';

const designBar = (page) => page.getByRole('navigation', { name: 'Designs in this lesson' });

/** How many designs the bar marks with a kind (safe or unsafe). */
const kinds = (page) => designBar(page).getByText(/^(safe|unsafe)$/).count();

/** The scrubber's markers ahead of step `step` (1-based), by their accessible names. */
async function markersAhead(page, step) {
  const names = await page
    .getByRole('list', { name: 'Jump to' })
    .getByRole('button')
    .allTextContents();
  return names.filter((name) => Number(/^Step (\d+):/.exec(name)[1]) > step);
}

const telling = (name) => /crash|lose|busy|invariant broken|deliver|stale|cancel|change payload/.test(name);

describe('no answer before the question', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('a prediction hides the designs\' kinds and labels and the breaks ahead until it is answered', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply'));
    const question = page.getByRole('group', { name: /^Predict: A submit times out/ });
    await question.waitFor();
    const designs = await designBar(page).getByRole('button').count();
    assert.ok(designs > 1, 'the lesson has several designs');
    assert.equal(await kinds(page), 0, 'no kind before the answer');
    assert.equal(await designBar(page).getByText('named once you answer').count(), designs, 'no label before the answer');
    assert.deepEqual((await markersAhead(page, 1)).filter(telling), [], 'no fault or break marked ahead');

    await question.getByRole('button', { name: 'We cannot tell from the timeout alone.' }).click();
    await question.getByText(/^Correct\./).waitFor();
    await designBar(page).getByText('unsafe', { exact: true }).first().waitFor();
    await designBar(page).getByText('safe', { exact: true }).first().waitFor();
    assert.equal(await kinds(page), designs, 'every design\'s kind');
    assert.equal(await designBar(page).getByText('named once you answer').count(), 0, 'every design named');
    const ahead = await markersAhead(page, 1);
    assert.ok(ahead.some((name) => /invariant broken \(design 1\)/.test(name)), `the break is marked: ${ahead}`);
    assert.ok(ahead.some((name) => /lose reply \(design 1\)/.test(name)), `the lost reply is marked: ${ahead}`);
    assertNoErrors(errors);
    await close();
  });

  it('lesson 04b\'s hunt hides where the later designs crash and break until the fault is found', async () => {
    const part = courseTasks().find((task) => task.lesson === 'claim-lease' && task.task.hunt);
    assert.ok(part, 'claim-lease has a hunt');
    const traces = engineTraces(lessonFile('claim-lease'));
    const step = stepOf(traces, part.design, part.at);
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'claim-lease', step));
    await waitForStep(page, step, stepCount(traces));
    const box = page.getByRole('group', { name: 'Try it' });
    await box.getByRole('button', { name: 'Strike here' }).waitFor();
    assert.deepEqual((await markersAhead(page, step)).filter(telling), [], 'no crash or break marked ahead');
    assert.equal(await kinds(page), 0, 'no kind during the hunt');
    assert.equal(await designBar(page).getByText('The claim, its owner crashes').count(), 0, 'no label during the hunt');

    // The hunt, as a learner does it: each place and fault until one breaks the design.
    const place = box.getByRole('combobox', { name: /^Where it strikes/ });
    const fault = box.getByRole('combobox', { name: /^The fault/ });
    let found = false;
    for (const [index, point] of part.task.hunt.points.entries()) {
      await place.selectOption({ index });
      for (const kind of point.faults) {
        await fault.selectOption(kind);
        await box.getByRole('button', { name: 'Strike here' }).click();
        const verdict = await waitForText(box.getByRole('status').first(), /^(Found it\.|It holds\.)/, { what: 'the verdict' });
        if (verdict.startsWith('Found it.')) found = true;
        if (found) break;
      }
      if (found) break;
    }
    assert.ok(found, 'a placement breaks the design');
    await waitForText(async () => (await markersAhead(page, step)).join(' | '), /crash \(design \d+\)/, { what: 'the crash marker of a later design' });
    const ahead = await markersAhead(page, step);
    assert.ok(ahead.some((name) => /invariant broken \(design \d+\)/.test(name)), `breaks are marked: ${ahead}`);
    await designBar(page).getByText('The claim, its owner crashes').waitFor();
    assert.ok((await kinds(page)) > 0, 'the kinds are shown');
    assertNoErrors(errors);
    await close();
  });

  it('the designs side by side wait for the answer too', async () => {
    const { page, errors, close } = await newPage(browser);
    // naive-retry's first prediction is asked just before the second INSERT.
    const traces = engineTraces(lessonFile('naive-retry'));
    const duplicate = traces[0].events.find((event) => event.broke.includes('one_effect')).index;
    const step = stepOf(traces, 0, duplicate - 1);
    await open(page, lessonUrl(origin, 'naive-retry', step));
    const question = page.getByRole('group', { name: /^Predict: The restarted run executes the same/ });
    await question.waitFor();
    await page.getByRole('button', { name: 'Compare designs side by side' }).click();
    const compare = page.getByRole('region', { name: 'Designs side by side' });
    await compare.getByRole('table', { name: 'Records, design 1' }).waitFor();
    for (const design of [2, 3]) {
      assert.equal(await compare.getByRole('table', { name: `Records, design ${design}` }).count(), 0, `design ${design}'s run is not shown yet`);
    }
    assert.equal(await compare.getByText(/^Broken:/).count(), 0, 'no break told');
    await question.getByRole('button', { name: 'Add a second row for rec-42.' }).click();
    for (const design of [2, 3]) {
      await compare.getByRole('table', { name: `Records, design ${design}` }).waitFor();
    }
    assertNoErrors(errors);
    await close();
  });

  it('the Invariants panel lists the invariants of the lesson\'s workflow only', async () => {
    const { page, errors, close } = await newPage(browser);
    const answered = 'Every operation eventually gets a final answer';
    await open(page, lessonUrl(origin, 'lost-reply'));
    const invariants = page.getByRole('region', { name: 'Invariants' });
    await invariants.getByText('At most one effect per logical operation').waitFor();
    assert.equal(await invariants.getByText(answered).count(), 0, 'reserve never answers "in progress"');
    await open(page, lessonUrl(origin, 'claim-lease'));
    await invariants.getByText(answered).waitFor();
    assertNoErrors(errors);
    await close();
  });
});

describe('a wrong option shows the event that refutes it', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('after a wrong answer, "Show event N" seeks the player there', async () => {
    const traces = engineTraces(lessonFile('lost-reply'));
    const total = stepCount(traces);
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply'));
    const question = page.getByRole('group', { name: /^Predict: A submit times out/ });
    await question.waitFor();
    const card = page.getByRole('region', { name: 'What just happened' });
    const shownBefore = await card.innerText();
    assert.equal(await question.getByRole('button', { name: /^Show event/ }).count(), 0, 'no link before an answer');

    await question.getByRole('button', { name: 'Nothing: a timeout means the request failed.' }).click();
    await question.getByText(/^Not quite\./).waitFor();
    // The lesson points this option at the submit whose reply was lost: the provider committed.
    const committed = traces[0].events.find((event) => event.fault === 'lose_reply').index;
    const show = page.getByRole('button', { name: `Show event ${committed}` });
    await show.click();
    await waitForStep(page, stepOf(traces, 0, committed), total);
    await waitForText(card, /committed/, { what: 'the event card' });
    assert.notEqual(await card.innerText(), shownBefore, 'the event shown changed');
    assert.equal(await stepper(page).next.isEnabled(), true);
    assertNoErrors(errors);
    await close();
  });
});
