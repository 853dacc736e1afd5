// Hand-over as the learner sees it: a cancel while a submit is in flight leaves the row unknown,
// with a review item (owner, next action) in the Records table, until a lookup settles it; and a
// request without an idempotency key is refused with 400 and handed to its owner.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, engineTraces, lessonUrl, newPage, open, readRecordRow, waitForStep, waitForText,
  useSite, stepOf, stepCount } from './support.js';

const total = stepCount;

describe('hand-over to a person', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('cancel-and-review: a cancel with the submit in flight leaves the row unknown, with its review item, until the lookup', async () => {
    const traces = engineTraces('lessons/15-cancel-and-review.toml');
    // The designs in file order: new identity, resume, cancel in flight, the limit.
    const design = 2;
    const trace = traces[design];
    const cancel = trace.events.findIndex((event) => event.fault === 'cancel');
    assert.ok(cancel > 0, 'the design cancels');
    const late = trace.events.findIndex((event) => event.actor === 'provider');
    assert.ok(late > cancel, 'the timed-out request commits after the cancel');
    const { page, errors, close } = await newPage(browser);

    const atCancel = stepOf(traces, design, cancel + 1);
    await open(page, lessonUrl(origin, 'cancel-and-review', atCancel));
    await waitForStep(page, atCancel, total(traces));
    await page.getByRole('heading', { name: 'Cancelled while the request is in flight' }).waitFor();
    const row = await readRecordRow(page, 'OP-401');
    assert.match(row.Journal.value, /^unknown \(cancelled with a submit in flight: the provider may still commit it\)$/);
    assert.equal(row['Provider records'].value, 'none', 'the request has not committed yet');
    assert.equal(row['Review item'].value, 'owner: operator; next: look OP-401 up under its own key, then resume OP-401; never resubmit it as new');
    await waitForText(page.getByRole('region', { name: 'What just happened' }), /outcome stays unknown/);

    const atEnd = stepOf(traces, design, trace.events.length);
    await open(page, lessonUrl(origin, 'cancel-and-review', atEnd));
    await waitForStep(page, atEnd, total(traces));
    const settled = await readRecordRow(page, 'OP-401');
    assert.equal(settled.Journal.value, 'verified');
    assert.equal(settled['Provider records'].value, '1: receipt-OP-401', 'one reservation, found by the lookup');
    assert.equal(settled['Review item'].value, '–', 'the settled row needs nobody');
    assertNoErrors(errors, 'cancel-and-review');
    await close();
  });

  it('changed-payload: a request without a key gets 400 and a review item for the client team', async () => {
    const traces = engineTraces('lessons/06-changed-payload.toml');
    // silent, stripe-400, leach-409, ietf-422, ietf-no-key, limit.
    const design = 4;
    const trace = traces[design];
    const submit = trace.events.findIndex((event) => event.action === 'provider.submit');
    assert.ok(submit > 0, 'the design submits');
    const { page, errors, close } = await newPage(browser);
    const at = stepOf(traces, design, submit + 1);
    await open(page, lessonUrl(origin, 'changed-payload', at));
    await waitForStep(page, at, total(traces));
    await page.getByRole('heading', { name: 'No key at all: 400' }).waitFor();
    await waitForText(page.getByRole('region', { name: 'What just happened' }), /400: no Idempotency-Key header/);
    assert.match(await page.getByRole('region', { name: 'Code' }).innerText(), /key = None {2}# no Idempotency-Key header is sent/);

    const atEnd = stepOf(traces, design, trace.events.length);
    await open(page, lessonUrl(origin, 'changed-payload', atEnd));
    await waitForStep(page, atEnd, total(traces));
    const row = await readRecordRow(page, 'OP-001');
    assert.equal(row.Journal.value, 'failed (400: no Idempotency-Key header)');
    assert.equal(row['Provider records'].value, 'none');
    assert.equal(row['Review item'].value, 'owner: client team; next: send OP-001 again with its own id as the Idempotency-Key');
    assertNoErrors(errors, 'changed-payload');
    await close();
  });
});
