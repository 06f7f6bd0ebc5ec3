// Play modes (issue 18) in real browsers: two players press the same
// quick-game button and land in the same game (automatch), and a cancelled
// search pairs no one; a rengo in four browser contexts, partners in turn,
// played to a counted result; a simul of three boards from its host's page.
//
// The rengo's position (ann and cy black, bo and di white): black walls
// column E, white column F, then both pass.
//
//     A B C D E F G H J
//   9 . . . . X O . . .
//   …          (rows 8 to 2 alike)
//   1 . . . . X O . . .
//
// Black's area A–E is 45 points, white's F–J 36 + 7.5 komi: B+1.5.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp,
  startServer, stoneAt,
} from './harness.mjs';

describe('automatch: the quick-game buttons pair two seekers', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  const errors = [];
  /** @type {import('playwright-core').Page[]} */
  let pages;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    pages = [];
    for (let i = 0; i < 3; i += 1) pages.push(await newPage(await newPlayerContext(browser), errors));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('shows a search with the number of players searching, and cancels it', async () => {
    const [ann, ben, cat] = pages;
    await signUp(ann, server.base, 'ann', '2k');
    await signUp(ben, server.base, 'ben', '1k');
    await signUp(cat, server.base, 'cat', '2k');
    await cat.locator('[data-quick="13-5+3×30s"]').click();
    await cat.locator('[data-role=searching]', { hasText: 'Searching for 13×13 5+3×30s' }).waitFor();
    await cat.locator('[data-quick="13-5+3×30s"][aria-pressed=true]').waitFor();
    // The others' lobbies are told how many search; cat's search is not theirs.
    await ann.locator('[data-quick="9-1+3×10s"]').click();
    await ann.locator('[data-role=seekers]', { hasText: '2 searching' }).waitFor();
    await screenshot(ann, 'automatch-searching');
    await cat.locator('[data-action=cancel-search]').click();
    await cat.locator('[data-role=searching]').waitFor({ state: 'hidden' });
    await ann.locator('[data-role=seekers]', { hasText: '1 searching' }).waitFor();
  });

  it('lands both players in the same game when the other presses the same button', async () => {
    const [ann, ben, cat] = pages;
    await ben.locator('[data-quick="9-1+3×10s"]').click();
    await ben.waitForURL(/\/game\/\d+$/);
    await ann.waitForURL(ben.url());
    const seats = [await seatOf(ann), await seatOf(ben)].sort();
    assert.deepEqual(seats, ['black', 'white']);
    // One rank apart, handicap allowed: 让先, the weaker (ann) takes black.
    assert.equal(await seatOf(ann), 'black');
    assert.match(await ann.locator('.clock[data-color=white] .clock-detail').innerText(), /3×10s/);
    // Cat, who cancelled, is still in the lobby.
    assert.equal(new URL(cat.url()).pathname, '/');
  });
});

/** Opens the challenge dialog on `page` and sets the mode and the board. */
async function challengeForm(page, mode) {
  await page.click('[data-action=create]');
  const form = page.locator('dialog[open] form');
  await form.locator(`[data-name=mode] [data-value=${mode}]`).click();
  await form.locator('[data-name=size] [data-value="9"]').click();
  await form.locator('[data-name=system] [data-value=none]').click();
  return form;
}

describe('rengo: four players, partners in turn, to a counted result', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  const errors = [];
  /** ann (black 1), bo (white 1), cy (black 2), di (white 2): the order of turns. */
  /** @type {import('playwright-core').Page[]} */
  let order;
  const names = ['ann', 'bo', 'cy', 'di'];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    order = [];
    for (let i = 0; i < 4; i += 1) order.push(await newPage(await newPlayerContext(browser), errors));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('seats three who join: the second to join is the host’s partner', async () => {
    for (let i = 0; i < 4; i += 1) await signUp(order[i], server.base, names[i], '3k');
    const form = await challengeForm(order[0], 'rengo');
    await form.locator('[data-name=color] [data-value=black]').click();
    assert.equal(await form.locator('input[name=rated]').isChecked(), false, 'a rengo is casual');
    await form.locator('button[type=submit]').click();
    await order[0].locator('dialog[open]').waitFor({ state: 'detached' });
    // bo joins first (white), cy second (ann's partner), di last (bo's).
    for (const i of [1, 2]) {
      const row = order[i].locator('[data-challenger=ann]');
      await row.locator('[data-accept]').click();
      await row.locator('[data-leave]').waitFor();
    }
    await order[3].locator('[data-challenger=ann] [data-mode=rengo]', { hasText: '2/3 joined' }).waitFor();
    await order[3].locator('[data-challenger=ann] [data-accept]').click();
    for (const page of order) await page.waitForURL(/\/game\/\d+$/);
    const url = order[0].url();
    for (const page of order) assert.equal(page.url(), url, 'all four in one game');
    assert.deepEqual(await Promise.all(order.map(seatOf)), ['black', 'white', 'black', 'white']);
  });

  it('plays in the fixed order; a partner out of turn is told whose move it is', async () => {
    const [ann, , cy] = order;
    await ann.locator('.status-line.your-turn').waitFor();
    await cy.locator('.status-line', { hasText: 'Your partner ann plays this move' }).waitFor();
    // cy's click does not play.
    await clickPoint(cy, 'E9');
    await ann.waitForTimeout(300);
    assert.equal(await ann.locator('.goban .stones [data-stone=E9]').count(), 0);
    await screenshot(cy, 'rengo-partner');
    for (let row = 9; row >= 1; row -= 1) {
      const turn = (2 * (9 - row)) % 4;
      const black = order[turn];
      const white = order[(turn + 1) % 4];
      await black.locator('.status-line.your-turn').waitFor();
      await clickPoint(black, `E${row}`);
      for (const page of order) await stoneAt(page, `E${row}`, 'black');
      await white.locator('.status-line.your-turn').waitFor();
      await clickPoint(white, `F${row}`);
      for (const page of order) await stoneAt(page, `F${row}`, 'white');
    }
    // 18 turns played: cy, then di, pass.
    // Each pass is asked once more (the default setting).
    await order[2].locator('[data-action=pass]:not([disabled])').click();
    await order[2].click('[data-action=pass-yes]');
    await order[3].locator('[data-action=pass]:not([disabled])').click();
    await order[3].click('[data-action=pass-yes]');
    for (const page of order) await page.locator('[data-role=count]').waitFor();
  });

  it('counts: one player of each team accepts, all four see B+1.5', async () => {
    await order[0].locator('[data-count-result=international]', { hasText: 'B+1.5' }).waitFor();
    await order[0].click('[data-action=accept-count]');
    await order[3].locator('[data-accepted=black].yes').waitFor();
    await order[3].click('[data-action=accept-count]');
    for (const page of order) {
      const banner = page.locator('.result-banner');
      await banner.waitFor();
      assert.equal(await banner.locator('[data-notation=international]').innerText(), 'B+1.5');
    }
    await screenshot(order[1], 'rengo-result');
  });
});

describe('simul: one host against three boards', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  const errors = [];
  /** @type {import('playwright-core').Page} */
  let host;
  /** @type {import('playwright-core').Page[]} */
  let guests;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    host = await newPage(await newPlayerContext(browser), errors);
    guests = [];
    for (let i = 0; i < 3; i += 1) guests.push(await newPage(await newPlayerContext(browser), errors));
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('opens a simul of three boards that starts when the third guest joins', async () => {
    await signUp(host, server.base, 'sensei', '4d');
    for (let i = 0; i < 3; i += 1) await signUp(guests[i], server.base, `guest${i + 1}`, '5k');
    const form = await challengeForm(host, 'simul');
    await form.locator('input[name=boards]').fill('3');
    await form.locator('[data-name=color] [data-value=white]').click();
    await form.locator('input[name=rated]').uncheck();
    await form.locator('button[type=submit]').click();
    await host.locator('dialog[open]').waitFor({ state: 'detached' });
    for (const guest of guests) {
      await guest.locator('[data-challenger=sensei] [data-accept]').click();
    }
    await host.waitForURL(/\/simul\/\d+$/);
    for (const guest of guests) await guest.waitForURL(/\/game\/\d+$/);
    const boards = new Set(guests.map((g) => g.url()));
    assert.equal(boards.size, 3, 'each guest on a board of his own');
    for (const guest of guests) assert.equal(await seatOf(guest), 'black');
    await host.locator('[data-role=boards] [data-board]').nth(2).waitFor();
    assert.equal(await host.locator('[data-role=boards] [data-board]').count(), 3);
  });

  it('lists the boards on the host’s page; a guest’s move shows there, the host answers it', async () => {
    const [g1] = guests;
    await g1.locator('.status-line.your-turn').waitFor();
    await clickPoint(g1, 'E5');
    await stoneAt(g1, 'E5', 'black');
    const id = new URL(g1.url()).pathname.split('/').pop();
    const row = host.locator(`[data-board="${id}"][data-host-to-move=true]`);
    await row.waitFor();
    assert.equal(await host.locator('[data-host-to-move=true]').count(), 1, 'only that board waits for the host');
    await screenshot(host, 'simul-boards');
    await row.click();
    await host.waitForURL(g1.url());
    assert.equal(await seatOf(host), 'white');
    await clickPoint(host, 'E4');
    await stoneAt(g1, 'E4', 'white');
  });
});
