// The board as the client knows it: positions, captures, star points,
// fixed handicaps and the starting position, so that every position of a
// game can be shown from its list of moves. The server decides what is
// legal; this module only replays what the server accepted.

/** @typedef {'black' | 'white'} Color */
/** @typedef {{x: number, y: number}} Coord  x: column from the left, y: row from the top */

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;

/** The GTP column letters (no I): 25 of them, for boards up to 25×25. */
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

/** @param {Color} color */
const stoneOf = (color) => (color === 'black' ? BLACK : WHITE);
/** @param {Color} color @returns {Color} */
export const opponent = (color) => (color === 'black' ? 'white' : 'black');

/** GTP notation of a point (`D4`: column letter, row counted from the bottom). */
export function toGtp(size, x, y) {
  return `${LETTERS[x]}${size - y}`;
}

/** The point named in GTP notation, or null when it is no point of the board. */
export function fromGtp(size, text) {
  const m = /^([A-HJ-Z])(\d{1,2})$/i.exec(String(text).trim());
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toUpperCase());
  const row = Number(m[2]);
  if (x < 0 || x >= size || row < 1 || row > size) return null;
  return { x, y: size - row };
}

/** A position: the stones on a square board. */
export class Position {
  /** @param {number} size @param {Uint8Array} [cells] */
  constructor(size, cells) {
    this.size = size;
    this.cells = cells ?? new Uint8Array(size * size);
  }

  /** The position drawn by rows from the top: `X` black, `O` white, `.` empty. */
  static fromRows(rows) {
    const size = rows.length;
    const p = new Position(size);
    rows.forEach((row, y) => {
      [...row].forEach((ch, x) => {
        p.cells[y * size + x] = ch === 'X' ? BLACK : ch === 'O' ? WHITE : EMPTY;
      });
    });
    return p;
  }

  toRows() {
    const rows = [];
    for (let y = 0; y < this.size; y++) {
      let row = '';
      for (let x = 0; x < this.size; x++) row += '.XO'[this.get(x, y)];
      rows.push(row);
    }
    return rows;
  }

  clone() {
    return new Position(this.size, this.cells.slice());
  }

  get(x, y) {
    return this.cells[y * this.size + x];
  }

  set(x, y, stone) {
    this.cells[y * this.size + x] = stone;
  }

  /** The orthogonal neighbours of a point. */
  neighbors(x, y) {
    const out = [];
    if (x > 0) out.push({ x: x - 1, y });
    if (x < this.size - 1) out.push({ x: x + 1, y });
    if (y > 0) out.push({ x, y: y - 1 });
    if (y < this.size - 1) out.push({ x, y: y + 1 });
    return out;
  }

  /** The chain of stones at a point and its liberties. */
  chain(x, y) {
    const stone = this.get(x, y);
    const stones = [];
    const liberties = new Set();
    const seen = new Set([y * this.size + x]);
    const stack = [{ x, y }];
    while (stack.length) {
      const p = stack.pop();
      stones.push(p);
      for (const n of this.neighbors(p.x, p.y)) {
        const k = n.y * this.size + n.x;
        const s = this.get(n.x, n.y);
        if (s === EMPTY) liberties.add(k);
        else if (s === stone && !seen.has(k)) {
          seen.add(k);
          stack.push(n);
        }
      }
    }
    return { stones, liberties: liberties.size };
  }

  /**
   * Puts a stone and removes the opponent's chains left without liberties
   * (spec §2). Returns the points captured.
   * @param {Color} color
   */
  play(color, x, y) {
    const stone = stoneOf(color);
    const other = stone === BLACK ? WHITE : BLACK;
    this.set(x, y, stone);
    const captured = [];
    for (const n of this.neighbors(x, y)) {
      if (this.get(n.x, n.y) !== other) continue;
      const chain = this.chain(n.x, n.y);
      if (chain.liberties === 0) {
        for (const s of chain.stones) {
          this.set(s.x, s.y, EMPTY);
          captured.push(s);
        }
      }
    }
    return captured;
  }

  equals(other) {
    return this.size === other.size && this.cells.every((c, i) => c === other.cells[i]);
  }
}

/** Distance of the corner star points from the edge (1-based), null below 7. */
function cornerLine(size) {
  if (size < 7) return null;
  return size <= 12 ? 3 : 4;
}

/** The star points drawn on the board (9 on 19×19, 5 on 13×13 and 9×9). */
export function starPoints(size) {
  const mid = Math.floor(size / 2);
  const odd = size % 2 === 1;
  const line = cornerLine(size);
  if (line === null) return odd && size >= 5 ? [{ x: mid, y: mid }] : [];
  const lo = line - 1;
  const hi = size - line;
  const stars = [
    { x: lo, y: lo }, { x: hi, y: lo }, { x: lo, y: hi }, { x: hi, y: hi },
  ];
  if (odd) {
    stars.push({ x: mid, y: mid });
    if (size >= 15) {
      stars.push({ x: mid, y: lo }, { x: lo, y: mid }, { x: hi, y: mid }, { x: mid, y: hi });
    }
  }
  return stars;
}

/** The largest fixed handicap of a board. */
function maxFixedHandicap(size) {
  if (size < 7) return 0;
  if (size === 7 || size % 2 === 0) return 4;
  return 9;
}

/** The points of a fixed handicap, in the order of the GTP specification's table. */
export function fixedHandicap(size, stones) {
  if (stones < 2 || stones > maxFixedHandicap(size)) return [];
  const line = cornerLine(size) ?? 3;
  const lo = line - 1;
  const hi = size - line;
  const mid = Math.floor(size / 2);
  const points = [{ x: lo, y: hi }, { x: hi, y: lo }];
  if (stones >= 3) points.push({ x: lo, y: lo });
  if (stones >= 4) points.push({ x: hi, y: hi });
  if (stones >= 6) points.push({ x: lo, y: mid }, { x: hi, y: mid });
  if (stones >= 8) points.push({ x: mid, y: lo }, { x: mid, y: hi });
  if (stones % 2 === 1 && stones >= 5) points.push({ x: mid, y: mid });
  return points;
}

/**
 * The position before the first move: the ruleset's 座子 on the corner star
 * points, and the handicap stones.
 * @param {number} size
 * @param {any} ruleset  the ruleset as the server sends it
 * @param {any} handicap  `"none"`, `{fixed: n}`, `{free: n}` or `{placed: [..]}`
 * @param {string[]} [placed]  free handicap stones, in GTP notation, once placed
 */
export function startingPosition(size, ruleset, handicap, placed = []) {
  const p = new Position(size);
  const corners = fixedHandicap(size, 4);
  const s = ruleset?.initial_stones ?? {};
  if (corners.length === 4) {
    [s.lower_left, s.upper_right, s.upper_left, s.lower_right].forEach((c, i) => {
      if (c) p.set(corners[i].x, corners[i].y, stoneOf(c));
    });
  }
  const black = (pt) => pt && p.set(pt.x, pt.y, BLACK);
  if (handicap && typeof handicap === 'object') {
    if ('fixed' in handicap) fixedHandicap(size, handicap.fixed).forEach(black);
    if ('placed' in handicap) handicap.placed.forEach((q) => black(pointOf(size, q)));
    if ('free' in handicap) placed.forEach((q) => black(fromGtp(size, q)));
  }
  return p;
}

/** A point as the server serialises one inside a ruleset or handicap. */
function pointOf(size, q) {
  if (typeof q === 'string') return fromGtp(size, q);
  if (q && typeof q === 'object' && 'col' in q && 'row' in q) return { x: q.col, y: q.row };
  return null;
}

/**
 * Every position of a game: `positions[i]` is the board after `i` turns,
 * with the turn that led to it, the stones it captured and the captures
 * so far.
 * @param {Position} start
 * @param {{color: Color, point: string | null}[]} moves
 */
export function replay(start, moves) {
  const size = start.size;
  let board = start.clone();
  const captures = { black: 0, white: 0 };
  const positions = [{ board: board.clone(), move: null, captured: [], captures: { ...captures } }];
  for (const move of moves) {
    let captured = [];
    if (move.point) {
      const at = fromGtp(size, move.point);
      if (at) captured = board.play(move.color, at.x, at.y);
      captures[move.color] += captured.length;
    }
    positions.push({ board: board.clone(), move, captured, captures: { ...captures } });
  }
  return positions;
}
