// A team event in real browsers (issue 20): the organiser creates a team
// event with line-ups per match (临场出人制) with the form, four players
// register from the event page, the organiser makes two teams with the
// team form, pairs round 1, names the Tigers' line-up for the match with
// the line-up form (the boards it changes get new games), the four games
// are played from "your game", and the match is in the standings.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, seatOf, signUp, startServer, stoneAt,
} from './harness.mjs';

const DRAGONS = ['ann', 'bob'];
const TIGERS = ['cai', 'dee'];

describe('a two-team match from the forms', needsChromium(), () => {
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
    for (const name of ['olga', ...DRAGONS, ...TIGERS]) {
      pages[name] = await newPage(await newPlayerContext(browser), errors);
      await signUp(pages[name], server.base, name, '3k');
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('the organiser creates a team event with the form', async () => {
    const olga = pages.olga;
    await olga.click('a.nav-link[href="/events"]');
    const form = olga.locator('form[data-role=create-event]');
    await form.waitFor();
    await form.locator('input[name=name]').fill('Club teams');
    await form.locator('select[name=system]').selectOption('round_robin');
    await form.locator('select[name=size]').selectOption('9');
    await form.locator('select[name=teams]').selectOption('per_match');
    await form.locator('input[name=boards]').fill('2');
    await form.locator('input[name=rated]').uncheck();
    await form.locator('[data-action=create-event]').click();
    await olga.waitForURL(/\/events\/\d+$/);
    eventUrl = olga.url();
    await olga.locator('[data-tab=teams]').waitFor();
  });

  it('the players register and the organiser makes two teams', async () => {
    for (const name of [...DRAGONS, ...TIGERS]) {
      await pages[name].goto(eventUrl);
      await pages[name].click('[data-action=register]');
      await pages[name].locator('text=You are registered as player').waitFor();
    }
    const olga = pages.olga;
    await olga.click('[data-tab=teams]');
    const form = olga.locator('form[data-role=add-team]');
    for (const [team, members] of [['Dragons', DRAGONS], ['Tigers', TIGERS]]) {
      await form.locator('input[name=team-name]').fill(team);
      await form.locator('input[name=team-members]').fill(members.join(', '));
      await form.locator('[data-action=add-team]').click();
      await olga.locator('[data-role=teams] tbody tr', { hasText: team }).waitFor();
    }
    // Cell by cell: a live update may re-render the tab while it is read, and
    // innerText runs the cells together in a panel not laid out.
    const rows = await olga.locator('[data-role=teams] tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent).join(' ')));
    assert.match(rows[0], /Dragons\s+ann, bob/);
    assert.match(rows[1], /Tigers\s+cai, dee/);
    // A name that is not in the event is named back.
    await form.locator('input[name=team-name]').fill('Ghosts');
    await form.locator('input[name=team-members]').fill('ann, nobody');
    await form.locator('[data-action=add-team]').click();
    await olga.locator('.toast', { hasText: 'No player named nobody' }).waitFor();
  });

  it('round 1 pairs the match and the Tigers’ line-up is named for it', async () => {
    const olga = pages.olga;
    await olga.click('[data-tab=pairings]');
    await olga.click('[data-action=start-round]');
    const match = olga.locator('[data-role=pairings-1-1]');
    await match.locator('tbody tr').nth(1).waitFor();
    const boardOf = async (name) => (await match.locator('tbody tr', { hasText: name }).locator('td').first().innerText());
    assert.equal(await boardOf('cai'), '1', 'the registered order first');
    const lineup = olga.locator('[data-role=lineup-1-2]');
    await lineup.locator('select[name=board-1]').selectOption({ label: 'dee' });
    await lineup.locator('select[name=board-2]').selectOption({ label: 'cai' });
    await lineup.locator('[data-action=set-lineup]').click();
    await olga.waitForFunction(() => {
      const row = [...document.querySelectorAll('[data-role=pairings-1-1] tbody tr')].find((tr) => tr.innerText.includes('dee'));
      return row?.querySelector('td')?.innerText === '1';
    });
    await screenshot(olga, 'event-team-match');
  });

  it('the four players play their boards and the match is in the standings', async () => {
    // Each player opens his game; the Tigers resign after Black's first move.
    // The line-up just set re-paired the boards: a page still showing the
    // game paired before it names the other opponent, so wait for this one.
    const opponents = { ann: 'dee', dee: 'ann', bob: 'cai', cai: 'bob' };
    for (const name of [...DRAGONS, ...TIGERS]) {
      const yours = pages[name].locator('[data-role=your-game]', { hasText: opponents[name] }).locator('a');
      await yours.waitFor({ timeout: 10_000 });
      await yours.click();
      await pages[name].waitForURL(/\/game\/\d+$/);
      // The Dragons open first: the game waits for the Tiger to sit down
      // (Art. 22), and says so rather than "your turn".
      if (DRAGONS.includes(name)) {
        await pages[name].locator('[data-role=awaiting]', { hasText: `Waiting for ${opponents[name]} to sit down` }).waitFor();
        assert.equal(await pages[name].locator('.status-line.your-turn').count(), 0, `${name} may not move yet`);
        await clickPoint(pages[name], 'A1');
        await pages[name].locator('[data-role=notice][data-code=not_started]', { hasText: 'The game has not started' }).waitFor();
        assert.equal(await pages[name].locator('.goban .stones [data-stone]').count(), 0, 'no stone played');
      }
    }
    for (const [dragon, tiger] of [['ann', 'dee'], ['bob', 'cai']]) {
      const d = pages[dragon];
      const t = pages[tiger];
      const black = (await seatOf(d)) === 'black' ? d : t;
      const white = black === d ? t : d;
      // As a player does: play once the page says it is your turn (a click
      // before the game's socket has brought it live plays nothing, and
      // none is taken before both players have sat down).
      await black.locator('.status-line.your-turn').waitFor();
      await clickPoint(black, 'E5');
      await stoneAt(white, 'E5', 'black');
      await t.click('[data-action=resign]');
      await t.click('[data-action=resign-yes]');
      await d.locator('.result-banner').waitFor();
    }
    const olga = pages.olga;
    const match = olga.locator('[data-role=pairings-1-1]');
    await match.locator('td[data-result]', { hasText: '+' }).nth(1).waitFor({ timeout: 10_000 });
    await olga.click('[data-tab=standings]');
    const table = olga.locator('[data-role=standings]');
    await table.locator('tbody tr').first().waitFor();
    const first = await table.locator('tbody tr').nth(0).locator('td').allInnerTexts();
    const second = await table.locator('tbody tr').nth(1).locator('td').allInnerTexts();
    assert.deepEqual(first.slice(0, 4), ['1', 'Dragons', '1', '2'], 'the match won, two match points');
    assert.deepEqual(second.slice(0, 4), ['2', 'Tigers', '0', '0']);
  });

  it('the event page and its sheets fit a 360 px phone', async () => {
    const olga = pages.olga;
    await olga.setViewportSize({ width: 360, height: 740 });
    const overflow = () => olga.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    for (const tab of ['teams', 'pairings', 'standings', 'crosstable']) {
      await olga.click(`[data-tab=${tab}]`);
      await olga.locator('.events .card').first().waitFor();
      assert.equal(await overflow(), 0, `the ${tab} tab scrolls inside its tables, not the page`);
    }
    await olga.click('[data-tab=pairings]');
    await olga.click('[data-round="1"] [data-sheet=pairings]');
    await olga.locator('[data-role=sheet]').waitFor();
    assert.equal(await olga.locator('[data-role=sheet] tbody tr').count(), 2, 'two boards');
    assert.equal(await overflow(), 0, 'the sheet fits');
    await screenshot(olga, 'event-team-sheet-phone');
  });
});
