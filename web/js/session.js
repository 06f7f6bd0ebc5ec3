// Who is logged in. The session is an HttpOnly cookie: the page learns the
// player from GET /api/session, and listeners hear logins and logouts —
// also a session that ended on the server's side (a password changed or
// "log out everywhere else" in another browser, the account deleted).

import { ApiError, del, get, onSessionLost, post } from './api.js';

/**
 * @typedef {object} Player
 * @property {number} id
 * @property {string} name
 * @property {string} declared_rank
 * @property {{rating: number, deviation: number, rank: string, provisional: boolean}} rating
 * @property {number} rated_games
 * @property {number} created_at
 * @property {('administrator' | 'moderator' | 'arbiter')[]} [roles]
 */

/** @type {{user: Player | null}} */
export const session = { user: null };
const listeners = new Set();

function set(user) {
  session.user = user;
  for (const fn of listeners) fn(user);
}

// The server no longer knows this browser's session: logged out here too.
onSessionLost(() => {
  if (session.user) set(null);
});

/** Whether the player logged in may moderate: a moderator or an administrator. */
export function isModerator() {
  return (session.user?.roles ?? []).some((r) => r === 'moderator' || r === 'administrator');
}

/** Calls `fn` on each login or logout. */
export function onSession(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Asks the server who we are. */
export async function loadSession() {
  try {
    set(await get('/api/session'));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) set(null);
    else throw e;
  }
}

export async function login(name, password) {
  set(await post('/api/session', { name, password }));
}

export async function register(name, password, rank) {
  set(await post('/api/accounts', { name, password, rank }));
}

export async function logout() {
  await del('/api/session');
  set(null);
}

/** The session is gone on the server (the account was deleted): logged out here. */
export function forgetSession() {
  set(null);
}
