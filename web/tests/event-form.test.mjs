// The event form in Chinese (issue 18): the time control written as the
// README and Chinese regulations write it, an unreadable one refused with a
// message in the interface's language beside the form, and McMahon's bar
// and floor, the handicap rule, the ruleset and komi set in the form and
// kept by the event; and the game offered (issue 33): a chess event.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { launchBrowser, needsChromium, newPage, newPlayerContext, signUp, startServer } from './harness.mjs';

describe('the event form in Chinese', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let olga;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    olga = await newPage(await newPlayerContext(browser, { locale: 'zh-CN' }), errors);
    await signUp(olga, server.base, 'olga', '2d');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('refuses an unreadable time control in Chinese, then takes 基本用时1小时，读秒5次60秒 with McMahon’s settings', async () => {
    await olga.goto(`${server.base}/events`);
    const form = olga.locator('form[data-role=create-event]');
    await form.waitFor();
    await form.locator('input[name=name]').fill('秋季麦克马洪赛');
    await form.locator('select[name=system]').selectOption('mcmahon');
    await form.locator('[data-role=mcmahon]').waitFor();
    await form.locator('input[name=rounds]').fill('4');
    await form.locator('select[name=size]').selectOption('19');
    await form.locator('input[name=time]').fill('一小时加读秒');
    await form.locator('[data-action=create-event]').click();
    const error = form.locator('[data-role=event-error][data-code=bad_time_control]');
    await error.waitFor();
    assert.match(await error.innerText(), /无法识别用时/);
    assert.match(olga.url(), /\/events$/, 'nothing created');

    await form.locator('input[name=time]').fill('基本用时1小时，读秒5次60秒');
    await form.locator('select[name=bar]').selectOption('3d');
    await form.locator('select[name=floor]').selectOption('15k');
    await form.locator('select[name=handicapBasis]').selectOption('rank');
    await form.locator('input[name=correction]').fill('1');
    await form.locator('input[name=ceiling]').fill('9');
    await form.locator('select[name=ruleset]').selectOption('japanese');
    await form.locator('input[name=komi]').fill('6.5');
    await form.locator('[data-action=create-event]').click();
    await olga.waitForURL(/\/events\/\d+$/);
    await olga.locator('h1', { hasText: '秋季麦克马洪赛' }).waitFor();

    const id = olga.url().split('/').pop();
    const event = await olga.evaluate((i) => fetch(`/api/events/${i}`).then((r) => r.json()), id);
    const config = event.config;
    assert.deepEqual(config.settings.system, {
      kind: 'mc_mahon', bar: '3d', floor: '15k', handicap: { basis: 'rank', correction: 1, ceiling: 9 },
    }, JSON.stringify(config.settings));
    assert.deepEqual(config.game.time_control, { system: 'byo_yomi', main: 3_600_000, periods: 5, period: 60_000 });
    const presets = await olga.evaluate(() => fetch('/api/rulesets').then((r) => r.json()));
    assert.deepEqual(config.game.ruleset, presets.find((p) => p.name === 'japanese').ruleset);
    assert.equal(config.game.komi, 6.5);
  });

  it('offers the game: a chess Swiss kept by the arbiter, white first, 1-0 entered and counted 1/½/0', async () => {
    await olga.goto(`${server.base}/events`);
    const form = olga.locator('form[data-role=create-event]');
    await form.waitFor();
    await form.locator('input[name=name]').fill('国际象棋俱乐部赛');
    await form.locator('select[name=system]').selectOption('swiss');
    await form.locator('select[name=game]').selectOption('chess');
    await form.locator('input[name=rounds]').fill('2');
    await form.locator('[data-action=create-event]').click();
    await olga.waitForURL(/\/events\/\d+$/);
    const id = olga.url().split('/').pop();
    const event = await olga.evaluate((i) => fetch(`/api/events/${i}`).then((r) => r.json()), id);
    assert.equal(event.config.settings.discipline, 'chess');
    const listed = await olga.evaluate(() => fetch('/api/events').then((r) => r.json()));
    assert.equal(listed.find((e) => String(e.id) === id).game, 'chess');
    assert.deepEqual(event.colors, ['white', 'black']);

    // Two players join; the organiser starts round 1: no online game.
    for (const name of ['pavel', 'rosa']) {
      const page = await newPage(await newPlayerContext(browser), errors);
      await signUp(page, server.base, name, '1k');
      const joined = await page.evaluate((i) => fetch(`/api/events/${i}/registration`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
      }).then((r) => r.status), id);
      assert.equal(joined, 201);
      await page.context().close();
    }
    const started = await olga.evaluate((i) => fetch(`/api/events/${i}/rounds`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    }).then((r) => r.json()), id);
    assert.equal(started.games[0].game, null, 'chess is played elsewhere');

    await olga.reload();
    const pairings = olga.locator('table[data-role=pairings-1]');
    await pairings.waitFor();
    const heads = await pairings.locator('thead th').allInnerTexts();
    assert.ok(heads.indexOf('白方') >= 0 && heads.indexOf('白方') < heads.indexOf('黑方'), heads.join('|'));
    const choice = pairings.locator('select[name=result]');
    assert.deepEqual((await choice.locator('option').allInnerTexts()).slice(0, 3), ['1-0', '0-1', '½-½']);
    await choice.selectOption('1-0');
    await pairings.locator('[data-action=enter-result]').click();
    await pairings.locator('td[data-result]', { hasText: '1-0' }).waitFor();
    const standings = await olga.evaluate((i) => fetch(`/api/events/${i}/standings`).then((r) => r.json()), id);
    assert.deepEqual(standings.rows.map((r) => r.values[0]), ['1', '0']);

    // The events' lobby names the game of an event that is not weiqi.
    await olga.goto(`${server.base}/events`);
    await olga.locator(`[data-event="${id}"]`, { hasText: '国际象棋 · 积分编排制' }).waitFor();
  });
});
