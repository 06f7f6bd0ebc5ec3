// A round's sheet for paper: the pairing sheet posted at the venue and
// taken to the tables (table numbers, names and ranks, handicap, an empty
// box for each result and room for the players' signatures), or the result
// sheet with every result in. Printed with the browser's own print; the
// page's print rules leave only the sheet.

import { get } from './api.js';
import { h, replace } from './dom.js';
import { linkEventStyle } from './event-style.js';
import { apiErrorText, outcomeName, rankName, sideHeads, t } from './i18n.js';
import { toast } from './ui.js';

/** The sheet page; `kind` is `pairings` or `results`. */
export function eventSheetPage(root, { id, round, kind }) {
  linkEventStyle();
  let gone = false;
  const n = Number(round);

  function render(event) {
    const r = event.rounds.find((x) => x.number === n);
    const back = h('a.button.ghost', { href: `/events/${id}`, dataset: { link: '' } }, t('events.sheet.back'));
    if (!r) {
      replace(root, h('section.event-sheet', null, h('p.empty', null, t('events.sheet.noRound', { n })), back));
      return;
    }
    const rank = new Map(event.players.map((p) => [p.number, rankName(p.rank ?? '')]));
    const teams = r.matches.length > 0;
    const paper = kind === 'pairings';
    const [first, second] = sideHeads(event);
    const head = [t('events.table'), ...(teams ? [t('events.board')] : []), first, t('events.rank'),
      second, t('events.rank'), t('events.handicap'), t('events.result'),
      ...(paper ? [t('events.sheet.signatures')] : [])];
    const row = (g) => h('tr', null,
      h('td.num', null, g.table), teams ? h('td.num', null, g.board) : null,
      h('td', null, g.black.name), h('td', null, rank.get(g.black.number)),
      h('td', null, g.white.name), h('td', null, rank.get(g.white.number)),
      h('td.num', null, g.handicap || ''),
      h('td.result', null, g.result ? outcomeName(g.result) : (paper ? h('span.result-box') : '')),
      paper ? h('td.signatures') : null);
    const tables = teams
      ? r.matches.map((m) => h('div.sheet-match', null, h('h3', null, `${m.black.name} – ${m.white.name}`),
        sheetTable(head, r.games.filter((g) => g.match === m.number).map(row))))
      : [sheetTable(head, r.games.map(row))];
    replace(root, h('section.event-sheet', { dataset: { sheet: kind, round: String(n) } },
      h('div.sheet-actions', null, back,
        h('button.primary', { type: 'button', dataset: { action: 'print' }, onclick: () => window.print() }, t('events.sheet.print'))),
      h('h1', null, event.config.name),
      h('h2', null, t(`events.sheet.${paper ? 'pairings' : 'results'}`, { n })),
      r.started_at ? h('p.muted', null, t('events.sheet.paired', { when: new Date(r.started_at).toLocaleString() })) : null,
      ...tables,
      ...r.byes.map((b) => h('p', null, t('events.bye', { name: b.name, points: b.points }))),
      paper ? h('p.sheet-help', null, t('events.sheet.help')) : null));
  }

  function sheetTable(head, rows) {
    return h('table.sheet-table', { dataset: { role: 'sheet' } },
      h('thead', null, h('tr', null, ...head.map((label) => h('th', null, label)))),
      h('tbody', null, ...rows));
  }

  replace(root, h('p.page-loading', null, '…'));
  get(`/api/events/${id}`).then((event) => { if (!gone) render(event); })
    .catch((err) => { if (!gone) toast(apiErrorText(err), 'error'); });
  return () => { gone = true; };
}
