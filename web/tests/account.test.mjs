// The account page in the browser: the sessions of a player logged in in
// two browsers and "log out everywhere else" (the other browser's next
// call is refused, and it shows itself logged out); a new password (the
// old one required; the other browser logged out, the old password no
// longer opens the account); the players blocked, undone from the list;
// a moderator's warning on every page until closed, and in the account's
// notices; the data download; a new password with the operator's one-time
// code from "Forgot password?"; deleting the account (refused while a
// game is live; then the name no longer logs in).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';

import {
  admin, apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, signUp, startServer,
} from './harness.mjs';

const FIRST = 'correct horse battery';
const SECOND = 'a second horse battery';
const THIRD = 'a third horse battery';

describe('the account page: sessions, password, blocks, notices, data, reset, deletion', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** erin's first browser. @type {import('playwright-core').Page} */
  let erin;
  /** erin's second browser. @type {import('playwright-core').Page} */
  let elsewhere;
  /** @type {import('playwright-core').Page} */
  let frank;
  const errors = [];

  /** Logs in through the dialog; `fails`: the dialog must refuse it. */
  async function logIn(page, name, password, { fails = false } = {}) {
    await page.goto(`${server.base}/`);
    await page.click('[data-action=login]');
    const dialog = page.locator('dialog[open]');
    await dialog.locator('input[name=name]').fill(name);
    await dialog.locator('input[name=password]').fill(password);
    await dialog.locator('button[type=submit]').click();
    if (fails) {
      await dialog.locator('.form-error:not([hidden])[data-code=bad_credentials]').waitFor();
      assert.equal(await page.locator(`[data-user="${name}"]`).count(), 0);
      await page.keyboard.press('Escape');
    } else {
      await page.locator(`[data-user="${name}"]`).waitFor();
    }
  }

  /** Shows `page` its account page from the header's link. */
  async function openAccount(page) {
    await page.click('[data-nav=account]');
    await page.waitForURL(/\/account$/);
  }

  /** Whether the server still knows `page`'s session: GET /api/session's status. */
  const sessionStatus = async (page) => (await apiFrom(page, 'GET', '/api/session')).status;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    erin = await newPage(await newPlayerContext(browser), errors);
    elsewhere = await newPage(await newPlayerContext(browser), errors);
    frank = await newPage(await newPlayerContext(browser), errors);
    await signUp(erin, server.base, 'erin', '2k');
    await signUp(frank, server.base, 'frank', '2k');
    await logIn(elsewhere, 'erin', FIRST);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('lists both sessions; "log out everywhere else" leaves one, and the other browser finds itself logged out', async () => {
    await erin.goto(`${server.base}/`);
    await openAccount(erin);
    const rows = erin.locator('[data-role=sessions] [data-role=session]');
    await rows.nth(1).waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await erin.locator('[data-role=session][data-current=true]').count(), 1);
    await screenshot(erin, 'account');
    await erin.click('[data-action=end-other-sessions]');
    await erin.locator('[data-role=sessions-result]:not([hidden])', { hasText: 'Sessions ended elsewhere: 1.' }).waitFor();
    await rows.nth(1).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 1);
    assert.equal(await rows.first().getAttribute('data-current'), 'true');
    assert.equal(await sessionStatus(erin), 200);

    // The other browser still shows erin until its next call, which is refused.
    await elsewhere.locator('[data-user=erin]').waitFor();
    await openAccount(elsewhere);
    await elsewhere.locator('[data-role=account-login]').waitFor();
    await elsewhere.locator('[data-action=login]').waitFor();
    assert.equal(await elsewhere.locator('[data-user=erin]').count(), 0);
    assert.equal(await sessionStatus(elsewhere), 401);
  });

  it('changes the password with the old one: the other browser is logged out, the old password opens nothing', async () => {
    await logIn(elsewhere, 'erin', FIRST);
    await erin.reload();
    const form = erin.locator('form[data-role=password-form]');
    await form.waitFor();
    // The old password is required.
    await form.locator('input[name=old]').fill('not the password');
    await form.locator('input[name=new]').fill(SECOND);
    await form.locator('input[name=repeat]').fill(SECOND);
    await form.locator('button[type=submit]').click();
    await form.locator('.form-error:not([hidden])[data-code=bad_credentials]', { hasText: 'not your current password' }).waitFor();
    assert.equal(await sessionStatus(elsewhere), 200, 'a refused change logs nobody out');
    // The new one twice, alike.
    await form.locator('input[name=old]').fill(FIRST);
    await form.locator('input[name=repeat]').fill(`${SECOND}!`);
    await form.locator('button[type=submit]').click();
    await form.locator('.form-error:not([hidden])[data-code=mismatch]').waitFor();
    await form.locator('input[name=repeat]').fill(SECOND);
    await form.locator('button[type=submit]').click();
    await form.locator('[data-role=password-done]:not([hidden])').waitFor();
    assert.equal(await form.locator('input[name=old]').inputValue(), '', 'the form is emptied');
    assert.equal(await sessionStatus(erin), 200, 'this browser stays logged in');
    await erin.locator('[data-role=sessions] [data-role=session]').first().waitFor();
    assert.equal(await erin.locator('[data-role=sessions] [data-role=session]').count(), 1);

    await elsewhere.locator('[data-user=erin]').waitFor();
    await openAccount(elsewhere);
    await elsewhere.locator('[data-role=account-login]').waitFor();
    assert.equal(await sessionStatus(elsewhere), 401);
    await logIn(elsewhere, 'erin', FIRST, { fails: true });
    await logIn(elsewhere, 'erin', SECOND);
  });

  it('lists the players blocked, and unblocks one from the list', async () => {
    assert.equal((await apiFrom(erin, 'PUT', '/api/me/relations/frank', { kind: 'block' })).status, 204);
    await erin.reload();
    const row = erin.locator('[data-role=relations] [data-player=frank]');
    await row.waitFor();
    assert.equal(await row.getAttribute('data-relation'), 'block');
    assert.match(await row.innerText(), /blocked/i);
    await row.locator('[data-action=clear-relation]').click();
    await row.waitFor({ state: 'detached' });
    await erin.locator('[data-role=relations] .empty', { hasText: 'You block or mute nobody.' }).waitFor();
    assert.deepEqual((await apiFrom(erin, 'GET', '/api/me/relations')).body, []);
  });

  it('shows a moderator’s warning on every page until it is closed, and keeps it in the account’s notices', async () => {
    admin(server, 'warn', 'erin', '--reason', 'Be kind to beginners');
    await erin.goto(`${server.base}/`);
    const banner = erin.locator('[data-role=standing] [data-kind=warning]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /A moderator warned you: Be kind to beginners/);
    await openAccount(erin);
    await banner.waitFor();
    const notice = erin.locator('[data-role=notices] [data-kind=warning]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /Be kind to beginners/);
    await screenshot(erin, 'account-notices');
    await banner.locator('[data-action=close-notice]').click();
    await banner.waitFor({ state: 'detached' });
    // Closed for good in this browser; still in the list.
    await erin.reload();
    await erin.locator('[data-role=standing][data-count="0"]').waitFor({ state: 'attached' });
    await notice.waitFor();
  });

  it('downloads the player’s data as a zip', async () => {
    const [download] = await Promise.all([erin.waitForEvent('download'), erin.click('[data-action=export]')]);
    assert.equal(download.suggestedFilename(), 'shoutan-data.zip');
    const zip = await readFile(await download.path());
    assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(zip.includes('profile.json'), 'the zip holds the profile');
  });

  it('sets a new password with the operator’s one-time code, from "Forgot password?"', async () => {
    const code = admin(server, 'reset-password', 'erin').trim();
    assert.ok(code.length >= 8, `a code: ${code}`);
    const guest = await newPage(await newPlayerContext(browser), errors);
    await guest.goto(`${server.base}/`);
    await guest.click('[data-action=login]');
    await guest.click('dialog[open] [data-action=forgot-password]');
    await guest.waitForURL(/\/password-reset$/);
    await guest.locator('dialog').waitFor({ state: 'detached' });
    const page = guest.locator('#main');
    await page.locator('input[name=code]').fill('not-a-code');
    await page.locator('input[name=password]').fill(THIRD);
    await page.locator('input[name=repeat]').fill(THIRD);
    await page.locator('form button[type=submit]').click();
    await page.locator('.form-error:not([hidden])[data-code=bad_code]', { hasText: 'ask the operator' }).waitFor();
    await page.locator('input[name=code]').fill(code);
    await page.locator('form button[type=submit]').click();
    await page.locator('[data-role=reset-done]:not([hidden])').waitFor();
    await screenshot(guest, 'password-reset');
    await page.locator('[data-role=reset-done] [data-action=login]').click();
    const dialog = guest.locator('dialog[open]');
    await dialog.locator('input[name=name]').fill('erin');
    await dialog.locator('input[name=password]').fill(THIRD);
    await dialog.locator('button[type=submit]').click();
    await guest.locator('[data-user=erin]').waitFor();
    // The code ended every other session.
    assert.equal(await sessionStatus(erin), 401);
    assert.equal(await sessionStatus(elsewhere), 401);
    await guest.close();
  });

  it('deletes the account: refused while a game is live, then the name logs in no more', async () => {
    await logIn(erin, 'erin', THIRD);
    const challenge = await apiFrom(erin, 'POST', '/api/challenges', { size: 9, color: 'black', rated: false, time_control: '10 min + 3×30s byo-yomi' });
    assert.equal(challenge.status, 201, JSON.stringify(challenge.body));
    const game = await apiFrom(frank, 'POST', `/api/challenges/${challenge.body.id}/accept`, {});
    assert.equal(game.status, 201, JSON.stringify(game.body));

    await openAccount(erin);
    const form = erin.locator('form[data-role=delete-form]');
    await form.locator('input[name=password]').fill(THIRD);
    await form.locator('button[type=submit]').click();
    await form.locator('.form-error:not([hidden])[data-code=games_in_play]', { hasText: 'Finish or resign' }).waitFor();
    assert.equal(await sessionStatus(erin), 200);

    // Erin resigns; the server no longer counts the game as live.
    await erin.goto(`${server.base}/game/${game.body.id}`);
    await erin.click('[data-action=resign]');
    await erin.click('[data-action=resign-yes]');
    await erin.locator('.result-banner').waitFor();
    await erin.waitForFunction(async () => (await (await fetch('/api/players/erin')).json()).live_games.length === 0, null, { polling: 100 });

    await openAccount(erin);
    await form.locator('input[name=password]').fill('not the password');
    await form.locator('button[type=submit]').click();
    await form.locator('.form-error:not([hidden])[data-code=bad_credentials]').waitFor();
    await form.locator('input[name=password]').fill(THIRD);
    await form.locator('button[type=submit]').click();
    await erin.waitForURL(`${server.base}/`);
    await erin.locator('.toast', { hasText: 'Your account was deleted.' }).waitFor();
    await erin.locator('[data-action=login]').waitFor();
    assert.equal(await sessionStatus(erin), 401);
    assert.equal((await apiFrom(erin, 'GET', '/api/players/erin')).status, 404);
    await logIn(erin, 'erin', THIRD, { fails: true });
  });
});
