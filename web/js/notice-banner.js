// What moderators told the player logged in (GET /api/me/notices), as a
// banner under the header of every page while it holds: a mute, a
// suspension or a ban until it ends; a warning or an annulment until the
// player closes it (remembered in this browser). The account page lists
// them all.

import { get } from './api.js';
import { h, replace } from './dom.js';
import { dateText } from './format.js';
import { t } from './i18n.js';
import { session } from './session.js';
import { settings } from './settings.js';

const SEEN = 'shoutan.notices.seen';
/** The kinds that stay shown for as long as they hold. */
const LASTING = ['mute', 'suspension', 'ban'];

/** @type {HTMLElement | null} */
let box = null;
/** @type {any[]} */
let notices = [];
let generation = 0;

/** A notice's identity, for "closed in this browser". */
const idOf = (n) => `${n.kind}:${n.at}`;

function seen() {
  try {
    const list = JSON.parse(localStorage.getItem(SEEN) ?? '[]');
    return new Set(Array.isArray(list) ? list : []);
  } catch {
    return new Set();
  }
}

function markSeen(n) {
  const set = seen();
  set.add(idOf(n));
  try {
    localStorage.setItem(SEEN, JSON.stringify([...set].slice(-200)));
  } catch {
    // Storage forbidden: closed for this page only.
  }
}

/** A notice as the player reads it: "Your chat is muted until …: reason". */
export function noticeText(n) {
  return t(`notice.${n.kind}`, { until: n.until ? dateText(n.until, settings.lang) : '', reason: n.reason, game: n.game ?? '' });
}

function render() {
  if (!box) return;
  const closed = seen();
  const shown = notices.filter((n) => n.holds && (LASTING.includes(n.kind) || !closed.has(idOf(n))));
  box.hidden = shown.length === 0;
  box.dataset.count = String(shown.length);
  replace(box, ...shown.map((n) => h('div.standing-notice', { class: n.kind, role: 'alert', dataset: { kind: n.kind } },
    h('span', null, noticeText(n)),
    LASTING.includes(n.kind) ? null : h('button.icon-button', {
      type: 'button', title: t('misc.close'), 'aria-label': t('misc.close'), dataset: { action: 'close-notice' },
      onclick() {
        markSeen(n);
        render();
      },
    }, '✕'))));
}

/** Asks the server again (nobody logged in: nothing to show). */
export async function refreshNotices() {
  const mine = ++generation;
  let list = [];
  if (session.user) {
    try {
      list = await get('/api/me/notices');
    } catch {
      // Unknown for now: the banner keeps what it showed until the next look.
      return;
    }
  }
  if (mine !== generation) return;
  notices = list;
  render();
}

/**
 * Shows the banner in `el` (filled by {@link refreshNotices}, which the
 * caller runs on each page shown and each login).
 */
export function startNoticeBanner(el) {
  box = el;
  box.hidden = true;
  // Back to a tab left open: a mute may have been set or run out.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refreshNotices();
  });
}

/** Draws the banner again (the language changed). */
export function renderNoticeBanner() {
  render();
}
