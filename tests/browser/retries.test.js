// The "Retry policies" page: the model chosen and sliders moved by keyboard, tables read by role
// and name, and every figure compared with what the native engine gives the same settings
// (`lab retries --json`), never with hand-typed numbers. It also measures one recompute at 1,000
// clients and one run of 100 seeds in wasm, and the longest task the page ran meanwhile (a
// frozen page would show one long task).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, labJson, longestTask, newPage, open, useSite, watchLongTasks } from './support.js';

/** Runs `lab retries ARGS --seeds 1 --json` (one seed's runs): the built binary when LAB_BIN names it, else through cargo. */
const native = (args) => labJson(['retries', ...args, '--seeds', '1', '--json']);

/** The page's label for each policy, by its JSON name. */
const LABELS = {
  none: 'No backoff',
  constant: 'Constant',
  exponential: 'Exponential',
  full_jitter: 'Full jitter',
  equal_jitter: 'Equal jitter',
  decorrelated_jitter: 'Decorrelated jitter',
};

/** The totals table as { label: [calls, completed, succeeded, gave up] }. */
async function readTotals(page) {
  const table = page.getByRole('table', { name: 'Total calls and completion by policy' });
  const rows = {};
  for (const label of Object.values(LABELS)) {
    const row = table.getByRole('row', { name: new RegExp(`^${label} `) });
    rows[label] = (await row.getByRole('cell').allTextContents()).map(Number);
  }
  return rows;
}

/** Waits until the status says the page computed these settings ("100 clients, overlapping writes"). */
async function computed(page, settings, seed) {
  const status = page.getByRole('status').filter({ hasText: `${settings}, seed ${seed}: all six policies computed in` });
  await status.waitFor({ timeout: 120_000 });
  return Number((await status.textContent()).match(/computed in (\d+) ms/)[1]);
}

function assertSameAsNative(totals, runs, where) {
  for (const run of runs) {
    assert.deepEqual(
      totals[LABELS[run.policy]],
      [run.calls, run.completed_tick, run.succeeded, run.gave_up],
      `${where}: ${run.policy} as natively`,
    );
  }
}

describe('retry policies page', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('the course map links to it', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/`);
    await page.getByRole('link', { name: 'Retry policies' }).click();
    await page.getByRole('heading', { level: 1, name: 'Retry policies' }).waitFor();
    assertNoErrors(errors, 'the course map');
    await close();
  });

  it('sliders move by keyboard and the tables follow the engine', async () => {
    const { page, errors, close } = await newPage(browser);
    await watchLongTasks(page);
    await open(page, `${origin}/#/retries`);
    await page.getByRole('heading', { level: 1, name: 'Retry policies' }).waitFor();
    await computed(page, '100 clients, overlapping writes', 0);
    assertSameAsNative(await readTotals(page), native(['--clients', '100', '--seed', '0']), '100 clients');
    assert.equal(await page.getByRole('slider', { name: 'Capacity (calls a tick)' }).count(), 0, 'no capacity in the study\'s model');
    const plot = page.getByRole('img', { name: 'Calls per tick, each policy overlaid' });
    assert.equal(await plot.locator('polyline').count(), 6, 'one line per policy');

    // The seed slider, one step right by keyboard.
    const seed = page.getByRole('slider', { name: 'Seed' });
    await seed.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await seed.inputValue(), '1');
    await computed(page, '100 clients, overlapping writes', 1);
    assertSameAsNative(await readTotals(page), native(['--clients', '100', '--seed', '1']), 'seed 1');

    // The clients slider to its end: 1,000 clients. Measure the recompute and the longest task.
    await page.evaluate(() => { window.longTasks = []; });
    const clients = page.getByRole('slider', { name: 'Clients' });
    await clients.focus();
    await page.keyboard.press('End');
    assert.equal(await clients.inputValue(), '1000');
    const milliseconds = await computed(page, '1000 clients, overlapping writes', 1);
    const longest = await longestTask(page);
    console.log(`# 1,000 clients: six policies in ${milliseconds} ms of wasm; longest task ${Math.round(longest)} ms`);
    // Slices of bounded work: no task near the quarter second a person notices as a freeze.
    assert.ok(longest < 250, `the longest task while recomputing took ${longest} ms`);
    const totals = await readTotals(page);
    assertSameAsNative(totals, native(['--clients', '1000', '--seed', '1']), '1,000 clients');
    assert.ok(totals['Full jitter'][0] < totals.Exponential[0], 'full jitter does less work than exponential');

    // The other model, by keyboard: the arrow key moves the radio group's choice.
    const overlap = page.getByRole('radio', { name: 'Overlapping writes conflict (the study\'s model)' });
    const capacity = page.getByRole('radio', { name: 'A fixed capacity per tick' });
    assert.ok(await overlap.isChecked(), 'the study\'s model is the default');
    await overlap.focus();
    await page.keyboard.press('ArrowDown');
    assert.ok(await capacity.isChecked(), 'the arrow key chose the capacity model');
    await computed(page, '1000 clients, 1 per tick', 1);
    assertSameAsNative(await readTotals(page), native(['--model', 'capacity', '--clients', '1000', '--seed', '1']), 'the capacity model');
    await page.getByRole('slider', { name: 'Capacity (calls a tick)' }).waitFor();

    // Stacked layers: one more layer of three attempts is 3^4 at the backend.
    const layers = page.getByRole('slider', { name: 'Layers' });
    await layers.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await layers.inputValue(), '4');
    const stack = native(['--layers', '4', '--attempts', '3', '--budget', '2'])[0];
    const table = page.getByRole('table', { name: 'Calls reaching each layer' });
    const backend = table.getByRole('row', { name: /^Backend / });
    assert.deepEqual(
      (await backend.getByRole('cell').allTextContents()).map(Number),
      [stack.bottom_calls, stack.bottom_calls_single_layer, stack.bottom_calls_with_budget],
    );
    assert.equal(stack.bottom_calls, 81);
    await page.getByRole('img', { name: 'Calls that reach the backend (log scale)' }).waitFor();
    assertNoErrors(errors, 'the retry policies page');
    await close();
  });

  it('runs 100 seeds in the second module and shows each policy\'s mean and spread as lab does', async () => {
    const { page, errors, close } = await newPage(browser);
    await watchLongTasks(page);
    await open(page, `${origin}/#/retries`);
    await computed(page, '100 clients, overlapping writes', 0);
    await page.evaluate(() => { window.longTasks = []; });
    await page.getByRole('button', { name: 'Run 100 seeds' }).click();
    const status = page.getByRole('status').filter({ hasText: '100 clients, overlapping writes, seeds 0 to 99: computed in' });
    await status.waitFor({ timeout: 120_000 });
    const milliseconds = Number((await status.textContent()).match(/computed in (\d+) ms/)[1]);
    const longest = await longestTask(page);
    console.log(`# 100 seeds of 100 clients: six policies in ${milliseconds} ms of wasm; longest task ${Math.round(longest)} ms`);
    assert.ok(longest < 250, `the longest task while the seeds ran took ${longest} ms`);
    const [summary] = labJson(['retries', '--clients', '100', '--seeds', '100', '--json']);
    const table = page.getByRole('table', { name: 'Mean and spread over 100 seeds' });
    for (const entry of summary.policies) {
      const row = table.getByRole('row', { name: new RegExp(`^${LABELS[entry.policy]} `) });
      const cells = await row.getByRole('cell').allTextContents();
      const where = `${entry.policy} as lab retries --seeds 100 gives`;
      // Means and deviations are shown to the unit (a half may round either way).
      for (const [cell, value] of [[cells[0], entry.calls.mean], [cells[1], entry.calls.deviation], [cells[4], entry.completed_ticks.mean], [cells[5], entry.completed_ticks.deviation]]) {
        assert.ok(Math.abs(Number(cell) - value) <= 0.5, `${where}: ${cell} against ${value}`);
      }
      assert.deepEqual(
        [cells[2], cells[3], cells[6], cells[7]],
        [
          `${entry.calls.min}–${entry.calls.max}`,
          String(entry.fewest_calls_seeds),
          `${entry.completed_ticks.min}–${entry.completed_ticks.max}`,
          String(entry.soonest_done_seeds),
        ],
        where,
      );
    }
    assertNoErrors(errors, 'the seeds run');
    await close();
  });

  for (const width of [1280, 375]) {
    it(`at ${width} px the legend sits beside or under the plot, never over it, and the plot takes the width`, async () => {
      const { page, errors, close } = await newPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await open(page, `${origin}/#/retries`);
      await computed(page, '100 clients, overlapping writes', 0);
      const plot = page.getByRole('img', { name: 'Calls per tick, each policy overlaid' });
      const legend = page.getByRole('list', { name: 'Policies' });
      assert.deepEqual(await legend.getByRole('listitem').allInnerTexts(), Object.values(LABELS), 'one entry per policy, in order');
      const [box, key, section] = await Promise.all([
        plot.boundingBox(),
        legend.boundingBox(),
        page.getByRole('region', { name: 'Clients contending for one resource' }).boundingBox(),
      ]);
      const apart = key.x >= box.x + box.width || key.y >= box.y + box.height;
      assert.ok(apart, `the legend ${JSON.stringify(key)} lies outside the plot ${JSON.stringify(box)}`);
      const used = (box.width + (key.x >= box.x + box.width ? key.width : 0)) / section.width;
      assert.ok(used > 0.85, `plot and legend use ${Math.round(used * 100)} % of the section's width`);
      if (width === 375) assert.ok(key.y >= box.y + box.height, 'at 375 px the legend is under the plot');
      assertNoErrors(errors, `the retry policies page at ${width} px`);
      await close();
    });
  }
});
