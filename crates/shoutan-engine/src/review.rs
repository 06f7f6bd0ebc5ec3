//! The review of a game (AI 复盘): the engine analyses every position of
//! the game, start and end included, and the review reads from those
//! evaluations what each move cost its player (win rate and points), the
//! engine's preferred move and its principal variation, and each player's
//! biggest mistakes. The command line (`shoutan review`) and the server's
//! review jobs both call [`review`]; as the engine gets stronger, so do
//! the reviews.

use shoutan_rules::{Color, Game, Move, Phase};

use crate::analysis::Analysis;
use crate::engine::{Budget, Engine, EngineError, StopHandle};

/// Mistakes listed per player.
pub const MISTAKES_PER_PLAYER: usize = 5;

/// The least a move must lose to be called a mistake, in points: below
/// half a point a fast search's noise is larger than the move's cost.
pub const MISTAKE_POINTS: f32 = 0.5;

/// How the engine judged one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// Turns played before it (0: the start).
    pub turns: usize,
    /// Who was to move.
    pub to_move: Color,
    /// Black's chance to win, 0 to 1.
    pub black_winrate: f32,
    /// Black's expected margin in points (komi included); negative when
    /// white leads.
    pub black_lead: f32,
    /// The engine's preferred move, if the search found any.
    pub best: Option<Move>,
    /// The continuation it expects, its preferred move first.
    pub pv: Vec<Move>,
    /// Searches through the position.
    pub visits: u32,
}

impl PositionEval {
    fn of(turns: usize, analysis: &Analysis) -> PositionEval {
        let black_winrate = match analysis.to_move {
            Color::Black => analysis.winrate,
            Color::White => 1.0 - analysis.winrate,
        };
        let best = analysis.moves.first();
        PositionEval {
            turns,
            to_move: analysis.to_move,
            black_winrate,
            black_lead: analysis.black_lead(),
            best: best.map(|m| m.mv),
            pv: best.map(|m| m.pv.clone()).unwrap_or_default(),
            visits: analysis.visits,
        }
    }

    /// A position the players passed into the count: the count itself, the
    /// stones the network sees dead taken off (the win rate is the
    /// network's, on the scale of the searches before it). A search would resume the
    /// game and judge the closing passes by a strict count that leaves
    /// dead stones on the board, calling a pass in a settled position a
    /// mistake and a move inside the player's own territory the remedy.
    fn counted(turns: usize, engine: &mut Engine, position: &Game) -> PositionEval {
        let judgement = engine.final_status(position);
        let mut counted = position.clone();
        let black_lead = match counted.set_dead(judgement.status.dead.clone()) {
            Ok(()) => counted.count().margin.points() as f32,
            Err(_) => judgement.black_lead,
        };
        PositionEval {
            turns,
            to_move: position.to_move(),
            black_winrate: judgement.black_winrate,
            black_lead,
            best: None,
            pv: Vec::new(),
            visits: 0,
        }
    }

    /// `color`'s chance to win.
    #[must_use]
    pub fn winrate_for(&self, color: Color) -> f32 {
        match color {
            Color::Black => self.black_winrate,
            Color::White => 1.0 - self.black_winrate,
        }
    }

    /// `color`'s expected margin in points.
    #[must_use]
    pub fn lead_for(&self, color: Color) -> f32 {
        match color {
            Color::Black => self.black_lead,
            Color::White => -self.black_lead,
        }
    }
}

/// What one move of the game cost its player.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEval {
    /// Its number, from 1.
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// What was played.
    pub mv: Move,
    /// Win rate the player lost by it (0 to 1; negative when the move did
    /// better than the engine expected).
    pub winrate_loss: f32,
    /// Points the player lost by it.
    pub points_loss: f32,
    /// The engine's preferred move in the position before it.
    pub best: Option<Move>,
    /// The engine's continuation from there.
    pub pv: Vec<Move>,
}

impl MoveEval {
    /// Whether the move was the engine's preferred one.
    #[must_use]
    pub fn was_best(&self) -> bool {
        self.best == Some(self.mv)
    }
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every position: `positions[n]` after `n` turns.
    pub positions: Vec<PositionEval>,
    /// Every move: `moves[n - 1]` is move `n`.
    pub moves: Vec<MoveEval>,
    /// Visits per position.
    pub visits_per_position: u64,
}

impl Review {
    /// Reads the moves' costs from the positions' evaluations.
    #[must_use]
    pub fn from_positions(
        game: &Game,
        positions: Vec<PositionEval>,
        visits_per_position: u64,
    ) -> Review {
        let moves = game
            .turns()
            .iter()
            .enumerate()
            .filter_map(|(i, turn)| {
                let (before, after) = (positions.get(i)?, positions.get(i + 1)?);
                Some(MoveEval {
                    number: i + 1,
                    color: turn.color,
                    mv: turn.mv,
                    winrate_loss: before.winrate_for(turn.color) - after.winrate_for(turn.color),
                    points_loss: before.lead_for(turn.color) - after.lead_for(turn.color),
                    best: before.best,
                    pv: before.pv.clone(),
                })
            })
            .collect();
        Review {
            positions,
            moves,
            visits_per_position,
        }
    }

    /// `color`'s moves that lost most win rate (ties: points), at most
    /// [`MISTAKES_PER_PLAYER`], the engine's own choices left out. A move
    /// is a mistake only when it lost win rate and at least
    /// [`MISTAKE_POINTS`]: when the two disagree, the search's noise is
    /// larger than the move's cost.
    #[must_use]
    pub fn mistakes(&self, color: Color) -> Vec<&MoveEval> {
        let mut losing: Vec<&MoveEval> = self
            .moves
            .iter()
            .filter(|m| {
                m.color == color
                    && !m.was_best()
                    && m.winrate_loss > 0.0
                    && m.points_loss >= MISTAKE_POINTS
            })
            .collect();
        losing.sort_by(|a, b| {
            b.winrate_loss
                .total_cmp(&a.winrate_loss)
                .then(b.points_loss.total_cmp(&a.points_loss))
        });
        losing.truncate(MISTAKES_PER_PLAYER);
        losing
    }
}

/// The game as it stood after each of its turns, the start first.
#[must_use]
pub fn positions(game: &Game) -> Vec<Game> {
    (0..=game.turns().len())
        .map(|n| game.after_turns(n))
        .collect()
}

/// Reviews `game`: analyses each of its positions with `visits` visits
/// (the tree is reused from one position to the next), calling
/// `progress(done, total)` after each. `Ok(None)` when `stop` was called
/// before the last position was done.
pub fn review(
    engine: &mut Engine,
    game: &Game,
    visits: u64,
    stop: &StopHandle,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<Review>, EngineError> {
    let games = positions(game);
    let total = games.len();
    let mut evals = Vec::with_capacity(total);
    engine.clear();
    for (turns, position) in games.iter().enumerate() {
        if stop.is_stopped() {
            return Ok(None);
        }
        let eval = if position.phase() == Phase::Counting {
            PositionEval::counted(turns, engine, position)
        } else {
            let color = position.to_move();
            let analysis = engine.analyze(position, color, Budget::visits(visits), stop, None)?;
            PositionEval::of(turns, &analysis)
        };
        evals.push(eval);
        progress(turns + 1, total);
    }
    if stop.is_stopped() {
        return Ok(None);
    }
    Ok(Some(Review::from_positions(game, evals, visits)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;
    use shoutan_rules::{BoardSize, Point, Ruleset};

    fn eval(turns: usize, to_move: Color, black_winrate: f32, black_lead: f32) -> PositionEval {
        PositionEval {
            turns,
            to_move,
            black_winrate,
            black_lead,
            best: None,
            pv: Vec::new(),
            visits: 100,
        }
    }

    #[test]
    fn a_move_costs_its_player_the_drop_in_their_own_winrate() {
        let size = BoardSize::NINE;
        let at = |s| Point::from_gtp(s, size).unwrap();
        let mut game = Game::new(size, Ruleset::CHINESE);
        game.play(Color::Black, at("E5")).unwrap();
        game.play(Color::White, at("A1")).unwrap();
        game.play(Color::Black, at("C3")).unwrap();
        let mut before_white = eval(1, Color::White, 0.6, 3.0);
        before_white.best = Some(Move::Play(at("C3")));
        let review = Review::from_positions(
            &game,
            vec![
                eval(0, Color::Black, 0.5, 0.0),
                before_white,
                eval(2, Color::Black, 0.8, 9.0),
                eval(3, Color::White, 0.85, 10.0),
            ],
            100,
        );
        assert_eq!(review.moves.len(), 3);
        // Black gained 10 % with E5: a negative loss.
        assert!((review.moves[0].winrate_loss + 0.1).abs() < 1e-6);
        // White's A1 dropped white from 40 % to 20 % and 6 points.
        let a1 = &review.moves[1];
        assert!((a1.winrate_loss - 0.2).abs() < 1e-6, "{a1:?}");
        assert!((a1.points_loss - 6.0).abs() < 1e-6, "{a1:?}");
        assert_eq!(review.mistakes(Color::White), vec![a1]);
        assert!(review.mistakes(Color::Black).is_empty());
    }

    #[test]
    fn every_position_of_a_game_is_evaluated() {
        let size = BoardSize::NINE;
        let at = |s| Point::from_gtp(s, size).unwrap();
        let mut game = Game::new(size, Ruleset::CHINESE);
        for (c, p) in [
            (Color::Black, "E5"),
            (Color::White, "C3"),
            (Color::Black, "G7"),
        ] {
            game.play(c, at(p)).unwrap();
        }
        game.pass(Color::White).unwrap();
        let mut engine = Engine::new(EngineConfig {
            threads: 1,
            ..EngineConfig::default()
        });
        let mut seen = Vec::new();
        let review = review(&mut engine, &game, 50, &StopHandle::new(), &mut |d, t| {
            seen.push((d, t));
        })
        .unwrap()
        .expect("not stopped");
        assert_eq!(review.positions.len(), 5);
        assert_eq!(review.moves.len(), 4);
        assert_eq!(seen.last(), Some(&(5, 5)));
        assert_eq!(review.positions[1].to_move, Color::White);
        for p in &review.positions {
            assert!((0.0..=1.0).contains(&p.black_winrate), "{p:?}");
            assert!(p.visits > 0 && p.best.is_some(), "{p:?}");
        }
    }

    /// A settled 9×9 game, passed into the count (B+1.5 under Chinese
    /// rules, white's B5 dead inside black's area):
    ///
    /// ```text
    ///   A B C D E F G H J
    /// 9 . . . . X O . . .
    /// 8 . . . . X O . . .
    /// 7 . . . . X O . . .
    /// 6 . . . . X O . . .
    /// 5 . O X . X O . . .
    /// 4 . . . . X O . . .
    /// 3 . . . . X O . . .
    /// 2 . . . . X O . . .
    /// 1 . . . . X O . . .
    /// ```
    ///
    /// The closing passes cost nothing. A search of the counted position
    /// resumes play and counts dead stones as alive: it called black's
    /// last pass a 32-point mistake and white's a −2.3-point one.
    #[test]
    fn passing_into_the_count_of_a_settled_game_is_no_mistake() {
        let size = BoardSize::NINE;
        let at = |s: &str| Point::from_gtp(s, size).unwrap();
        let mut game = Game::new(size, Ruleset::CHINESE);
        for row in 1..=9 {
            game.play(Color::Black, at(&format!("E{row}"))).unwrap();
            game.play(Color::White, at(&format!("F{row}"))).unwrap();
        }
        game.pass(Color::Black).unwrap();
        game.play(Color::White, at("B5")).unwrap();
        game.play(Color::Black, at("C5")).unwrap();
        game.pass(Color::White).unwrap();
        game.pass(Color::Black).unwrap();
        assert_eq!(game.phase(), Phase::Counting);
        let mut engine = Engine::new(EngineConfig {
            threads: 1,
            ..EngineConfig::default()
        });
        let review = review(&mut engine, &game, 64, &StopHandle::new(), &mut |_, _| {})
            .unwrap()
            .expect("not stopped");
        let end = review.positions.last().unwrap();
        assert!((end.black_lead - 1.5).abs() < 1e-6, "{end:?}");
        let last = review.moves.last().unwrap();
        assert_eq!(last.mv, Move::Pass);
        assert!(last.points_loss.abs() < MISTAKE_POINTS, "{last:?}");
        for color in Color::ALL {
            let passes: Vec<_> = review
                .mistakes(color)
                .into_iter()
                .filter(|m| m.mv == Move::Pass)
                .collect();
            assert!(passes.is_empty(), "{passes:?}");
        }
    }

    #[test]
    fn a_stopped_review_gives_nothing() {
        let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
        game.pass(Color::Black).unwrap();
        let stop = StopHandle::new();
        stop.stop();
        let mut engine = Engine::new(EngineConfig {
            threads: 1,
            ..EngineConfig::default()
        });
        assert_eq!(
            review(&mut engine, &game, 50, &stop, &mut |_, _| {}),
            Ok(None)
        );
    }
}
