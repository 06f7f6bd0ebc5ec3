// The analysis board and the AI review in a real browser (issue #19, "How
// it is proved"): a record uploaded, a variation added, deleted, added
// again with a comment and downloaded in the SGF; a finished game and an
// uploaded record reviewed with one click, and the win-rate graph clicked
// to go to a move.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';

import {
  clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, signUp, startServer, stoneAt, wsCommands,
} from './harness.mjs';

/** A short 9×9 record: B E5, W C7, B G3, W C3. */
const RECORD = '(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[Ke]PW[Shin];B[ee];W[cc];B[gg];W[cg])';

describe('the analysis board and the AI review', needsChromium(), () => {
  let server;
  let browser;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('opens an uploaded record, adds and deletes a variation, downloads it with the variation', async () => {
    const context = await newPlayerContext(browser);
    const page = await newPage(context, errors);
    await page.goto(`${server.base}/analysis`);
    await page.locator('[data-upload]').setInputFiles({ name: 'game.sgf', mimeType: 'application/x-go-sgf', buffer: Buffer.from(RECORD) });
    await stoneAt(page, 'E5', 'black');
    await stoneAt(page, 'C3', 'white');
    assert.equal(await page.locator('[data-move]').getAttribute('data-move'), '4', 'the record opens at its end');

    // Back to move 2, then black plays D4 instead of G3: a variation.
    await page.click('[data-action=first]');
    await page.click('[data-action=next]');
    await page.click('[data-action=next]');
    assert.equal(await page.locator('[data-move]').getAttribute('data-move'), '2');
    await clickPoint(page, 'D4');
    await stoneAt(page, 'D4', 'black');
    assert.equal(await page.locator('[data-move]').getAttribute('data-move'), '3');
    await page.locator('[data-tree] [data-variation="1"]').waitFor();
    await page.locator('.goban .stones [data-stone="G3"]').waitFor({ state: 'detached' });

    // Move numbers on the stones.
    await page.locator('[data-numbers]').check();
    assert.equal(await page.locator('.goban [data-label="D4"]').textContent(), '3');
    assert.equal(await page.locator('.goban [data-label="E5"]').textContent(), '1');

    // Deleted: back to move 2, and the tree has no variation.
    await page.click('[data-action=delete]');
    assert.equal(await page.locator('[data-move]').getAttribute('data-move'), '2');
    assert.equal(await page.locator('[data-tree] [data-variation="1"]').count(), 0);

    // Added again, with a comment, and downloaded.
    await clickPoint(page, 'D4');
    await page.locator('[data-comment]').fill('D4 is calmer [sic]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action=download]')]);
    const text = await readFile(await download.path(), 'utf8');
    assert.match(text, /;B\[ee\]\s*;W\[cc\]\s*\(;B\[gg\]\s*;W\[cg\]\s*\)\s*\(;B\[df\]C\[D4 is calmer \[sic\\\]\]/, text);
    await context.close();
  });

  it('reviews a finished game with one click and jumps to a move from the graph', async () => {
    const blackContext = await newPlayerContext(browser);
    const whiteContext = await newPlayerContext(browser);
    const black = await newPage(blackContext, errors);
    const white = await newPage(whiteContext, errors);
    await signUp(black, server.base, 'reviewer');
    await signUp(white, server.base, 'opponent');
    const headers = { 'X-Shoutan-Request': '1' };
    const made = await black.request.post(`${server.base}/api/challenges`, { headers, data: { size: 9, color: 'black', rated: false } });
    assert.equal(made.status(), 201, await made.text());
    const accepted = await white.request.post(`${server.base}/api/challenges/${(await made.json()).id}/accept`, { headers, data: {} });
    assert.equal(accepted.status(), 201, await accepted.text());
    const id = (await accepted.json()).id;
    await black.goto(`${server.base}/`);
    await white.goto(`${server.base}/`);
    await wsCommands(black, id, 1, [{ type: 'move', point: 'E5' }]);
    await wsCommands(white, id, 1, [{ type: 'move', point: 'C3' }]);
    await wsCommands(black, id, 2, [{ type: 'move', point: 'G7' }]);
    const [resigned] = await wsCommands(white, id, 2, [{ type: 'resign' }]);
    assert.equal(resigned.type, 'ack', JSON.stringify(resigned));

    await black.goto(`${server.base}/game/${id}/analysis`);
    await stoneAt(black, 'G7', 'black');
    await black.click('[data-review-level=quick]');
    const graph = black.locator('[data-graph]');
    await graph.waitFor({ timeout: 120_000 });
    await black.locator('[data-mistakes=black]').waitFor();
    // Three moves: a third of the way along is move 1.
    const box = await graph.boundingBox();
    await graph.click({ position: { x: box.width / 3, y: box.height / 2 } });
    assert.equal(await black.locator('[data-move]').getAttribute('data-move'), '1');
    await black.locator('.goban .stones [data-stone="C3"]').waitFor({ state: 'detached' });
    // Another viewer sees the stored review at once, no button left to press.
    await white.goto(`${server.base}/game/${id}/analysis`);
    await white.locator('[data-graph]').waitFor();
    assert.equal(await white.locator('[data-review-level=quick]').count(), 0);
    await blackContext.close();
    await whiteContext.close();
  });

  it('reviews an uploaded record with one click; the same game opened again is reviewed at once', async () => {
    const context = await newPlayerContext(browser);
    const page = await newPage(context, errors);
    await signUp(page, server.base, 'uploader');
    // The second time the text differs (names, a comment): the game is the same.
    for (const [record, waitMs] of [[RECORD, 120_000], [RECORD.replace('PB[Ke]', 'PB[Someone]C[again]'), 10_000]]) {
      await page.goto(`${server.base}/analysis`);
      await page.locator('[data-paste]').fill(record);
      await page.click('[data-action=open]');
      await page.click('[data-review-level=quick]');
      await page.locator('[data-graph]').waitFor({ timeout: waitMs });
      assert.equal(await page.locator('[data-review-level=quick]').count(), 0, 'asked once');
      assert.equal(await page.locator('[data-mistakes]').count(), 2, 'each player’s mistakes');
    }
    await context.close();
  });

  /**
   * Opens `sgf` on the analysis board in a new browser of `locale`, asks
   * the solver about the group at `point` and waits for its answer, whose
   * kill verdict is `kill`.
   */
  async function askSolver(locale, sgf, point, kill) {
    const context = await newPlayerContext(browser, { locale });
    const page = await newPage(context, errors);
    await page.goto(`${server.base}/analysis`);
    await page.locator('[data-paste]').fill(sgf);
    await page.click('[data-action=open]');
    await page.locator('[data-solve]').check();
    await clickPoint(page, point);
    const answer = page.locator('[data-solve-result]');
    await answer.locator(`[data-kill=${kill}]`).waitFor({ timeout: 20_000 });
    return { context, page, answer };
  }

  it('says whether a group lives: the straight three dies at its middle point, in English and Chinese', async () => {
    // 直三 in the corner: white D9, A8–D8; black round it.
    const three = '(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]AW[da][ab][bb][cb][db]AB[ea][eb][ac][bc][cc][dc][ec])';
    for (const [locale, kill, live] of [
      ['en-GB', 'Black to play kills it: yes, by B9', 'White to play saves it: yes, by B9'],
      ['zh-CN', '黑先净杀（B9）', '白先净活（B9）'],
    ]) {
      const { context, page, answer } = await askSolver(locale, three, 'D9', 'win');
      assert.equal(await answer.locator('[data-kill]').innerText(), kill);
      assert.equal(await answer.locator('[data-live]').innerText(), live);
      // Asking plays nothing: the point is still empty.
      assert.equal(await page.locator('.goban .stones [data-stone="B9"]').count(), 0);
      await context.close();
    }
  });

  it('says what a ko asks of the sides: bent four in the corner is a direct ko white must find threats for', async () => {
    // 盘角曲四: white C9 B8 C8 B7 A6 B6; black round it. Black A8, white
    // A9, and black's capture at B9 starts the ko.
    const bent = '(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]AW[ca][bb][cb][bc][ad][bd]AB[da][db][cc][dc][cd][ae][be][ce])';
    for (const [locale, kill, ko] of [
      ['en-GB', 'Black to play kills it only by a ko, from A8', 'A direct ko: White must find the first ko threat'],
      ['zh-CN', '黑先劫杀（A8）', '紧劫：白方先找劫材'],
    ]) {
      const { context, answer } = await askSolver(locale, bent, 'C9', 'ko');
      assert.equal(await answer.locator('[data-kill]').innerText(), kill);
      assert.equal(await answer.locator('[data-kill-ko="1"]').innerText(), ko);
      assert.equal(await answer.locator('[data-live-ko]').count(), 0);
      await context.close();
    }
  });

  it('names a ten-thousand-year ko: whoever starts the corner ko lets the other side take first', async () => {
    // 万年劫: white A3–E3, B2, E2, D1, E1; black's C2, B1, C1 inside; black
    // walls along row 4 and column F. Black A2 or white A1 starts the ko.
    const corner = '(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]AB[af][bf][cf][df][ef][ff][fg][ch][fh][bi][ci][fi]AW[ag][bg][cg][dg][eg][bh][eh][di][ei])';
    for (const [locale, killKo, tenThousand] of [
      ['en-GB', 'A direct ko: Black must find the first ko threat',
        'A ten-thousand-year ko: left alone the group lives in seki, and whichever side starts the ko must find the threats'],
      ['zh-CN', '紧劫：黑方先找劫材', '万年劫：不动则双活，哪一方开劫都要先找劫材'],
    ]) {
      const { context, answer } = await askSolver(locale, corner, 'D1', 'ko');
      assert.equal(await answer.locator('[data-kill-ko="1"]').innerText(), killKo);
      assert.equal(await answer.locator('[data-ten-thousand-year-ko]').innerText(), tenThousand);
      await context.close();
    }
  });

  it('shows the position judgement on the analysis board, and not in a rated live game', async () => {
    const context = await newPlayerContext(browser);
    const page = await newPage(context, errors);
    await page.goto(`${server.base}/analysis`);
    await page.locator('[data-paste]').fill(RECORD);
    await page.click('[data-action=open]');
    await stoneAt(page, 'E5', 'black');
    await page.locator('[data-estimate]').check();
    await page.locator('[data-estimate-score][data-lead]').waitFor();
    assert.ok(await page.locator('.goban .territory [data-owner=black]').count() > 0, 'black’s area shaded');
    assert.match(await page.locator('[data-estimate-score]').textContent(), /子/);
    // Another position: judged again.
    await page.click('[data-action=first]');
    await page.locator('[data-estimate-score][data-lead]').waitFor();
    await context.close();

    const blackContext = await newPlayerContext(browser);
    const whiteContext = await newPlayerContext(browser);
    const black = await newPage(blackContext, errors);
    const white = await newPage(whiteContext, errors);
    await signUp(black, server.base, 'ratedblack');
    await signUp(white, server.base, 'ratedwhite');
    const headers = { 'X-Shoutan-Request': '1' };
    const made = await black.request.post(`${server.base}/api/challenges`, { headers, data: { size: 9, color: 'black', rated: true } });
    assert.equal(made.status(), 201, await made.text());
    const accepted = await white.request.post(`${server.base}/api/challenges/${(await made.json()).id}/accept`, { headers, data: {} });
    const id = (await accepted.json()).id;
    // The server refuses it in a rated game: the page does not offer it, and says why.
    await black.goto(`${server.base}/game/${id}`);
    await black.locator('[data-action=estimate][disabled]').waitFor();
    await black.locator('[data-role=estimate-note]', { hasText: 'not allowed in a rated game' }).waitFor();
    await blackContext.close();
    await whiteContext.close();
  });
});
