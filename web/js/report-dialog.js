// Reporting a player to the moderators (POST /api/reports): from his
// profile, or from a chat line of a game, which the report then names
// (the game and the line's version) so that the moderators read it in its
// context.

import { post } from './api.js';
import { h } from './dom.js';
import { apiErrorText, t } from './i18n.js';
import { openDialog, toast } from './ui.js';

/** The reasons a report may give, as the server knows them. */
export const REPORT_REASONS = ['abuse', 'cheating', 'sandbagging', 'stalling', 'spam', 'other'];

/**
 * Opens the report form.
 * @param {{player: string, game?: number, chat?: number, line?: string}} about
 *   the player; the game and chat line reported, with the line's text to quote
 */
export function reportDialog({ player, game, chat, line }) {
  const error = h('p.form-error', { role: 'alert', hidden: true });
  const reason = h('select', { name: 'reason' },
    ...REPORT_REASONS.map((r) => h('option', { value: r, selected: r === (chat ? 'abuse' : 'other') }, t(`report.reason.${r}`))));
  const text = h('textarea', { name: 'text', rows: 3, maxLength: 2000, placeholder: t('report.text.placeholder') });
  const submit = h('button.primary.wide', { type: 'submit' }, t('report.submit'));
  const form = h('form.stack.report-form', {
    dataset: { player },
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      submit.disabled = true;
      const body = { player, reason: reason.value, text: text.value.trim() };
      if (game !== undefined) body.game = game;
      if (chat !== undefined) body.chat = chat;
      try {
        await post('/api/reports', body);
        close();
        toast(t('report.sent'), 'success', 5000);
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.dataset.code = err.code ?? '';
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('p.muted', null, game === undefined ? t('report.help') : t('report.help.game', { game })),
  line === undefined ? null : h('blockquote.reported-line', { dataset: { role: 'reported-line' } },
    h('span.chat-name', null, player), h('span', null, line)),
  h('label.field', null, h('span', null, t('report.reason')), reason),
  h('label.field', null, h('span', null, t('report.text')), text),
  error,
  submit);
  const { close } = openDialog(t('report.title', { name: player }), form);
  reason.focus();
}
