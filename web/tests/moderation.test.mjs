// Moderation in the browser: a player reports another's chat line from the
// game page; a moderator (granted with `shoutan admin grant`) reads the
// report on the moderators' page with the chat around the line, and mutes
// the writer for 60 minutes with a reason; the muted player sees the
// notice on every page, and his next chat line is refused with the reason,
// in the chat; the moderator lifts the mute from the audit log. Then a
// player's own tools: a mute hides the other's chat on the game page (the
// server sends it to everyone), a block refuses his challenge.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  admin, apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, signUp, startServer,
} from './harness.mjs';

/** A viewport wide enough for the chat beside the board. */
const WIDE = { viewport: { width: 1600, height: 900 } };

describe('reports, the moderators’ page, mutes, blocks', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let alice;
  /** @type {import('playwright-core').Page} */
  let bob;
  /** @type {import('playwright-core').Page} */
  let mona;
  let gameId;
  /** The version of the chat line bob reports. */
  let reportedV;
  const errors = [];

  /** Writes a chat line in the chat beside the board of `page`'s game page and sends it. */
  async function say(page, text) {
    const input = page.locator('[data-role=chat-column] input[name=chat]');
    await input.fill(text);
    await input.press('Enter');
  }

  const gameUrl = () => `${server.base}/game/${gameId}`;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    alice = await newPage(await newPlayerContext(browser, WIDE), errors);
    bob = await newPage(await newPlayerContext(browser, WIDE), errors);
    mona = await newPage(await newPlayerContext(browser, WIDE), errors);
    await signUp(alice, server.base, 'alice', '3k');
    await signUp(bob, server.base, 'bob', '3k');
    await signUp(mona, server.base, 'mona', '1d');
    const challenge = await apiFrom(alice, 'POST', '/api/challenges', { size: 9, color: 'black', rated: false, time_control: '10 min + 3×30s byo-yomi' });
    assert.equal(challenge.status, 201, JSON.stringify(challenge.body));
    const game = await apiFrom(bob, 'POST', `/api/challenges/${challenge.body.id}/accept`, {});
    assert.equal(game.status, 201, JSON.stringify(game.body));
    gameId = game.body.id;
    for (const p of [alice, bob]) {
      await p.goto(gameUrl());
      await p.locator('[data-role=chat-column] input[name=chat]').waitFor();
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('bob reports alice’s chat line from the game page, with the game and the line', async () => {
    await say(bob, 'good luck');
    await alice.locator('.chat-line[data-name=bob]', { hasText: 'good luck' }).waitFor();
    await say(alice, 'you play like a beginner, idiot');
    const line = bob.locator('.chat-line[data-name=alice]', { hasText: 'idiot' });
    await line.waitFor();
    // The line carries its version in the game's log.
    reportedV = Number(await line.getAttribute('data-v'));
    const log = await apiFrom(bob, 'GET', `/api/games/${gameId}/events`);
    const logged = log.body.find((e) => e.event.type === 'chat' && /idiot/.test(e.event.text));
    assert.equal(reportedV, logged.v);
    // One's own lines have nothing to report.
    assert.equal(await bob.locator('.chat-line[data-name=bob] [data-action=report-line]').count(), 0);

    await line.locator('[data-action=report-line]').click();
    const dialog = bob.locator('dialog[open]');
    await dialog.locator('[data-role=reported-line]', { hasText: 'idiot' }).waitFor();
    assert.equal(await dialog.locator('form').getAttribute('data-player'), 'alice');
    assert.equal(await dialog.locator('select[name=reason]').inputValue(), 'abuse');
    await dialog.locator('textarea[name=text]').fill('Insulted me in the chat');
    await dialog.locator('button[type=submit]').click();
    await bob.locator('.toast', { hasText: 'Report sent' }).waitFor();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the moderators’ page is only for moderators; a granted moderator sees the report with the chat around the line', async () => {
    await mona.goto(`${server.base}/moderation`);
    await mona.locator('[data-role=not-moderator]', { hasText: 'Only moderators' }).waitFor();
    assert.equal(await mona.locator('[data-nav=moderation]').count(), 0);

    admin(server, 'grant', 'mona', 'moderator');
    await mona.goto(`${server.base}/`);
    await mona.click('[data-nav=moderation]');
    await mona.waitForURL(/\/moderation$/);
    const report = mona.locator('[data-report][data-player=alice]');
    await report.waitFor();
    assert.equal(await report.getAttribute('data-open'), 'true');
    const text = await report.innerText();
    assert.match(text, /reported by bob/);
    assert.equal(await report.locator('[data-reason]').getAttribute('data-reason'), 'abuse');
    assert.match(text, /Abuse or insults/i);
    assert.match(await report.locator('[data-role=report-text]').innerText(), /Insulted me in the chat/);
    // The context: the lines around the reported one, that one marked.
    const context = await report.locator('[data-role=context] .chat-line').evaluateAll((lines) => lines.map((l) => ({
      name: l.dataset.name, text: l.querySelector('.chat-text').textContent, reported: l.classList.contains('reported'), v: Number(l.dataset.v),
    })));
    assert.deepEqual(context.map((l) => [l.name, l.text, l.reported]), [
      ['bob', 'good luck', false],
      ['alice', 'you play like a beginner, idiot', true],
    ]);
    assert.equal(context[1].v, reportedV);
    assert.equal(await report.locator('[data-role=report-game]').getAttribute('href'), `/game/${gameId}`);
    assert.equal(await report.locator('[data-role=report-sgf]').getAttribute('href'), `/api/games/${gameId}/sgf`);
    // Alice is not a moderator: no link for her.
    assert.equal(await alice.locator('[data-nav=moderation]').count(), 0);
    await screenshot(mona, 'moderation-queue');
  });

  it('the moderator mutes alice for 60 minutes with a reason; the report closes, the audit log shows it', async () => {
    const report = mona.locator('[data-report][data-player=alice]');
    await report.locator('[data-act=mute]').click();
    const dialog = mona.locator('dialog[open]');
    assert.equal(await dialog.locator('input[name=minutes]').inputValue(), '60');
    // No reason, no action.
    await dialog.locator('button[type=submit]').click();
    await dialog.locator('.form-error:not([hidden])', { hasText: 'Say why' }).waitFor();
    await dialog.locator('textarea[name=reason]').fill('Insults in the chat');
    await dialog.locator('button[type=submit]').click();
    await dialog.waitFor({ state: 'detached' });
    // Answered: no longer in the open queue.
    await report.waitFor({ state: 'detached' });
    const row = mona.locator('[data-role=audit-log] tr[data-kind=mute][data-player=alice]');
    await row.waitFor();
    assert.equal(await row.getAttribute('data-holds'), 'true');
    assert.match(await row.innerText(), /Insults in the chat/);
    assert.match(await row.innerText(), /mona/);
    const { body: actions } = await apiFrom(mona, 'GET', '/api/moderation/actions?player=alice');
    assert.equal(actions.length, 1);
    assert.equal(actions[0].kind, 'mute');
    assert.equal(actions[0].until - actions[0].at, 60 * 60_000);
    assert.equal(actions[0].by, 'mona');
    assert.ok(actions[0].report, 'the action answers the report');
    // The closed report, shown on asking, says how it was closed.
    await mona.locator('input[name=all]').check();
    const closed = mona.locator(`[data-report="${actions[0].report}"][data-open=false]`);
    await closed.waitFor();
    assert.match(await closed.locator('[data-role=resolution]').innerText(), /mute/i);
    await screenshot(mona, 'moderation-audit-log');
  });

  it('alice sees the mute on every page, and her next chat line is refused with the reason', async () => {
    await alice.reload();
    const banner = alice.locator('[data-role=standing] [data-kind=mute]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /Your chat is muted until .+: Insults in the chat/);
    await alice.locator('[data-role=chat-column] input[name=chat]').waitFor();
    await say(alice, 'sorry about that');
    const refusal = alice.locator('[data-role=chat-error][data-code=muted]');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /muted your chat until .+: Insults in the chat/);
    // Refused by the server: not in the game's log, not on either page.
    const log = await apiFrom(alice, 'GET', `/api/games/${gameId}/events`);
    assert.ok(!log.body.some((e) => e.event.type === 'chat' && /sorry/.test(e.event.text)), 'the line is not in the log');
    assert.equal(await alice.locator('.chat-line', { hasText: 'sorry' }).count(), 0);
    assert.equal(await bob.locator('.chat-line', { hasText: 'sorry' }).count(), 0);
    await screenshot(alice, 'muted-game-page');
    // Another page: the same notice; the account page lists it as in force.
    await alice.goto(`${server.base}/`);
    await alice.locator('[data-role=standing] [data-kind=mute]', { hasText: 'Insults in the chat' }).waitFor();
    await alice.click('[data-nav=account]');
    const notice = alice.locator('[data-role=notices] [data-kind=mute]');
    await notice.waitFor();
    assert.equal(await notice.getAttribute('data-holds'), 'true');
    assert.match(await notice.innerText(), /Insults in the chat/);
    // A mute cannot be closed by the player.
    assert.equal(await alice.locator('[data-role=standing] [data-kind=mute] [data-action=close-notice]').count(), 0);
  });

  it('the moderator lifts the mute from the audit log: the notice goes, alice chats again', async () => {
    const row = mona.locator('[data-role=audit-log] tr[data-kind=mute][data-player=alice]');
    await row.locator('[data-action=lift]').click();
    await mona.locator('[data-role=audit-log] tr[data-kind=mute][data-player=alice][data-holds=false]').waitFor();
    assert.match(await row.locator('[data-role=state]').innerText(), /lifted/);
    assert.equal(await row.locator('[data-action=lift]').count(), 0);

    await alice.goto(gameUrl());
    // The notices were asked again for this page: none holds now.
    await alice.locator('[data-role=standing][data-count="0"]').waitFor({ state: 'attached' });
    assert.equal(await alice.locator('[data-role=standing] [data-kind=mute]').count(), 0);
    await alice.locator('[data-role=chat-column] input[name=chat]').waitFor();
    await say(alice, 'sorry, well played so far');
    await bob.locator('.chat-line[data-name=alice]', { hasText: 'sorry, well played' }).waitFor();
    assert.equal(await alice.locator('[data-role=chat-error]:not([hidden])').count(), 0);
  });

  it('alice mutes bob from his profile: his chat is hidden on her game page, and shown again when she unmutes him', async () => {
    await alice.goto(`${server.base}/player/bob`);
    await alice.click('[data-role=relation] [data-action=mute]');
    await alice.locator('[data-role=relation][data-relation=mute]').waitFor();
    assert.deepEqual((await apiFrom(alice, 'GET', '/api/me/relations')).body, [{ player: 'bob', kind: 'mute' }]);

    await alice.goto(gameUrl());
    // Bob's line is hidden from the first drawing; alice's own are there.
    await alice.locator('[data-role=chat-hidden][data-count="1"]').waitFor();
    assert.equal(await alice.locator('.chat-line[data-name=bob]').count(), 0);
    assert.equal(await alice.locator('.chat-line[data-name=alice]').count(), 2);
    // A new line of his arrives (the count of hidden lines grows) and stays out of sight.
    await say(bob, 'are you still there?');
    await bob.locator('.chat-line[data-name=bob]', { hasText: 'still there' }).waitFor();
    await alice.locator('[data-role=chat-hidden][data-count="2"]').waitFor();
    assert.equal(await alice.locator('.chat-line', { hasText: 'still there' }).count(), 0);
    assert.equal(await alice.locator('.toast', { hasText: 'still there' }).count(), 0);
    await screenshot(alice, 'chat-muted-player-hidden');

    await alice.goto(`${server.base}/player/bob`);
    await alice.click('[data-role=relation] [data-action=mute]');
    await alice.locator('[data-role=relation][data-relation=none]').waitFor();
    await alice.goto(gameUrl());
    await alice.locator('.chat-line[data-name=bob]', { hasText: 'still there' }).waitFor();
    assert.equal(await alice.locator('.chat-line[data-name=bob]').count(), 2);
    assert.equal(await alice.locator('[data-role=chat-hidden]').count(), 0);
  });

  it('alice blocks bob from his profile: his challenge to her is refused with the reason, and his chat is hidden', async () => {
    await alice.goto(`${server.base}/player/bob`);
    await alice.click('[data-role=relation] [data-action=block]');
    await alice.locator('[data-role=relation][data-relation=block]').waitFor();
    assert.equal(await alice.locator('[data-role=relation] [data-action=block]').innerText(), 'Unblock');
    await screenshot(alice, 'profile-blocked');

    await bob.goto(`${server.base}/player/alice`);
    await bob.click('[data-action=challenge]');
    const form = bob.locator('dialog[open] form');
    assert.equal(await form.locator('input[name=opponent]').inputValue(), 'alice');
    await form.locator('[data-name=size] [data-value="9"]').click();
    await form.locator('input[name=rated]').uncheck();
    await form.locator('button[type=submit]').click();
    const refusal = form.locator('.form-error:not([hidden])');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /blocked the other/);
    // Nothing was offered.
    const { body: open } = await apiFrom(bob, 'GET', '/api/challenges');
    assert.equal(open.filter((c) => c.challenger === 'bob').length, 0);
    await screenshot(bob, 'challenge-blocked');

    await alice.goto(gameUrl());
    await alice.locator('[data-role=chat-hidden][data-count="2"]').waitFor();
    assert.equal(await alice.locator('.chat-line[data-name=bob]').count(), 0);
  });

  it('a report from a profile names no game; acting on a moderator is refused with the reason; a dismissal closes it', async () => {
    await alice.goto(`${server.base}/player/mona`);
    await alice.click('[data-action=report]');
    const dialog = alice.locator('dialog[open]');
    assert.equal(await dialog.locator('[data-role=reported-line]').count(), 0);
    await dialog.locator('select[name=reason]').selectOption('other');
    await dialog.locator('textarea[name=text]').fill('She muted me');
    await dialog.locator('button[type=submit]').click();
    await alice.locator('.toast', { hasText: 'Report sent' }).waitFor();

    await mona.goto(`${server.base}/moderation`);
    const report = mona.locator('[data-report][data-player=mona][data-open=true]');
    await report.waitFor();
    assert.equal(await report.locator('[data-role=context]').count(), 0, 'no game, no chat');
    assert.equal(await report.locator('[data-act=annulment]').count(), 0, 'no game to annul');
    await report.locator('[data-act=warning]').click();
    const warn = mona.locator('dialog[open]');
    await warn.locator('textarea[name=reason]').fill('Reporting in bad faith');
    await warn.locator('button[type=submit]').click();
    await warn.locator('.form-error:not([hidden])[data-code=protected]', { hasText: 'only the operator' }).waitFor();
    await mona.keyboard.press('Escape');
    await warn.waitFor({ state: 'detached' });

    await report.locator('[data-act=dismiss]').click();
    const dismiss = mona.locator('dialog[open]');
    await dismiss.locator('textarea[name=reason]').fill('A moderator’s mute is no abuse');
    await dismiss.locator('button[type=submit]').click();
    await report.waitFor({ state: 'detached' });
    await mona.locator('[data-role=reports] .empty', { hasText: 'No open reports.' }).waitFor();
    const { body: all } = await apiFrom(mona, 'GET', '/api/moderation/reports?all=true');
    const closed = all.find((r) => r.player === 'mona');
    assert.ok(closed.closed_at, 'closed');
    assert.equal(closed.resolution, 'A moderator’s mute is no abuse');
    assert.equal(closed.game, null);
    // Nothing was recorded against mona.
    assert.deepEqual((await apiFrom(mona, 'GET', '/api/moderation/actions?player=mona')).body, []);
  });
});
