//! A game's settings: what a challenge asks for ([`ChallengeSettings`],
//! checked when the challenge is made) and what the game is once accepted
//! ([`GameSettings`]: colours drawn, handicap resolved from the ranks).

use serde::{Deserialize, Serialize};
use shoutan_clock::{Clock, ClockOptions, LagPolicy, Millis, TimeControl, TimeOutRule};
use shoutan_rules::{
    BoardSize, Color, Game, Handicap, HandicapPlacement, Nigiri, Rank, Ruleset, Score,
};
use shoutan_store::{User, UserId};

use crate::error::{ApiError, ErrorCode};
use crate::rank_rule::shown_rank;

/// How the handicap is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum HandicapRequest {
    /// An even game.
    #[default]
    None,
    /// This many stones on the star points (Art. 10).
    Fixed {
        /// 2 to 9.
        stones: u8,
    },
    /// This many stones where black places them.
    Free {
        /// 2 to 9.
        stones: u8,
    },
    /// From the players' ranks: equal ranks play even, one rank apart 让先
    /// (the weaker takes black without komi), more apart that many stones
    /// (at most 9), placed as the ruleset places them.
    Auto,
}

/// Who takes black, as the challenger asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorRequest {
    /// 猜先 (spec §6): drawn.
    #[default]
    Nigiri,
    /// The challenger takes black.
    Black,
    /// The challenger takes white.
    White,
}

/// A challenge's request as it comes in the JSON body.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The player the challenge is for; absent for an open challenge.
    #[serde(default)]
    pub opponent: Option<String>,
    /// The board size (default 19).
    #[serde(default = "nineteen")]
    pub size: u32,
    /// A preset's name (`"chinese"`, `"japanese"`…) or a whole ruleset as
    /// JSON (default Chinese).
    #[serde(default)]
    pub ruleset: Option<serde_json::Value>,
    /// The komi in points (default: the ruleset's for the handicap).
    #[serde(default)]
    pub komi: Option<f64>,
    /// The handicap.
    #[serde(default)]
    pub handicap: HandicapRequest,
    /// Who takes black (`color`; the old spelling `colour` still reads).
    #[serde(default, alias = "colour")]
    pub color: ColorRequest,
    /// The time control as text (`"10 min + 5×30s byo-yomi"`) or JSON
    /// (default: no clock).
    #[serde(default)]
    pub time_control: Option<serde_json::Value>,
    /// Art. 22.5: a time-out in byo-yomi is a pass instead of a loss.
    #[serde(default)]
    pub time_out: TimeOutRule,
    /// Whether the game changes ratings (default true).
    #[serde(default = "yes")]
    pub rated: bool,
    /// 联棋: two against two (three players join), casual and even.
    #[serde(default)]
    pub rengo: bool,
    /// 多面打: the challenger plays this many boards at once (each joiner
    /// one), 2 to [`MAX_SIMUL_BOARDS`].
    #[serde(default)]
    pub simul: Option<u32>,
}

/// The most boards of a simul.
pub const MAX_SIMUL_BOARDS: u32 = 20;

fn nineteen() -> u32 {
    19
}

fn yes() -> bool {
    true
}

/// A challenge's settings, checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeSettings {
    /// Board size.
    pub size: BoardSize,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Komi, when the challenger fixed it.
    pub komi: Option<Score>,
    /// The handicap.
    pub handicap: HandicapRequest,
    /// Who takes black (`color`; stored challenges may say `colour`).
    #[serde(alias = "colour")]
    pub color: ColorRequest,
    /// The clock.
    pub time_control: TimeControl,
    /// Art. 22.5's option.
    pub time_out: TimeOutRule,
    /// Rated or casual.
    pub rated: bool,
    /// The play mode: one game of two, rengo, or a simul.
    #[serde(default)]
    pub mode: Mode,
}

/// A challenge's play mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mode {
    /// One game, two players.
    #[default]
    Single,
    /// 联棋: two teams of two, partners alternating in a fixed order.
    Rengo,
    /// 多面打: the challenger against each of this many joiners.
    Simul {
        /// The boards.
        boards: u32,
    },
}

impl Mode {
    /// Players who join the challenge besides the challenger.
    #[must_use]
    pub fn seats(self) -> u32 {
        match self {
            Mode::Single => 1,
            Mode::Rengo => 3,
            Mode::Simul { boards } => boards,
        }
    }
}

fn bad(code: ErrorCode, message: impl Into<String>) -> ApiError {
    ApiError::bad_request(code, message)
}

impl ChallengeRequest {
    /// Checks the request.
    pub fn check(&self) -> Result<ChallengeSettings, ApiError> {
        let size = BoardSize::new(self.size).map_err(|e| bad(ErrorCode::BadSize, e.to_string()))?;
        let ruleset = match &self.ruleset {
            None => Ruleset::CHINESE,
            Some(serde_json::Value::String(name)) => {
                name.parse().map_err(|e: shoutan_rules::RulesetError| {
                    bad(ErrorCode::BadRuleset, e.to_string())
                })?
            }
            Some(custom) => serde_json::from_value(custom.clone())
                .map_err(|e| bad(ErrorCode::BadRuleset, format!("custom ruleset: {e}")))?,
        };
        let komi = self
            .komi
            .map(Score::try_from_points)
            .transpose()
            .map_err(|e| bad(ErrorCode::BadKomi, e.to_string()))?;
        let time_control = match &self.time_control {
            None => TimeControl::None,
            Some(serde_json::Value::String(text)) => {
                text.parse()
                    .map_err(|e: shoutan_clock::TimeControlParseError| {
                        bad(ErrorCode::BadTimeControl, e.to_string())
                    })?
            }
            Some(json) => serde_json::from_value(json.clone())
                .map_err(|e| bad(ErrorCode::BadTimeControl, e.to_string()))?,
        };
        check_live_bounds(&time_control)?;
        let mode = match (self.rengo, self.simul) {
            (false, None) => Mode::Single,
            (true, None) => {
                if self.rated || self.handicap != HandicapRequest::None {
                    return Err(bad(
                        ErrorCode::BadRengo,
                        "a rengo game is casual and even (rated false, no handicap)",
                    ));
                }
                if self.opponent.is_some() {
                    return Err(bad(
                        ErrorCode::BadRengo,
                        "a rengo game is open to all: name no opponent",
                    ));
                }
                Mode::Rengo
            }
            (false, Some(boards)) => {
                if !(2..=MAX_SIMUL_BOARDS).contains(&boards) {
                    return Err(bad(
                        ErrorCode::BadSimul,
                        format!("a simul has 2 to {MAX_SIMUL_BOARDS} boards"),
                    ));
                }
                if self.opponent.is_some() {
                    return Err(bad(
                        ErrorCode::BadSimul,
                        "a simul is open to all: name no opponent",
                    ));
                }
                Mode::Simul { boards }
            }
            (true, Some(_)) => {
                return Err(bad(
                    ErrorCode::BadSimul,
                    "a game is rengo or a simul, not both",
                ));
            }
        };
        let settings = ChallengeSettings {
            size,
            ruleset,
            komi,
            handicap: self.handicap,
            color: self.color,
            time_control,
            time_out: self.time_out,
            rated: self.rated,
            mode,
        };
        clock_options(&settings.time_control, settings.time_out)?;
        match self.handicap {
            HandicapRequest::Fixed { stones } | HandicapRequest::Free { stones } => {
                if self.color == ColorRequest::Nigiri {
                    return Err(bad(
                        ErrorCode::BadColor,
                        "a handicap game has no nigiri: say whether you take black or white",
                    ));
                }
                if self.rated {
                    return Err(bad(
                        ErrorCode::BadHandicap,
                        "a rated game is even or has the automatic handicap",
                    ));
                }
                let handicap = if matches!(self.handicap, HandicapRequest::Fixed { .. }) {
                    Handicap::Fixed(stones)
                } else {
                    Handicap::Free(stones)
                };
                if !(2..=9).contains(&stones) {
                    return Err(bad(ErrorCode::BadHandicap, "a handicap is 2 to 9 stones"));
                }
                build_game(size, ruleset, komi, handicap)?;
            }
            HandicapRequest::None | HandicapRequest::Auto => {}
        }
        Ok(settings)
    }
}

/// The longest main time of a live game, per player.
pub const MAX_MAIN_TIME: Millis = Millis::from_hours(24);
/// The most byo-yomi periods.
pub const MAX_PERIODS: u32 = 30;
/// The longest byo-yomi period, and the longest time per move.
pub const MAX_PERIOD: Millis = Millis::from_hours(1);
/// The longest period of moves-per-period (Canadian) time.
pub const MAX_MOVES_PERIOD: Millis = Millis::from_hours(2);
/// The most moves required in one such period.
pub const MAX_MOVES_PER_PERIOD: u32 = 100;
/// The longest Fischer increment.
pub const MAX_INCREMENT: Millis = Millis::from_hours(1);

/// Refuses clocks beyond what a live game can be: each value has its
/// bound, and its own code. A game lives in memory while it is played, so
/// a clock of years is a game that never ends (and 999,999,999 periods one
/// that can never be flagged).
pub fn check_live_bounds(control: &TimeControl) -> Result<(), ApiError> {
    let over = |code, what: &str, bound: String| {
        Err(bad(
            code,
            format!("{what} is at most {bound} in a live game"),
        ))
    };
    if control.main() > MAX_MAIN_TIME {
        return over(ErrorCode::MainTimeTooLong, "the main time", "24 h".into());
    }
    match control {
        TimeControl::None | TimeControl::Absolute(_) => {}
        TimeControl::ByoYomi(b) => {
            if b.periods() > MAX_PERIODS {
                return over(
                    ErrorCode::TooManyPeriods,
                    "the number of byo-yomi periods",
                    MAX_PERIODS.to_string(),
                );
            }
            if b.period() > MAX_PERIOD {
                return over(ErrorCode::PeriodTooLong, "a byo-yomi period", "1 h".into());
            }
        }
        TimeControl::PerMove(p) => {
            if p.time() > MAX_PERIOD {
                return over(ErrorCode::PeriodTooLong, "the time per move", "1 h".into());
            }
        }
        TimeControl::MovesPerPeriod(m) => {
            if m.period() > MAX_MOVES_PERIOD {
                return over(ErrorCode::PeriodTooLong, "a period of moves", "2 h".into());
            }
            if m.moves() > MAX_MOVES_PER_PERIOD {
                return over(
                    ErrorCode::TooManyMovesPerPeriod,
                    "the moves of a period",
                    MAX_MOVES_PER_PERIOD.to_string(),
                );
            }
        }
        TimeControl::Fischer(f) => {
            if f.increment() > MAX_INCREMENT {
                return over(
                    ErrorCode::IncrementTooLong,
                    "a Fischer increment",
                    "1 h".into(),
                );
            }
            if f.max().is_some_and(|max| max > MAX_MAIN_TIME) {
                return over(
                    ErrorCode::MainTimeTooLong,
                    "the Fischer maximum",
                    "24 h".into(),
                );
            }
        }
    }
    Ok(())
}

/// The clock options of a game: lag compensation always (Lichess's quota),
/// Art. 22.5 as chosen.
pub fn clock_options(
    control: &TimeControl,
    time_out: TimeOutRule,
) -> Result<ClockOptions, ApiError> {
    let options = ClockOptions {
        on_time_out: time_out,
        lag: Some(LagPolicy::default()),
        ..ClockOptions::default()
    };
    Clock::new(*control, options).map_err(|e| bad(ErrorCode::BadTimeControl, e.to_string()))?;
    Ok(options)
}

fn build_game(
    size: BoardSize,
    ruleset: Ruleset,
    komi: Option<Score>,
    handicap: Handicap,
) -> Result<Game, ApiError> {
    let mut builder = Game::builder(size).ruleset(ruleset).handicap(handicap);
    if let Some(komi) = komi {
        builder = builder.komi(komi);
    }
    builder
        .build()
        .map_err(|e| bad(ErrorCode::BadHandicap, e.to_string()))
}

/// How the colours were decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum ColorDecision {
    /// The challenger chose.
    Choice,
    /// The weaker player takes black (a handicap or 让先).
    Ranks,
    /// 猜先 (spec §6): the recorded draw between `players` (challenger
    /// first), which anyone can replay from its seed.
    Nigiri {
        /// The draw's first and second player.
        players: [UserId; 2],
        /// The draw.
        draw: Nigiri,
    },
}

/// A player as the game starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The user.
    pub id: UserId,
    /// The name.
    pub name: String,
    /// The rank shown for the game (the rating's rank).
    pub rank: Rank,
}

impl Seat {
    /// `user`'s seat in a game starting now, with the rank he is shown at.
    #[must_use]
    pub fn of(user: &User) -> Seat {
        Seat {
            id: user.id,
            name: user.name.clone(),
            rank: shown_rank(user),
        }
    }
}

/// A game's settings, fixed when the challenge is accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSettings {
    /// Black.
    pub black: Seat,
    /// White.
    pub white: Seat,
    /// Board size.
    pub size: BoardSize,
    /// The ruleset.
    pub ruleset: Ruleset,
    /// Komi.
    pub komi: Score,
    /// The handicap.
    pub handicap: Handicap,
    /// The clock.
    pub time_control: TimeControl,
    /// Art. 22.5's option.
    pub time_out: TimeOutRule,
    /// Rated or casual.
    pub rated: bool,
    /// How the colours were decided (`colors`; stored games may say
    /// `colours`).
    #[serde(alias = "colours")]
    pub colors: ColorDecision,
    /// Black's handicap in ranks, for rating the game as even.
    pub rating_handicap: i32,
    /// In rengo, the second player of each team: the turns go black,
    /// white, black's partner, white's partner, and round again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partners: Option<Partners>,
    /// The simul (its challenge's id) this game is a board of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simul: Option<i64>,
}

/// The second players of a rengo's two teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partners {
    /// Black's partner, who plays black's 2nd, 4th… moves.
    pub black: Seat,
    /// White's partner, who plays white's 2nd, 4th… moves.
    pub white: Seat,
}

impl GameSettings {
    /// Resolves a challenge between `challenger` and `acceptor`: colours
    /// (choice, ranks or nigiri), handicap and komi.
    pub fn resolve(
        challenge: &ChallengeSettings,
        challenger: Seat,
        acceptor: Seat,
        rng: &mut fastrand::Rng,
    ) -> Result<GameSettings, ApiError> {
        let ruleset = challenge.ruleset;
        let mut by_choice = |challenger: Seat, acceptor: Seat| match challenge.color {
            ColorRequest::Black => (challenger, acceptor, ColorDecision::Choice),
            ColorRequest::White => (acceptor, challenger, ColorDecision::Choice),
            ColorRequest::Nigiri => {
                let draw = Nigiri::draw([challenger.rank, acceptor.rank], None, rng.u64(..));
                let decision = ColorDecision::Nigiri {
                    players: [challenger.id, acceptor.id],
                    draw,
                };
                if draw.black == shoutan_rules::Seat::First {
                    (challenger, acceptor, decision)
                } else {
                    (acceptor, challenger, decision)
                }
            }
        };
        let (black, white, colors, handicap, komi, rating_handicap) = match challenge.handicap {
            HandicapRequest::None => {
                let (b, w, c) = by_choice(challenger, acceptor);
                (b, w, c, Handicap::None, ruleset.komi, 0)
            }
            HandicapRequest::Fixed { stones } | HandicapRequest::Free { stones } => {
                let (b, w, c) = by_choice(challenger, acceptor);
                let handicap = if matches!(challenge.handicap, HandicapRequest::Fixed { .. }) {
                    Handicap::Fixed(stones)
                } else {
                    Handicap::Free(stones)
                };
                (b, w, c, handicap, ruleset.komi_for(stones), 0)
            }
            HandicapRequest::Auto => {
                let difference = (challenger.rank.level() - acceptor.rank.level()).abs();
                if difference == 0 {
                    let (b, w, c) = by_choice(challenger, acceptor);
                    (b, w, c, Handicap::None, ruleset.komi, 0)
                } else {
                    let (weaker, stronger) = if challenger.rank < acceptor.rank {
                        (challenger, acceptor)
                    } else {
                        (acceptor, challenger)
                    };
                    let stones = u8::try_from(difference.min(9)).unwrap_or(9);
                    let handicap = match (stones, ruleset.handicap_placement) {
                        (1, _) => Handicap::None,
                        (n, HandicapPlacement::Fixed)
                            if n <= shoutan_rules::max_fixed_handicap(challenge.size) =>
                        {
                            Handicap::Fixed(n)
                        }
                        (n, _) => Handicap::Free(n),
                    };
                    let komi = ruleset.komi_for(stones.max(2));
                    let rating_handicap = i32::from(stones);
                    (
                        weaker,
                        stronger,
                        ColorDecision::Ranks,
                        handicap,
                        komi,
                        rating_handicap,
                    )
                }
            }
        };
        let komi = challenge.komi.unwrap_or(komi);
        build_game(challenge.size, ruleset, Some(komi), handicap.clone())?;
        Ok(GameSettings {
            black,
            white,
            size: challenge.size,
            ruleset,
            komi,
            handicap,
            time_control: challenge.time_control,
            time_out: challenge.time_out,
            rated: challenge.rated,
            colors,
            rating_handicap,
            partners: None,
            simul: None,
        })
    }

    /// A rengo between the challenger's team (the challenger and the
    /// second to join) and the first and third to join: colours as the
    /// challenge says (nigiri between the first players).
    pub fn resolve_rengo(
        challenge: &ChallengeSettings,
        challenger: Seat,
        joined: [Seat; 3],
        rng: &mut fastrand::Rng,
    ) -> Result<GameSettings, ApiError> {
        let [first, partner, second] = joined;
        let challenger_id = challenger.id;
        let mut game = GameSettings::resolve(challenge, challenger, first, rng)?;
        game.partners = Some(if game.black.id == challenger_id {
            Partners {
                black: partner,
                white: second,
            }
        } else {
            Partners {
                black: second,
                white: partner,
            }
        });
        Ok(game)
    }

    /// The game at its start.
    pub fn new_game(&self) -> Result<Game, ApiError> {
        build_game(
            self.size,
            self.ruleset,
            Some(self.komi),
            self.handicap.clone(),
        )
    }

    /// The clock at its start (not running).
    pub fn new_clock(&self) -> Result<Clock, ApiError> {
        let options = clock_options(&self.time_control, self.time_out)?;
        Clock::new(self.time_control, options)
            .map_err(|e| bad(ErrorCode::BadTimeControl, e.to_string()))
    }

    /// The seat of `color`.
    #[must_use]
    pub fn seat(&self, color: Color) -> &Seat {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The colour `user` plays, if he plays (in rengo, his team's).
    #[must_use]
    pub fn color_of(&self, user: UserId) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.team(c).any(|s| s.id == user))
    }

    /// The players of `color`: one, or two in rengo (in their order).
    pub fn team(&self, color: Color) -> impl Iterator<Item = &Seat> {
        let partner = self.partners.as_ref().map(|p| match color {
            Color::Black => &p.black,
            Color::White => &p.white,
        });
        std::iter::once(self.seat(color)).chain(partner)
    }

    /// Who plays `color`'s next turn when `color` has played `turns`: the
    /// seat, or in rengo the partners in turn.
    #[must_use]
    pub fn turn_of(&self, color: Color, turns: usize) -> &Seat {
        match (&self.partners, turns % 2) {
            (Some(p), 1) => match color {
                Color::Black => &p.black,
                Color::White => &p.white,
            },
            _ => self.seat(color),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> Result<ChallengeSettings, ApiError> {
        serde_json::from_str::<ChallengeRequest>(json)
            .unwrap()
            .check()
    }

    fn seat(id: UserId, rank: &str) -> Seat {
        Seat {
            id,
            name: format!("p{id}"),
            rank: rank.parse().unwrap(),
        }
    }

    #[test]
    fn defaults_are_an_even_rated_chinese_19x19_without_clock() {
        let s = request("{}").unwrap();
        assert_eq!(s.size, BoardSize::NINETEEN);
        assert_eq!(s.ruleset, Ruleset::CHINESE);
        assert_eq!(s.time_control, TimeControl::None);
        assert!(s.rated);
        assert_eq!(
            (s.handicap, s.color),
            (HandicapRequest::None, ColorRequest::Nigiri)
        );
    }

    #[test]
    fn every_setting_is_checked_with_a_specific_code() {
        let code = |json| request(json).unwrap_err().code;
        assert_eq!(code(r#"{"size": 26}"#), ErrorCode::BadSize);
        assert_eq!(code(r#"{"ruleset": "lasker"}"#), ErrorCode::BadRuleset);
        assert_eq!(code(r#"{"ruleset": {"komi": 7}}"#), ErrorCode::BadRuleset);
        assert_eq!(code(r#"{"komi": 6.3}"#), ErrorCode::BadKomi);
        assert_eq!(
            code(r#"{"time_control": "5 moves"}"#),
            ErrorCode::BadTimeControl
        );
        // Art. 22.5 needs byo-yomi.
        assert_eq!(
            code(r#"{"time_control": "absolute 10 min", "time_out": "pass"}"#),
            ErrorCode::BadTimeControl
        );
        assert_eq!(
            code(r#"{"handicap": {"kind": "fixed", "stones": 3}, "rated": false}"#),
            ErrorCode::BadColor
        );
        assert_eq!(
            code(r#"{"handicap": {"kind": "fixed", "stones": 3}, "color": "black"}"#),
            ErrorCode::BadHandicap
        );
        assert_eq!(
            code(
                r#"{"size": 9, "handicap": {"kind": "fixed", "stones": 10}, "color": "white", "rated": false}"#
            ),
            ErrorCode::BadHandicap
        );
        assert!(serde_json::from_str::<ChallengeRequest>(r#"{"color": "red"}"#).is_err());
    }

    #[test]
    fn clocks_beyond_a_live_game_are_refused_by_their_bound() {
        let code = |tc: &str| {
            request(&format!(r#"{{"time_control": "{tc}"}}"#))
                .err()
                .map(|e| e.code)
        };
        // The bounds themselves are accepted.
        for ok in [
            "24h + 30×3600s byo-yomi",
            "absolute 24h",
            "3600s per move",
            "24h + 100 moves / 120 min",
            "10 min + 3600s Fischer (max 24h)",
        ] {
            assert_eq!(code(ok), None, "{ok}");
        }
        assert_eq!(code("99999999999999 min"), Some(ErrorCode::MainTimeTooLong));
        assert_eq!(
            code("25h + 5×30s byo-yomi"),
            Some(ErrorCode::MainTimeTooLong)
        );
        assert_eq!(
            code("1h + 31×30s byo-yomi"),
            Some(ErrorCode::TooManyPeriods)
        );
        assert_eq!(
            code("1h + 999999999×30s byo-yomi"),
            Some(ErrorCode::TooManyPeriods)
        );
        assert_eq!(
            code("1h + 5×3601s byo-yomi"),
            Some(ErrorCode::PeriodTooLong)
        );
        assert_eq!(code("3601s per move"), Some(ErrorCode::PeriodTooLong));
        assert_eq!(
            code("1h + 25 moves / 121 min"),
            Some(ErrorCode::PeriodTooLong)
        );
        assert_eq!(
            code("1h + 101 moves / 10 min"),
            Some(ErrorCode::TooManyMovesPerPeriod)
        );
        assert_eq!(
            code("10 min + 3601s Fischer"),
            Some(ErrorCode::IncrementTooLong)
        );
        assert_eq!(
            code("10 min + 10s Fischer (max 25h)"),
            Some(ErrorCode::MainTimeTooLong)
        );
        assert!(serde_json::from_str::<ChallengeRequest>(r#"{"sise": 9}"#).is_err());
    }

    #[test]
    fn custom_rulesets_and_time_controls_in_json_or_text() {
        let custom = serde_json::to_string(&Ruleset::JAPANESE).unwrap();
        let s = request(&format!(
            r#"{{"ruleset": {custom}, "time_control": "1h + 5×30s byo-yomi", "time_out": "pass"}}"#
        ))
        .unwrap();
        assert_eq!(s.ruleset, Ruleset::JAPANESE);
        assert_eq!(s.time_control.to_string(), "1h + 5×30s byo-yomi");
        let json = serde_json::to_string(&s.time_control).unwrap();
        let again = request(&format!(r#"{{"time_control": {json}}}"#)).unwrap();
        assert_eq!(again.time_control, s.time_control);
    }

    #[test]
    fn automatic_handicap_from_the_rank_difference() {
        let auto = request(r#"{"handicap": {"kind": "auto"}}"#).unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        // 3 ranks apart: the weaker takes black with 3 stones, no komi.
        let g = GameSettings::resolve(&auto, seat(1, "2d"), seat(2, "2k"), &mut rng).unwrap();
        assert_eq!((g.black.id, g.white.id), (2, 1));
        assert_eq!(g.handicap, Handicap::Fixed(3));
        assert_eq!(g.komi, Score::ZERO);
        assert_eq!(g.rating_handicap, 3);
        // One rank apart: 让先, the weaker takes black without komi.
        let g = GameSettings::resolve(&auto, seat(1, "3k"), seat(2, "2k"), &mut rng).unwrap();
        assert_eq!(
            (g.black.id, g.handicap.clone(), g.komi),
            (1, Handicap::None, Score::ZERO)
        );
        // Equal: even game with komi, by nigiri.
        let g = GameSettings::resolve(&auto, seat(1, "3k"), seat(2, "3k"), &mut rng).unwrap();
        assert_eq!(
            (g.handicap.clone(), g.komi),
            (Handicap::None, Ruleset::CHINESE.komi)
        );
        assert!(matches!(g.colors, ColorDecision::Nigiri { .. }));
        // Twelve ranks: nine stones at most.
        let g = GameSettings::resolve(&auto, seat(1, "15k"), seat(2, "3k"), &mut rng).unwrap();
        assert_eq!(g.handicap, Handicap::Fixed(9));
        // AGA places freely.
        let aga = request(r#"{"handicap": {"kind": "auto"}, "ruleset": "aga"}"#).unwrap();
        let g = GameSettings::resolve(&aga, seat(1, "5k"), seat(2, "1k"), &mut rng).unwrap();
        assert_eq!(g.handicap, Handicap::Free(4));
    }

    #[test]
    fn chosen_colors_and_nigiri() {
        let black = request(r#"{"color": "black"}"#).unwrap();
        let mut rng = fastrand::Rng::with_seed(7);
        let g = GameSettings::resolve(&black, seat(1, "1d"), seat(2, "1d"), &mut rng).unwrap();
        assert_eq!((g.black.id, g.colors), (1, ColorDecision::Choice));
        let white = request(r#"{"color": "white"}"#).unwrap();
        let g = GameSettings::resolve(&white, seat(1, "1d"), seat(2, "1d"), &mut rng).unwrap();
        assert_eq!(g.white.id, 1);
        // Nigiri: the stronger holds the stones, and the record says who
        // guessed what and replays from its seed; over many draws both
        // players get black.
        let nigiri = request("{}").unwrap();
        let mut blacks = [0, 0];
        for _ in 0..200 {
            let g = GameSettings::resolve(&nigiri, seat(1, "5k"), seat(2, "1d"), &mut rng).unwrap();
            let ColorDecision::Nigiri { players, draw } = g.colors else {
                panic!()
            };
            assert_eq!(players, [1, 2]);
            assert_eq!(draw.holder, shoutan_rules::Seat::Second, "the 1 dan holds");
            let ranks = ["5k".parse().unwrap(), "1d".parse().unwrap()];
            assert_eq!(Nigiri::draw(ranks, None, draw.seed), draw);
            let guesser_black = g.black.id == 1;
            assert_eq!(guesser_black, draw.guessed_right());
            blacks[usize::from(guesser_black)] += 1;
        }
        assert!(blacks[0] > 60 && blacks[1] > 60, "{blacks:?}");
    }

    /// `value` with its field `new` named `old` instead, as written before
    /// the one spelling.
    fn with_old_name(value: &impl Serialize, new: &str, old: &str) -> serde_json::Value {
        let mut json = serde_json::to_value(value).unwrap();
        let fields = json.as_object_mut().unwrap();
        let field = fields.remove(new).unwrap();
        fields.insert(old.to_owned(), field);
        json
    }

    /// An old client's request says `colour`: it still reads.
    #[test]
    fn a_request_in_the_old_spelling_still_reads() {
        let old = request(r#"{"colour": "white"}"#).unwrap();
        assert_eq!(old.color, ColorRequest::White);
        assert_eq!(old, request(r#"{"color": "white"}"#).unwrap());
    }

    /// A challenge stored with `colour` still reads; it is written with
    /// `color`.
    #[test]
    fn stored_challenge_settings_in_the_old_spelling_still_read() {
        let settings = request(r#"{"color": "black", "size": 9}"#).unwrap();
        assert_eq!(serde_json::to_value(&settings).unwrap()["color"], "black");
        let old = with_old_name(&settings, "color", "colour");
        assert_eq!(
            serde_json::from_value::<ChallengeSettings>(old).unwrap(),
            settings
        );
    }

    /// A game's settings stored with `colours` still read; they are written
    /// with `colors`.
    #[test]
    fn stored_game_settings_in_the_old_spelling_still_read() {
        let nigiri = request("{}").unwrap();
        let mut rng = fastrand::Rng::with_seed(3);
        let g = GameSettings::resolve(&nigiri, seat(1, "1k"), seat(2, "1d"), &mut rng).unwrap();
        assert_eq!(serde_json::to_value(&g).unwrap()["colors"]["by"], "nigiri");
        let old = with_old_name(&g, "colors", "colours");
        assert_eq!(serde_json::from_value::<GameSettings>(old).unwrap(), g);
    }
}
