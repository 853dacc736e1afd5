// The page's two app modules: the first (the course map and the lessons) is all a lesson or the
// map downloads; an address of any other page (the sandbox, a challenge, the engine page, ...)
// loads the whole app instead, alone; and following a link from a lesson or the map to such a
// page hands the page over to the whole app in place. If the whole app cannot be loaded, the page
// says so, and the lessons still work.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, holdRequests, lessonUrl, newPage, open, stepOn, stepNumber, stepper, useSite, waitForText } from './support.js';

const FIRST = /\/idempotency-lab-[0-9a-f]+_bg\.wasm$/;
const WHOLE = /\/idempotency-lab-whole(_bg\.wasm|\.js)$/;

/** The paths of the app modules' files `page` asks for, from now on. */
function recordModules(page) {
  const asked = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (FIRST.test(path) || WHOLE.test(path)) asked.push(path);
  });
  return {
    first: () => asked.some((path) => FIRST.test(path)),
    whole: () => asked.some((path) => WHOLE.test(path)),
  };
}

describe('the first module and the whole app', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('a lesson and the course map download the first module only', async () => {
    const { page, errors, close } = await newPage(browser);
    const modules = recordModules(page);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    await page.getByRole('banner').getByRole('link', { name: 'Idempotency Lab' }).click();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    await page.getByRole('main').getByRole('link').first().waitFor();
    assert.ok(modules.first(), 'the first module was loaded');
    assert.ok(!modules.whole(), 'the whole app was not asked for');
    assertNoErrors(errors);
    await close();
  });

  for (const [address, heading] of [['#/sandbox', 'Sandbox'], ['#/engine', 'Engine performance']]) {
    it(`${address} loads the whole app alone, not the first module too`, async () => {
      const { page, errors, close } = await newPage(browser);
      const modules = recordModules(page);
      await open(page, `${origin}/${address}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      assert.ok(modules.whole(), 'the whole app was loaded');
      assert.ok(!modules.first(), 'the first module was not asked for');
      assertNoErrors(errors);
      await close();
    });
  }

  it('a link from the map to the sandbox hands the page over to the whole app, and back to a lesson works', async () => {
    const { page, errors, close } = await newPage(browser);
    const modules = recordModules(page);
    await open(page, `${origin}/#/`);
    await page.getByRole('link', { name: 'Open the sandbox' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sandbox' }).waitFor({ timeout: 30_000 });
    assert.ok(modules.first() && modules.whole(), 'the first module, then the whole app');
    // One app in the page: one site header, one main.
    assert.equal(await page.getByRole('banner').count(), 1, 'one site header');
    assert.equal(await page.getByRole('main').count(), 1, 'one main');
    // The sandbox works: its lab steps.
    await stepOn(page);
    // Back to the map and into a lesson, now in the whole app: it steps.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    await page.goto(lessonUrl(origin, 'lost-reply', 1));
    await stepper(page).next.waitFor();
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    assertNoErrors(errors);
    await close();
  });

  it('a learner who goes back while the whole app is on its way stays in the first module', async () => {
    const { page, errors, close } = await newPage(browser);
    const { release } = await holdRequests(page, WHOLE);
    await open(page, `${origin}/#/`);
    await page.getByRole('link', { name: 'Open the sandbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Loading this page…' }).waitFor();
    await page.goBack();
    const heading = await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).elementHandle();
    const whole = page.waitForResponse((response) => /idempotency-lab-whole_bg\.wasm$/.test(response.url()));
    release();
    await whole;
    await page.waitForTimeout(500);
    // The map the first module shows is the same element: no other app took the page.
    assert.ok(await heading.evaluate((element) => element.isConnected), 'the first module still shows the map');
    await page.getByRole('main').getByRole('link', { name: 'A missing reply is not a failed action' }).click();
    await stepper(page).next.waitFor();
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    assertNoErrors(errors);
    await close();
  });

  it('a whole app that cannot be loaded: the page says so, Try again works, and the lessons still step', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.route(WHOLE, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    await page.getByRole('contentinfo').getByRole('link', { name: 'Engine performance' }).click();
    await page.getByRole('heading', { level: 1, name: 'This page could not be opened' }).waitFor();
    await waitForText(page.getByRole('alert'), /^The part of the lab this page needs could not be loaded \(.+\)\. Check the connection and try again; the lessons still work\.$/, { what: 'the notice' });
    // The lessons still work.
    await page.getByRole('link', { name: 'Go to the course map' }).click();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    await page.goto(lessonUrl(origin, 'lost-reply', 1));
    await stepper(page).next.waitFor();
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    // Once it can be loaded, Try again opens the page.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Engine performance' }).click();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await page.unroute(WHOLE);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Engine performance' }).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole('banner').count(), 1, 'one site header');
    // A 404 is logged by the browser as a console error; nothing else may be.
    assertNoErrors(errors.filter((error) => !/404|Failed to load resource/i.test(error)));
    await close();
  });
});
