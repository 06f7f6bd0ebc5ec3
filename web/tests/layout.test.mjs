// What a player found at 1280×800 and on a 390×844 phone, in English and
// Chinese (issue 35, items 2 and 5), measured from the DOM: the move list
// keeps its rows after a counted game with notices shown; the event
// pairings and the analysis page fit the screen's width; the move
// navigation is drawn icons, not emoji; Estimate is disabled, with its
// reason, in a rated game; a dead stone shows faded under the owner's
// square; the profile's game history filters; the red last-move mark is a
// setting that is kept.
//
// The counted game (black: ana, white: ben), 9×9, Chinese rules:
//
//     A B C D E F G H J
//   9 . . . X . O . . .
//   8 . . X X . O . . .
//   7 . . . X . O . . .
//   6 . . . X . O . . .
//   5 . O . X . O . . .     O at B5: dead, inside black's area
//   4 . . . X . O . . .
//   3 . . . X . O . . .
//   2 . . . X . O . . .
//   1 . . . X . O . . .
//
// Black's area is columns A–D, white's F–J: white wins.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, startServer, wsCommands,
} from './harness.mjs';

const DESKTOP = { name: 'desktop', viewport: { width: 1280, height: 800 }, mobile: false };
const PHONE = { name: 'phone', viewport: { width: 390, height: 844 }, mobile: true };
/** Each screen in each language. */
const VIEWS = [DESKTOP, PHONE].flatMap((screen) => ['en-GB', 'zh-CN'].map((locale) => ({ ...screen, locale })));
const PASSWORD = 'correct horse battery';
/** The move list's least height: eight rows of moves. */
const MOVE_LIST_HEIGHT = 160;

/** The analysis page's buttons through the record. */
const NAV_ACTIONS = '.analysis-controls :is([data-action=first], [data-action=prev], [data-action=next], [data-action=last])';

/** Fails unless the page's document is no wider than its viewport. */
async function fitsWidth(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what}: ${scroll} px of content in ${client} px`);
}

describe('the layout and the small things a player found (issue 35)', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** Each player's page, by name. */
  const players = {};
  const errors = [];
  /** The command ids sent so far (each command needs a new one). */
  let commandId = 0;
  /** The counted game, and one finished by resignation after a move. */
  let counted;
  let resigned;

  /** A player signed up through the API, with a page of his own. */
  async function signUp(name) {
    const page = await newPage(await newPlayerContext(browser, { viewport: DESKTOP.viewport }), errors);
    await page.goto(`${server.base}/`);
    const res = await apiFrom(page, 'POST', '/api/accounts', { name, password: PASSWORD, rank: '5k' });
    assert.ok(res.status < 300, JSON.stringify(res));
    players[name] = page;
  }

  /**
   * A page on `view` (screen and language); logged in as `name` when one
   * is given, else anonymous.
   */
  async function viewer(view, name) {
    const context = await newPlayerContext(browser, view);
    const page = await newPage(context, errors);
    await page.goto(`${server.base}/`);
    if (name) {
      const res = await apiFrom(page, 'POST', '/api/session', { name, password: PASSWORD });
      assert.ok(res.status < 300, JSON.stringify(res));
    }
    return page;
  }

  /** A game between `black` and `white`, started: its id. */
  async function startGame(black, white, { size = 9, rated = false } = {}) {
    const challenge = await apiFrom(players[black], 'POST', '/api/challenges', { size, color: 'black', rated });
    assert.equal(challenge.status, 201, JSON.stringify(challenge));
    const game = await apiFrom(players[white], 'POST', `/api/challenges/${challenge.body.id}/accept`, {});
    assert.equal(game.status, 201, JSON.stringify(game));
    return game.body.id;
  }

  /** Sends `commands` in game `id` as `name`; each must be acknowledged. */
  async function send(name, id, ...commands) {
    const answers = await wsCommands(players[name], id, commandId + 1, commands);
    commandId += commands.length;
    for (const a of answers) assert.equal(a.type, 'ack', JSON.stringify(a));
  }

  /** Plays `moves` (black first) in game `id` between `black` and `white`. */
  async function play(id, black, white, moves) {
    for (const [i, point] of moves.entries()) {
      await send(i % 2 ? white : black, id, point ? { type: 'move', point } : { type: 'pass' });
    }
  }

  /**
   * Fails unless the stone at `point` is drawn dead (faded) with the
   * square of `owner` painted over it.
   */
  async function deadUnderSquare(page, point, owner) {
    await page.locator(`.goban .stones [data-stone=${point}].dead`).waitFor();
    await page.locator(`.goban .territory [data-at=${point}][data-owner=${owner}]`).waitFor();
    const seen = await page.evaluate(([point, owner]) => {
      const stone = document.querySelector(`.goban .stones [data-stone=${point}]`);
      const square = document.querySelector(`.goban .territory [data-at=${point}][data-owner=${owner}]`);
      const box = stone.getBoundingClientRect();
      // What is painted at the stone's centre, topmost first.
      const stack = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return { opacity: Number(getComputedStyle(stone).opacity), square: stack.indexOf(square), stone: stack.indexOf(stone) };
    }, [point, owner]);
    assert.ok(seen.opacity <= 0.6, `the dead stone is faded: opacity ${seen.opacity}`);
    assert.ok(seen.square >= 0 && seen.stone >= 0, JSON.stringify(seen));
    assert.ok(seen.square < seen.stone, `the owner's square is drawn over the dead stone: ${JSON.stringify(seen)}`);
  }

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // Five: the server lets one address sign up five accounts a minute.
    for (const name of ['ana', 'ben', 'cal', 'dan', 'eva']) await signUp(name);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors in any page');
  });

  it('draws a dead stone faded under the owner’s square, in counting and after it (item 5)', async () => {
    counted = await startGame('ana', 'ben');
    const walls = Array.from({ length: 9 }, (_, i) => [`D${i + 1}`, `F${i + 1}`]).flat();
    await play(counted, 'ana', 'ben', [...walls, 'C8', 'B5', null, null]);
    // The server proposes the dead stones a moment after counting opens.
    let proposal;
    for (let i = 0; i < 100 && !proposal; i++) {
      const log = await apiFrom(players.ana, 'GET', `/api/games/${counted}/events`);
      proposal = log.body.find((e) => e.event.type === 'counting');
      if (!proposal) await players.ana.waitForTimeout(100);
    }
    assert.ok(proposal, 'the server proposes the dead stones');
    if (!proposal.event.dead.includes('B5')) await send('ana', counted, { type: 'toggle', point: 'B5' });

    const watchers = [await viewer(VIEWS[0]), await viewer(VIEWS[3])];
    for (const page of watchers) {
      await page.goto(`${server.base}/game/${counted}`);
      await page.locator('[data-role=count]').waitFor();
      await deadUnderSquare(page, 'B5', 'black');
    }
    await screenshot(watchers[0], 'layout-dead-stone-counting');

    await send('ana', counted, { type: 'accept' });
    await send('ben', counted, { type: 'accept' });
    for (const page of watchers) {
      await page.locator('.result-banner').waitFor();
      await page.reload();
      await page.locator('.result-banner').waitFor();
      await deadUnderSquare(page, 'B5', 'black');
      await page.context().close();
    }
  });

  it('keeps the move list’s rows after a counted game with notices shown (item 1)', async () => {
    for (const view of VIEWS) {
      const page = await viewer(view);
      await page.goto(`${server.base}/game/${counted}`);
      await page.locator('.result-banner').waitFor();
      await page.locator('[data-role=count]').waitFor();
      // Notices as the game shows them: in the column beside the board.
      await page.evaluate(async () => {
        const { toast } = await import('/js/ui.js');
        toast('A notice that takes some of the column', 'info', 60_000);
        toast('Another notice, long enough to wrap onto a second line in the column', 'error', 60_000);
      });
      await page.locator('[data-role=notices] .toast').nth(1).waitFor();
      assert.equal(await page.locator('.move-list .move-item').count(), 23, 'the start and 22 turns');
      const list = await page.locator('.move-list').boundingBox();
      assert.ok(list && list.height >= MOVE_LIST_HEIGHT, `${view.name} ${view.locale}: the move list is ${list?.height} px high`);
      if (!view.mobile) {
        // The column stays within the screen; what does not fit scrolls in it.
        const side = await page.locator('aside.side').boundingBox();
        assert.ok(side && side.y + side.height <= view.viewport.height, `${view.locale}: the column ends at ${side && side.y + side.height}`);
        await page.locator('.card-bottom').scrollIntoViewIfNeeded();
        const card = await page.locator('.card-bottom').boundingBox();
        assert.ok(card && card.y + card.height <= view.viewport.height, `${view.locale}: the lower card ends at ${card && card.y + card.height}`);
      }
      await fitsWidth(page, `${view.name} ${view.locale}: the counted game`);
      const spill = await page.locator('.result-banner').evaluate((banner) => {
        const edge = banner.getBoundingClientRect();
        return [...banner.children].filter((c) => c.getBoundingClientRect().right > edge.right).map((c) => c.textContent);
      });
      assert.deepEqual(spill, [], `${view.name} ${view.locale}: nothing sticks out of the result`);
      await screenshot(page, `layout-counted-${view.name}-${view.locale}`);
      await page.context().close();
    }
  });

  it('shows every column of the event pairings, on a phone too (item 2)', async () => {
    const made = await apiFrom(players.ana, 'POST', '/api/events', {
      name: 'Autumn Swiss of the Riverside Go Club', system: { kind: 'swiss' }, size: 9, ruleset: 'chinese', rated: false, late_arrival_ms: 3_600_000, rounds: 3,
    });
    assert.ok(made.status < 300, JSON.stringify(made));
    const event = made.body.id;
    for (const name of ['ana', 'ben', 'cal', 'dan']) {
      const added = await apiFrom(players.ana, 'POST', `/api/events/${event}/players`, { account: name });
      assert.ok(added.status < 300, JSON.stringify(added));
    }
    const round = await apiFrom(players.ana, 'POST', `/api/events/${event}/rounds`, {});
    assert.ok(round.status < 300, JSON.stringify(round));
    for (const view of VIEWS) {
      // The organiser's view: each result is a choice and a button.
      const page = await viewer(view, 'ana');
      await page.goto(`${server.base}/events/${event}`);
      const table = page.locator('table[data-role="pairings-1"]');
      await table.locator('select[name=result]').first().waitFor();
      await fitsWidth(page, `${view.name} ${view.locale}: the pairings`);
      // Short names: every column in sight at once, none cut by its frame.
      const cut = await table.evaluate((el) => {
        const frame = el.closest('.table-scroll').getBoundingClientRect();
        const right = Math.min(frame.right, document.documentElement.clientWidth);
        return [...el.querySelectorAll('thead th, tbody tr:first-child td')]
          .filter((cell) => cell.getBoundingClientRect().left < frame.left - 1 || cell.getBoundingClientRect().right > right + 1)
          .map((cell) => `${cell.cellIndex}: ${cell.textContent}`);
      });
      assert.deepEqual(cut, [], `${view.name} ${view.locale}: the columns cut off`);
      await screenshot(page, `layout-pairings-${view.name}-${view.locale}`);
      await page.context().close();
    }
  });

  it('fits the analysis page with its review into the screen’s width, the whole board on a phone', async () => {
    // The review's mistakes, with the engine's lines, are its widest part.
    const asked = await apiFrom(players.ana, 'POST', `/api/games/${counted}/reviews`, { level: 'quick' });
    assert.equal(asked.status, 202, JSON.stringify(asked));
    const done = async () => (await apiFrom(players.ana, 'GET', `/api/games/${counted}/reviews`)).body.reviews.every((r) => r.status === 'done');
    for (let i = 0; i < 480 && !(await done()); i++) await players.ana.waitForTimeout(500);
    assert.ok(await done(), 'the review is done within four minutes');
    for (const view of VIEWS) {
      const page = await viewer(view);
      await page.goto(`${server.base}/game/${counted}/analysis`);
      await page.locator('.analysis-page .goban .stones [data-stone=B5]').waitFor();
      await page.locator('[data-mistakes=black] [data-mistake]').first().waitFor();
      await fitsWidth(page, `${view.name} ${view.locale}: the analysis page`);
      const board = await page.locator('.analysis-page .goban').boundingBox();
      assert.ok(board && board.x >= 0 && board.x + board.width <= view.viewport.width,
        `${view.name} ${view.locale}: the board from ${board?.x} to ${board && board.x + board.width}`);
      if (!view.mobile) {
        const buttons = await page.locator(NAV_ACTIONS).first().boundingBox();
        assert.ok(buttons && buttons.y + buttons.height <= view.viewport.height, `${view.locale}: the buttons under the board end at ${buttons && buttons.y + buttons.height}`);
      }
      await screenshot(page, `layout-analysis-${view.name}-${view.locale}`);
      await page.context().close();
    }
  });

  it('draws the move navigation as icons named in the page’s language (item 3)', async () => {
    const names = {
      'en-GB': ['First move', 'Previous move', 'Next move', 'Last move'],
      'zh-CN': ['第一手', '上一手', '下一手', '最后一手'],
    };
    for (const view of [VIEWS[0], VIEWS[3]]) {
      const page = await viewer(view);
      for (const [path, selector] of [[`/game/${counted}`, '.nav-buttons [data-nav]'], [`/game/${counted}/analysis`, NAV_ACTIONS]]) {
        await page.goto(`${server.base}${path}`);
        await page.locator(selector).first().waitFor();
        const buttons = await page.locator(selector).evaluateAll((all) => all.map((b) => ({
          text: b.textContent.trim(),
          label: b.getAttribute('aria-label'),
          title: b.title,
          icon: b.querySelector('svg path') ? b.querySelector('svg').getBoundingClientRect().width : 0,
        })));
        assert.deepEqual(buttons.map((b) => b.label), names[view.locale], `${path}: the buttons' names`);
        for (const b of buttons) {
          assert.equal(b.text, '', `${path} ${b.label}: no glyph, which needs a font`);
          assert.equal(b.title, b.label, `${path} ${b.label}: its tooltip`);
          assert.ok(b.icon > 0, `${path} ${b.label}: an icon drawn`);
        }
      }
      // They work: the first position, then the last.
      await page.locator(NAV_ACTIONS).first().click();
      await page.locator('[data-move="0"]').waitFor();
      await page.locator(NAV_ACTIONS).nth(3).click();
      await page.locator('[data-move="22"]').waitFor();
      await page.context().close();
    }
  });

  it('disables Estimate in a rated game and says why; a casual game keeps it (item 4)', async () => {
    const rated = await startGame('eva', 'dan', { rated: true });
    const casual = await startGame('eva', 'dan', { rated: false });
    const reason = { 'en-GB': /not allowed in a rated game/, 'zh-CN': /计分/ };
    for (const view of VIEWS) {
      const page = await viewer(view, 'eva');
      await page.goto(`${server.base}/game/${rated}`);
      await page.locator('[data-role=estimate-note]').waitFor();
      // Read at one moment: the buttons are drawn again on each event.
      const seen = await page.evaluate(() => {
        const button = document.querySelector('[data-action=estimate]');
        const note = document.querySelector('[data-role=estimate-note]');
        note.scrollIntoView({ block: 'nearest' });
        const box = note.getBoundingClientRect();
        return {
          disabled: button.disabled, title: button.title, describedBy: button.getAttribute('aria-describedby'),
          id: note.id, text: note.innerText, left: box.left, right: box.right, bottom: box.bottom, height: box.height,
        };
      });
      const where = `${view.name} ${view.locale}`;
      assert.ok(seen.disabled, `${where}: disabled in a rated game`);
      assert.match(seen.text, reason[view.locale], `${where}: the reason shown`);
      assert.equal(seen.title, seen.text, `${where}: the reason is the tooltip`);
      assert.equal(seen.describedBy, seen.id, `${where}: the reason describes the button`);
      assert.ok(seen.height > 0 && seen.left >= 0 && seen.right <= view.viewport.width && seen.bottom <= view.viewport.height,
        `${where}: the reason within the screen: ${JSON.stringify(seen)}`);
      await screenshot(page, `layout-estimate-rated-${view.name}-${view.locale}`);

      await page.goto(`${server.base}/game/${casual}`);
      await page.locator('.status-line').waitFor();
      assert.ok(await page.locator('[data-action=estimate]').isEnabled(), `${view.name} ${view.locale}: enabled in a casual game`);
      assert.equal(await page.locator('[data-role=estimate-note]').count(), 0);
      await page.context().close();
    }
    for (const id of [rated, casual]) await send('eva', id, { type: 'resign' });
  });

  it('filters the game history on the profile: opponent, result, board, days (item 6)', async () => {
    // ben: won the counted game against ana (9×9); won against cal on
    // 13×13, lost to him on 9×9 (resignations after a move).
    resigned = await startGame('ben', 'cal', { size: 13 });
    await play(resigned, 'ben', 'cal', ['K10', 'D4', 'D10']);
    await send('cal', resigned, { type: 'resign' });
    const lost = await startGame('cal', 'ben');
    await play(lost, 'cal', 'ben', ['E5']);
    await send('ben', lost, { type: 'resign' });

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const empty = { 'en-GB': 'No finished game matches these filters.', 'zh-CN': '没有符合条件的对局。' };
    const noPlayer = { 'en-GB': 'No player by that name.', 'zh-CN': '没有该棋手。' };
    for (const view of VIEWS) {
      const page = await viewer(view);
      await page.goto(`${server.base}/player/ben`);
      const form = page.locator('form[data-role=game-filters]');
      await form.waitFor();
      const rows = page.locator('[data-role=recent-games] [data-game]');
      /** The games listed once the list shows `n` of them. */
      const listed = async (n) => {
        await page.waitForFunction((n) => document.querySelectorAll('[data-role=recent-games] [data-game]').length === n
          && Boolean(document.querySelector('[data-role=recent-games] [data-role=no-games]')) === (n === 0), n);
        return rows.evaluateAll((all) => all.map((r) => Number(r.dataset.game)).sort((a, b) => a - b));
      };
      assert.deepEqual(await listed(3), [counted, resigned, lost].sort((a, b) => a - b));

      await form.locator('input[name=opponent]').fill('cal');
      await form.locator('button[type=submit]').click();
      assert.deepEqual(await listed(2), [resigned, lost]);
      await form.locator('select[name=result]').selectOption('lost');
      assert.deepEqual(await listed(1), [lost]);
      await form.locator('button[type=reset]').click();
      await listed(3);
      await form.locator('select[name=result]').selectOption('won');
      assert.deepEqual(await listed(2), [counted, resigned]);
      await form.locator('select[name=size]').selectOption('13');
      assert.deepEqual(await listed(1), [resigned]);
      await form.locator('button[type=reset]').click();
      await form.locator('input[name=to]').fill(today);
      await listed(3);
      await form.locator('input[name=from]').fill(tomorrow);
      await listed(0);
      assert.equal(await page.locator('[data-role=no-games]').innerText(), empty[view.locale]);
      await fitsWidth(page, `${view.name} ${view.locale}: the profile with its filters`);
      await screenshot(page, `layout-profile-${view.name}-${view.locale}`);
      await form.locator('button[type=reset]').click();
      await listed(3);
      await form.locator('input[name=opponent]').fill('nobody');
      await form.locator('input[name=opponent]').press('Enter');
      await listed(0);
      assert.equal(await page.locator('[data-role=no-games]').innerText(), noPlayer[view.locale]);
      await page.context().close();
    }
  });

  it('offers the red last-move mark as a setting, kept in the browser (item 7)', async () => {
    const labels = { 'en-GB': ['Last move mark', 'Ring', 'Red square'], 'zh-CN': ['最后一手标记', '圆圈', '红色方块'] };
    for (const view of [VIEWS[0], VIEWS[3]]) {
      const page = await viewer(view);
      await page.goto(`${server.base}/game/${resigned}`);
      const mark = page.locator('.goban .marks [data-last=D10]');
      await mark.waitFor();
      assert.equal(await mark.evaluate((el) => el.tagName), 'circle', 'a ring by default');

      await page.click('[data-action=settings]');
      const choice = page.locator('dialog[open] [data-name=lastMove]');
      const setting = page.locator('dialog[open] .setting', { has: page.locator('[data-name=lastMove]') });
      assert.equal(await setting.locator('.label').innerText(), labels[view.locale][0]);
      assert.deepEqual(await choice.locator('button').allInnerTexts(), labels[view.locale].slice(1));
      await choice.locator('[data-value=red]').click();
      await page.keyboard.press('Escape');
      const red = page.locator('.goban .marks rect.last.red[data-last=D10]');
      await red.waitFor();
      // The board redraws as the setting is applied: read the fill of the
      // mark drawn last, giving the redraw up to 5 s to settle.
      const fill = () => red.evaluate((el) => getComputedStyle(el).fill);
      for (const started = Date.now(); await fill() !== 'rgb(224, 38, 27)' && Date.now() - started < 5_000;) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(await fill(), 'rgb(224, 38, 27)');
      const box = await red.boundingBox();
      const stone = await page.locator('.goban .stones [data-stone=D10]').boundingBox();
      assert.ok(box && stone && box.width > 3 && box.width < stone.width / 2, `a small square on the stone: ${box?.width} of ${stone?.width} px`);
      await screenshot(page, `layout-red-mark-${view.name}-${view.locale}`);

      await page.reload();
      await red.waitFor();
      await page.click('[data-action=settings]');
      await choice.locator('[data-value=ring]').click();
      await page.keyboard.press('Escape');
      await page.locator('.goban .marks circle.last[data-last=D10]').waitFor();
      await page.context().close();
    }
  });
});
