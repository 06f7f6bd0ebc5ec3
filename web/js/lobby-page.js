// The lobby: quick games in one click, a game with every setting, a game
// against the computer, the open challenges and the live games — both kept
// up to date over the lobby's WebSocket — and the player search.

import { del, get, post } from './api.js';
import { challengeDialog, computerLevelList, levelSelect } from './challenge-form.js';
import { authDialog, segmented } from './dialogs.js';
import { debounce, h, replace } from './dom.js';
import { timeControlShort, timeSystem } from './format.js';
import { apiErrorText, rankName, t } from './i18n.js';
import { navigate } from './router.js';
import { onSession, session } from './session.js';
import { onChange, settings } from './settings.js';
import { LiveSocket } from './socket.js';
import { chime } from './sound.js';
import { dot, playerLink, toast } from './ui.js';

/** One-click automatch, like the pools of the big servers: a seek paired with the first compatible one. */
const QUICK = [
  { size: 9, label: '1+3×10s', main: 1, periods: 3, period: 10 },
  { size: 9, label: '5+3×30s', main: 5, periods: 3, period: 30 },
  { size: 13, label: '5+3×30s', main: 5, periods: 3, period: 30 },
  { size: 13, label: '10+5×30s', main: 10, periods: 5, period: 30 },
  { size: 19, label: '10+5×30s', main: 10, periods: 5, period: 30 },
  { size: 19, label: '20+5×60s', main: 20, periods: 5, period: 60 },
  { size: 19, label: '60+5×60s', main: 60, periods: 5, period: 60 },
  { size: 19, label: '3×30s', main: 0, periods: 3, period: 30 },
  { size: 19, label: '30+10/5', main: 30, moves: 10, periodMin: 5 },
];

/** The clocks offered against the computer in one choice (byo-yomi, or none). */
const COMPUTER_TIMES = [
  { key: '5+3×30s', main: 5, periods: 3, period: 30 },
  { key: '10+5×30s', main: 10, periods: 5, period: 30 },
  { key: '20+5×60s', main: 20, periods: 5, period: 60 },
  { key: 'none' },
];

/** The lobby page; returns the function that leaves it. */
/** Live games listed at once (the server's snapshot sends as many). */
const SHOWN_GAMES = 100;

export function lobbyPage(root) {
  /** @type {Map<number, any>} */
  const challenges = new Map();
  /** @type {Map<number, any>} */
  const games = new Map();
  /** Live games in all (the snapshot lists only the newest and our own). */
  let gamesTotal = 0;
  const challengeList = h('div.list', { dataset: { role: 'challenges' } });
  const gameList = h('div.list', { dataset: { role: 'live-games' } });
  const mine = h('div.my-games', { hidden: true });
  const searchResults = h('ul.search-results', { dataset: { role: 'search-results' } });
  const tabCount = { challenges: h('span.count'), live: h('span.count') };
  /** The simuls the viewer opened (their games lead to the simul's page). */
  const hosting = new Set();
  /** The quick game being sought (its preset), and how many seek in all. */
  let searching = null;
  let seekers = 0;
  const searchStatus = h('div.search-status', { dataset: { role: 'searching' }, hidden: true, 'aria-live': 'polite' });
  /** The choices of the computer card, kept when the page is redrawn. */
  const computer = { level: 1, size: 9, time: '10+5×30s', rated: false };

  const me = () => session.user;
  /**
   * A challenge's or game's clock in a few characters, its system named
   * below, the whole in the tooltip as the server writes it in the
   * viewer's language.
   */
  const timeCell = ({ time_control: text, time_control_zh: zh }) => h('div.c-time', { title: settings.lang === 'zh' && zh ? zh : text },
    h('span.time-short', null, timeControlShort(text, settings.lang)),
    h('span.time-system', null, t(`form.time.${timeSystem(text)}`)));

  const head = (...cells) => h('div.row-item.row-head', { 'aria-hidden': 'true' }, ...cells.map((c) => h('div', null, c)));

  function renderChallenges() {
    const rows = [...challenges.values()].sort((a, b) => b.created_at - a.created_at).map((c) => {
      const own = me()?.name === c.challenger;
      // The colour the acceptor gets.
      const color = c.color === 'nigiri' ? h('span.nigiri', { title: t('form.color.nigiri') }, dot('black'), dot('white'))
        : dot(c.color === 'black' ? 'white' : 'black');
      const seats = c.mode?.kind === 'rengo' ? 3 : c.mode?.kind === 'simul' ? c.mode.boards : 1;
      const seated = (c.joined ?? []).some((j) => j.id === me()?.id);
      const action = own
        ? h('button.ghost.small', { type: 'button', dataset: { cancel: String(c.id) }, onclick: () => withdraw(c.id) }, t('lobby.cancel'))
        : !me()
          ? h('button.ghost.small', { type: 'button', onclick: () => authDialog('login') }, t('lobby.login.to.play'))
          : seated
            ? h('button.ghost.small', { type: 'button', dataset: { leave: String(c.id) }, onclick: () => leaveSeat(c.id) }, t('lobby.leave'))
            : h('button.primary.small', { type: 'button', dataset: { accept: String(c.id) }, onclick: () => accept(c.id) }, t(seats > 1 ? 'lobby.join' : 'lobby.accept'));
      const mode = c.mode?.kind === 'rengo' ? t('lobby.rengo') : c.mode?.kind === 'simul' ? t('lobby.simul', { n: c.mode.boards }) : null;
      const modeTag = mode ? h('span.tag.mode', { dataset: { mode: c.mode.kind } }, mode, ' · ', t('lobby.seats', { n: (c.joined ?? []).length, of: seats }),
        (c.joined ?? []).length ? h('span.joined', null, ` (${c.joined.map((j) => j.name).join(', ')})`) : null) : null;
      const handicap = c.handicap.kind === 'none' ? null
        : h('span.tag', null, c.handicap.kind === 'auto' ? t('form.handicap.auto') : `${t('game.handicap')} ${c.handicap.stones}`);
      return h('div.row-item.challenge', { class: own ? 'own' : '', dataset: { challenge: String(c.id), challenger: c.challenger } },
        h('div.c-player', null, playerLink(c.challenger, c.challenger_rank), own ? h('span.tag', null, t('lobby.yours')) : null,
          c.opponent ? h('span.tag.private', null, t('lobby.for', { name: c.opponent })) : null, modeTag),
        h('div.c-size', null, `${c.size}×${c.size}`),
        timeCell(c),
        h('div.c-rules', null, t(`rules.${c.ruleset}`), handicap),
        h('div.c-mode', null, color, h('span', { class: c.rated ? 'rated' : 'casual' }, c.rated ? t('lobby.rated') : t('lobby.casual'))),
        h('div.c-act', null, action));
    });
    tabCount.challenges.textContent = rows.length ? String(rows.length) : '';
    replace(challengeList, ...(rows.length
      ? [head(t('col.player'), t('col.size'), t('col.time'), t('col.rules'), t('col.mode'), ''), ...rows]
      : [h('p.empty', null, t('lobby.none.challenges'))]));
  }

  function renderGames() {
    const all = [...games.values()].sort((a, b) => b.created_at - a.created_at);
    const rows = all.slice(0, SHOWN_GAMES).map((g) => h('a.row-item.live-game', { href: `/game/${g.id}`, dataset: { link: '', game: String(g.id) } },
      h('div.c-player.versus', null,
        h('span.side', null, dot('black'), h('span.name', null, g.black.name), h('span.rank', null, rankName(g.black.rank))),
        h('span.side', null, dot('white'), h('span.name', null, g.white.name), h('span.rank', null, rankName(g.white.rank)))),
      h('div.c-size', null, `${g.size}×${g.size}`),
      timeCell(g),
      h('div.c-rules', null, t(`rules.${g.ruleset}`)),
      h('div.c-mode', null, h('span', { class: g.rated ? 'rated' : 'casual' }, g.rated ? t('lobby.rated') : t('lobby.casual'))),
      h('div.c-act', null, h('span.button.ghost.small', null, t('lobby.watch')))));
    const total = Math.max(gamesTotal, all.length);
    tabCount.live.textContent = total ? String(total) : '';
    const more = total > rows.length ? h('p.muted.more-games', null, t('lobby.more.live', { n: total - rows.length })) : null;
    replace(gameList, ...(rows.length
      ? [head(t('col.players'), t('col.size'), t('col.time'), t('col.rules'), t('col.mode'), ''), ...rows, more]
      : [h('p.empty', null, t('lobby.none.live'))]));
    const user = me();
    const playing = user ? all.filter((g) => g.black.id === user.id || g.white.id === user.id) : [];
    mine.hidden = !playing.length;
    replace(mine, h('h3', null, t('lobby.myGames')), ...playing.map((g) => h('a.my-game', { href: `/game/${g.id}`, dataset: { link: '' } },
      dot(g.black.id === user.id ? 'black' : 'white'), `${g.black.name} – ${g.white.name}`, h('span.muted', null, ` ${g.size}×${g.size}`))));
  }

  async function accept(id) {
    try {
      const answer = await post(`/api/challenges/${id}/accept`);
      // A seat of a rengo or a simul: wait in the lobby until the last one starts it.
      if (answer.challenge) {
        challenges.set(answer.challenge.id, answer.challenge);
        renderChallenges();
        return;
      }
      const mine = answer.games ? answer.games.find(plays) : answer;
      if (mine) toGame(mine);
    } catch (e) {
      toast(apiErrorText(e), 'error');
    }
  }

  async function leaveSeat(id) {
    try {
      await del(`/api/challenges/${id}/seat`);
    } catch (e) {
      toast(apiErrorText(e), 'error');
    }
  }

  function remember(c) {
    challenges.set(c.id, c);
    if (c.mode?.kind === 'simul' && c.challenger === me()?.name) hosting.add(c.id);
  }

  /** Whether the viewer plays `game` (in rengo, in either team). */
  function plays(game) {
    const user = me();
    if (!user) return false;
    return [game.black, game.white, game.partners?.black, game.partners?.white].some((s) => s?.id === user.id);
  }

  async function withdraw(id) {
    try {
      await del(`/api/challenges/${id}`);
    } catch (e) {
      toast(apiErrorText(e), 'error');
    }
  }

  /** Seeks a game of `preset` (automatch): paired at once, or searching until a match comes or we cancel. */
  function quick(preset) {
    if (!me()) {
      authDialog('register');
      return;
    }
    if (searching === preset) {
      cancelSearch();
      return;
    }
    searching = preset;
    sendSeek();
    renderSearch();
  }

  function sendSeek() {
    const preset = searching;
    if (!preset) return;
    const time_control = preset.moves
      ? { system: 'moves_per_period', main: preset.main * 60_000, moves: preset.moves, period: preset.periodMin * 60_000, leftover: 'carried_over' }
      : { system: 'byo_yomi', main: preset.main * 60_000, periods: preset.periods, period: preset.period * 1000 };
    socket.send({ type: 'seek', size: preset.size, time_control, rated: true, handicap: true });
  }

  function cancelSearch() {
    searching = null;
    socket.send({ type: 'cancel_seek' });
    renderSearch();
  }

  /** The pressed quick-game button says it searches; the card says how many do. */
  function renderSearch() {
    for (const button of root.querySelectorAll('[data-quick]')) {
      const on = searching !== null && button.dataset.quick === `${searching.size}-${searching.label}`;
      button.classList.toggle('searching', on);
      button.setAttribute('aria-pressed', String(on));
    }
    searchStatus.hidden = searching === null;
    if (searching === null) return;
    replace(searchStatus,
      h('span.spinner', { 'aria-hidden': 'true' }),
      h('span', null, t('lobby.searching', { game: `${searching.size}×${searching.size} ${searching.label}` })),
      h('span.muted', { dataset: { role: 'seekers' } }, t('lobby.seekers', { n: Math.max(seekers, 1) })),
      h('button.ghost.small', { type: 'button', dataset: { action: 'cancel-search' }, onclick: cancelSearch }, t('lobby.search.cancel')));
  }

  /** Starts a game against the computer with the card's choices, and goes to it. */
  async function playComputer(button, error) {
    if (!me()) {
      authDialog('register');
      return;
    }
    error.hidden = true;
    const preset = COMPUTER_TIMES.find((c) => c.key === computer.time) ?? COMPUTER_TIMES[0];
    const time_control = preset.main === undefined ? { system: 'none' }
      : { system: 'byo_yomi', main: preset.main * 60_000, periods: preset.periods, period: preset.period * 1000 };
    button.disabled = true;
    try {
      toGame(await post('/api/computer/games', { level: computer.level, size: computer.size, time_control, color: 'nigiri', ruleset: 'chinese', rated: computer.rated }));
    } catch (e) {
      error.textContent = apiErrorText(e);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  /** To the board of a game just started (the lobby's socket may have gone there first). */
  function toGame(game) {
    if (location.pathname !== `/game/${game.id}`) navigate(`/game/${game.id}`);
  }

  function computerCard() {
    const error = h('p.form-error', { role: 'alert', hidden: true });
    const level = h('select', { name: 'level', disabled: true }, h('option', null, '…'));
    const fill = (levels) => {
      const filled = levelSelect(levels, computer.level);
      filled.addEventListener('change', () => { computer.level = Number(filled.value); });
      level.replaceWith(filled);
    };
    computerLevelList().then(fill, (e) => {
      error.textContent = apiErrorText(e);
      error.hidden = false;
    });
    const time = h('select', { name: 'computer-time', onchange: (e) => { computer.time = e.target.value; } },
      ...COMPUTER_TIMES.map((c) => h('option', { value: c.key }, c.main === undefined ? t('form.time.none') : `${c.key} ${t('form.time.byo_yomi')}`)));
    time.value = computer.time;
    const rated = h('input', { type: 'checkbox', name: 'computer-rated', checked: computer.rated, onchange: (e) => { computer.rated = e.target.checked; } });
    const play = h('button.primary.wide', { type: 'button', dataset: { action: 'play-computer' }, onclick: () => playComputer(play, error) }, t('computer.play'));
    return h('div.card.computer-card', { dataset: { role: 'computer' } },
      h('h2', null, t('computer.title')),
      h('p.muted.small', null, t('computer.help')),
      h('label.field', null, h('span', null, t('computer.level')), level),
      h('div.field', null, h('span', null, t('form.size')),
        segmented('computer-size', [[9, '9×9'], [13, '13×13'], [19, '19×19']], computer.size, (v) => { computer.size = v; })),
      h('label.field', null, h('span', null, t('form.time')), time),
      h('label.check', null, rated, t('computer.rated')),
      error,
      play,
      h('button.ghost.wide', {
        type: 'button', dataset: { action: 'computer-settings' },
        onclick: () => (me() ? challengeDialog({ computer: computer.level, onCreated: toGame }) : authDialog('register')),
      }, t('computer.more')));
  }

  /** Keeps the newest games and our own: the lobby of a busy server is not all held here. */
  function forgetOldGames() {
    if (games.size <= 2 * SHOWN_GAMES) return;
    const user = me();
    const old = [...games.values()].sort((a, b) => a.created_at - b.created_at);
    for (const g of old.slice(0, games.size - SHOWN_GAMES)) {
      if (!user || (g.black.id !== user.id && g.white.id !== user.id)) games.delete(g.id);
    }
  }

  function onLobby(m) {
    switch (m.type) {
      case 'lobby':
        challenges.clear();
        games.clear();
        for (const c of m.challenges) remember(c);
        for (const g of m.games) games.set(g.id, g);
        gamesTotal = m.games_total ?? m.games.length;
        seekers = m.seekers?.count ?? 0;
        // A new connection holds no seek: the search goes on with it.
        sendSeek();
        renderSearch();
        break;
      case 'seekers':
        seekers = m.seekers.count;
        renderSearch();
        return;
      case 'seeking':
        return;
      case 'seek_cancelled':
        searching = null;
        renderSearch();
        return;
      case 'paired':
        searching = null;
        chime();
        toGame({ id: m.game });
        return;
      case 'error':
        searching = null;
        renderSearch();
        toast(apiErrorText({ code: m.code, message: m.message }), 'error');
        return;
      case 'challenge_opened':
        remember(m.challenge);
        break;
      case 'challenge_closed':
        challenges.delete(m.id);
        break;
      case 'game_started': {
        if (!games.has(m.game.id)) gamesTotal += 1;
        games.set(m.game.id, m.game);
        forgetOldGames();
        // Our challenge was accepted: to the board (a simul's host: to its page).
        if (plays(m.game)) {
          const target = m.game.simul && hosting.has(m.game.simul) ? `/simul/${m.game.simul}` : `/game/${m.game.id}`;
          if (location.pathname !== target) {
            chime();
            navigate(target);
          }
          return;
        }
        break;
      }
      case 'game_ended':
        games.delete(m.id);
        gamesTotal = Math.max(0, gamesTotal - 1);
        break;
      case 'resync':
        socket.reconnectNow(false);
        return;
      default:
        return;
    }
    renderChallenges();
    renderGames();
  }

  const search = debounce(async (q) => {
    if (!q.trim()) {
      replace(searchResults);
      return;
    }
    try {
      const players = await get(`/api/players?q=${encodeURIComponent(q.trim())}&limit=8`);
      replace(searchResults, ...(players.length
        ? players.map((p) => h('li', null, playerLink(p.name, p.rating.rank), h('span.muted', null, ` ${Math.round(p.rating.rating)}`)))
        : [h('li.muted', null, t('lobby.search.none'))]));
    } catch (e) {
      replace(searchResults, h('li.muted', null, e.message));
    }
  }, 200);

  function build() {
    const quickGrid = h('div.quick-grid', { dataset: { role: 'quick' } }, ...QUICK.map((p) => h('button.quick', {
      type: 'button', onclick: () => quick(p), dataset: { quick: `${p.size}-${p.label}` },
    }, h('span.quick-size', null, `${p.size}×${p.size}`), h('span.quick-time', null, p.label))));
    const tabs = h('div.tab-bar', { role: 'tablist' });
    const panes = [['challenges', t('lobby.challenges'), challengeList], ['live', t('lobby.live'), gameList]];
    const body = h('div.tab-body');
    panes.forEach(([key, label, pane], i) => {
      const tab = h('button.tab', {
        type: 'button', role: 'tab', 'aria-selected': String(i === 0), dataset: { tab: key },
        onclick() {
          for (const b of tabs.children) b.setAttribute('aria-selected', String(b === tab));
          for (const [, , p] of panes) p.hidden = p !== pane;
        },
      }, label, tabCount[key]);
      pane.hidden = i !== 0;
      tabs.append(tab);
      body.append(pane);
    });
    replace(root, h('div.lobby', null,
      h('section.lobby-side', null,
        h('div.card.hero', null,
          h('div.hero-mark', { 'aria-hidden': 'true' }, '手谈'),
          h('p', null, t('lobby.welcome'))),
        h('div.card.quick-card', null,
          h('h2', null, t('lobby.quick')),
          h('p.muted.small', null, t('lobby.quick.help')),
          quickGrid,
          searchStatus,
          h('button.primary.wide.create', {
            type: 'button', dataset: { action: 'create' },
            onclick: () => (me() ? challengeDialog() : authDialog('register')),
          }, t('lobby.custom'))),
        mine,
        computerCard(),
        h('div.card.search-card', null,
          h('h2', null, t('lobby.search')),
          h('input.search', { type: 'search', name: 'player-search', placeholder: t('lobby.search.placeholder'), oninput: (e) => search(e.target.value), autocomplete: 'off' }),
          searchResults)),
      h('section.card.lobby-main', null, tabs, body)));
    renderChallenges();
    renderGames();
    renderSearch();
  }

  build();
  const socket = new LiveSocket({ path: () => '/api/lobby/ws', onMessage: onLobby });
  // The lobby shows what the viewer may see: after a login, ask again.
  const stopSession = onSession(() => socket.reconnectNow(false));
  const stopSettings = onChange((_, changes) => {
    if ('lang' in changes) build();
  });
  return () => {
    socket.close();
    stopSession();
    stopSettings();
  };
}
