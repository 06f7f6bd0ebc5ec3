// Shared pieces of the interface: toasts, dialogs, the connection banner,
// player names with ranks, colour dots.

import { h } from './dom.js';
import { rankName, t } from './i18n.js';

let toastBox = null;
/** Where toasts go instead of floating over the page (the game's side panel), or null. */
let toastDock = null;

function toastContainer() {
  if (!toastBox) toastBox = h('div.toasts', { role: 'status', 'aria-live': 'polite' });
  const home = toastDock ?? document.body;
  if (toastBox.parentNode !== home) home.append(toastBox);
  toastBox.classList.toggle('docked', toastDock !== null);
  return toastBox;
}

/**
 * Shows toasts inside `el` (null: floating again at the foot of the page),
 * so that a page can keep them off what must stay visible — the board.
 * @param {Element | null} el
 */
export function dockToasts(el) {
  toastDock = el;
  toastContainer();
}

/**
 * A message that disappears by itself. The same message again while it is
 * shown is counted on it (×2, ×3 …) instead of piling up.
 * @param {string} text
 * @param {'info' | 'error' | 'success'} [kind]
 * @param {number} [ms]
 * @param {string} [key]  a newer toast of the same key replaces the older
 */
export function toast(text, kind = 'info', ms = 3500, key = '') {
  const box = toastContainer();
  if (key) dismissToast(key);
  const same = [...box.children].find((el) => !el.classList.contains('leaving')
    && el.dataset.kind === kind && el.dataset.text === text);
  const el = same ?? h(`div.toast.${kind}`, { dataset: { kind, text, ...(key ? { key } : {}) } }, h('span', null, text), h('span.toast-count'));
  if (same) {
    const n = Number(same.dataset.count ?? 1) + 1;
    same.dataset.count = String(n);
    same.querySelector('.toast-count').textContent = ` ×${n}`;
    clearTimeout(Number(same.dataset.timer));
  } else {
    box.append(el);
  }
  el.dataset.timer = String(setTimeout(() => {
    el.classList.add('leaving');
    setTimeout(() => el.remove(), 300);
  }, ms));
  return el;
}

/** Removes the toasts of `key` (their message no longer holds). */
export function dismissToast(key) {
  for (const old of toastBox?.querySelectorAll(`[data-key="${CSS.escape(key)}"]`) ?? []) old.remove();
}

/**
 * A modal dialog. Returns the dialog and its close function.
 * @param {string} title
 * @param {Node} body
 * @param {{wide?: boolean, onClose?: () => void}} [options]
 */
export function openDialog(title, body, options = {}) {
  const close = () => dialog.close();
  const dialog = /** @type {HTMLDialogElement} */ (h(`dialog.modal${options.wide ? '.wide' : ''}`, null,
    h('header.modal-head', null,
      h('h2', null, title),
      h('button.icon-button', { type: 'button', 'aria-label': t('misc.close'), onclick: close }, '✕')),
    h('div.modal-body', null, body)));
  dialog.addEventListener('close', () => {
    dialog.remove();
    options.onClose?.();
  });
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) close();
  });
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, close };
}

/** The banner shown while a connection is down. */
const banners = new Set();
let bannerEl = null;
export function connectionLost(owner, lost) {
  if (lost) banners.add(owner);
  else banners.delete(owner);
  if (!bannerEl) {
    bannerEl = h('div.offline-banner', { role: 'alert', hidden: true });
    document.body.append(bannerEl);
  }
  bannerEl.textContent = t('conn.offline');
  bannerEl.hidden = banners.size === 0;
}

/** A rating change, signed: `+12.3`, `−8`; null without one. */
export function ratingChange(change) {
  if (typeof change !== 'number') return null;
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  return h('span.delta', { class: change > 0 ? 'up' : change < 0 ? 'down' : '' }, ` ${sign}${Math.abs(change)}`);
}

/** A stone-shaped dot of a colour. */
export function dot(color) {
  return h(`span.dot.${color}`, { 'aria-hidden': 'true' });
}

/** A player's name linking to the profile, with the rank. */
export function playerLink(name, rank) {
  return h('a.player-link', { href: `/player/${encodeURIComponent(name)}`, dataset: { link: '' } },
    h('span.name', null, name), rank ? h('span.rank', null, rankName(rank)) : null);
}
