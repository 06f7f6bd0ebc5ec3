// The problems (死活题): `/problems` lists the sets by grade with the
// player's progress and problem rating; `/problems/{set}` is a set's grid
// of numbered problems coloured by the player's first try; and
// `/problems/{set}/{n}` is one problem: the part of the board that matters,
// enlarged, with the group at stake marked. The player clicks a move, the
// server says at once whether it is right and answers with the opponent's
// move, played after a short pause; a wrong move is refuted on the board.
// Retry, a hint (the area of a right first move), the solution as a list
// of lines to step through on the board, the previous and next problems.
// Logged out, everything can be solved and nothing is recorded.

import { get, post } from './api.js';
import { BoardView } from './board.js';
import { h, replace, s } from './dom.js';
import { signedText } from './format.js';
import { fromGtp, toGtp } from './goban.js';
import { colorName, rankName, t } from './i18n.js';
import {
  colorOf, groupAt, groupSets, illegalReason, isWhole, localName, nodesAfter, percent, positionAfter, solutionRows,
  viewBoxOf, viewRange,
} from './problem-model.js';
import { session, onSession } from './session.js';
import { onChange, settings } from './settings.js';
import { dot } from './ui.js';

/** The pause before the opponent's answer is played: the player sees his own stone first. */
const REPLY_MS = 450;

let styled = false;
/** Links css/problems.css into the document, once. */
function linkStyle() {
  if (styled) return;
  styled = true;
  document.head.append(h('link', { rel: 'stylesheet', href: '/css/problems.css' }));
}

const problemsPath = (set, n) => `/problems${set === undefined ? '' : `/${encodeURIComponent(set)}`}${n === undefined ? '' : `/${n}`}`;
const api = (set, n, rest = '') => `/api${problemsPath(set, n)}${rest}`;
/** A link the router follows. */
const link = (href, { dataset = {}, ...attrs } = {}, ...children) => h('a', { ...attrs, href, dataset: { link: '', ...dataset } }, ...children);
const failure = (root, e) => replace(root, h('div.empty-state', { dataset: { error: '' } }, h('h2', null, t('misc.error', { message: e.message }))));

/** A hint or the solution: a POST, since taking one may record the first try as failed. */
const ask = (path) => post(path);

/**
 * Calls `draw` after each language change, `load` after each login or
 * logout, `redraw` after a change of the board's looks; returns the
 * function that stops them.
 */
function follow(draw, load, redraw = () => {}) {
  const stopSettings = onChange((_, changes) => {
    if ('lang' in changes) draw();
    else if (['board', 'stones', 'coordinates', 'lastMove'].some((k) => k in changes)) redraw();
  });
  const stopSession = onSession(() => load());
  return () => {
    stopSettings();
    stopSession();
  };
}

/** A progress bar: the share solved, and the share failed after it. */
function progressBar(solved, failed, count) {
  return h('div.problem-progress', { role: 'img', 'aria-label': t('problems.progress', { solved, count }) },
    h('span.solved', { style: { width: `${percent(solved, count)}%` } }),
    h('span.failed', { style: { width: `${percent(failed, count)}%` } }));
}

/** What the list says of the player's problem rating, or that nothing is recorded. */
function ratingLine(rating) {
  if (!session.user) return h('p.problem-note', { dataset: { role: 'logged-out' } }, t('problems.loggedOut'));
  if (!rating) return h('p.problem-note', { dataset: { problemRating: '' } }, t('problems.rating.none'));
  return h('p.problem-rating', { dataset: { problemRating: rating.rank } },
    t('problems.rating', { rank: rankName(rating.rank), rating: Math.round(rating.rating), attempts: rating.attempts }));
}

/**
 * Shows what `path` answers in `root`: loads it (again after each login or
 * logout) and draws it with `draw(data)` (again after each language
 * change); returns the function that stops it.
 */
function loadedPage(root, path, draw) {
  linkStyle();
  let data = null;
  let alive = true;
  const redraw = () => {
    if (data) draw(data);
  };
  const load = async () => {
    if (!data) replace(root, h('div.page-loading', null, t('misc.loading')));
    try {
      const got = await get(path);
      if (!alive) return;
      data = got;
      redraw();
    } catch (e) {
      if (alive) failure(root, e);
    }
  };
  load();
  const stop = follow(redraw, load);
  return () => {
    alive = false;
    stop();
  };
}

/** `/problems`: the sets by grade. */
export function problemsPage(root) {
  return loadedPage(root, '/api/problems', (data) => {
    const groups = groupSets(data.sets ?? []);
    replace(root, h('section.problems', { dataset: { page: 'problems' } },
      h('h1', null, t('problems.title')),
      h('p.muted', null, t('problems.intro')),
      h('p.problem-proverbs', null, link('/proverbs', { dataset: { proverbsLink: '' } }, t('proverbs.link'))),
      ratingLine(data.rating),
      groups.length ? null : h('p.muted', null, t('problems.empty')),
      ...groups.map(({ grade, sets }) => h('section.problem-grade', { dataset: { grade } },
        h('h2', null, t(`problems.grade.${grade}`) === `problems.grade.${grade}` ? grade : t(`problems.grade.${grade}`)),
        h('div.problem-sets', null, ...sets.map((set) => link(problemsPath(set.id), { class: 'problem-set card', dataset: { set: set.id } },
          h('div.problem-set-head', null,
            h('h3', null, localName(set.name, settings.lang)),
            h('span.muted.small', null, t('problems.count', { n: set.count }))),
          progressBar(set.solved ?? 0, set.failed ?? 0, set.count),
          h('p.small', { dataset: { progress: `${set.solved ?? 0}/${set.count}` } },
            t('problems.progress', { solved: set.solved ?? 0, count: set.count }),
            set.failed ? ` · ${t('problems.failed', { n: set.failed })}` : ''),
          set.source ? h('p.small.muted.problem-source', null, t('problems.source', { source: set.source })) : null)))))));
  });
}

/** `/problems/{set}`: the set's problems, numbered, coloured by the player's first try. */
export function problemSetPage(root, { set }) {
  return loadedPage(root, api(set), (data) => {
    const problems = data.problems ?? [];
    const solved = problems.filter((p) => p.status === 'solved').length;
    const failed = problems.filter((p) => p.status === 'failed').length;
    replace(root, h('section.problems', { dataset: { page: 'problem-set', set: data.id } },
      link(problemsPath(), { class: 'problem-back' }, `‹ ${t('problems.back')}`),
      h('h1', null, localName(data.name, settings.lang)),
      h('p.muted', null, [t(`problems.grade.${data.grade}`), t('problems.count', { n: problems.length })].join(' · ')),
      session.user ? null : h('p.problem-note', { dataset: { role: 'logged-out' } }, t('problems.loggedOut')),
      progressBar(solved, failed, problems.length),
      h('p.small', { dataset: { progress: `${solved}/${problems.length}` } },
        t('problems.progress', { solved, count: problems.length }), failed ? ` · ${t('problems.failed', { n: failed })}` : ''),
      h('div.problem-grid', null, ...problems.map((p) => link(problemsPath(data.id, p.number), {
        class: `problem-cell ${p.status}`,
        title: [t('problems.number', { n: p.number }), p.title, rankName(p.rank), t(`problems.status.${p.status}`)].filter(Boolean).join(' · '),
        dataset: { problem: String(p.number), status: p.status },
      }, h('span.problem-cell-number', null, String(p.number)), h('span.problem-cell-rank', null, p.title ?? rankName(p.rank))))),
      h('ul.problem-legend', null, ...['new', 'solved', 'failed'].map((k) => h(`li.${k}`, null, t(`problems.status.${k}`)))),
      data.source ? h('p.small.muted.problem-source', null, t('problems.source', { source: data.source })) : null));
  });
}

/** `/problems/{set}/{n}`: one problem to solve. */
export function problemPage(root, { set, n }) {
  linkStyle();
  const page = new ProblemPage(root, set, Number(n));
  return () => page.dispose();
}

class ProblemPage {
  constructor(root, set, n) {
    this.root = root;
    this.set = set;
    this.n = n;
    this.disposed = false;
    this.reset();
    this.stop = follow(() => this.build(), () => this.load(), () => {
      if (!this.board) return;
      this.board.build();
      this.crop();
      this.renderBoard();
    });
    this.load();
  }

  dispose() {
    this.disposed = true;
    clearTimeout(this.replyTimer);
    this.stop();
  }

  /** Back to the problem's start: a new try. */
  reset() {
    clearTimeout(this.replyTimer);
    /** The moves of this try (or of the solution line shown), GTP, alternating from `to_move`. */
    this.moves = [];
    this.busy = false;
    /** How the try ended: 'right', 'wrong' or null while it goes on. */
    this.outcome = null;
    /** The status line: its kind, and its words as a key (or the server's message). */
    this.status = { kind: 'idle' };
    /** What the end of the try recorded: the server's `recorded`, or `null` for nothing; undefined before the end. */
    this.recorded = undefined;
    this.confirming = null;
    this.solutionMode = false;
  }

  async load() {
    replace(this.root, h('div.page-loading', null, t('misc.loading')));
    try {
      const [problem, setInfo] = await Promise.all([
        get(api(this.set, this.n)),
        get(api(this.set)).catch(() => null),
      ]);
      if (this.disposed) return;
      this.problem = problem;
      this.setInfo = setInfo;
      this.reset();
      this.hint = null;
      this.solution = null;
      this.board = new BoardView({ size: problem.size, onPoint: (x, y) => this.onPoint(x, y) });
      this.build();
    } catch (e) {
      if (!this.disposed) failure(this.root, e);
    }
  }

  /** Whether a hint or the solution now would spoil a first try still to be recorded. */
  spoils() {
    return Boolean(session.user) && this.problem.status === 'new';
  }

  /** The problem's rank, and how often its first tries are solved. */
  statsText() {
    const p = this.problem;
    return p.attempts
      ? t('problems.stats', { rank: rankName(p.rank), attempts: p.attempts, share: Math.round((p.solved_share ?? 0) * 100) })
      : t('problems.stats.none', { rank: rankName(p.rank) });
  }

  build() {
    const p = this.problem;
    if (!p || this.disposed) return;
    const count = p.count ?? this.setInfo?.problems?.length ?? p.number;
    const setName = this.setInfo ? localName(this.setInfo.name, settings.lang) : t('problems.back');
    const step = (action, k, label) => (k >= 1 && k <= count
      ? link(problemsPath(p.set, k), { class: 'button ghost small', dataset: { action } }, label)
      : h('button.ghost.small', { type: 'button', disabled: true, dataset: { action } }, label));
    const button = (action, label, onclick, cls = 'ghost') => h(`button.${cls}.small`, { type: 'button', dataset: { action }, onclick }, label);
    this.statusEl = h('p.problem-status', { role: 'status', 'aria-live': 'polite' });
    this.recordEl = h('p.problem-record', { dataset: { recorded: '' } });
    this.noteEl = h('div.problem-notes');
    this.solutionEl = h('div.problem-solution', { dataset: { solution: '' } });
    this.boardWrap = h('div.problem-board', { dataset: { problemBoard: '' } }, this.board.el);
    replace(this.root, h('div.problem-page', { dataset: { page: 'problem', set: p.set, number: String(p.number), status: p.status } },
      h('div.problem-play', null,
        h('header.problem-head', null,
          link(problemsPath(p.set), { class: 'problem-back' }, `‹ ${setName}`),
          h('h1', null, t('problems.of', { n: p.number, count }), p.title ? h('span.problem-title', null, ` · ${p.title}`) : null),
          h('p.problem-caption', { dataset: { caption: `${p.to_move}-${p.goal}` } },
            dot(p.to_move), h('strong', null, t(`problems.caption.${p.to_move}.${p.goal}`)),
            p.target ? h('span.muted', null, ` · ${t('problems.target')}`) : null)),
        this.boardWrap,
        this.statusEl,
        this.recordEl,
        h('div.problem-actions', null,
          button('retry', t('problems.retry'), () => this.retry(), 'primary'),
          button('hint', t('problems.hint'), () => this.ask('hint')),
          button('solution', t('problems.solution'), () => this.ask('solution')),
          h('span.problem-steps', null,
            step('prev', p.number - 1, `‹ ${t('problems.prev')}`),
            step('next', p.number + 1, `${t('problems.next')} ›`)))),
      h('aside.problem-side', null,
        (this.statsEl = h('p.muted.small', { dataset: { stats: '' } }, this.statsText())),
        h('p.small', { dataset: { yours: p.status } }, t('problems.yours', { status: t(`problems.status.${p.status}`) })),
        session.user ? null : h('p.problem-note', { dataset: { role: 'logged-out' } }, t('problems.loggedOut')),
        this.noteEl,
        this.solutionEl)));
    this.crop();
    this.renderAll();
  }

  /** Shows the problem's `view` of the board, enlarged (after each rebuild of the board). */
  crop() {
    const p = this.problem;
    const range = viewRange(p.size, p.view);
    const view = Number(this.board.svg.getAttribute('viewBox').split(' ')[2]) || 1000;
    const box = isWhole(p.size, range) ? { x: 0, y: 0, width: view, height: view } : viewBoxOf({ size: p.size, cell: this.board.cell, origin: this.board.origin, view }, range);
    const text = [box.x, box.y, box.width, box.height].map((v) => v.toFixed(2)).join(' ');
    this.board.svg.setAttribute('viewBox', text);
    this.board.wood.setAttribute('viewBox', text);
    const ratio = box.width / box.height;
    this.board.el.style.aspectRatio = `${box.width.toFixed(2)} / ${box.height.toFixed(2)}`;
    // A tall view is no taller than the screen leaves room for.
    this.board.el.style.maxWidth = `calc((100vh - var(--header) - 12rem) * ${ratio.toFixed(3)})`;
    this.boardWrap.dataset.view = `${toGtp(p.size, range.x0, range.y0)}-${toGtp(p.size, range.x1, range.y1)}`;
    // The coordinates as the board sizes them (at least 9.5 px on the
    // screen), for the part shown: enlarged, they need less of a line.
    const b = this.board;
    b.sizeCoordinates = () => {
      const width = b.el.clientWidth;
      const least = width ? (9.5 * box.width) / width : 0;
      const most = b.cell * (box.width < view ? 0.42 : 0.6);
      b.coordLayer.setAttribute('font-size', Math.min(most, Math.max(b.cell * 0.36, least)).toFixed(1));
    };
    b.sizeCoordinates();
  }

  renderAll() {
    this.renderBoard();
    this.renderStatus();
    this.renderNotes();
    this.renderSolution();
  }

  renderBoard() {
    const p = this.problem;
    const here = positionAfter(p, this.moves);
    const playing = !this.solutionMode && !this.busy && !this.outcome && here.toMove === p.to_move;
    const labels = this.solutionMode ? new Map([...here.numbers].map(([i, k]) => [i, String(k)])) : null;
    this.board.render({ board: here.board, last: this.solutionMode ? null : here.last, hover: playing ? p.to_move : null, labels });
    this.marks(here.board, labels);
    this.boardWrap.dataset.moves = String(this.moves.length);
    this.boardWrap.dataset.line = this.moves.join(' ');
    this.boardWrap.classList.toggle('waiting', this.busy);
  }

  /** The target group's triangles and the hint's shaded points, over the board's own drawing. */
  marks(board, labels = null) {
    const b = this.board;
    const p = this.problem;
    const c = b.cell;
    for (const st of groupAt(board, p.target)) {
      if (labels?.has(st.y * p.size + st.x)) continue;
      const x = b.cx(st.x);
      const y = b.cx(st.y);
      const r = c * 0.3;
      const on = board.get(st.x, st.y) === 1 ? 'on-black' : 'on-white';
      b.markLayer.append(s('polygon', {
        points: `${x},${y - r} ${x + r * 0.866},${y + r / 2} ${x - r * 0.866},${y + r / 2}`,
        class: `target ${on}`, 'data-target': toGtp(p.size, st.x, st.y),
      }));
    }
    for (const gtp of this.hint ?? []) {
      const at = fromGtp(p.size, gtp);
      if (!at) continue;
      const square = b.cellRect(at.x, at.y, 'hint');
      square.setAttribute('data-hint', gtp);
      b.tintLayer.append(square);
    }
  }

  /** @param {{kind: string, key?: string, vars?: Record<string, any>, message?: string}} status */
  setStatus(status) {
    this.status = status;
    this.renderStatus();
  }

  renderStatus() {
    if (!this.statusEl) return;
    const { kind, key, vars, message } = this.status;
    this.statusEl.textContent = message ?? t(key ?? (this.solutionMode ? 'problems.solution.help' : 'problems.play'), vars);
    this.statusEl.dataset.result = kind;
    const r = this.recorded;
    let text = '';
    if (r) {
      const { before, after, rank } = r.rating ?? {};
      text = r.rating
        ? t('problems.recorded', {
          status: t(`problems.status.${r.status}`),
          before: Math.round(before), after: Math.round(after), change: signedText(after - before), rank: rankName(rank),
        })
        : t(`problems.status.${r.status}`);
      this.recordEl.dataset.recorded = r.status;
      if (r.rating) this.recordEl.dataset.rating = String(after);
    } else if (r === null) {
      text = session.user ? t('problems.notRecorded.again') : t('problems.notRecorded.loggedOut');
      this.recordEl.dataset.recorded = 'no';
    }
    this.recordEl.textContent = text;
    this.recordEl.hidden = !text;
    const yours = this.root.querySelector('[data-yours]');
    if (yours) {
      yours.dataset.yours = this.problem.status;
      yours.textContent = t('problems.yours', { status: t(`problems.status.${this.problem.status}`) });
    }
  }

  renderNotes() {
    if (!this.noteEl) return;
    const parts = [];
    if (this.confirming) {
      const what = this.confirming;
      parts.push(h('div.problem-confirm', { dataset: { confirm: what } },
        h('p', null, t(`problems.warn.${what}`)),
        h('div.problem-actions', null,
          h('button.primary.small', { type: 'button', dataset: { action: 'confirm' }, onclick: () => this.take(what) }, t('problems.warn.go')),
          h('button.ghost.small', { type: 'button', dataset: { action: 'cancel' }, onclick: () => { this.confirming = null; this.renderNotes(); } }, t('problems.warn.cancel')))));
    }
    if (this.hint) parts.push(h('p.problem-note', { dataset: { hintNote: '' } }, t('problems.hint.shown')));
    replace(this.noteEl, ...parts);
  }

  renderSolution() {
    if (!this.solutionEl) return;
    if (!this.solution) {
      replace(this.solutionEl);
      return;
    }
    const p = this.problem;
    const rows = solutionRows(this.solution);
    const shown = this.solutionMode ? this.moves.join(' ') : null;
    const moveButton = (path, mv, i) => {
      const line = [...path, mv];
      const color = colorOf(p.to_move, line.length - 1);
      return h('button.solution-move', {
        type: 'button',
        class: line.join(' ') === shown ? 'current' : '',
        title: `${line.length}. ${colorName(color)} ${mv}`,
        dataset: { solutionMove: mv, path: line.join(' ') },
        onclick: () => this.showLine(line),
      }, dot(color), h('span', null, i === 0 || path.length === 0 ? `${line.length}.${mv}` : mv));
    };
    replace(this.solutionEl,
      h('h2', null, t('problems.solution.title')),
      h('button.link.small', { type: 'button', dataset: { action: 'solution-start' }, class: shown === '' ? 'current' : '', onclick: () => this.showLine([]) }, t('problems.solution.start')),
      rows.length ? null : h('p.muted', null, t('problems.solution.none')),
      h('div.solution-rows', null, ...rows.map((row) => h('div.solution-row', {
        class: row.correct ? 'right' : 'wrong',
        style: { paddingInlineStart: `${row.depth * 1.1}rem` },
        dataset: { depth: String(row.depth), correct: String(row.correct) },
      },
      row.depth === 0 ? h('span.solution-verdict', null, t(row.correct ? 'problems.solution.right' : 'problems.solution.wrong')) : h('span.solution-branch', { 'aria-hidden': 'true' }, '└'),
      ...row.moves.map((mv, i) => moveButton([...row.path, ...row.moves.slice(0, i)], mv, i))))));
  }

  /** A line of the solution on the board, its stones numbered. */
  showLine(line) {
    clearTimeout(this.replyTimer);
    this.busy = false;
    this.outcome = null;
    this.solutionMode = true;
    this.recorded = undefined;
    this.moves = line;
    this.status = { kind: 'solution' };
    this.renderAll();
  }

  retry() {
    this.reset();
    this.renderAll();
  }

  /** Hint or solution: asked for at once, or after a warning when it would spoil the first try. */
  ask(what) {
    if (this.spoils() && !this.outcome) {
      this.confirming = what;
      this.renderNotes();
      return;
    }
    this.take(what);
  }

  async take(what) {
    this.confirming = null;
    this.renderNotes();
    const p = this.problem;
    try {
      const answer = await ask(api(p.set, p.number, `/${what}`));
      if (this.disposed || this.problem !== p) return;
      // The server counts the first try as failed when it was still to come.
      if (this.spoils()) this.problem.status = 'failed';
      if (what === 'hint') {
        this.hint = answer.area ?? [];
        this.renderBoard();
        this.renderNotes();
        this.renderStatus();
      } else {
        this.solution = answer.tree ?? [];
        this.showLine([]);
      }
    } catch (e) {
      this.setStatus({ kind: 'error', key: 'misc.error', vars: { message: e.message } });
    }
  }

  /** A click on the board: the player's move, or a step along the solution. */
  async onPoint(x, y) {
    const p = this.problem;
    const gtp = toGtp(p.size, x, y);
    if (this.solutionMode) {
      const next = nodesAfter(this.solution, this.moves)?.find((node) => node.move === gtp);
      if (next) this.showLine([...this.moves, gtp]);
      return;
    }
    const here = positionAfter(p, this.moves);
    if (this.busy || this.outcome || here.toMove !== p.to_move) return;
    const why = illegalReason(here.board, here.previous, here.toMove, x, y);
    if (why === 'occupied') return;
    if (why) {
      this.setStatus({ kind: 'error', key: `problems.illegal.${why}` });
      return;
    }
    const line = [...this.moves, gtp];
    this.moves = line;
    this.busy = true;
    this.status = { kind: 'thinking', key: 'problems.thinking' };
    this.renderBoard();
    this.renderStatus();
    let answer;
    try {
      answer = await post(api(p.set, p.number, '/moves'), { moves: line });
    } catch (e) {
      if (this.disposed || this.moves !== line) return;
      // Refused (an illegal move, the server busy): as it was before the click.
      this.moves = line.slice(0, -1);
      this.busy = false;
      const key = `problems.error.${e.code}`;
      this.status = t(key) === key ? { kind: 'error', message: e.message } : { kind: 'error', key };
      this.renderBoard();
      this.renderStatus();
      return;
    }
    if (this.disposed || this.moves !== line) return;
    const reply = answer.reply && fromGtp(p.size, answer.reply) ? answer.reply : null;
    if (!answer.correct) {
      this.outcome = 'wrong';
      this.status = reply ? { kind: 'wrong', key: 'problems.wrong.reply', vars: { move: reply } } : { kind: 'wrong', key: 'problems.wrong' };
    } else if (answer.solved) {
      this.outcome = 'right';
      this.status = { kind: 'right', key: 'problems.right' };
    } else {
      this.status = { kind: 'good', key: 'problems.good' };
    }
    if (this.outcome) {
      this.recorded = answer.recorded ?? null;
      if (answer.recorded) {
        // The problem's own figures count this first try too.
        const tries = p.attempts ?? 0;
        const solved = (p.solved_share ?? 0) * tries + (answer.recorded.status === 'solved' ? 1 : 0);
        p.status = answer.recorded.status;
        p.attempts = tries + 1;
        p.solved_share = solved / p.attempts;
        if (this.statsEl) this.statsEl.textContent = this.statsText();
      }
    }
    this.renderStatus();
    if (reply) {
      this.replyTimer = setTimeout(() => {
        if (this.disposed || this.moves !== line) return;
        this.moves = [...line, reply];
        this.busy = false;
        this.renderBoard();
      }, REPLY_MS);
    } else {
      this.busy = false;
      this.renderBoard();
    }
  }
}
