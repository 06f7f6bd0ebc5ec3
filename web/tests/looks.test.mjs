// How the client looks at the sizes people use: a phone (390 px), a
// tablet and a desktop, in the light and the dark page colours with other
// board and stone skins. Each view is saved under artifacts/screenshots
// for a person to look at; the tests check what a screenshot cannot
// promise by itself: nothing wider than the screen, the board as large as
// the screen allows, crisp vector lines, the skins and colours applied;
// and that the binary serves the client but not these tests.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

/** Posts to the API from inside `page`, with its session. */
async function post(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const res = await fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res.json();
  }, [path, body]);
}

/** How far the page reaches beyond the screen's width, in CSS pixels. */
function overflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

describe('the client at phone, tablet and desktop sizes, light and dark', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let phone;
  /** @type {import('playwright-core').Page} */
  let night;
  let gameUrl;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    phone = await newPage(await newPlayerContext(browser, {
      viewport: { width: 390, height: 844 }, mobile: true, locale: 'zh-CN',
    }), errors);
    const nightContext = await newPlayerContext(browser, { viewport: { width: 1280, height: 800 } });
    await nightContext.addInitScript(() => {
      if (!localStorage.getItem('shoutan.settings')) {
        localStorage.setItem('shoutan.settings', JSON.stringify({ theme: 'dark', board: 'slate', stones: 'yunzi' }));
      }
    });
    night = await newPage(nightContext, errors);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('serves the client from the binary, but not its tests', async () => {
    const app = await fetch(`${server.base}/js/board.js`);
    assert.equal(app.status, 200);
    assert.match(app.headers.get('content-type') ?? '', /javascript/);
    // Any other path is the client's page, which routes in the browser.
    for (const path of ['/tests/harness.mjs', '/tests/node_modules/playwright-core/package.json']) {
      const res = await fetch(`${server.base}${path}`);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, path);
      assert.match(await res.text(), /<main id="main"/, path);
    }
  });

  it('fits the lobby into a phone, in Chinese by the browser’s language', async () => {
    await signUp(phone, server.base, 'xiaoming', '2k');
    await signUp(night, server.base, 'ravi', '2k');
    await post(night, '/api/challenges', { size: 13, color: 'nigiri', time_control: '10 min + 5×30s byo-yomi' });
    await post(night, '/api/challenges', { size: 19, color: 'black', rated: false, time_control: '20 min + 5×60s byo-yomi' });
    await phone.reload();
    await phone.locator('[data-challenger=ravi]').nth(1).waitFor();
    assert.equal(await phone.evaluate(() => document.documentElement.lang), 'zh-CN');
    await phone.locator('[data-action=create]', { hasText: '创建对局' }).waitFor();
    assert.equal(await overflow(phone), 0, 'nothing wider than the phone');
    await screenshot(phone, 'lobby-phone');
  });

  it('plays on a phone with the board across the whole width', async () => {
    await phone.locator('[data-challenger=ravi]', { hasText: '13×13' }).locator('[data-accept]').click();
    await phone.waitForURL(/\/game\/\d+$/);
    gameUrl = phone.url();
    await night.goto(gameUrl);
    const first = (await seatOf(phone)) === 'black' ? phone : night;
    const second = first === phone ? night : phone;
    // Phones confirm a move with a second tap (the default on touch screens).
    const tap = async (page, point) => {
      await clickPoint(page, point);
      if (page === phone) await clickPoint(page, point);
    };
    const moves = ['K10', 'D4', 'D10', 'K4', 'G7', 'C7', 'L7'];
    for (const [i, point] of moves.entries()) {
      const page = i % 2 ? second : first;
      await tap(page, point);
      await stoneAt(phone, point, i % 2 ? 'white' : 'black');
      await stoneAt(night, point, i % 2 ? 'white' : 'black');
    }
    const board = await phone.locator('.goban').boundingBox();
    assert.ok(board && board.width >= 370 && board.width <= 390, `board width ${board?.width}`);
    assert.equal(await overflow(phone), 0, 'nothing wider than the phone');
    // The board is vector drawing: lines, 5 star points and coordinates on every side.
    assert.equal(await phone.locator('.goban svg.goban-svg .grid circle.star').count(), 5);
    assert.equal(await phone.locator('.goban .coords text').count(), 13 * 4);
    const label = await phone.locator('.goban .coords text').first().boundingBox();
    assert.ok(label && label.height >= 9, `coordinates readable on a phone: ${label?.height} px high`);
    await screenshot(phone, 'game-phone');
  });

  it('shows the dark page colours with the night board and yunzi stones', async () => {
    await night.locator('.goban.board-slate.stones-yunzi').waitFor();
    const background = await night.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `a dark page: ${background}`);
    await night.locator('.goban [data-point=F5]').hover();
    await screenshot(night, 'game-dark');
  });

  it('lays the game out side by side on a tablet in landscape', async () => {
    await night.setViewportSize({ width: 1024, height: 700 });
    await night.waitForTimeout(100);
    const board = await night.locator('.goban').boundingBox();
    const side = await night.locator('aside.side').boundingBox();
    assert.ok(board && side && side.x >= board.x + board.width, 'the side panel is beside the board');
    assert.ok(board.y + board.height <= 700, 'the whole board is on the screen');
    assert.equal(await overflow(night), 0);
    await screenshot(night, 'game-tablet');
  });
});
