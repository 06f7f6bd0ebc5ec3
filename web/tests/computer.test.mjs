// A game against the computer from the lobby: a player logs in, picks
// level 1 and 9×9 on the "Play the computer" card (each level named by
// the computer's account and its rank, as GET /api/computer gives them),
// lands on the board, plays a move and sees the computer answer on the
// board and in the move list, resigns and sees the result. The card shows
// the server's refusal (three games against the computer at once) in the
// player's language.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

/** Points tried in turn for the player's move: the first empty one is played. */
const CANDIDATES = ['E5', 'C3', 'G7', 'C7', 'G3', 'E3', 'E7', 'C5', 'G5'];

describe('playing the computer from the lobby', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  let you;
  let computerColor;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // Tall enough that the screenshot holds the whole lobby, the computer card included.
    page = await newPage(await newPlayerContext(browser, { viewport: { width: 1360, height: 1300 } }), errors);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in the page');
  });

  /** How many moves the move list shows. */
  const movesShown = () => page.locator('[data-role=moves] li[data-move]:not([data-move="0"])').count();

  it('offers the ten levels by the computer accounts and their measured ranks', async () => {
    await signUp(page, server.base, 'erin', '10k');
    const levels = await (await fetch(`${server.base}/api/computer`)).json();
    assert.equal(levels.length, 10);
    const card = page.locator('[data-role=computer]');
    await card.locator('h2', { hasText: 'Play the computer' }).waitFor();
    const select = card.locator('select[name=level]:not([disabled])');
    await select.waitFor();
    const options = await select.locator('option').allInnerTexts();
    assert.deepEqual(options, levels.map((l) => `Level ${l.level} · ${l.player.name} · ${l.ranks.map((r) => `${r.size}×${r.size} ${r.rank}`).join(', ')}`));
    assert.match(options[9], /^Level 10 · Shoutan-AI-10 · 9×9 \d+[kd], 19×19 \d+[kd]$/, 'level 10 was measured on both boards');
    assert.equal(await select.inputValue(), '1');
    await screenshot(page, 'lobby-computer');
  });

  it('starts a 9×9 game at level 1 and goes to the board', async () => {
    const card = page.locator('[data-role=computer]');
    await card.locator('select[name=level]').selectOption('1');
    await card.locator('[data-name=computer-size] [data-value="9"]').click();
    await card.locator('select[name=computer-time]').selectOption('10+5×30s');
    // Casual unless the player ticks "Rated".
    assert.equal(await card.locator('input[name=computer-rated]').isChecked(), false);
    await card.locator('[data-action=play-computer]').click();
    await page.waitForURL(/\/game\/\d+$/);
    await page.locator('.meta-rules', { hasText: 'Casual' }).waitFor();
    you = await seatOf(page);
    assert.ok(you === 'black' || you === 'white', `a seat, not ${you}`);
    computerColor = you === 'black' ? 'white' : 'black';
    await page.locator('.goban [data-point="J9"]').waitFor();
    assert.equal(await page.locator('.goban [data-point="K10"]').count(), 0, 'the board is 9×9');
    await page.locator(`[data-player=${computerColor}] .player-name`, { hasText: 'Shoutan-AI-1' }).first().waitFor();
  });

  it('plays a move and sees the computer answer on the board and in the move list', async () => {
    await page.locator('[data-tab=moves]').click();
    // With white the computer moves first.
    if (you === 'white') await page.locator('[data-role=moves] li[data-move="1"]').waitFor();
    const before = await movesShown();
    const computerStones = await page.locator(`.goban .stones [data-stone].${computerColor}:not(.tentative)`).count();
    let point = null;
    for (const p of CANDIDATES) {
      if (await page.locator(`.goban .stones [data-stone="${p}"]`).count() === 0) {
        point = p;
        break;
      }
    }
    assert.ok(point, 'an empty point to play');
    await clickPoint(page, point);
    await stoneAt(page, point, you);
    const answer = page.locator(`[data-role=moves] li[data-move="${before + 2}"]`);
    await answer.waitFor({ timeout: 30_000 });
    assert.equal(await movesShown(), before + 2);
    const answered = (await answer.innerText()).match(/[A-HJ]\d/)?.[0];
    assert.ok(answered, `the computer played a point: ${await answer.innerText()}`);
    await stoneAt(page, answered, computerColor);
    assert.equal(await page.locator(`.goban .stones [data-stone].${computerColor}:not(.tentative)`).count(), computerStones + 1);
  });

  it('resigns and sees the computer win', async () => {
    await page.click('[data-action=resign]');
    await page.click('[data-action=resign-yes]');
    const banner = page.locator('.result-banner');
    await banner.waitFor();
    assert.equal(await banner.locator('[data-notation=international]').innerText(), `${computerColor === 'black' ? 'B' : 'W'}+R`);
    assert.equal(await banner.locator('[data-notation=chinese]').innerText(), `${computerColor === 'black' ? '黑' : '白'}中盘胜`);
  });

  it('starts one with every setting from the create form in its computer mode', async () => {
    await page.goto(`${server.base}/`);
    const card = page.locator('[data-role=computer]');
    await card.locator('select[name=level]:not([disabled])').selectOption('2');
    await card.locator('[data-action=computer-settings]').click();
    const form = page.locator('dialog[open] form');
    await page.locator('dialog[open] h2', { hasText: 'Play the computer' }).waitFor();
    assert.equal(await form.locator('select[name=level]').inputValue(), '2');
    assert.equal(await form.locator('[data-name=opponent]').count(), 0, 'no opponent to name');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('[data-name=color] [data-value=black]').click();
    await form.locator('[data-name=system] [data-value=none]').click();
    await form.locator('button[type=submit]').click();
    await page.waitForURL(/\/game\/\d+$/);
    assert.equal(await seatOf(page), 'black');
    await page.locator('[data-player=white] .player-name', { hasText: 'Shoutan-AI-2' }).waitFor();
  });

  it('shows the server refusing a fourth game against the computer, in the player\u2019s words', async () => {
    // One game is going (the form's): two more make three.
    for (let i = 0; i < 2; i += 1) {
      const res = await page.request.post(`${server.base}/api/computer/games`, {
        headers: { 'X-Shoutan-Request': '1' }, data: { level: 1, size: 9 },
      });
      assert.equal(res.status(), 201, await res.text());
    }
    await page.goto(`${server.base}/`);
    const card = page.locator('[data-role=computer]');
    await card.locator('select[name=level]:not([disabled])').waitFor();
    await card.locator('[data-action=play-computer]').click();
    await card.locator('.form-error', { hasText: 'You have 3 games against the computer going: finish one first.' }).waitFor();
    assert.match(page.url(), /\/$/, 'still in the lobby');
  });
});
