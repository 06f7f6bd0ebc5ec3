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
import { dot, toast } from './ui.js';

/** A rating change, signed: `+12.3`, `−8`. */
function ratingChange(change) {
  if (typeof change !== 'number') return null;
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  return h('span.delta', { class: change > 0 ? 'up' : change < 0 ? 'down' : '' }, ` ${sign}${Math.abs(change)}`);
}

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

/** The profile page of `name`. */
export function profilePage(root, { name }) {
  let alive = true;
  let stopRelations = () => {};
  replace(root, h('div.page-loading', null, t('misc.loading')));

  const gameRow = (g, player) => {
    const colour = g.black === player ? 'black' : 'white';
    const opp = colour === 'black' ? g.white : g.black;
    let outcome = '';
    let cls = '';
    if (g.winner) {
      const won = g.winner === colour;
      outcome = t(won ? 'profile.won' : 'profile.lost');
      cls = won ? 'won' : 'lost';
    } else if (g.result === 'Draw') {
      outcome = t('profile.draw');
      cls = 'draw';
    }
    return h('a.row-item.archive', { href: `/game/${g.id}`, dataset: { link: '', game: String(g.id) } },
      h('div.when.muted', null, dateText(g.ended_at ?? g.created_at, settings.lang)),
      h('div.who', null, dot(colour), ' ', h('span', null, 'vs '), h('strong', null, opp)),
      h('div.what', null, h('span.size', null, `${g.size}×${g.size}`), h('span', { class: g.rated ? 'rated' : 'casual' }, g.rated ? t('lobby.rated') : t('lobby.casual'))),
      h('div.outcome', { class: cls }, outcome, g.result ? h('span.muted', null, ` ${g.result}`) : null,
        ratingChange(g.ratings?.[colour]?.change)));
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
    const recent = h('div.list', { dataset: { role: 'recent-games' } }, ...(profile.recent_games.length
      ? profile.recent_games.map((g) => gameRow(g, p.name))
      : [h('p.empty', null, t('profile.none'))]));
    const more = h('button.ghost.wide', {
      type: 'button',
      hidden: profile.recent_games.length < 10,
      async onclick() {
        const rows = recent.querySelectorAll('[data-game]');
        const before = rows[rows.length - 1]?.dataset.game;
        const older = await get(`/api/players/${encodeURIComponent(p.name)}/games?before=${before}&limit=20`);
        recent.append(...older.map((g) => gameRow(g, p.name)));
        more.hidden = older.length < 20;
      },
    }, t('profile.more'));
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
      h('section.card', null, h('h2', null, t('profile.recent')), recent, more)));
  })();

  return () => {
    alive = false;
    stopRelations();
  };
}
