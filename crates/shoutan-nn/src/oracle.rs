//! Agreement with KataGo, the oracle of every output here: a [`Case`] is a
//! position written so that KataGo (through GTP `loadsgf`, `komi` and
//! `kata-set-rules`) and Shoutan (through a [`Game`]) set up the same board,
//! history, rules and komi; [`Agreement`] sums up how close two answers to
//! `kata-raw-nn` are. `shoutan bench nn-agreement` asks both engines; the
//! test suite keeps KataGo's answers for a fixed set of cases
//! (`tests/data/katago-raw-nn.jsonl.gz`) and compares without KataGo.

use serde_json::{Value, json};
use shoutan_rules::{Board, BoardSize, Color, Game, Move, Point, Ruleset, Score};

use crate::evaluation::RawNnAnswer;

/// A position to ask both engines about.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The board size.
    pub size: BoardSize,
    /// The rules (a preset: its KataGo encoding is sent to both).
    pub ruleset: Ruleset,
    /// White's komi.
    pub komi: Score,
    /// Black stones set up before the first move (handicap stones too).
    pub black: Vec<Point>,
    /// White stones set up before the first move.
    pub white: Vec<Point>,
    /// Who moves first after the setup.
    pub first: Color,
    /// The moves played since.
    pub moves: Vec<(Color, Move)>,
}

/// Why a case could not be read or set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaseError {
    /// The JSON is not a case.
    #[error("case: {0}")]
    Format(String),
    /// The case does not make a legal game under its rules.
    #[error("case: {0}")]
    Illegal(String),
}

fn format_error(what: impl Into<String>) -> CaseError {
    CaseError::Format(what.into())
}

impl Case {
    /// The game the case describes, with its moves played.
    pub fn game(&self) -> Result<Game, CaseError> {
        let illegal = |e: shoutan_rules::GameError| CaseError::Illegal(e.to_string());
        let mut board = Board::new(self.size);
        let setup = self
            .black
            .iter()
            .map(|&p| (p, Some(Color::Black)))
            .chain(self.white.iter().map(|&p| (p, Some(Color::White))));
        board
            .set_stones(setup)
            .map_err(|e| CaseError::Illegal(e.to_string()))?;
        let mut game = Game::builder(self.size)
            .ruleset(self.ruleset)
            .komi(self.komi)
            .position(board, self.first)
            .build()
            .map_err(illegal)?;
        for &(color, mv) in &self.moves {
            if game.to_move() != color {
                game.set_to_move(color).map_err(illegal)?;
            }
            game.apply(color, mv).map_err(illegal)?;
        }
        Ok(game)
    }

    /// The case as an SGF record for KataGo's `loadsgf`: setup stones,
    /// the player to move first and the moves (rules and komi are sent
    /// separately).
    #[must_use]
    pub fn sgf(&self) -> String {
        let mut sgf = format!("(;GM[1]FF[4]SZ[{}]", self.size.get());
        for (key, stones) in [("AB", &self.black), ("AW", &self.white)] {
            if !stones.is_empty() {
                sgf.push_str(key);
                for p in stones {
                    sgf.push_str(&format!("[{}]", p.to_sgf()));
                }
            }
        }
        sgf.push_str(match self.first {
            Color::Black => "PL[B]",
            Color::White => "PL[W]",
        });
        for &(color, mv) in &self.moves {
            let c = match color {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let at = match mv {
                Move::Play(p) => p.to_sgf(),
                Move::Pass => String::new(),
            };
            sgf.push_str(&format!(";{c}[{at}]"));
        }
        sgf.push(')');
        sgf
    }

    /// The GTP commands that set the case up once the SGF is in the file
    /// `sgf_path`, ending with the evaluation itself. The rules come first
    /// too, so that the record's moves replay under them (the SGF names
    /// none), and again after it, as the engines take them from there.
    #[must_use]
    pub fn gtp_commands(&self, sgf_path: &str) -> Vec<String> {
        let rules = format!(
            "kata-set-rules {}",
            crate::NnRules::from_ruleset(&self.ruleset, self.komi).katago_string()
        );
        vec![
            format!("boardsize {}", self.size.get()),
            "clear_board".to_owned(),
            rules.clone(),
            format!("loadsgf {sgf_path}"),
            format!("komi {}", self.komi),
            rules,
            "kata-raw-nn 0".to_owned(),
        ]
    }

    /// The case as one JSON object (GTP text for points and moves).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let points =
            |ps: &[Point]| -> Vec<String> { ps.iter().map(|p| p.to_gtp(self.size)).collect() };
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|&(c, mv)| {
                let at = match mv {
                    Move::Play(p) => p.to_gtp(self.size),
                    Move::Pass => "pass".to_owned(),
                };
                format!("{} {at}", color_letter(c))
            })
            .collect();
        json!({
            "size": self.size.get(),
            "rules": self.ruleset.preset_name().unwrap_or("custom"),
            "komi": self.komi.to_string(),
            "black": points(&self.black),
            "white": points(&self.white),
            "first": color_letter(self.first).to_string(),
            "moves": moves,
        })
    }

    /// Reads a case written by [`to_json`](Self::to_json).
    pub fn from_json(value: &Value) -> Result<Case, CaseError> {
        let text = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| format_error(format!("no {key:?}")))
        };
        let size = value
            .get("size")
            .and_then(Value::as_u64)
            .and_then(|n| BoardSize::new(u32::try_from(n).ok()?).ok())
            .ok_or_else(|| format_error("no valid \"size\""))?;
        let ruleset: Ruleset = text("rules")?
            .parse()
            .map_err(|e| format_error(format!("{e}")))?;
        let komi: Score = text("komi")?
            .parse()
            .map_err(|e| format_error(format!("{e}")))?;
        let first = parse_color(text("first")?)?;
        let strings = |key: &str| -> Result<Vec<&str>, CaseError> {
            value
                .get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| format_error(format!("no {key:?} list")))?
                .iter()
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| format_error(format!("{key}: not text")))
                })
                .collect()
        };
        let point = |s: &str| Point::from_gtp(s, size).map_err(|e| format_error(e.to_string()));
        let black = strings("black")?
            .into_iter()
            .map(point)
            .collect::<Result<_, _>>()?;
        let white = strings("white")?
            .into_iter()
            .map(point)
            .collect::<Result<_, _>>()?;
        let moves = strings("moves")?
            .into_iter()
            .map(|m| {
                let (c, at) = m
                    .split_once(' ')
                    .ok_or_else(|| format_error(format!("move {m:?}")))?;
                let mv = if at.eq_ignore_ascii_case("pass") {
                    Move::Pass
                } else {
                    Move::Play(point(at)?)
                };
                Ok((parse_color(c)?, mv))
            })
            .collect::<Result<_, CaseError>>()?;
        Ok(Case {
            size,
            ruleset,
            komi,
            black,
            white,
            first,
            moves,
        })
    }
}

fn color_letter(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

fn parse_color(s: &str) -> Result<Color, CaseError> {
    match s {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(format_error(format!("colour {s:?}"))),
    }
}

/// How close our answers are to KataGo's, over many positions: the
/// largest and mean differences of each output the targets name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// Largest difference of white's win probability.
    pub max_winrate: f32,
    /// Largest difference of white's lead, in points.
    pub max_lead: f32,
    /// Largest difference of one point's policy probability.
    pub max_policy: f32,
    /// Positions whose most probable move differs.
    pub best_move_differs: usize,
    /// Positions whose legal moves differ (a `NAN` where we have a number
    /// or the reverse).
    pub legality_differs: usize,
    /// Largest mean difference of ownership over a position's points.
    pub max_mean_ownership: f32,
    /// Sum of the positions' mean ownership differences.
    ownership_sum: f32,
}

impl Agreement {
    /// Adds one position: our answer and KataGo's, both as `kata-raw-nn`
    /// printed them.
    pub fn add(&mut self, ours: &RawNnAnswer, theirs: &RawNnAnswer) {
        self.positions += 1;
        self.max_winrate = self
            .max_winrate
            .max((ours.white_win - theirs.white_win).abs());
        self.max_lead = self
            .max_lead
            .max((ours.white_lead - theirs.white_lead).abs());
        let mut legality_differs = false;
        let pass = std::iter::once((&ours.policy_pass, &theirs.policy_pass));
        for (o, t) in ours.policy.iter().zip(&theirs.policy).chain(pass) {
            match (o, t) {
                (Some(o), Some(t)) => self.max_policy = self.max_policy.max((o - t).abs()),
                (None, None) => {}
                _ => legality_differs = true,
            }
        }
        if legality_differs {
            self.legality_differs += 1;
        }
        if ours.best_move() != theirs.best_move() {
            self.best_move_differs += 1;
        }
        let n = ours.white_ownership.len().max(1) as f32;
        let mean = ours
            .white_ownership
            .iter()
            .zip(&theirs.white_ownership)
            .map(|(o, t)| (o - t).abs())
            .sum::<f32>()
            / n;
        self.max_mean_ownership = self.max_mean_ownership.max(mean);
        self.ownership_sum += mean;
    }

    /// The mean over positions of the mean ownership difference.
    #[must_use]
    pub fn mean_ownership(&self) -> f32 {
        self.ownership_sum / self.positions.max(1) as f32
    }

    /// Whether every figure is within the targets: win rate within
    /// 0.005, lead within 0.2 points, policy within 0.005 point by point
    /// with the same best move and the same legal moves, ownership within
    /// 0.01 on average.
    #[must_use]
    pub fn within_targets(&self) -> bool {
        self.max_winrate <= 0.005
            && self.max_lead <= 0.2
            && self.max_policy <= 0.005
            && self.best_move_differs == 0
            && self.legality_differs == 0
            && self.mean_ownership() <= 0.01
    }
}

impl std::fmt::Display for Agreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positions: win rate within {:.6}, lead within {:.3} points, policy within {:.6} \
             point by point, best move differs in {}, legal moves differ in {}, ownership mean \
             difference {:.6} (worst position {:.6})",
            self.positions,
            self.max_winrate,
            self.max_lead,
            self.max_policy,
            self.best_move_differs,
            self.legality_differs,
            self.mean_ownership(),
            self.max_mean_ownership
        )
    }
}
