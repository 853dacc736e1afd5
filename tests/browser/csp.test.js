// The built dist/ runs under its own Content-Security-Policy (scripts/postbuild.mjs writes it
// into index.html): no 'unsafe-inline', no 'unsafe-eval', and nothing on any page (pages.js)
// breaks it, neither a console error nor a `securitypolicyviolation` event.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PAGES } from './pages.js';
import { assertNoErrors, newPage, stepOn, stepper, useSite, waitForStep, waitForText
} from './support.js';

/** Records every CSP violation of the page in window.cspViolations, from its first script on. */
async function watchViolations(page) {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
}

async function assertNoViolations(page, where) {
  const violations = await page.evaluate(() => window.cspViolations);
  assert.deepEqual(violations, [], `${where} broke the Content-Security-Policy:\n${violations.join('\n')}`);
}

async function readPolicy(page) {
  return page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
}

describe('Content-Security-Policy', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('index.html carries a strict policy: WebAssembly yes, inline code and eval no', async () => {
    const { page, close } = await newPage(browser);
    await page.goto(`${origin}/`);
    const policy = await readPolicy(page);
    assert.ok(policy, 'index.html has a Content-Security-Policy meta');
    // Trunk's loader and the prerendered map's script (scripts/postbuild.mjs), by their hashes.
    assert.match(policy, /script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]{44}' 'sha256-[A-Za-z0-9+/=]{44}'(;|$)/);
    assert.doesNotMatch(policy, /'unsafe-inline'|'unsafe-eval'|\*/);
    assert.match(policy, /default-src 'none'/);
    await close();
  });

  it('the policy is enforced, and a violation is seen: an inline script added to the page does not run', async () => {
    const { page, close } = await newPage(browser);
    await watchViolations(page);
    await page.goto(`${origin}/#/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true;';
      document.head.append(script);
    });
    await waitForText(async () => String((await page.evaluate(() => window.cspViolations)).length), '1', { what: 'the violation count' });
    assert.equal(await page.evaluate(() => window.injected), undefined, 'the injected inline script did not run');
    await close();
  });

  for (const { name, hash, reach } of PAGES) {
    it(`${name} runs under the policy without a violation or a console error`, async () => {
      const { page, errors, close } = await newPage(browser);
      await watchViolations(page);
      await page.goto(`${origin}/${hash}`);
      await reach(page);
      await assertNoViolations(page, name);
      assertNoErrors(errors, name);
      await close();
    });
  }

  it('a lesson played to its end with Next runs under the policy', async () => {
    const { page, errors, close } = await newPage(browser);
    await watchViolations(page);
    await page.goto(`${origin}/#/lesson/naive-retry/1`);
    const { next, count } = stepper(page);
    const total = Number((await waitForText(count, /^Step 1 of \d+$/, { what: 'the step count' })).match(/of (\d+)/)[1]);
    for (let step = 2; step <= total; step += 1) {
      await stepOn(page);
      await waitForStep(page, step, total);
    }
    await assertNoViolations(page, 'the lesson played to its end');
    assertNoErrors(errors, 'the lesson played to its end');
    await close();
  });

  it('the second module (a Web Worker) and the service worker run under the policy', async () => {
    const { page, errors, close } = await newPage(browser, { serviceWorkers: 'allow' });
    await watchViolations(page);
    await page.goto(`${origin}/#/lesson/lost-reply/1`);
    const policy = await readPolicy(page);
    assert.match(policy, /worker-src 'self'/);
    assert.match(policy, /manifest-src 'self'/);
    await page.getByRole('button', { name: 'What could go wrong?', exact: true }).click();
    await page.getByRole('region', { name: 'What the explorer found' }).waitFor({ timeout: 60_000 });
    await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated', null, { timeout: 60_000 });
    // Served by the service worker, from its cache.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await stepOn(page);
    await page.getByRole('button', { name: 'What could go wrong?', exact: true }).click();
    await page.getByRole('region', { name: 'What the explorer found' }).waitFor({ timeout: 60_000 });
    await assertNoViolations(page, 'the worker and the service worker');
    assertNoErrors(errors, 'the worker and the service worker');
    await close();
  });

  it('when a policy forbids WebAssembly, the page says in words that the app could not start', async () => {
    const { page, close } = await newPage(browser);
    await page.route(`${origin}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(" 'wasm-unsafe-eval'", '');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${origin}/`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), /Idempotency Lab could not start: this browser could not load its WebAssembly/);
    await close();
  });
});
