// The problems pages' pure parts, in Node without a browser: the sets in
// grade order, the part of the board a problem shows, the position after
// a try's moves, what may not be played, the target group, and the
// solution tree as rows of moves.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { toGtp } from '../js/goban.js';
import {
  colorOf, groupAt, groupSets, illegalReason, isWhole, localName, nodesAfter, percent, positionAfter, solutionRows,
  viewBoxOf, viewRange,
} from '../js/problem-model.js';

/** 直三 in the top-left corner: white A18–D18 and D19, black round it; black to kill. */
const THREE = {
  size: 19,
  black: ['E19', 'E18', 'A17', 'B17', 'C17', 'D17', 'E17'],
  white: ['D19', 'A18', 'B18', 'C18', 'D18'],
  to_move: 'black',
  target: 'A18',
};

describe('the problems pages', () => {
  it('groups the sets by grade, easiest first, keeping the order within a grade', () => {
    const sets = [{ id: 'a', grade: 'dan' }, { id: 'b', grade: 'entry' }, { id: 'c', grade: 'weird' }, { id: 'd', grade: 'entry' }, { id: 'e', grade: 'intermediate' }];
    assert.deepEqual(groupSets(sets).map((g) => [g.grade, g.sets.map((s) => s.id)]),
      [['entry', ['b', 'd']], ['intermediate', ['e']], ['dan', ['a']], ['weird', ['c']]]);
  });

  it('names a set in the language asked for, else in the other', () => {
    assert.equal(localName({ zh: '吃子', en: 'Capturing' }, 'zh'), '吃子');
    assert.equal(localName({ zh: '吃子', en: 'Capturing' }, 'en'), 'Capturing');
    assert.equal(localName({ zh: '吃子' }, 'en'), '吃子');
    assert.equal(percent(3, 40), 8);
    assert.equal(percent(1, 0), 0);
  });

  it('shows the view and a line more, within the board; the whole board without one', () => {
    assert.deepEqual(viewRange(19, { from: 'A19', to: 'H12' }), { x0: 0, x1: 8, y0: 0, y1: 8 });
    assert.deepEqual(viewRange(19, { from: 'H12', to: 'A19' }, 0), { x0: 0, x1: 7, y0: 0, y1: 7 });
    const whole = viewRange(19, null);
    assert.ok(isWhole(19, whole));
    assert.ok(isWhole(19, viewRange(19, { from: 'I5', to: 'A1' })), 'an unreadable view: the whole board');
    assert.ok(!isWhole(19, viewRange(19, { from: 'A19', to: 'H12' })));
  });

  it('crops the drawing to the view: to the edge where the board ends, past the last line elsewhere', () => {
    const geometry = { size: 19, cell: 50, origin: 50, view: 1000 };
    // Columns A–H, rows 19–12: the top-left corner; the board's edges at the top and left.
    const box = viewBoxOf(geometry, { x0: 0, x1: 7, y0: 0, y1: 7 }, 0.5);
    assert.deepEqual(box, { x: 0, y: 0, width: 50 + 7 * 50 + 25, height: 50 + 7 * 50 + 25 });
    const middle = viewBoxOf(geometry, { x0: 2, x1: 4, y0: 18, y1: 18 }, 0.5);
    assert.deepEqual(middle, { x: 125, y: 925, width: 150, height: 75 });
  });

  it('replays a try from the player to move: captures, the last move, the colour to play', () => {
    assert.equal(colorOf('white', 0), 'white');
    assert.equal(colorOf('white', 1), 'black');
    const start = positionAfter(THREE, []);
    assert.equal(start.toMove, 'black');
    assert.equal(start.last, null);
    assert.equal(groupAt(start.board, 'A18').length, 5, 'the target group');
    // B19, white C19, black A19 takes the whole group.
    const after = positionAfter(THREE, ['B19', 'C19', 'A19']);
    assert.equal(after.toMove, 'white');
    assert.equal(toGtp(19, after.last.x, after.last.y), 'A19');
    assert.deepEqual(groupAt(after.board, 'A18'), [], 'taken');
    assert.equal(after.numbers.get(0), 3, 'A19 is move 3');
  });

  it('refuses a point taken, a suicide and a ko retaken at once', () => {
    const start = positionAfter(THREE, []);
    assert.equal(illegalReason(start.board, start.previous, 'black', 0, 1), 'occupied');
    assert.equal(illegalReason(start.board, start.previous, 'black', 1, 0), null, 'B19 is the vital point');
    // White A19 with B19 black: no liberty, takes nothing.
    const b19 = positionAfter(THREE, ['B19']);
    assert.equal(illegalReason(b19.board, b19.previous, 'white', 0, 0), null, 'A19 takes B19');
    // White B4 takes C4 in a ko: black may not take back at once.
    const ko = positionAfter({ size: 5, black: ['B5', 'A4', 'C4', 'B3'], white: ['C5', 'D4', 'C3'], to_move: 'white' }, ['B4']);
    assert.equal(ko.board.get(2, 1), 0, 'C4 taken');
    assert.equal(illegalReason(ko.board, ko.previous, 'black', 2, 1), 'ko');
    const suicide = positionAfter({ size: 9, black: ['B9', 'A8'], white: [], to_move: 'white' }, []);
    assert.equal(illegalReason(suicide.board, suicide.previous, 'white', 0, 0), 'suicide');
  });

  it('lays the solution out as rows: runs of moves, branches under them, right and wrong first moves', () => {
    const tree = [
      { move: 'B19', correct: true, children: [{ move: 'C19', children: [{ move: 'A19', children: [] }] }, { move: 'A19', children: [{ move: 'C19', children: [] }] }] },
      { move: 'C19', correct: false, children: [{ move: 'B19', children: [] }] },
    ];
    assert.deepEqual(solutionRows(tree), [
      { path: [], moves: ['B19'], depth: 0, correct: true },
      { path: ['B19'], moves: ['C19', 'A19'], depth: 1, correct: true },
      { path: ['B19'], moves: ['A19', 'C19'], depth: 1, correct: true },
      { path: [], moves: ['C19', 'B19'], depth: 0, correct: false },
    ]);
    assert.deepEqual(nodesAfter(tree, ['B19']).map((n) => n.move), ['C19', 'A19']);
    assert.deepEqual(nodesAfter(tree, ['B19', 'C19', 'A19']), []);
    assert.equal(nodesAfter(tree, ['D19']), null);
  });
});
