// The tournaments' lobby: every event, kept current by the lobby socket,
// and for a logged-in player the form that creates one (system, rounds,
// board, clock, tie-breaks, late-arrival limit).

import { get, post } from './api.js';
import { authDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { followEvents } from './event-feed.js';
import { et } from './event-strings.js';
import { linkEventStyle } from './event-style.js';
import { apiErrorText } from './i18n.js';
import { navigate } from './router.js';
import { onSession, session } from './session.js';
import { toast } from './ui.js';

const SYSTEMS = ['swiss', 'mcmahon', 'round_robin', 'knockout'];
/** The team formats of Art. 25 ('': an individual event). */
const TEAM_FORMATS = ['', 'fixed_boards', 'substitutes', 'per_match', 'all_play_all', 'total_score'];

/** The request body of the form's fields. */
export function eventRequest(fields) {
  const system = {
    swiss: { kind: 'swiss' },
    mcmahon: { kind: 'mc_mahon', bar: '1d', floor: '20k', handicap: { basis: 'mms', correction: 0, ceiling: 0 } },
    round_robin: { kind: 'round_robin', cycles: 1 },
    knockout: { kind: 'knockout', losses: 1 },
  }[fields.system];
  const body = {
    name: fields.name.trim(),
    system,
    size: Number(fields.size),
    rated: fields.rated,
    late_arrival_ms: Math.round(Number(fields.late) * 60_000),
  };
  if (['swiss', 'mcmahon'].includes(fields.system)) body.rounds = Number(fields.rounds);
  if (fields.teams) body.teams = { boards: Number(fields.boards), format: fields.teams };
  if (fields.time.trim()) body.time_control = fields.time.trim();
  const breaks = fields.tieBreaks.trim().split(/[\s,]+/).filter(Boolean);
  if (breaks.length) body.tie_breaks = breaks;
  return body;
}

function createForm() {
  const input = (name, attrs) => h('input', { name, ...attrs });
  const system = h('select', { name: 'system' }, ...SYSTEMS.map((s) => h('option', { value: s }, et(`events.system.${s}`))));
  const form = h('form.card.stack', { dataset: { role: 'create-event' } },
    h('h2', null, et('events.create')),
    h('div.grid-2', null,
      h('label.field', null, h('span', null, et('events.name')), input('name', { required: true, maxLength: 100 })),
      h('label.field', null, h('span', null, et('events.system')), system)),
    h('div.grid-3', null,
      h('label.field', null, h('span', null, et('events.rounds')), input('rounds', { type: 'number', min: 1, max: 20, value: '3' })),
      h('label.field', null, h('span', null, et('events.size')),
        h('select', { name: 'size' }, ...[19, 13, 9].map((n) => h('option', { value: String(n) }, `${n}×${n}`)))),
      h('label.field', null, h('span', null, et('events.late')), input('late', { type: 'number', min: 0.05, max: 60, step: 'any', value: '15' }))),
    h('div.grid-2', null,
      h('label.field', null, h('span', null, et('events.teamFormat')),
        h('select', { name: 'teams' }, ...TEAM_FORMATS.map((f) => h('option', { value: f }, et(`events.teamFormat.${f || 'none'}`))))),
      h('label.field', null, h('span', null, et('events.boards')), input('boards', { type: 'number', min: 1, max: 10, value: '3' }))),
    h('label.field', null, h('span', null, et('events.time')), input('time', { placeholder: '10 min + 3×30s byo-yomi' }), h('small', null, et('events.time.help'))),
    h('label.field', null, h('span', null, et('events.tieBreaks')), input('tieBreaks', { placeholder: 'points sos sosos' }), h('small', null, et('events.tieBreaks.help'))),
    h('label.check', null, input('rated', { type: 'checkbox', checked: true }), et('events.rated')),
    h('div.actions', null, h('button.primary', { type: 'submit', dataset: { action: 'create-event' } }, et('events.submit'))));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = /** @type {any} */ (form).elements;
    try {
      const event = await post('/api/events', eventRequest({
        name: f.name.value, system: f.system.value, rounds: f.rounds.value, size: f.size.value,
        late: f.late.value, time: f.time.value, tieBreaks: f.tieBreaks.value, rated: f.rated.checked,
        teams: f.teams.value, boards: f.boards.value,
      }));
      navigate(`/events/${event.id}`);
    } catch (err) {
      toast(apiErrorText(err), 'error');
    }
  });
  return form;
}

/** The events' lobby; returns the function that leaves it. */
export function eventListPage(root) {
  linkEventStyle();
  const list = h('div.event-list', { dataset: { role: 'events' } });
  const side = h('div');
  let gone = false;

  async function load() {
    try {
      const events = await get('/api/events');
      if (gone) return;
      replace(list, ...(events.length ? events.map((e) => h('div.card.event-item', { dataset: { event: String(e.id) } },
        h('div', null,
          h('a', { href: `/events/${e.id}`, dataset: { link: '' } }, e.name),
          h('div.muted', null, `${et(`events.system.${e.system}`)} · ${et('events.by', { name: e.organiser.name })}`)),
        h('div.muted', null, `${e.players} ${et('events.players').toLowerCase()} · ${e.rounds_paired ? et('events.round', { n: e.rounds_paired }) : et('events.notStarted')}`)))
        : [h('p.empty', null, et('events.none'))]));
    } catch (err) {
      if (!gone) toast(apiErrorText(err), 'error');
    }
  }

  function renderSide() {
    replace(side, session.user ? createForm()
      : h('div.card', null, h('button.primary', { type: 'button', onclick: () => authDialog('login') }, et('events.login'))));
  }

  replace(root, h('section.events', null,
    h('div', null, h('h1', null, et('events.title')), h('p.muted', null, et('events.intro'))),
    list, side));
  renderSide();
  const off = onSession(renderSide);
  const stop = followEvents(null, load);
  return () => { gone = true; stop(); if (typeof off === 'function') off(); };
}
