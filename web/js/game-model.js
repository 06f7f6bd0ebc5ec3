// A game as the client holds it: the whole game from the server's welcome
// (or snapshot), then its versioned events one by one. An event that
// skips a version is a gap: the caller asks the server to resend. Every
// position of the game is kept for the move list and the review.

import { Position, replay, startingPosition } from './goban.js';

/** What applying a frame did. */
export const Applied = Object.freeze({ APPLIED: 'applied', OLD: 'old', GAP: 'gap' });

/** The colour `userId` plays in `game` (in rengo, his team's), or 'spectator'. */
export function seatColor(game, userId) {
  if (userId === undefined || userId === null) return 'spectator';
  for (const color of ['black', 'white']) {
    if (game[color].id === userId || game.partners?.[color]?.id === userId) return color;
  }
  return 'spectator';
}

export class GameModel {
  /**
   * @param {any} game  the server's game view
   * @param {'black' | 'white' | 'spectator'} you
   * @param {number | null} [userId]  the viewer's account
   */
  constructor(game, you = 'spectator', userId = null) {
    this.you = you;
    this.userId = userId;
    /** Free handicap stones once placed, in GTP notation. */
    this.placed = [];
    this.load(game);
  }

  /** Takes the whole game, dropping what was held. */
  load(game) {
    this.game = game;
    this.id = game.id;
    this.size = game.settings.size;
    this.version = game.version;
    this.state = game.state;
    this.clock = game.clock;
    this.clockAt = performance.now();
    this.moves = game.moves.map((m) => ({ color: m.color, point: m.point ?? null }));
    this.chat = [...game.chat];
    this.rebuild(Position.fromRows(game.board));
  }

  /**
   * Replays the moves from the start. `known`, the position the server
   * showed, wins over the replay if they differ (a free handicap not yet
   * known): the last position is then the server's.
   * @param {Position} [known]
   */
  rebuild(known) {
    const start = startingPosition(this.size, this.game.settings.ruleset, this.game.settings.handicap, this.placed);
    this.positions = replay(start, this.moves);
    const last = this.positions[this.positions.length - 1];
    this.exact = !known || last.board.equals(known);
    if (!this.exact && known) last.board = known;
  }

  /** Free handicap stones learned from the log: the history is replayed with them. */
  setPlaced(points) {
    this.placed = points;
    this.rebuild(this.current().board);
  }

  /** The position after the last move. */
  current() {
    return this.positions[this.positions.length - 1];
  }

  /** The settings of the game. */
  get settings() {
    return this.game.settings;
  }

  get players() {
    return { black: this.game.black, white: this.game.white };
  }

  /** In rengo, each team's second player; null in a game of two. */
  get partners() {
    return this.game.partners ?? null;
  }

  /** The player whose turn it is: in rengo the partner due, else the colour's seat. */
  playerToMove() {
    const color = this.state.to_move;
    if (!color) return null;
    const id = this.state.player_to_move;
    if (id !== undefined && id !== null && this.partners?.[color]?.id === id) return this.partners[color];
    return this.players[color];
  }

  /** Whether the viewer is to move now (in rengo: his colour, and his turn of the two). */
  myTurn() {
    if (!this.isPlayer || this.state.to_move !== this.you || this.awaitingPlayers().length) return false;
    const id = this.state.player_to_move;
    return id === undefined || id === null || id === this.userId;
  }

  /**
   * The players an event's game still waits for (Art. 22: it starts when
   * both have sat down, that is opened it): none once it has.
   * @returns {('black' | 'white')[]}
   */
  awaitingPlayers() {
    const seated = this.state.seated;
    return seated ? ['black', 'white'].filter((c) => !seated[c]) : [];
  }

  /** Whether the viewer plays this game. */
  get isPlayer() {
    return this.you === 'black' || this.you === 'white';
  }

  get over() {
    return this.state.status !== 'live';
  }

  /**
   * Applies a versioned event frame.
   * @returns {string} one of {@link Applied}
   */
  apply(frame) {
    if (frame.v <= this.version) return Applied.OLD;
    if (frame.v > this.version + 1) return Applied.GAP;
    this.version = frame.v;
    this.state = frame.state;
    this.clock = frame.clock;
    this.clockAt = performance.now();
    const event = frame.event;
    switch (event.type) {
      case 'move':
        this.push({ color: event.color, point: event.point });
        break;
      case 'pass':
      case 'time_out_pass':
        this.push({ color: event.color, point: null });
        break;
      case 'place_handicap':
        this.placed = event.points;
        this.rebuild();
        break;
      case 'takeback_answer':
      case 'dispute':
        if (this.moves.length !== frame.state.moves) {
          this.moves = this.moves.slice(0, frame.state.moves);
          this.positions = this.positions.slice(0, frame.state.moves + 1);
        }
        break;
      case 'chat':
        this.chat.push({ v: frame.v, at: frame.at, user: event.user, name: event.name, channel: event.channel, text: event.text });
        break;
      default:
        break;
    }
    return Applied.APPLIED;
  }

  push(move) {
    this.moves.push(move);
    const prev = this.current();
    const [, next] = replay(prev.board, [move]);
    next.captures = {
      black: prev.captures.black + (move.color === 'black' ? next.captured.length : 0),
      white: prev.captures.white + (move.color === 'white' ? next.captured.length : 0),
    };
    this.positions.push(next);
  }

  /** Whether what is held agrees with the server's count of turns. */
  consistent() {
    return this.moves.length === this.state.moves;
  }
}
