// The proverbs (围棋口诀): `/proverbs` shows each proverb, Chinese first
// with its English beside, what it means, and its diagrams. Each diagram
// says what the solver proves of it, one line a side moving first ("黑先杀
// （B7）", "Black to play kills, by B7"), and each first move named there
// has a button that shows it played on the diagram.

import { get } from './api.js';
import { BoardView } from './board.js';
import { h, replace, s } from './dom.js';
import { fromGtp, toGtp } from './goban.js';
import { t } from './i18n.js';
import { groupAt, isWhole, localName, positionAfter, viewBoxOf } from './problem-model.js';
import { onChange, settings } from './settings.js';

let styled = false;
/** Links css/problems.css (the boards' marks) into the document, once. */
function linkStyle() {
  if (styled) return;
  styled = true;
  if (!document.querySelector('link[href="/css/problems.css"]')) {
    document.head.append(h('link', { rel: 'stylesheet', href: '/css/problems.css' }));
  }
}

/** A link the router follows. */
const link = (href, attrs, ...children) => h('a', { ...attrs, href, dataset: { link: '', ...(attrs?.dataset ?? {}) } }, ...children);

/** The colour that owns the diagram's target. */
function defender(d) {
  return d.black.includes(d.target) ? 'black' : 'white';
}

/** A claim in words: "黑先杀（B7）", "Black to play kills, by B7". */
export function claimText(d, claim) {
  const side = claim.mover === defender(d) ? 'defend' : 'attack';
  const text = t(`proverbs.${side}.${claim.verdict}`, { color: t(`proverbs.${claim.mover}`) });
  return claim.moves.length ? t('proverbs.by', { claim: text, moves: claim.moves.join(t('proverbs.or')) }) : text;
}

/** The columns and rows worth showing: the stones and the claims' moves, a line more round them. */
function rangeOf(d) {
  const points = [...d.black, ...d.white, ...d.claims.flatMap((c) => c.moves)].map((g) => fromGtp(d.size, g)).filter(Boolean);
  if (!points.length) return { x0: 0, y0: 0, x1: d.size - 1, y1: d.size - 1 };
  const lo = (v) => Math.max(0, v - 1);
  const hi = (v) => Math.min(d.size - 1, v + 1);
  return {
    x0: lo(Math.min(...points.map((p) => p.x))),
    x1: hi(Math.max(...points.map((p) => p.x))),
    y0: lo(Math.min(...points.map((p) => p.y))),
    y1: hi(Math.max(...points.map((p) => p.y))),
  };
}

/** One diagram: its board, cropped to what matters, and what can be shown on it. */
class DiagramView {
  constructor(d, id) {
    this.d = d;
    this.id = id;
    /** The first move shown: `{mover, move}`, or null for the start position. */
    this.shown = null;
    this.board = new BoardView({ size: d.size });
    this.wrap = h('div.proverb-board', { dataset: { proverbBoard: id, shown: '' }, style: { maxWidth: '22rem' } }, this.board.el);
  }

  crop() {
    const b = this.board;
    const range = rangeOf(this.d);
    const view = Number(b.svg.getAttribute('viewBox').split(' ')[2]) || 1000;
    const box = isWhole(this.d.size, range) ? { x: 0, y: 0, width: view, height: view } : viewBoxOf({ size: this.d.size, cell: b.cell, origin: b.origin, view }, range);
    const text = [box.x, box.y, box.width, box.height].map((v) => v.toFixed(2)).join(' ');
    b.svg.setAttribute('viewBox', text);
    b.wood.setAttribute('viewBox', text);
    b.el.style.aspectRatio = `${box.width.toFixed(2)} / ${box.height.toFixed(2)}`;
  }

  render() {
    const d = this.d;
    const b = this.board;
    const here = this.shown
      ? positionAfter({ ...d, to_move: this.shown.mover }, [this.shown.move])
      : positionAfter({ ...d, to_move: 'black' }, []);
    b.render({ board: here.board, last: here.last });
    // The group at stake, marked as on a problem.
    for (const st of groupAt(here.board, d.target)) {
      const x = b.cx(st.x);
      const y = b.cx(st.y);
      const r = b.cell * 0.3;
      const on = here.board.get(st.x, st.y) === 1 ? 'on-black' : 'on-white';
      b.markLayer.append(s('polygon', {
        points: `${x},${y - r} ${x + r * 0.866},${y + r / 2} ${x - r * 0.866},${y + r / 2}`,
        class: `target ${on}`, 'data-target': toGtp(d.size, st.x, st.y),
      }));
    }
    this.wrap.dataset.shown = this.shown ? `${this.shown.mover} ${this.shown.move}` : '';
  }

  /** Shows `move` played by `mover`, or the start position again when it is the one shown. */
  show(mover, move) {
    const same = this.shown && this.shown.mover === mover && this.shown.move === move;
    this.shown = same ? null : { mover, move };
    this.render();
  }

  el() {
    const d = this.d;
    const lang = settings.lang;
    const claims = d.claims.map((claim, i) => h('li.proverb-claim', {
      dataset: { claim: String(i), mover: claim.mover, verdict: claim.verdict, moves: claim.moves.join(' ') },
    },
    h('span.proverb-claim-text', null, claimText(d, claim)),
    ...claim.moves.map((move) => h('button.ghost.small', {
      type: 'button',
      style: { marginInlineStart: '.4rem' },
      title: t('proverbs.show', { move }),
      'aria-label': t('proverbs.show', { move }),
      dataset: { action: 'show-move', mover: claim.mover, move },
      onclick: () => this.show(claim.mover, move),
    }, move))));
    const figure = h('figure.proverb-diagram', {
      dataset: { diagram: this.id },
      style: { margin: '0', flex: '1 1 18rem', maxWidth: '24rem' },
    },
    this.wrap,
    h('figcaption', null,
      h('p', { style: { fontWeight: '600', margin: '.4rem 0 .2rem' } }, localName(d.caption, lang)),
      h('ul.proverb-claims', { style: { margin: '0', paddingInlineStart: '1.1rem' } }, ...claims),
      h('button.link.small', { type: 'button', dataset: { action: 'show-start' }, onclick: () => { this.shown = null; this.render(); } }, t('proverbs.start'))));
    this.crop();
    this.render();
    return figure;
  }
}

/** `/proverbs`: every proverb with its diagrams. */
export function proverbsPage(root) {
  linkStyle();
  let data = null;
  let alive = true;
  const draw = () => {
    if (!data || !alive) return;
    const lang = settings.lang;
    replace(root, h('section.proverbs', { dataset: { page: 'proverbs' }, style: { maxWidth: '1100px', margin: '0 auto' } },
      link('/problems', { class: 'problem-back' }, `‹ ${t('problems.back')}`),
      h('h1', null, t('proverbs.title')),
      h('p.muted', null, t('proverbs.intro')),
      ...data.proverbs.map((p) => h('section.proverb.card', { id: p.slug, dataset: { proverb: p.slug }, style: { margin: '1rem 0', padding: '1rem' } },
        h('h2', { style: { margin: '0 0 .3rem' } },
          h('span.proverb-zh', { lang: 'zh' }, p.zh),
          h('span.proverb-en.muted', { lang: 'en', style: { fontSize: '.8em', fontWeight: '500', marginInlineStart: '.8rem' } }, p.en)),
        h('p.proverb-explain', null, localName(p.explain, lang)),
        h('div.proverb-diagrams', { style: { display: 'flex', flexWrap: 'wrap', gap: '1.2rem' } },
          ...p.diagrams.map((d, i) => new DiagramView(d, `${p.slug}/${i}`).el()))))));
  };
  const load = async () => {
    replace(root, h('div.page-loading', null, t('misc.loading')));
    try {
      const got = await get('/api/proverbs');
      if (!alive) return;
      data = got;
      draw();
    } catch (e) {
      if (alive) replace(root, h('div.empty-state', { dataset: { error: '' } }, h('h2', null, t('misc.error', { message: e.message }))));
    }
  };
  load();
  const stop = onChange((_, changes) => {
    if (['lang', 'board', 'stones', 'coordinates', 'lastMove'].some((k) => k in changes)) draw();
  });
  return () => {
    alive = false;
    stop();
  };
}
