// The analysis board: any finished game (`/game/{id}/analysis`) or any SGF
// uploaded or pasted (`/analysis`). Step through the record, show move
// numbers on the stones, play your own moves from any position (each a
// variation in the tree, kept, deleted, downloaded in the SGF), read and
// write comments. For a server game or an uploaded record, the AI review:
// asked for with one click, its progress, then the win-rate graph (click a
// point to go there) and each player's biggest mistakes with the engine's
// move and line.

import { ApiError, get, post } from './api.js';
import { BoardView } from './board.js';
import { h, replace, s } from './dom.js';
import { BLACK, EMPTY, Position, opponent, toGtp } from './goban.js';
import { colorName, moveName, t } from './i18n.js';
import { iconButton } from './icons.js';
import { leadText, signedText } from './format.js';
import {
  SgfError, escapeText, moveOf, node, parseSgf, pathTo, sgfLetters, sgfPoint, unescapeText, writeSgf,
} from './sgf-tree.js';
import { toast } from './ui.js';

/** How often a queued review is asked about. */
const POLL_MS = 1000;

/**
 * What a review level costs, in the language of the settings (the
 * server's English words for a level the client has none for).
 */
function levelCost(level) {
  const key = `review.cost.${level.level}`;
  const text = t(key, { visits: level.visits });
  return text === key ? level.cost : text;
}

/** The page: `id` for a server game, none for an uploaded record. */
export function analysisPage(root, { id } = {}) {
  const page = new AnalysisPage(root, id === undefined ? null : Number(id));
  return () => page.dispose();
}

class AnalysisPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.disposed = false;
    this.numbers = false;
    this.review = null;
    this.levels = [];
    this.poll = null;
    this.keys = (e) => this.onKey(e);
    addEventListener('keydown', this.keys);
    if (id === null) this.showOpen();
    else this.loadGame();
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.poll);
    removeEventListener('keydown', this.keys);
  }

  /** Upload or paste a record. */
  showOpen(error) {
    const text = h('textarea.sgf-paste', { rows: 8, placeholder: '(;GM[1]FF[4]SZ[19];B[pd];W[dd]…)', dataset: { paste: '' } });
    const file = h('input', {
      type: 'file', accept: '.sgf,application/x-go-sgf', dataset: { upload: '' },
      onchange: async () => {
        const f = file.files?.[0];
        if (f) this.open(await f.text(), f.name);
      },
    });
    replace(this.root, h('section.analysis-open.card', null,
      h('h2', null, t('title')),
      h('p', null, t('open.help')),
      error ? h('p.form-error', { role: 'alert', dataset: { error: '' } }, error) : null,
      h('label.field', null, h('span', null, t('open.file')), file),
      h('label.field', null, h('span', null, t('open.paste')), text),
      h('button.primary', { type: 'button', dataset: { action: 'open' }, onclick: () => this.open(text.value, 'analysis.sgf') }, t('open.button'))));
  }

  /** Opens a record's text, or says why it cannot be opened. */
  open(text, name) {
    try {
      this.start(parseSgf(text), name.replace(/\.sgf$/i, ''));
      // The record as uploaded is what an AI review reads (its main line).
      this.recordText = text;
      this.recordReviews = [];
      this.loadReviews();
    } catch (e) {
      if (e instanceof SgfError) this.showOpen(t('open.bad', { why: e.message }));
      else throw e;
    }
  }

  async loadGame() {
    replace(this.root, h('div.page-loading', null, '…'));
    try {
      const res = await fetch(`/api/games/${this.id}/sgf`, { credentials: 'same-origin' });
      if (!res.ok) throw new ApiError(res.status, 'not_found', res.statusText);
      const text = await res.text();
      if (this.disposed) return;
      this.start(parseSgf(text), `shoutan-${this.id}`);
      this.loadReviews();
    } catch (e) {
      replace(this.root, h('div.empty-state', null, h('h2', null, t('error', { message: e.message }))));
    }
  }

  start(tree, name) {
    this.tree = tree;
    this.name = name;
    const sz = tree.props.get('SZ')?.[0];
    this.size = Math.min(25, Math.max(2, Number.parseInt(sz ?? '19', 10) || 19));
    this.current = this.lineEnd(tree);
    // With “Is this group alive?” on, a click asks about the group instead of playing.
    this.board = new BoardView({ size: this.size, onPoint: (x, y) => (this.solving ? this.askSolver(x, y) : this.play(x, y)) });
    this.build();
  }

  build() {
    this.info = h('div.analysis-move', { dataset: { move: '' } });
    this.comment = h('textarea.analysis-comment', {
      rows: 4, dataset: { comment: '' }, placeholder: t('comment'),
      oninput: () => this.setComment(this.comment.value),
    });
    this.treeEl = h('div.analysis-tree', { dataset: { tree: '' } });
    this.reviewEl = h('div.analysis-review', { dataset: { review: '' } });
    const button = (action, label, onclick) => h('button.ghost.small', { type: 'button', dataset: { action }, onclick }, label);
    // Icons, not ⏮ ◀ ▶ ⏭: those need an emoji font, which many systems lack.
    const nav = (action, onclick) => iconButton('button.ghost.small', action, t(`nav.move.${action}`), { dataset: { action }, onclick });
    replace(this.root, h('div.analysis-page', null,
      h('div.analysis-board', null, this.board.el,
        h('div.analysis-controls', null,
          nav('first', () => this.go(this.tree)),
          nav('prev', () => this.go(this.current.parent ?? this.current)),
          nav('next', () => this.go(this.current.children[0] ?? this.current)),
          nav('last', () => this.go(this.lineEnd(this.current))),
          h('label.toggle', null,
            h('input', { type: 'checkbox', dataset: { numbers: '' }, onchange: (e) => { this.numbers = e.target.checked; this.render(); } }),
            t('numbers')),
          h('label.toggle', null,
            h('input', { type: 'checkbox', dataset: { estimate: '' }, onchange: (e) => { this.estimating = e.target.checked; this.render(); } }),
            t('estimate')),
          h('label.toggle', { title: t('solve.help') },
            h('input', { type: 'checkbox', dataset: { solve: '' }, onchange: (e) => { this.solving = e.target.checked; this.solveEl.replaceChildren(); } }),
            t('solve'))),
        this.info,
        this.scoreEl = h('p.analysis-estimate', { dataset: { estimateScore: '' } }),
        this.solveEl = h('div.analysis-solve', { dataset: { solveResult: '' }, 'aria-live': 'polite' })),
      h('aside.analysis-side', null,
        h('div.analysis-actions', null,
          button('delete', t('delete'), () => this.deleteCurrent()),
          button('download', t('download'), () => this.download())),
        this.comment,
        this.treeEl,
        this.reviewEl)));
    this.render();
  }

  /** The last node of the line through `n` (first children). */
  lineEnd(n) {
    let end = n;
    while (end.children.length) end = end.children[0];
    return end;
  }

  go(n) {
    this.current = n;
    this.render();
  }

  onKey(e) {
    if (!this.current || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLInputElement) return;
    if (e.key === 'ArrowLeft') this.go(this.current.parent ?? this.current);
    else if (e.key === 'ArrowRight') this.go(this.current.children[0] ?? this.current);
    else return;
    e.preventDefault();
  }

  /**
   * The position at `n` and how it was reached: the board, the move
   * number of each stone, the colour to move, the move count, and the
   * board two moves back (for ko).
   */
  positionAt(n) {
    const size = this.size;
    let board = new Position(size);
    const numbers = new Map();
    let moves = 0;
    let toMove = 'black';
    let previous = null;
    let last = null;
    for (const step of pathTo(n)) {
      for (const [id, stone] of [['AB', 1], ['AW', 2], ['AE', EMPTY]]) {
        for (const v of step.props.get(id) ?? []) {
          const p = sgfPoint(size, v);
          if (p) board.set(p.x, p.y, stone);
        }
      }
      if (step.props.has('AB') && !step.props.has('AW') && step === this.tree && Number(step.props.get('HA')?.[0]) >= 2) toMove = 'white';
      const mv = moveOf(step, size);
      if (mv) {
        moves++;
        previous = board.clone();
        if (mv.point) {
          for (const c of board.play(mv.color, mv.point.x, mv.point.y)) numbers.delete(c.y * size + c.x);
          numbers.set(mv.point.y * size + mv.point.x, moves);
        }
        last = mv.point;
        toMove = opponent(mv.color);
      }
      const pl = step.props.get('PL')?.[0];
      if (pl === 'B' || pl === 'W') toMove = pl === 'B' ? 'black' : 'white';
    }
    return { board, numbers, moves, toMove, previous, last };
  }

  /** Plays the colour to move at (x, y): the existing child with that move, or a new variation. */
  play(x, y) {
    const here = this.positionAt(this.current);
    const letters = sgfLetters(x, y);
    const id = here.toMove === 'black' ? 'B' : 'W';
    const existing = this.current.children.find((c) => c.props.get(id)?.[0] === letters);
    if (existing) {
      this.go(existing);
      return;
    }
    if (here.board.get(x, y) !== EMPTY) return;
    const after = here.board.clone();
    after.play(here.toMove, x, y);
    if (after.chain(x, y).liberties === 0) {
      toast(t('analysis.illegal.suicide'), 'error');
      return;
    }
    if (here.previous && after.equals(here.previous)) {
      toast(t('analysis.illegal.ko'), 'error');
      return;
    }
    const made = node(this.current, new Map([[id, [letters]]]));
    this.current.children.push(made);
    this.go(made);
  }

  /** The position at `shown` as the server takes it: set-up stones and the moves to it. */
  positionBody(shown) {
    const size = this.size;
    const gtp = (v) => { const p = sgfPoint(size, v); return p ? toGtp(size, p.x, p.y) : null; };
    const root = this.tree.props;
    let komi = Number.parseFloat(root.get('KM')?.[0] ?? '7.5') || 0;
    if (Math.abs(komi) > 50) komi /= 100;
    const moves = pathTo(shown).map((n) => moveOf(n, size)).filter(Boolean)
      .map((m) => ({ color: m.color, point: m.point ? toGtp(size, m.point.x, m.point.y) : null }));
    return {
      size, komi,
      black: (root.get('AB') ?? []).map(gtp).filter(Boolean),
      white: (root.get('AW') ?? []).map(gtp).filter(Boolean),
      first: this.positionAt(this.tree).toMove,
      moves,
    };
  }

  /**
   * “Is this group alive?”: the solver's answer for the group of the stone
   * at (x, y) in the shown position — with the opponent to play, does it
   * die; with its owner to play, does it live; and by which first moves.
   */
  async askSolver(x, y) {
    const shown = this.current;
    const stone = this.positionAt(shown).board.get(x, y);
    if (stone === EMPTY) return;
    const group = toGtp(this.size, x, y);
    const owner = stone === BLACK ? 'black' : 'white';
    replace(this.solveEl, h('p.hint', null, t('solve.thinking', { group })));
    try {
      const answer = await post('/api/solve', { position: this.positionBody(shown), group });
      if (shown !== this.current || !this.solving) return;
      const line = (aim, verdict, moves, color) => h('p', { dataset: { [aim]: verdict } },
        t(`solve.${aim}.${verdict}`, { color: colorName(color), moves: moves.map(moveName).join(t('solve.or')) }));
      const ko = (aim, fight) => fight && h('p', { dataset: { [`${aim}Ko`]: fight.threats ?? 'many' } },
        t(fight.threats === null ? 'solve.ko.many' : fight.threats === 1 ? 'solve.ko.direct' : 'solve.ko.approach', {
          finder: colorName(fight.finder),
          other: colorName(opponent(fight.finder)),
          threats: fight.threats,
          moves: fight.threats - 1,
        }));
      replace(this.solveEl,
        line('kill', answer.to_kill, answer.kill, opponent(owner)),
        ko('kill', answer.kill_ko),
        line('live', answer.to_live, answer.live, owner),
        ko('live', answer.live_ko),
        answer.ten_thousand_year_ko && h('p', { dataset: { tenThousandYearKo: '' } }, t('solve.ko.tenThousand')));
      this.solveEl.dataset.group = answer.group;
    } catch (e) {
      replace(this.solveEl);
      toast(t('error', { message: e.message }), 'error');
    }
  }

  /**
   * Position judgement of the shown position: the ownership shaded on the
   * board (stones the other side owns shown dead) and the score.
   */
  async estimate(shown, scene) {
    const body = this.positionBody(shown);
    try {
      const j = await post('/api/estimate', body);
      if (shown !== this.current || !this.estimating) return;
      const owners = j.ownership.map((o) => (o > 0.3 ? 'black' : o < -0.3 ? 'white' : null));
      const dead = new Set();
      owners.forEach((o, i) => {
        const stone = scene.board.cells[i];
        if (o && stone !== EMPTY && (stone === 1 ? 'black' : 'white') !== o) dead.add(i);
      });
      this.board.render({ ...scene, owners, dead });
      this.scoreEl.textContent = t('estimate.score', { lead: leadText(j.black_lead), black: j.black_area.toFixed(1), white: j.white_area.toFixed(1) });
      this.scoreEl.dataset.lead = j.black_lead.toFixed(1);
    } catch (e) {
      toast(t('error', { message: e.message }), 'error');
    }
  }

  /** Removes the shown node and everything after it (not the root). */
  deleteCurrent() {
    const parent = this.current.parent;
    if (!parent) return;
    parent.children = parent.children.filter((c) => c !== this.current);
    this.go(parent);
  }

  setComment(text) {
    if (text) this.current.props.set('C', [escapeText(text)]);
    else this.current.props.delete('C');
    this.renderTree();
  }

  download() {
    const blob = new Blob([writeSgf(this.tree)], { type: 'application/x-go-sgf' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `${this.name}-analysis.sgf` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  render() {
    const here = this.positionAt(this.current);
    const labels = new Map();
    if (this.numbers) for (const [i, k] of here.numbers) labels.set(i, String(k));
    const scene = { board: here.board, last: here.last, hover: here.toMove, labels };
    this.board.render(scene);
    this.scoreEl.textContent = '';
    delete this.scoreEl.dataset.lead;
    // An answer of the solver is about the position it was asked in.
    replace(this.solveEl);
    if (this.estimating) this.estimate(this.current, scene);
    const mv = moveOf(this.current, this.size);
    const what = mv ? `${mv.color === 'black' ? '●' : '○'} ${mv.point ? toGtp(this.size, mv.point.x, mv.point.y) : t('pass')}` : t('start');
    this.info.textContent = t('moveInfo', { n: here.moves, what });
    this.info.dataset.move = String(here.moves);
    this.comment.value = unescapeText(this.current.props.get('C')?.[0] ?? '');
    this.renderTree();
    this.renderReview();
  }

  /** The tree: the main line as a row of moves, each variation nested under where it branches. */
  renderTree() {
    const size = this.size;
    const lineOf = (first, depth) => {
      const items = [];
      const branches = [];
      let n = first;
      while (n) {
        const mv = moveOf(n, size);
        const label = mv ? (mv.point ? toGtp(size, mv.point.x, mv.point.y) : t('pass')) : t('start');
        const count = pathTo(n).filter((p) => moveOf(p, size)).length;
        items.push(h('button.tree-node', {
          type: 'button',
          class: [n === this.current ? 'current' : '', mv ? mv.color : 'root', n.props.has('C') ? 'commented' : ''].filter(Boolean).join(' '),
          dataset: { node: String(count), depth: String(depth) },
          title: mv ? `${count}. ${label}` : label,
          onclick: ((target) => () => this.go(target))(n),
        }, mv ? `${count}` : '·'));
        for (const v of n.children.slice(1)) branches.push(lineOf(v, depth + 1));
        n = n.children[0];
      }
      return h('div.tree-line', { dataset: { variation: String(depth) } }, h('div.tree-moves', null, ...items), ...branches);
    };
    replace(this.treeEl, lineOf(this.tree, 0));
    this.treeEl.querySelector('.current')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }

  /** The node of the main line after `n` moves. */
  mainLine(n) {
    let found = this.tree;
    let moves = 0;
    while (moves < n && found.children.length) {
      found = found.children[0];
      if (moveOf(found, this.size)) moves++;
    }
    return found;
  }

  /**
   * The reviews and the levels offered: a server game's from its list; an
   * uploaded record's asked one by one under its id (it has no list).
   */
  async listReviews() {
    if (this.id !== null) return get(`/api/games/${this.id}/reviews`);
    const levels = this.levels.length ? this.levels : (await get('/api/reviews')).levels;
    const reviews = await Promise.all(this.recordReviews.map((r) => (r.status === 'queued'
      ? get(`/api/reviews/${r.id}?level=${r.level}`)
      : r)));
    return { levels, reviews };
  }

  async loadReviews() {
    try {
      const listed = await this.listReviews();
      if (this.disposed) return;
      this.levels = listed.levels;
      this.reviews = listed.reviews;
      if (this.id === null) this.recordReviews = listed.reviews;
      const done = listed.reviews.filter((r) => r.status === 'done');
      this.review = done.find((r) => r.level === 'deep') ?? done[0] ?? null;
      this.renderReview();
      if (listed.reviews.some((r) => r.status === 'queued')) this.poll = setTimeout(() => this.loadReviews(), POLL_MS);
    } catch (e) {
      toast(t('error', { message: e.message }), 'error');
    }
  }

  async requestReview(level) {
    try {
      if (this.id === null) {
        const asked = await post('/api/reviews', { sgf: this.recordText, level });
        this.recordReviews = [...this.recordReviews.filter((r) => r.level !== level), asked];
      } else {
        await post(`/api/games/${this.id}/reviews`, { level });
      }
      clearTimeout(this.poll);
      this.loadReviews();
    } catch (e) {
      const key = `review.error.${e.code}`;
      toast(t(key) === key ? e.message : t(key), 'error', 6000);
    }
  }

  renderReview() {
    if (!this.reviewEl) return;
    const parts = [h('h3', null, t('review.title'))];
    for (const r of this.reviews ?? []) {
      if (r.status === 'queued') {
        const p = r.progress;
        parts.push(h('p.review-progress', { dataset: { progress: r.level } },
          t('review.progress', { level: t(`review.${r.level}`), done: p?.done ?? 0, total: p?.total || '…' })));
      }
    }
    const asked = new Set((this.reviews ?? []).map((r) => r.level));
    const offered = this.levels.filter((l) => !asked.has(l.level));
    parts.push(h('div.review-levels', null, ...offered.map((l) => h('button.primary.small', {
      type: 'button', title: levelCost(l), dataset: { reviewLevel: l.level }, onclick: () => this.requestReview(l.level),
    }, t(`review.ask.${l.level}`)))));
    parts.push(...offered.map((l) => h('p.hint', { dataset: { levelCost: l.level } },
      t('review.level', { level: t(`review.${l.level}`), cost: levelCost(l) }))));
    const review = this.review?.review;
    if (review) parts.push(this.graph(review), this.mistakes(review));
    replace(this.reviewEl, ...parts);
  }

  /**
   * Black's win rate (left axis, 0 to 100%) and score lead (right axis,
   * either way up to a round number of points) over the game, the moves
   * along the bottom, a legend naming both lines; a click on the graph
   * goes to that move.
   */
  graph(review) {
    const n = Math.max(1, review.positions.length - 1);
    const x = (i) => (i / n * 100).toFixed(2);
    const points = review.positions.map((p, i) => `${x(i)},${((1 - p.black_winrate) * 100).toFixed(2)}`).join(' ');
    // At least 10 points either way, rounded up to tens: the axis reads in round numbers.
    const scale = 10 * Math.ceil(Math.max(10, ...review.positions.map((p) => Math.abs(p.black_lead))) / 10);
    const scorePoints = review.positions.map((p, i) => `${x(i)},${(50 - p.black_lead / scale * 50).toFixed(2)}`).join(' ');
    const here = this.positionAt(this.current).moves;
    const svg = s('svg', { class: 'review-graph', viewBox: '0 0 100 100', preserveAspectRatio: 'none', role: 'img', 'aria-label': t('review.graph', { n }), 'data-graph': '' },
      s('rect', { x: 0, y: 0, width: 100, height: 100, class: 'graph-back' }),
      s('line', { x1: 0, y1: 50, x2: 100, y2: 50, class: 'graph-half' }),
      s('polyline', { points: scorePoints, class: 'graph-score' }),
      s('polyline', { points, class: 'graph-winrate' }),
      s('line', { x1: here / n * 100, y1: 0, x2: here / n * 100, y2: 100, class: 'graph-here' }));
    svg.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      const move = Math.round((e.clientX - box.left) / box.width * n);
      this.go(this.mainLine(Math.max(0, Math.min(n, move))));
    });
    // The axes are HTML beside the stretched drawing, so that their text keeps its shape.
    const side = (name, labels) => h(`div.graph-axis.${name}`, { dataset: { axis: name } }, ...labels.map((l) => h('span', null, l)));
    const moves = [...new Set([0, Math.round(n / 2), n])];
    const p = review.positions[Math.min(here, review.positions.length - 1)];
    const lead = leadText(p.black_lead);
    return h('div.review-chart', null,
      h('div.graph-frame', null,
        side('winrate', ['100%', '50%', '0%']),
        svg,
        side('lead', [leadText(scale), '0', leadText(-scale)]),
        h('div.graph-axis.moves', { dataset: { axis: 'moves' } },
          ...moves.map((m) => h('span', { style: { left: `${x(m)}%` } }, String(m)))),
        h('span.graph-axis-title', null, t('review.graph.move'))),
      h('ul.graph-legend', { dataset: { legend: '' } },
        h('li.legend-winrate', null, t('review.graph.winrate')),
        h('li.legend-score', null, t('review.graph.lead'))),
      h('p.review-now', { dataset: { winrate: p.black_winrate.toFixed(3) } },
        t('review.now', { winrate: (p.black_winrate * 100).toFixed(1), lead, zi: (p.black_lead / 2).toFixed(1) })));
  }

  /**
   * Each player's biggest mistakes: the move, what it changed for its
   * player (win rate and score, each with its sign), the engine's move
   * and line.
   */
  mistakes(review) {
    const byNumber = new Map(review.moves.map((m) => [m.number, m]));
    // A plain list: each line names its move number, an ordered list would number it again.
    const list = (color, numbers) => h('div.review-mistakes', { dataset: { mistakes: color } },
      h('h4', null, t(`review.mistakes.${color}`)),
      numbers.length ? h('ul', null, ...numbers.map((k) => {
        const m = byNumber.get(k);
        return h('li', null, h('button.link', {
          type: 'button', dataset: { mistake: String(k) }, onclick: () => this.go(this.mainLine(k)),
        }, t('review.mistake', {
          n: k,
          mv: moveName(m.mv),
          // The server gives what the move lost its player: the change is the opposite.
          winrate: signedText(-m.winrate_loss * 100),
          points: signedText(-m.points_loss),
          best: m.best ? moveName(m.best) : '—',
          pv: m.pv.map(moveName).join(' '),
        })));
      })) : h('p.hint', null, t('review.none')));
    return h('div', null, list('black', review.black_mistakes), list('white', review.white_mistakes));
  }
}
