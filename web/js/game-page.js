// The game page: play, watch and review one game. The board, both players
// with their clocks and captures, the requests and answers, counting, the
// move list (navigable while the game goes on), chat and the game's
// details. Joined over the game's WebSocket, which reconnects by itself
// and catches up from the last version seen. The chat of players the
// viewer blocks or mutes is hidden; another's line can be reported.

import { ApiError, get, post } from './api.js';
import { BoardView } from './board.js';
import { ClockView } from './clock-view.js';
import { blackZi, countPosition } from './counting.js';
import { h, replace } from './dom.js';
import { icon, iconButton } from './icons.js';
import { Applied, GameModel, seatColor } from './game-model.js';
import { fromGtp, opponent, toGtp } from './goban.js';
import { colorName, t } from './i18n.js';
import { clockFace, leadText, pointsText, timeAnswer, ziText } from './format.js';
import { refreshNotices } from './notice-banner.js';
import { hides, onRelations, relationsLoaded } from './relations.js';
import { reportDialog } from './report-dialog.js';
import { loadSession, onSession, session } from './session.js';
import { onChange, settings } from './settings.js';
import { LiveSocket } from './socket.js';
import { chime, stoneSound } from './sound.js';
import { dismissToast, dockToasts, dot, playerLink, ratingChange, toast } from './ui.js';
import { speakCall, speakText } from './voice.js';

/** How many handicap stones a game has. */
function handicapStones(handicap) {
  if (!handicap || typeof handicap !== 'object') return 0;
  if ('fixed' in handicap) return handicap.fixed;
  if ('free' in handicap) return handicap.free;
  if ('placed' in handicap) return handicap.placed.length;
  return 0;
}

/**
 * A value in both notations, the interface's first: 子 in Chinese, points
 * (B+1.5, komi 7.5) in English. The second is drawn small (`.alt`); a
 * value with no 子 form (territory counting: null) stands alone.
 * @template T
 * @param {T} zi  the value in 子 notation
 * @param {T} points  the value in international notation
 * @returns {[T, T]}
 */
function inLanguageOrder(zi, points) {
  const pair = settings.lang === 'zh' ? [zi, points] : [points, zi];
  if (pair[0]) pair[1]?.classList?.add('alt');
  return /** @type {[T, T]} */ (pair);
}

/** Komi as the interface says it: `7.5 (3又3/4子)`, `3又3/4子（7.5目）`. */
const komiText = (komi) => t('game.komiValue', { pts: pointsText(komi), zi: ziText(komi / 2) });

/** A number of points with up to two decimals (44.25). */
const decimalText = (n) => String(Math.round(n * 100) / 100);

/** How long a command waits for the game's socket to (re)connect (ms). */
const COMMAND_WAITS_FOR_SOCKET = 3000;

/** The refusal of a command the server never got. */
const offline = () => ({ code: 'offline', message: t('conn.offline') });

/** Whether a seat's name is one of the computer's accounts (`Shoutan-AI-N`). */
const isComputer = (name) => /^shoutan-ai-/i.test(name ?? '');

/** The page of game `id`; returns the function that leaves it. */
export function gamePage(root, { id }) {
  const page = new GamePage(root, Number(id));
  return () => page.dispose();
}

class GamePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    /** @type {GameModel | null} */
    this.model = null;
    /** The move shown when looking back; null: the game as it stands. */
    this.viewIndex = null;
    this.presence = null;
    /** Commands waiting for their acknowledgement, by id. */
    this.pending = new Map();
    this.lastId = 0;
    this.tentative = null;
    /** Free handicap stones chosen before they are sent. */
    this.placing = [];
    this.timeAsked = false;
    this.confirming = null;
    /** Chat lines that arrived while the chat was out of sight. */
    this.unread = 0;
    /** Wide screens show the chat beside the board, outside the tabs. */
    this.wide = matchMedia('(min-width: 1400px)');
    this.onWide = () => this.build();
    this.wide.addEventListener('change', this.onWide);
    /** The version a resync was asked from, while it is awaited. */
    this.resyncFrom = null;
    /** Join without `since` (after events that did not follow on). */
    this.fresh = false;
    this.socket = null;
    this.disposed = false;
    replace(root, h('div.page-loading', null, t('misc.loading')));
    this.keys = (e) => this.onKey(e);
    addEventListener('keydown', this.keys);
    // Logged in or out while here: join again as who we now are.
    this.stopSession = onSession(() => {
      if (!this.keepSocket) this.socket?.reconnectNow(false);
    });
    // Blocked or muted (or no longer) from another page: the chat follows.
    this.stopRelations = onRelations(() => {
      if (this.chatLog) this.renderChat();
    });
    this.stopSettings = onChange((_, changes) => {
      if ('lang' in changes) this.build();
      else if (this.board && ['board', 'stones', 'coordinates', 'lastMove'].some((k) => k in changes)) this.board.build();
    });
    this.start();
  }

  async start() {
    try {
      const [game] = await Promise.all([get(`/api/games/${this.id}`), relationsLoaded()]);
      if (this.disposed) return;
      const me = session.user;
      this.model = new GameModel(game, seatColor(game, me?.id), me?.id ?? null);
      await this.learnPlacedHandicap();
      this.build();
    } catch (e) {
      replace(this.root, h('div.empty-state', null,
        h('h2', null, e instanceof ApiError && e.status === 404 ? t('game.notFound') : t('misc.error', { message: e.message }))));
      return;
    }
    this.socket = new LiveSocket({
      path: () => `/api/games/${this.id}/ws${this.fresh ? '' : `?since=${this.model.version}`}`,
      onMessage: (m) => this.onMessage(m),
      keepAlive: 15_000,
      probe: () => ({ type: 'time' }),
    });
    this.tick();
  }

  /** A free handicap's stones are in the log only: fetch them for the history. */
  async learnPlacedHandicap() {
    const m = this.model;
    if (!m || !('free' in Object(m.settings.handicap)) || m.placed.length || m.state.phase === 'setup') return;
    try {
      const events = await get(`/api/games/${this.id}/events`);
      const placed = events.find((e) => e.event.type === 'place_handicap');
      if (placed) m.setPlaced(placed.event.points);
    } catch {
      // The history then starts from the server's board; play is unaffected.
    }
  }

  dispose() {
    this.disposed = true;
    this.socket?.close();
    cancelAnimationFrame(this.frame);
    removeEventListener('keydown', this.keys);
    this.wide.removeEventListener('change', this.onWide);
    dockToasts(null);
    this.stopSettings();
    this.stopSession();
    this.stopRelations();
    document.title = 'Shoutan 手谈';
  }

  // ——— The connection ———

  onMessage(m) {
    const model = this.model;
    switch (m.type) {
      case 'welcome': {
        this.fresh = false;
        this.resyncFrom = null;
        const seatChanged = model.you !== m.you;
        model.you = m.you;
        model.load(m.game);
        this.presence = m.presence;
        const last = m.last_command_id ?? 0;
        this.lastId = Math.max(this.lastId, last);
        // Commands sent before a drop: applied if the server counted them.
        // One sent on this connection before its welcome is still answered.
        for (const [id, p] of this.pending) {
          if (p.connection === this.socket.opens) continue;
          if (id <= last) p.resolve(null);
          else p.reject(offline());
          this.pending.delete(id);
        }
        this.learnPlacedHandicap().then(() => this.renderAll());
        if (seatChanged) this.build();
        else this.renderAll();
        this.loadRatings();
        break;
      }
      case 'snapshot':
        model.load(m.game);
        this.renderAll();
        break;
      case 'event': {
        const wasOver = model.over;
        const applied = model.apply(m);
        if (applied === Applied.GAP) {
          // A version skipped: ask for the events since ours; if they
          // still do not follow on, join afresh (the welcome is the whole game).
          if (this.resyncFrom === model.version) this.rejoin();
          else {
            this.resyncFrom = model.version;
            this.socket.send({ type: 'resync', since: model.version });
          }
          return;
        }
        if (applied === Applied.OLD) return;
        this.resyncFrom = null;
        if (!model.consistent()) {
          this.rejoin();
          return;
        }
        this.onEvent(m, wasOver);
        break;
      }
      case 'presence':
        this.presence = m;
        this.renderPlayers();
        this.renderStatus();
        this.renderSpectators();
        break;
      case 'call':
        this.onCall(m);
        break;
      case 'clock':
        model.clock = m.clock;
        model.clockAt = performance.now();
        if (this.timeAsked && model.isPlayer) {
          this.timeAsked = false;
          const answer = timeAnswer(m.clock[model.you], settings.lang);
          toast(answer, 'info', 5000);
          speakText(timeAnswer(m.clock[model.you], settings.voiceLang));
        }
        break;
      case 'ack': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.v);
        break;
      }
      case 'error': {
        const p = m.id ? this.pending.get(m.id) : null;
        if (p) {
          this.pending.delete(m.id);
          p.reject(m);
        } else if (m.code !== 'game_closed') {
          toast(this.errorText(m), 'error');
        }
        break;
      }
      default:
        break;
    }
  }

  /** Joins again from scratch: the server's welcome replaces what is held. */
  rejoin() {
    this.fresh = true;
    this.socket.reconnectNow(false);
  }

  /**
   * Sends a command, once the socket is open (waiting a few seconds for a
   * connection being made); resolves on its acknowledgement, rejects with
   * the server's error.
   */
  async command(message) {
    if (!(await this.socket?.opened(COMMAND_WAITS_FOR_SOCKET))) {
      throw offline();
    }
    this.lastId = Math.max(this.lastId + 1, Date.now());
    const id = this.lastId;
    return new Promise((resolve, reject) => {
      if (!this.socket?.send({ ...message, id })) {
        reject(offline());
        return;
      }
      this.pending.set(id, { resolve, reject, connection: this.socket.opens });
    });
  }

  /** Sends a command and shows its refusal. */
  async act(message) {
    try {
      await this.command(message);
      return true;
    } catch (e) {
      this.showError(e);
      return false;
    }
  }

  errorText(e) {
    if (e.code === 'illegal_move' && e.reason) return t(`illegal.${e.reason}`);
    if (e.code === 'not_your_turn') return t('error.not_your_turn');
    if (e.code === 'not_started') return t('error.not_started');
    if (e.code === 'looking_back') return t('error.looking_back');
    return t('error.generic', { message: e.message ?? e.code });
  }

  showError(e) {
    const text = this.errorText(e);
    if (this.notice) {
      replace(this.notice, h('span', null, text), e.code === 'illegal_move' ? h('small', null, e.message) : null);
      this.notice.dataset.code = e.reason ?? e.code;
      this.notice.hidden = false;
      clearTimeout(this.noticeTimer);
      this.noticeTimer = setTimeout(() => { this.notice.hidden = true; }, 6000);
    } else {
      toast(text, 'error');
    }
  }

  /** What an event changes on the page; `wasOver`: the game had ended before it. */
  onEvent(frame, wasOver) {
    const e = frame.event;
    const m = this.model;
    const mine = m.isPlayer && e.color === m.you;
    const who = e.color ? colorName(e.color) : '';
    if (e.type === 'move' || e.type === 'place_handicap') {
      this.tentative = null;
      stoneSound(frame.captured?.length ?? 0);
      if (this.notice && e.type === 'move' && mine) this.notice.hidden = true;
    }
    switch (e.type) {
      case 'pass':
        this.tentative = null;
        toast(t('game.pass.made', { color: who }));
        break;
      case 'time_out_pass':
        toast(t('game.timeOutPass', { color: who }), 'error');
        break;
      case 'takeback':
      case 'draw_offer':
      case 'count_request':
        if (!mine) chime();
        break;
      case 'takeback_answer':
      case 'draw_answer':
      case 'count_answer':
        if (!mine) toast(t('game.answered', { name: who, answer: t(e.accept ? 'game.answer.yes' : 'game.answer.no') }), e.accept ? 'success' : 'info');
        break;
      case 'dispute':
        toast(t('game.dispute.done', { color: who }));
        break;
      case 'chat':
        if (e.user !== session.user?.id && !hides(e.name) && !this.chatVisible()) {
          this.unread += 1;
          toast(`${e.name}: ${e.text.length > 80 ? `${e.text.slice(0, 79)}…` : e.text}`, 'info', 5000);
        }
        break;
      default:
        break;
    }
    if (m.over && !wasOver) {
      this.viewIndex = null;
      chime();
      // A rated game moves the rating (and maybe the rank): the header
      // shows it once the server has recorded the result.
      if (m.isPlayer && m.settings.rated) setTimeout(() => this.refreshRank(), 1500);
      this.loadRatings();
    }
    this.renderAll();
  }

  /**
   * Asks for the session again, so that the header shows the new rank (the
   * game stays joined). It runs on a timer, so a server that cannot be
   * reached just then (a restart) is no error: the header keeps the rank it
   * shows until the next page load.
   */
  async refreshRank() {
    if (this.disposed) return;
    this.keepSocket = true;
    try {
      await loadSession();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    } finally {
      this.keepSocket = false;
    }
  }

  onCall(call) {
    const text = settings.lang === 'zh' ? call.zh : call.en;
    this.clocks?.[call.player].showCall(text);
    const m = this.model;
    // Players hear their own clock; spectators hear every call.
    if (!m.isPlayer || call.player === m.you) speakCall(call);
  }

  // ——— Layout ———

  build() {
    const m = this.model;
    if (!m) return;
    this.board = new BoardView({ size: m.size, onPoint: (x, y) => this.onPoint(x, y) });
    this.clocks = { black: new ClockView('black'), white: new ClockView('white') };
    this.cards = { black: this.playerCard('black'), white: this.playerCard('white') };
    this.notice = h('div.notice.error', { role: 'alert', hidden: true, dataset: { role: 'notice' } });
    // Notices go beside the board, never over it.
    this.toastDock = h('div.toast-dock', { dataset: { role: 'notices' } });
    this.status = h('div.status-area', { dataset: { role: 'status' } });
    this.navBanner = h('div.nav-banner', { hidden: true });
    this.moveList = h('ol.move-list', { dataset: { role: 'moves' } });
    this.controls = h('div.controls', { dataset: { role: 'controls' } });
    this.chatLog = h('div.chat-log', { dataset: { role: 'chat' } });
    this.chatError = h('p.chat-error', { role: 'alert', hidden: true, dataset: { role: 'chat-error' } });
    this.chatForm = this.buildChatForm();
    this.info = h('div.game-info', { dataset: { role: 'info' } });
    this.spectatorText = h('span');
    this.spectators = h('span.spectator-count', null, icon('eye'), this.spectatorText);
    this.navButtons = this.buildNavButtons();
    const beside = this.wide.matches;
    const chatPane = h('div.chat-pane', null, this.chatLog, this.chatError, this.chatForm);
    this.chatTab = null;
    this.unreadBadge = h('span.count', { dataset: { role: 'unread' } });
    const tabs = this.buildTabs([
      ['moves', t('game.moves'), h('div.moves-pane', null, this.moveList, this.navButtons)],
      beside ? null : ['chat', h('span', null, t('game.chat'), this.unreadBadge), chatPane],
      ['info', t('game.info'), this.info],
    ].filter(Boolean));
    this.chatTab = tabs.querySelector('[data-tab=chat]');
    if (beside) this.unread = 0;
    const bottom = m.you === 'white' ? 'white' : 'black';
    const top = opponent(bottom);
    replace(this.root, h('div.game-layout', { class: beside ? 'chat-beside' : '', dataset: { game: String(m.id), you: m.you } },
      h('div.board-area', null, h('div.board-wrap', null, this.board.el), this.navBanner),
      h('aside.side', null,
        h('div.card-top', null, this.cards[top]),
        h('div.status-wrap', null, this.notice, this.status, this.toastDock),
        h('div.game-meta', null,
          h('span.meta-rules', null, `${m.size}×${m.size} · ${t(`rules.${m.settings.ruleset_name}`)} · ${m.settings.rated ? t('game.rated') : t('game.casual')}`),
          this.spectators),
        h('div.tabs-wrap', null, tabs),
        this.controls,
        h('div.card-bottom', null, this.cards[bottom])),
      beside ? h('aside.chat-column', { dataset: { role: 'chat-column' } }, h('div.tabs', null, h('div.chat-head', null, t('game.chat')), chatPane)) : null));
    dockToasts(this.toastDock);
    this.renderAll();
  }

  /** Whether the chat is in sight: beside the board, or its tab chosen. */
  chatVisible() {
    return !this.chatTab || this.chatTab.getAttribute('aria-selected') === 'true';
  }

  /** The unread count on the chat tab. */
  renderUnread() {
    if (this.chatVisible()) this.unread = 0;
    this.unreadBadge.textContent = this.unread ? String(this.unread) : '';
  }

  playerCard(color) {
    const seat = this.model.players[color];
    const partner = this.model.partners?.[color];
    return h(`div.player-card.${color}`, { dataset: { player: color } },
      h('div.player-main', null,
        h('span.stone-icon', { class: color, 'aria-label': colorName(color) }),
        h('div.player-name', null,
          h('span', { dataset: { seat: seat.name } }, playerLink(seat.name, seat.rank)),
          partner ? h('span.partner', { dataset: { seat: partner.name } }, ' & ', playerLink(partner.name, partner.rank)) : null,
          h('span.presence', { dataset: { presence: color } })),
        this.clocks[color].el),
      h('div.player-sub', null,
        h('span.captures', { dataset: { captures: color } }),
        h('span.rating-change', { dataset: { ratingChange: color } }),
        h('span.turn-flag', { dataset: { turn: color } })),
      h('div.late-note', { dataset: { late: color }, hidden: true }));
  }

  buildTabs(panes) {
    const bar = h('div.tab-bar', { role: 'tablist' });
    const body = h('div.tab-body');
    panes.forEach(([key, label, pane], i) => {
      const tab = h('button.tab', {
        type: 'button', role: 'tab', 'aria-selected': String(i === 0), dataset: { tab: key },
        onclick: () => {
          for (const b of bar.children) b.setAttribute('aria-selected', String(b === tab));
          for (const p of body.children) p.hidden = p !== pane;
          if (key === 'chat') {
            pane.querySelector('input')?.focus({ preventScroll: true });
            this.renderUnread();
          }
        },
      }, label);
      pane.hidden = i !== 0;
      pane.dataset.pane = key;
      bar.append(tab);
      body.append(pane);
    });
    return h('div.tabs', null, bar, body);
  }

  buildNavButtons() {
    const b = (name, fn) => iconButton('button.nav', name, t(`nav.move.${name}`), { dataset: { nav: name }, onclick: fn });
    const total = () => this.model.moves.length;
    const at = () => this.viewIndex ?? total();
    return h('div.nav-buttons', null,
      b('first', () => this.view(0)),
      b('prev', () => this.view(at() - 1)),
      b('next', () => this.view(at() + 1)),
      b('last', () => this.view(total())));
  }

  /**
   * The chat's input. A refused line (a moderator's mute) is said in the
   * chat, where it was written, and the banner learns of the mute.
   */
  buildChatForm() {
    const input = h('input', { name: 'chat', maxLength: 500, autocomplete: 'off', placeholder: t('game.chat.placeholder') });
    return h('form.chat-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        this.chatError.hidden = true;
        try {
          await this.command({ type: 'chat', text });
          input.value = '';
        } catch (err) {
          this.chatError.textContent = err.code === 'muted' ? t('game.chat.muted', { message: err.message }) : this.errorText(err);
          this.chatError.dataset.code = err.code ?? '';
          this.chatError.hidden = false;
          if (err.code === 'muted') refreshNotices();
        }
      },
    }, input, h('button.primary', { type: 'submit' }, t('game.chat.send')));
  }

  // ——— Moving through the game ———

  /** Shows the position after `index` moves (the live position at the end). */
  view(index) {
    const total = this.model.moves.length;
    const i = Math.max(0, Math.min(total, index));
    this.viewIndex = i === total ? null : i;
    this.renderBoard();
    this.renderMoves();
    this.renderPlayers();
  }

  onKey(e) {
    if (!this.model || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement
      || e.target instanceof HTMLSelectElement || document.querySelector('dialog[open]')) return;
    const total = this.model.moves.length;
    const at = this.viewIndex ?? total;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 10, ArrowDown: at + 10, Home: 0, End: total, Escape: total };
    if (e.key in moves) {
      e.preventDefault();
      this.view(moves[e.key]);
    }
  }

  // ——— Playing ———

  /** Whether a click on the board plays for the viewer now. */
  canPlay() {
    const m = this.model;
    return this.viewIndex === null && m.state.phase === 'play' && m.myTurn();
  }

  placingHandicap() {
    const m = this.model;
    return m.you === 'black' && m.state.phase === 'setup' && this.viewIndex === null;
  }

  async onPoint(x, y) {
    const m = this.model;
    const point = toGtp(m.size, x, y);
    if (m.state.phase === 'counting' && m.isPlayer && this.viewIndex === null) {
      if (m.current().board.get(x, y)) await this.act({ type: 'toggle', point });
      return;
    }
    if (this.placingHandicap()) {
      const n = handicapStones(m.settings.handicap);
      const i = this.placing.findIndex((p) => p.x === x && p.y === y);
      if (i >= 0) this.placing.splice(i, 1);
      else if (this.placing.length < n) this.placing.push({ x, y });
      this.renderBoard();
      this.renderStatus();
      return;
    }
    if (!this.canPlay()) {
      this.explainNoMove();
      return;
    }
    const same = this.tentative && this.tentative.x === x && this.tentative.y === y;
    if (settings.confirmMove && !same) {
      this.tentative = { x, y, color: m.you, confirm: true };
      this.renderBoard();
      toast(t('game.confirmTap', { point }), 'info', 1800, 'confirm-tap');
      return;
    }
    this.tentative = { x, y, color: m.you };
    dismissToast('confirm-tap');
    this.renderBoard();
    try {
      await this.command({ type: 'move', point });
    } catch (e) {
      this.tentative = null;
      this.renderBoard();
      this.showError(e);
    }
  }

  /** Says why a click on the board played nothing, when the viewer plays this game. */
  explainNoMove() {
    const m = this.model;
    if (!m.isPlayer || m.state.status !== 'live') return;
    if (this.viewIndex !== null) this.showError({ code: 'looking_back' });
    else if (m.awaitingPlayers().length) this.showError({ code: 'not_started' });
    else if (m.state.phase === 'play' && m.state.to_move !== m.you) this.showError({ code: 'not_your_turn' });
  }

  // ——— Drawing ———

  renderAll() {
    if (!this.board || !this.model) return;
    if (this.viewIndex !== null && this.viewIndex >= this.model.moves.length) this.viewIndex = null;
    this.renderBoard();
    this.renderPlayers();
    this.renderStatus();
    this.renderMoves();
    this.renderControls();
    this.renderChat();
    this.renderUnread();
    this.renderInfo();
    this.renderSpectators();
    this.updateTitle();
  }

  /** The count shown in counting, and on the board of a game that ended by it. */
  countNow() {
    const m = this.model;
    const dead = m.state.counting?.dead ?? m.state.agreed_dead;
    if (!dead) return null;
    return {
      dead,
      count: countPosition(m.current().board, dead, {
        ruleset: m.settings.ruleset,
        komi: m.settings.komi,
        handicapStones: handicapStones(m.settings.handicap),
        prisoners: m.state.captures,
      }),
    };
  }

  renderBoard() {
    const m = this.model;
    const live = this.viewIndex === null;
    const pos = m.positions[this.viewIndex ?? m.moves.length];
    const lastPoint = pos.move?.point ? fromGtp(m.size, pos.move.point) : null;
    const scene = { board: pos.board, last: lastPoint, hover: null, tentative: null, dead: null, owners: null, marked: null };
    if (live) {
      scene.tentative = this.tentative;
      if (this.canPlay()) scene.hover = m.you;
      if (this.placingHandicap()) {
        scene.hover = 'black';
        scene.marked = this.placing;
        scene.board = pos.board.clone();
        for (const p of this.placing) scene.board.set(p.x, p.y, 1);
      }
      const counted = this.countNow();
      if (counted) {
        scene.dead = new Set(counted.dead.map((d) => fromGtp(m.size, d)).filter(Boolean).map((p) => p.y * m.size + p.x));
        scene.owners = counted.count.owners;
        scene.last = null;
      }
    }
    this.board.el.classList.toggle('counting', live && m.state.phase === 'counting' && m.isPlayer);
    this.board.render(scene);
    this.navBanner.hidden = live;
    if (!live) {
      replace(this.navBanner,
        h('span', null, t('game.viewing', { n: this.viewIndex, total: m.moves.length })),
        h('button.link', { type: 'button', onclick: () => this.view(m.moves.length) }, t('game.live')));
    }
  }

  renderPlayers() {
    const m = this.model;
    const pos = m.positions[this.viewIndex ?? m.moves.length];
    for (const color of ['black', 'white']) {
      const card = this.cards[color];
      const caps = this.viewIndex === null ? m.state.captures[color] : pos.captures[color];
      card.querySelector('[data-captures]').textContent = `${t('game.captures')} ${caps}`;
      const toMove = m.state.to_move === color && m.state.status === 'live';
      // The computer thinks on the server: say so while it does.
      const thinking = toMove && m.state.phase === 'play' && isComputer(m.players[color].name);
      card.classList.toggle('to-move', toMove);
      card.classList.toggle('thinking', thinking);
      card.querySelector('[data-turn]').textContent = thinking ? t('game.thinking') : toMove ? t('game.toMove') : '';
      const online = this.presence?.online?.[color];
      const presence = card.querySelector('[data-presence]');
      presence.className = `presence ${online ? 'online' : 'away'}`;
      presence.title = online ? 'online' : 'offline';
      card.classList.toggle('you', m.you === color);
      this.renderRatingChange(card, color);
      this.renderLateArrival(card, color);
      if (m.partners) {
        const next = toMove ? m.playerToMove()?.name : null;
        for (const el of card.querySelectorAll('[data-seat]')) el.classList.toggle('next', el.dataset.seat === next);
      }
    }
  }

  /** A rated game's rating change beside the player, once recorded. */
  renderRatingChange(card, color) {
    const el = card.querySelector('[data-rating-change]');
    const r = this.ratings?.[color];
    replace(el, r ? ratingChange(r.change) : null);
    el.title = r ? t('game.ratingChange', { before: Math.round(r.before), after: Math.round(r.after) }) : '';
  }

  /**
   * An event's player who sat down late: how late, and what the rule
   * (Art. 22, the time late deducted twice) took from his clock, if it
   * has time to take. Under a second is not worth a word (opening the page
   * takes that long).
   */
  renderLateArrival(card, color) {
    const el = card.querySelector('[data-late]');
    const late = this.model.state.late?.[color];
    const said = late && late.late >= 1000;
    el.hidden = !said;
    if (!said) el.textContent = '';
    else if (late.charged) el.textContent = t('game.late', { late: clockFace(late.late), charged: clockFace(late.charged) });
    else el.textContent = t('game.lateUncharged', { late: clockFace(late.late) });
  }

  /**
   * A rated game's rating changes, from the game's record: written a
   * moment after the end, so asked again for a while until they are.
   */
  async loadRatings() {
    const m = this.model;
    if (!m.over || !m.settings.rated || this.ratings || this.ratingsLoading) return;
    this.ratingsLoading = true;
    try {
      for (let tries = 0; tries < 10 && !this.disposed && !this.ratings; tries += 1) {
        try {
          this.ratings = (await get(`/api/games/${m.id}`)).ratings ?? null;
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
        }
        if (!this.ratings) await new Promise((done) => setTimeout(done, 1000));
      }
    } finally {
      this.ratingsLoading = false;
    }
    if (this.ratings && !this.disposed) this.renderPlayers();
  }

  /** Counts the clocks down between the server's readings. */
  tick() {
    if (this.disposed) return;
    const m = this.model;
    if (m && this.clocks) {
      const elapsed = performance.now() - m.clockAt;
      const running = m.state.status === 'live' ? m.clock.running : null;
      for (const color of ['black', 'white']) {
        const reading = { ...m.clock[color], running: running === color };
        this.clocks[color].update(reading, elapsed);
      }
    }
    this.frame = requestAnimationFrame(() => this.tick());
  }

  renderStatus() {
    const m = this.model;
    const st = m.state;
    const parts = [];
    const opp = m.isPlayer ? opponent(m.you) : null;
    if (st.status !== 'live') {
      parts.push(this.resultPanel());
      if (st.agreed_dead) parts.push(this.countPanel(false));
    } else if (st.phase === 'counting') {
      parts.push(this.countPanel(true));
    } else if (st.phase === 'setup') {
      const n = handicapStones(m.settings.handicap);
      parts.push(h('div.status-line', null, t('game.setup')));
      if (m.you === 'black') {
        parts.push(h('div.offer', null,
          h('span', null, t('game.placeHandicap', { n })),
          h('button.primary', {
            type: 'button', disabled: this.placing.length !== n,
            onclick: async () => {
              const points = this.placing.map((p) => toGtp(m.size, p.x, p.y));
              if (await this.act({ type: 'place_handicap', points })) {
                this.placing = [];
                this.renderAll();
              }
            },
          }, t('game.placeConfirm'))));
      }
    } else if (m.awaitingPlayers().length) {
      const absent = m.awaitingPlayers().filter((c) => c !== m.you);
      parts.push(h('div.status-line', { dataset: { role: 'awaiting' } }, absent.length === 1
        ? t('game.awaitingOne', { name: m.players[absent[0]].name })
        : t('game.awaitingBoth')));
    } else {
      const toMove = st.to_move;
      const next = m.playerToMove();
      const line = m.myTurn() ? t('game.yourTurn')
        : m.isPlayer && toMove === m.you ? t('game.partnersTurn', { name: next.name })
          : m.isPlayer || m.partners ? t('game.theirTurn', { name: next.name })
            : `${colorName(toMove)} ${t('game.toMove')}`;
      parts.push(h('div.status-line', { class: m.myTurn() ? 'your-turn' : '', dataset: { next: next.name } }, dot(toMove), line));
      for (const kind of ['takeback', 'draw', 'count']) {
        const asker = st.offers[kind];
        if (!asker) continue;
        if (m.isPlayer && asker === opp) {
          const answer = (accept) => this.act({ type: `${kind}_answer`, accept });
          parts.push(h('div.offer', { dataset: { offer: kind } },
            h('span', null, t(`game.offer.${kind}`, { name: m.players[asker].name })),
            h('div.row', null,
              h('button.primary', { type: 'button', dataset: { answer: 'accept' }, onclick: () => answer(true) }, t('game.accept')),
              h('button.ghost', { type: 'button', dataset: { answer: 'decline' }, onclick: () => answer(false) }, t('game.decline')))));
        } else if (m.isPlayer && asker === m.you) {
          parts.push(h('div.offer.waiting', { dataset: { offer: kind } }, t(`game.waiting.${kind}`)));
        } else {
          parts.push(h('div.offer.waiting', { dataset: { offer: kind } }, t(`game.offer.${kind}`, { name: m.players[asker].name })));
        }
      }
    }
    // Not in an event's game before it starts: a player who does not come
    // loses at the late-arrival limit, not by a claim.
    if (m.isPlayer && st.status === 'live' && this.presence && !this.presence.online[opp] && !m.awaitingPlayers().length) {
      const at = this.presence.claimable_at?.[opp];
      const wait = at ? at - Date.now() : null;
      parts.push(h('div.offer.away', null,
        h('span', null, t('game.away', { name: m.players[opp].name }), ' ',
          wait === null ? '' : wait > 0 ? t('game.claimIn', { time: `${Math.ceil(wait / 1000)}s` }) : t('game.claimNow')),
        h('button.ghost', { type: 'button', disabled: !at || wait > 0, onclick: () => this.act({ type: 'claim_win' }) }, t('game.claim'))));
      if (wait > 0) {
        clearTimeout(this.awayTimer);
        this.awayTimer = setTimeout(() => this.renderStatus(), Math.min(wait + 50, 1000));
      }
    }
    replace(this.status, ...parts);
  }

  resultPanel() {
    const m = this.model;
    const r = m.state.result;
    if (!r) {
      return h('div.result-banner', { dataset: { result: 'none' } }, h('strong', null, t(m.state.status === 'cancelled' ? 'game.cancelled' : 'game.over')));
    }
    const [main, alt] = inLanguageOrder(
      h('span.result-zh', { lang: 'zh', dataset: { notation: 'chinese' } }, r.chinese),
      h('span.result-intl', { dataset: { notation: 'international' } }, r.international));
    main.classList.add('result-main');
    alt.classList.add('result-alt');
    return h('div.result-banner', { dataset: { result: r.international } },
      h('span.result-label', null, t('result.title')), main, alt,
      h('div.result-actions', null,
        h('a.button.ghost', { href: `/api/games/${m.id}/sgf`, download: `shoutan-${m.id}.sgf`, dataset: { sgf: '' } }, icon('download'), t('game.sgf')),
        h('a.button.primary', { href: `/game/${m.id}/analysis`, dataset: { link: '', analyse: '' } }, t('game.analyse'))));
  }

  /** The figures of the count: both sides in 子 and points, and the result they give. */
  countPanel(active) {
    const m = this.model;
    const counted = this.countNow();
    if (!counted) return null;
    const c = counted.count;
    const area = c.counting === 'area';
    const komi = m.settings.komi;
    const row = (color) => {
      const side = c[color];
      const total = color === 'white' ? side.count + komi + c.compensation : side.count;
      const accepted = active ? m.state.counting?.accepted[color] : undefined;
      return h('tr', { dataset: { side: color } },
        h('th', null, dot(color), ' ', colorName(color),
          accepted === undefined ? null : h('span.accept-state', {
            class: accepted ? 'yes' : 'no', dataset: { accepted: color },
            title: accepted ? t('count.accepted') : t('count.waiting'),
          }, accepted ? `✓ ${t('count.accepted')}` : t('count.waiting'))),
        h('td', null, side.stones),
        h('td', null, area ? side.territory + (side.shared ? ` + ${side.shared}/2` : '') : side.territory),
        area ? null : h('td', null, side.prisoners),
        ...inLanguageOrder(
          area ? h('td.zi', { dataset: { zi: color } }, `${ziText(side.count)}${t('count.zi')}`) : null,
          h('td.pts', { dataset: { points: color } }, pointsText(total))));
    };
    const counting = m.state.counting;
    const me = m.you;
    const needs = c.area / 2 + komi / 2 + c.compensation / 2;
    return h('div.count-panel', { dataset: { role: 'count' } },
      h('div.count-head', null,
        h('strong', null, t('count.title')),
        h('span.muted', null, active ? t(m.isPlayer ? 'count.help' : 'count.help.spectator') : '')),
      h('table.count-table', null,
        h('thead', null, h('tr', null, h('th'), h('th', null, t('count.stones')), h('th', null, t('count.territory')),
          area ? null : h('th', null, t('count.prisoners')),
          ...inLanguageOrder(area ? h('th.zi', null, t('count.zi')) : null, h('th.pts', null, t('count.pts'))))),
        h('tbody', null, row('black'), row('white'))),
      h('p.count-note', null,
        `${t('game.komi')} ${komiText(komi)}`,
        area ? ` · ${t('count.blackNeeds', { pts: decimalText(needs), n: ziText(needs) })} · ${t('count.blackHas', { pts: decimalText(blackZi(c)), n: ziText(blackZi(c)) })}` : ''),
      counting ? h('div.count-result', null,
        h('span.muted', null, t('count.result')),
        ...inLanguageOrder(
          h('span', { lang: 'zh', dataset: { countResult: 'chinese' } }, counting.result.chinese),
          h('span', { dataset: { countResult: 'international' } }, counting.result.international))) : null,
      active && m.isPlayer ? h('div.row.count-actions', null,
        h('button.primary', { type: 'button', dataset: { action: 'accept-count' }, disabled: counting?.accepted[me], onclick: () => this.act({ type: 'accept' }) }, t('count.accept')),
        h('button.ghost', { type: 'button', dataset: { action: 'dispute' }, onclick: () => this.act({ type: 'dispute' }) }, t('count.dispute'))) : null);
  }

  renderMoves() {
    const m = this.model;
    const current = this.viewIndex ?? m.moves.length;
    const items = [h('li.move-item', { class: current === 0 ? 'current' : '', dataset: { move: '0' } },
      h('button', { type: 'button', onclick: () => this.view(0) }, h('span.num', null, '0'), t('game.start')))];
    m.moves.forEach((move, i) => {
      const n = i + 1;
      items.push(h('li.move-item', { class: n === current ? 'current' : '', dataset: { move: String(n) } },
        h('button', { type: 'button', onclick: () => this.view(n) },
          h('span.num', null, String(n)), dot(move.color), move.point ?? h('em', null, t('game.passMove')))));
    });
    replace(this.moveList, ...items);
    const cur = this.moveList.querySelector('.current');
    if (cur) {
      const list = this.moveList;
      const top = cur.offsetTop - list.offsetTop;
      const bottom = top + cur.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top - 4;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
    }
  }

  renderControls() {
    const m = this.model;
    const st = m.state;
    const live = st.status === 'live';
    const play = live && st.phase === 'play';
    if (!m.isPlayer || !live) {
      replace(this.controls, live ? h('div.spectating', null, t('game.spectator')) : null);
      return;
    }
    if (st.phase === 'counting') {
      replace(this.controls);
      return;
    }
    const myTurn = m.myTurn();
    const button = (action, label, enabled, fn, cls = 'ghost') => h(`button.${cls}`, { type: 'button', dataset: { action }, disabled: !enabled, onclick: fn }, label);
    const resign = this.confirming === 'resign'
      ? h('span.confirm', null, t('game.confirm.resign'),
        button('resign-yes', t('game.yes'), true, () => { this.confirming = null; this.act({ type: 'resign' }); }, 'danger'),
        button('resign-no', t('game.no'), true, () => { this.confirming = null; this.renderControls(); }))
      : button('resign', t('game.resign'), live && st.phase !== 'setup', () => { this.confirming = 'resign'; this.renderControls(); });
    const mineMoved = m.moves.some((mv) => mv.color === m.you);
    // A rated game allows no position judgement (the server refuses it):
    // the button stays disabled, its tooltip and a note under the buttons say why.
    const rated = m.settings.rated;
    const estimateNote = rated ? h('p.controls-note', { id: `estimate-note-${m.id}`, dataset: { role: 'estimate-note' } }, t('estimate.error.estimate_not_allowed')) : null;
    const pass = () => { this.confirming = null; this.act({ type: 'pass' }); };
    const passing = this.confirming === 'pass' && play && myTurn
      ? h('span.confirm', { dataset: { confirm: 'pass' } }, t('game.confirm.pass'),
        button('pass-yes', t('game.yes'), true, pass, 'primary'),
        button('pass-no', t('game.no'), true, () => { this.confirming = null; this.renderControls(); }))
      : button('pass', t('game.pass'), play && myTurn, () => {
        if (!settings.confirmPass) {
          pass();
          return;
        }
        this.confirming = 'pass';
        this.renderControls();
      });
    replace(this.controls,
      button('takeback', t('game.takeback'), play && mineMoved && !st.offers.takeback, () => this.act({ type: 'takeback' })),
      button('count', t('game.count'), play && !st.offers.count, () => this.act({ type: 'count' })),
      button('draw', t('game.draw'), play && !st.offers.draw, () => this.act({ type: 'draw' })),
      button('time', t('game.timeLeft'), m.clock[m.you]?.total_left !== null, () => {
        this.timeAsked = true;
        this.socket.send({ type: 'time' });
      }),
      h('button.ghost', {
        type: 'button', dataset: { action: 'estimate' }, disabled: !play || rated,
        title: estimateNote?.textContent, 'aria-describedby': estimateNote?.id, onclick: () => this.estimate(),
      }, t('estimate')),
      passing,
      resign,
      estimateNote);
  }

  /** Position judgement (形势判断), as far as the game's settings allow it. */
  async estimate() {
    try {
      const j = await post(`/api/games/${this.id}/estimate`);
      toast(t('estimate.result', { lead: leadText(j.black_lead), zi: j.black_lead_zi.toFixed(1), left: j.uses_left ?? '—' }), 'info', 6000, 'estimate');
    } catch (e) {
      const key = `estimate.error.${e.code}`;
      toast(t(key) === key ? e.message : t(key), 'error', 6000, 'estimate');
    }
  }

  renderChat() {
    const m = this.model;
    const me = session.user;
    const shown = m.chat.filter((line) => line.user === me?.id || !hides(line.name));
    const hidden = m.chat.length - shown.length;
    const lines = shown.map((line) => h('div.chat-line', {
      class: line.channel === 'spectators' ? 'spectators' : '',
      dataset: { v: String(line.v), name: line.name },
    },
    h('span.chat-name', null, line.name), h('span.chat-text', null, line.text),
    me && line.user !== me.id ? h('button.chat-report', {
      type: 'button', title: t('report.line'), 'aria-label': t('report.line'), dataset: { action: 'report-line' },
      onclick: () => reportDialog({ player: line.name, game: m.id, chat: line.v, line: line.text }),
    }, '⚑') : null));
    replace(this.chatLog,
      hidden ? h('p.chat-hidden', { dataset: { role: 'chat-hidden', count: String(hidden) } }, t('game.chat.hidden', { n: hidden })) : null,
      ...lines);
    this.chatLog.scrollTop = this.chatLog.scrollHeight;
    const input = this.chatForm.querySelector('input');
    input.disabled = !session.user;
    input.placeholder = session.user ? t('game.chat.placeholder') : t('game.chat.login');
  }

  renderInfo() {
    const m = this.model;
    const s = m.settings;
    const colors = { nigiri: t('game.nigiri'), ranks: t('game.byRank'), choice: t('game.byChoice') }[s.colors?.by] ?? '';
    const stones = handicapStones(s.handicap);
    const item = (label, value) => h('div.info-row', null, h('dt', null, label), h('dd', null, value));
    replace(this.info,
      h('dl', null,
        item(t('col.size'), `${s.size}×${s.size}`),
        item(t('col.rules'), t(`rules.${s.ruleset_name}`)),
        item(t('game.komi'), komiText(s.komi)),
        stones ? item(t('game.handicap'), String(stones)) : null,
        item(t('col.time'), settings.lang === 'zh' ? s.time_control_zh : s.time_control),
        item(t('col.mode'), s.rated ? t('game.rated') : t('game.casual')),
        colors ? item(t('form.color'), colors) : null),
      h('a.button.ghost', { href: `/api/games/${m.id}/sgf`, download: `shoutan-${m.id}.sgf` }, icon('download'), t('game.sgf')));
  }

  renderSpectators() {
    const n = this.presence?.spectators ?? 0;
    this.spectators.dataset.spectators = String(n);
    this.spectatorText.textContent = t('game.spectators', { n });
  }

  updateTitle() {
    const m = this.model;
    const mine = m.state.status === 'live' && m.state.phase === 'play' && m.myTurn();
    document.title = `${mine ? '● ' : ''}${m.players.black.name} – ${m.players.white.name} · Shoutan 手谈`;
  }
}
