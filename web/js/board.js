// The board: a scalable SVG with a wooden (or flat) surface, lines, star
// points, coordinates, stones with a soft gradient and shadow, the last
// move's mark, a preview of the next stone under the pointer, and the
// territory shading of the counting phase. Every intersection is a target
// (`data-point="D4"`) for clicks and taps.

import { s } from './dom.js';
import { BLACK, EMPTY, fromGtp, toGtp, starPoints } from './goban.js';
import { settings } from './settings.js';

/** The side of the drawing, in SVG units. */
const VIEW = 1000;
let instances = 0;

/** What a board shows. */
/**
 * @typedef {object} Scene
 * @property {import('./goban.js').Position} board
 * @property {{x: number, y: number} | null} [last]   the last move
 * @property {'black' | 'white' | null} [hover]       the colour previewed under the pointer
 * @property {{x: number, y: number, color: 'black' | 'white'} | null} [tentative]  a stone awaiting confirmation or the server
 * @property {Set<number> | null} [dead]              indexes of stones marked dead
 * @property {string[] | null} [owners]               counting: owner of each point
 * @property {{x: number, y: number}[]} [marked]      points to ring (free handicap placement)
 * @property {Map<number, string> | null} [labels]   text on points by index (move numbers)
 */

export class BoardView {
  /**
   * @param {object} options
   * @param {number} options.size
   * @param {(x: number, y: number) => void} [options.onPoint]  a click or tap on an intersection
   */
  constructor({ size, onPoint }) {
    this.id = `g${++instances}`;
    this.size = size;
    this.onPoint = onPoint ?? (() => {});
    /** @type {{x: number, y: number} | null} */
    this.pointer = null;
    /** @type {Scene | null} */
    this.scene = null;
    this.el = document.createElement('div');
    this.el.className = 'goban';
    this.wood = s('svg', { class: 'goban-wood', viewBox: `0 0 ${VIEW} ${VIEW}`, preserveAspectRatio: 'none', 'aria-hidden': 'true' });
    this.svg = s('svg', { class: 'goban-svg', viewBox: `0 0 ${VIEW} ${VIEW}`, role: 'img' });
    this.el.append(this.wood, this.svg);
    this.svg.addEventListener('pointerover', (e) => this.hoverAt(e.target));
    this.svg.addEventListener('pointerleave', () => this.hoverAt(null));
    this.svg.addEventListener('click', (e) => {
      const p = pointOf(e.target);
      if (p) this.onPoint(p.x, p.y);
    });
    this.build();
    // Coordinates stay readable on a small screen: never under 9.5 px.
    this.resizer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => this.sizeCoordinates());
    this.resizer?.observe(this.el);
  }

  /** The coordinates' font: a third of a line's spacing, at least 9.5 px on the screen. */
  sizeCoordinates() {
    const width = this.el.clientWidth;
    const c = this.cell;
    const least = width ? (9.5 * VIEW) / width : 0;
    this.coordLayer.setAttribute('font-size', Math.min(c * 0.6, Math.max(c * 0.3, least)).toFixed(1));
  }

  /** Rebuilds the static parts: after a size or skin change. */
  build() {
    const n = this.size;
    const margin = settings.coordinates ? 1.25 : 0.65;
    this.cell = VIEW / (n - 1 + 2 * margin);
    this.origin = margin * this.cell;
    this.el.dataset.size = String(n);
    this.el.className = `goban board-${settings.board} stones-${settings.stones}`;
    this.svg.setAttribute('aria-label', `${n}×${n}`);
    this.wood.replaceChildren(...this.woodLayer());
    const c = this.cell;
    const id = this.id;
    this.defs = s('defs', null, ...this.stoneDefs(), s('filter', { id: `${id}-shadow`, x: '-20%', y: '-20%', width: '140%', height: '140%' },
      s('feGaussianBlur', { stdDeviation: (c * 0.05).toFixed(2) })));
    this.gridLayer = s('g', { class: 'grid' });
    this.coordLayer = s('g', { class: 'coords' });
    this.tintLayer = s('g', { class: 'tint' });
    this.shadowLayer = s('g', { class: 'shadows', filter: `url(#${id}-shadow)` });
    this.stoneLayer = s('g', { class: 'stones' });
    // The owners' squares go over the stones: a dead stone shows, faded
    // under its square, whose area it is counted in.
    this.territoryLayer = s('g', { class: 'territory' });
    this.markLayer = s('g', { class: 'marks' });
    this.ghostLayer = s('g', { class: 'ghost' });
    this.hitLayer = s('g', { class: 'hits' });
    this.svg.replaceChildren(this.defs, this.gridLayer, this.coordLayer, this.tintLayer,
      this.shadowLayer, this.stoneLayer, this.territoryLayer, this.markLayer, this.ghostLayer, this.hitLayer);

    const lo = this.origin;
    const hi = this.origin + (n - 1) * c;
    let d = '';
    for (let i = 0; i < n; i++) {
      const v = (this.origin + i * c).toFixed(2);
      d += `M${lo.toFixed(2)} ${v}H${hi.toFixed(2)}M${v} ${lo.toFixed(2)}V${hi.toFixed(2)}`;
    }
    this.gridLayer.append(
      s('path', { d, class: 'line' }),
      s('rect', { x: lo, y: lo, width: hi - lo, height: hi - lo, class: 'edge' }),
      ...starPoints(n).map((p) => s('circle', { cx: this.cx(p.x), cy: this.cx(p.y), r: Math.max(c * 0.1, 5.5), class: 'star' })),
    );
    if (settings.coordinates) {
      for (let i = 0; i < n; i++) {
        const letter = toGtp(n, i, 0).replace(/\d+/, '');
        const number = String(n - i);
        const at = this.cx(i);
        const near = this.origin - c * 0.85;
        const far = hi + c * 0.85;
        for (const [x, y, text] of [[at, near, letter], [at, far, letter], [near, at, number], [far, at, number]]) {
          this.coordLayer.append(s('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, text));
        }
      }
    }
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        this.hitLayer.append(s('rect', {
          x: this.cx(x) - c / 2, y: this.cx(y) - c / 2, width: c, height: c, 'data-point': toGtp(n, x, y),
        }));
      }
    }
    this.sizeCoordinates();
    if (this.scene) this.render(this.scene);
  }

  /**
   * The wood: a fine grain from stretched fractal noise, and over it a
   * broader figure of darker streaks, coloured per skin.
   */
  woodLayer() {
    const skins = {
      kaya: [['0.003 0.25', 3, '0.20 0 0 0 0.75  0.16 0 0 0 0.58  0.10 0 0 0 0.31  0 0 0 0 1'],
        ['0.0012 0.018', 3, '0 0 0 0 0.55  0 0 0 0 0.36  0 0 0 0 0.14  1.1 0 0 0 -0.53']],
      shinkaya: [['0.0025 0.3', 3, '0.16 0 0 0 0.84  0.14 0 0 0 0.70  0.10 0 0 0 0.45  0 0 0 0 1'],
        ['0.0015 0.04', 2, '0 0 0 0 0.7  0 0 0 0 0.5  0 0 0 0 0.25  1.2 0 0 0 -0.5']],
      bamboo: [['0.12 0.0025', 2, '0.18 0 0 0 0.74  0.15 0 0 0 0.60  0.09 0 0 0 0.34  0 0 0 0 1'],
        ['0.04 0.001', 1, '0 0 0 0 0.5  0 0 0 0 0.35  0 0 0 0 0.15  1.5 0 0 0 -0.7']],
    };
    const layers = skins[settings.board];
    if (!layers) return [s('rect', { width: VIEW, height: VIEW, class: 'surface' })];
    const filters = layers.map(([freq, octaves, matrix], i) => s('filter', {
      id: `${this.id}-wood${i}`, x: 0, y: 0, width: 1, height: 1, 'color-interpolation-filters': 'sRGB',
    },
    s('feTurbulence', { type: 'fractalNoise', baseFrequency: freq, numOctaves: octaves, seed: 11 }),
    s('feColorMatrix', { type: 'matrix', values: matrix })));
    return [
      s('defs', null, ...filters),
      ...layers.map((_, i) => s('rect', { width: VIEW, height: VIEW, filter: `url(#${this.id}-wood${i})` })),
    ];
  }

  /** The gradients that make stones look round. */
  stoneDefs() {
    const id = this.id;
    const grad = (name, stops, cx = 0.36, cy = 0.32, r = 0.78) => s('radialGradient', { id: `${id}-${name}`, cx, cy, r, fx: cx, fy: cy },
      ...stops.map(([offset, color]) => s('stop', { offset, 'stop-color': color })));
    if (settings.stones === 'yunzi') {
      return [
        grad('black', [[0, '#5b6359'], [0.35, '#23272a'], [0.8, '#0c0e0d'], [1, '#040504']]),
        grad('white', [[0, '#fffef8'], [0.55, '#f1ecd8'], [0.9, '#d8cfae'], [1, '#c3b994']], 0.4, 0.35, 0.75),
      ];
    }
    return [
      grad('black', [[0, '#6e6e6e'], [0.22, '#3a3a3a'], [0.65, '#141414'], [1, '#000']]),
      grad('white', [[0, '#ffffff'], [0.5, '#f3f2ee'], [0.85, '#d9d6ce'], [1, '#b8b4aa']]),
    ];
  }

  /** The SVG coordinate of line `i`. */
  cx(i) {
    return this.origin + i * this.cell;
  }

  /** A stone, as SVG: a shadow and a disc. */
  stone(x, y, color, extra = {}) {
    const c = this.cell;
    const flat = settings.stones === 'flat';
    const r = c * (flat ? 0.47 : 0.485);
    const attrs = {
      cx: this.cx(x), cy: this.cx(y), r,
      class: `stone ${color}${extra.class ? ` ${extra.class}` : ''}`,
      'data-stone': toGtp(this.size, x, y),
    };
    if (!flat) attrs.fill = `url(#${this.id}-${color})`;
    return s('circle', attrs);
  }

  /** The square of point (x, y), kept within the grid's edge. */
  cellRect(x, y, cls) {
    const c = this.cell;
    const lo = this.origin;
    const hi = this.cx(this.size - 1);
    const x0 = Math.max(lo, this.cx(x) - c / 2);
    const y0 = Math.max(lo, this.cx(y) - c / 2);
    const x1 = Math.min(hi, this.cx(x) + c / 2);
    const y1 = Math.min(hi, this.cx(y) + c / 2);
    return s('rect', { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: cls });
  }

  shadow(x, y) {
    const c = this.cell;
    return s('circle', { cx: this.cx(x) + c * 0.06, cy: this.cx(y) + c * 0.09, r: c * 0.47 });
  }

  /** Draws a scene. @param {Scene} scene */
  render(scene) {
    this.scene = scene;
    const { board } = scene;
    const n = this.size;
    const c = this.cell;
    const shadows = [];
    const stones = [];
    const marks = [];
    const territory = [];
    const tint = [];
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const i = y * n + x;
        const v = board.get(x, y);
        const dead = scene.dead?.has(i);
        if (v !== EMPTY) {
          const color = v === BLACK ? 'black' : 'white';
          if (!dead) shadows.push(this.shadow(x, y));
          stones.push(this.stone(x, y, color, { class: dead ? 'dead' : '' }));
        }
        const owner = scene.owners?.[i];
        if (owner === 'black' || owner === 'white') {
          if (v === EMPTY || dead) {
            // The point's square of the board tinted, and a small mark on it.
            tint.push(this.cellRect(x, y, `area ${owner}`));
            const side = c * 0.26;
            territory.push(s('rect', { x: this.cx(x) - side / 2, y: this.cx(y) - side / 2, width: side, height: side, rx: side * 0.12, class: `own ${owner}`, 'data-owner': owner, 'data-at': toGtp(n, x, y) }));
          }
        } else if (owner === 'shared' && v === EMPTY) {
          territory.push(s('circle', { cx: this.cx(x), cy: this.cx(y), r: c * 0.09, class: 'own shared', 'data-owner': 'shared', 'data-at': toGtp(n, x, y) }));
        }
      }
    }
    if (scene.tentative) {
      const { x, y, color } = scene.tentative;
      if (board.get(x, y) === EMPTY) {
        shadows.push(this.shadow(x, y));
        stones.push(this.stone(x, y, color, { class: 'tentative' }));
      }
    }
    const last = scene.last;
    if (last && board.get(last.x, last.y) !== EMPTY) {
      const point = toGtp(n, last.x, last.y);
      const on = board.get(last.x, last.y) === BLACK ? 'on-black' : 'on-white';
      const side = c * 0.34;
      // A ring in the stone's opposite colour, or a solid red square (as on Fox).
      marks.push(settings.lastMove === 'red'
        ? s('rect', { x: this.cx(last.x) - side / 2, y: this.cx(last.y) - side / 2, width: side, height: side, class: 'last red', 'data-last': point })
        : s('circle', { cx: this.cx(last.x), cy: this.cx(last.y), r: c * 0.22, class: `last ${on}`, 'data-last': point }));
    }
    for (const [i, text] of scene.labels ?? []) {
      const x = i % n;
      const y = Math.floor(i / n);
      const on = board.get(x, y) === BLACK ? 'on-black' : board.get(x, y) === EMPTY ? 'on-empty' : 'on-white';
      marks.push(s('text', {
        x: this.cx(x), y: this.cx(y), class: `label ${on}`, 'font-size': (c * (text.length > 2 ? 0.36 : 0.45)).toFixed(1),
        'text-anchor': 'middle', 'dominant-baseline': 'central', 'data-label': toGtp(n, x, y),
      }, text));
    }
    for (const p of scene.marked ?? []) {
      marks.push(s('circle', { cx: this.cx(p.x), cy: this.cx(p.y), r: c * 0.3, class: 'placed' }));
    }
    this.shadowLayer.replaceChildren(...shadows);
    this.stoneLayer.replaceChildren(...stones);
    this.markLayer.replaceChildren(...marks);
    this.tintLayer.replaceChildren(...tint);
    this.territoryLayer.replaceChildren(...territory);
    this.el.classList.toggle('interactive', Boolean(scene.hover));
    this.drawGhost();
  }

  hoverAt(target) {
    this.pointer = target ? pointOf(target) : null;
    this.drawGhost();
  }

  /** The translucent stone under the pointer, where a move could go. */
  drawGhost() {
    const p = this.pointer;
    const scene = this.scene;
    if (!p || !scene?.hover || scene.board.get(p.x, p.y) !== EMPTY
      || (scene.tentative && scene.tentative.x === p.x && scene.tentative.y === p.y)) {
      this.ghostLayer.replaceChildren();
      return;
    }
    this.ghostLayer.replaceChildren(this.stone(p.x, p.y, scene.hover, { class: 'preview' }));
  }
}

function pointOf(target) {
  const gtp = target?.dataset?.point;
  const el = target?.closest?.('.goban');
  if (!gtp || !el) return null;
  return fromGtp(Number(el.dataset.size), gtp);
}
