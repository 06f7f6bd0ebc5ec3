// One event: registration, the players, each round's pairings with its
// live games, the standings with every tie-break column, the crosstable,
// the bracket of a knockout, the change log and the downloads; and for the
// organiser and arbiters, the controls that start rounds and enter
// results. Kept current by the lobby socket: the server says when the
// event changed (a registration, a pairing, a result), and the page fetches
// again the event's head and the one table it shows.

import { del, get, post } from './api.js';
import { h, replace } from './dom.js';
import { followEvents } from './event-feed.js';
import { linkEventStyle } from './event-style.js';
import { apiErrorText, columnName, outcomeName, rankName, sideHeads, t } from './i18n.js';
import { session } from './session.js';
import { toast } from './ui.js';

const RESULTS = ['B+', 'W+', 'Draw', 'B+F', 'W+F', 'Both lose', 'Void'];
/** The results of a game whose sides are not weiqi's black and white, as
 * the server writes them (the first mover's score first; forfeits as TRF). */
const OTHER_GAMES_RESULTS = ['1-0', '0-1', '½-½', '+:-', '-:+', 'Both lose', 'Void'];

/** A table that scrolls sideways on its own when wider than the screen. */
function table(role, head, rows) {
  return h('div.table-scroll', null, h('table.event-table', { dataset: { role } },
    h('thead', null, h('tr', null, ...head.map(([label, num]) => h('th', { class: num ? 'num' : '' }, label)))),
    h('tbody', null, ...rows)));
}

/** The event page; returns the function that leaves it. */
export function eventPage(root, { id }) {
  linkEventStyle();
  const base = `/api/events/${id}`;
  let tab = 'pairings';
  /** The round the pairings tab shows; null: the latest. */
  let shownRound = null;
  let gone = false;
  /** Drawn while a form had the focus: redrawn when it is left. */
  let stale = false;
  /** @type {any} */
  let data = null;
  const body = h('div.stack');
  const head = h('div');
  const tabs = h('div.tab-bar', { role: 'tablist' });

  async function act(promise) {
    try {
      await promise;
      await load();
    } catch (err) {
      toast(apiErrorText(err), 'error');
    }
  }

  function renderHead() {
    const e = data.event;
    const you = e.you;
    const rounds = e.config.settings.rounds;
    const paired = e.rounds_paired;
    const status = paired ? (rounds ? t('events.roundOf', { n: paired, of: rounds }) : t('events.round', { n: paired })) : t('events.notStarted');
    const registration = !session.user ? null
      : you.player
        ? h('div.row', null, h('span', null, t('events.registered', { n: you.player })),
          h('button.ghost.small', { type: 'button', dataset: { action: 'withdraw' }, onclick: () => act(del(`${base}/registration`)) }, t('events.withdraw')))
        : e.registration_open
          ? h('button.primary', { type: 'button', dataset: { action: 'register' }, onclick: () => act(post(`${base}/registration`)) }, t('events.register'))
          : h('span.muted', null, t('events.closed'));
    const mine = you.next_game;
    const yourGame = mine ? h('div.card.your-game', { dataset: { role: 'your-game' } },
      h('strong', null, t('events.yourGame', { n: you.next_round })), ' ',
      `${mine.black.name} – ${mine.white.name} `,
      mine.result ? h('span.tag', null, outcomeName(mine.result)) : null,
      mine.game ? h('a.button.primary.small', { href: `/game/${mine.game}`, dataset: { link: '' } }, t('events.open')) : null) : null;
    const controls = you.can_change ? h('div.card.event-controls', { dataset: { role: 'organiser' } },
      h('button.primary', { type: 'button', dataset: { action: 'start-round' }, onclick: () => act(post(`${base}/rounds`)) }, t('events.startRound', { n: e.next_round })),
      inlineForm('add-player', t('events.addPlayer'), t('events.add'), (name) => post(`${base}/players`, { account: name })),
      e.organiser.id === session.user?.id
        ? inlineForm('appoint', t('events.appoint'), t('events.appointButton'), (name) => post(`${base}/arbiters`, { name }))
        : null) : null;
    replace(head,
      h('div.event-head', null,
        h('div', null,
          h('h1', null, e.config.name),
          h('div.muted', null, `${t(`events.system.${systemKind(e)}`)} · ${t('events.by', { name: e.organiser.name })} · ${status}`),
          e.arbiters.length ? h('div.muted', null, t('events.arbiters', { names: e.arbiters.map((a) => a.name).join(', ') })) : null),
        registration),
      yourGame, controls);
  }

  function inlineForm(role, label, button, send) {
    const input = h('input', { name: role, required: true });
    const form = h('form.row', { dataset: { role } }, h('label.field', null, h('span', null, label), input), h('button.ghost', { type: 'submit' }, button));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      act(send(input.value.trim()));
    });
    return form;
  }

  /** The team format of a team event, or null. */
  function teamEvent() {
    return data.event.config.settings.teams?.format ?? null;
  }

  function playerName(n) {
    return data.entrants.players.find((p) => p.number === n)?.name ?? `#${n}`;
  }

  /** Player numbers from "3, ann, 5": numbers as they are, names looked up. */
  function playerNumbers(text) {
    return text.split(/[,，\n]+/).map((x) => x.trim()).filter(Boolean).map((x) => {
      if (/^\d+$/.test(x)) return Number(x);
      const p = data.entrants.players.find((q) => q.name.toLowerCase() === x.toLowerCase());
      if (!p) throw new Error(t('events.unknownPlayer', { name: x }));
      return p.number;
    });
  }

  function teams() {
    const e = data.event;
    const list = data.entrants.teams.length
      ? h('div.table-scroll', null, table('teams', [[t('events.number'), true], [t('events.name.col')], [t('events.members')], ['']],
        data.entrants.teams.map((team) => h('tr', { class: team.withdrawn_from ? 'withdrawn' : '', dataset: { team: team.name } },
          h('td.num', null, team.number), h('td', null, team.name),
          h('td', null, team.members.map(playerName).join(', ')),
          h('td.muted', null, team.withdrawn_from ? t('events.withdrawn') : '')))))
      : h('p.empty', null, t('events.noTeams'));
    if (!e.you.can_change) return h('div.card', null, list);
    const name = h('input', { name: 'team-name', required: true, maxLength: 100 });
    const members = h('input', { name: 'team-members', required: true, placeholder: '1, 2, 3' });
    const form = h('form.stack.team-form', { dataset: { role: 'add-team' } },
      h('label.field', null, h('span', null, t('events.teamName')), name),
      h('label.field', null, h('span', null, t('events.members.help', { n: e.config.settings.teams.boards })), members),
      h('div.actions', null, h('button.primary', { type: 'submit', dataset: { action: 'add-team' } }, t('events.addTeam'))));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      let numbers;
      try {
        numbers = playerNumbers(members.value);
      } catch (err) {
        toast(err.message, 'error');
        return;
      }
      act(post(`${base}/teams`, { name: name.value.trim(), members: numbers }));
    });
    return h('div.stack', null, h('div.card', null, list), h('div.card', null, form));
  }

  function systemKind(e) {
    const kind = e.config.settings.system.kind;
    return kind === 'mc_mahon' ? 'mcmahon' : kind;
  }

  function renderTabs() {
    const names = ['players', ...(teamEvent() ? ['teams'] : []), 'pairings', 'standings', 'crosstable'];
    if (systemKind(data.event) === 'knockout') names.push('bracket');
    names.push('log', 'exports');
    replace(tabs, ...names.map((n) => h('button.tab', {
      type: 'button', role: 'tab', 'aria-selected': String(tab === n), dataset: { tab: n },
      onclick: () => {
        tab = n;
        if (!Object.keys(sources(n)).length) return render();
        renderTabs();
        replace(body, h('p.page-loading', null, '…'));
        return load();
      },
    }, t(`events.${n}`))));
  }

  function players() {
    return h('div.table-scroll', null, table('players', [[t('events.number'), true], [t('events.name.col')], [t('events.rank')], ['']],
      data.entrants.players.map((p) => h('tr', { class: p.withdrawn_from ? 'withdrawn' : '' },
        h('td.num', null, p.number), h('td', null, p.name), h('td', null, rankName(p.rank ?? '')),
        h('td.muted', null, p.withdrawn_from ? t('events.withdrawn') : '')))));
  }

  function resultCell(round, g) {
    if (g.result || !data.event.you.can_change) return h('td', { dataset: { result: '' } }, g.result ? outcomeName(g.result) : (g.game ? t('events.live') : ''));
    const weiqi = (data.event.colors ?? ['black'])[0] === 'black';
    const select = h('select', { name: 'result' }, ...(weiqi ? RESULTS : OTHER_GAMES_RESULTS).map((r) => h('option', { value: r }, outcomeName(r))));
    return h('td', null, h('div.row', null, select,
      h('button.ghost.small', { type: 'button', dataset: { action: 'enter-result' },
        onclick: () => act(post(`${base}/rounds/${round}/tables/${g.table}/result`, { result: select.value })) }, t('events.enter'))));
  }

  function gameRow(r, g, me) {
    return h('tr', { class: me && (g.black.number === me || g.white.number === me) ? 'mine' : '' },
      h('td.num', null, g.table), g.board ? h('td.num', null, g.board) : null,
      h('td', null, g.black.name), h('td', null, g.white.name),
      h('td.num', null, g.handicap || ''), resultCell(r.number, g),
      h('td', null, g.game ? h('a', { href: `/game/${g.game}`, dataset: { link: '' } }, g.result ? `#${g.game}` : t('events.watch')) : ''));
  }

  function pairingHead(boards) {
    return [[t('events.table'), true], ...(boards ? [[t('events.board'), true]] : []),
      ...sideHeads(data.event).map((s) => [s]), [t('events.handicap'), true], [t('events.result')], [t('events.game')]];
  }

  /**
   * The form that names a team's players for its match (临场出人制, and
   * substitutes standing in), while the match has no result.
   */
  function lineupForm(r, side, games) {
    const team = data.entrants.teams.find((t) => t.number === side.number);
    if (!team) return null;
    const current = games.map((g) => (team.members.includes(g.black.number) ? g.black.number : g.white.number));
    const selects = current.map((n, i) => h('select', { name: `board-${i + 1}`, 'aria-label': t('events.boardN', { n: i + 1 }) },
      ...team.members.map((m) => h('option', { value: String(m), selected: m === n }, playerName(m)))));
    const form = h('form.row.lineup', { dataset: { role: `lineup-${r.number}-${team.number}` } },
      h('strong', null, team.name), ...selects,
      h('button.ghost.small', { type: 'submit', dataset: { action: 'set-lineup' } }, t('events.setLineup')));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      act(post(`${base}/lineups`, { round: r.number, team: team.number, players: selects.map((x) => Number(x.value)) }));
    });
    return form;
  }

  function matchBlock(r, m, me) {
    const games = r.games.filter((g) => g.match === m.number);
    const open = data.event.you.can_change && ['substitutes', 'per_match'].includes(teamEvent())
      && r.number === data.event.rounds_paired && games.every((g) => !g.result);
    return h('div.team-match', { dataset: { match: String(m.number) } },
      h('h4', null, `${m.black.name} – ${m.white.name}`),
      h('div.table-scroll', null, table(`pairings-${r.number}-${m.number}`, pairingHead(true), games.map((g) => gameRow(r, g, me)))),
      open ? h('div.stack', null, lineupForm(r, m.black, games), lineupForm(r, m.white, games)) : null);
  }

  /** The buttons that choose the round shown, when there are several. */
  function roundPicker() {
    const paired = data.event.rounds_paired;
    if (paired < 2) return null;
    const shown = data.round.number;
    return h('div.row.round-picker', { dataset: { role: 'round-picker' } }, ...Array.from({ length: paired }, (_, i) => i + 1).map((n) => h('button.ghost.small', {
      type: 'button', 'aria-pressed': String(n === shown), dataset: { pick: String(n) },
      onclick: () => {
        shownRound = n === paired ? null : n;
        load();
      },
    }, t('events.round', { n }))));
  }

  /** The round shown: its games (by match in a team event) and byes. */
  function pairings() {
    const e = data.event;
    if (!e.rounds_paired) return h('p.empty', null, t('events.noRounds'));
    const r = data.round;
    const me = e.you.player;
    return h('div.stack', null, roundPicker(), h('div.card', { dataset: { round: String(r.number) } },
      h('div.round-head', null, h('h3', null, t('events.round', { n: r.number })),
        h('div.row', null,
          h('a.button.ghost.small', { href: `/events/${id}/rounds/${r.number}/pairings`, dataset: { link: '', sheet: 'pairings' } }, t('events.pairingSheet')),
          h('a.button.ghost.small', { href: `/events/${id}/rounds/${r.number}/results`, dataset: { link: '', sheet: 'results' } }, t('events.resultSheet')))),
      r.matches.length
        ? r.matches.map((m) => matchBlock(r, m, me))
        : h('div.table-scroll', null, table(`pairings-${r.number}`, pairingHead(false), r.games.map((g) => gameRow(r, g, me)))),
      ...r.byes.map((b) => h('p.muted', null, t('events.bye', { name: b.name, points: b.points })))));
  }

  function place(r) {
    return `${r.place}${r.shared ? '=' : ''}`;
  }

  function standings() {
    // While a round is being played: its results so far.
    const s = data.standings;
    if (!s.rows.length || !s.rounds) return h('p.empty', null, t('events.noStandings'));
    const caption = s.live ? t('events.soFar', { n: s.rounds }) : t('events.round', { n: s.rounds });
    return h('div.card', null, h('h3', { dataset: { role: 'standings-caption' } }, caption),
      h('div.table-scroll', null,
        table('standings', [[t('events.place'), true], [t('events.name.col')], [t('events.wins'), true], ...s.columns.map((c) => [columnName(c), true])],
          s.rows.map((r) => h('tr', { class: r.withdrawn ? 'withdrawn' : '', dataset: { name: r.name } },
            h('td.num', null, place(r)), h('td', null, r.name), h('td.num', null, r.wins),
            ...r.values.map((v) => h('td.num', null, v)))))));
  }

  function crosstable() {
    const c = data.crosstable;
    if (!c.rows.length || !c.rounds) return h('p.empty', null, t('events.noStandings'));
    return h('div.card', null, h('h3', null, t('events.round', { n: c.rounds })),
      h('div.table-scroll', null,
        table('crosstable', [[t('events.place'), true], [t('events.name.col')],
          ...Array.from({ length: c.rounds }, (_, i) => [String(i + 1), true]),
          [t('events.wins'), true], ...c.columns.map((col) => [columnName(col), true])],
        c.rows.map((r) => h('tr', { dataset: { name: r.name } }, h('td.num', null, place(r)), h('td', null, r.name),
          ...r.cells.map((x) => h('td.num', null, x)),
          h('td.num.total', null, r.wins), ...r.values.map((v) => h('td.num.total', null, v)))))));
  }

  function bracket() {
    return h('div.bracket', { dataset: { role: 'bracket' } }, ...data.bracket.map((r) => h('div.bracket-round', null,
      h('strong', null, t('events.round', { n: r.number })),
      ...r.matches.map((m) => h('div.bracket-match', null,
        h('div', { class: m.winner === m.black ? 'won' : '' }, h('span', null, m.black), h('span', null, m.result ? outcomeName(m.result) : '')),
        h('div', { class: m.winner === m.white ? 'won' : '' }, h('span', null, m.white)))),
      ...r.byes.map((b) => h('div.bracket-match.muted', null, b)))));
  }

  function log() {
    return h('div.card.event-log', null, table('log', [['#', true], [''], [''], ['']],
      [...data.log].reverse().map((l) => h('tr', null, h('td.num', null, l.seq),
        h('td', null, new Date(l.at).toLocaleString()),
        h('td', null, l.actor?.name ?? t('events.server')),
        h('td', null, describe(l.action))))));
  }

  function describe(a) {
    switch (a.type) {
      case 'result': return `${t('events.round', { n: a.round })} · ${t('events.table')} ${a.table}: ${outcomeName(a.outcome)}`;
      case 'ruling': return `${t('events.round', { n: a.round })} · ${t('events.table')} ${a.table}: ${a.ruling.kind}${a.ruling.color ? ` (${a.ruling.color})` : ''} — ${a.reason}`;
      case 'warning': return `${t('events.round', { n: a.round })} · ${t('events.table')} ${a.table}: warning, player ${a.player + 1}`;
      case 'start_round': return t('events.round', { n: a.pairing.number });
      case 'add_player': return `${a.type}: ${a.name}`;
      case 'appoint_arbiter': return `${a.type}: ${a.arbiter.name}`;
      default: return a.type;
    }
  }

  function exports() {
    return h('div.card.exports', { dataset: { role: 'exports' } }, ...[['opengotha', 'OpenGotha XML'], ['h9', 'EGF .h9'], ['trf', 'FIDE TRF'], ['html', 'HTML']]
      .map(([f, label]) => h('a.button.ghost', { href: `${base}/export/${f}`, download: '' }, label)));
  }

  function render() {
    // Drawn only once what the tab shows has come.
    if (!data || !Object.keys(sources(tab)).every((part) => part in data)) return;
    renderHead();
    renderTabs();
    const views = { players, teams, pairings, standings, crosstable, bracket, log, exports };
    replace(body, views[tab]());
    restoreEdits();
  }

  /**
   * The fields of the page's forms changed and not yet sent, by form role
   * and field name: a redraw pushed by a change elsewhere (a result, a
   * registration) keeps a half-made line-up or entry as it was.
   * @type {Map<string, Map<string, string>>}
   */
  const edits = new Map();

  function noteEdit(ev) {
    const field = ev.target;
    const form = field.closest?.('form[data-role]');
    if (!form || !field.name) return;
    const role = form.dataset.role;
    if (!edits.has(role)) edits.set(role, new Map());
    edits.get(role).set(field.name, field.value);
  }

  function restoreEdits() {
    for (const [role, fields] of edits) {
      const form = root.querySelector(`form[data-role="${CSS.escape(role)}"]`);
      if (!form) {
        edits.delete(role);
        continue;
      }
      for (const [name, value] of fields) {
        const field = form.elements.namedItem(name);
        if (!field || !('value' in field)) continue;
        if (field.tagName === 'SELECT' && ![...field.options].some((o) => o.value === value)) continue;
        field.value = value;
      }
    }
  }

  /**
   * What a tab reads besides the event's head, by the name the page keeps
   * it under, fetched only while the tab is shown: a change pushed to every
   * watcher of a large event costs each of them the head and the one table
   * they look at. The head, the players, a round and the standings are
   * served at a told version from the server's cache.
   */
  function sources(shown) {
    const e = data?.event;
    switch (shown) {
      case 'players': case 'teams': return { entrants: 'players' };
      case 'pairings': {
        const n = shownRound ?? e?.rounds_paired;
        return { ...(n ? { round: `rounds/${n}` } : {}), ...(e?.config.settings.teams ? { entrants: 'players' } : {}) };
      }
      case 'standings': return { standings: 'standings/current' };
      case 'crosstable': return { crosstable: 'crosstable' };
      case 'bracket': return { bracket: 'bracket' };
      case 'log': return { log: 'log' };
      default: return {};
    }
  }
  /** The sources the server serves at a told version. */
  const AT_VERSION = new Set(['entrants', 'round', 'standings']);

  /** @param {number} [version] the version the last notice told; 0 or none: now */
  async function load(version = 0) {
    const shown = tab;
    try {
      // What the tabs read depends on the event (its rounds, its teams).
      if (!data) data = { event: await get(`${base}/head`) };
      const wanted = Object.entries(sources(shown));
      const at = version > 0 ? `?version=${version}` : '';
      const [event, ...parts] = await Promise.all([get(`${base}/head${at}`),
        ...wanted.map(([part, path]) => get(`${base}/${path}${AT_VERSION.has(part) ? at : ''}`))]);
      // Another tab was chosen meanwhile: its own load draws it.
      if (gone || shown !== tab) return;
      const next = { event, ...Object.fromEntries(wanted.map(([part], i) => [part, parts[i]])) };
      // A round was paired since the latest was asked for: show it.
      if (shown === 'pairings' && shownRound === null && event.rounds_paired && next.round?.number !== event.rounds_paired) {
        data = next;
        return load(version);
      }
      data = next;
      // A form being filled in is not redrawn under the typing.
      stale = root.contains(document.activeElement) && document.activeElement?.tagName !== 'BUTTON';
      if (!stale) render();
    } catch (err) {
      if (!gone) toast(apiErrorText(err), 'error');
    }
  }

  const section = h('section.events', { dataset: { event: id } }, head, tabs, body);
  section.addEventListener('input', noteEdit);
  section.addEventListener('change', noteEdit);
  // A form sent is no longer being made: the answer's redraw shows the server's.
  section.addEventListener('submit', (ev) => edits.delete(ev.target.dataset?.role));
  section.addEventListener('focusout', () => setTimeout(() => {
    if (stale && !gone && !root.contains(document.activeElement)) {
      stale = false;
      render();
    }
  }));
  replace(root, section);
  replace(body, h('p.page-loading', null, '…'));
  const stop = followEvents(id, load);
  return () => { gone = true; stop(); };
}
