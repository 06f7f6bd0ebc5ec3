// The client's pure modules, in Node without a browser: the board and its
// captures (spec §2), star points and handicaps (§6), the count shown in
// the counting phase (§5), the clocks as they run down (docs/spec/time.md),
// the game model's versioned events, and the words of the interface: one
// dictionary per language, merged from files that share no key.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { blackZi, countPosition } from '../js/counting.js';
import {
  advance, byoYomiFace, clientName, clockFace, rankText, signedText, timeAnswer, timeControlShort, timeSystem, ziText,
} from '../js/format.js';
import { Applied, GameModel } from '../js/game-model.js';
import {
  Position, fixedHandicap, fromGtp, replay, starPoints, startingPosition, toGtp,
} from '../js/goban.js';

globalThis.performance ??= /** @type {any} */ ({ now: () => Date.now() });
// What settings.js reads of the browser when it loads (i18n.js imports it).
globalThis.navigator ??= /** @type {any} */ ({ languages: ['en'] });
globalThis.matchMedia ??= /** @type {any} */ (() => ({ matches: false }));
const { sources, t } = await import('../js/i18n.js');
const { settings } = await import('../js/settings.js');

const gtp = (size, points) => points.map((p) => toGtp(size, p.x, p.y));
const CHINESE = { counting: 'area', group_tax: 0, handicap_compensation: 'n', komi: 7.5 };

describe('the board', () => {
  it('names points in GTP notation, without the letter I', () => {
    assert.equal(toGtp(19, 3, 15), 'D4');
    assert.equal(toGtp(19, 8, 0), 'J19');
    assert.deepEqual(fromGtp(19, 'J19'), { x: 8, y: 0 });
    assert.deepEqual(fromGtp(9, 'e5'), { x: 4, y: 4 });
    for (const bad of ['I5', 'Z1', 'A0', 'A10', 'D', '']) assert.equal(fromGtp(9, bad), null, bad);
    assert.equal(toGtp(25, 24, 24), 'Z1');
  });

  it('captures a chain left without liberties (spec §2)', () => {
    //   A B C D
    // 4 X O O .     black D4 takes B4-C4, whose last liberty it was
    // 3 . X X .
    const board = Position.fromRows(['XOO.', '.XX.', '....', '....']);
    assert.deepEqual(gtp(4, board.play('black', 3, 0)).sort(), ['B4', 'C4']);
    assert.deepEqual(board.toRows(), ['X..X', '.XX.', '....', '....']);
  });

  it('removes the opponent’s stones first when both sides are out of liberties (spec §2)', () => {
    //   A B C D
    // 4 . O X .     black A4 has no liberty, but takes B4 and lives
    // 3 O X . .
    const board = Position.fromRows(['.OX.', 'OX..', '....', '....']);
    assert.deepEqual(gtp(4, board.play('black', 0, 0)), ['B4']);
    assert.deepEqual(board.toRows(), ['X.X.', 'OX..', '....', '....']);
  });

  it('keeps every position of a game with the captures so far', () => {
    const start = new Position(9);
    const moves = [
      { color: 'white', point: 'A1' }, { color: 'black', point: 'A2' },
      { color: 'white', point: null }, { color: 'black', point: 'B1' },
    ];
    const positions = replay(start, moves);
    assert.equal(positions.length, 5);
    assert.deepEqual(positions[4].captured.map((p) => toGtp(9, p.x, p.y)), ['A1']);
    assert.deepEqual(positions[4].captures, { black: 1, white: 0 });
    assert.equal(positions[3].board.get(0, 8), 2, 'A1 is white before B1');
    assert.equal(positions[4].board.get(0, 8), 0);
  });

  it('draws 9 star points on 19×19 and 5 on 13×13 and 9×9', () => {
    assert.equal(starPoints(19).length, 9);
    assert.equal(starPoints(13).length, 5);
    assert.deepEqual(gtp(9, starPoints(9)).sort(), ['C3', 'C7', 'E5', 'G3', 'G7']);
    assert.deepEqual(starPoints(4), []);
  });

  it('places fixed handicaps as the GTP table does', () => {
    assert.deepEqual(gtp(19, fixedHandicap(19, 3)), ['D4', 'Q16', 'D16']);
    assert.deepEqual(gtp(19, fixedHandicap(19, 5)).sort(), ['D16', 'D4', 'K10', 'Q16', 'Q4']);
    assert.equal(fixedHandicap(19, 9).length, 9);
    assert.deepEqual(fixedHandicap(13, 10), []);
  });

  it('starts ancient games with 座子 on the corner star points', () => {
    const ancient = { initial_stones: { upper_left: 'white', upper_right: 'black', lower_left: 'black', lower_right: 'white' } };
    const p = startingPosition(19, ancient, 'none');
    const at = (s) => { const q = fromGtp(19, s); return p.get(q.x, q.y); };
    assert.deepEqual(['Q16', 'D4', 'D16', 'Q4'].map(at), [1, 1, 2, 2]);
    const handicap = startingPosition(9, CHINESE, { fixed: 2 });
    assert.equal(handicap.cells.filter((c) => c === 1).length, 2);
    const free = startingPosition(9, CHINESE, { free: 2 }, ['E5', 'C3']);
    assert.equal(free.cells.filter((c) => c === 1).length, 2);
  });
});

describe('the count (spec §5)', () => {
  // The end of the e2e game: black owns columns A–D (B7 dead), white E–J.
  const rows = ['...XO....', '...XO....', '.O.XO....', '...XO....', '..XXO....', '...XO....', '...XO....', 'X..XO....', '.X.XO....'];

  it('gives black 36 子 and white 45 子: white wins by 8¼ 子 = 16.5 points', () => {
    const c = countPosition(Position.fromRows(rows), ['B7'], { ruleset: CHINESE, komi: 7.5, handicapStones: 0, prisoners: { black: 1, white: 0 } });
    assert.equal(c.black.count, 36);
    assert.equal(c.white.count, 45);
    assert.equal(c.margin, -16.5);
    assert.equal(blackZi(c), 36);
    assert.equal(c.owners[2 * 9 + 1], 'black', 'B7, dead, is black’s');
  });

  it('without the mark, B7 lives and the region around it is shared', () => {
    const c = countPosition(Position.fromRows(rows), [], { ruleset: CHINESE, komi: 7.5, handicapStones: 0, prisoners: { black: 1, white: 0 } });
    assert.equal(c.owners[2 * 9 + 1], 'white');
    assert.ok(c.black.shared > 0);
    assert.equal(c.black.count + c.white.count, 81, 'area counting splits the board');
  });

  it('counts territory and prisoners under territory counting, with komi and handicap compensation', () => {
    const board = Position.fromRows(['.X.O.', '.X.O.', '.X.O.', '.X.O.', '.X.O.']);
    const japanese = { counting: 'territory', group_tax: 0, handicap_compensation: 'none' };
    const c = countPosition(board, [], { ruleset: japanese, komi: 6.5, handicapStones: 0, prisoners: { black: 2, white: 0 } });
    assert.deepEqual([c.black.count, c.white.count], [5 + 2, 5]);
    assert.equal(c.margin, 7 - 5 - 6.5);
    const handicapped = countPosition(board, [], { ruleset: CHINESE, komi: 0, handicapStones: 4, prisoners: { black: 0, white: 0 } });
    assert.equal(handicapped.compensation, 4, 'black returns N/2 子 = N points (spec §6)');
  });

  it('writes quarters of 子 the Chinese way', () => {
    assert.equal(ziText(0.75), '3/4');
    assert.equal(ziText(1.25), '1又1/4');
    assert.equal(ziText(184.25), '184又1/4');
    assert.equal(ziText(185), '185');
    assert.equal(ziText(3.75), '3又3/4');
  });
});

describe('the clocks (docs/spec/time.md)', () => {
  const byoYomi = (main, periods, periodLeft, running = true) => ({
    player: 'black', running, main_left: main, total_left: main + (periods - 1) * 60_000 + periodLeft,
    overtime: { kind: 'byo_yomi', periods_left: periods, period: 60_000, period_left: periodLeft },
  });

  it('runs main time first, then the periods; a period used gives way to the next', () => {
    const r = advance(byoYomi(10_000, 3, 60_000), 25_000);
    assert.equal(r.main_left, 0);
    assert.deepEqual(r.overtime, { kind: 'byo_yomi', periods_left: 3, period: 60_000, period_left: 45_000 });
    const later = advance(byoYomi(0, 3, 60_000), 95_000);
    assert.deepEqual([later.overtime.periods_left, later.overtime.period_left], [2, 25_000]);
    const last = advance(byoYomi(0, 1, 5_000), 9_000);
    assert.deepEqual([last.overtime.periods_left, last.overtime.period_left, last.total_left], [1, 0, 0]);
    assert.equal(advance(byoYomi(0, 3, 60_000, false), 30_000).overtime.period_left, 60_000, 'a stopped clock stands');
  });

  it('answers "how much time do I have" as the server words it (Art. 16.2)', () => {
    const r = advance(byoYomi(0, 3, 60_000), 95_000);
    assert.equal(timeAnswer(r, 'en'), 'byo-yomi: 2 periods of 60s left, 0:25 left in this one');
    assert.equal(timeAnswer(r, 'zh'), '读秒：还剩2分，本次还剩25秒');
    assert.equal(timeAnswer(byoYomi(0, 1, 42_000), 'zh'), '读秒：最后1分钟，还剩42秒');
    const moves = { player: 'white', running: false, main_left: 0, total_left: 300_000, overtime: { kind: 'moves_per_period', moves_left: 12, period_left: 300_000 } };
    assert.equal(timeAnswer(moves, 'en'), '12 moves in 5:00');
    assert.equal(timeAnswer({ ...moves, total_left: null }, 'zh'), '不计时');
  });

  it('counts a byo-yomi period that is not the last down to 1 second, never 0:00', () => {
    // 3×30s byo-yomi, 29.6 s into the first period: 0.4 s left, two more follow.
    const boundary = { kind: 'byo_yomi', periods_left: 3, period: 30_000, period_left: 400 };
    assert.equal(byoYomiFace(boundary), '0:01');
    assert.equal(byoYomiFace({ ...boundary, period_left: 30_000 }), '0:30');
    assert.equal(byoYomiFace({ ...boundary, period_left: 29_001 }), '0:30');
    assert.equal(byoYomiFace({ ...boundary, period_left: 29_000 }), '0:29');
    const r = { player: 'black', running: true, main_left: 0, total_left: 60_400, overtime: boundary };
    assert.equal(timeAnswer(r, 'zh'), '读秒：还剩3次，本次还剩1秒');
    assert.equal(timeAnswer(r, 'en'), 'byo-yomi: 3 periods of 30s left, 0:01 left in this one');
    // The last period rounds down, with tenths below ten seconds: the flag falls at 0.
    assert.equal(byoYomiFace({ ...boundary, periods_left: 1 }), '0.4');
    assert.equal(byoYomiFace({ ...boundary, periods_left: 1, period_left: 12_700 }), '0:12');
    // Every face a running non-final period shows, second by second: 30 … 1.
    const faces = new Set();
    for (let left = 30_000; left > 0; left -= 100) faces.add(byoYomiFace({ ...boundary, period_left: left }));
    assert.ok(!faces.has('0:00'), [...faces].join(' '));
    assert.equal(faces.size, 30);
  });

  it('shows clock faces that never promise more than is left', () => {
    assert.equal(clockFace(59_999), '0:59');
    assert.equal(clockFace(3_725_000), '1:02:05');
    assert.equal(clockFace(7_390, true), '7.3');
    assert.equal(clockFace(-5), '0:00');
  });

  it('shortens time controls for lists', () => {
    assert.equal(timeControlShort('10 min + 5×30s byo-yomi', 'en'), '10m+5×30s');
    assert.equal(timeControlShort('1h 55 min + 5×60s byo-yomi', 'zh'), '1小时55分+5×60秒');
    assert.equal(timeControlShort('10 min + 15 moves / 10 min (carry over)', 'en'), '10m+15/10m');
    assert.equal(timeControlShort('5 min + 10s Fischer (max 10 min)', 'en'), '5m+10s');
    assert.equal(timeControlShort('30s per move', 'en'), '30s/move');
    assert.equal(timeControlShort('no clock', 'en'), '∞');
    assert.equal(timeSystem('absolute 1h'), 'absolute');
  });
});

describe('ranks', () => {
  it('writes ranks the Chinese way in Chinese: 级, 段, 职业段', () => {
    assert.equal(rankText('9k', 'zh'), '9级');
    assert.equal(rankText('3d', 'zh'), '3段');
    assert.equal(rankText('9p', 'zh'), '职业9段');
    assert.equal(rankText('12k?', 'zh'), '12级?');
    assert.equal(rankText('9k', 'en'), '9k');
    assert.equal(rankText('', 'zh'), '');
    assert.equal(rankText(undefined, 'zh'), undefined);
  });

  it('names every rank as the server does (docs/api/ranks.tsv)', async () => {
    const { readFile } = await import('node:fs/promises');
    const table = await readFile(new URL('../../docs/api/ranks.tsv', import.meta.url), 'utf8');
    const rows = table.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
    assert.equal(rows.length, 48);
    for (const [text, chinese] of rows) {
      assert.equal(rankText(text, 'en'), text);
      assert.equal(rankText(text, 'zh'), chinese);
      assert.equal(rankText(`${text}?`, 'zh'), `${chinese}?`);
    }
  });
});

describe('changes', () => {
  it('carry their true sign, and none when they round to nothing', () => {
    assert.equal(signedText(1.44), '+1.4');
    assert.equal(signedText(-13), '−13.0');
    assert.equal(signedText(-0.04), '0.0');
    assert.equal(signedText(0), '0.0');
    assert.equal(signedText(2.5, 0), '+3');
  });
});

describe('the game model', () => {
  const view = () => ({
    id: 7,
    settings: { size: 9, ruleset: CHINESE, handicap: 'none', komi: 7.5 },
    version: 3,
    board: ['.........', '.........', '.........', '.........', '....X....', '.........', '.........', '.........', '.........'],
    moves: [{ color: 'black', point: 'E5' }],
    state: { status: 'live', phase: 'play', to_move: 'white', moves: 1, captures: { black: 0, white: 0 }, offers: {}, counting: null, result: null },
    clock: {},
    chat: [],
    black: { name: 'a' },
    white: { name: 'b' },
  });
  const frame = (v, event, moves) => ({
    type: 'event', v, at: 0, event,
    state: { status: 'live', phase: 'play', to_move: 'black', moves, captures: { black: 0, white: 0 }, offers: {}, counting: null, result: null },
    clock: {},
  });

  it('applies the next version, ignores old ones and reports a gap', () => {
    const m = new GameModel(view(), 'white');
    assert.ok(m.exact);
    assert.equal(m.apply(frame(3, { type: 'move', color: 'white', point: 'C3' }, 2)), Applied.OLD);
    assert.equal(m.apply(frame(5, { type: 'move', color: 'white', point: 'C3' }, 2)), Applied.GAP);
    assert.equal(m.apply(frame(4, { type: 'move', color: 'white', point: 'C3' }, 2)), Applied.APPLIED);
    assert.equal(m.moves.length, 2);
    assert.ok(m.consistent());
    assert.equal(m.current().board.get(2, 6), 2);
  });

  it('drops the moves a granted takeback takes back', () => {
    const m = new GameModel(view(), 'black');
    m.apply(frame(4, { type: 'move', color: 'white', point: 'C3' }, 2));
    m.apply(frame(5, { type: 'takeback', color: 'white' }, 2));
    m.apply(frame(6, { type: 'takeback_answer', color: 'black', accept: true }, 1));
    assert.equal(m.moves.length, 1);
    assert.equal(m.positions.length, 2);
    assert.equal(m.current().board.get(2, 6), 0);
  });

  it('does not give an event game\'s first move before both players have sat down (Art. 22)', () => {
    const game = view();
    game.state = { ...game.state, to_move: 'black', moves: 0, seated: { black: true, white: false } };
    const m = new GameModel(game, 'black');
    assert.deepEqual(m.awaitingPlayers(), ['white']);
    assert.equal(m.myTurn(), false, 'black waits for white');
    const sat = frame(4, { type: 'sit_down', color: 'white' }, 0);
    m.apply(sat);
    assert.deepEqual(m.awaitingPlayers(), []);
    assert.equal(m.myTurn(), true);
  });

  it('keeps the chat and a pass as a turn', () => {
    const m = new GameModel(view(), 'spectator');
    m.apply(frame(4, { type: 'chat', user: 1, name: 'a', channel: 'players', text: '你好' }, 1));
    m.apply(frame(5, { type: 'pass', color: 'white' }, 2));
    assert.deepEqual(m.chat.map((c) => c.text), ['你好']);
    assert.deepEqual(m.moves[1], { color: 'white', point: null });
  });
});

describe('sgf-tree: the analysis board’s records', () => {
  it('reads variations and comments and writes them back', async () => {
    const { parseSgf, writeSgf, moveOf, unescapeText } = await import('../js/sgf-tree.js');
    const text = '(;GM[1]SZ[9]AB[cc][gg] ;B[ee]C[a \\] bracket](;W[dd];B[ff])(;W[ef]XX[kept]))';
    const root = parseSgf(text);
    assert.equal(root.props.get('AB').length, 2);
    const first = root.children[0];
    assert.deepEqual(moveOf(first, 9), { color: 'black', point: { x: 4, y: 4 } });
    assert.equal(unescapeText(first.props.get('C')[0]), 'a ] bracket');
    assert.equal(first.children.length, 2);
    const again = parseSgf(writeSgf(root));
    assert.equal(writeSgf(again), writeSgf(root));
    assert.equal(again.children[0].children[1].props.get('XX')[0], 'kept');
    assert.equal(again.children[0].children[0].children[0].props.get('B')[0], 'ff');
    assert.throws(() => parseSgf('no record'), /no game tree/);
    assert.throws(() => parseSgf('(;B[aa'), /without its/);
  });
});

describe('a session’s browser', () => {
  it('says a User-Agent short: the browser with its version and the system; an unknown one as it is', () => {
    assert.equal(clientName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'), 'Chrome 156 · Linux');
    assert.equal(clientName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87'), 'Edge 126 · Windows');
    assert.equal(clientName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'), 'Safari 17 · iOS');
    assert.equal(clientName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:127.0) Gecko/20100101 Firefox/127.0'), 'Firefox 127 · macOS');
    assert.equal(clientName('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'), 'Chrome 126 · Android');
    assert.equal(clientName('curl/8.0'), 'curl/8.0');
  });
});

describe('the words of the interface', () => {
  it('keeps each key in one dictionary only, so that none shadows another', () => {
    const owner = new Map();
    const twice = [];
    for (const [name, words] of Object.entries(sources)) {
      for (const key of new Set([...Object.keys(words.en), ...Object.keys(words.zh)])) {
        if (owner.has(key)) twice.push(`${key}: ${owner.get(key)} and ${name}`);
        owner.set(key, name);
      }
    }
    assert.deepEqual(twice, []);
    assert.ok(owner.size > 500, `${owner.size} keys`);
  });

  it('has every key in English and in Chinese', () => {
    for (const [name, words] of Object.entries(sources)) {
      assert.ok(Object.keys(words.en).length > 50, `${name} has its words`);
      for (const lang of ['en', 'zh']) {
        const other = lang === 'en' ? words.zh : words.en;
        const missing = Object.keys(other).filter((key) => typeof words[lang][key] !== 'string' || !words[lang][key]);
        assert.deepEqual(missing, [], `${name}: keys without ${lang} text`);
      }
    }
  });

  it('looks up the words of every page through the one t', () => {
    const lang = settings.lang;
    try {
      settings.lang = 'zh';
      assert.equal(t('lobby.watch'), sources.interface.zh['lobby.watch']);
      assert.equal(t('events.round', { n: 3 }), '第3轮');
      assert.equal(t('moveInfo', { n: 3, what: '● 停一手' }), '第3手：● 停一手');
      // The analysis board's short texts and the game's long ones both stay.
      assert.equal(t('analysis.illegal.ko'), '劫：须先在别处找劫');
      assert.equal(t('illegal.ko'), '打劫：不能立即提回，须先在别处落一手。');
      assert.equal(t('no.such.key'), 'no.such.key');
      settings.lang = 'en';
      assert.equal(t('events.round', { n: 3 }), 'Round 3');
      assert.equal(t('nav.analysis'), 'Analysis');
    } finally {
      settings.lang = lang;
    }
  });
});
