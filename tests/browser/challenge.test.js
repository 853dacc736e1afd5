// Challenges, as an instructor and a learner use them: a challenge made from the sandbox, checked,
// shared by link, solved by keyboard alone in a fresh browser, its completion code verified; the
// same challenge downloaded as a lesson file that `lab check` accepts; hostile and contradictory
// challenge links refused with a notice over the course map, with nothing saved lost.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { board, buildByKeyboard, checkDesign, courseTasks, pattern, programLines } from './board.js';
import { ROOT, assertNoErrors, labText, newPage, open, useSite, waitForText } from './support.js';

const TRACKER = 'Guarding a side effect the database cannot undo: Tracker: check, send, mark done (safe)';
const NO_TRACKER = 'Guarding a side effect the database cannot undo: No guard on the notification (unsafe)';
const TITLE = 'Guard the notification';
const RESULTS = path.join(ROOT, 'test-output');

/** Lesson 03's build task, as `lab tasks` gives it: the board's words for each block. */
function trackerTask() {
  const task = courseTasks().find((part) => part.lesson === 'side-effect-keys' && part.task.build);
  assert.ok(task, 'lesson 03 has a build task');
  return task;
}

async function startFrom(page, design) {
  await page.getByLabel('Start from a design').selectOption({ label: design });
  await page.getByRole('button', { name: 'Start from this design' }).click();
  // A lesson's design comes once its lesson's file is read.
  await page.getByRole('status').filter({ hasText: `Started from: ${design}.` }).waitFor();
}

/** The sandbox's design, made into a draft in the builder. */
async function draftFrom(page, origin, design) {
  await open(page, `${origin}/#/sandbox`);
  await startFrom(page, design);
  await page.getByRole('button', { name: 'Make a challenge from this scenario' }).click();
  await page.getByRole('heading', { level: 1, name: 'Make a challenge' }).waitFor();
}

/** Types into a field and leaves it, as a person does (the builder takes a field when it is left). */
async function fill(page, label, text) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(text);
  await field.press('Tab');
}

/** The line of a builder's board whose code is `text`. */
function lineOf(region, text) {
  return region.getByRole('button', { name: new RegExp(`^Line \\d+ of \\d+: ${pattern(text)}, `) });
}

/** The address's state after `#/make-challenge/`. */
async function draftState(page) {
  await page.waitForFunction(() => /#\/make-challenge\/./.test(window.location.hash));
  return page.evaluate(() => window.location.hash.replace(/^#\/make-challenge\//, ''));
}

/** Makes lesson 03's tracker task in the builder: the answer is the sandbox design's program;
 * the start, its lines with the guard taken out, the rest locked. */
async function makeTrackerChallenge(page, origin) {
  const { texts } = trackerTask();
  await draftFrom(page, origin, TRACKER);
  await fill(page, 'Title', TITLE);
  await fill(page, 'Brief', 'Send the notification **once**, even when the database reply is lost.');
  await page.getByRole('button', { name: 'Start from the answer, every line locked' }).click();
  const start = page.getByRole('region', { name: 'Where learners start' });
  for (const block of ['if_not_done', 'send_notification', 'mark_done_after']) {
    const line = lineOf(start, texts[block]);
    await line.click();
    const locked = start.getByRole('button', { name: 'Locked', exact: true });
    await waitForText(() => locked.getAttribute('aria-pressed'), 'true', { what: `${block} locked` });
    await locked.click();
    await waitForText(() => locked.getAttribute('aria-pressed'), 'false', { what: `${block} unlocked` });
    await start.getByRole('button', { name: 'Remove', exact: true }).click();
    await lineOf(start, texts[block]).waitFor({ state: 'detached' });
  }
  // The windows the lesson says no guard closes: a crash between the send and the mark, and a
  // lost reply from the notification service.
  const kinds = page.getByRole('group', { name: 'Faults the explorer may inject' });
  for (const kind of ['crash', 'lose_reply']) {
    await kinds.getByRole('checkbox', { name: kind, exact: true }).uncheck();
  }
  await page.getByRole('button', { name: 'Check the challenge' }).click();
  const verdict = page.getByRole('status').filter({ hasText: /^(Ready to share|Not ready to share)/ });
  const said = await waitForText(verdict, /^(Ready to share|Not ready to share)/, { what: 'the check', timeout: 120_000 });
  assert.match(said, /^Ready to share\. /);
  return verdict.innerText();
}

describe('challenges', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('an instructor makes a challenge from the sandbox; a learner solves it by keyboard in a fresh browser, and the code verifies', async () => {
    const instructor = await newPage(browser);
    const verdict = await makeTrackerChallenge(instructor.page, origin);
    assert.match(verdict, /The start does not hold|Learners start from locked lines/, verdict);
    const counted = verdict.match(/([\d,]+) of ([\d,]+) arrangements of the answer's blocks hold/);
    assert.ok(counted, `the check counts the arrangements: ${verdict}`);
    const [hold, all] = counted.slice(1).map((figure) => Number(figure.replace(/,/g, '')));
    assert.ok(hold >= 1 && hold < all, `some arrangements hold, not all: ${hold} of ${all}`);
    await instructor.page.getByRole('button', { name: 'Copy link' }).click();
    const link = await instructor.page.getByLabel('Link to this challenge').inputValue();
    assert.match(link, /#\/challenge\/[A-Za-z0-9_-]+$/);

    const learner = await newPage(browser);
    await open(learner.page, link);
    await learner.page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await learner.page.getByText('even when the database reply is lost').waitFor();
    const { task: { build }, texts } = trackerTask();
    // Keyboard alone: lines taken back with Delete, blocks added from the bank by Enter on
    // their buttons, lines carried with Space and the arrows.
    await buildByKeyboard(learner.page, programLines(build.reference, texts), 'The board');
    assert.match(await checkDesign(learner.page, 'The board'), /^Holds under every schedule/);
    const code = await waitForText(learner.page.getByRole('status', { name: 'Completion code' }), /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/, { what: 'the completion code' });
    // Saved under this challenge: a reload shows the solved board and the same code.
    await learner.page.reload();
    await learner.page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await waitForText(learner.page.getByRole('status', { name: 'Completion code' }), code.trim(), { what: 'the code after a reload' });
    // Another challenge does not share its board.
    await open(learner.page, `${origin}/${labText(['challenge', 'lessons/03-side-effect-keys.toml', '--title', 'Another challenge']).trim()}`);
    await learner.page.getByRole('heading', { level: 1, name: 'Another challenge' }).waitFor();
    await board(learner.page, 'The board').check.waitFor();
    assert.equal(await learner.page.getByRole('status', { name: 'Completion code' }).count(), 0, 'the other challenge is not solved');
    // The course map lists both.
    await open(learner.page, `${origin}/#/`);
    const listed = learner.page.getByRole('region', { name: 'Your challenges' });
    await listed.getByRole('link', { name: TITLE }).waitFor();
    await listed.getByRole('link', { name: 'Another challenge' }).waitFor();

    await instructor.page.getByText('For instructors: verify a completion code').first().click();
    await instructor.page.getByLabel('Completion code', { exact: true }).fill(code.trim());
    await instructor.page.getByRole('button', { name: 'Verify' }).first().click();
    await waitForText(instructor.page.getByRole('status').filter({ hasText: /^(Verified|Not verified)/ }), /^Verified: this challenge, solved after 1 check, with 0 of \d+ hints \(not the answer\)\.$/, { what: 'the verdict on the code' });
    await instructor.page.getByLabel('Completion code', { exact: true }).fill(code.trim().replace(/^./, (first) => (first === 'A' ? 'B' : 'A')));
    await instructor.page.getByRole('button', { name: 'Verify' }).first().click();
    await waitForText(instructor.page.getByRole('status').filter({ hasText: /^(Verified|Not verified)/ }), /^Not verified: this code is for another challenge\.$/, { what: 'an altered code' });
    assertNoErrors(learner.errors, 'the learner');
    assertNoErrors(instructor.errors, 'the instructor');
    await learner.close();
    await instructor.close();
  });

  it('a challenge downloaded as a lesson file passes lab check', async () => {
    const { page, errors, close } = await newPage(browser);
    await makeTrackerChallenge(page, origin);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as a lesson file' }).click()]);
    assert.equal(file.suggestedFilename(), 'guard-the-notification.toml');
    fs.mkdirSync(RESULTS, { recursive: true });
    const saved = path.join(RESULTS, 'challenge-lesson.toml');
    fs.copyFileSync(await file.path(), saved);
    const out = labText(['check', saved]);
    assert.match(out, /^build: guard-the-notification part 1: \d+ of \d+ arrangements hold/m, out);
    assert.match(out, /^ok: lesson "guard-the-notification"/m, out);
    assertNoErrors(errors);
    await close();
  });

  it('hostile, damaged and contradictory challenge links show a notice over the course map, and nothing saved is lost', async () => {
    const { page, errors, close } = await newPage(browser);
    // Something saved first: a visited lesson.
    await open(page, `${origin}/#/lesson/lost-reply/2`);
    const progress = () => page.evaluate(() => localStorage.getItem('idempotency-lab/progress'));
    await page.waitForFunction(() => localStorage.getItem('idempotency-lab/progress') !== null);
    const savedBefore = await progress();

    // Drafts the builder holds in its address but would never share: an answer that breaks, and
    // a goal that names no invariant.
    await draftFrom(page, origin, NO_TRACKER);
    await fill(page, 'Title', 'An answer that breaks');
    const breaking = await draftState(page);
    const goal = page.getByRole('group', { name: 'Invariants that must hold' });
    for (const box of await goal.getByRole('checkbox').all()) {
      await box.uncheck();
    }
    await waitForText(page.getByRole('status').filter({ hasText: /^Before it can be checked/ }), /the goal names no invariant/, { what: 'the builder says so' });
    const goalless = await draftState(page);

    const good = labText(['challenge', 'lessons/03-side-effect-keys.toml']).trim().replace(/^#\/challenge\//, '');
    const bytes = Buffer.from(good, 'base64url');
    const wrongVersion = Buffer.concat([Buffer.from([9]), bytes.subarray(1)]).toString('base64url');
    const cases = [
      ['random text', 'not-a-challenge', /^This challenge link cannot be opened: the link is damaged or incomplete/],
      ['a cut link', good.slice(0, Math.floor(good.length / 2)), /^This challenge link cannot be opened: the link is damaged or incomplete/],
      ['another version', wrongVersion, /^This challenge link cannot be opened: the link was made by another version of the lab/],
      ['an oversized link', 'A'.repeat(20_000), /^This challenge link cannot be opened: the link is too long/],
      ['script in the link', '<script>alert(1)</script>', /^This challenge link cannot be opened:/],
      ['an answer that breaks', breaking, /^This challenge cannot be solved as it was made: the answer does not hold within/],
      ['a goal with no invariant', goalless, /^This challenge link cannot be opened: the goal names no invariant/],
    ];
    for (const [what, state, expected] of cases) {
      await page.goto(`${origin}/#/challenge/${state}`);
      await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
      await waitForText(page.getByRole('alert'), expected, { what: `the notice for ${what}` });
      await page.getByRole('link', { name: 'Open the sandbox' }).waitFor();
    }
    assert.equal(await progress(), savedBefore, 'the saved progress is unchanged');
    assertNoErrors(errors);
    await close();
  });
});
