// Who is logged in. The session is an HttpOnly cookie: the page learns the
// player from GET /api/session, and listeners hear logins and logouts.

import { ApiError, del, get, post } from './api.js';

/**
 * @typedef {object} Player
 * @property {number} id
 * @property {string} name
 * @property {string} declared_rank
 * @property {{rating: number, deviation: number, rank: string, provisional: boolean}} rating
 * @property {number} rated_games
 * @property {number} created_at
 */

/** @type {{user: Player | null}} */
export const session = { user: null };
const listeners = new Set();

function set(user) {
  session.user = user;
  for (const fn of listeners) fn(user);
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
