// Where the key comes from, as a line the learner places: lesson 21's two key builds, walked on
// the Parsons board by keyboard and the bank's buttons. Question 1: a checkout whose retry loop
// draws `key = uuid4()` on every pass breaks with its refuting schedule; the draw moved before
// the loop holds, and so does the saved key drawn inside it (the explorer judges, not a compare
// with the answer). Question 3: each wrong key of the upload job is caught with its misconception,
// the upload's own id holds. The code panel shows the key line where the learner put it, and the
// line above the program only when there is none.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { board, buildByKeyboard, buildPart, checkDesign, programLines } from './board.js';
import { assertNoErrors, newPage, open, useSite, waitForText } from './support.js';

const CHECKOUT = buildPart('test-yourself', 0);
const UPLOADS = buildPart('test-yourself', 2);

/** The code panel's lines that set the key, as the page shows them (without their numbers). */
async function keyLines(page) {
  const code = await page.getByRole('region', { name: 'Code' }).innerText();
  return code
    .split('\n')
    .map((line) => line.match(/^\s*\d+\s+(?:▶\s+)?(key = .*)$/)?.[1])
    .filter(Boolean);
}

describe('key lines on the board', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('question 1: a key drawn on every pass breaks with its schedule; drawn once, or saved, it holds', async () => {
    assert.equal(CHECKOUT.build.reference.trim().split('\n')[0], 'key_uuid4', 'the answer draws the key before the loop');
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${CHECKOUT.hash}`);
    const { texts } = CHECKOUT;
    // The design's own program: the key line inside the loop, and no line above the program.
    await waitForText(async () => (await keyLines(page)).join(' | '), 'key = uuid4() # a random UUID', { what: 'the one key line of the design' });
    const inLoop = CHECKOUT.build.wrong.find((wrong) => wrong.misconception === 'A key per attempt');
    await buildByKeyboard(page, programLines(inLoop.program, texts));
    const wrong = await checkDesign(page);
    assert.match(wrong, /^Breaks “At most one effect per logical operation”/, 'the draw in the loop breaks');
    assert.match(wrong, /Shortest counterexample: /, 'with the schedule that refutes it');
    await board(page).box.getByText(`${inLoop.misconception}:`).waitFor();

    await buildByKeyboard(page, programLines(CHECKOUT.build.reference, texts));
    assert.match(await checkDesign(page), /^Holds under every schedule of up to /, 'drawn once, before the loop');

    // The other key line of the bank, in the loop where the draw was: the same key every pass.
    const saved = CHECKOUT.build.reference.replace('key_uuid4\nretry_loop\n', 'retry_loop\n  key_saved\n');
    await buildByKeyboard(page, programLines(saved, texts));
    assert.match(await checkDesign(page), /^Holds under every schedule of up to /, 'the saved key, read on every pass');
    await board(page).run.click();
    await waitForText(async () => (await keyLines(page)).join(' | '), /^key = intention\.key\s+# a uuid4\(\) drawn once, when the intention was born, and saved$/, {
      what: 'the code panel showing the learner\'s key line, and only it',
    });
    assertNoErrors(errors);
    await close();
  });

  it('question 3: each wrong key of the upload job is caught, the upload\'s own id holds', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${UPLOADS.hash}`);
    const { texts } = UPLOADS;
    const breaks = {
      'The same bytes are the same upload': /^Breaks “No record is marked succeeded without its effect”/,
      'A field of the delivery in the key': /^Breaks “At most one effect per logical operation”/,
      'A fresh key per delivery': /^Breaks “At most one effect per logical operation”/,
    };
    assert.deepEqual(UPLOADS.build.wrong.map((wrong) => wrong.misconception).sort(), Object.keys(breaks).sort());
    for (const wrong of UPLOADS.build.wrong) {
      await buildByKeyboard(page, programLines(wrong.program, texts));
      const verdict = await checkDesign(page);
      assert.match(verdict, breaks[wrong.misconception], `"${wrong.misconception}" breaks as the source says`);
      assert.match(verdict, /Shortest counterexample: /, `"${wrong.misconception}": the refuting schedule`);
      await board(page).box.getByText(`${wrong.misconception}:`).waitFor();
    }
    await buildByKeyboard(page, programLines(UPLOADS.build.reference, texts));
    assert.match(await checkDesign(page), /^Holds under every schedule of up to /, 'keyed by the upload\'s own id');
    await board(page).run.click();
    await waitForText(async () => (await keyLines(page)).join(' | '), 'key = event.source_id # the source\'s own id', {
      what: 'the learner\'s key line in place of the design\'s content hash',
    });
    assertNoErrors(errors);
    await close();
  });
});
