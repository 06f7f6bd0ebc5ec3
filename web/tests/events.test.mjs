// A tournament in real browsers (issue 9, "How it is proved"): an organiser
// creates a Swiss event with the form, two players register from the event
// page, the organiser pairs round 1, the players open their game from
// "your game", play and resign, the result enters the event by itself and
// the standings page shows it, with its tie-break columns.

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

  it('the organiser creates a Swiss event with the form', async () => {
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

  it('the game is played to a resignation and the standings show it', async () => {
    for (const name of ['alice', 'bob']) {
      await pages[name].locator('[data-role=your-game] a').click();
      await pages[name].waitForURL(/\/game\/\d+$/);
    }
    const black = (await seatOf(pages.alice)) === 'black' ? pages.alice : pages.bob;
    const white = black === pages.alice ? pages.bob : pages.alice;
    const blackName = black === pages.alice ? 'alice' : 'bob';
    await clickPoint(black, 'E5');
    await stoneAt(white, 'E5', 'black');
    await clickPoint(white, 'C3');
    await stoneAt(black, 'C3', 'white');
    await white.click('[data-action=resign]');
    await white.click('[data-action=resign-yes]');
    await black.locator('.result-banner').waitFor();

    const olga = pages.olga;
    await olga.locator('[data-role=pairings-1] td[data-result]', { hasText: 'B+' }).waitFor({ timeout: 10_000 });
    await olga.click('[data-tab=standings]');
    const table = olga.locator('[data-role=standings]');
    await table.waitFor({ timeout: 10_000 });
    const headers = await table.locator('th').allInnerTexts();
    assert.deepEqual(headers.slice(2), ['POINTS', 'SOS', 'SOSOS']);
    const rows = table.locator('tbody tr');
    assert.equal(await rows.count(), 2);
    const first = await rows.nth(0).locator('td').allInnerTexts();
    assert.equal(first[0], '1');
    assert.equal(first[1], blackName, 'the winner leads');
    assert.equal(first[2], '2', 'two points for the win');
    const second = await rows.nth(1).locator('td').allInnerTexts();
    assert.equal(second[2], '0');
    await screenshot(olga, 'event-standings');

    // The crosstable and the downloads are there too.
    await olga.click('[data-tab=crosstable]');
    await olga.locator('[data-role=crosstable] tbody tr').first().waitFor();
    await olga.click('[data-tab=exports]');
    const links = await olga.locator('[data-role=exports] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.equal(links.length, 4);
    const trf = await olga.evaluate(async (href) => (await fetch(href)).text(), links[2]);
    assert.match(trf, /alice/);
  });
});
