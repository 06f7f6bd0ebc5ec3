// The player's settings, kept in this browser (localStorage): language,
// board and stone skins, the last move's mark, sound, voice, coordinates.
// Listeners hear every change so that open pages follow at once.

const KEY = 'shoutan.settings';

/**
 * @typedef {object} Settings
 * @property {'zh' | 'en'} lang           interface language
 * @property {'kaya' | 'shinkaya' | 'bamboo' | 'flat' | 'slate'} board  board skin
 * @property {'classic' | 'yunzi' | 'flat'} stones  stone skin
 * @property {'ring' | 'red'} lastMove    the last move's mark: a ring, or a red square (as on Fox)
 * @property {boolean} sound              a sound on each stone
 * @property {boolean} voice              byo-yomi calls spoken
 * @property {'zh' | 'en'} voiceLang      the language of the calls
 * @property {boolean} coordinates        coordinates around the board
 * @property {boolean} confirmMove        tap twice to play (phones)
 * @property {boolean} confirmPass        ask before passing
 * @property {'auto' | 'light' | 'dark'} theme  page colours
 */

/** The browser's language: Chinese when it asks for Chinese, else English. */
export function browserLanguage() {
  const first = navigator.languages?.[0] ?? navigator.language ?? 'en';
  return /^zh\b/i.test(first) ? 'zh' : 'en';
}

/** @returns {Settings} */
function defaults() {
  const lang = browserLanguage();
  const phone = matchMedia('(pointer: coarse)').matches;
  return {
    lang,
    board: 'kaya',
    stones: 'classic',
    lastMove: 'ring',
    sound: true,
    voice: true,
    voiceLang: lang,
    coordinates: true,
    confirmMove: phone,
    confirmPass: true,
    theme: 'auto',
  };
}

const CHOICES = {
  lang: ['zh', 'en'],
  board: ['kaya', 'shinkaya', 'bamboo', 'flat', 'slate'],
  stones: ['classic', 'yunzi', 'flat'],
  lastMove: ['ring', 'red'],
  voiceLang: ['zh', 'en'],
  theme: ['auto', 'light', 'dark'],
};

function load() {
  const base = defaults();
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    for (const [k, v] of Object.entries(saved)) {
      if (!(k in base)) continue;
      const ok = k in CHOICES ? CHOICES[k].includes(v) : typeof v === typeof base[k];
      if (ok) base[k] = v;
    }
  } catch {
    // Unreadable settings (private mode, a hand edit): the defaults stand.
  }
  return base;
}

/** @type {Settings} */
export const settings = load();
const listeners = new Set();

/** Changes settings, saves them and tells the listeners. */
export function update(changes) {
  Object.assign(settings, changes);
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Storage full or forbidden: the change holds for this page.
  }
  for (const fn of listeners) fn(settings, changes);
}

/** Calls `fn` after each change; returns the function that stops it. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
