// Figures for challenges (run by `make bench-site` after the build): a challenge link's length,
// and the time from opening it in a fresh browser to a working board (the page loads, the second
// module holds the challenge to its promises, the board shows), for two challenges of different
// sizes: lesson 03's tracker task (one operation, two runs, 6 lines) and the capstone's (a
// webhook with its recovery, 36 lines). Figures, not a timed test: it prints and exits 0.

import { labText, launchBrowser, newPage, startServer, stopServer } from './support.js';

const ROUNDS = 5;

const CHALLENGES = [
  { name: 'lesson 03 (tracker)', file: 'lessons/03-side-effect-keys.toml' },
  { name: 'lesson 18 (capstone)', file: 'lessons/18-capstone.toml' },
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const { server, origin } = await startServer();
const browser = await launchBrowser();
try {
  console.log('challenges: link length, and opening a link to a working board (fresh browser each time)');
  const rows = [];
  for (const { name, file } of CHALLENGES) {
    const hash = labText(['challenge', file, '--title', 'A challenge']).trim();
    const link = `${origin}/${hash}`;
    const times = [];
    let lines = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const { page, close } = await newPage(browser);
      await page.goto(link);
      const board = page.getByRole('group', { name: 'The board' });
      await board.getByRole('button', { name: 'Check my design' }).waitFor({ timeout: 60_000 });
      times.push(await page.evaluate(() => performance.now()));
      lines = await board.getByRole('button', { name: /^Line \d+ of \d+: / }).count();
      await close();
    }
    rows.push({ name, chars: hash.length, lines, median: median(times), times });
  }
  for (const row of rows) {
    console.log(`  ${row.name}: link ${row.chars} characters after the origin (#/challenge/…), ${row.lines} lines on the board at the start; open to a working board median ${Math.round(row.median)} ms (${row.times.map(Math.round).join(' / ')})`);
  }
  const [small, large] = rows;
  console.log(`  growth: ${(large.chars / small.chars).toFixed(2)}x the link, ${(large.median / small.median).toFixed(2)}x the time to a working board`);
} finally {
  await browser.close();
  await stopServer(server);
}
