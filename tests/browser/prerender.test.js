// The course map prerendered into dist/index.html, and each lesson's first step prerendered into
// dist/prerender/ (scripts/postbuild.mjs): before the WebAssembly arrives they show, with real
// links, only at their own address and only for a learner with nothing saved; they are exactly
// the markup the app renders there; and the app replaces them as it mounts, leaving one page.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { LESSON_STATUS, bodyMarkup as readBody } from '../../scripts/postbuild.mjs';
import { assertNoErrors, axeViolations, courseLessonIds, holdRequests, newPage, open, stepper, useSite, waitForText } from './support.js';

/**
 * The page's own elements (not the boot line or scripts) as the build writes them: read from a
 * prerendered page, the markup it was built from; from the app, what the build would write now.
 * `lesson`: the build's form for a lesson (controls disabled), else the map's (controls inert).
 */
function bodyMarkup(page, lesson = false) {
  return page.evaluate(readBody, lesson);
}

/**
 * A page whose WebAssembly is still on its way (its request never answered): what a learner sees
 * before it arrives. `failing`: its request fails instead, as when it cannot be loaded.
 */
async function withoutWasm(browser, { failing = false } = {}) {
  const opened = await newPage(browser);
  await opened.page.route(/\.wasm$/, (route) => (failing ? route.abort() : undefined));
  return opened;
}

describe('the prerendered course map', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('shows before the WebAssembly, with real links, and is what the app renders', async () => {
    const early = await withoutWasm(browser);
    await early.page.goto(`${origin}/#/`);
    const heading = early.page.getByRole('heading', { level: 1, name: 'Idempotency Lab' });
    await heading.waitFor();
    assert.equal(await heading.isVisible(), true);
    const first = early.page.getByRole('link', { name: /^1\. / });
    assert.match(await first.getAttribute('href'), /^#\/lesson\/[a-z0-9-]+$/);
    // Controls that need the app wait for it: inert, so a click cannot be lost.
    for (const control of await early.page.locator('[data-prerender] button, [data-prerender] input, [data-prerender] select').all()) {
      assert.equal(await control.getAttribute('inert'), '');
    }
    const prerendered = await bodyMarkup(early.page);
    assert.equal((prerendered.match(/ data-prerender=""/g) ?? []).length, 3, 'header, main and footer');
    await early.close();

    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/#/`);
    assert.equal(await page.locator('[data-prerender]').count(), 0);
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
    assert.equal(await bodyMarkup(page), prerendered);
    assertNoErrors(errors);
    await close();
  });

  it('a link in it works: the app opens the lesson the learner chose before it arrived', async () => {
    const { page, errors, close } = await newPage(browser);
    const { release } = await holdRequests(page, /\.wasm$/);
    await page.goto(`${origin}/#/`);
    const first = page.getByRole('link', { name: /^1\. / });
    const title = (await first.innerText()).replace(/^1\. /, '');
    await first.click();
    release();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    assert.equal(await page.locator('[data-prerender]').count(), 0);
    assertNoErrors(errors);
    await close();
  });

  it('stays hidden at another address, and for a learner with saved progress', async () => {
    const lesson = await withoutWasm(browser);
    await lesson.page.goto(`${origin}/#/engine`);
    await lesson.page.locator('#boot').waitFor();
    assert.equal(await lesson.page.locator('[data-prerender]').first().isVisible(), false);
    await lesson.close();

    const returning = await withoutWasm(browser);
    await returning.page.addInitScript(() => {
      localStorage.setItem('idempotency-lab/progress', '{}');
    });
    await returning.page.goto(`${origin}/#/`);
    await returning.page.locator('#boot').waitFor();
    assert.equal(await returning.page.locator('[data-prerender]').first().isVisible(), false);
    await returning.close();
  });
});

/** Sums the page's layout shifts (not caused by input) into window.shifted, from the start. */
function countShifts(page) {
  return page.addInitScript(() => {
    window.shifted = 0;
    new PerformanceObserver((list) => {
      for (const shift of list.getEntries()) if (!shift.hadRecentInput) window.shifted += shift.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

describe("a lesson's prerendered first step", () => {
  const LESSON = 'lost-reply';
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('shows before the WebAssembly with its buttons disabled and a line saying the lab is loading, passes axe-core, and is what the app renders', async () => {
    const early = await withoutWasm(browser);
    await early.page.goto(`${origin}/#/lesson/${LESSON}`);
    const loading = early.page.getByRole('status').filter({ hasText: 'Loading the lab' });
    await loading.waitFor();
    const heading = early.page.getByRole('heading', { level: 1 });
    assert.equal(await heading.count(), 1, "the lesson's heading, not the map's as well");
    const title = await heading.innerText();
    const { next, count } = stepper(early.page);
    assert.match(await count.innerText(), /^Step 1 of \d+$/);
    assert.equal(await next.isDisabled(), true, 'Next waits for the app');
    assert.equal(await early.page.locator('[data-prerender="lesson"] :is(button, input, select, textarea):enabled').count(), 0);
    assert.equal(await early.page.getByRole('link', { name: 'Course', exact: true }).getAttribute('href'), '#/');
    assert.deepEqual(await axeViolations(early.page), []);
    const prerendered = await bodyMarkup(early.page, true);
    assert.ok(prerendered.includes(LESSON_STATUS));
    await early.close();

    // The WebAssembly cannot be loaded: the page says the lab could not start, and no longer that
    // it is loading.
    const failed = await withoutWasm(browser, { failing: true });
    await failed.page.goto(`${origin}/#/lesson/${LESSON}`);
    await failed.page.getByText(/^Idempotency Lab could not start/).waitFor();
    assert.equal(await failed.page.getByRole('heading', { level: 1, name: title }).isVisible(), true);
    assert.equal(await failed.page.getByText('Loading the lab…').isVisible(), false);
    await failed.close();

    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/#/lesson/${LESSON}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.equal(await page.getByRole('status').filter({ hasText: 'Loading the lab' }).count(), 0);
    assert.equal(await bodyMarkup(page, true), prerendered.replace(LESSON_STATUS, ''));
    assertNoErrors(errors);
    await close();
  });

  it('its controls work once the app has mounted, and nothing moves as the app replaces it', async () => {
    const { page, errors, close } = await newPage(browser);
    await countShifts(page);
    const { release } = await holdRequests(page, /\.wasm$/);
    await page.goto(`${origin}/#/lesson/${LESSON}`);
    const loading = page.getByRole('status').filter({ hasText: 'Loading the lab' });
    await loading.waitFor();
    const { next, count } = stepper(page);
    assert.equal(await next.isDisabled(), true);
    release();
    // The prerendered button is disabled: the click waits for the app's own. The first part asks
    // a prediction: Next says so, and skipping it moves on.
    await next.click();
    await page.getByRole('alert').filter({ hasText: 'Predict first.' }).waitFor();
    await page.getByRole('button', { name: 'Skip the prediction' }).click();
    await waitForText(count, /^Step 2 of \d+$/, { what: 'the step count after Next' });
    assert.equal(await loading.count(), 0);
    assert.equal(await page.locator('[data-prerender]').count(), 0);
    await page.getByRole('button', { name: 'Hide lesson text' }).click();
    await page.getByRole('button', { name: 'Show lesson text' }).waitFor();
    assert.equal(await page.evaluate(() => window.shifted), 0, 'no layout shift from the prerendered page to the app');
    assertNoErrors(errors);
    await close();
  });

  it("every lesson of the course has one, and the app's render at its address is it", async () => {
    for (const id of courseLessonIds()) {
      const early = await withoutWasm(browser);
      await early.page.goto(`${origin}/#/lesson/${id}`);
      await early.page.getByRole('status').filter({ hasText: 'Loading the lab' }).waitFor();
      const prerendered = await bodyMarkup(early.page, true);
      await early.close();
      const { page, errors, close } = await newPage(browser);
      await open(page, `${origin}/#/lesson/${id}`);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await bodyMarkup(page, true), prerendered.replace(LESSON_STATUS, ''), id);
      assertNoErrors(errors, id);
      await close();
    }
  });

  it('stays hidden with a step in the address, for an unknown lesson, for a learner with saved progress, and once the learner leaves', async () => {
    const cases = [
      ['a step in the address', `#/lesson/${LESSON}/3`, null],
      ['an unknown lesson', '#/lesson/nope', null],
      ['saved progress', `#/lesson/${LESSON}`, 'progress'],
      ['saved settings', `#/lesson/${LESSON}`, 'settings'],
    ];
    for (const [what, hash, saved] of cases) {
      // Failing, so that the network goes idle.
      const { page, close } = await withoutWasm(browser, { failing: true });
      const asked = [];
      page.on('request', (request) => asked.push(new URL(request.url()).pathname));
      if (saved) await page.addInitScript((key) => localStorage.setItem(`idempotency-lab/${key}`, '{}'), saved);
      await page.goto(`${origin}/${hash}`);
      await page.locator('#boot').waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(asked.filter((pathname) => pathname.includes('/prerender/')), [], `${what}: no prerendered lesson asked for`);
      assert.equal(await page.locator('[data-prerender]').filter({ visible: true }).count(), 0, `${what}: nothing prerendered shows`);
      await close();
    }

    const { page, close } = await withoutWasm(browser);
    await page.goto(`${origin}/#/lesson/${LESSON}`);
    await page.getByRole('status').filter({ hasText: 'Loading the lab' }).waitFor();
    await page.getByRole('link', { name: 'Course', exact: true }).click();
    await page.locator('[data-prerender]').first().waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#boot').isVisible(), true, 'the loading line shows instead');
    await close();
  });
});
