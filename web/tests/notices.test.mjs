// Chat and notices on the game page (issue 18): the chat beside the board
// on a wide screen, an unread count on the chat tab otherwise, notices that
// collapse repeats and stay off the board, Pass behind a confirmation (a
// setting) and not the first button, a message for a click out of turn,
// and the sign-up form's name refused with the server's reason, not cut.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, signUp, startServer, stoneAt } from './harness.mjs';

/** Whether two boxes overlap. */
const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('chat and notices on the game page', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let alice;
  /** @type {import('playwright-core').Page} */
  let bob;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    alice = await newPage(await newPlayerContext(browser, { viewport: { width: 1280, height: 900 } }), errors);
    bob = await newPage(await newPlayerContext(browser, { viewport: { width: 1600, height: 900 } }), errors);
    await signUp(alice, server.base, 'alice', '3k');
    await signUp(bob, server.base, 'bob', '3k');
    const request = (body) => ({ method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Shoutan-Request': '1' }, body: JSON.stringify(body) });
    const challenge = await alice.evaluate((r) => fetch('/api/challenges', r).then((x) => x.json()),
      request({ size: 9, color: 'black', rated: false, time_control: '10 min + 3×30s byo-yomi' }));
    const game = await bob.evaluate(([id, r]) => fetch(`/api/challenges/${id}/accept`, r).then((x) => x.json()),
      [challenge.id, request({})]);
    for (const p of [alice, bob]) {
      await p.goto(`${server.base}/game/${game.id}`);
      await p.locator('.goban').waitFor();
    }
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('shows the chat beside the board on a wide screen, in a tab otherwise', async () => {
    await bob.locator('[data-role=chat-column] input[name=chat]').waitFor();
    assert.equal(await bob.locator('[data-tab=chat]').count(), 0);
    assert.equal(await alice.locator('[data-role=chat-column]').count(), 0);
    await alice.locator('[data-tab=chat]').waitFor();
  });

  it('says so when a click is out of turn', async () => {
    await clickPoint(bob, 'E5');
    const notice = bob.locator('[data-role=notice][data-code=not_your_turn]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /not your turn/);
    await clickPoint(alice, 'E5');
    await stoneAt(bob, 'E5', 'black');
  });

  it('counts unread chat on the tab and collapses repeated notices beside the board', async () => {
    const input = bob.locator('[data-role=chat-column] input[name=chat]');
    for (let i = 0; i < 3; i++) {
      await input.fill('good luck');
      await input.press('Enter');
      await bob.locator('[data-role=chat-column] .chat-line', { hasText: 'good luck' }).nth(i).waitFor();
    }
    await alice.locator('[data-tab=chat] [data-role=unread]', { hasText: '3' }).waitFor();
    const toasts = alice.locator('.toast', { hasText: 'bob: good luck' });
    await alice.locator('.toast .toast-count', { hasText: '×3' }).waitFor();
    assert.equal(await toasts.count(), 1, 'one notice for the three lines');
    const board = await alice.locator('.goban').boundingBox();
    const box = await toasts.boundingBox();
    assert.ok(board && box && !overlaps(board, box), `the notice ${JSON.stringify(box)} is off the board ${JSON.stringify(board)}`);
    await alice.click('[data-tab=chat]');
    await alice.locator('[data-tab=chat] [data-role=unread]:empty').waitFor({ state: 'attached' });
    assert.equal(await alice.locator('.chat-line', { hasText: 'good luck' }).count(), 3);
  });

  it('asks before a pass, which is not the first button; the setting turns the question off', async () => {
    await clickPoint(bob, 'C3');
    await stoneAt(alice, 'C3', 'white');
    const first = alice.locator('[data-role=controls] button').first();
    assert.notEqual(await first.getAttribute('data-action'), 'pass');
    assert.equal(await alice.locator('[data-action=pass].primary').count(), 0, 'Pass is not the red button');
    await alice.click('[data-action=pass]');
    await alice.locator('[data-confirm=pass]').waitFor();
    await alice.click('[data-action=pass-no]');
    await alice.locator('[data-confirm=pass]').waitFor({ state: 'detached' });
    await alice.click('[data-action=pass]');
    await alice.click('[data-action=pass-yes]');
    const passed = bob.locator('.toast', { hasText: 'Black passes' });
    await passed.waitFor();
    const board = await bob.locator('.goban').boundingBox();
    const box = await passed.boundingBox();
    assert.ok(board && box && !overlaps(board, box), 'the pass notice is off the board');

    await bob.click('[data-action=settings]');
    await bob.locator('dialog[open] input[data-setting=confirmPass]').uncheck({ force: true });
    await bob.keyboard.press('Escape');
    await bob.click('[data-action=pass]:not([disabled])');
    await bob.locator('[data-role=count]').waitFor();
  });

  it('refuses a sign-up name with the server’s reason instead of cutting it', async () => {
    const page = await newPage(await newPlayerContext(browser), errors);
    await page.goto(`${server.base}/`);
    await page.click('[data-action=register]');
    const dialog = page.locator('dialog[open]');
    const long = 'a'.repeat(30);
    await dialog.locator('input[name=name]').fill(long);
    assert.equal(await dialog.locator('input[name=name]').inputValue(), long, 'not cut');
    await dialog.locator('input[name=password]').fill('correct horse battery');
    await dialog.locator('button[type=submit]').click();
    const error = dialog.locator('.form-error[data-code=bad_name]');
    await error.waitFor();
    assert.match(await error.innerText(), /2 to 24 characters/);
    await dialog.locator('input[name=name]').fill('   ');
    await dialog.locator('button[type=submit]').click();
    await dialog.locator('.form-error[data-code=bad_name]').waitFor();
    await dialog.locator('input[name=name]').fill('ev\u0007e');
    await dialog.locator('button[type=submit]').click();
    await dialog.locator('.form-error[data-code=control_character]').waitFor();
    await page.close();
  });
});
