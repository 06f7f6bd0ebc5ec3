// The form of a new challenge: every setting the server takes (board size,
// ruleset preset, komi, handicap, colours, each time system, Art. 22.5,
// rated), sent as POST /api/challenges — or, against the computer, the same
// settings plus a level, sent as POST /api/computer/games.

import { post, get } from './api.js';
import { h } from './dom.js';
import { apiErrorText, rankName, t } from './i18n.js';
import { segmented } from './dialogs.js';
import { openDialog, toast } from './ui.js';

/** @type {Promise<any[]> | null} */
let presets = null;
/** The ruleset presets, asked once. */
export function rulesets() {
  presets ??= get('/api/rulesets').catch((e) => {
    presets = null;
    throw e;
  });
  return presets;
}

const MIN = 60_000;
const SEC = 1000;

/** A number input. */
function num(name, value, attrs = {}) {
  return h('input', { type: 'number', name, value: String(value), inputMode: 'decimal', ...attrs });
}

/** @type {Promise<any[]> | null} */
let computerLevels = null;
/** The computer's levels (weakest first), asked once. */
export function computerLevelList() {
  computerLevels ??= get('/api/computer').catch((e) => {
    computerLevels = null;
    throw e;
  });
  return computerLevels;
}

/** A level as offered: its number, the computer's account and the rank it measured on each board size. */
export function levelText(level) {
  const ranks = level.ranks.map((r) => `${r.size}×${r.size} ${rankName(r.rank)}`).join(', ');
  return t('computer.levelName', { level: level.level, name: level.player.name, rank: ranks });
}

/** A choice of the computer's levels. */
export function levelSelect(levels, value) {
  const select = h('select', { name: 'level' }, ...levels.map((l) => h('option', { value: String(l.level) }, levelText(l))));
  if (value !== undefined) select.value = String(value);
  return select;
}

function field(label, input, help) {
  return h('label.field', null, h('span', null, label), input, help ? h('small', null, help) : null);
}

/**
 * Opens the form; `opponent` fills in a named opponent; `computer` makes it
 * a game against the computer at that level, started at once (`onCreated`
 * then gets the game).
 * @param {{opponent?: string, computer?: number, onCreated?: (created: any) => void}} [options]
 */
export async function challengeDialog(options = {}) {
  const all = await rulesets();
  const vsComputer = options.computer !== undefined;
  const levels = vsComputer ? await computerLevelList() : [];
  const level = levelSelect(levels, options.computer);
  const state = {
    opponentKind: options.opponent ? 'named' : 'open',
    size: 19,
    handicap: 'none',
    color: 'nigiri',
    system: 'byo_yomi',
    mode: 'single',
  };
  const boards = num('boards', 3, { min: 2, max: 20, step: 1 });
  const boardsRow = field(t('form.boards'), boards);
  boardsRow.hidden = true;
  const error = h('p.form-error', { role: 'alert', hidden: true });

  const opponentName = h('input', { name: 'opponent', value: options.opponent ?? '', placeholder: t('lobby.search.placeholder'), autocomplete: 'off' });
  const opponentRow = field(t('form.opponent.named'), opponentName);
  opponentRow.hidden = state.opponentKind === 'open';

  const otherSize = num('size', 19, { min: 2, max: 25, step: 1 });
  const otherSizeRow = h('div.inline-field', { hidden: true }, otherSize);
  const ruleset = h('select', { name: 'ruleset' }, ...all.map((p) => h('option', { value: p.name }, t(`rules.${p.name}`))));
  const komiDefault = h('input', { type: 'checkbox', name: 'komi-default', checked: true });
  const komi = num('komi', 7.5, { step: 0.5, min: -150, max: 150, disabled: true });
  const syncKomi = () => {
    const preset = all.find((p) => p.name === ruleset.value);
    if (komiDefault.checked && preset) {
      komi.value = String(state.handicap === 'fixed' || state.handicap === 'free' ? preset.ruleset.handicap_komi : preset.ruleset.komi);
    }
    komi.disabled = komiDefault.checked;
  };
  ruleset.addEventListener('change', syncKomi);
  komiDefault.addEventListener('change', syncKomi);

  const stones = num('stones', 2, { min: 2, max: 9, step: 1 });
  const stonesRow = field(t('form.stones'), stones);
  stonesRow.hidden = true;
  // Against the computer a game is casual unless the player asks for rated.
  const rated = h('input', { type: 'checkbox', name: 'rated', checked: !vsComputer });
  const ratedNote = h('small.muted', { hidden: true }, t('form.handicap.rated'));
  const colorGroup = segmented('color', [['nigiri', t('form.color.nigiri')], ['black', t('form.color.black')], ['white', t('form.color.white')]],
    state.color, (v) => { state.color = v; });

  const syncHandicap = () => {
    const placed = state.handicap === 'fixed' || state.handicap === 'free';
    stonesRow.hidden = !placed;
    if (placed) {
      rated.checked = false;
      if (state.color === 'nigiri') colorGroup.querySelector('[data-value="white"]')?.click();
    }
    rated.disabled = placed;
    ratedNote.hidden = !placed;
    colorGroup.querySelector('[data-value="nigiri"]')?.toggleAttribute('disabled', placed);
    syncKomi();
  };

  // Time controls: one set of fields per system.
  const f = {
    main: num('main', 10, { min: 0, step: 1 }),
    periods: num('periods', 5, { min: 1, max: 99, step: 1 }),
    period: num('period', 30, { min: 1, step: 1 }),
    moves: num('moves', 15, { min: 1, step: 1 }),
    periodMin: num('period-min', 10, { min: 1, step: 1 }),
    carry: h('input', { type: 'checkbox', name: 'carry', checked: true }),
    increment: num('increment', 10, { min: 1, step: 1 }),
    max: num('max', '', { min: 1, step: 1 }),
    perMove: num('per-move', 30, { min: 1, step: 1 }),
    timeOut: h('input', { type: 'checkbox', name: 'time-out-pass' }),
  };
  const rows = {
    main: field(t('form.main'), f.main),
    periods: field(t('form.periods'), f.periods),
    period: field(t('form.period'), f.period),
    moves: field(t('form.moves'), f.moves),
    periodMin: field(t('form.periodMin'), f.periodMin),
    carry: h('label.check', null, f.carry, t('form.carry')),
    increment: field(t('form.increment'), f.increment),
    max: field(t('form.max'), f.max),
    perMove: field(t('form.perMove'), f.perMove),
    timeOut: h('label.check', null, f.timeOut, t('form.timeOut')),
  };
  const shown = {
    byo_yomi: ['main', 'periods', 'period', 'timeOut'],
    moves_per_period: ['main', 'moves', 'periodMin', 'carry'],
    absolute: ['main'],
    fischer: ['main', 'increment', 'max'],
    per_move: ['perMove', 'timeOut'],
    none: [],
  };
  const syncTime = () => {
    for (const [k, row] of Object.entries(rows)) row.hidden = !shown[state.system].includes(k);
  };
  const timeControl = () => {
    const n = (input) => Number(input.value);
    switch (state.system) {
      case 'byo_yomi': return { system: 'byo_yomi', main: n(f.main) * MIN, periods: n(f.periods), period: n(f.period) * SEC };
      case 'moves_per_period': return { system: 'moves_per_period', main: n(f.main) * MIN, moves: n(f.moves), period: n(f.periodMin) * MIN, leftover: f.carry.checked ? 'carried_over' : 'lost' };
      case 'absolute': return { system: 'absolute', main: n(f.main) * MIN };
      case 'fischer': return { system: 'fischer', main: n(f.main) * MIN, increment: n(f.increment) * SEC, max: f.max.value ? n(f.max) * MIN : null };
      case 'per_move': return { system: 'per_move', time: n(f.perMove) * SEC };
      default: return { system: 'none' };
    }
  };

  const submit = h('button.primary.wide', { type: 'submit' }, t(vsComputer ? 'computer.play' : 'form.submit'));
  const form = h('form.challenge-form', {
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      const size = state.size === 0 ? Number(otherSize.value) : state.size;
      const handicap = state.handicap === 'fixed' || state.handicap === 'free'
        ? { kind: state.handicap, stones: Number(stones.value) }
        : { kind: state.handicap };
      const body = {
        size,
        ruleset: ruleset.value,
        handicap,
        color: state.color,
        time_control: timeControl(),
        rated: rated.checked,
      };
      if (!komiDefault.checked) body.komi = Number(komi.value);
      if (vsComputer) body.level = Number(level.value);
      else if (state.mode === 'rengo') body.rengo = true;
      else if (state.mode === 'simul') body.simul = Number(boards.value);
      else if (state.opponentKind === 'named') body.opponent = opponentName.value.trim();
      const canPass = state.system === 'byo_yomi' || state.system === 'per_move';
      if (canPass && f.timeOut.checked) body.time_out = 'pass';
      submit.disabled = true;
      try {
        const created = await post(vsComputer ? '/api/computer/games' : '/api/challenges', body);
        close();
        if (!vsComputer) toast(t('lobby.challenges'), 'success', 1500);
        options.onCreated?.(created);
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  vsComputer ? field(t('computer.level'), level) : h('fieldset', null,
    h('legend', null, t('form.opponent')),
    segmented('opponent', [['open', t('form.opponent.open')], ['named', t('form.opponent.named')]], state.opponentKind, (v) => {
      state.opponentKind = v;
      opponentRow.hidden = v === 'open';
    }),
    opponentRow,
    h('div.field', null, h('span', null, t('form.mode')),
      segmented('mode', [['single', t('form.mode.single')], ['rengo', t('form.mode.rengo')], ['simul', t('form.mode.simul')]], state.mode, (v) => {
        state.mode = v;
        boardsRow.hidden = v !== 'simul';
        opponentRow.hidden = v !== 'single' || state.opponentKind === 'open';
        // A rengo is casual and even.
        if (v === 'rengo') rated.checked = false;
      }),
      h('small', null, t('form.mode.help'))),
    boardsRow),
  h('fieldset', null,
    h('legend', null, t('form.size')),
    h('div.row', null,
      segmented('size', [[9, '9×9'], [13, '13×13'], [19, '19×19'], [0, t('form.size.other')]], state.size, (v) => {
        state.size = v;
        otherSizeRow.hidden = v !== 0;
      }),
      otherSizeRow)),
  h('div.grid-2.rules-komi', null,
    field(t('form.ruleset'), ruleset),
    h('div.field', null, h('span', null, t('form.komi')),
      h('div.row', null, komi, h('label.check', null, komiDefault, t('form.komi.default'))),
      h('small', null, t('form.komi.help')))),
  h('fieldset', null,
    h('legend', null, t('form.handicap')),
    segmented('handicap', [['none', t('form.handicap.none')], ['auto', t('form.handicap.auto')], ['fixed', t('form.handicap.fixed')], ['free', t('form.handicap.free')]],
      state.handicap, (v) => { state.handicap = v; syncHandicap(); }),
    stonesRow),
  h('fieldset', null, h('legend', null, t('form.color')), colorGroup),
  h('fieldset', null,
    h('legend', null, t('form.time')),
    segmented('system', ['byo_yomi', 'moves_per_period', 'absolute', 'fischer', 'per_move', 'none'].map((v) => [v, t(`form.time.${v}`)]),
      state.system, (v) => { state.system = v; syncTime(); }),
    h('div.grid-3', null, rows.main, rows.periods, rows.period, rows.moves, rows.periodMin, rows.increment, rows.max, rows.perMove),
    rows.carry, rows.timeOut),
  h('label.check', null, rated, t('form.rated')), ratedNote,
  error,
  submit);
  syncKomi();
  syncTime();
  const { close } = openDialog(t(vsComputer ? 'computer.title' : 'lobby.custom'), form, { wide: true });
}
