// Links to the exact state: the address bar always holds it, a fresh browser restores it, "Copy
// link" copies it, and a link that is damaged or hostile shows a notice and the default, and runs
// nothing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { assertNoErrors, lessonUrl, newPage, open, readLessonState, stepper, waitForText, useSite } from './support.js';

/** Everything the lab shows that a link must restore. */
async function readLab(page) {
  const switches = page.getByRole('region', { name: 'Try it yourself: switches' }).getByRole('switch');
  const names = await switches.evaluateAll((inputs) => inputs.map((input) => `${input.closest('label').textContent.trim()}: ${input.checked}`));
  return {
    ...(await readLessonState(page)),
    switches: names,
    diagram: await page.getByRole('img', { name: /^Sequence diagram of events/ }).getAttribute('aria-label'),
  };
}

/** Records dialogs (an alert from a hostile link would be one) and dismisses them. */
function watchDialogs(page) {
  const dialogs = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return dialogs;
}

describe('links to the exact state', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('a link with flipped switches and injected faults reopens identically in a fresh browser', async () => {
    const { page, errors, close } = await newPage(browser);
    await open(page, lessonUrl(origin, 'lost-reply', 1));
    // Injected faults: without the lesson's own lost reply, the explorer must inject faults to
    // break the blind design; its counterexample opens in the player.
    await page.getByRole('switch', { name: /^Fault: lose reply at provider.submit/ }).click();
    await page.getByRole('button', { name: 'What could go wrong?', exact: true }).click();
    await page.getByRole('button', { name: 'Open it in the player' }).click();
    await page.getByRole('switch', { name: /^Injected fault: / }).first().waitFor();
    // A flipped switch, and a step back.
    await page.getByRole('switch', { name: /Provider deduplicates by idempotency key/ }).click();
    const flipped = await waitForText(() => page.url(), /#\/lesson\/lost-reply\/\d+\/[A-Za-z0-9_-]+$/, { what: 'the address with the changes' });
    const shown = Number((await stepper(page).count.textContent()).match(/^Step (\d+)/)[1]);
    await page.keyboard.press('ArrowLeft');
    await waitForText(stepper(page).count, new RegExp(`^Step ${shown - 1} of \\d+$`), { what: 'the step before' });
    // The address follows the step back (it was read once already, just after the switch).
    await page.waitForFunction((before) => window.location.href !== before, flipped);
    const url = page.url();
    const hash = new URL(url).hash;
    console.log(`lesson link with a flipped switch and injected faults: ${hash.length} characters (${hash})`);
    assert.ok(hash.length < 200, `${hash.length} characters`);
    const before = await readLab(page);
    assert.ok(before.switches.some((line) => /^Injected fault: .*: true$/.test(line)), before.switches.join('\n'));
    assert.ok(before.switches.some((line) => /Provider deduplicates by idempotency key \(changed by you\): true$/.test(line)), before.switches.join('\n'));
    assertNoErrors(errors);
    await close();

    const fresh = await newPage(browser);
    await open(fresh.page, url);
    await waitForText(stepper(fresh.page).count, before.step, { what: 'the same step' });
    assert.deepEqual(await readLab(fresh.page), before);
    assert.equal(fresh.page.url(), url, 'the address is left as it was');
    assert.equal(await fresh.page.getByRole('status').filter({ hasText: /cannot be shown/ }).count(), 0);
    assertNoErrors(fresh.errors);
    await fresh.close();
  });

  it('Copy link copies the address of the state on show', async () => {
    const { page, errors, close } = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await open(page, lessonUrl(origin, 'lost-reply', 4));
    await page.getByRole('switch', { name: /Look the operation up before resubmitting/ }).click();
    await waitForText(() => page.url(), /#\/lesson\/lost-reply\/4\/[A-Za-z0-9_-]+$/, { what: 'the address with the change' });
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied to the clipboard.' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
    assert.equal(await page.getByRole('textbox', { name: 'Link to this state' }).inputValue(), page.url());
    assertNoErrors(errors);
    await close();
  });

  it('damaged and hostile links show a notice and the default, and run nothing', async () => {
    // A real scenario link, made by the app: the default scenario's page, one step on.
    const maker = await newPage(browser);
    await open(maker.page, `${origin}/#/scenario/x`);
    await stepper(maker.page).next.click();
    await waitForText(() => maker.page.url(), /#\/scenario\/[A-Za-z0-9_-]{20,}$/, { what: 'a scenario link' });
    const good = new URL(maker.page.url()).hash.slice('#/scenario/'.length);
    await maker.close();
    const bytes = Buffer.from(good, 'base64url');
    bytes[0] += 1;
    const wrongVersion = bytes.toString('base64url');

    const cases = [
      ['script tags', '#/scenario/<script>alert(1)</script>', /damaged or incomplete/],
      ['javascript:', '#/scenario/javascript:alert(document.cookie)', /damaged or incomplete/],
      ['markup in a lesson link', '#/lesson/lost-reply/3/"><img src=x onerror=alert(1)>', /damaged or incomplete/],
      ['a truncated link', `#/scenario/${good.slice(0, Math.floor(good.length / 2))}`, /damaged or incomplete/],
      ['an oversized link', `#/scenario/${'A'.repeat(20_000)}`, /too long/],
      ['the wrong version', `#/scenario/${wrongVersion}`, /another version of the lab/],
      ['an embed with script tags', '#/embed/<script>alert(1)</script>', /damaged or incomplete/],
    ];
    for (const [what, hash, reason] of cases) {
      const { page, errors, close } = await newPage(browser);
      const dialogs = watchDialogs(page);
      await open(page, `${origin}/${hash}`);
      const notice = page.getByRole('status').filter({ hasText: /cannot be shown/ });
      await notice.waitFor().catch(async (error) => {
        throw new Error(`${what}: no notice (${error.message.split('\n')[0]}); the page says: ${await page.getByRole('main').innerText()}`);
      });
      assert.match(await notice.textContent(), reason, what);
      // The default is shown, and it works.
      await waitForText(stepper(page).count, /^Step \d+ of \d+$/, { what: `the stepper (${what})` });
      await page.getByRole('table', { name: 'Records' }).waitFor();
      assert.equal(await page.locator('script', { hasText: 'alert' }).count(), 0, `no script from the link (${what})`);
      assert.equal(await page.locator('img[src="x"]').count(), 0, `no image from the link (${what})`);
      assert.deepEqual(dialogs, [], `no dialog (${what})`);
      assertNoErrors(errors, what);
      await close();
    }
  });
});
