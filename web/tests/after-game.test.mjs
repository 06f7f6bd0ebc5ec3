// What the game page says of a game's ending and start beyond the board
// (issue 35): a rated game's rating change beside each player once it is
// recorded, and an event's late arrival (Art. 22: the time late deducted
// twice) under the late player's clock — in English and in Chinese.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, signUp, startServer, wsCommands,
} from './harness.mjs';

describe('the game page after and before play', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {Record<string, import('playwright-core').Page>} */
  const players = {};
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    for (const [name, rank, locale] of [['dora', '3k', 'en-GB'], ['eve', '2k', 'zh-CN'], ['olga', '1d', 'en-GB']]) {
      players[name] = await newPage(await newPlayerContext(browser, { locale }), errors);
      await signUp(players[name], server.base, name, rank);
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  /** The rating change shown on `page`'s card of `color`, once there. */
  async function shownChange(page, color) {
    const change = page.locator(`[data-rating-change=${color}] .delta`);
    await change.waitFor({ timeout: 15_000 });
    return { text: (await change.innerText()).trim(), title: await page.locator(`[data-rating-change=${color}]`).getAttribute('title') };
  }

  it('shows each player’s rating change beside him once a rated game ends', async () => {
    const { dora, eve } = players;
    const challenge = await apiFrom(dora, 'POST', '/api/challenges', { size: 9, color: 'black', rated: true, opponent: 'eve' });
    assert.equal(challenge.status, 201, JSON.stringify(challenge));
    const game = await apiFrom(eve, 'POST', `/api/challenges/${challenge.body.id}/accept`, {});
    assert.equal(game.status, 201, JSON.stringify(game));
    const id = game.body.id;
    await dora.goto(`${server.base}/game/${id}`);
    await eve.goto(`${server.base}/game/${id}`);
    await dora.locator('[data-rating-change=black]').waitFor({ state: 'attached' });
    assert.equal(await dora.locator('[data-rating-change] .delta').count(), 0, 'no change before the end');

    const answers = [
      ...await wsCommands(dora, id, 1, [{ type: 'move', point: 'E5' }]),
      ...await wsCommands(eve, id, 1, [{ type: 'resign' }]),
    ];
    assert.deepEqual(answers.map((a) => a.type), ['ack', 'ack'], JSON.stringify(answers));

    // The ending is recorded, ratings and all, by a task of its own just
    // after the resignation is acknowledged.
    let recorded;
    for (const started = Date.now(); !recorded && Date.now() - started < 15_000;) {
      recorded = (await apiFrom(dora, 'GET', `/api/games/${id}`)).body.ratings;
      if (!recorded) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(recorded, 'the ratings recorded within 15 s');
    assert.ok(recorded.black.change > 0 && recorded.white.change < 0, JSON.stringify(recorded));
    const signed = (change) => `${change > 0 ? '+' : '−'}${Math.abs(change)}`;
    for (const [page, title] of [[dora, /^Rating \d+ → \d+$/], [eve, /^等级分 \d+ → \d+$/]]) {
      const black = await shownChange(page, 'black');
      const white = await shownChange(page, 'white');
      assert.equal(black.text, signed(recorded.black.change));
      assert.equal(white.text, signed(recorded.white.change));
      assert.match(black.title, title);
      assert.equal(black.title.split(' ').at(-1), String(Math.round(recorded.black.after)));
    }
    // A finished game opened afresh shows it too.
    await dora.reload();
    assert.equal((await shownChange(dora, 'white')).text, signed(recorded.white.change));
  });

  it('says under a late player’s clock how late he was and what it cost him', async () => {
    const { olga, dora, eve } = players;
    const made = await apiFrom(olga, 'POST', '/api/events', {
      name: 'Evening Swiss', system: { kind: 'swiss' }, rounds: 1, size: 9, ruleset: 'chinese', rated: false,
      time_control: '10 min + 3×30s byo-yomi',
    });
    assert.equal(made.status, 201, JSON.stringify(made));
    const event = `/api/events/${made.body.id}`;
    for (const name of ['dora', 'eve']) {
      const added = await apiFrom(olga, 'POST', `${event}/players`, { account: name });
      assert.ok(added.status < 300, JSON.stringify(added));
    }
    // Eve is nowhere on the site when the round starts (a page of it
    // would take her to her game at once).
    const eveSite = eve.url();
    await eve.goto('about:blank');
    const round = await apiFrom(olga, 'POST', `${event}/rounds`, {});
    assert.ok(round.status < 300, JSON.stringify(round));
    const id = (await apiFrom(dora, 'GET', event)).body.you.next_game.game;
    assert.ok(id, 'dora has a game');

    // Dora sits down at once; Eve comes more than two seconds late.
    await dora.goto(`${server.base}/game/${id}`);
    await dora.locator('.player-card').first().waitFor();
    await dora.waitForTimeout(2500);
    await eve.goto(eveSite);
    await eve.goto(`${server.base}/game/${id}`);

    // Her page's socket seats her a moment after it loads.
    let view;
    let eveColor;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await eve.waitForTimeout(200)) {
      view = (await apiFrom(eve, 'GET', `/api/games/${id}`)).body;
      eveColor = view.black.name === 'eve' ? 'black' : 'white';
      if (!view.state.seated) break;
    }
    const late = view.state.late?.[eveColor];
    assert.ok(late && late.late >= 2500, JSON.stringify(view.state));
    assert.equal(late.charged, 2 * late.late, 'the time late, deducted twice');
    const seconds = (ms) => `0:${String(Math.floor(ms / 1000)).padStart(2, '0')}`;
    const expected = {
      'en-GB': `Late ${seconds(late.late)}: ${seconds(late.charged)} taken from the clock (the time late, twice)`,
      'zh-CN': `迟到${seconds(late.late)}：按规则双倍扣时${seconds(late.charged)}`,
    };
    for (const [page, locale] of [[dora, 'en-GB'], [eve, 'zh-CN']]) {
      const note = page.locator(`[data-late=${eveColor}]`);
      await note.waitFor();
      assert.equal(await note.innerText(), expected[locale]);
    }
    // Dora came within the second: nothing to say of her.
    assert.equal(await dora.locator(`[data-late=${eveColor === 'black' ? 'white' : 'black'}]`).isVisible(), false);
  });
});
