// The dialogs every page can open: log in / sign up, and settings.

import { h } from './dom.js';
import { apiErrorText, rankName, t } from './i18n.js';
import { navigate } from './router.js';
import { login, register } from './session.js';
import { settings, update } from './settings.js';
import { canSpeak, speakCall } from './voice.js';
import { openDialog } from './ui.js';

/** Ranks a player may declare, strongest last: 30k … 1k, 1d … 7d, 1p … 9p. */
export const RANKS = [
  ...Array.from({ length: 30 }, (_, i) => `${30 - i}k`),
  ...Array.from({ length: 7 }, (_, i) => `${i + 1}d`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}p`),
];

/**
 * Log in or sign up.
 * @param {'login' | 'register'} mode
 */
export function authDialog(mode = 'login') {
  const error = h('p.form-error', { role: 'alert', hidden: true });
  // No length or pattern in the browser: nothing is cut silently, and the
  // server's refusal says what is wrong in the interface's language.
  const name = h('input', { name: 'name', autocomplete: 'username' });
  const password = h('input', { name: 'password', type: 'password', required: true, minLength: 8, autocomplete: mode === 'login' ? 'current-password' : 'new-password' });
  const rank = h('select', { name: 'rank' }, ...RANKS.map((r) => h('option', { value: r, selected: r === '10k' }, rankName(r))));
  const submit = h('button.primary.wide', { type: 'submit' }, t(mode === 'login' ? 'auth.submit.login' : 'auth.submit.register'));
  const form = h('form.stack', {
    noValidate: true,
    async onsubmit(e) {
      e.preventDefault();
      error.hidden = true;
      submit.disabled = true;
      try {
        if (mode === 'login') await login(name.value.trim(), password.value);
        else await register(name.value.trim(), password.value, rank.value);
        close();
      } catch (err) {
        error.textContent = apiErrorText(err);
        error.dataset.code = err.code ?? '';
        error.hidden = false;
      } finally {
        submit.disabled = false;
      }
    },
  },
  h('label.field', null, h('span', null, t('auth.name')), name,
    mode === 'register' ? h('small', null, t('auth.name.help')) : null),
  h('label.field', null, h('span', null, t('auth.password')), password,
    mode === 'register' ? h('small', null, t('auth.password.help')) : null),
  mode === 'register' ? h('label.field', null, h('span', null, t('auth.rank')), rank, h('small', null, t('auth.rank.help'))) : null,
  error,
  submit,
  h('button.link', {
    type: 'button',
    onclick() {
      close();
      authDialog(mode === 'login' ? 'register' : 'login');
    },
  }, t(mode === 'login' ? 'auth.switch.register' : 'auth.switch.login')),
  mode === 'login' ? h('a.link.forgot', {
    href: '/password-reset',
    dataset: { action: 'forgot-password' },
    onclick(e) {
      e.preventDefault();
      close();
      navigate('/password-reset');
    },
  }, t('auth.forgot')) : null);
  const { close } = openDialog(t(mode === 'login' ? 'auth.title.login' : 'auth.title.register'), form);
  name.focus();
}

/** A row of buttons choosing one value. */
export function segmented(name, options, value, onpick) {
  const group = h('div.segmented', { role: 'radiogroup', dataset: { name } });
  for (const [v, label] of options) {
    const button = h('button', {
      type: 'button', role: 'radio', 'aria-checked': String(v === value), dataset: { value: String(v) },
      onclick() {
        for (const b of group.children) b.setAttribute('aria-checked', String(b === button));
        onpick(v);
      },
    }, label);
    group.append(button);
  }
  return group;
}

function toggle(key, label) {
  return h('label.switch', null,
    h('input', { type: 'checkbox', checked: settings[key], dataset: { setting: key }, onchange: (e) => update({ [key]: e.target.checked }) }),
    h('span.track', { 'aria-hidden': 'true' }),
    h('span', null, label));
}

/** The settings, saved in this browser. */
export function settingsDialog() {
  const swatch = (kind, v) => h(`span.swatch.${kind}-${v}`, { 'aria-hidden': 'true' });
  const body = h('div.settings-grid', null,
    h('div.setting', null, h('span.label', null, t('settings.lang')),
      segmented('lang', [['zh', '中文'], ['en', 'English']], settings.lang, (v) => {
        update({ lang: v, voiceLang: v });
        close();
        settingsDialog();
      })),
    h('div.setting', null, h('span.label', null, t('settings.theme')),
      segmented('theme', ['auto', 'light', 'dark'].map((v) => [v, t(`settings.theme.${v}`)]), settings.theme, (v) => update({ theme: v }))),
    h('div.setting', null, h('span.label', null, t('settings.board')),
      segmented('board', ['kaya', 'shinkaya', 'bamboo', 'flat', 'slate'].map((v) => [v, [swatch('board', v), t(`settings.board.${v}`)]]), settings.board, (v) => update({ board: v }))),
    h('div.setting', null, h('span.label', null, t('settings.stones')),
      segmented('stones', ['classic', 'yunzi', 'flat'].map((v) => [v, [swatch('stones', v), t(`settings.stones.${v}`)]]), settings.stones, (v) => update({ stones: v }))),
    h('div.setting', null, h('span.label', null, t('settings.lastMove')),
      segmented('lastMove', ['ring', 'red'].map((v) => [v, [swatch('last', v), t(`settings.lastMove.${v}`)]]), settings.lastMove, (v) => update({ lastMove: v }))),
    toggle('coordinates', t('settings.coordinates')),
    toggle('sound', t('settings.sound')),
    toggle('voice', t('settings.voice')),
    h('div.setting', null, h('span.label', null, t('settings.voiceLang')),
      h('div.row', null,
        segmented('voiceLang', [['zh', '中文'], ['en', 'English']], settings.voiceLang, (v) => update({ voiceLang: v })),
        canSpeak() ? h('button.ghost', { type: 'button', onclick: () => speakCall({ zh: '30秒', en: '30 seconds' }) }, t('settings.test')) : null)),
    toggle('confirmMove', t('settings.confirmMove')),
    toggle('confirmPass', t('settings.confirmPass')),
    h('p.muted.small', null, t('settings.keys')),
    h('div.actions', null, h('button.primary', { type: 'button', onclick: () => close() }, t('settings.close'))));
  const { close } = openDialog(t('settings.title'), body);
}
