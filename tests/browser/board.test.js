// The Parsons board of a build task, as a learner uses it: a wrong arrangement breaks and its
// counterexample opens in the player; a block dragged by its grip lands where it is dropped; the
// board survives a reload and travels in a copied link; the hints end with the answer. The task
// (its bank, start, reference and wrong arrangements) comes from the checker (`lab tasks`).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { addName, assertStart, board, buildByKeyboard, buildPart, checkDesign, programLines, readBoard } from './board.js';
import { assertNoErrors, axeViolations, newPage, open, useSite, waitForText } from './support.js';

const PART = buildPart('lost-reply');
const { build, texts } = PART;

describe('the build board', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('starts from the task: the locked lines, the bank, and a program that does not yet hold', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    await assertStart(page, build, texts);
    for (const block of build.blocks) await board(page).add(texts[block]).waitFor();
    // The start does not hold: here it is not even a program yet (a try with nothing in it).
    assert.equal(await board(page).check.isDisabled(), true, 'Check my design waits for a whole program');
    await waitForText(board(page).structure, /^Line \d+: /, { what: 'what is missing, and where' });
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], `the board at its start:\n${violations.join('\n')}`);
    assertNoErrors(errors);
    await close();
  });

  it('a wrong arrangement breaks, names its misconception, and its counterexample opens in the player', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const [wrong] = build.wrong;
    await buildByKeyboard(page, programLines(wrong.program, texts));
    const verdict = await checkDesign(page);
    assert.match(verdict, /^Breaks “/, 'the verdict names the invariant');
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], `the board after a failed check:\n${violations.join('\n')}`);
    await board(page).box.getByText(`${wrong.misconception}:`).waitFor();
    // The hints: first what breaks (the same counterexample), then the line out of place.
    const hint = board(page).box.getByRole('button', { name: /^(Show a hint|Another hint)/ });
    await hint.click();
    await board(page).box.getByRole('list', { name: 'Hints' }).getByText(/^What breaks, and how: /).waitFor();
    await board(page).box.getByRole('button', { name: 'Open it in the player' }).click();
    const invariants = page.getByRole('region', { name: 'Invariants' });
    await waitForText(() => invariants.innerText(), /broken at event \d+/, { what: 'the counterexample in the player' });
    assertNoErrors(errors);
    await close();
  });

  it('the reference, built by keyboard, holds; the board survives a reload and a copied link', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const target = programLines(build.reference, texts);
    await buildByKeyboard(page, target);
    assert.match(await checkDesign(page), /^Holds under every schedule of up to /);
    // The address carries the board: a reload shows it as it was.
    await waitForText(() => page.evaluate(() => location.hash), /^#\/(s|lesson)\//, { what: 'the address' });
    const link = await page.evaluate(() => location.href);
    await page.reload();
    await board(page).check.waitFor();
    assert.deepEqual((await readBoard(page)).map(({ text, depth }) => ({ text, depth })), target, 'after a reload');
    // A fresh browser (no saved progress) opening the copied link sees the same board.
    const other = await newPage(browser);
    await open(other.page, link);
    await board(other.page).check.waitFor();
    assert.deepEqual((await readBoard(other.page)).map(({ text, depth }) => ({ text, depth })), target, 'from the link');
    assertNoErrors(other.errors, 'the copied link');
    await other.close();
    // Start over gives the start back.
    await board(page).reset.click();
    await waitForText(async () => `${(await readBoard(page)).length}`, `${build.start.length}`, { what: 'the lines after Start over' });
    assertNoErrors(errors);
    await close();
  });

  it('a block dragged from the bank by its grip lands on the line it is dropped at', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const before = await readBoard(page);
    const text = texts[build.blocks[0]];
    const item = board(page).box.getByRole('listitem').filter({ has: page.getByRole('button', { name: addName(text) }) }).first();
    const grip = item.locator('[aria-hidden="true"]').first();
    const from = await grip.boundingBox();
    // Drop it just above the third line, at that line's indentation.
    const target = await board(page).lines.nth(2).boundingBox();
    const list = await board(page).box.getByRole('list').filter({ has: page.getByRole('button', { name: /^Line 1 of \d+: / }) }).boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 30, from.y + 10, { steps: 4 });
    await page.mouse.move(list.x + 4 + before[2].depth * 24, target.y + 3, { steps: 8 });
    await page.mouse.up();
    const after = await readBoard(page);
    assert.equal(after.length, before.length + 1, 'one line more');
    assert.equal(after[2].text, text, 'the block is line 3');
    assertNoErrors(errors);
    await close();
  });

  it('on a 375 px touch screen, a line dragged by its grip with a finger lands where it is dropped', async () => {
    // On a phone the bank sits above the program; a block is added by a tap (after the selected
    // line) and put in place by dragging it within the program, as here.
    const small = buildPart('side-effect-keys');
    const { page, errors, close } = await newPage(browser, { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    await open(page, `${origin}/${small.hash}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `the board fits the screen (the page is ${width} px wide)`);
    const before = await readBoard(page);
    const from = before.findIndex((line) => !line.locked);
    const to = before.findIndex((line, index) => index > from + 1 && line.locked);
    const line = board(page).lines.nth(from);
    await line.evaluate((handle) => handle.scrollIntoView({ block: 'start' }));
    // The grip is the hidden handle just before the line's button.
    const grip = line.locator('xpath=preceding-sibling::*[@aria-hidden="true"][1]');
    const start = await grip.boundingBox();
    const target = await board(page).lines.nth(to).boundingBox();
    const list = await board(page).box.getByRole('list').filter({ has: page.getByRole('button', { name: /^Line 1 of \d+: / }) }).boundingBox();
    assert.ok(target.y + target.height < 812, 'the line to drop at is on screen');
    // A finger, as the browser's touch input sends it (Playwright's touchscreen only taps).
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    const [x0, y0] = [start.x + start.width / 2, start.y + start.height / 2];
    const [x1, y1] = [list.x + 4 + before[to].depth * 24, target.y + 3];
    await touch('touchStart', x0, y0);
    for (let step = 1; step <= 10; step += 1) await touch('touchMove', x0 + ((x1 - x0) * step) / 10, y0 + ((y1 - y0) * step) / 10);
    await touch('touchEnd');
    // Dropped before line `to`: the carried line now sits just above it.
    const moved = before[from];
    await waitForText(async () => (await readBoard(page))[to - 1]?.text ?? '', moved.text, { what: `line ${to}` });
    const after = await readBoard(page);
    assert.equal(after.length, before.length, 'as many lines as before');
    assertNoErrors(errors);
    await close();
  });

  it('the last hint is the answer, and it can be put on the board', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    const hint = board(page).box.getByRole('button', { name: /^(Show a hint|Another hint|Show the answer)/ });
    for (let shown = 0; shown < 3 + build.hints_html.length; shown += 1) await hint.click();
    await board(page).box.getByRole('button', { name: 'Put the answer on the board' }).click();
    const target = programLines(build.reference, texts);
    assert.deepEqual((await readBoard(page)).map(({ text, depth }) => ({ text, depth })), target);
    assert.match(await checkDesign(page), /^Holds /);
    assertNoErrors(errors);
    await close();
  });
  it('keys pressed faster than the page redraws each act where the one before left the line, and the line keeps the focus', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/${PART.hash}`);
    // A block from the bank lands at the end; carry it up three lines and indent it, without
    // waiting between the keys (a fast typist, or a screen reader user who knows the keys).
    const text = texts[build.blocks[0]];
    const before = await readBoard(page);
    await board(page).add(text).click();
    await waitForText(() => board(page).lines.nth(before.length).getAttribute('aria-label'), new RegExp(`^Line ${before.length + 1} of ${before.length + 1}: `), { what: 'the added line' });
    const added = (await readBoard(page))[before.length];
    await board(page).lines.nth(before.length).focus();
    // A slow machine, so the keys surely outrun the redraws (six times slower than this one).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    for (const key of ['Space', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowRight', 'Space']) await page.keyboard.press(key);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const at = before.length - 3;
    await waitForText(async () => JSON.stringify((await readBoard(page))[at]), JSON.stringify({ text, depth: added.depth + 1, locked: false, lifted: false }), { what: `line ${at + 1}` });
    const lines = await readBoard(page);
    assert.deepEqual(lines.filter((_, index) => index !== at), before, 'every other line is where it was');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    assert.match(focused ?? 'nothing', new RegExp(`^Line ${at + 1} of ${lines.length}: `), 'the focus is on the line carried');
    // The page's own shortcuts never saw the keys: the lab is still at the task's step.
    assert.match(page.url(), new RegExp(`${PART.hash}(?![0-9])`), 'still at the task\'s step');
    assertNoErrors(errors);
    await close();
  });
});
