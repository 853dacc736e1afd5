// A build for a sub-path (`make build PUBLIC_URL=/sub/path/`: a project page on a static host),
// which `make test` builds in test-output/subpath/ (`make build-subpath`) beside dist/. Served
// under its path, as such a host serves it: the prerendered map, a lesson, the hand-over to the
// whole app at the sandbox, the service worker's scope and a reload with no network all stay
// under the path, and the page asks for nothing outside it.

import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';

import {
  ROOT, assertNoErrors, lessonUrl, newPage, open, stepNumber, stepOn, stepper, useSite, waitForServiceWorker,
} from './support.js';

const SUBPATH_DIST = path.join(ROOT, 'test-output', 'subpath');

/** The URLs `page` asks for outside `prefix`, and the answers over 399, as they come. */
function strayRequests(page, prefix) {
  const stray = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && !url.pathname.startsWith(prefix)) stray.push(`asked outside ${prefix}: ${url.pathname}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) stray.push(`${response.status()}: ${response.url()}`);
  });
  return stray;
}

describe('a build under a sub-path', () => {
  let browser;
  let origin;
  let site;
  let prefix;
  // Served under the path it was built for: `origin` ends with it.
  useSite((served) => {
    ({ origin, browser } = served);
    site = `${origin}/`;
    prefix = new URL(site).pathname;
    assert.notEqual(prefix, '/', 'test-output/subpath/ is built for a sub-path');
  }, SUBPATH_DIST);

  it('opens a lesson, the map, and the sandbox by a link from the map, all under its path', async () => {
    const { page, errors, close } = await newPage(browser);
    const stray = strayRequests(page, prefix);
    // A lesson's address, nothing saved: its prerendered step, then the first module's lesson.
    await page.goto(lessonUrl(origin, 'lost-reply'));
    await page.locator('[data-prerender="lesson"]').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    // The map in a new load, and its link to the sandbox: the whole app takes the page over.
    await page.goto('about:blank');
    await open(page, site);
    await page.getByRole('link', { name: 'Open the sandbox' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sandbox' }).waitFor({ timeout: 30_000 });
    assert.equal(new URL(page.url()).pathname, prefix, 'the address keeps the path');
    assert.equal(await page.getByRole('main').count(), 1, 'one app in the page');
    await stepOn(page);
    assert.deepEqual(stray, []);
    assertNoErrors(errors);
    await close();
  });

  it('its service worker works under its path: after one visit a reload with no network opens the sandbox and a lesson', async () => {
    const { page, errors, close } = await newPage(browser, { serviceWorkers: 'allow' });
    const stray = strayRequests(page, prefix);
    await open(page, site);
    await waitForServiceWorker(page);
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope), site);
    await page.context().setOffline(true);
    await page.goto(`${site}#/sandbox`);
    await page.getByRole('heading', { level: 1, name: 'Sandbox' }).waitFor({ timeout: 30_000 });
    await stepOn(page);
    await page.goto(lessonUrl(origin, 'naive-retry', 1));
    await stepper(page).next.waitFor();
    await stepOn(page);
    assert.equal(await stepNumber(page), 2);
    assert.deepEqual(stray, []);
    assertNoErrors(errors);
    await close();
  });
});
