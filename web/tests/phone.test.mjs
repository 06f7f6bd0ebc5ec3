// Phones are first-class (issue 18): at 390×844 and at 360 px wide every
// page fits the screen's width (no sideways scrolling: the document's
// scrollWidth is at most its clientWidth), the header's menu reaches every
// page, Events and Log out, and the lobby shows the open challenges before
// the ways to start a game.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, signUp, startServer,
} from './harness.mjs';

/** Fails unless the page's document is no wider than its viewport. */
async function fitsWidth(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what}: ${scroll} px of content in ${client} px`);
}

/** Opens the header's menu and clicks its entry `selector`. */
async function viaMenu(page, selector) {
  await page.click('[data-action=menu]');
  const entry = page.locator(`.main-nav ${selector}`);
  await entry.waitFor();
  await entry.click();
}

for (const viewport of [{ width: 390, height: 844 }, { width: 360, height: 740 }]) {
  describe(`a phone ${viewport.width} px wide`, needsChromium(), () => {
    /** @type {Awaited<ReturnType<typeof startServer>>} */
    let server;
    /** @type {import('playwright-core').Browser} */
    let browser;
    /** @type {import('playwright-core').Page} */
    let phone;
    /** @type {import('playwright-core').Page} */
    let desk;
    const errors = [];

    before(async () => {
      server = await startServer();
      browser = await launchBrowser();
      phone = await newPage(await newPlayerContext(browser, { viewport, mobile: true }), errors);
      desk = await newPage(await newPlayerContext(browser), errors);
      await signUp(phone, server.base, 'pia', '3k');
      await signUp(desk, server.base, 'dora', '2k');
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
      assert.deepEqual(errors, [], 'no script errors');
    });

    it('lists the open challenges before the ways to start a game', async () => {
      await desk.evaluate(() => fetch('/api/challenges', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shoutan-Request': '1' },
        body: JSON.stringify({ size: 9, color: 'black', rated: false, time_control: '1 min + 3×10s byo-yomi' }),
      }));
      await phone.goto(`${server.base}/`);
      const challenge = phone.locator('[data-role=challenges] [data-challenger=dora]');
      await challenge.waitFor();
      const list = await phone.locator('[data-role=challenges]').boundingBox();
      const quick = await phone.locator('.quick-card').boundingBox();
      assert.ok(list && quick && list.y < quick.y, `challenges at ${list?.y}, quick games at ${quick?.y}`);
      assert.ok(list.y < viewport.height, 'the challenges start on the first screen');
      await fitsWidth(phone, 'lobby');
      await screenshot(phone, `phone-${viewport.width}-lobby`);
    });

    it('plays a game without sideways scrolling', async () => {
      await phone.locator('[data-role=challenges] [data-challenger=dora] [data-accept]').click();
      await phone.waitForURL(/\/game\/\d+$/);
      await phone.locator('.goban').waitFor();
      await fitsWidth(phone, 'game');
      const board = await phone.locator('.goban').boundingBox();
      assert.ok(board && board.x >= 0 && board.x + board.width <= viewport.width, 'the board within the screen');
      await screenshot(phone, `phone-${viewport.width}-game`);
    });

    it('reaches Events through the menu; the event pages fit the width', async () => {
      await viaMenu(phone, 'a[href="/events"]');
      const form = phone.locator('form[data-role=create-event]');
      await form.waitFor();
      await fitsWidth(phone, 'event list');
      await form.locator('input[name=name]').fill('Phone Cup with a rather long name for a small screen');
      await form.locator('select[name=system]').selectOption('mcmahon');
      await form.locator('input[name=rounds]').fill('3');
      await form.locator('select[name=size]').selectOption('9');
      await form.locator('[data-action=create-event]').click();
      await phone.waitForURL(/\/events\/\d+$/);
      await phone.click('[data-action=register]');
      await phone.locator('[data-role=organiser] [data-action=start-round]').waitFor();
      for (const tab of ['players', 'pairings', 'standings', 'crosstable', 'log', 'exports']) {
        await phone.click(`[data-tab=${tab}]`);
        await phone.locator(`[data-tab=${tab}][aria-selected=true]`).waitFor();
        await fitsWidth(phone, `event page, ${tab}`);
      }
      await screenshot(phone, `phone-${viewport.width}-event`);
    });

    it('reaches Log out through the menu', async () => {
      await viaMenu(phone, '[data-action=menu-logout]');
      await phone.locator('[data-action=login]').waitFor();
      await fitsWidth(phone, 'logged out');
      assert.equal(await phone.locator('[data-user=pia]').count(), 0);
    });
  });
}
