// A simul's page (多面打): the host's boards, one row each — the opponent,
// whose move it is, the moves played, the result — kept fresh every few
// seconds, each a link to its game.

import { get } from './api.js';
import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { session } from './session.js';
import { dot, playerLink } from './ui.js';

/** How often the boards are read again. */
const REFRESH_MS = 3000;

/** The simul page; returns the function that leaves it. */
export function simulPage(root, { id }) {
  let timer = 0;
  let left = false;

  function board(b, host) {
    const hostColor = b.black.id === host.id ? 'black' : 'white';
    const guest = hostColor === 'black' ? b.white : b.black;
    const guestColor = hostColor === 'black' ? 'white' : 'black';
    const hostToMove = b.status === 'live' && b.to_move === hostColor;
    const state = b.status !== 'live' ? (b.result ?? t('simul.cancelled'))
      : hostToMove ? t('simul.hostToMove', { name: host.name })
        : t('simul.guestToMove', { name: guest.name });
    return h('a.row-item.simul-board', {
      href: `/game/${b.id}`,
      dataset: { link: '', board: String(b.id), status: b.status, hostToMove: String(hostToMove) },
      class: hostToMove ? 'to-move' : '',
    },
    h('div.c-player', null, dot(guestColor), playerLink(guest.name, guest.rank)),
    h('div.c-mode', null, state),
    h('div.c-size', null, b.moves === null || b.moves === undefined ? '' : t('simul.moves', { n: b.moves })));
  }

  async function load() {
    if (left) return;
    try {
      const simul = await get(`/api/simuls/${id}`);
      if (left) return;
      const mine = session.user?.id === simul.host.id;
      const waiting = simul.boards.filter((b) => b.status === 'live' && b.to_move === (b.black.id === simul.host.id ? 'black' : 'white')).length;
      replace(root, h('section.card.simul-page', { dataset: { simul: String(id) } },
        h('h1', null, t('simul.title', { name: simul.host.name })),
        h('p.muted', null, playerLink(simul.host.name, simul.host.rank), ' ',
          t('simul.summary', { n: simul.boards.length }), mine ? ` · ${t('simul.waiting', { n: waiting })}` : ''),
        h('div.list', { dataset: { role: 'boards' } }, ...simul.boards.map((b) => board(b, simul.host)))));
    } catch (e) {
      replace(root, h('div.empty-state', null, h('h2', null, e.message)));
    }
    timer = setTimeout(load, REFRESH_MS);
  }

  load();
  return () => {
    left = true;
    clearTimeout(timer);
  };
}
