//! The engine's play in positions with a known right answer: the end of
//! the game under area and territory counting (Art. 21.2), resignation,
//! the rules' legality, tree reuse, ownership and score.

#![allow(clippy::unwrap_used)] // test code: a failed setup is a failed test

use std::time::{Duration, Instant};

use shoutan_engine::{Budget, Decision, Engine, EngineConfig, Mode, StopHandle};
use shoutan_rules::{Board, BoardSize, Color, Game, Move, Point, Ruleset};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        threads: 2,
        max_nodes: 100_000,
        ..EngineConfig::default()
    })
}

fn pt(game: &Game, s: &str) -> Point {
    Point::from_gtp(s, game.size()).unwrap()
}

/// A game whose position is `diagram`, reached by playing its stones
/// (row by row) with `rules`, then `to_move` to play.
fn position(diagram: &str, rules: Ruleset, to_move: Color) -> Game {
    let board: Board = diagram.parse().unwrap();
    let mut game = Game::builder(board.size()).ruleset(rules).build().unwrap();
    for (p, stone) in board.stones() {
        if let Some(c) = stone {
            game.set_to_move(c).unwrap();
            game.play(c, p).unwrap();
        }
    }
    game.set_to_move(to_move).unwrap();
    game
}

fn decide(engine: &mut Engine, game: &Game, color: Color, visits: u64) -> Decision {
    engine
        .genmove(
            game,
            color,
            Budget::visits(visits),
            Mode::Normal,
            &StopHandle::new(),
        )
        .unwrap()
        .decision
}

/// Black owns columns A–D, white F–J; the E column is open.
const DIVIDED: &str = "
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .
    . . . X . O . . .";

#[test]
fn area_counting_fills_the_dame_before_passing() {
    // Art. 21.2: open points are shared; under area counting each one black
    // fills is half a point more. White passed; black fills, not passes.
    let mut game = position(DIVIDED, Ruleset::CHINESE, Color::White);
    game.pass(Color::White).unwrap();
    let d = decide(&mut engine(), &game, Color::Black, 100);
    let Decision::Play(p) = d else {
        panic!("black passed with dame left: {d:?}")
    };
    assert_eq!(
        p.col(),
        4,
        "black should fill a dame on the E column, played {p:?}"
    );
}

#[test]
fn area_counting_passes_when_nothing_is_left() {
    // No open point is left and black is ahead on the count (45 against
    // 36 + 7.5): white passed, black passes and wins.
    let row = ". . . . X O . . .\n";
    let mut game = position(&row.repeat(9), Ruleset::CHINESE, Color::White);
    game.pass(Color::White).unwrap();
    assert_eq!(
        decide(&mut engine(), &game, Color::Black, 100),
        Decision::Pass
    );
}

#[test]
fn territory_counting_passes_when_done() {
    // Under the Japanese rules the one open point, F5, is worth nothing:
    // white passed and every point is decided, so black passes instead of
    // filling it (under area counting black would fill it first).
    let mut game = position(
        "
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X . O . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .",
        Ruleset::JAPANESE,
        Color::White,
    );
    game.pass(Color::White).unwrap();
    assert_eq!(
        decide(&mut engine(), &game, Color::Black, 100),
        Decision::Pass
    );
}

#[test]
fn never_retakes_a_ko_at_once() {
    // Black just took the ko at C8; white's recapture at B8 is illegal and
    // the engine must not choose it, however tempting.
    let mut game = position(
        "
        . X O . . . . . .
        X O . O . . . . .
        . X O . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Ruleset::CHINESE,
        Color::Black,
    );
    game.play(Color::Black, pt(&game, "C8")).unwrap();
    for seed in 0..3 {
        let mut e = Engine::new(EngineConfig {
            threads: 1,
            seed,
            ..EngineConfig::default()
        });
        let d = decide(&mut e, &game, Color::White, 50);
        assert_ne!(d, Decision::Play(pt(&game, "B8")));
    }
}

#[test]
fn resigns_when_hopeless_and_not_when_told_not_to() {
    // White has walled off almost the whole board; black has nothing.
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    for col in ["A", "B", "C", "D", "E", "F", "G", "H", "J"] {
        for row in [3, 6] {
            game.pass(Color::Black).unwrap();
            game.play(Color::White, pt(&game, &format!("{col}{row}")))
                .unwrap();
        }
    }
    // 200 visits: a search stops early once its move is decided, and one
    // of 100 could end at 98, short of the 100 a resignation needs.
    assert_eq!(
        decide(&mut engine(), &game, Color::Black, 200),
        Decision::Resign
    );
    let mut stubborn = Engine::new(EngineConfig {
        resign_below: 0.0,
        ..EngineConfig::default()
    });
    assert_ne!(
        decide(&mut stubborn, &game, Color::Black, 50),
        Decision::Resign
    );
}

#[test]
fn the_tree_is_reused_after_the_expected_reply() {
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    let mut e = engine();
    let first = e
        .genmove(
            &game,
            Color::Black,
            Budget::visits(200),
            Mode::Normal,
            &StopHandle::new(),
        )
        .unwrap();
    let Decision::Play(p) = first.decision else {
        panic!("black passed on an empty board")
    };
    game.play(Color::Black, p).unwrap();
    // White answers with the reply the search expected.
    let line = &first
        .analysis
        .moves
        .iter()
        .find(|m| m.mv == Move::Play(p))
        .unwrap()
        .pv;
    let Some(&Move::Play(reply)) = line.get(1) else {
        panic!("no expected reply in {line:?}")
    };
    game.play(Color::White, reply).unwrap();
    let second = e
        .genmove(
            &game,
            Color::Black,
            Budget::visits(50),
            Mode::Normal,
            &StopHandle::new(),
        )
        .unwrap();
    assert!(
        u64::from(second.analysis.visits) > second.analysis.searched,
        "the root kept earlier visits: {} visits, {} of this search",
        second.analysis.visits,
        second.analysis.searched
    );
}

#[test]
fn ownership_and_score_of_a_divided_board() {
    let game = position(DIVIDED, Ruleset::CHINESE, Color::Black);
    let mut e = engine();
    let a = e
        .analyze(
            &game,
            Color::Black,
            Budget::visits(100),
            &StopHandle::new(),
            None,
        )
        .unwrap();
    let (a5, j5) = (
        a.ownership_at(pt(&game, "A5")),
        a.ownership_at(pt(&game, "J5")),
    );
    assert!(a5 > 0.5 && j5 < -0.5, "A5 {a5}, J5 {j5}");
    // Even split, komi 7.5: white leads by 7.5, give or take the E column.
    let lead = a.black_lead();
    assert!((-12.5..=-2.5).contains(&lead), "black's lead {lead}");
}

#[test]
fn a_time_limit_too_short_for_any_search_still_judges_the_position() {
    // Black has played the centre of an empty 9×9 board: nothing is settled.
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    game.play(Color::Black, pt(&game, "E5")).unwrap();
    let thought = engine()
        .genmove(
            &game,
            Color::White,
            Budget::time(Duration::from_micros(1)),
            Mode::Normal,
            &StopHandle::new(),
        )
        .unwrap();
    assert!(
        thought.analysis.searched >= 4,
        "{}",
        thought.analysis.searched
    );
    assert!(
        matches!(thought.decision, Decision::Play(_)),
        "white plays on an open board, not {:?}",
        thought.decision
    );
}

#[test]
fn a_time_budget_is_kept() {
    let game = Game::new(BoardSize::NINETEEN, Ruleset::CHINESE);
    let start = Instant::now();
    let a = engine()
        .analyze(
            &game,
            Color::Black,
            Budget::time(Duration::from_millis(300)),
            &StopHandle::new(),
            None,
        )
        .unwrap();
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    assert!(a.searched > 0);
}

#[test]
fn a_finished_game_is_refused() {
    let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    game.resign(Color::White).unwrap();
    let err = engine()
        .genmove(
            &game,
            Color::White,
            Budget::visits(10),
            Mode::Normal,
            &StopHandle::new(),
        )
        .unwrap_err();
    assert_eq!(err.to_string(), "the game is over");
}

#[test]
fn the_engine_runs_on_a_worker_thread_and_stops_on_request() {
    // How a server uses it: the engine moves to a blocking worker; the
    // request handler keeps a stop handle.
    let game = Game::new(BoardSize::NINETEEN, Ruleset::CHINESE);
    let mut e = engine();
    let stop = StopHandle::new();
    let remote = stop.clone();
    let worker = std::thread::spawn(move || {
        let start = Instant::now();
        let thought = e.genmove(
            &game,
            Color::Black,
            Budget::until_stopped(),
            Mode::Normal,
            &stop,
        );
        (thought, start.elapsed())
    });
    std::thread::sleep(Duration::from_millis(200));
    remote.stop();
    let (thought, elapsed) = worker.join().unwrap();
    assert!(matches!(thought.unwrap().decision, Decision::Play(_)));
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
}

/// The first 194 moves of a real game, level 1 as Black against GNU Go
/// 3.8 level 10 (`shoutan match`, 19×19): GNU Go has just passed, Black's
/// groups are mostly dead. Played on from here, level 1 once went on for
/// 686 more moves, filling its own eyes until not a stone was left.
const LOST_GAME: &str = "
;B[pd];W[dp];B[dc];W[ce];B[qp];W[ed];B[cd];W[de];B[fc];W[ge];B[hd];W[op];B[ec];W[qq]
;B[pp];W[pq];B[pn];W[ql];B[di];W[qi];B[cq];W[qf];B[pf];W[dq];B[cp];W[co];B[oq];W[nq]
;B[bo];W[cn];B[or];W[nr];B[np];W[oo];B[on];W[no];B[pk];W[pg];B[rq];W[qr];B[bn];W[cm]
;B[he];W[qk];B[rr];W[nn];B[qs];W[mp];B[fh];W[md];B[hn];W[bm];B[eo];W[pl];B[bh];W[gd]
;B[hg];W[em];B[og];W[pe];B[of];W[oe];B[cr];W[qd];B[fq];W[jc];B[hc];W[cg];B[ne];W[od]
;B[me];W[lc];B[dh];W[bg];B[bj];W[bd];B[bc];W[ae];B[fn];W[ok];B[ef];W[po];B[en];W[jn]
;B[ac];W[iq];B[gl];W[jl];B[ke];W[jj];B[hp];W[qo];B[rp];W[gj];B[nd];W[nc];B[ik];W[nf]
;B[il];W[ng];B[jk];W[kk];B[hi];W[jm];B[lg];W[lj];B[hq];W[ir];B[fd];W[le];B[ki];W[lf]
;B[ib];W[ji];B[kh];W[jh];B[jg];W[kj];B[kf];W[hr];B[gr];W[mh];B[ih];W[ro];B[qe];W[pc]
;B[jb];W[kb];B[io];W[jo];B[kd];W[kc];B[gs];W[os];B[pr];W[sp];B[hj];W[ip];B[mg];W[mf]
;B[hs];W[is];B[kg];W[id];B[in];W[sq];B[jd];W[ic];B[gb];W[sr];B[ie];W[qq];B[ij];W[ja]
;B[li];W[mi];B[hb];W[ia];B[kl];W[ll];B[ps];W[ns];B[ss];W[rs];B[km];W[ol];B[ko];W[kp]
;B[jq];W[kq];B[mj];W[mk];B[kn];W[im];B[ha];W[hm];B[so];W[sn];B[gm];W[ka];B[jr];W[jp]
;B[ii];W[nj];B[qg];W[re];B[bp];W[hl];B[hk];W[ld];B[gn];W[lh];B[db];W[]";

#[test]
fn a_weak_level_ends_a_lost_game_when_the_opponent_passes() {
    let size = BoardSize::new(19).unwrap();
    let level = shoutan_engine::Level::BEGINNER;
    for seed in 0..8 {
        let mut game = Game::builder(size)
            .ruleset(Ruleset::CHINESE)
            .build()
            .unwrap();
        for mv in LOST_GAME
            .split(';')
            .map(str::trim)
            .filter(|m| !m.is_empty())
        {
            let color = if mv.starts_with('B') {
                Color::Black
            } else {
                Color::White
            };
            match &mv[2..mv.len() - 1] {
                "" => game.pass(color).unwrap(),
                at => game
                    .play(color, Point::from_sgf(at, size).unwrap())
                    .unwrap(),
            };
        }
        let mut engine = Engine::new(EngineConfig {
            threads: 1,
            temperature: level.temperature(),
            seed,
            ..EngineConfig::default()
        });
        let mut moves = 0;
        while let Decision::Play(p) = decide(&mut engine, &game, Color::Black, 1) {
            game.play(Color::Black, p).unwrap();
            game.pass(Color::White).unwrap();
            moves += 1;
            assert!(
                moves <= 40,
                "seed {seed}: still playing after {moves} moves"
            );
        }
    }
}
