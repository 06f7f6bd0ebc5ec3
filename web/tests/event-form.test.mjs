// The event form in Chinese (issue 18): the time control written as the
// README and Chinese regulations write it, an unreadable one refused with a
// message in the interface's language beside the form, and McMahon's bar
// and floor, the handicap rule, the ruleset and komi set in the form and
// kept by the event.

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
});
