// A new password with a one-time code (POST /api/password-reset): the
// server sends no mail, so the operator gives the code (`shoutan admin
// reset-password NAME`); every session of the account ends with it.

import { post } from './api.js';
import { authDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { apiErrorText, t } from './i18n.js';

/** The page at /password-reset. */
export function passwordResetPage(root) {
  const error = h('p.form-error', { role: 'alert', hidden: true });
  const done = h('div.form-done', { role: 'status', hidden: true, dataset: { role: 'reset-done' } },
    h('p', null, t('reset.done')),
    h('button.primary', { type: 'button', dataset: { action: 'login' }, onclick: () => authDialog('login') }, t('nav.login')));
  const code = h('input', { name: 'code', autocomplete: 'one-time-code', spellcheck: false });
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'new-password' });
  const repeat = h('input', { name: 'repeat', type: 'password', autocomplete: 'new-password' });
  const submit = h('button.primary', { type: 'submit' }, t('reset.submit'));
  const form = h('form.stack', {
    noValidate: true,
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      if (password.value !== repeat.value) {
        error.textContent = t('account.password.mismatch');
        error.dataset.code = 'mismatch';
        error.hidden = false;
        return;
      }
      submit.disabled = true;
      try {
        await post('/api/password-reset', { code: code.value.trim(), password: password.value });
        form.hidden = true;
        done.hidden = false;
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.dataset.code = err.code ?? '';
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label.field', null, h('span', null, t('reset.code')), code),
  h('label.field', null, h('span', null, t('account.password.new')), password, h('small', null, t('auth.password.help'))),
  h('label.field', null, h('span', null, t('account.password.repeat')), repeat),
  error,
  h('div.row', null, submit));
  replace(root, h('div.account', null,
    h('section.card', null,
      h('h1', null, t('reset.title')),
      h('p', null, t('reset.help')),
      form,
      done)));
  code.focus();
}
