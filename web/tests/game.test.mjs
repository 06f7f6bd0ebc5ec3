// A whole game in real browsers, as players and a spectator live it
// (issue #6, "How it is proved"): two players sign up, one posts a 9×9
// byo-yomi challenge with the form and the other accepts it from the
// lobby; they play — a takeback, a capture, an illegal attempt refused with
// the rule’s reason, a reload, a network drop — while a spectator on a
// phone watches live (and goes offline a while); both pass (Art. 7), a
// dead group is marked by a click (Art. 8), both accept, and all three
// see the result in both notations (spec §5); the SGF download replays
// to that result.
//
// The final position (black: alice, white: bob), Chinese rules, komi 7.5:
//
//     A B C D E F G H J
//   9 . . . X O . . . .
//   8 . . X X O O . . .     C8, F8: played while the spectator was offline
//   7 . O . X O . . . .     O at B7: dead, inside black's area
//   6 . . . X O . . . .
//   5 . . X X O . . . .
//   4 . . . X O . . . .
//   3 . . . X O . . . .
//   2 X . . X O . . . .
//   1 . X . X O . . . .     A1: white's stone, captured by B1
//
// Black's area is columns A–D: 36 子; white's is E–J: 45 子. Black needs
// more than 40½ + 3¾ = 44¼ 子, so white wins by 8¼ 子 = 16.5 points:
// 白胜8又1/4子, W+16.5.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import {
  BIN, clickPoint, emptyAt, launchBrowser, needsChromium, newPage, newPlayerContext,
  screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

const run = promisify(execFile);

describe('a 9×9 byo-yomi game from challenge to result', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let alice;
  /** @type {import('playwright-core').Page} */
  let bob;
  /** @type {import('playwright-core').Page} */
  let watcher;
  /** @type {import('playwright-core').BrowserContext} */
  let watcherContext;
  let gameUrl;
  const errors = [];
  /** Bob's network: while down, his WebSockets are cut and refused. */
  const bobNet = { down: false, sockets: [] };

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    alice = await newPage(await newPlayerContext(browser), errors);
    const bobContext = await newPlayerContext(browser);
    bob = await newPage(bobContext, errors);
    await bob.routeWebSocket(/\/ws/, (ws) => {
      if (bobNet.down) {
        ws.close({ code: 4000, reason: 'network down' });
        return;
      }
      const upstream = ws.connectToServer();
      bobNet.sockets.push({ ws, upstream });
    });
    watcherContext = await newPlayerContext(browser, {
      viewport: { width: 390, height: 844 }, mobile: true, locale: 'zh-CN',
    });
    watcher = await newPage(watcherContext, errors);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  /** Plays `point` on `page` and waits until every board shows the stone. */
  async function play(page, point, color) {
    await clickPoint(page, point);
    for (const p of [alice, bob, watcher]) await stoneAt(p, point, color);
  }

  it('signs both players up and shows the challenge live in the other lobby', async () => {
    await signUp(alice, server.base, 'alice', '3k');
    await signUp(bob, server.base, 'bob', '3k');
    await bob.locator('[data-role=challenges] .empty').waitFor();

    await alice.click('[data-action=create]');
    const form = alice.locator('dialog[open] form');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('[data-name=color] [data-value=black]').click();
    await form.locator('[data-name=system] [data-value=byo_yomi]').click();
    await form.locator('input[name=main]').fill('10');
    await form.locator('input[name=periods]').fill('3');
    await form.locator('input[name=period]').fill('30');
    await form.locator('button[type=submit]').click();
    await alice.locator('dialog[open]').waitFor({ state: 'detached' });

    const row = bob.locator('[data-challenger=alice]');
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /9×9/);
    assert.match(text, /10m\+3×30s/);
    assert.match(text, /Byo-yomi/);
    assert.match(text, /Chinese \(2002\)/);
    await screenshot(bob, 'lobby');
  });

  it('starts the game for both when bob accepts', async () => {
    await bob.locator('[data-challenger=alice] [data-accept]').click();
    await bob.waitForURL(/\/game\/\d+$/);
    gameUrl = bob.url();
    // Alice's lobby hears that her challenge became a game and follows.
    await alice.waitForURL(gameUrl);
    assert.equal(await seatOf(alice), 'black');
    assert.equal(await seatOf(bob), 'white');
    await alice.locator('.status-line.your-turn').waitFor();
    // Byo-yomi clocks: 10 minutes of main time, then 3 periods of 30 s.
    assert.match(await alice.locator('.clock[data-color=white] .clock-detail').innerText(), /3×30s/);
    assert.match(await alice.locator('[data-clock=white]').innerText(), /^(10:00|9:5\d)$/);
  });

  it('lets an anonymous spectator on a phone follow from the live list, in Chinese', async () => {
    await watcher.goto(`${server.base}/`);
    await watcher.locator('[data-tab=live]').click();
    await watcher.locator('[data-role=live-games] [data-game]').first().click();
    await watcher.waitForURL(gameUrl);
    assert.equal(await seatOf(watcher), 'spectator');
    await watcher.locator('.tab[data-tab=moves]', { hasText: '棋谱' }).waitFor();
    assert.equal(await watcher.locator('[data-seat=alice] .rank').first().innerText(), '3级', 'a Chinese page writes 3k as 3级');
    assert.equal(await alice.locator('[data-seat=alice] .rank').first().innerText(), '3k');
    await alice.locator('.spectator-count[data-spectators="1"]').waitFor();
    assert.match(await alice.locator('.spectator-count').innerText(), /1 watching/);
  });

  it('plays moves seen live everywhere, with a takeback granted', async () => {
    await play(alice, 'D5', 'black');
    await play(bob, 'E5', 'white');
    await play(alice, 'D4', 'black');
    await play(bob, 'E4', 'white');
    await play(alice, 'D6', 'black');
    // Black asks to take D6 back; white grants it.
    await alice.click('[data-action=takeback]');
    await bob.locator('[data-offer=takeback] [data-answer=accept]').click();
    for (const p of [alice, bob, watcher]) await emptyAt(p, 'D6');
    await alice.locator('.status-line.your-turn').waitFor();
    await play(alice, 'D6', 'black');
    await play(bob, 'E6', 'white');
    await play(alice, 'D3', 'black');
    await play(bob, 'E3', 'white');
    // The move list numbers the turns and marks the last one.
    await alice.locator('.move-item.current[data-move="8"]').waitFor();
    assert.equal(await alice.locator('.goban .marks [data-last="E3"]').count(), 1);
    await screenshot(alice, 'game-in-progress');
    await screenshot(watcher, 'game-in-progress-phone');
  });

  it('lets a player look back while the game goes on', async () => {
    await bob.keyboard.press('ArrowLeft');
    await bob.keyboard.press('ArrowLeft');
    await bob.locator('.nav-banner', { hasText: 'Move 6 of 8' }).waitFor();
    assert.equal(await bob.locator('.goban .stones .stone').count(), 6);
    // A move comes in: bob stays where he looks, the count follows.
    await clickPoint(alice, 'D7');
    await bob.locator('.nav-banner', { hasText: 'Move 6 of 9' }).waitFor();
    assert.equal(await bob.locator('.goban .stones .stone').count(), 6);
    await bob.locator('.move-item[data-move="9"] button').click();
    await stoneAt(bob, 'D7', 'black');
    await bob.locator('.nav-banner').waitFor({ state: 'hidden' });
    await play(bob, 'E7', 'white');
  });

  it('resumes the game after a reload', async () => {
    await alice.reload();
    await stoneAt(alice, 'E7', 'white');
    assert.equal(await alice.locator('.goban .stones .stone').count(), 10);
    await alice.locator('.status-line.your-turn').waitFor();
    assert.match(await alice.locator('[data-clock=black]').innerText(), /^9:\d\d$/);
  });

  it('reconnects after a network drop and catches up', async () => {
    bobNet.down = true;
    for (const { ws } of bobNet.sockets.splice(0)) await ws.close({ code: 4000, reason: 'network down' });
    await bob.locator('.offline-banner').waitFor();
    await clickPoint(alice, 'D2');
    await stoneAt(alice, 'D2', 'black');
    bobNet.down = false;
    // Back online, bob's page reconnects by itself and shows what he missed.
    await stoneAt(bob, 'D2', 'black');
    await bob.locator('.offline-banner').waitFor({ state: 'hidden' });
    await play(bob, 'E2', 'white');
  });

  it('tells a spectator whose phone goes offline, and catches up when it is back', async () => {
    await watcherContext.setOffline(true);
    await watcher.locator('.offline-banner').waitFor();
    assert.match(await watcher.locator('.offline-banner').innerText(), /连接中断/);
    await clickPoint(alice, 'C8');
    await stoneAt(alice, 'C8', 'black');
    await clickPoint(bob, 'F8');
    await stoneAt(bob, 'F8', 'white');
    assert.equal(await watcher.locator('.goban .stones [data-stone=C8]').count(), 0, 'nothing arrives while offline');
    await watcherContext.setOffline(false);
    await stoneAt(watcher, 'C8', 'black');
    await stoneAt(watcher, 'F8', 'white');
    await watcher.locator('.offline-banner').waitFor({ state: 'hidden' });
  });

  it('carries the players’ chat to everyone; a declined draw offer is answered', async () => {
    await alice.locator('[data-tab=chat]').click();
    await alice.locator('input[name=chat]').fill('Good luck! 祝好运');
    await alice.locator('.chat-form button[type=submit]').click();
    await bob.locator('[data-tab=chat]').click();
    await bob.locator('.chat-line', { hasText: 'Good luck! 祝好运' }).waitFor();
    await watcher.locator('[data-tab=chat]').click();
    await watcher.locator('.chat-line', { hasText: 'alice' }).waitFor();
    assert.ok(await watcher.locator('input[name=chat]').isDisabled(), 'an anonymous spectator cannot chat');

    await bob.click('[data-action=draw]');
    await alice.locator('[data-offer=draw] [data-answer=decline]').click();
    await bob.locator('.toast', { hasText: 'Black declined' }).waitFor();
    await alice.locator('[data-offer=draw]').waitFor({ state: 'detached' });
    for (const p of [alice, bob]) await p.locator('[data-tab=moves]').click();
  });

  it('captures, and refuses illegal moves with the rule broken', async () => {
    for (const [black, white] of [['D8', 'E8'], ['D1', 'E1'], ['D9', 'E9'], ['C5', 'A1'], ['A2', 'B7']]) {
      await play(alice, black, 'black');
      await play(bob, white, 'white');
    }
    // B1 takes the white stone at A1 (spec §2).
    await play(alice, 'B1', 'black');
    for (const p of [alice, bob, watcher]) await emptyAt(p, 'A1');
    await alice.locator('[data-captures=black]', { hasText: /\b1\b/ }).waitFor();
    // A1 again would be suicide (禁着点); B1 is occupied.
    await clickPoint(bob, 'A1');
    await bob.locator('[data-role=notice][data-code=suicide]').waitFor();
    assert.match(await bob.locator('[data-role=notice]').innerText(), /Suicide is not allowed/);
    await clickPoint(bob, 'B1');
    await bob.locator('[data-role=notice][data-code=occupied]').waitFor();
    await emptyAt(bob, 'A1');
  });

  it('counts after two passes: a click marks the dead group, both accept, all see one result', async () => {
    // Each pass is asked once more (the default setting).
    await bob.click('[data-action=pass]');
    await bob.click('[data-action=pass-yes]');
    await alice.locator('[data-action=pass]:not([disabled])').click();
    await alice.click('[data-action=pass-yes]');
    for (const p of [alice, bob, watcher]) await p.locator('[data-role=count]').waitFor();

    // The server's proposal comes a moment after counting opens (a
    // `counting` event in the log); a mark read before it reaches a page
    // could change under the test, so every page shows it first.
    const events = `/api/games/${new URL(gameUrl).pathname.split('/').pop()}/events`;
    let proposal;
    for (let i = 0; i < 200 && !proposal; i++) {
      const log = await alice.evaluate(async (url) => (await fetch(url)).json(), events);
      proposal = log.find((e) => e.event.type === 'counting');
      if (!proposal) await alice.waitForTimeout(100);
    }
    assert.ok(proposal, 'the server proposes the dead stones');
    // Whatever the server proposed, each click turns B7's mark over for everybody.
    const before = proposal.event.dead.includes('B7');
    for (const p of [alice, bob, watcher]) {
      await p.locator(`.goban .stones [data-stone=B7]${before ? '.dead' : ':not(.dead)'}`).waitFor();
    }
    await clickPoint(bob, 'B7');
    for (const p of [alice, bob, watcher]) {
      await p.locator(`.goban .stones [data-stone=B7]${before ? ':not(.dead)' : '.dead'}`).waitFor();
    }
    if (before) {
      await clickPoint(alice, 'B7');
      for (const p of [alice, bob, watcher]) await p.locator('.goban .stones [data-stone=B7].dead').waitFor();
    }
    // The shading gives B7's point and A1 to black, the right side to white.
    await alice.locator('.goban .territory [data-at=B7][data-owner=black]').waitFor();
    await alice.locator('.goban .territory [data-at=A1][data-owner=black]').waitFor();
    await alice.locator('.goban .territory [data-at=J5][data-owner=white]').waitFor();
    // Both sides in 子 and points: black 36 子, white 45 子 + 7.5 komi = 52.5.
    assert.equal(await alice.locator('[data-zi=black]').innerText(), '36子');
    assert.equal(await alice.locator('[data-zi=white]').innerText(), '45子');
    assert.equal(await alice.locator('[data-points=black]').innerText(), '36');
    assert.equal(await alice.locator('[data-points=white]').innerText(), '52.5');
    await alice.locator('[data-count-result=international]', { hasText: 'W+16.5' }).waitFor();
    await screenshot(alice, 'counting');

    await alice.click('[data-action=accept-count]');
    await bob.locator('[data-accepted=black].yes').waitFor();
    await bob.click('[data-action=accept-count]');
    const results = [];
    for (const p of [alice, bob, watcher]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor();
      results.push([
        await banner.locator('[data-notation=chinese]').innerText(),
        await banner.locator('[data-notation=international]').innerText(),
      ]);
    }
    for (const r of results) assert.deepEqual(r, ['白胜8又1/4子', 'W+16.5']);
    await screenshot(alice, 'result');
  });

  it('offers the SGF, which replays to the same result', async () => {
    const [download] = await Promise.all([
      alice.waitForEvent('download'),
      alice.locator('.result-banner [data-sgf]').click(),
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'shoutan-sgf-'));
    try {
      const file = join(dir, 'game.sgf');
      await download.saveAs(file);
      const sgf = await readFile(file, 'utf8');
      assert.match(sgf, /PB\[alice\]/);
      assert.match(sgf, /PW\[bob\]/);
      assert.match(sgf, /SZ\[9\]/);
      assert.match(sgf, /RE\[W\+16\.5\]/);
      // The record replays move by move to the final position …
      const replayed = (await run(BIN, ['replay', file])).stdout;
      assert.match(replayed, /27 moves/, replayed);
      assert.match(replayed, /Result: W\+16\.5/, replayed);
      // … whose count gives the result played out in the browsers.
      const scored = JSON.parse((await run(BIN, ['score', '--json', file])).stdout);
      assert.equal(scored.result.international, 'W+16.5', JSON.stringify(scored));
      assert.equal(scored.result.chinese, '白胜8又1/4子', JSON.stringify(scored));
      assert.deepEqual(scored.dead, ['B7']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reviews the finished game move by move with the keyboard', async () => {
    await alice.reload();
    await alice.locator('.result-banner').waitFor();
    await alice.keyboard.press('Home');
    await alice.locator('.move-item.current[data-move="0"]').waitFor();
    assert.equal(await alice.locator('.goban .stones .stone').count(), 0);
    await alice.keyboard.press('ArrowRight');
    await alice.keyboard.press('ArrowRight');
    await alice.keyboard.press('ArrowRight');
    await stoneAt(alice, 'D4', 'black');
    assert.equal(await alice.locator('.goban .stones .stone').count(), 3);
    await alice.locator('.nav-banner', { hasText: 'Move 3 of' }).waitFor();
    await alice.keyboard.press('End');
    await alice.locator('.nav-banner').waitFor({ state: 'hidden' });
    // A1 was captured: it is on the board only before B1.
    await emptyAt(alice, 'A1');
  });

  it('shows how the game ended after a reload and a server restart: dead marks, territory, count', async () => {
    /**
     * What a page shows of the finished count; `first`: the notation its
     * language shows first (international in English, 子 in Chinese).
     */
    const ending = async (p, first) => {
      await p.locator('.result-banner [data-notation=international]', { hasText: 'W+16.5' }).waitFor();
      assert.equal(await p.locator('.result-banner .result-main').getAttribute('data-notation'), first);
      assert.equal(await p.locator('.result-banner .result-alt').count(), 1);
      const columns = await p.locator('.count-table thead th').evaluateAll((ths) => ths.map((th) => th.className).filter(Boolean));
      assert.deepEqual(columns, first === 'chinese' ? ['zi', 'pts alt'] : ['pts', 'zi alt']);
      await p.locator('.goban .stones [data-stone=B7].dead').waitFor();
      await p.locator('.goban .territory [data-at=B7][data-owner=black]').waitFor();
      await p.locator('.goban .territory [data-at=J5][data-owner=white]').waitFor();
      await p.locator('[data-role=count]').waitFor();
      assert.equal(await p.locator('[data-zi=black]').innerText(), '36子');
      assert.equal(await p.locator('[data-points=white]').innerText(), '52.5');
      assert.equal(await p.locator('.goban .stones .stone.dead').count(), 1, 'only B7 is dead');
    };
    await alice.reload();
    await ending(alice, 'international');
    const before = errors.length;
    await server.restart();
    await watcher.goto(gameUrl);
    await ending(watcher, 'chinese');
    await alice.reload();
    await ending(alice, 'international');
    // The pages' sockets were refused while the server was down: expected here.
    const rest = errors.splice(before).filter((e) => !/ERR_CONNECTION_REFUSED/.test(e));
    errors.push(...rest);
    await screenshot(alice, 'finished-reloaded');
  });
});
