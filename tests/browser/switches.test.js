// Switches, the side-by-side view, and the downloaded trace: flipping a design choice re-runs the engine and changes
// the outcome as the lesson says; the lesson's own design comes back with one button.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, it } from 'node:test';

import { ROOT, assertNoErrors, engineTraces, lessonUrl, newPage, open, readInvariants, readRecordRow, stepper,
  waitForText, useSite, stepOn, lessonFile, stepOf, stepCount } from './support.js';
import { courseTasks } from './board.js';

describe('switches', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  // Every number below comes from the engine's own traces of the lesson, never typed by hand.
  const FILE = 'lessons/01-lost-reply.toml';
  const steps = stepCount;
  const lesson = engineTraces(FILE);
  const brokenAt = lesson[0].verdicts.find((verdict) => verdict.invariant === 'one_effect').broken_at;
  assert.ok(brokenAt, 'design 1 of the lesson breaks one_effect');
  // Step N of the lesson is cursor N - 1 of design 1.
  const duplicateStep = brokenAt + 1;
  const total = steps(lesson);
  // The first design with the provider's dedup on; then with the lookup too.
  const dedupOn = engineTraces(FILE, ['--switch', 'provider_dedup=on'])[0];
  const bothOn = engineTraces(FILE, ['--switch', 'provider_dedup=on', '--switch', 'reconcile=on'])[0];
  const others = lesson.slice(1);
  const totalDedup = steps([dedupOn, ...others]);
  const totalBoth = steps([bothOn, ...others]);

  // OP-002 is the operation whose reply is lost: the blind design reserves it twice.
  const provider = async (page) => (await readRecordRow(page, 'OP-002'))['Provider records'];
  const stepText = (page) => stepper(page).count.textContent();
  const broken = async (page) => (await readInvariants(page)).filter((invariant) => invariant.broken).map((invariant) => invariant.statement);

  it('turning on the fix in the unsafe design removes the duplicate, at the same event', async () => {
    const { page, errors, close } = await newPage(browser);
    // Design 1 ("Resubmit blindly"), just after its blind resubmit created the second record.
    await open(page, lessonUrl(origin, 'lost-reply', duplicateStep));
    await waitForText(async () => (await provider(page)).value, '2: receipt-OP-002, receipt-OP-002-2', { what: 'the duplicate' });
    assert.deepEqual(await broken(page), ['At most one effect per logical operation']);
    const switches = page.getByRole('region', { name: 'Try it yourself: switches' });

    // The provider deduplicates: the blind resubmit is now a replay.
    const dedup = switches.getByRole('switch', { name: /Provider deduplicates by idempotency key/ });
    assert.equal(await dedup.isChecked(), false);
    await dedup.click();
    await waitForText(async () => (await provider(page)).value, '1: receipt-OP-002', { what: 'one record' });
    assert.equal(await stepText(page), `Step ${duplicateStep} of ${totalDedup}`, 'the lab stays at the same event');
    assert.deepEqual(await broken(page), []);
    await page.getByRole('navigation', { name: 'Designs in this lesson' }).getByText('your changes').waitFor();

    // And with the lookup as well, this is the lesson's safe design: the run reconciles.
    await switches.getByRole('switch', { name: /Look the operation up before resubmitting/ }).click();
    await waitForText(() => stepText(page), new RegExp(`^Step \\d+ of ${totalBoth}$`), { what: 'the re-run design' });
    // Design 1 now runs as the safe design does: step on to its last event.
    for (let step = duplicateStep + 1; step <= bothOn.events.length + 1; step += 1) {
      await stepOn(page, () => page.keyboard.press('ArrowRight'));
      await waitForText(() => stepText(page), `Step ${step} of ${totalBoth}`, { what: 'the step count' });
    }
    assert.equal((await provider(page)).value, '1: receipt-OP-002');
    assert.deepEqual(await broken(page), []);
    assert.match(await page.getByRole('region', { name: 'What just happened' }).innerText(), /returns "verified"/);

    // Back to the lesson's own design: the duplicate is there again.
    await page.getByRole('button', { name: "Back to the lesson's design" }).click();
    await page.goto(lessonUrl(origin, 'lost-reply', duplicateStep));
    await waitForText(async () => (await provider(page)).value, '2: receipt-OP-002, receipt-OP-002-2', { what: 'the duplicate again' });
    assertNoErrors(errors);
    await close();
  });

  it("a step's task (flip this switch) is done with one button, and the lab's switch shows it", async () => {
    // The course's first flip task, from the checker: its lesson, part and switch.
    const part = courseTasks().find((task) => task.task.flip);
    assert.ok(part, 'the course has a flip task');
    const traces = engineTraces(lessonFile(part.lesson));
    const step = stepOf(traces, part.design, part.at);
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, part.lesson, step));
    const task = page.getByRole('group', { name: 'Try it' });
    const named = (await task.getByRole('strong').first().textContent()).trim();
    const lab = page.getByRole('switch', { name: new RegExp(named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    assert.equal(await lab.isChecked(), !part.task.flip.on, `${part.lesson}: the switch starts as the design has it`);
    await task.getByRole('button', { name: 'Flip it for me' }).click();
    await task.getByText(part.task.flip.expect === 'holds' ? 'Done: in this run every invariant holds.' : 'Done: in this run an invariant breaks.').waitFor();
    assert.equal(await lab.isChecked(), part.task.flip.on, `${part.lesson}: the lab's switch is flipped`);
    assertNoErrors(errors);
    await close();
  });

  it('a flip the engine would refuse is not offered: the switch is disabled and says why', async () => {
    // practice-recovery's own program looks the operation up, so a provider without a lookup
    // cannot run it.
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'practice-recovery', 2));
    const lab = page.getByRole('region', { name: 'Try it yourself: switches' });
    const lookup = lab.getByRole('switch', { name: /^Provider offers a lookup by key/ });
    assert.equal(await lookup.isDisabled(), true, 'the lookup switch is disabled');
    assert.match(await lookup.getAttribute('aria-describedby').then((id) => page.locator(`#${id}`).innerText()), /^Cannot flip here: /);
    // The others still flip.
    const offered = lab.getByRole('switch', { disabled: false }).filter({ hasNot: page.getByText('Fault:') });
    assert.ok((await offered.count()) > 0, 'other switches are offered');
    assertNoErrors(errors);
    await close();
  });

  it('a fault can be switched off, and a verdict links to the event that broke it', async () => {
    const { page, errors, close } = await newPage(browser);
    // A step after the break, in design 1.
    await open(page, lessonUrl(origin, 'lost-reply', lesson[0].events.length + 1));
    const invariants = page.getByRole('region', { name: 'Invariants' });
    await invariants.getByRole('button', { name: `broken at event ${brokenAt}` }).click();
    await waitForText(() => stepText(page), `Step ${duplicateStep} of ${total}`, { what: `the step of event ${brokenAt}` });

    // Without the lost reply, even the blind design makes one reservation.
    await page.getByRole('switch', { name: /Fault: lose reply at provider.submit/ }).click();
    await page.keyboard.press('End');
    await waitForText(() => stepText(page), /^Step (\d+) of \1$/, { what: 'the last step' });
    assert.equal(await page.getByRole('region', { name: 'Records' }).getByText('duplicate').count(), 0);
    assertNoErrors(errors);
    await close();
  });

  it('shows every design side by side at the same event', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'naive-retry', 6));
    // The part shown asks the learner to turn on UNIQUE: the other designs' runs wait for that.
    await page.getByRole('group', { name: 'Try it' }).getByRole('button', { name: 'Flip it for me' }).click();
    await page.getByRole('button', { name: 'Compare designs side by side' }).click();
    const compare = page.getByRole('region', { name: 'Designs side by side' });
    await compare.waitFor();
    for (const design of [1, 2, 3]) {
      await compare.getByRole('table', { name: `Records, design ${design}` }).waitFor();
    }
    await compare.getByText('Every invariant holds so far').first().waitFor();
    await compare.getByText('Broken: At most one effect per logical operation').first().waitFor();
    assertNoErrors(errors);
    await close();
  });
});

describe('the same trace in the browser as natively', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  // The engine in WebAssembly and the native `lab` tool must give the same bytes.
  for (const [lesson, file, step, design] of [
    ['lost-reply', 'lessons/01-lost-reply.toml', 1, 0],
    // The second step of design 2: just past design 1's events and design 2's start.
    ['lost-reply', 'lessons/01-lost-reply.toml', engineTraces('lessons/01-lost-reply.toml')[0].events.length + 3, 1],
    ['retry-bounds', 'lessons/13-retry-bounds.toml', 1, 0],
    ['check-then-act', 'lessons/04-check-then-act.toml', 1, 0],
  ]) {
    it(`${lesson}, design ${design + 1}: the downloaded trace equals lab run --json, byte for byte`, async () => {
      const { page, errors, close } = await newPage(browser);
      await open(page, lessonUrl(origin, lesson, step));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download this run (JSON)' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `${lesson}-design-${design + 1}.json`);
      const fromBrowser = fs.readFileSync(await download.path(), 'utf8');
      const line = execFileSync(process.env.LAB_BIN || 'cargo', process.env.LAB_BIN ? ['run', file, '--json'] : ['run', '-q', '-p', 'lab', '--', 'run', file, '--json'], { cwd: ROOT, encoding: 'utf8' })
        .split('\n')
        .filter((text) => text.trim() !== '')[design];
      const { name } = JSON.parse(line);
      // The line is {"name":…,"trace":TRACE,"text":[…]}: TRACE's bytes are compared as printed.
      const prefix = `{"name":${JSON.stringify(name)},"trace":`;
      const suffix = line.lastIndexOf(',"text":[');
      assert.ok(line.startsWith(prefix) && suffix > prefix.length && line.endsWith(']}'));
      const native = line.slice(prefix.length, suffix);
      assert.equal(fromBrowser.length, native.length, 'same length');
      assert.ok(fromBrowser === native, 'the same bytes');
      assertNoErrors(errors);
      await close();
    });
  }
});
