// The course map prerendered into dist/index.html (scripts/postbuild.mjs): before the
// WebAssembly arrives it shows, with real links, only at the map's address and only for a
// learner with nothing saved; it is exactly the markup the app renders there; and the app
// replaces it as it mounts, leaving one map.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, newPage, open, useSite } from './support.js';

/** The page's own elements (not the boot line or scripts), as markup without the prerender's marks. */
function bodyMarkup(page) {
  return page.evaluate(() =>
    [...document.body.children]
      .filter((element) => element.id !== 'boot' && !['SCRIPT', 'NOSCRIPT'].includes(element.tagName))
      .map((element) => {
        const copy = element.cloneNode(true);
        for (const marked of [copy, ...copy.querySelectorAll('[inert]')]) {
          marked.removeAttribute('data-prerender');
          marked.removeAttribute('inert');
        }
        return copy.outerHTML;
      }));
}

/** A page whose WebAssembly never arrives: what a learner sees before it does. */
async function withoutWasm(browser) {
  const opened = await newPage(browser);
  await opened.page.route(/\.wasm$/, (route) => route.abort());
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
    assert.ok(prerendered.length >= 3, 'header, main and footer');
    await early.close();

    const { page, errors, close } = await newPage(browser);
    await open(page, `${origin}/#/`);
    assert.equal(await page.locator('[data-prerender]').count(), 0);
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1);
    assert.deepEqual(await bodyMarkup(page), prerendered);
    assertNoErrors(errors);
    await close();
  });

  it('a link in it works: the app opens the lesson the learner chose before it arrived', async () => {
    const { page, errors, close } = await newPage(browser);
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route(/\.wasm$/, async (route) => { await held; await route.continue(); });
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
    await lesson.page.goto(`${origin}/#/lesson/lost-reply`);
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
