// A player's profile: rating and rank, declared rank, rated games, the
// games being played now and the finished ones (each opens its review),
// with older pages on demand; buttons to challenge, block, mute or report
// the player (one's own: the account page and logging out).

import { ApiError, get } from './api.js';
import { challengeDialog } from './challenge-form.js';
import { h, replace, s } from './dom.js';
import { dateText } from './format.js';
import { apiErrorText, rankName, ratingRankName, t } from './i18n.js';
import { clearRelation, onRelations, relationOf, setRelation } from './relations.js';
import { reportDialog } from './report-dialog.js';
import { logout, session } from './session.js';
import { settings } from './settings.js';
import { dot, ratingChange, toast } from './ui.js';

/**
 * The rating after each of the recent rated games, oldest first, as a
 * line (the profile's history chart); null without rated games.
 */
function ratingChart(games, player) {
  const points = [];
  for (const g of [...games].reverse()) {
    const mine = g.ratings?.[g.black === player ? 'black' : 'white'];
    if (!g.rated || typeof mine?.after !== 'number') continue;
    if (!points.length) points.push(mine.before);
    points.push(mine.after);
  }
  if (points.length < 2) return null;
  const [w, hgt, pad] = [320, 90, 6];
  const lo = Math.min(...points) - 5;
  const hi = Math.max(...points) + 5;
  const x = (i) => pad + (i * (w - 2 * pad)) / (points.length - 1);
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo);
  const svg = s('svg', { viewBox: `0 0 ${w} ${hgt}`, class: 'rating-chart', role: 'img', 'aria-label': t('profile.history'), 'data-role': 'rating-history' },
    s('polyline', { points: points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }),
    ...points.map((v, i) => s('circle', { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, 'data-rating': String(v) })));
  return h('figure.rating-history', null, svg,
    h('figcaption.muted', null, `${t('profile.history')}: ${Math.round(points[0])} → ${Math.round(points[points.length - 1])}`));
}

/**
 * Block and Mute for `name`, each undone by the same button (a block
 * replaces a mute), drawn again on each change.
 */
function relationButtons(name) {
  const box = h('span.relation-buttons', { dataset: { role: 'relation' } });
  const toggle = async (kind) => {
    try {
      if (relationOf(name) === kind) {
        await clearRelation(name);
        toast(t(kind === 'block' ? 'relation.unblocked' : 'relation.unmuted', { name }), 'success');
      } else {
        await setRelation(name, kind);
        toast(t(kind === 'block' ? 'relation.blocked' : 'relation.muted', { name }), 'success');
      }
    } catch (e) {
      toast(apiErrorText(e), 'error');
    }
  };
  const draw = () => {
    const held = relationOf(name);
    box.dataset.relation = held ?? 'none';
    replace(box,
      h('button.ghost', { type: 'button', dataset: { action: 'block' }, 'aria-pressed': String(held === 'block'), onclick: () => toggle('block') },
        t(held === 'block' ? 'relation.unblock' : 'relation.block')),
      // A block hides the chat too: no mute to offer beside it.
      held === 'block' ? null : h('button.ghost', { type: 'button', dataset: { action: 'mute' }, 'aria-pressed': String(held === 'mute'), onclick: () => toggle('mute') },
        t(held === 'mute' ? 'relation.unmute' : 'relation.mute')));
  };
  draw();
  return { box, draw };
}

/** How many finished games the archive gives at a time. */
const ARCHIVE_PAGE = 20;

/**
 * The finished games of `player`: his last ones (`recent`, from the
 * profile) at first, then those the filters find (opponent, result,
 * board, days ended), older pages on demand. Returns the filters, the
 * list and its "older games" button; `row` draws a game.
 */
function gameArchive(player, recent, row) {
  const any = ['', t('profile.filter.any')];
  const choice = (name, options) => h('select', { name }, ...options.map(([v, label]) => h('option', { value: v }, label)));
  const field = (label, input) => h('label.field', null, h('span', null, label), input);
  const form = h('form.archive-filters', { role: 'search', 'aria-label': t('profile.filter'), dataset: { role: 'game-filters' } },
    field(t('profile.filter.opponent'), h('input', { name: 'opponent', type: 'search', autocomplete: 'off' })),
    field(t('profile.filter.result'), choice('result', [any, ...['won', 'lost', 'draw'].map((r) => [r, t(`profile.${r}`)])])),
    field(t('col.size'), choice('size', [any, ...[9, 13, 19].map((n) => [String(n), `${n}×${n}`])])),
    field(t('profile.filter.from'), h('input', { name: 'from', type: 'date' })),
    field(t('profile.filter.to'), h('input', { name: 'to', type: 'date' })),
    h('div.row', null,
      h('button.primary', { type: 'submit' }, t('profile.filter.apply')),
      h('button.ghost', { type: 'reset' }, t('profile.filter.clear'))));
  const list = h('div.list', { dataset: { role: 'recent-games' } });
  const more = h('button.ghost.wide', { type: 'button', dataset: { action: 'older-games' }, onclick: () => load(list.lastElementChild?.dataset.game) }, t('profile.more'));
  /** The filters filled in, as the archive's query. */
  const filters = () => new URLSearchParams([...new FormData(form)].map(([k, v]) => [k, String(v).trim()]).filter(([, v]) => v));
  const empty = (text) => h('p.empty', { dataset: { role: 'no-games' } }, text);
  /** Drawn `games` (after `before`: below those shown); a page that is full may have more. */
  const show = (games, before, full) => {
    if (!before) replace(list, games.length ? null : empty(t(filters().size ? 'profile.filter.none' : 'profile.none')));
    list.append(...games.map(row));
    more.hidden = !full;
  };
  /** Only the answer to the latest search is drawn. */
  let searches = 0;
  async function load(before) {
    const search = ++searches;
    const query = filters();
    if (before) query.set('before', before);
    query.set('limit', String(ARCHIVE_PAGE));
    try {
      const games = await get(`/api/players/${encodeURIComponent(player)}/games?${query}`);
      if (search === searches) show(games, before, games.length === ARCHIVE_PAGE);
    } catch (e) {
      if (search !== searches) return;
      replace(list, empty(e instanceof ApiError && e.status === 404 ? t('profile.notFound') : apiErrorText(e)));
      more.hidden = true;
    }
  }
  form.addEventListener('change', () => load());
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    load();
  });
  // The fields are emptied after the reset event: search once they are.
  form.addEventListener('reset', () => setTimeout(load));
  // The profile gives the last ten: ten may have older ones.
  show(recent, null, recent.length >= 10);
  return [form, list, more];
}

/** The profile page of `name`. */
export function profilePage(root, { name }) {
  let alive = true;
  let stopRelations = () => {};
  replace(root, h('div.page-loading', null, t('misc.loading')));

  const gameRow = (g, player) => {
    const color = g.black === player ? 'black' : 'white';
    const opp = color === 'black' ? g.white : g.black;
    let outcome = '';
    let cls = '';
    if (g.winner) {
      const won = g.winner === color;
      outcome = t(won ? 'profile.won' : 'profile.lost');
      cls = won ? 'won' : 'lost';
    } else if (g.result === 'Draw') {
      outcome = t('profile.draw');
      cls = 'draw';
    }
    return h('a.row-item.archive', { href: `/game/${g.id}`, dataset: { link: '', game: String(g.id) } },
      h('div.when.muted', null, dateText(g.ended_at ?? g.created_at, settings.lang)),
      h('div.who', null, dot(color), ' ', h('span', null, 'vs '), h('strong', null, opp)),
      h('div.what', null, h('span.size', null, `${g.size}×${g.size}`), h('span', { class: g.rated ? 'rated' : 'casual' }, g.rated ? t('lobby.rated') : t('lobby.casual'))),
      h('div.outcome', { class: cls }, outcome, g.result ? h('span.muted', null, ` ${g.result}`) : null,
        ratingChange(g.ratings?.[color]?.change)));
  };

  (async () => {
    let profile;
    try {
      profile = await get(`/api/players/${encodeURIComponent(name)}`);
    } catch (e) {
      if (!alive) return;
      replace(root, h('div.empty-state', null, h('h2', null, e instanceof ApiError && e.status === 404 ? t('profile.notFound') : t('misc.error', { message: e.message }))));
      return;
    }
    if (!alive) return;
    const p = profile.player;
    const archive = gameArchive(p.name, profile.recent_games, (g) => gameRow(g, p.name));
    const me = session.user;
    const other = me && me.name !== p.name;
    const relation = other ? relationButtons(p.name) : null;
    if (relation) stopRelations = onRelations(relation.draw);
    const stat = (label, value, key) => h('div.stat', { dataset: { stat: key } }, h('span.stat-value', null, value), h('span.stat-label', null, label));
    replace(root, h('div.profile', null,
      h('section.card.profile-head', null,
        h('div.avatar', { 'aria-hidden': 'true' }, p.name.slice(0, 1).toUpperCase()),
        h('div.profile-title', null,
          h('h1', null, p.name),
          h('span.rank-badge', { dataset: { rank: p.rating.rank } }, ratingRankName(p.rating)),
          p.rating.provisional ? h('span.tag', null, t('profile.provisional')) : null),
        other ? h('div.profile-actions', null,
          h('button.primary', { type: 'button', dataset: { action: 'challenge' }, onclick: () => challengeDialog({ opponent: p.name }) }, t('profile.challenge')),
          relation.box,
          h('button.ghost', { type: 'button', dataset: { action: 'report' }, onclick: () => reportDialog({ player: p.name }) }, t('report.button'))) : null,
        me && me.name === p.name ? h('div.profile-actions', null,
          h('a.button.ghost', { href: '/account', dataset: { link: '', action: 'account' } }, t('nav.account')),
          h('button.ghost', { type: 'button', dataset: { action: 'logout' }, onclick: () => logout() }, t('nav.logout'))) : null,
        h('div.stats', null,
          stat(t('profile.rating'), `${Math.round(p.rating.rating)}${p.rating.provisional ? '?' : ''}`, 'rating'),
          stat(t('profile.rank'), ratingRankName(p.rating), 'rank'),
          stat(t('profile.declared'), rankName(p.declared_rank), 'declared'),
          stat(t('profile.games'), String(p.rated_games), 'games'),
          stat(t('profile.joined'), new Date(p.created_at).toLocaleDateString(settings.lang === 'zh' ? 'zh-CN' : 'en-GB'), 'joined'))),
      h('section.card.rank-rule', { dataset: { role: 'rank-rule' } },
        h('h2', null, t('profile.rankRule.title')),
        h('p', null, t(p.rating.provisional ? 'profile.rankRule.provisional' : 'profile.rankRule', { run: p.rating.run })),
        p.rating.streak ? h('p', { dataset: { role: 'run' } }, t(p.rating.streak > 0 ? 'profile.run.up' : 'profile.run.down',
          { n: Math.abs(p.rating.streak), run: p.rating.run, rank: rankName(p.rating.rating_rank) })) : null,
        ratingChart(profile.recent_games, p.name)),
      profile.live_games.length ? h('section.card', null,
        h('h2', null, t('profile.live')),
        h('div.list', null, ...profile.live_games.map((g) => h('a.row-item.live-now', { href: `/game/${g.id}`, dataset: { link: '' } },
          h('div.who', null, dot('black'), g.black.name, h('span.vs', null, 'vs'), dot('white'), g.white.name),
          h('div.muted', null, `${g.size}×${g.size}`))))) : null,
      h('section.card', null, h('h2', null, t('profile.recent')), ...archive)));
  })();

  return () => {
    alive = false;
    stopRelations();
  };
}
