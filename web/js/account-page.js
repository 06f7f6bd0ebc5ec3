// The player's own account (/account): what moderators told him, a new
// password (the old one asked; his other sessions end), his sessions with
// "log out everywhere else", the players he blocks or mutes, his data to
// take away, and deleting the account.

import { del, get, post } from './api.js';
import { authDialog } from './dialogs.js';
import { h, replace } from './dom.js';
import { clientName, dateText } from './format.js';
import { apiErrorText, t } from './i18n.js';
import { noticeText } from './notice-banner.js';
import { clearRelation, loadRelations, onRelations, relationList } from './relations.js';
import { navigate } from './router.js';
import { forgetSession, onSession, session } from './session.js';
import { settings } from './settings.js';
import { toast } from './ui.js';

/** A form's line for a refusal, hidden until there is one. */
const errorLine = () => h('p.form-error', { role: 'alert', hidden: true });

/** A refusal in a form: a wrong password is the one just typed, not a login's. */
function showError(el, err) {
  el.textContent = err.code === 'bad_credentials' ? t('account.password.wrong') : apiErrorText(err);
  el.dataset.code = err.code ?? '';
  el.hidden = false;
}

const when = (ms) => dateText(ms, settings.lang);

/** The kinds of notice that last for a time and then are over. */
const LASTING = ['mute', 'suspension', 'ban'];

/** The notices, newest first, each with whether it holds. */
function noticesSection() {
  const list = h('div.list', { dataset: { role: 'notices' } }, h('p.muted', null, t('misc.loading')));
  const section = h('section.card', { hidden: true }, h('h2', null, t('account.notices')), list);
  get('/api/me/notices').then((notices) => {
    section.hidden = notices.length === 0;
    replace(list, ...notices.map((n) => h('div.row-item.notice-row', { dataset: { kind: n.kind, holds: String(n.holds) } },
      h('span.tag', { class: n.holds && LASTING.includes(n.kind) ? 'holds' : '' }, t(`notice.kind.${n.kind}`)),
      h('span.notice-text', null, noticeText(n)),
      h('span.muted.small', null, when(n.at),
        LASTING.includes(n.kind) ? ` · ${t(n.holds ? 'account.notice.holds' : 'account.notice.over')}` : ''))));
  }, (err) => {
    section.hidden = false;
    replace(list, h('p.form-error', null, apiErrorText(err)));
  });
  return section;
}

/** The old password and the new one, twice. */
function passwordSection(onChanged) {
  const error = errorLine();
  const done = h('p.form-done', { role: 'status', hidden: true, dataset: { role: 'password-done' } }, t('account.password.done'));
  const old = h('input', { name: 'old', type: 'password', autocomplete: 'current-password' });
  const fresh = h('input', { name: 'new', type: 'password', autocomplete: 'new-password' });
  const repeat = h('input', { name: 'repeat', type: 'password', autocomplete: 'new-password' });
  const submit = h('button.primary', { type: 'submit' }, t('account.password.submit'));
  const form = h('form.stack', {
    noValidate: true,
    dataset: { role: 'password-form' },
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      done.hidden = true;
      if (fresh.value !== repeat.value) {
        showError(error, { code: 'mismatch', message: t('account.password.mismatch') });
        return;
      }
      submit.disabled = true;
      try {
        await post('/api/me/password', { old: old.value, new: fresh.value });
        form.reset();
        done.hidden = false;
        onChanged();
      } catch (err) {
        showError(error, err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label.field', null, h('span', null, t('account.password.old')), old),
  h('div.grid-2', null,
    h('label.field', null, h('span', null, t('account.password.new')), fresh, h('small', null, t('auth.password.help'))),
    h('label.field', null, h('span', null, t('account.password.repeat')), repeat)),
  error,
  done,
  h('div.row', null, submit));
  return h('section.card', null, h('h2', null, t('account.password')), h('p.muted', null, t('account.password.help')), form);
}

/** The sessions open, this one marked, and "log out everywhere else". */
function sessionsSection() {
  const list = h('div.list', { dataset: { role: 'sessions' } });
  const result = h('p.form-done', { role: 'status', hidden: true, dataset: { role: 'sessions-result' } });
  const error = errorLine();
  const endOthers = h('button.ghost', {
    type: 'button',
    dataset: { action: 'end-other-sessions' },
    async onclick() {
      error.hidden = true;
      endOthers.disabled = true;
      try {
        const { ended } = await del('/api/me/sessions');
        result.textContent = t('account.sessions.ended', { n: ended });
        result.hidden = false;
        await load();
      } catch (err) {
        showError(error, err);
      } finally {
        endOthers.disabled = false;
      }
    },
  }, t('account.sessions.endOthers'));
  async function load() {
    try {
      const sessions = await get('/api/me/sessions');
      replace(list, ...sessions.map((s) => h('div.row-item.session-row', { dataset: { role: 'session', current: String(s.current) } },
        h('div', null, h('strong', { title: s.client }, s.client ? clientName(s.client) : t('account.sessions.unknown')),
          s.current ? h('span.tag.current', null, t('account.sessions.current')) : null),
        h('span.muted.small', null, t('account.sessions.since', { when: when(s.created_at) })),
        h('span.muted.small', null, t('account.sessions.until', { when: when(s.expires_at) })))));
      endOthers.disabled = sessions.length < 2;
    } catch (err) {
      showError(error, err);
    }
  }
  load();
  return {
    reload: load,
    el: h('section.card', null,
      h('h2', null, t('account.sessions')),
      list, error, result,
      h('div.row', null, endOthers)),
  };
}

/** The players blocked or muted, each with the button that undoes it. */
function relationsSection() {
  const list = h('div.list', { dataset: { role: 'relations' } });
  const error = errorLine();
  const draw = () => {
    const all = relationList();
    replace(list, ...(all.length ? all.map(([name, kind]) => h('div.row-item.relation-row', { dataset: { player: name, relation: kind } },
      h('a.player-link', { href: `/player/${encodeURIComponent(name)}`, dataset: { link: '' } }, name),
      h('span.tag', null, t(`account.relations.${kind}`)),
      h('button.ghost.small', {
        type: 'button',
        dataset: { action: 'clear-relation' },
        async onclick(e) {
          error.hidden = true;
          e.currentTarget.disabled = true;
          try {
            await clearRelation(name);
          } catch (err) {
            showError(error, err);
            draw();
          }
        },
      }, t(kind === 'block' ? 'relation.unblock' : 'relation.unmute')))) : [h('p.empty', null, t('account.relations.none'))]));
  };
  draw();
  loadRelations().catch((err) => showError(error, err));
  return {
    draw,
    el: h('section.card', null,
      h('h2', null, t('account.relations')),
      h('p.muted', null, t('account.relations.help')),
      list, error),
  };
}

/** The password confirms; live games refuse it. */
function deleteSection() {
  const error = errorLine();
  const password = h('input', { name: 'password', type: 'password', autocomplete: 'current-password' });
  const submit = h('button.danger', { type: 'submit' }, t('account.delete.submit'));
  const form = h('form.stack', {
    noValidate: true,
    dataset: { role: 'delete-form' },
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      submit.disabled = true;
      try {
        await del('/api/me', { password: password.value });
        forgetSession();
        navigate('/');
        toast(t('account.delete.done'), 'success', 6000);
      } catch (err) {
        showError(error, err);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label.field', null, h('span', null, t('account.delete.password')), password),
  error,
  h('div.row', null, submit));
  return h('section.card.danger-zone', null, h('h2', null, t('account.delete')), h('p.muted', null, t('account.delete.help')), form);
}

/** The page at /account. */
export function accountPage(root) {
  let stopRelations = () => {};
  const draw = () => {
    stopRelations();
    stopRelations = () => {};
    const me = session.user;
    if (!me) {
      replace(root, h('div.empty-state', { dataset: { role: 'account-login' } },
        h('h2', null, t('account.login')),
        h('button.primary', { type: 'button', onclick: () => authDialog('login') }, t('nav.login'))));
      return;
    }
    const sessions = sessionsSection();
    const relations = relationsSection();
    stopRelations = onRelations(relations.draw);
    replace(root, h('div.account', { dataset: { account: me.name } },
      h('h1', null, t('account.title', { name: me.name })),
      noticesSection(),
      passwordSection(() => sessions.reload()),
      sessions.el,
      relations.el,
      h('section.card', null,
        h('h2', null, t('account.data')),
        h('p.muted', null, t('account.data.help')),
        h('a.button.ghost', { href: '/api/me/export', download: 'shoutan-data.zip', dataset: { action: 'export' } }, t('account.data.download'))),
      deleteSection()));
  };
  const stopSession = onSession(draw);
  draw();
  return () => {
    stopSession();
    stopRelations();
  };
}
