// A tournament in real browsers (issue 9, "How it is proved"): an organiser
// creates a Swiss event with the form, two players register from the event
// page, the organiser pairs round 1, the players open their game from
// "your game", play and resign, the result enters the event by itself and
// the standings page shows it, with its wins and tie-break columns,
// without a reload: the lobby socket says the event changed (issue 20), and
// an idle event page asks the server nothing. The round's pairing and
// result sheets print with table numbers and result boxes. The pairings
// tab shows one round, the latest unless another is picked.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

describe('an event from creation to standings', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {Record<string, import('playwright-core').Page>} */
  const pages = {};
  let eventUrl = '';
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    for (const name of ['olga', 'alice', 'bob']) {
      pages[name] = await newPage(await newPlayerContext(browser), errors);
    }
    await signUp(pages.olga, server.base, 'olga', '2d');
    await signUp(pages.alice, server.base, 'alice', '3k');
    await signUp(pages.bob, server.base, 'bob', '5k');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('the organiser creates a Swiss event with the form; the events list shows it to others at once', async () => {
    const alice = pages.alice;
    await alice.click('a.nav-link[href="/events"]');
    await alice.locator('[data-role=events] .empty').waitFor();
    await alice.evaluate(() => { window.__sameDocument = true; });
    const olga = pages.olga;
    await olga.click('a.nav-link[href="/events"]');
    const form = olga.locator('form[data-role=create-event]');
    await form.waitFor();
    await form.locator('input[name=name]').fill('Club Swiss');
    await form.locator('select[name=system]').selectOption('swiss');
    await form.locator('input[name=rounds]').fill('2');
    await form.locator('select[name=size]').selectOption('9');
    await form.locator('input[name=time]').fill('10 min + 3×30s byo-yomi');
    await form.locator('input[name=tieBreaks]').fill('points sos sosos');
    await form.locator('input[name=rated]').uncheck();
    await form.locator('[data-action=create-event]').click();
    await olga.waitForURL(/\/events\/\d+$/);
    eventUrl = olga.url();
    await olga.locator('h1', { hasText: 'Club Swiss' }).waitFor();
    await olga.locator('[data-role=organiser] [data-action=start-round]').waitFor();
    await alice.locator('[data-role=events] a', { hasText: 'Club Swiss' }).waitFor();
    assert.equal(await alice.evaluate(() => window.__sameDocument), true, 'not reloaded');
  });

  it('players register from the event page and appear in the list', async () => {
    for (const name of ['alice', 'bob']) {
      const page = pages[name];
      await page.goto(eventUrl);
      await page.click('[data-action=register]');
      await page.locator('text=You are registered as player').waitFor();
    }
    const olga = pages.olga;
    await olga.click('[data-tab=players]');
    await olga.locator('[data-role=players] tbody tr', { hasText: 'bob' }).waitFor();
    assert.equal(await olga.locator('[data-role=players] tbody tr').count(), 2);
  });

  it('round 1 starts: the pairing is shown and each player sees his game', async () => {
    const olga = pages.olga;
    await olga.click('[data-tab=pairings]');
    await olga.click('[data-action=start-round]');
    await olga.locator('[data-role=pairings-1] tbody tr').waitFor();
    for (const name of ['alice', 'bob']) {
      const yours = pages[name].locator('[data-role=your-game]');
      await yours.waitFor({ timeout: 10_000 });
      assert.match(await yours.innerText(), /alice – bob|bob – alice/);
    }
  });

  it('an event page left alone asks the server nothing', async () => {
    const olga = pages.olga;
    let asked = [];
    const count = (r) => { if (/\/api\/events\//.test(r.url())) asked.push(r.url()); };
    olga.on('request', count);
    // The round's start is still being fetched on a busy machine (the
    // organiser's own reload and the push's): wait for one quiet second,
    // which a page polling more often than that never gives.
    const settledBy = Date.now() + 10_000;
    for (let before = -1; before !== asked.length;) {
      assert.ok(Date.now() < settledBy, `never quiet: ${asked.length} requests`);
      before = asked.length;
      await olga.waitForTimeout(1000);
    }
    asked = [];
    await olga.waitForTimeout(4000);
    olga.off('request', count);
    assert.deepEqual(asked, [], 'no polling');
  });

  it('the pairing sheet prints table numbers and empty result boxes', async () => {
    const olga = pages.olga;
    await olga.click('[data-round="1"] [data-sheet=pairings]');
    await olga.waitForURL(/\/events\/\d+\/rounds\/1\/pairings$/);
    const sheet = olga.locator('[data-role=sheet]');
    await sheet.waitFor();
    const cells = await sheet.locator('tbody tr').first().locator('td').allInnerTexts();
    assert.equal(cells[0], '1', 'table 1');
    assert.match(`${cells[1]} ${cells[3]}`, /alice bob|bob alice/);
    assert.equal(await sheet.locator('.result-box').count(), 1);
    await olga.emulateMedia({ media: 'print' });
    assert.equal(await olga.locator('#top').isVisible(), false, 'no site header on paper');
    assert.equal(await olga.locator('[data-action=print]').isVisible(), false);
    assert.equal(await sheet.isVisible(), true);
    await screenshot(olga, 'event-pairing-sheet');
    await olga.emulateMedia({ media: 'screen' });
    await olga.goBack();
    await olga.locator('[data-role=organiser]').waitFor();
  });

  it('the game is played to a resignation and the standings show it without a reload', async () => {
    const olga = pages.olga;
    await olga.click('[data-tab=standings]');
    await olga.locator('[data-role=standings-caption]', { hasText: 'results so far' }).waitFor();
    await olga.evaluate(() => { window.__sameDocument = true; });
    // What the page fetches of the event when the result is pushed: the
    // event's head (not its players and rounds) and the table shown, not
    // every table; the standings at the version the notice told, which the
    // server serves from its cache.
    const fetched = [];
    const versions = [];
    const note = (r) => {
      const url = new URL(r.url());
      const m = /^\/api\/events\/\d+(\/.*)?$/.exec(url.pathname);
      if (m) fetched.push(m[1] ?? '');
      if (m?.[1] === '/standings/current') versions.push(url.searchParams.get('version'));
    };
    olga.on('request', note);
    for (const name of ['alice', 'bob']) {
      await pages[name].locator('[data-role=your-game] a').click();
      await pages[name].waitForURL(/\/game\/\d+$/);
    }
    const black = (await seatOf(pages.alice)) === 'black' ? pages.alice : pages.bob;
    const white = black === pages.alice ? pages.bob : pages.alice;
    const blackName = black === pages.alice ? 'alice' : 'bob';
    // As a player does: play once the page says it is your turn.
    await black.locator('.status-line.your-turn').waitFor();
    await clickPoint(black, 'E5');
    await stoneAt(white, 'E5', 'black');
    await clickPoint(white, 'C3');
    await stoneAt(black, 'C3', 'white');
    await white.click('[data-action=resign]');
    await white.click('[data-action=resign-yes]');
    await black.locator('.result-banner').waitFor();

    // The standings on olga's screen change by themselves.
    await olga.locator('[data-role=standings-caption]', { hasText: /^Round 1$/ }).waitFor({ timeout: 10_000 });
    assert.equal(await olga.evaluate(() => window.__sameDocument), true, 'not reloaded');
    olga.off('request', note);
    assert.ok(fetched.includes('/head') && fetched.includes('/standings/current'), fetched.join(' '));
    assert.deepEqual(fetched.filter((path) => !['/head', '/standings/current'].includes(path)), [], 'only the head and the table shown');
    assert.ok(versions.some((v) => Number(v) > 0), `at a told version: ${versions.join(' ')}`);
    const table = olga.locator('[data-role=standings]');
    const headers = await table.locator('th').allInnerTexts();
    assert.deepEqual(headers.slice(2), ['Wins', 'Points', 'SOS', 'SOSOS']);
    const rows = table.locator('tbody tr');
    assert.equal(await rows.count(), 2);
    const first = await rows.nth(0).locator('td').allInnerTexts();
    assert.equal(first[0], '1');
    assert.equal(first[1], blackName, 'the winner leads');
    assert.equal(first[2], '1', 'one win');
    assert.equal(first[3], '2', 'two points for the win');
    const second = await rows.nth(1).locator('td').allInnerTexts();
    assert.deepEqual(second.slice(0, 4), ['2', black === pages.alice ? 'bob' : 'alice', '0', '0']);
    await screenshot(olga, 'event-standings');
    await olga.click('[data-tab=pairings]');
    await olga.locator('[data-role=pairings-1] td[data-result]', { hasText: 'B+' }).waitFor();

    // The crosstable: the round's cell, then places, wins and totals.
    await olga.click('[data-tab=crosstable]');
    const cross = olga.locator('[data-role=crosstable]');
    await cross.locator('tbody tr').first().waitFor();
    assert.deepEqual(await cross.locator('th').allInnerTexts(), ['Place', 'Name', '1', 'Wins', 'Points', 'SOS', 'SOSOS']);
    const top = await cross.locator('tbody tr').first().locator('td').allInnerTexts();
    assert.deepEqual([top[0], top[1], top[2], top[3], top[4]], ['1', blackName, '2+/b', '1', '2']);

    // The result sheet has the result.
    await olga.goto(`${eventUrl}/rounds/1/results`);
    const sheet = olga.locator('[data-role=sheet]');
    await sheet.waitFor();
    assert.equal(await sheet.locator('td.result').innerText(), 'B+');
    assert.equal(await sheet.locator('.result-box').count(), 0);
    await olga.goto(eventUrl);
    await olga.locator('[data-role=organiser]').waitFor();
    await olga.click('[data-tab=exports]');
    const links = await olga.locator('[data-role=exports] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.equal(links.length, 4);
    const trf = await olga.evaluate(async (href) => (await fetch(href)).text(), links[2]);
    assert.match(trf, /alice/);
  });

  it('the pairings tab shows the latest round, and the others at a click', async () => {
    const olga = pages.olga;
    const alice = pages.alice;
    await alice.goto(eventUrl);
    await alice.locator('[data-role=pairings-1]').waitFor();
    await olga.click('[data-tab=pairings]');
    await olga.click('[data-action=start-round]');
    await olga.locator('[data-role=pairings-2] tbody tr').waitFor();
    // A watcher's page turns to the new round by itself.
    await alice.locator('[data-role=pairings-2] tbody tr').waitFor({ timeout: 10_000 });
    assert.equal(await alice.locator('[data-role=pairings-1]').count(), 0, 'one round at a time');
    const picker = alice.locator('[data-role=round-picker]');
    assert.deepEqual(await picker.locator('button').allInnerTexts(), ['Round 1', 'Round 2']);
    await picker.locator('[data-pick="1"]').click();
    await alice.locator('[data-role=pairings-1] td[data-result]', { hasText: 'B+' }).waitFor();
    assert.equal(await picker.locator('[data-pick="1"]').getAttribute('aria-pressed'), 'true');
    await picker.locator('[data-pick="2"]').click();
    await alice.locator('[data-role=pairings-2] tbody tr').waitFor();
  });
});
