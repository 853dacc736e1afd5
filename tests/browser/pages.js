// The pages the quality gates visit (csp, accessibility and overflow tests): one entry a page or
// state, each with the hash to open and `reach`, which brings the page to the state and waits
// until it is there. New pages (sandbox, retries, explorer result, embed) are one entry more.

import { courseTasks } from './board.js';
import { engineTraces, labText, lessonFile, stepOf, stepper, waitForText } from './support.js';

// Lesson 01's build task shows where its first design breaks one_effect; the course's first hunt
// at its part. Steps from the engine's own traces and the checker's tasks, never typed by hand.
const LOST_REPLY = engineTraces('lessons/01-lost-reply.toml');
const BUILD_STEP = LOST_REPLY[0].verdicts.find((verdict) => verdict.invariant === 'one_effect').broken_at + 1;
const HUNT = courseTasks().find((task) => task.task.hunt);
const HUNT_HASH = `#/lesson/${HUNT.lesson}/${stepOf(engineTraces(lessonFile(HUNT.lesson)), HUNT.design, HUNT.at)}`;
// A challenge made from lesson 03's build task, as the builder would share it.
const CHALLENGE = labText(['challenge', 'lessons/03-side-effect-keys.toml', '--title', 'Guard the notification']).trim();

/**
 * Waits for the app's "Step K of N" (not the prerendered page's, which shows the same text
 * before the app takes over and answers no key) and returns [K, N].
 */
async function stepNumbers(page) {
  await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
  const text = await waitForText(stepper(page).count, /^Step \d+ of \d+$/, { what: 'the step count' });
  return text.match(/\d+/g).map(Number);
}

/** The app's page with this heading (not the course map prerendered into index.html). */
async function heading(page, name) {
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-prerender]'));
}

export const PAGES = [
  {
    name: 'the course map',
    hash: '#/',
    reach: (page) => heading(page, 'Idempotency Lab'),
  },
  {
    name: 'a lesson at its first step',
    hash: '#/lesson/lost-reply/1',
    reach: async (page) => {
      const [step] = await stepNumbers(page);
      if (step !== 1) throw new Error(`the lesson opened at step ${step}, not 1`);
    },
  },
  {
    name: 'a lesson at its last step',
    hash: '#/lesson/lost-reply/1',
    reach: async (page) => {
      await stepNumbers(page);
      await page.keyboard.press('End');
      await waitForText(stepper(page).count, /^Step (\d+) of \1$/, { what: 'the last step' });
    },
  },
  {
    name: 'presenter mode',
    hash: '#/lesson/lost-reply/9',
    reach: async (page) => {
      await stepNumbers(page);
      const toggle = page.getByRole('button', { name: 'Presenter mode' });
      await toggle.click();
      await waitForText(() => toggle.getAttribute('aria-pressed'), 'true', { what: 'presenter mode' });
    },
  },
  {
    name: 'a prediction that Next waits for',
    hash: '#/lesson/lost-reply/1',
    reach: async (page) => {
      await stepNumbers(page);
      await page.keyboard.press('ArrowRight');
      await page.getByRole('button', { name: 'Skip the prediction' }).waitFor();
    },
  },
  {
    name: 'a "find the line" task, its lines as buttons',
    hash: '#/lesson/review/1',
    reach: async (page) => {
      await stepNumbers(page);
      const line = page.getByRole('region', { name: 'Code' }).getByRole('button', { name: /^Line 3: / });
      await line.click();
      await page.getByRole('group', { name: 'Try it' }).getByRole('status').waitFor();
    },
  },
  {
    name: "a build task's board",
    hash: `#/lesson/lost-reply/${BUILD_STEP}`,
    reach: async (page) => {
      await stepNumbers(page);
      await page.getByRole('group', { name: 'Try it' }).getByRole('button', { name: 'Check my design' }).waitFor();
    },
  },
  {
    name: 'a hunt, after a placement that holds',
    hash: HUNT_HASH,
    reach: async (page) => {
      await stepNumbers(page);
      const task = page.getByRole('group', { name: 'Try it' });
      await task.getByRole('button', { name: 'Strike here' }).click();
      await task.getByRole('status').filter({ hasText: /^(It holds|Found it)/ }).waitFor();
    },
  },
  {
    name: 'the compare view',
    hash: '#/lesson/naive-retry/6',
    reach: async (page) => {
      await stepNumbers(page);
      await page.getByRole('button', { name: 'Compare designs side by side' }).click();
      await page.getByRole('region', { name: 'Designs side by side' }).getByRole('table').first().waitFor();
    },
  },
  {
    name: 'the engine page',
    hash: '#/engine',
    reach: (page) => heading(page, 'Engine performance'),
  },
  {
    name: "the explorer's findings",
    hash: '#/lesson/lost-reply/3',
    reach: async (page) => {
      await stepNumbers(page);
      await page.getByRole('button', { name: 'What could go wrong?', exact: true }).click();
      await page.getByRole('region', { name: 'What the explorer found' })
        .getByRole('list', { name: 'Every invariant, over every schedule' }).waitFor({ timeout: 60_000 });
    },
  },
  {
    name: 'an embedded lesson',
    hash: '#/embed/lesson/lost-reply/3',
    reach: (page) => page.getByRole('region', { name: 'Lab' }).waitFor(),
  },
  {
    name: 'the retry policies page',
    hash: '#/retries',
    reach: async (page) => {
      await heading(page, 'Retry policies');
      await page.getByRole('table').first().waitFor();
    },
  },
  {
    name: 'the sandbox',
    hash: '#/sandbox',
    reach: async (page) => {
      await heading(page, 'Sandbox');
      await stepNumbers(page);
    },
  },
  {
    name: 'the challenge builder',
    hash: '#/make-challenge',
    reach: async (page) => {
      await heading(page, 'Make a challenge');
      await page.getByRole('region', { name: 'The answer' }).getByRole('button', { name: /^Line 1 of / }).waitFor();
    },
  },
  {
    name: 'an opened challenge',
    hash: CHALLENGE,
    reach: async (page) => {
      await heading(page, 'Guard the notification');
      await page.getByRole('group', { name: 'The board' }).getByRole('button', { name: 'Check my design' }).waitFor();
    },
  },
  {
    name: 'the 404 page',
    hash: '#/no-such-page',
    reach: (page) => heading(page, 'Page not found'),
  },
];
