// The moderators' desk (/moderation), for moderators and administrators:
// the open reports, each with the chat around the reported line (that line
// marked), its game and record, and what to do — warn, mute or suspend for
// some minutes, ban, annul the game's rating changes, or dismiss, each
// with a reason the player is told; below, the audit log, where an action
// that holds can be lifted.

import { ApiError, get, post } from './api.js';
import { authDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { dateText } from './format.js';
import { apiErrorText, t } from './i18n.js';
import { onSession, session } from './session.js';
import { settings } from './settings.js';
import { openDialog, toast } from './ui.js';

/** The actions a report's buttons offer, in their order. */
const ACTIONS = ['warning', 'mute', 'suspension', 'ban', 'annulment'];
/** The actions that last a number of minutes, with the number proposed. */
const MINUTES = { mute: 60, suspension: 24 * 60 };
/** The longest mute or suspension the server takes: a year, in minutes. */
const MAX_MINUTES = 525_600;
/** The actions that can be lifted while they hold. */
const LIFTABLE = ['mute', 'suspension', 'ban'];

const when = (ms) => dateText(ms, settings.lang);

/**
 * Asks for the reason (and the minutes) of an action on `player`, then
 * records it; `onDone` after the server took it.
 * @param {{kind: string, player: string, report?: number, game?: number | null, onDone: () => void}} what
 */
function actionDialog({ kind, player, report, game, onDone }) {
  const error = h('p.form-error', { role: 'alert', hidden: true });
  const timed = kind in MINUTES;
  const minutes = timed ? h('input', { name: 'minutes', type: 'number', min: 1, max: MAX_MINUTES, step: 1, value: String(MINUTES[kind]), inputMode: 'numeric' }) : null;
  const reason = h('textarea', { name: 'reason', rows: 3, maxLength: 500, placeholder: t('mod.reason.placeholder') });
  const submit = h('button.primary.wide', { type: 'submit', class: kind === 'ban' ? 'danger' : '' }, t(`mod.do.${kind}`));
  const form = h('form.stack', {
    noValidate: true,
    dataset: { kind, player },
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      const body = { player, kind, reason: reason.value.trim() };
      if (!body.reason) {
        error.textContent = t('mod.reason.required');
        error.hidden = false;
        return;
      }
      if (minutes) {
        const n = Number(minutes.value);
        if (!Number.isInteger(n) || n < 1 || n > MAX_MINUTES) {
          error.textContent = t('mod.minutes.range', { max: MAX_MINUTES });
          error.hidden = false;
          return;
        }
        body.minutes = n;
      }
      if (report !== undefined) body.report = report;
      if (game !== undefined && game !== null) body.game = game;
      submit.disabled = true;
      try {
        await post('/api/moderation/actions', body);
        close();
        toast(t('mod.done', { action: t(`notice.kind.${kind}`), name: player }), 'success');
        onDone();
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.dataset.code = err.code ?? '';
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  minutes ? h('label.field', null, h('span', null, t('mod.minutes')), minutes, h('small', null, t('mod.minutes.help'))) : null,
  h('label.field', null, h('span', null, t('mod.reason')), reason, h('small', null, t('mod.reason.help'))),
  error,
  submit);
  const { close } = openDialog(t('mod.title.action', { action: t(`notice.kind.${kind}`), name: player }), form);
  (minutes ?? reason).focus();
}

/** Closes a report without an action: the reason is kept with it. */
function dismissDialog(report, onDone) {
  const error = h('p.form-error', { role: 'alert', hidden: true });
  const reason = h('textarea', { name: 'reason', rows: 2, maxLength: 500 });
  const submit = h('button.primary.wide', { type: 'submit' }, t('mod.dismiss'));
  const form = h('form.stack', {
    noValidate: true,
    dataset: { kind: 'dismiss' },
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      if (!reason.value.trim()) {
        error.textContent = t('mod.reason.required');
        error.hidden = false;
        return;
      }
      submit.disabled = true;
      try {
        await post(`/api/moderation/reports/${report.id}/dismiss`, { reason: reason.value.trim() });
        close();
        onDone();
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label.field', null, h('span', null, t('mod.reason')), reason),
  error,
  submit);
  const { close } = openDialog(t('mod.title.dismiss', { name: report.player }), form);
  reason.focus();
}

/** A report with its context and, while it is open, what can be done. */
function reportCard(r, reload) {
  const open = r.closed_at === null || r.closed_at === undefined;
  const lines = r.context.map((line) => h('li.chat-line', {
    class: [line.v === r.chat ? 'reported' : '', line.channel === 'spectators' ? 'spectators' : ''].filter(Boolean).join(' '),
    dataset: { v: String(line.v), name: line.name },
  },
  h('span.chat-name', null, line.name),
  h('span.chat-text', null, line.text),
  h('span.muted.small', null, ` ${when(line.at)}${line.channel === 'spectators' ? ` · ${t('mod.spectators')}` : ''}`)));
  const act = (kind) => h('button.small', {
    type: 'button',
    class: kind === 'ban' ? 'danger' : 'ghost',
    dataset: { act: kind },
    onclick: () => actionDialog({ kind, player: r.player, report: r.id, game: kind === 'annulment' ? r.game : undefined, onDone: reload }),
  }, t(`mod.do.${kind}`));
  return h('article.card.report', { dataset: { report: String(r.id), player: r.player, open: String(open) } },
    h('header.report-head', null,
      h('h3', null, h('a.player-link', { href: `/player/${encodeURIComponent(r.player)}`, dataset: { link: '' } }, r.player)),
      h('span.tag', { dataset: { reason: r.reason } }, t(`report.reason.${r.reason}`)),
      h('span.muted.small', null, t('mod.reportedBy', { name: r.reporter, when: when(r.at) }))),
    r.text ? h('p.report-text', { dataset: { role: 'report-text' } }, r.text) : null,
    r.game ? h('div.row.report-links', null,
      h('a.button.ghost.small', { href: `/game/${r.game}`, dataset: { link: '', role: 'report-game' } }, t('mod.game', { id: r.game })),
      r.sgf ? h('a.button.ghost.small', { href: r.sgf, download: `shoutan-${r.game}.sgf`, dataset: { role: 'report-sgf' } }, t('game.sgf')) : null) : null,
    r.game ? (lines.length
      ? h('ol.chat-context', { dataset: { role: 'context' } }, ...lines)
      : h('p.muted.small', null, t('mod.noChat'))) : null,
    open
      ? h('div.row.report-actions', null,
        ...ACTIONS.filter((k) => k !== 'annulment' || r.game).map(act),
        h('button.small.ghost', { type: 'button', dataset: { act: 'dismiss' }, onclick: () => dismissDialog(r, reload) }, t('mod.dismiss')))
      : h('p.muted.small', { dataset: { role: 'resolution' } }, t('mod.closed', { when: when(r.closed_at), resolution: r.resolution ?? '' })));
}

/** An entry of the audit log, with "lift" while a mute, suspension or ban holds. */
function actionRow(a, reload) {
  const liftable = a.holds && LIFTABLE.includes(a.kind);
  const state = a.lifted_at ? t('mod.state.lifted', { when: when(a.lifted_at) })
    : !LIFTABLE.includes(a.kind) ? t('mod.state.recorded')
      : a.holds ? t('mod.state.holds') : t('mod.state.over');
  return h('tr', { dataset: { actionId: String(a.id), player: a.player, kind: a.kind, holds: String(a.holds) } },
    h('td.nowrap', null, when(a.at)),
    h('td', null, h('a', { href: `/player/${encodeURIComponent(a.player)}`, dataset: { link: '' } }, a.player)),
    h('td', null, t(`notice.kind.${a.kind}`), a.game ? h('span.muted', null, ` · ${t('mod.game', { id: a.game })}`) : null),
    h('td.nowrap', null, a.until ? when(a.until) : '—'),
    h('td', null, a.reason),
    h('td', null, a.by ?? t('mod.operator')),
    h('td', { dataset: { role: 'state' } }, state),
    h('td', null, liftable ? h('button.ghost.small', {
      type: 'button',
      dataset: { action: 'lift' },
      async onclick(e) {
        e.currentTarget.disabled = true;
        try {
          await post(`/api/moderation/actions/${a.id}/lift`);
          toast(t('mod.lifted', { action: t(`notice.kind.${a.kind}`), name: a.player }), 'success');
        } catch (err) {
          toast(apiErrorText(err), 'error');
        }
        reload();
      },
    }, t('mod.lift')) : null));
}

/** The page at /moderation. */
export function moderationPage(root) {
  let alive = true;
  let all = false;
  let filter = '';
  const reports = h('div.report-list', { dataset: { role: 'reports' } });
  const reportCount = h('span.count', { dataset: { role: 'report-count' } });
  const log = h('tbody', { dataset: { role: 'audit-log' } });
  const logError = h('p.form-error', { role: 'alert', hidden: true });

  async function loadReports() {
    let list;
    try {
      list = await get(`/api/moderation/reports${all ? '?all=true' : ''}`);
    } catch (err) {
      if (alive) refused(err);
      return;
    }
    if (!alive) return;
    reportCount.textContent = String(list.filter((r) => r.closed_at === null || r.closed_at === undefined).length);
    replace(reports, ...(list.length ? list.map((r) => reportCard(r, reload)) : [h('p.empty', null, t(all ? 'mod.reports.none.all' : 'mod.reports.none'))]));
  }

  async function loadLog() {
    logError.hidden = true;
    try {
      const entries = await get(`/api/moderation/actions${filter ? `?player=${encodeURIComponent(filter)}` : ''}`);
      if (!alive) return;
      replace(log, ...(entries.length ? entries.map((a) => actionRow(a, reload))
        : [h('tr', null, h('td.empty', { colSpan: 8 }, t('mod.log.none')))]));
    } catch (err) {
      if (!alive) return;
      logError.textContent = apiErrorText(err);
      logError.hidden = false;
    }
  }

  function reload() {
    loadReports();
    loadLog();
  }

  /** Not a moderator, or no longer logged in. */
  function refused(err) {
    replace(root, h('div.empty-state', { dataset: { role: 'not-moderator' } },
      h('h2', null, err instanceof ApiError && err.code === 'not_moderator' ? t('api.not_moderator') : apiErrorText(err))));
  }

  function draw() {
    if (!session.user) {
      replace(root, h('div.empty-state', null,
        h('h2', null, t('mod.login')),
        h('button.primary', { type: 'button', onclick: () => authDialog('login') }, t('nav.login'))));
      return;
    }
    const player = h('input', { name: 'player', placeholder: t('mod.log.player'), value: filter });
    replace(root, h('div.moderation', null,
      h('h1', null, t('nav.moderation')),
      h('section.card', null,
        h('div.section-head', null,
          h('h2', null, t('mod.reports'), ' ', reportCount),
          h('label.check', null,
            h('input', { type: 'checkbox', name: 'all', checked: all, onchange: (e) => { all = e.target.checked; loadReports(); } }),
            t('mod.reports.all'))),
        reports),
      h('section.card', null,
        h('div.section-head', null,
          h('h2', null, t('mod.log')),
          h('form.row', {
            onsubmit(e) {
              e.preventDefault();
              filter = player.value.trim();
              loadLog();
            },
          }, player, h('button.ghost.small', { type: 'submit' }, t('mod.log.filter')))),
        logError,
        h('div.table-scroll', null, h('table.mod-table', null,
          h('thead', null, h('tr', null, ...['when', 'player', 'action', 'until', 'reason', 'by', 'state', ''].map((c) => h('th', null, c ? t(`mod.col.${c}`) : '')))),
          log)))));
    reload();
  }

  const stop = onSession(draw);
  draw();
  return () => {
    alive = false;
    stop();
  };
}
