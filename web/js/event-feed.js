// The tournament pages kept current without polling: the lobby socket says
// when an event changed (a registration, a pairing, a result), and the page
// fetches it again. Each (re)connection begins with the lobby's snapshot,
// after which the page fetches too: what changed while the socket was down
// is not missed.

import { LiveSocket } from './socket.js';

/** The least time between the starts of two fetches (ms): a burst of results is one fetch. */
const SPACING = 400;

/**
 * Calls `reload` at once, at each (re)connection and whenever the event
 * `id` changes (any event when `id` is null); one call at a time, and
 * changes told during a call make one more, a moment later. `reload` is
 * given the event's version the last notice told (0 after a (re)connection:
 * as it is now), for fetches that a version serves from the server's cache.
 * Returns the function that stops.
 * @param {string | number | null} id
 * @param {(version: number) => Promise<void>} reload
 */
export function followEvents(id, reload) {
  let running = false;
  let again = false;
  let stopped = false;
  let version = 0;
  async function run() {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const started = Date.now();
    try {
      await reload(version);
    } finally {
      if (again && !stopped) {
        again = false;
        setTimeout(() => {
          running = false;
          run();
        }, Math.max(0, started + SPACING - Date.now()));
      } else {
        running = false;
      }
    }
  }
  const socket = new LiveSocket({
    // The events' view: the changes of events (and one's own games
    // starting), not every board of the server.
    path: () => '/api/lobby/ws?view=events',
    onMessage: (m) => {
      if (m.type === 'lobby') {
        version = 0;
        run();
      } else if (m.type === 'event_changed' && (id === null || String(m.id) === String(id))) {
        version = Math.max(version, m.version ?? 0);
        run();
      }
    },
  });
  run();
  return () => {
    stopped = true;
    socket.close();
  };
}
