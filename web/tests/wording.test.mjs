// The words a player reads, in Chinese and in English (issue 35, items 3
// and 4), through the real pages: the computer's levels are 第N档 with the
// measured rank beside them, never N级 (级 is a kyu rank, where 1级 is
// strong); an event's result choices and standings headers are Chinese; a
// pass is 停一手 in the move list and the review; the review levels are
// described in Chinese; each mistake is numbered once, with its win rate
// and score changes signed as they happened; the review graph has axes
// and a legend naming its two lines. A time control is the server's text
// in the reader's language (issue 34, item 3), never parsed back here.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  apiFrom, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, signUp, startServer, wsCommands,
} from './harness.mjs';

/** A rank as Chinese players write it: `5k` 5级, `2d` 2段. */
const zhRank = (rank) => rank.replace(/^(\d+)k/, '$1级').replace(/^(\d+)d/, '$1段');

/** A change as the review prints it: its sign (a true minus), one decimal, none when it rounds to 0. */
function signed(value) {
  const text = Math.abs(value).toFixed(1);
  return Number(text) === 0 ? text : `${value < 0 ? '−' : '+'}${text}`;
}

describe('the words of the interface, in Chinese and English', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** A player reading Chinese. @type {import('playwright-core').Page} */
  let mei;
  /** A player reading English. @type {import('playwright-core').Page} */
  let tom;
  const errors = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    mei = await newPage(await newPlayerContext(browser, { locale: 'zh-CN' }), errors);
    tom = await newPage(await newPlayerContext(browser), errors);
    await signUp(mei, server.base, 'mei');
    await signUp(tom, server.base, 'tom');
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('names the computer’s levels 第N档 with the measured rank beside, never N级', async () => {
    const levels = await (await fetch(`${server.base}/api/computer`)).json();
    await mei.goto(`${server.base}/`);
    const card = mei.locator('[data-role=computer]');
    const select = card.locator('select[name=level]:not([disabled])');
    await select.waitFor();
    const options = await select.locator('option').allInnerTexts();
    assert.deepEqual(options, levels.map((l) => `第${l.level}档 · ${l.player.name} · ${l.ranks.map((r) => `${r.size}×${r.size} ${zhRank(r.rank)}`).join(', ')}`));
    // 级 may only be a rank's: with the ranks taken out, none is left.
    for (const text of options) assert.doesNotMatch(text.replace(/\d+×\d+ \d+[级段]/g, ''), /级/, text);
    assert.equal(await card.locator('label.field > span').first().innerText(), '档位');
    assert.equal(await card.locator('p.muted').innerText(), '对局立即开始，电脑每步应对。第1档为入门，第10档为全力。');
    // The form with every setting names them the same way.
    await card.locator('[data-action=computer-settings]').click();
    const form = mei.locator('dialog[open] form');
    assert.match(await form.locator('select[name=level] option').first().innerText(), /^第1档 · Shoutan-AI-1 · 9×9 \d+[级段]/);
    await mei.keyboard.press('Escape');
  });

  it('offers an event’s results 和棋 / 双方判负 / 无效 and heads the tables in Chinese', async () => {
    const made = await apiFrom(mei, 'POST', '/api/events', {
      name: '周末积分赛', system: { kind: 'swiss' }, rounds: 2, size: 9, ruleset: 'chinese', rated: false,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const base = `/api/events/${made.body.id}`;
    for (const [path, body] of [['registration'], ['players', { account: 'tom' }], ['rounds']]) {
      const res = await apiFrom(mei, 'POST', `${base}/${path}`, body);
      assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
    }

    await mei.goto(`${server.base}/events/${made.body.id}`);
    const pairings = mei.locator('[data-role=pairings-1]');
    const choice = pairings.locator('select[name=result]');
    await choice.waitFor();
    assert.deepEqual(await pairings.locator('th').allInnerTexts(), ['台次', '黑方', '白方', '让子', '结果', '对局']);
    assert.deepEqual(await choice.locator('option').allInnerTexts(), ['黑胜', '白胜', '和棋', '黑不战胜', '白不战胜', '双方判负', '无效']);
    await choice.selectOption({ label: '和棋' });
    await pairings.locator('[data-action=enter-result]').click();
    await pairings.locator('td[data-result]', { hasText: '和棋' }).waitFor();

    // Swiss: the Chinese total score, then fewer warnings (Art. 27).
    await mei.click('[data-tab=standings]');
    const standings = mei.locator('[data-role=standings]');
    await standings.locator('tbody tr').first().waitFor();
    assert.deepEqual(await standings.locator('th').allInnerTexts(), ['名次', '姓名', '胜局', '总分', '警告']);
    await mei.click('[data-tab=crosstable]');
    const cross = mei.locator('[data-role=crosstable]');
    await cross.locator('tbody tr').first().waitFor();
    assert.deepEqual(await cross.locator('th').allInnerTexts(), ['名次', '姓名', '1', '胜局', '总分', '警告']);

    // In English the server's TOTAL and WARNINGS read as words too.
    await tom.goto(`${server.base}/events/${made.body.id}`);
    await tom.locator('[data-role=pairings-1] td[data-result]', { hasText: 'Draw' }).waitFor();
    await tom.click('[data-tab=standings]');
    await tom.locator('[data-role=standings] tbody tr').first().waitFor();
    assert.deepEqual(await tom.locator('[data-role=standings] th').allInnerTexts(), ['Place', 'Name', 'Wins', 'Total', 'Warnings']);
  });

  it('names a pass 停一手 and reviews the game in Chinese: levels, mistakes numbered once and signed, a graph with axes and legend', async () => {
    // Tom (Black) passes at move 3 of a 9×9 game: a mistake the review lists.
    const headers = { 'X-Shoutan-Request': '1' };
    const challenge = await tom.request.post(`${server.base}/api/challenges`, { headers, data: { size: 9, color: 'black', rated: false } });
    assert.equal(challenge.status(), 201, await challenge.text());
    const accepted = await mei.request.post(`${server.base}/api/challenges/${(await challenge.json()).id}/accept`, { headers, data: {} });
    assert.equal(accepted.status(), 201, await accepted.text());
    const id = (await accepted.json()).id;
    await tom.goto(`${server.base}/`);
    await mei.goto(`${server.base}/`);
    const answers = [
      ...await wsCommands(tom, id, 1, [{ type: 'move', point: 'E5' }]),
      ...await wsCommands(mei, id, 1, [{ type: 'move', point: 'C3' }]),
      ...await wsCommands(tom, id, 2, [{ type: 'pass' }]),
      ...await wsCommands(mei, id, 2, [{ type: 'move', point: 'G7' }]),
      ...await wsCommands(tom, id, 3, [{ type: 'resign' }]),
    ];
    assert.deepEqual(answers.map((a) => a.type), ['ack', 'ack', 'ack', 'ack', 'ack'], JSON.stringify(answers));

    // The game's move list.
    await mei.goto(`${server.base}/game/${id}`);
    await mei.locator('[data-tab=moves]').click();
    const pass = mei.locator('[data-role=moves] li[data-move="3"]');
    assert.match(await pass.innerText(), /停一手/);
    assert.doesNotMatch(await pass.innerText(), /pass/i);

    // The analysis board: the move named, the levels described, in Chinese.
    await mei.goto(`${server.base}/game/${id}/analysis`);
    await mei.click('[data-action=first]');
    for (let k = 0; k < 3; k += 1) await mei.click('[data-action=next]');
    assert.equal(await mei.locator('[data-move]').innerText(), '第3手：● 停一手');
    const { levels } = await (await fetch(`${server.base}/api/games/${id}/reviews`)).json();
    const visits = Object.fromEntries(levels.map((l) => [l.level, l.visits]));
    assert.equal(await mei.locator('[data-level-cost=quick]').innerText(), `快速复盘：每个局面搜索${visits.quick}次：250手的19路对局不到一分钟`);
    assert.equal(await mei.locator('[data-level-cost=deep]').innerText(), `深度复盘：每个局面搜索${visits.deep}次：250手的19路对局需要几分钟`);
    assert.equal(await mei.locator('[data-review-level=deep]').getAttribute('title'), `每个局面搜索${visits.deep}次：250手的19路对局需要几分钟`);

    await mei.click('[data-review-level=quick]');
    const graph = mei.locator('[data-graph]');
    await graph.waitFor({ timeout: 120_000 });
    const { reviews } = await (await fetch(`${server.base}/api/games/${id}/reviews`)).json();
    const review = reviews.find((r) => r.level === 'quick').review;
    assert.ok(review.black_mistakes.includes(3), `the pass is one of Black's mistakes: ${JSON.stringify(review.black_mistakes)}`);

    // Each mistake is numbered once (no list number before 第N手), its changes signed as the server's losses say.
    const mistakes = mei.locator('[data-mistakes] li');
    assert.equal(await mistakes.count(), review.black_mistakes.length + review.white_mistakes.length);
    assert.equal(await mistakes.first().evaluate((li) => getComputedStyle(li).listStyleType), 'none');
    for (const m of review.moves.filter((x) => [...review.black_mistakes, ...review.white_mistakes].includes(x.number))) {
      const text = await mei.locator(`[data-mistake="${m.number}"]`).innerText();
      const mv = m.mv === 'pass' ? '停一手' : m.mv;
      assert.ok(text.startsWith(`第${m.number}手 ${mv}：胜率${signed(-m.winrate_loss * 100)}%，目数${signed(-m.points_loss)}目 · AI推荐：`), text);
    }
    assert.match(await mei.locator('[data-mistake="3"]').innerText(), /^第3手 停一手：胜率−\d+\.\d%，/);

    // The graph: its axes, its 50% line, a legend naming both lines, a description.
    assert.deepEqual(await mei.locator('[data-axis=winrate] span').allInnerTexts(), ['100%', '50%', '0%']);
    const lead = await mei.locator('[data-axis=lead] span').allInnerTexts();
    assert.equal(lead.length, 3);
    assert.match(lead[0], /^B\+\d+/);
    assert.equal(lead[1], '0');
    assert.match(lead[2], /^W\+\d+/);
    assert.deepEqual(await mei.locator('[data-axis=moves] span').allInnerTexts(), ['0', '2', '4']);
    assert.equal(await mei.locator('.graph-axis-title').innerText(), '手数');
    assert.equal(await graph.locator('line.graph-half').getAttribute('y1'), '50');
    assert.deepEqual(await mei.locator('[data-legend] li').allInnerTexts(), ['黑方胜率（左轴）', '黑方领先目数（右轴）']);
    assert.equal(await graph.getAttribute('role'), 'img');
    assert.equal(await graph.getAttribute('aria-label'), '全局黑方胜率（0至100%）与领先目数曲线，第0手至第4手');
    await screenshot(mei, 'review-zh');

    // The same review in English.
    await tom.goto(`${server.base}/game/${id}/analysis`);
    await tom.locator('[data-graph]').waitFor();
    const three = review.moves.find((m) => m.number === 3);
    const line = await tom.locator('[data-mistake="3"]').innerText();
    assert.ok(line.startsWith(`Move 3 · pass: win rate ${signed(-three.winrate_loss * 100)}%, score ${signed(-three.points_loss)} points · engine: `), line);
    assert.deepEqual(await tom.locator('[data-legend] li').allInnerTexts(), ['Black’s win rate (left axis)', 'Black’s score lead (right axis)']);
    assert.equal(await tom.locator('.graph-axis-title').innerText(), 'Move');
    assert.equal(await tom.locator('[data-graph]').getAttribute('aria-label'), 'Black’s win rate (0 to 100%) and score lead over the game, moves 0 to 4');
    assert.equal(await tom.locator('[data-level-cost=deep]').innerText(), `Deep review: ${visits.deep} visits a position: several minutes for a 250-move 19×19 game`);
    await screenshot(tom, 'review-en');
  });

  it('says a time control as the server writes it in the reader’s language: in the lobby and on the game page', async () => {
    const english = '10 min + 5×30s byo-yomi';
    const chinese = '基本用时10分钟，读秒5次30秒';
    const headers = { 'X-Shoutan-Request': '1' };
    const challenge = await tom.request.post(`${server.base}/api/challenges`, { headers, data: { size: 9, color: 'black', rated: false, time_control: english } });
    assert.equal(challenge.status(), 201, await challenge.text());
    const made = await challenge.json();
    assert.deepEqual([made.time_control, made.time_control_zh], [english, chinese]);

    // The open challenge: the clock in a few characters, the whole in the tooltip.
    const challengeTime = (page) => page.locator(`[data-challenge="${made.id}"] .c-time`);
    await mei.goto(`${server.base}/`);
    await challengeTime(mei).waitFor({ state: 'attached' });
    assert.equal(await challengeTime(mei).getAttribute('title'), chinese);
    assert.equal(await challengeTime(mei).locator('.time-short').textContent(), '10分+5×30秒');
    await tom.goto(`${server.base}/`);
    await challengeTime(tom).waitFor({ state: 'attached' });
    assert.equal(await challengeTime(tom).getAttribute('title'), english);
    assert.equal(await challengeTime(tom).locator('.time-short').textContent(), '10m+5×30s');

    // The game it starts, in the list of live games and on its page.
    const accepted = await mei.request.post(`${server.base}/api/challenges/${made.id}/accept`, { headers, data: {} });
    assert.equal(accepted.status(), 201, await accepted.text());
    const id = (await accepted.json()).id;
    for (const [page, text] of [[mei, chinese], [tom, english]]) {
      await page.goto(`${server.base}/`);
      const cell = page.locator(`.live-game[data-game="${id}"] .c-time`);
      await cell.waitFor({ state: 'attached' });
      assert.equal(await cell.getAttribute('title'), text);
      await page.goto(`${server.base}/game/${id}`);
      await page.locator('[data-tab=info]').click();
      const info = page.locator('[data-role=info] dd');
      await info.first().waitFor();
      assert.ok((await info.allInnerTexts()).includes(text), (await info.allInnerTexts()).join(' | '));
    }
    await wsCommands(mei, id, 1, [{ type: 'resign' }]);
  });
});
