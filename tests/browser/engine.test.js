// The engine at scale in a real tab: the engine page builds whole traces of 100, 1,000 and
// 10,000 records, and each run has exactly the events the native engine gives the same scenario
// (`lab generate --records N`, then `lab run`); then it explores every schedule of the largest
// lesson, and finds exactly the schedules and states `lab explore` finds natively.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { ROOT, assertNoErrors, newPage, open, useSite } from './support.js';

/** Runs the CLI: the built binary when LAB_BIN names it, else through cargo. */
function lab(args) {
  const [command, prefix] = process.env.LAB_BIN
    ? [process.env.LAB_BIN, []]
    : ['cargo', ['run', '-q', '-p', 'lab', '--']];
  return execFileSync(command, [...prefix, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** The number of events the native engine runs for the reference batch of `records`. */
function nativeEvents(records) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-batch-'));
  const file = path.join(dir, `batch-${records}.toml`);
  fs.writeFileSync(file, lab(['generate', '--records', String(records)]));
  const header = lab(['run', file]).split('\n')[0];
  fs.rmSync(dir, { recursive: true, force: true });
  const match = header.match(/\((?:seed \d+), (\d+) events\)/);
  assert.ok(match, `lab run printed a header with the event count: ${header}`);
  return Number(match[1]);
}

/** Every fault kind: the engine page explores with all of them, as `make bench` does. */
const EVERY_KIND = 'lose_request,lose_reply,timeout,busy,crash,deliver_twice,stale_lookup,expire_key,change_payload,invalid_input,permission_denied,cancel';

/** What `lab explore` reports for the review lesson's safe design at K faults, P = 2. */
function nativeExploration(faults) {
  const line = lab(['explore', 'lessons/17-review.toml', '--design', 'safe', '--faults', String(faults), '--preemptions', '2', '--kinds', EVERY_KIND, '--json']);
  return JSON.parse(line.split('\n')[0]);
}

describe('engine at scale', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('a 10,000-record scenario runs in the tab, with the same events as natively', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/#/engine`);
    await page.getByRole('heading', { level: 1, name: 'Engine performance' }).waitFor();
    await page.getByRole('button', { name: 'Run the measurement' }).click();
    const table = page.getByRole('table', { name: 'Building the whole trace, by size of the batch (fastest run)' });
    const largest = table.getByRole('row', { name: /^10,000 / });
    await largest.waitFor({ timeout: 180_000 });
    await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor({ timeout: 300_000 });
    for (const records of [100, 1_000, 10_000]) {
      const row = table.getByRole('row', { name: new RegExp(`^${records.toLocaleString('en-US')} `) });
      const cells = await row.getByRole('cell').allTextContents();
      const events = Number(cells[0].replaceAll(',', ''));
      assert.equal(events, nativeEvents(records), `${records} records: the tab ran the native engine's events`);
      assert.ok(Number(cells[1]) >= 0, 'a time in milliseconds');
    }
    const explored = page.getByRole('table', { name: "Exploring every schedule of the review lesson's safe design" });
    for (const faults of [1, 2]) {
      const row = explored.getByRole('row', { name: new RegExp(`^${faults} faults?, 2 preemptions `) });
      const cells = (await row.getByRole('cell').allTextContents()).map((text) => text.replaceAll(',', ''));
      const native = nativeExploration(faults);
      assert.equal(Number(cells[0]), native.schedules, `K=${faults}: the same schedules as natively`);
      assert.equal(Number(cells[1]), native.states, `K=${faults}: the same distinct states as natively`);
      assert.equal(cells[5], native.complete ? 'yes' : 'no: cut at its budget');
    }
    assertNoErrors(errors, 'the engine page');
    await close();
  });

  it('the footer links to the engine page', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/`);
    const link = page.getByRole('contentinfo').getByRole('link', { name: 'Engine performance' });
    assert.equal(await link.getAttribute('href'), '#/engine');
    assertNoErrors(errors, 'the course map');
    await close();
  });
});
