// The proverbs (口诀) in a real browser against the real server: a visitor
// opens them from the problems list and finds every proverb the API lists,
// each with its diagrams (their stones, the solver's claims in words); a
// claim's first move is shown on its diagram when asked for, and taken back;
// in Chinese the claims read as a Chinese player writes them.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, startServer } from './harness.mjs';

describe('the proverbs', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  const errors = [];
  /** What the API lists. */
  let proverbs;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await newPage(await newPlayerContext(browser), errors);
    await page.goto(`${server.base}/problems`);
    const list = await apiFrom(page, 'GET', '/api/proverbs');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    proverbs = list.body.proverbs;
    assert.ok(proverbs.length >= 10, `${proverbs.length} proverbs`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('shows every proverb the API lists, with its diagrams and claims, opened from the problems list', async () => {
    await page.locator('[data-proverbs-link]').click();
    await page.locator('[data-page=proverbs]').waitFor();
    assert.equal(new URL(page.url()).pathname, '/proverbs');
    assert.equal(await page.locator('[data-proverb]').count(), proverbs.length);
    for (const p of proverbs) {
      const section = page.locator(`[data-proverb="${p.slug}"]`);
      assert.equal(await section.locator('.proverb-zh').innerText(), p.zh);
      assert.equal(await section.locator('.proverb-en').innerText(), p.en);
      assert.equal(await section.locator('.proverb-explain').innerText(), p.explain.en);
      assert.equal(await section.locator('[data-diagram]').count(), p.diagrams.length, p.slug);
      for (const [i, d] of p.diagrams.entries()) {
        const figure = page.locator(`[data-diagram="${p.slug}/${i}"]`);
        assert.match(await figure.locator('figcaption').innerText(), new RegExp(d.caption.en.replace(/[()]/g, '\\$&')));
        assert.equal(await figure.locator('.goban .stones [data-stone].black').count(), d.black.length, `${p.slug}/${i}`);
        assert.equal(await figure.locator('.goban .stones [data-stone].white').count(), d.white.length, `${p.slug}/${i}`);
        assert.ok(await figure.locator('.goban [data-target]').count() > 0, `${p.slug}/${i}: the group at stake is marked`);
        const claims = figure.locator('[data-claim]');
        assert.equal(await claims.count(), d.claims.length, `${p.slug}/${i}`);
        for (const [k, c] of d.claims.entries()) {
          const claim = claims.nth(k);
          assert.equal(await claim.getAttribute('data-mover'), c.mover);
          assert.equal(await claim.getAttribute('data-verdict'), c.verdict);
          assert.equal(await claim.locator('[data-action=show-move]').count(), c.moves.length);
          const words = await claim.locator('.proverb-claim-text').innerText();
          assert.match(words, new RegExp(`^${c.mover === 'black' ? 'Black' : 'White'} to play`), words);
          for (const move of c.moves) assert.ok(words.includes(move), `${words} names ${move}`);
        }
      }
    }
    // The straight three, in words.
    const first = page.locator('[data-diagram="zhisan-qusan/0"] [data-claim="0"] .proverb-claim-text');
    assert.equal(await first.innerText(), 'Black to play kills, by B7');
    await screenshot(page, 'proverbs');
  });

  it('shows a claim\'s first move on its diagram when asked, and takes it back', async () => {
    await page.goto(`${server.base}/proverbs`);
    const figure = page.locator('[data-diagram="zhisan-qusan/0"]');
    const stone = figure.locator('.goban .stones [data-stone="B7"]');
    assert.equal(await stone.count(), 0, 'B7 is empty at the start');
    await figure.locator('[data-claim="0"] [data-action=show-move][data-move=B7]').click();
    await figure.locator('.goban .stones [data-stone="B7"].black').waitFor();
    await figure.locator('.goban [data-last="B7"]').waitFor();
    assert.equal(await figure.locator('[data-proverb-board]').getAttribute('data-shown'), 'black B7');
    // White's answer to the same point instead.
    await figure.locator('[data-claim="1"] [data-action=show-move][data-move=B7]').click();
    await figure.locator('.goban .stones [data-stone="B7"].white').waitFor();
    // Only this diagram shows it.
    assert.equal(await page.locator('[data-diagram="zhisan-qusan/1"] .goban .stones [data-stone="B7"]').count(), 0);
    await figure.locator('[data-action=show-start]').click();
    await stone.waitFor({ state: 'detached' });
    // The bent four in the corner: black's A6 starts the ko.
    const corner = page.locator('[data-diagram="panjiao-qusi/0"]');
    assert.match(await corner.locator('[data-claim="0"] .proverb-claim-text').innerText(), /^Black to play: ko, by A6$/);
    await corner.locator('[data-claim="0"] [data-action=show-move][data-move=A6]').click();
    await corner.locator('.goban .stones [data-stone="A6"].black').waitFor();
  });

  it('reads in Chinese: 黑先杀（B7）, 白先活', async () => {
    const context = await newPlayerContext(browser, { locale: 'zh-CN' });
    const zh = await newPage(context, errors);
    await zh.goto(`${server.base}/proverbs`);
    const figure = zh.locator('[data-diagram="zhisan-qusan/0"]');
    await figure.waitFor();
    assert.equal(await figure.locator('[data-claim="0"] .proverb-claim-text').innerText(), '黑先杀（B7）');
    assert.equal(await figure.locator('[data-claim="1"] .proverb-claim-text').innerText(), '白先活（B7）');
    assert.equal(await zh.locator('[data-page=proverbs] h1').innerText(), '口诀');
    const square = zh.locator('[data-diagram="tuansi-dingsi/0"] [data-claim="1"] .proverb-claim-text');
    assert.equal(await square.innerText(), '白先也活不了');
    await context.close();
  });
});
