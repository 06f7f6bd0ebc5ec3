// What the counting phase shows: who owns each point once the stones
// marked dead are taken off, and each side's count (spec §5). The server's
// result is the one that counts; this mirrors the rules crate's count so
// that the board can be shaded and both sides' figures shown.

import { BLACK, WHITE, EMPTY, fromGtp } from './goban.js';

/** @typedef {'black' | 'white' | 'shared' | 'neutral'} Owner */

/**
 * Counts a position.
 * @param {import('./goban.js').Position} board
 * @param {string[]} dead  stones marked dead, in GTP notation
 * @param {{ruleset: any, komi: number, handicapStones: number, prisoners: {black: number, white: number}}} rules
 */
export function countPosition(board, dead, rules) {
  const size = board.size;
  const area = size * size;
  const deadSet = new Set();
  for (const d of dead) {
    const p = fromGtp(size, d);
    if (p) deadSet.add(p.y * size + p.x);
  }
  const alive = (i) => (deadSet.has(i) ? EMPTY : board.cells[i]);
  const counting = rules.ruleset?.counting ?? 'area';
  /** @type {Owner[]} */
  const owners = new Array(area).fill('neutral');
  const tally = () => ({ stones: 0, territory: 0, shared: 0, prisoners: 0, groups: 0 });
  const t = { black: tally(), white: tally() };

  for (let i = 0; i < area; i++) {
    const s = alive(i);
    if (s === BLACK) { owners[i] = 'black'; t.black.stones++; }
    else if (s === WHITE) { owners[i] = 'white'; t.white.stones++; }
    else if (board.cells[i] === BLACK) t.white.prisoners++;
    else if (board.cells[i] === WHITE) t.black.prisoners++;
  }

  const seen = new Uint8Array(area);
  const neighbors = (i) => {
    const x = i % size;
    const out = [];
    if (x > 0) out.push(i - 1);
    if (x < size - 1) out.push(i + 1);
    if (i >= size) out.push(i - size);
    if (i < area - size) out.push(i + size);
    return out;
  };
  for (let i = 0; i < area; i++) {
    if (alive(i) !== EMPTY || seen[i]) continue;
    const region = [];
    let touchesBlack = false;
    let touchesWhite = false;
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const q = stack.pop();
      region.push(q);
      for (const n of neighbors(q)) {
        const s = alive(n);
        if (s === BLACK) touchesBlack = true;
        else if (s === WHITE) touchesWhite = true;
        else if (!seen[n]) { seen[n] = 1; stack.push(n); }
      }
    }
    /** @type {Owner} */
    let owner = 'neutral';
    if (counting !== 'stones_only') {
      if (touchesBlack && !touchesWhite) owner = 'black';
      else if (touchesWhite && !touchesBlack) owner = 'white';
      else if (touchesBlack && touchesWhite && counting === 'area') owner = 'shared';
    }
    for (const q of region) owners[q] = owner;
    if (owner === 'black') t.black.territory += region.length;
    else if (owner === 'white') t.white.territory += region.length;
    else if (owner === 'shared') { t.black.shared += region.length; t.white.shared += region.length; }
  }

  // 还棋头: living groups joined through their own area count as one.
  const grouped = new Uint8Array(area);
  for (let i = 0; i < area; i++) {
    const s = alive(i);
    if (s === EMPTY || grouped[i]) continue;
    const mine = s === BLACK ? 'black' : 'white';
    t[mine].groups++;
    const stack = [i];
    grouped[i] = 1;
    while (stack.length) {
      const q = stack.pop();
      for (const n of neighbors(q)) {
        if (!grouped[n] && owners[n] === mine) { grouped[n] = 1; stack.push(n); }
      }
    }
  }

  t.black.prisoners += rules.prisoners.black;
  t.white.prisoners += rules.prisoners.white;
  const tax = Number(rules.ruleset?.group_tax ?? 0);
  const score = (s) => {
    const base = counting === 'area' ? s.stones + s.territory + s.shared / 2
      : counting === 'territory' ? s.territory + s.prisoners
        : s.stones;
    return base - tax * s.groups;
  };
  const black = { ...t.black, count: score(t.black) };
  const white = { ...t.white, count: score(t.white) };
  const compensation = handicapCompensation(rules.ruleset?.handicap_compensation, rules.handicapStones);
  const margin = black.count - white.count - rules.komi - compensation;
  return { counting, owners, black, white, komi: rules.komi, compensation, margin, area };
}

/** White's compensation in points for a handicap of `stones` stones. */
function handicapCompensation(kind, stones) {
  if (!stones || stones < 2) return 0;
  if (kind === 'n') return stones;
  if (kind === 'n_minus_one') return stones - 1;
  return 0;
}

/**
 * Black's count in 子 as the arbiter announces it (黑185子): half the board
 * plus half of black's lead before komi and compensation.
 */
export function blackZi(count) {
  const lead = count.margin + count.komi + count.compensation;
  return count.area / 2 + lead / 2;
}
