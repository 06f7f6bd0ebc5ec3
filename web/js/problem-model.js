// The pure parts of the problems pages (problems-page.js), without the
// DOM: the grades in order, a set's name in a language, the part of the
// board a problem shows, the position after the moves of a try, the
// target group, and the solution tree as rows of moves.

import { EMPTY, Position, fromGtp, opponent } from './goban.js';

/** The grades of the problem sets, easiest first (入门 初级 中级 高级 高段). */
export const GRADES = ['entry', 'elementary', 'intermediate', 'advanced', 'dan'];

/**
 * The sets grouped by grade, in the order of GRADES (a grade the client
 * does not know comes last); each group keeps the server's order.
 * @template {{grade: string}} S
 * @param {S[]} sets
 * @returns {{grade: string, sets: S[]}[]}
 */
export function groupSets(sets) {
  const groups = new Map();
  for (const set of sets) {
    if (!groups.has(set.grade)) groups.set(set.grade, []);
    groups.get(set.grade).push(set);
  }
  const rank = (g) => {
    const i = GRADES.indexOf(g);
    return i < 0 ? GRADES.length : i;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([grade, list]) => ({ grade, sets: list }));
}

/** A name given in both languages (`{zh, en}`), in `lang`, else in the other. */
export function localName(name, lang) {
  if (typeof name === 'string') return name;
  return name?.[lang] || name?.en || name?.zh || '';
}

/** The share solved of a set, 0 to 100, for its progress bar. */
export function percent(part, whole) {
  if (!whole) return 0;
  return Math.max(0, Math.min(100, Math.round((part / whole) * 100)));
}

/**
 * The columns and rows a problem shows: its `view` (two corners in GTP
 * notation, in any order) and `margin` lines more on each side, within the
 * board; the whole board when there is none or it does not parse.
 * @param {number} size
 * @param {{from: string, to: string} | null | undefined} view
 * @returns {{x0: number, x1: number, y0: number, y1: number}}
 */
export function viewRange(size, view, margin = 1) {
  const whole = { x0: 0, x1: size - 1, y0: 0, y1: size - 1 };
  if (!view) return whole;
  const a = fromGtp(size, view.from);
  const b = fromGtp(size, view.to);
  if (!a || !b) return whole;
  const lo = (v) => Math.max(0, v - margin);
  const hi = (v) => Math.min(size - 1, v + margin);
  return { x0: lo(Math.min(a.x, b.x)), x1: hi(Math.max(a.x, b.x)), y0: lo(Math.min(a.y, b.y)), y1: hi(Math.max(a.y, b.y)) };
}

/** Whether the range is the whole board. */
export function isWhole(size, r) {
  return r.x0 === 0 && r.y0 === 0 && r.x1 === size - 1 && r.y1 === size - 1;
}

/**
 * The rectangle of the board's drawing that shows the range: up to the
 * drawing's edge (with its coordinates) where the range reaches the
 * board's edge, else `pad` of a line's spacing beyond the last line shown,
 * so that the lines run on out of the picture, as the board does.
 * @param {{size: number, cell: number, origin: number, view: number}} geometry  the BoardView's
 * @param {{x0: number, x1: number, y0: number, y1: number}} r
 */
export function viewBoxOf({ size, cell, origin, view }, r, pad = 0.7) {
  const at = (i) => origin + i * cell;
  const lo = (i) => (i <= 0 ? 0 : at(i) - pad * cell);
  const hi = (i) => (i >= size - 1 ? view : at(i) + pad * cell);
  const x = lo(r.x0);
  const y = lo(r.y0);
  return { x, y, width: hi(r.x1) - x, height: hi(r.y1) - y };
}

/**
 * The problem's position before any move.
 * @param {{size: number, black: string[], white: string[]}} problem
 */
export function startPosition(problem) {
  const board = new Position(problem.size);
  for (const [list, stone] of [[problem.black, 1], [problem.white, 2]]) {
    for (const gtp of list ?? []) {
      const p = fromGtp(problem.size, gtp);
      if (p) board.set(p.x, p.y, stone);
    }
  }
  return board;
}

/** The colour of the move at `index` (0-based) of a try: alternating from the player's. */
export function colorOf(toMove, index) {
  return index % 2 === 0 ? toMove : opponent(toMove);
}

/**
 * The position after the moves of a try (GTP points, alternating from
 * `to_move`): the board, the one before the last move (for ko), the last
 * move, the colour to play, and the stones each move captured.
 * @param {{size: number, black: string[], white: string[], to_move: 'black' | 'white'}} problem
 * @param {string[]} moves
 */
export function positionAfter(problem, moves) {
  let board = startPosition(problem);
  let previous = null;
  let last = null;
  const numbers = new Map();
  moves.forEach((gtp, i) => {
    const p = fromGtp(problem.size, gtp);
    previous = board.clone();
    if (!p) return;
    for (const c of board.play(colorOf(problem.to_move, i), p.x, p.y)) numbers.delete(c.y * problem.size + c.x);
    numbers.set(p.y * problem.size + p.x, i + 1);
    last = p;
  });
  return { board, previous, last, numbers, toMove: colorOf(problem.to_move, moves.length) };
}

/**
 * Why `color` may not play at (x, y) here: `occupied`, `suicide`, `ko`;
 * null when it may.
 * @param {import('./goban.js').Position} board
 * @param {import('./goban.js').Position | null} previous  the position before the last move
 */
export function illegalReason(board, previous, color, x, y) {
  if (board.get(x, y) !== EMPTY) return 'occupied';
  const after = board.clone();
  after.play(color, x, y);
  if (after.chain(x, y).liberties === 0) return 'suicide';
  if (previous && after.equals(previous)) return 'ko';
  return null;
}

/**
 * The stones of the group at `gtp` (the target), empty when the point is
 * empty (the group was taken).
 * @param {import('./goban.js').Position} board
 */
export function groupAt(board, gtp) {
  const p = fromGtp(board.size, gtp ?? '');
  if (!p || board.get(p.x, p.y) === EMPTY) return [];
  return board.chain(p.x, p.y).stones;
}

/**
 * The solution tree as rows to show: each row a run of moves without a
 * branch, `path` the moves before it, `depth` how deep it is nested,
 * `correct` whether its first move (of the whole line) is right.
 * @typedef {{move: string, correct?: boolean, children?: SolutionNode[]}} SolutionNode
 * @param {SolutionNode[]} tree
 * @returns {{path: string[], moves: string[], depth: number, correct: boolean}[]}
 */
export function solutionRows(tree) {
  const rows = [];
  const walk = (nodes, path, depth, correct) => {
    for (const first of nodes ?? []) {
      const right = path.length === 0 ? first.correct !== false : correct;
      const moves = [];
      let n = first;
      for (;;) {
        moves.push(n.move);
        const kids = n.children ?? [];
        if (kids.length !== 1) break;
        n = kids[0];
      }
      rows.push({ path, moves, depth, correct: right });
      walk(n.children, [...path, ...moves], depth + 1, right);
    }
  };
  walk(tree, [], 0, true);
  return rows;
}

/**
 * The nodes that follow the line `moves` in the solution tree (null when
 * the line leaves the tree).
 * @param {SolutionNode[]} tree
 * @param {string[]} moves
 * @returns {SolutionNode[] | null}
 */
export function nodesAfter(tree, moves) {
  let nodes = tree ?? [];
  for (const mv of moves) {
    const next = nodes.find((n) => n.move === mv);
    if (!next) return null;
    nodes = next.children ?? [];
  }
  return nodes;
}
