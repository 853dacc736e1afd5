// Accessibility gates on every page of pages.js: axe-core finds no violation (all its rules,
// WCAG 2.x A and AA and best practices), and at a phone's 375 px nothing runs past the screen's
// width (no horizontal scrolling).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PAGES } from './pages.js';
import { assertNoErrors, axeViolations, newPage, useSite } from './support.js';

describe('accessibility (axe-core)', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  it('axe-core itself finds a violation that is there (an image without a name)', async () => {
    const { page, close } = await newPage(browser);
    await page.goto(`${origin}/#/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The app's main, not the prerendered map's, which the app removes as it mounts.
    await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.src = 'favicon.svg';
      document.querySelector('main').append(image);
    });
    const violations = await axeViolations(page);
    assert.ok(violations.some((line) => line.startsWith('image-alt')), `axe saw the unnamed image: ${violations.join('\n')}`);
    await close();
  });

  for (const { name, hash, reach } of PAGES) {
    it(`${name}: no axe-core violation`, async () => {
      const { page, errors, close } = await newPage(browser);
      await page.goto(`${origin}/${hash}`);
      await reach(page);
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], `${name}:\n${violations.join('\n')}`);
      assertNoErrors(errors, name);
      await close();
    });
  }
});

describe('no horizontal overflow at 375 px', () => {
  let origin;
  let browser;
  useSite((site) => ({ origin, browser } = site));

  for (const { name, hash, reach } of PAGES) {
    it(`${name} fits a 375 × 740 screen`, async () => {
      const { page, errors, close } = await newPage(browser);
      await page.setViewportSize({ width: 375, height: 740 });
      await page.goto(`${origin}/${hash}`);
      await reach(page);
      const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
        const root = document.documentElement;
        // What sticks out, for the message: the outermost elements whose right edge passes the screen.
        const wide = [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
          .filter((element) => !element.parentElement || element.parentElement.getBoundingClientRect().right <= root.clientWidth + 0.5)
          .slice(0, 8)
          .map((element) => `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} (right ${Math.round(element.getBoundingClientRect().right)})`);
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
      });
      assert.ok(scrollWidth <= clientWidth, `${name}: the page is ${scrollWidth} px wide on a ${clientWidth} px screen; past the edge: ${wide.join(', ')}`);
      assertNoErrors(errors, name);
      await close();
    });
  }
});
