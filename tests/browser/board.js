// The Parsons board, driven as a person drives it: lines read from their accessible names, blocks
// added with the bank's buttons, lines moved and indented with the keyboard (Space picks a line
// up, the arrows move and indent it, Space drops it). `texts` maps a block's name to the code the
// board shows for it (from `lab tasks`), so a program from the checker can be built by name.

import assert from 'node:assert/strict';

import { TIMEOUT, engineTraces, labJson, lessonFile, stepOf, stepCount } from './support.js';

/** `text` as a pattern that matches it in an accessible name (which collapses runs of spaces). */
export const pattern = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');

/** The name of the bank's button that adds the block shown as `text`. A block with a comment
 * line names the comment first: "Add “# … code” to your program". */
export const addName = (text) => new RegExp(`^Add “(.+ )?${pattern(text)}” to your program$`);

const LINE = /^Line (\d+) of (\d+): (.*), (not indented|indented (\d+) levels?)(, locked)?(, picked up)?$/;

/** The board inside a lesson's "Try it" box, or another group of that name (a challenge's). */
export function board(page, name = 'Try it') {
  const box = page.getByRole('group', { name });
  return {
    box,
    lines: box.getByRole('button', { name: /^Line \d+ of \d+: / }),
    add: (text) => box.getByRole('button', { name: addName(text) }).first(),
    check: box.getByRole('button', { name: 'Check my design' }),
    run: box.getByRole('button', { name: 'Run it in the player' }),
    reset: box.getByRole('button', { name: 'Start over' }),
    structure: box.getByRole('status').filter({ hasText: /Python|empty|Line \d+:/ }),
  };
}

/** Every line of the program: { text, depth, locked, lifted }. */
export async function readBoard(page, name = 'Try it') {
  const labels = await board(page, name).lines.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  return labels.map((label) => {
    const found = label.match(LINE);
    assert.ok(found, `a board line's name reads "Line K of N: code, depth": ${label}`);
    return { text: found[3], depth: found[5] ? Number(found[5]) : 0, locked: Boolean(found[6]), lifted: Boolean(found[7]) };
  });
}

/** Reads the board and holds it to the task's start (`lab tasks`' `start`), locked lines marked. */
export async function assertStart(page, build, texts, name = 'Try it') {
  const lines = await readBoard(page, name);
  assert.deepEqual(
    lines.map(({ text, depth, locked }) => ({ text, depth, locked })),
    build.start.map(({ block, depth, locked }) => ({ text: texts[block], depth, locked })),
    'the board shows the start, locked lines marked',
  );
  return lines;
}

/** A program from the checker (its text form: a block a line, two spaces a level) as the lines the board shows. */
export function programLines(program, texts) {
  return program
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const block = line.trim();
      assert.ok(texts[block] !== undefined, `lab tasks gave the board's words for ${block}`);
      return { text: texts[block], depth: (line.length - line.trimStart().length) / 2 };
    });
}

async function until(page, test, what, name = 'Try it') {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const lines = await readBoard(page, name);
    if (test(lines)) return lines;
    if (Date.now() > deadline) throw new Error(`the board did not show ${what}: ${JSON.stringify(lines)} (at ${page.url()}; ${(await page.getByRole("group", { name }).count())} task boxes)`);
    await page.waitForTimeout(15);
  }
}

const same = (a, b) => a.length === b.length && a.every((line, index) => line.text === b[index].text && line.depth === b[index].depth);

/** Picks line `index` up with Space, presses `keys`, and drops it with Space. */
async function carry(page, index, keys, name = 'Try it') {
  const handle = board(page, name).lines.nth(index);
  await handle.focus();
  await page.keyboard.press('Space');
  await until(page, (lines) => lines[index]?.lifted, `line ${index + 1} picked up`, name);
  // One key at a time, each waited for, as a person reads the announcement before the next.
  let at = index;
  for (const key of keys) {
    const before = (await readBoard(page, name))[at];
    await page.keyboard.press(key);
    if (key === 'ArrowUp' || key === 'ArrowDown') {
      at += key === 'ArrowUp' ? -1 : 1;
      await until(page, (lines) => lines[at]?.lifted, `the line moved to ${at + 1}`, name);
    } else {
      await until(page, (lines) => lines[at]?.depth !== before.depth, `line ${at + 1} indented`, name);
    }
  }
  await page.keyboard.press('Space');
  await until(page, (lines) => lines.every((line) => !line.lifted), 'every line dropped', name);
}

/**
 * Builds `target` (lines of { text, depth }) on the board by keyboard and the bank's buttons:
 * every movable line back to the bank, then each line of the target put in place in turn, then
 * each indentation set. The locked lines must be where the target has them.
 */
export async function buildByKeyboard(page, target, name = 'Try it') {
  // Movable lines go back to the bank (Delete on the line).
  for (;;) {
    const lines = await readBoard(page, name);
    const movable = lines.findIndex((line) => !line.locked);
    if (movable < 0) break;
    await board(page, name).lines.nth(movable).focus();
    await page.keyboard.press('Delete');
    await until(page, (now) => now.length === lines.length - 1, `line ${movable + 1} taken back`, name);
  }
  for (let index = 0; index < target.length; index += 1) {
    const lines = await readBoard(page, name);
    if (lines[index]?.text === target[index].text) continue;
    // Select the line before (a click selects), so the block is added right after it.
    if (index > 0) await board(page, name).lines.nth(index - 1).click();
    await board(page, name).add(target[index].text).click();
    const after = await until(page, (now) => now.length === lines.length + 1, `"${target[index].text}" added`, name);
    const landed = after.findIndex((line, at) => line.text !== lines[at]?.text || at >= lines.length);
    if (landed !== index) {
      const key = landed > index ? 'ArrowUp' : 'ArrowDown';
      await carry(page, landed, Array(Math.abs(landed - index)).fill(key), name);
    }
    const now = await readBoard(page, name);
    assert.equal(now[index].text, target[index].text, `line ${index + 1} is in place`);
  }
  const lines = await readBoard(page, name);
  for (let index = 0; index < target.length; index += 1) {
    const by = target[index].depth - lines[index].depth;
    if (by === 0) continue;
    assert.ok(!lines[index].locked, `a locked line (${index + 1}) is already at its depth`);
    await carry(page, index, Array(Math.abs(by)).fill(by > 0 ? 'ArrowRight' : 'ArrowLeft'), name);
  }
  return until(page, (now) => same(now, target), 'the program asked for', name);
}

/** Check my design, and the verdict once the search is done. */
export async function checkDesign(page, name = 'Try it') {
  const { box, check } = board(page, name);
  await check.click();
  const verdict = box.getByRole('status').filter({ hasText: /^(Holds|Breaks|The search reached)/ });
  await verdict.waitFor({ timeout: 30_000 });
  return (await verdict.innerText()).replace(/\s+/g, ' ').trim();
}

let tasks;
/** Every lesson's tasks as `lab tasks` gives them (run once per test file). */
export function courseTasks() {
  tasks ??= labJson(['tasks', 'lessons']);
  return tasks;
}

/** A lesson's first build task (or its `nth`, from 0), with the step (1-based, over the lesson's designs) it shows at. */
export function buildPart(lesson = 'lost-reply', nth = 0) {
  const part = courseTasks().filter((task) => task.lesson === lesson && task.task.build)[nth];
  assert.ok(part, `${lesson} has a build task number ${nth + 1}`);
  const traces = engineTraces(lessonFile(lesson));
  const step = stepOf(traces, part.design, part.at);
  const total = stepCount(traces);
  return { ...part, build: part.task.build, step, total, hash: `#/lesson/${lesson}/${step}` };
}
