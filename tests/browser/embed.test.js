// The embed: the lab alone at #/embed/…, usable in an 800×600 frame, with a link to the full page
// at the same state; the lesson's Embed button gives the <iframe> snippet.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { TIMEOUT, assertNoErrors, lessonUrl, newPage, open, stepper, waitForText, useSite } from './support.js';

/** Whether the document scrolls sideways. */
const scrollsSideways = (target) => target.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('embed', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('renders the lab without the site header and fits 800×600 without scrolling sideways', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    await open(page, `${origin}/#/embed/lesson/lost-reply/5`);
    await waitForText(stepper(page).count, /^Step 5 of \d+$/, { what: 'the step' });
    assert.equal(await page.getByRole('banner').count(), 0, 'no site header');
    assert.equal(await page.getByRole('contentinfo').count(), 0, 'no site footer');
    assert.equal(await page.getByRole('navigation', { name: 'Breadcrumb' }).count(), 0, 'no way to the course map');
    await page.getByRole('region', { name: 'Lab' }).waitFor();
    const full = page.getByRole('link', { name: 'Open in Idempotency Lab' });
    assert.equal(await full.getAttribute('href'), lessonUrl(origin, 'lost-reply', 5));
    assert.equal(await scrollsSideways(page), false, 'no horizontal scroll at 800×600');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("the Embed button gives a snippet that shows the same state in an 800×600 frame", async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply', 6));
    await page.getByRole('switch', { name: /Provider deduplicates by idempotency key/ }).click();
    await waitForText(() => page.url(), /#\/lesson\/lost-reply\/6\/[A-Za-z0-9_-]+$/, { what: 'the address with the change' });
    const changes = new URL(page.url()).hash.split('/').pop();
    await page.getByRole('button', { name: 'Embed', exact: true }).click();
    const field = page.getByRole('textbox', { name: 'Embed code (800×600)' });
    assert.equal(await field.evaluate((element) => element.readOnly), true, 'read-only');
    const snippet = await field.inputValue();
    const src = `${origin}/#/embed/lesson/lost-reply/6/${changes}`;
    assert.equal(snippet, `<iframe src="${src}" width="800" height="600" title="Idempotency Lab: A missing reply is not a failed action" loading="lazy" style="border:0"></iframe>`);
    await page.getByRole('button', { name: 'Copy embed code' }).waitFor();

    // The snippet, in a page of its own.
    const host = await newPage(browser);
    await host.page.setContent(`<!doctype html><title>host</title><body style="margin:0">${snippet.replace('loading="lazy" ', '')}</body>`);
    const frame = host.page.frameLocator('iframe');
    await waitForText(frame.getByRole('group', { name: 'Step through the run' }).getByText(/^Step \d+ of \d+$/), /^Step 6 of \d+$/, { what: 'the step in the frame' });
    assert.equal(await frame.getByRole('switch', { name: /Provider deduplicates by idempotency key/ }).isChecked(), true, 'the change is in the frame');
    assert.equal(await frame.getByRole('banner').count(), 0);
    const inner = host.page.frames().find((candidate) => candidate.url().startsWith(origin));
    assert.equal(await scrollsSideways(inner), false, 'no horizontal scroll in the frame');
    const full = frame.getByRole('link', { name: 'Open in Idempotency Lab' });
    assert.equal(await full.getAttribute('href'), page.url());
    assertNoErrors(errors);
    await host.close();
    await close();
  });
});
