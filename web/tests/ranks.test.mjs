// Ranks like Fox and OGS (issue 18): a settled player's rank moves only
// after the run the README states — three rated games in a row with the
// rating past it — and the header shows the new rank when it moves. The
// player's settled state is written into the server's SQLite database
// (with the sqlite3 tool) so that the run is reached in three games.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, signUp, startServer, stoneAt } from './harness.mjs';

/** The sqlite3 tool, or null (the test is then skipped). */
function sqlite3() {
  try {
    execFileSync('sqlite3', ['-version']);
    return 'sqlite3';
  } catch {
    return null;
  }
}

/** OGS's rating of the middle of a rank level (as crates/shoutan-server/src/rating.rs). */
const ratingOfLevel = (level) => 525 * Math.exp((level + 30) / 23.15);

const options = sqlite3() ? needsChromium() : { skip: 'no sqlite3 tool' };

describe('the rank moves only after the stated run', options, () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let alice;
  /** @type {import('playwright-core').Page} */
  let bob;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    alice = await newPage(await newPlayerContext(browser), errors);
    bob = await newPage(await newPlayerContext(browser), errors);
    await signUp(alice, server.base, 'alice', '1d');
    await signUp(bob, server.base, 'bob', '3d');
    // Alice has settled at 1 dan with her rating already at 2 dan; bob is a settled 3 dan.
    execFileSync('sqlite3', [join(server.data, 'shoutan.db'),
      `UPDATE users SET rating = ${ratingOfLevel(1)}, deviation = 60, shown_rank = '1d', rank_streak = 0 WHERE name = 'alice';
       UPDATE users SET rating = ${ratingOfLevel(2)}, deviation = 60, shown_rank = '3d' WHERE name = 'bob';`]);
    await alice.reload();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  /** A rated game that alice (black) wins when bob resigns in his browser. */
  async function aliceWins() {
    const request = (body) => ({ method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Shoutan-Request': '1' }, body: JSON.stringify(body) });
    const challenge = await alice.evaluate((r) => fetch('/api/challenges', r).then((x) => x.json()),
      request({ size: 9, color: 'black', rated: true, opponent: 'bob' }));
    const game = await bob.evaluate(([id, r]) => fetch(`/api/challenges/${id}/accept`, r).then((x) => x.json()), [challenge.id, request({})]);
    for (const p of [alice, bob]) await p.goto(`${server.base}/game/${game.id}`);
    await clickPoint(alice, 'E5');
    await stoneAt(bob, 'E5', 'black');
    await clickPoint(bob, 'C3');
    await stoneAt(alice, 'C3', 'white');
    await bob.click('[data-action=resign]');
    await bob.click('[data-action=resign-yes]');
    await alice.locator('.result-banner [data-notation=international]', { hasText: 'B+R' }).waitFor();
  }

  it('shows 1d through two wins, then 2d in the header after the third', async () => {
    await alice.locator('[data-role=my-rank]', { hasText: /^1d$/ }).waitFor();
    for (const n of [1, 2]) {
      await aliceWins();
      await alice.goto(`${server.base}/player/alice`);
      await alice.locator('[data-role=run]', { hasText: `${n} of 3` }).waitFor();
      assert.equal(await alice.locator('[data-stat=rank] .stat-value').innerText(), '1d', `after win ${n}`);
      assert.equal(await alice.locator('[data-role=my-rank]').innerText(), '1d');
    }
    await aliceWins();
    // The header follows without a reload.
    await alice.locator('[data-role=my-rank]', { hasText: /^2d$/ }).waitFor({ timeout: 10_000 });
    await alice.goto(`${server.base}/player/alice`);
    assert.equal(await alice.locator('[data-stat=rank] .stat-value').innerText(), '2d');
    assert.equal(await alice.locator('[data-role=run]').count(), 0, 'the run starts again');
    assert.equal(await alice.locator('[data-role=rating-history] circle').count(), 4, 'the chart: before and after each game');
    assert.match(await alice.locator('[data-role=rank-rule]').innerText(), /3 rated games in a row/);
  });
});
