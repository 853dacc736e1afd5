// "What could go wrong?": the explorer in the page finds the known bug of an unsafe design, in
// the engine's own words, and opens it in the player at the breaking event; a safe design reports
// no counterexample within its budget. Every figure is compared with `lab explore --json`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

import { ROOT, assertNoErrors, lessonUrl, newPage, open, stepper, waitForText, useSite } from './support.js';

/** `lab explore FILE --json`: one report per design, in the lesson's order. */
function nativeReports(file) {
  const [command, args] = process.env.LAB_BIN
    ? [process.env.LAB_BIN, ['explore', file, '--json']]
    : ['cargo', ['run', '-q', '-p', 'lab', '--', 'explore', file, '--json']];
  return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

const explorerButton = (page) => page.getByRole('button', { name: 'What could go wrong?', exact: true });
const findings = (page) => page.getByRole('region', { name: 'What the explorer found' });
/** A count as the page writes it: 93650 as "93,650". */
const grouped = (count) => count.toLocaleString('en-US');

/** Clicks the button and waits for the findings; returns the wall-clock milliseconds. */
async function explore(page, timeout = 120_000) {
  const started = Date.now();
  await explorerButton(page).click();
  await findings(page).waitFor({ timeout });
  return Date.now() - started;
}

describe('what could go wrong', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  const FILE = 'lessons/01-lost-reply.toml';
  const [blind, safe] = nativeReports(FILE);

  it('finds the known bug of the unsafe design and opens it at the breaking event', async () => {
    assert.equal(blind.kind, 'unsafe');
    assert.ok(blind.counterexample, 'lab explore finds a counterexample');
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await explore(page);
    const found = findings(page);
    const text = (await found.innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`^${grouped(blind.schedules)} schedules, ${grouped(blind.states)} distinct states, \\d+ ms\\. Every schedule within the budget was explored\\.`));
    // Every property's verdict, as the engine gives it.
    const verdicts = await found.getByRole('list', { name: 'Every invariant, over every schedule' }).getByRole('listitem').allInnerTexts();
    assert.equal(verdicts.length, blind.properties.length);
    blind.properties.forEach((property, index) => {
      assert.match(verdicts[index], property.holds ? /: holds$/ : /: broken$/, `${property.id}: ${verdicts[index]}`);
    });
    // The shortest counterexample in the engine's words.
    assert.ok(text.includes(`Shortest counterexample: ${blind.counterexample.description}`), text);

    await found.getByRole('button', { name: 'Open it in the player' }).click();
    const step = blind.counterexample.events + 1;
    await waitForText(stepper(page).count, new RegExp(`^Step ${step} of \\d+$`), { what: 'the breaking step' });
    const card = page.getByRole('region', { name: 'What just happened' });
    await card.getByRole('alert').filter({ hasText: 'Invariant broken' }).first().waitFor();
    assertNoErrors(errors);
    await close();
  });

  it('with the lesson\'s fault switched off, it injects faults to break the design, and marks them', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await page.getByRole('switch', { name: /^Fault: lose reply at provider.submit/ }).click();
    await explore(page);
    const found = findings(page);
    const text = (await found.innerText()).replace(/\s+/g, ' ');
    const described = text.match(/Shortest counterexample: ((\d+) faults?: .*; breaks (.*) at event (\d+))/);
    assert.ok(described, text);
    const [, , faults, , event] = described;
    assert.ok(Number(faults) >= 1, text);
    await found.getByRole('button', { name: 'Open it in the player' }).click();
    await waitForText(stepper(page).count, new RegExp(`^Step ${Number(event) + 1} of \\d+$`), { what: 'the breaking step' });
    await page.getByRole('region', { name: 'What just happened' }).getByRole('alert').filter({ hasText: 'Invariant broken' }).first().waitFor();
    // The injected faults are marked: in the switches, in the diagram and in the event list.
    const injected = page.getByRole('region', { name: 'Try it yourself: switches' }).getByRole('switch', { name: /^Injected fault: / });
    assert.equal(await injected.count(), Number(faults), 'one switch per injected fault');
    const diagram = page.getByRole('img', { name: /^Sequence diagram of events/ });
    assert.match(await diagram.getAttribute('aria-label'), /faults? marked$/);
    await page.getByText('Event list (text)').click();
    const listed = await page.getByRole('list', { name: 'Events so far' }).getByRole('listitem').allInnerTexts();
    assert.ok(listed.filter((item) => item.includes('[fault: ')).length >= Number(faults), listed.join('\n'));
    assertNoErrors(errors);
    await close();
  });

  it('a safe design reports no counterexample within its budget', async () => {
    assert.equal(safe.kind, 'safe');
    assert.equal(safe.counterexample, null);
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await page.getByRole('navigation', { name: 'Designs in this lesson' }).getByRole('button', { name: /Design 2/ }).click();
    await explore(page);
    const text = (await findings(page).innerText()).replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`^${grouped(safe.schedules)} schedules, ${grouped(safe.states)} distinct states`));
    assert.match(text, new RegExp(`No counterexample: no schedule within the budget \\(${safe.faults_max} faults?, ${safe.preemptions_max} preemptions?\\) breaks an invariant\\.`));
    assert.equal(await findings(page).getByRole('button', { name: 'Open it in the player' }).count(), 0);
    assertNoErrors(errors);
    await close();
  });

  it('the largest lesson explores in the worker and finds what lab explore finds', async () => {
    const [, reviewSafe] = nativeReports('lessons/17-review.toml');
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'review', 1));
    const designs = page.getByRole('navigation', { name: 'Designs in this lesson' }).getByRole('button');
    await designs.nth(1).click();
    const wall = await explore(page);
    const text = (await findings(page).innerText()).replace(/\s+/g, ' ');
    const ms = Number(text.match(/distinct states, (\d+) ms/)[1]);
    assert.match(text, new RegExp(`^${grouped(reviewSafe.schedules)} schedules, ${grouped(reviewSafe.states)} distinct states`));
    console.log(`explorer, lesson 17 (review), design 2: ${reviewSafe.schedules} schedules, ${reviewSafe.states} states in ${ms} ms of exploring (${wall} ms from click to report)`);

    // Cancelling mid-search, and stepping while it runs: worker.test.js, on a search that lasts
    // seconds (this one ends in a few hundred milliseconds, in a worker no CPU throttling slows).
    assertNoErrors(errors);
    await close();
  });
});
