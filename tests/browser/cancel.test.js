// The source's stretch as a learner builds it (lesson cancel-in-code): the batch worker reads its
// cancel flag only where its code asks, so its start program, with no check, is judged unsafe and
// the refuting schedule is shown; one check between the model call and the write is still
// caught; a check before every stage holds. The new invariant is listed only where the flag is
// read in code. The task (its bank, start, reference and wrong arrangements) comes from the
// checker (`lab tasks`).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertStart, board, buildByKeyboard, buildPart, checkDesign, programLines } from './board.js';
import { assertNoErrors, lessonUrl, newPage, open, useSite, waitForText } from './support.js';

const PART = buildPart('cancel-in-code');
const { build, texts } = PART;
const STOPS = 'After a cancel, the run begins no new work';

describe('a cancellation point the learner adds', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('the start, with no check, breaks: the schedule that refutes it is shown and opens in the player', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const lines = await assertStart(page, build, texts);
    assert.ok(lines.every((line) => line.locked), 'every line of the start is locked');
    assert.ok(lines.every((line) => !line.text.includes('cancel_requested')), 'no line of the start reads the flag');
    await board(page).add(texts.check_cancel).waitFor();
    const verdict = await checkDesign(page);
    assert.equal(verdict.split('.')[0], `Breaks “${STOPS}”`);
    const refuted = board(page).box.getByText(/^Shortest counterexample: /);
    await waitForText(refuted, new RegExp(`breaks the invariant “${STOPS}” at event \\d+$`), { what: 'the refuting schedule' });
    await board(page).box.getByRole('button', { name: 'Open it in the player' }).click();
    const invariants = page.getByRole('region', { name: 'Invariants' });
    await waitForText(() => invariants.innerText(), new RegExp(`${STOPS}: broken at event \\d+`), { what: 'the break in the player' });
    assertNoErrors(errors);
    await close();
  });

  it('one check between the model call and the write is still caught, with its misconception named', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const one = build.wrong.find((wrong) => wrong.misconception.startsWith('One check'));
    assert.ok(one, 'the checker lists the one-check arrangement');
    assert.equal(one.program.split('\n').filter((line) => line.trim() === 'check_cancel').length, 1);
    await buildByKeyboard(page, programLines(one.program, texts));
    assert.match(await checkDesign(page), new RegExp(`^Breaks “${STOPS}”`));
    await board(page).box.getByText(`${one.misconception}:`).waitFor();
    assertNoErrors(errors);
    await close();
  });

  it('a check before every stage, built by keyboard, holds', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const target = programLines(build.reference, texts);
    assert.equal(target.filter((line) => line.text === texts.check_cancel).length, 3);
    await buildByKeyboard(page, target);
    assert.match(await checkDesign(page), /^Holds under every schedule of up to /);
    assertNoErrors(errors);
    await close();
  });

  it('the Invariants panel lists the new invariant only where the code reads the flag', async () => {
    const { page, errors, close } = await newPage(browser);
    const invariants = page.getByRole('region', { name: 'Invariants' });
    await open(page, lessonUrl(origin, 'cancel-in-code'));
    await invariants.getByText(STOPS).waitFor();
    await open(page, lessonUrl(origin, 'cancel-and-review'));
    await invariants.getByText('At most one effect per logical operation').waitFor();
    assert.equal(await invariants.getByText(STOPS).count(), 0, 'the engine reads the flag before every step there');
    assertNoErrors(errors);
    await close();
  });
});
