// Whom the player logged in blocks or mutes (GET /api/me/relations). The
// server sends a game's chat to everyone in it: the game page hides the
// lines of these players. A block also keeps their challenges out (the
// server refuses them); the profile page sets and undoes both.

import { del, get, put } from './api.js';
import { onSession, session } from './session.js';

/** @type {Map<string, 'block' | 'mute'>} a player's name → the relation */
const held = new Map();
const listeners = new Set();
/** @type {Promise<void>} */
let loaded = Promise.resolve();
/** Counts the loads, so that an older answer does not overwrite a newer one. */
let generation = 0;

function changed() {
  for (const fn of listeners) fn();
}

/** Asks the server again (nobody logged in: none). */
export function loadRelations() {
  const mine = ++generation;
  loaded = (async () => {
    const list = session.user ? await get('/api/me/relations') : [];
    if (mine !== generation) return;
    held.clear();
    for (const r of list) held.set(r.player, r.kind);
    changed();
  })();
  return loaded;
}

/** Loads the relations now and after each login or logout. */
export function watchRelations() {
  onSession(() => loadRelations().catch(() => {}));
  return loadRelations();
}

/** Settles once the relations asked for last are known (or could not be had). */
export function relationsLoaded() {
  return loaded.catch(() => {});
}

/** What the player logged in set for `name`: 'block', 'mute' or null. */
export function relationOf(name) {
  return held.get(name) ?? null;
}

/** Every relation, as [name, kind], by name. */
export function relationList() {
  return [...held].sort(([a], [b]) => a.localeCompare(b));
}

/** Whether the lines of `name` are hidden: blocked or muted. */
export function hides(name) {
  return held.has(name);
}

/**
 * Blocks or mutes `name` (one replaces the other).
 * @param {string} name
 * @param {'block' | 'mute'} kind
 */
export async function setRelation(name, kind) {
  await put(`/api/me/relations/${encodeURIComponent(name)}`, { kind });
  held.set(name, kind);
  changed();
}

/** Unblocks or unmutes `name`. */
export async function clearRelation(name) {
  await del(`/api/me/relations/${encodeURIComponent(name)}`);
  held.delete(name);
  changed();
}

/** Calls `fn` after each change; returns the function that stops it. */
export function onRelations(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
