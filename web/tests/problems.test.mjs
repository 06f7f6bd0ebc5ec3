// The problems (死活题) in a real browser against the real server: a
// logged-in player opens a set from the list, solves a problem by the
// right line (each move judged at once, the opponent's answers played on
// the board), sees it right, his rating change and the problem solved in
// the set's grid, and his problem rank on the list; then plays a wrong
// first move on another problem and sees it refuted on the board and
// called wrong. A visitor not logged in solves too (in Chinese, on a
// phone's screen) and is told nothing is recorded.
//
// The right and wrong moves come from the server, asked for by another
// account (whose first tries they spoil, not the player's): a solution's
// right line, and a first move near a hint's that the judge calls wrong.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  apiFrom, clickPoint, launchBrowser, needsChromium, newPage, newPlayerContext, screenshot, signUp, startServer, stoneAt,
} from './harness.mjs';
import { fromGtp, toGtp } from '../js/goban.js';

/** The judge may think for a few seconds a move. */
const JUDGED_MS = 30_000;

/** The empty points next to the hint's area (outside it) of `problem`, nearest the area's first point first. */
function besideHint(problem, area) {
  const { size } = problem;
  const taken = new Set([...problem.black, ...problem.white, ...area]);
  const points = [];
  for (const gtp of area) {
    const p = fromGtp(size, gtp);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const x = p.x + dx;
      const y = p.y + dy;
      if (x < 0 || y < 0 || x >= size || y >= size) continue;
      const q = toGtp(size, x, y);
      if (!taken.has(q)) {
        taken.add(q);
        points.push(q);
      }
    }
  }
  return points;
}

/** The opponent of a colour. */
const other = (color) => (color === 'black' ? 'white' : 'black');

describe('the problems', needsChromium(), () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** The player. @type {import('playwright-core').Page} */
  let solver;
  /** Another account, whose solutions tell the test the right and wrong moves. @type {import('playwright-core').Page} */
  let teacher;
  const errors = [];
  /** The set played, a problem with its right line, another with a refuted wrong first move. */
  let set;
  let right;
  let wrong;

  /** What the teacher is told of problem `n`: `solution` or `hint`. */
  async function taken(n, what) {
    const path = `/api/problems/${set.id}/${n}/${what}`;
    const res = await apiFrom(teacher, 'POST', path, {});
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    solver = await newPage(await newPlayerContext(browser), errors);
    teacher = await newPage(await newPlayerContext(browser), errors);
    await signUp(solver, server.base, 'solver', '10k');
    await signUp(teacher, server.base, 'teacher', '3d');

    const list = await apiFrom(teacher, 'GET', '/api/problems');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    set = list.body.sets.find((s) => s.count >= 2);
    assert.ok(set, `a set of two problems or more: ${JSON.stringify(list.body.sets)}`);
    // The right line: the solution of the set's first problem that has one.
    // (A solution is costly for the server to work out: only this one is asked for.)
    for (let n = 1; n <= set.count && !right; n++) {
      const tree = (await taken(n, 'solution')).tree;
      const good = tree.find((v) => v.correct !== false);
      if (good) right = { n, tree, first: good };
    }
    assert.ok(right, `a problem of ${set.id} with a right first move`);
    // A wrong first move of another problem, and its refutation: a point
    // beside the hint's (which is near a right first move), judged by the
    // server. A wrong move is quick to refute; a right one is not asked.
    for (let n = 1; n <= set.count && !wrong; n++) {
      if (n === right.n) continue;
      const problem = (await apiFrom(teacher, 'GET', `/api/problems/${set.id}/${n}`)).body;
      for (const move of besideHint(problem, (await taken(n, 'hint')).area)) {
        const judged = await apiFrom(teacher, 'POST', `/api/problems/${set.id}/${n}/moves`, { moves: [move] });
        // A move the judge cannot settle within its budget (400 `unsettled`) is no use here.
        if (judged.status === 200 && !judged.body.correct && judged.body.reply) {
          wrong = { n, move, refutation: judged.body.reply };
          break;
        }
      }
    }
    assert.ok(wrong, `another problem of ${set.id} with a refuted wrong first move`);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    assert.deepEqual(errors, [], 'no script errors');
  });

  it('solves a problem by its right line: right at once, the rating changed, solved in the grid', async () => {
    await solver.goto(`${server.base}/`);
    await solver.click('[data-nav=problems]');
    await solver.locator(`[data-set="${set.id}"]`).click();
    const cell = solver.locator(`[data-problem="${right.n}"]`);
    assert.equal(await cell.getAttribute('data-status'), 'new');
    await cell.click();

    const page = solver.locator(`[data-page=problem][data-number="${right.n}"]`);
    await page.waitFor();
    const problem = (await apiFrom(solver, 'GET', `/api/problems/${set.id}/${right.n}`)).body;
    const caption = await solver.locator('[data-caption]').innerText();
    assert.match(caption, new RegExp(`^${problem.to_move === 'black' ? 'Black' : 'White'} to play: ${problem.goal}`), caption);
    if (problem.target) assert.ok(await solver.locator('.goban [data-target]').count() > 0, 'the target group is marked');

    // Move by move along the solution: each of the player's moves judged, the server's answer played.
    const board = solver.locator('[data-problem-board]');
    const status = solver.locator('.problem-status');
    let line = [];
    let node = right.first;
    for (let step = 0; ; step++) {
      assert.ok(step < 20, 'the line ends');
      await clickPoint(solver, node.move);
      await stoneAt(solver, node.move, problem.to_move);
      line = [...line, node.move];
      await solver.locator('.problem-status:is([data-result=good], [data-result=right], [data-result=wrong])').waitFor({ timeout: JUDGED_MS });
      const result = await status.getAttribute('data-result');
      assert.notEqual(result, 'wrong', `${line.join(' ')} is the solution's line: ${await status.innerText()}`);
      if (result === 'right') break;
      // The opponent's answer, on the board after a moment.
      await solver.locator(`[data-problem-board][data-moves="${line.length + 1}"]`).waitFor();
      const reply = (await board.getAttribute('data-line')).split(' ').at(-1);
      await stoneAt(solver, reply, other(problem.to_move));
      line = [...line, reply];
      const answered = node.children.find((v) => v.move === reply);
      assert.ok(answered?.children?.length, `the server's answer ${reply} after ${line.join(' ')} is in the solution`);
      node = answered.children[0];
    }
    assert.match(await status.innerText(), /^Right/);
    // Recorded, with the rating before and after.
    const recorded = solver.locator('[data-recorded=solved]');
    await recorded.waitFor();
    assert.match(await recorded.innerText(), /Problem rating \d+ → \d+ \([+−]?\d+\.\d\), \d+[kdp]/);
    assert.equal(await solver.locator('[data-yours]').getAttribute('data-yours'), 'solved');
    await screenshot(solver, 'problem-solved');

    // The set's grid: solved; the list: the player's problem rank.
    await solver.locator('.problem-back').click();
    await solver.locator(`[data-problem="${right.n}"][data-status=solved]`).waitFor();
    await solver.locator('[data-progress="1/' + set.count + '"]').waitFor();
    await solver.goto(`${server.base}/problems`);
    const rating = solver.locator('[data-problem-rating]');
    await rating.waitFor();
    assert.match(await rating.innerText(), /^Your problem rank: \d+[kdp] · rating \d+ · first tries recorded: 1$/);
    assert.match(await solver.locator(`[data-set="${set.id}"] [data-progress]`).innerText(), new RegExp(`^1/${set.count} solved`));
  });

  it('calls a wrong first move wrong at once and plays its refutation on the board', async () => {
    await solver.goto(`${server.base}/problems/${set.id}`);
    await solver.locator(`[data-problem="${wrong.n}"]`).click();
    await solver.locator(`[data-page=problem][data-number="${wrong.n}"]`).waitFor();
    const problem = (await apiFrom(solver, 'GET', `/api/problems/${set.id}/${wrong.n}`)).body;
    await clickPoint(solver, wrong.move);
    const status = solver.locator('.problem-status[data-result=wrong]');
    await status.waitFor({ timeout: JUDGED_MS });
    assert.match(await status.innerText(), new RegExp(`^Wrong: ${wrong.refutation} refutes it`));
    await stoneAt(solver, wrong.move, problem.to_move);
    await stoneAt(solver, wrong.refutation, other(problem.to_move));
    await solver.locator('[data-recorded=failed]').waitFor();
    // The try is over: the wrong move and its refutation, nothing more.
    const moves = await solver.locator('[data-problem-board]').getAttribute('data-moves');
    assert.equal(moves, '2');
    // Retry: the start again.
    await solver.click('[data-action=retry]');
    await solver.locator('.goban .stones [data-stone="' + wrong.refutation + '"]').waitFor({ state: 'detached' });
    await solver.locator('.problem-back').click();
    await solver.locator(`[data-problem="${wrong.n}"][data-status=failed]`).waitFor();
  });

  it('lets a visitor not logged in solve on a phone, in Chinese, and says nothing is recorded', async () => {
    const context = await newPlayerContext(browser, { locale: 'zh-CN', viewport: { width: 390, height: 844 }, mobile: true });
    const page = await newPage(context, errors);
    await page.goto(`${server.base}/problems/${set.id}/${right.n}`);
    await page.locator('[data-role=logged-out]').waitFor();
    assert.match(await page.locator('[data-caption]').innerText(), /^[黑白]先 [杀活]/);
    await clickPoint(page, right.first.move);
    const status = page.locator('.problem-status');
    await page.locator('.problem-status:is([data-result=good], [data-result=right])').waitFor({ timeout: JUDGED_MS });
    assert.match(await status.innerText(), /^(好棋|正确)/);
    // The board and the buttons fit the phone's width.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'no sideways scrolling');
    const box = await page.locator('.goban').boundingBox();
    assert.ok(box.width > 150 && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    // The solution, step by step on the board.
    await page.click('[data-action=solution]');
    const first = page.locator(`[data-solution] [data-path="${right.first.move}"]`);
    await first.click();
    await page.locator(`.goban [data-label="${right.first.move}"]`).waitFor();
    await screenshot(page, 'problem-phone-solution');
    await context.close();
  });
});
