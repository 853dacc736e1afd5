// The course map, opening a lesson from it, and links that point nowhere.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';

import { assertNoErrors, courseLessonIds, lessonFile, lessonUrl, newPage, open, stepper, waitForStep, waitForText,
  useSite, stepOn } from './support.js';

const LESSON = 'lost-reply';
const TITLE = 'A missing reply is not a failed action';

describe('navigation', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('the home page shows the course map with a link to the lesson', async () => {
    const { page, errors, close } = await newPage(browser);
    const wasm = page.waitForResponse((response) => response.url().endsWith('.wasm'));
    await page.goto(`${origin}/`);
    assert.equal((await wasm).headers()['content-type'], 'application/wasm', 'served for streaming compile');
    const heading = page.getByRole('heading', { level: 1, name: 'Idempotency Lab' });
    await heading.waitFor();
    // The app, not the map prerendered into index.html.
    await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
    assert.equal(await page.title(), 'Idempotency Lab');
    await page.getByRole('heading', { name: 'A lost reply: unknown is not failed, so look before you resubmit' }).waitFor();
    const link = page.getByRole('main').getByRole('link', { name: TITLE });
    assert.equal(await link.count(), 1, 'one link to the lesson');
    assert.equal(await link.getAttribute('href'), `#/lesson/${LESSON}`);
    // Every lesson the course lists has its link on the map.
    const ids = courseLessonIds();
    assert.ok(ids.includes(LESSON), 'lessons/course.toml lists lost-reply');
    const hrefs = await page.getByRole('main').getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    for (const id of ids) {
      assert.equal(hrefs.filter((href) => href === `#/lesson/${id}`).length, 1, `one link on the course map to lesson "${id}"`);
    }
    assert.equal(await page.getByText('Loading Idempotency Lab…').count(), 0, 'the boot message is gone');
    assertNoErrors(errors);
    await close();
  });

  it('each lesson on the map says which lessons it builds on, by their numbers on the map', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/`);
    const ids = courseLessonIds();
    const number = new Map(ids.map((id, index) => [id, index + 1]));
    let listed = 0;
    for (const id of ids) {
      // The lesson file's own prerequisites, read here from the TOML, never typed by hand.
      const text = fs.readFileSync(new URL(`../../${lessonFile(id)}`, import.meta.url), 'utf8').split(/^\[/m)[0];
      const written = text.match(/^prerequisites\s*=\s*\[([^\]]*)\]/m);
      const numbers = written ? [...written[1].matchAll(/"([^"]+)"/g)].map((match) => number.get(match[1])).sort((a, b) => a - b) : [];
      const card = page.getByRole('listitem').filter({ has: page.locator(`a[href="#/lesson/${id}"]`) });
      const line = card.locator('.prerequisites');
      if (numbers.length === 0) {
        assert.equal(await line.count(), 0, `${id} builds on nothing, and says nothing`);
        continue;
      }
      const expected = numbers.length === 1
        ? `Builds on lesson ${numbers[0]}.`
        : `Builds on lessons ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}.`;
      assert.equal((await line.textContent()).trim(), expected, `${id}'s card`);
      listed += 1;
    }
    assert.ok(listed > 0, 'some lessons build on others');
    assertNoErrors(errors);
    await close();
  });

  it('opens the lesson from its link on the home page, at step 1', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/`);
    await page.getByRole('link', { name: TITLE }).click();
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    assert.equal(new URL(page.url()).hash, `#/lesson/${LESSON}`);
    const { back, restart, next, count } = stepper(page);
    await waitForText(count, /^Step 1 of \d+$/, { what: 'the step count' });
    const total = Number((await count.textContent()).match(/of (\d+)/)[1]);
    assert.ok(total > 2, `the lesson has several steps (${total})`);
    assert.ok(await back.isDisabled(), 'Back is disabled at step 1');
    assert.ok(await restart.isDisabled(), 'Restart is disabled at step 1');
    assert.ok(await next.isEnabled(), 'Next is enabled at step 1');
    await page.getByRole('table', { name: 'Records' }).getByRole('row', { name: /OP-001/ }).waitFor();

    // The breadcrumb leads back to the course map.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Course' }).click();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/');
    assertNoErrors(errors);
    await close();
  });

  for (const bad of ['9999', 'abc', '0']) {
    it(`a link to step "${bad}" shows a notice and a working lesson at step 1`, async () => {
      const { page, errors, close } = await newPage(browser);
      await open(page, lessonUrl(origin, LESSON, bad));
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
      const notice = page.getByRole('status').filter({ hasText: `"${bad}"` });
      await notice.waitFor();
      const text = await notice.textContent();
      assert.match(text, /does not have/, text);
      assert.match(text, /Showing step 1/, text);
      const total = Number(text.match(/steps 1 to (\d+)/)?.[1]);
      assert.ok(total > 2, `the notice says which steps exist: ${text}`);
      await waitForStep(page, 1, total);
      const { back, next } = stepper(page);
      assert.ok(await back.isDisabled(), 'Back is disabled at step 1');
      const row = page.getByRole('table', { name: 'Records' }).getByRole('row', { name: /OP-001/ });
      await row.waitFor();

      // The lesson works: Next goes to step 2 and the notice, now out of date, goes away.
      await stepOn(page);
      await waitForStep(page, 2, total);
      assert.equal(new URL(page.url()).hash, `#/lesson/${LESSON}/2`);
      assert.equal(await notice.count(), 0, 'the notice is gone at step 2');
      assertNoErrors(errors);
      await close();
    });
  }

  const missing = [
    ['an unknown lesson', '#/lesson/nope', /There is no lesson called "nope"/],
    ['a step of an unknown lesson', '#/lesson/nope/3', /There is no lesson called "nope"/],
    ['an unknown route', '#/no/such/page', /There is no page at this address/],
  ];
  for (const [what, hash, message] of missing) {
    it(`${what} (${hash}) shows "Page not found" with a link to the course map`, async () => {
      const { page, errors, close } = await newPage(browser);
      await page.goto(`${origin}/${hash}`);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      assert.match(await page.getByRole('main').textContent(), message);
      await page.getByRole('link', { name: 'Go to the course map' }).click();
      await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
      assert.equal(new URL(page.url()).hash, '#/');
      assertNoErrors(errors);
      await close();
    });
  }

  it('a hash that is not a route (#foo), on load or typed later, shows "Page not found" and throws nothing', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.goto(`${origin}/#bar`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/bar');
    await page.getByRole('link', { name: 'Go to the course map' }).click();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    await page.evaluate(() => {
      window.location.hash = 'foo';
    });
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(new URL(page.url()).hash, '#/foo');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    assertNoErrors(errors);
    await close();
  });

  it('when the WebAssembly cannot load, the page says so in words instead of loading forever', async () => {
    const { page, close } = await newPage(browser);
    await page.route(/\.wasm$/, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }));
    await page.goto(`${origin}/`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), /Idempotency Lab could not start: this browser could not load its WebAssembly/);
    await close();
  });

  it('once the app runs, the loading line is gone', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { level: 1, name: 'Idempotency Lab' }).waitFor();
    // The app, not the map prerendered into index.html.
    await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
    assert.equal(await page.locator('#boot').count(), 0, 'the loading line is gone once the app runs');
    assertNoErrors(errors);
    await close();
  });
});
