// The timekeeper's calls (docs/spec/time.md, Art. 12.3) heard and seen in the
// browser, in the chosen language, down to the last period's count and the
// loss on time; sound and voice switched off; "how much time is left"
// (Art. 16.2); a resignation; the settings kept in the browser; logging in
// and out; the player search and the profile with the finished game; a
// free handicap.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

describe('byo-yomi calls, resignation, settings, search and profile', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let carol;
  /** @type {import('playwright-core').Page} */
  let dave;
  const errors = [];
  /** The byo-yomi calls the server sent to carol's page. */
  const callFrames = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    carol = await newPage(await newPlayerContext(browser), errors);
    dave = await newPage(await newPlayerContext(browser), errors);
    carol.on('websocket', (ws) => {
      if (!/\/api\/games\/\d+\/ws/.test(ws.url())) return;
      ws.on('framereceived', ({ payload }) => {
        const frame = JSON.parse(String(payload));
        if (frame.type === 'call') callFrames.push(frame);
      });
    });
  });

  /** What the page's speech synthesis was given, and how many sounds it started. */
  const spoken = (p) => p.evaluate(() => window.__spoken);
  const sounds = (p) => p.evaluate(() => window.__sounds);

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('has every word of the interface in both languages', async () => {
    await carol.goto(`${server.base}/`);
    const sources = await carol.evaluate(async () => {
      const { sources: all } = await import('/js/i18n.js');
      return Object.fromEntries(Object.entries(all).map(([name, words]) => [name, { en: Object.keys(words.en), zh: Object.keys(words.zh) }]));
    });
    assert.deepEqual(Object.keys(sources), ['interface', 'events', 'analysis']);
    for (const [name, keys] of Object.entries(sources)) {
      assert.ok(keys.en.length > 50, `${name} has its words`);
      assert.deepEqual([...keys.zh].sort(), [...keys.en].sort(), name);
    }
  });

  it('looks every word up the same way on every page', async () => {
    await carol.goto(`${server.base}/`);
    const words = await carol.evaluate(async () => {
      const { t } = await import('/js/i18n.js');
      const { settings } = await import('/js/settings.js');
      const lang = settings.lang;
      settings.lang = 'zh';
      const said = [t('lobby.watch'), t('events.round', { n: 2 }), t('moveInfo', { n: 3, what: 'D4' }), t('missing'), t('events.round')];
      settings.lang = lang;
      return said;
    });
    assert.deepEqual(words, ['观战', '第2轮', '第3手：D4', 'missing', '第{n}轮']);
  });

  it('challenges a named player, who alone sees it and accepts', async () => {
    await signUp(carol, server.base, 'carol', '1d');
    await signUp(dave, server.base, 'dave', '1d');
    // Carol reads English but hears the timekeeper in Chinese.
    await carol.click('[data-action=settings]');
    await carol.locator('dialog[open] [data-name=voiceLang] [data-value=zh]').click();
    await carol.keyboard.press('Escape');
    await carol.click('[data-action=create]');
    const form = carol.locator('dialog[open] form');
    await form.locator('[data-name=opponent] [data-value=named]').click();
    await form.locator('input[name=opponent]').fill('dave');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('[data-name=color] [data-value=black]').click();
    // No main time: byo-yomi from the first move, 3 periods of 10 s.
    await form.locator('input[name=main]').fill('0');
    await form.locator('input[name=periods]').fill('3');
    await form.locator('input[name=period]').fill('10');
    await form.locator('input[name=rated]').uncheck();
    await form.locator('button[type=submit]').click();
    const row = dave.locator('[data-challenger=carol]');
    await row.waitFor();
    assert.match(await row.innerText(), /for dave/);
    assert.match(await row.innerText(), /3×10s/);
    await row.locator('[data-accept]').click();
    await carol.waitForURL(/\/game\/\d+$/);
    assert.equal(await seatOf(carol), 'black');
  });

  it('calls the byo-yomi aloud in the chosen language and shows each call when the server makes it', async () => {
    // A 10-second period keeps the calls' distance from its end (docs/spec/time.md,
    // scaled calls): "5秒" at 5 s, "8秒" at 8 s, then "10秒" (the period used)
    // and "还剩2次" (periods left).
    await carol.locator('[data-call=black]', { hasText: '2 periods left' }).waitFor({ timeout: 15_000 });
    const heard = await spoken(carol);
    assert.deepEqual(heard.map((u) => u.text), ['5秒', '8秒', '10秒', '还剩2次']);
    assert.ok(heard.every((u) => u.lang === 'zh-CN'), JSON.stringify(heard));
    // Exactly the server's calls for carol's clock, in their order.
    assert.deepEqual(heard.map((u) => u.text), callFrames.filter((f) => f.player === 'black').map((f) => f.zh));
    assert.deepEqual(callFrames.map((f) => f.en), ['5 seconds', '8 seconds', '10 seconds', '2 periods left']);
    // White's page shows black's calls too; a player hears only his own clock.
    await dave.locator('[data-call=black]', { hasText: '2 periods left' }).waitFor({ state: 'attached' });
    assert.deepEqual(await spoken(dave), []);
    // The clock face is redrawn on its own timer: wait for the next redraw.
    await carol.locator('.clock[data-color=black] .clock-detail', { hasText: '2×10s' }).waitFor({ timeout: 2_000 });
  });

  it('switches the stone sound and the voice off', async () => {
    await dave.click('[data-action=settings]');
    const dialog = dave.locator('dialog[open]');
    await dialog.locator('input[data-setting=sound]').uncheck({ force: true });
    await dialog.locator('input[data-setting=voice]').uncheck({ force: true });
    await dave.keyboard.press('Escape');
    const before = { carol: await sounds(carol), dave: await sounds(dave) };
    await clickPoint(carol, 'E5');
    await stoneAt(carol, 'E5', 'black');
    await stoneAt(dave, 'E5', 'black');
    assert.ok(await sounds(carol) > before.carol, 'carol hears her stone');
    assert.equal(await sounds(dave), before.dave, 'dave switched the sound off');
    // A move within the period costs nothing: still 2 periods.
    assert.match(await carol.locator('.clock[data-color=black] .clock-detail').innerText(), /2×10s/);
    // Dave's clock runs: his calls are shown, not spoken.
    await dave.locator('[data-call=white]', { hasText: '5 seconds' }).waitFor({ timeout: 9000 });
    assert.deepEqual(await spoken(dave), []);
  });

  it('answers "how much time do I have" (Art. 16.2)', async () => {
    await dave.click('[data-action=time]');
    await dave.locator('.toast', { hasText: /byo-yomi: 3 periods of 10s left, 0:0\d left in this one/ }).waitFor();
    assert.deepEqual(await spoken(dave), [], 'the answer is not spoken with the voice off');
  });

  it('ends by resignation, seen by both in both notations', async () => {
    await clickPoint(dave, 'C3');
    await stoneAt(carol, 'C3', 'white');
    await carol.click('[data-action=resign]');
    await carol.click('[data-action=resign-yes]');
    for (const p of [carol, dave]) {
      const banner = p.locator('.result-banner');
      await banner.waitFor();
      assert.equal(await banner.locator('[data-notation=chinese]').innerText(), '白中盘胜');
      assert.equal(await banner.locator('[data-notation=international]').innerText(), 'W+R');
    }
  });

  it('keeps the settings in the browser: language, board skin, coordinates', async () => {
    await dave.click('[data-action=settings]');
    const dialog = dave.locator('dialog[open]');
    await dialog.locator('[data-name=board] [data-value=slate]').click();
    await dialog.locator('input[data-setting=coordinates]').uncheck({ force: true });
    await dialog.locator('[data-name=lang] [data-value=zh]').click();
    await dave.locator('dialog[open] h2', { hasText: '设置' }).waitFor();
    await dave.keyboard.press('Escape');
    await dave.reload();
    await dave.locator('.goban.board-slate').waitFor();
    assert.equal(await dave.locator('.goban .coords text').count(), 0);
    assert.equal(await dave.evaluate(() => document.documentElement.lang), 'zh-CN');
    await dave.locator('.result-banner .result-label', { hasText: '结果' }).waitFor();
  });

  it('finds players by name and shows the profile with the game', async () => {
    await carol.goto(`${server.base}/`);
    await carol.locator('input[name=player-search]').fill('da');
    await carol.locator('[data-role=search-results] a', { hasText: 'dave' }).click();
    await carol.waitForURL(/\/player\/dave$/);
    await carol.locator('[data-stat=declared] .stat-value', { hasText: '1d' }).waitFor();
    const game = carol.locator('[data-role=recent-games] [data-game]').first();
    await game.waitFor();
    assert.match(await game.innerText(), /carol/);
    assert.match(await game.innerText(), /W\+R/);
    assert.match(await game.innerText(), /Won/);
    await screenshot(carol, 'profile');
    // A finished game opens as its review.
    await game.click();
    await carol.locator('.result-banner').waitFor();
    await carol.locator('.move-item[data-move="2"]').waitFor();
  });

  it('logs out and back in; a wrong password is refused with the reason', async () => {
    await carol.goto(`${server.base}/`);
    await carol.click('[data-action=logout]');
    await carol.locator('[data-action=login]').waitFor();
    await carol.click('[data-action=login]');
    const dialog = carol.locator('dialog[open]');
    await dialog.locator('input[name=name]').fill('carol');
    await dialog.locator('input[name=password]').fill('not her password');
    await dialog.locator('button[type=submit]').click();
    await dialog.locator('.form-error:not([hidden])', { hasText: 'Wrong name or password.' }).waitFor();
    assert.equal(await carol.locator('[data-user=carol]').count(), 0);
    await dialog.locator('input[name=password]').fill('correct horse battery');
    await dialog.locator('button[type=submit]').click();
    await carol.locator('[data-user=carol]').waitFor();
    await carol.locator('dialog[open]').waitFor({ state: 'detached' });
  });

  it('plays a free handicap without a clock: black places the stones, then white moves (Art. 10)', async () => {
    await carol.goto(`${server.base}/`);
    await carol.click('[data-action=create]');
    const form = carol.locator('dialog[open] form');
    await form.locator('[data-name=opponent] [data-value=named]').click();
    await form.locator('input[name=opponent]').fill('dave');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('[data-name=handicap] [data-value=free]').click();
    await form.locator('input[name=stones]').fill('2');
    // A handicap game is casual and has no nigiri: the form says so.
    assert.ok(await form.locator('input[name=rated]').isDisabled());
    await form.locator('[data-name=color] [data-value=white]').click();
    await form.locator('[data-name=system] [data-value=none]').click();
    await form.locator('button[type=submit]').click();
    await dave.goto(`${server.base}/`);
    await dave.locator('[data-challenger=carol] [data-accept]').click();
    await carol.waitForURL(/\/game\/\d+$/);
    assert.equal(await seatOf(dave), 'black');
    await dave.locator('.status-line', { hasText: /handicap|让子/ }).waitFor();
    assert.equal(await dave.locator('.clock:not([hidden])').count(), 0, 'no clock shown without a clock');
    await clickPoint(dave, 'C3');
    await clickPoint(dave, 'G7');
    await dave.locator('.status-area button.primary:not([disabled])').click();
    for (const p of [carol, dave]) {
      await stoneAt(p, 'C3', 'black');
      await stoneAt(p, 'G7', 'black');
    }
    await carol.locator('.status-line.your-turn').waitFor();
    await clickPoint(carol, 'E5');
    await stoneAt(dave, 'E5', 'white');
    // The history starts from the handicap stones.
    await dave.keyboard.press('Home');
    await dave.locator('.move-item.current[data-move="0"]').waitFor();
    assert.equal(await dave.locator('.goban .stones .stone.black').count(), 2);
  });

  it('counts the last period aloud, "1" … "10", and the game is lost on time (超时判负)', async () => {
    await carol.goto(`${server.base}/`);
    await carol.click('[data-action=create]');
    const form = carol.locator('dialog[open] form');
    await form.locator('[data-name=opponent] [data-value=named]').click();
    await form.locator('input[name=opponent]').fill('dave');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('[data-name=color] [data-value=black]').click();
    await form.locator('[data-name=system] [data-value=byo_yomi]').click();
    await form.locator('input[name=main]').fill('0');
    await form.locator('input[name=periods]').fill('1');
    await form.locator('input[name=period]').fill('10');
    await form.locator('button[type=submit]').click();
    await dave.goto(`${server.base}/`);
    await dave.locator('[data-challenger=carol] [data-accept]').click();
    await carol.waitForURL(/\/game\/\d+$/);
    // One period of 10 s, the last: no "5秒" or "8秒", the count over all of it.
    const banner = carol.locator('.result-banner');
    await banner.waitFor({ timeout: 20_000 });
    assert.equal(await banner.locator('[data-notation=chinese]').innerText(), '白超时胜');
    assert.equal(await banner.locator('[data-notation=international]').innerText(), 'W+T');
    assert.deepEqual((await spoken(carol)).map((u) => u.text), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    assert.equal(await carol.locator('[data-call=black]').textContent(), '10');
    await dave.locator('.result-banner [data-notation=chinese]', { hasText: '白超时胜' }).waitFor();
  });
});
