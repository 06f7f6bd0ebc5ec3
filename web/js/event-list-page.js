// The tournaments' lobby: every event, kept current by the lobby socket,
// and for a logged-in player the form that creates one (system, rounds,
// board, clock, tie-breaks, late-arrival limit).

import { get, post } from './api.js';
import { rulesets } from './challenge-form.js';
import { RANKS, authDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { followEvents } from './event-feed.js';
import { linkEventStyle } from './event-style.js';
import { apiErrorText, t } from './i18n.js';
import { navigate } from './router.js';
import { onSession, session } from './session.js';
import { settings } from './settings.js';
import { toast } from './ui.js';

const SYSTEMS = ['swiss', 'mcmahon', 'round_robin', 'knockout'];
/** The games an event can be for: weiqi is played here; the others
 * elsewhere, their results entered by the arbiters. */
const GAMES = ['weiqi', 'xiangqi', 'chess', 'junqi'];
/** The team formats of Art. 25 ('': an individual event). */
const TEAM_FORMATS = ['', 'fixed_boards', 'substitutes', 'per_match', 'all_play_all', 'total_score'];

/** The request body of the form's fields. */
export function eventRequest(fields) {
  const system = {
    swiss: { kind: 'swiss' },
    mcmahon: {
      kind: 'mc_mahon',
      bar: fields.bar,
      floor: fields.floor,
      handicap: { basis: fields.handicapBasis, correction: Number(fields.correction), ceiling: Number(fields.ceiling) },
    },
    round_robin: { kind: 'round_robin', cycles: 1 },
    knockout: { kind: 'knockout', losses: 1 },
  }[fields.system];
  const body = {
    name: fields.name.trim(),
    system,
    size: Number(fields.size),
    ruleset: fields.ruleset,
    rated: fields.rated,
    late_arrival_ms: Math.round(Number(fields.late) * 60_000),
  };
  if (fields.game && fields.game !== 'weiqi') body.game = fields.game;
  if (String(fields.komi).trim()) body.komi = Number(fields.komi);
  if (['swiss', 'mcmahon'].includes(fields.system)) body.rounds = Number(fields.rounds);
  if (fields.teams) body.teams = { boards: Number(fields.boards), format: fields.teams };
  if (fields.time.trim()) body.time_control = fields.time.trim();
  const breaks = fields.tieBreaks.trim().split(/[\s,]+/).filter(Boolean);
  if (breaks.length) body.tie_breaks = breaks;
  return body;
}

async function createForm() {
  const presets = await rulesets();
  const input = (name, attrs) => h('input', { name, ...attrs });
  const field = (label, control, help) => h('label.field', null, h('span', null, label), control, help ? h('small', null, help) : null);
  const rankSelect = (name, value) => h('select', { name }, ...RANKS.map((r) => h('option', { value: r, selected: r === value }, r)));
  const system = h('select', { name: 'system' }, ...SYSTEMS.map((s) => h('option', { value: s }, t(`events.system.${s}`))));
  const ruleset = h('select', { name: 'ruleset' }, ...presets.map((p) => h('option', { value: p.name, selected: p.name === 'chinese' }, t(`rules.${p.name}`))));
  const komi = input('komi', { type: 'number', step: '0.5', min: -100, max: 100, inputMode: 'decimal' });
  const syncKomi = () => { komi.placeholder = String(presets.find((p) => p.name === ruleset.value)?.ruleset.komi ?? ''); };
  ruleset.addEventListener('change', syncKomi);
  syncKomi();
  const error = h('p.form-error', { role: 'alert', hidden: true, dataset: { role: 'event-error' } });
  // McMahon's bar and floor, and its handicap rule (the only system with handicaps).
  const mcmahon = h('fieldset.mcmahon', { dataset: { role: 'mcmahon' } },
    h('legend', null, t('events.mcmahon')),
    h('div.grid-2', null,
      field(t('events.bar'), rankSelect('bar', '1d'), t('events.bar.help')),
      field(t('events.floor'), rankSelect('floor', '20k'), t('events.floor.help'))),
    h('div.grid-3', null,
      field(t('events.handicapBasis'), h('select', { name: 'handicapBasis' },
        h('option', { value: 'mms' }, t('events.handicapBasis.mms')),
        h('option', { value: 'rank' }, t('events.handicapBasis.rank')))),
      field(t('events.correction'), input('correction', { type: 'number', min: 0, max: 9, value: '0' })),
      field(t('events.ceiling'), input('ceiling', { type: 'number', min: 0, max: 9, value: '0' }), t('events.ceiling.help'))));
  const game = h('select', { name: 'game' }, ...GAMES.map((g) => h('option', { value: g }, t(`events.discipline.${g}`))));
  const syncSystem = () => { mcmahon.hidden = system.value !== 'mcmahon'; };
  system.addEventListener('change', syncSystem);
  syncSystem();
  const form = h('form.card.stack', { dataset: { role: 'create-event' } },
    h('h2', null, t('events.create')),
    h('div.grid-2', null,
      field(t('events.name'), input('name', { required: true, maxLength: 100 })),
      field(t('events.system'), system)),
    field(t('events.discipline'), game, t('events.discipline.help')),
    mcmahon,
    h('div.grid-3', null,
      field(t('events.rounds'), input('rounds', { type: 'number', min: 1, max: 20, value: '3' })),
      field(t('events.size'), h('select', { name: 'size' }, ...[19, 13, 9].map((n) => h('option', { value: String(n) }, `${n}×${n}`)))),
      field(t('events.late'), input('late', { type: 'number', min: 0.05, max: 60, step: 'any', value: '15' }))),
    h('div.grid-2', null,
      field(t('form.ruleset'), ruleset),
      field(t('form.komi'), komi, t('form.komi.help'))),
    h('div.grid-2', null,
      field(t('events.teamFormat'),
        h('select', { name: 'teams' }, ...TEAM_FORMATS.map((f) => h('option', { value: f }, t(`events.teamFormat.${f || 'none'}`))))),
      field(t('events.boards'), input('boards', { type: 'number', min: 1, max: 10, value: '3' }))),
    field(t('events.time'), input('time', { placeholder: settings.lang === 'zh' ? '基本用时10分钟，读秒3次30秒' : '10 min + 3×30s byo-yomi' }), t('events.time.help')),
    field(t('events.tieBreaks'), input('tieBreaks', { placeholder: 'points sos sosos' }), t('events.tieBreaks.help')),
    h('label.check', null, input('rated', { type: 'checkbox', checked: true }), t('events.rated')),
    error,
    h('div.actions', null, h('button.primary', { type: 'submit', dataset: { action: 'create-event' } }, t('events.submit'))));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    const f = /** @type {any} */ (form).elements;
    try {
      const event = await post('/api/events', eventRequest({
        name: f.name.value, system: f.system.value, game: f.game.value, rounds: f.rounds.value, size: f.size.value,
        late: f.late.value, time: f.time.value, tieBreaks: f.tieBreaks.value, rated: f.rated.checked,
        teams: f.teams.value, boards: f.boards.value,
        ruleset: f.ruleset.value, komi: f.komi.value, bar: f.bar.value, floor: f.floor.value,
        handicapBasis: f.handicapBasis.value, correction: f.correction.value, ceiling: f.ceiling.value,
      }));
      navigate(`/events/${event.id}`);
    } catch (err) {
      // Beside the form, in the interface's language, with the field named.
      error.textContent = apiErrorText(err);
      error.dataset.code = err.code ?? '';
      error.hidden = false;
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
          h('div.muted', null, `${e.game && e.game !== 'weiqi' ? `${t(`events.discipline.${e.game}`)} · ` : ''}${t(`events.system.${e.system}`)} · ${t('events.by', { name: e.organiser.name })}`)),
        h('div.muted', null, `${e.players} ${t('events.players').toLowerCase()} · ${e.rounds_paired ? t('events.round', { n: e.rounds_paired }) : t('events.notStarted')}`)))
        : [h('p.empty', null, t('events.none'))]));
    } catch (err) {
      if (!gone) toast(apiErrorText(err), 'error');
    }
  }

  async function renderSide() {
    if (!session.user) {
      replace(side, h('div.card', null, h('button.primary', { type: 'button', onclick: () => authDialog('login') }, t('events.login'))));
      return;
    }
    try {
      const form = await createForm();
      if (!gone) replace(side, form);
    } catch (err) {
      toast(apiErrorText(err), 'error');
    }
  }

  replace(root, h('section.events', null,
    h('div', null, h('h1', null, t('events.title')), h('p.muted', null, t('events.intro'))),
    list, side));
  renderSide();
  const off = onSession(renderSide);
  const stop = followEvents(null, load);
  return () => { gone = true; stop(); if (typeof off === 'function') off(); };
}
