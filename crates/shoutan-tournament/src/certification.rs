//! Rank-certification events (段级位赛): the competition rules let a 段 or
//! 级 be granted or raised "by the number of games and the winning rate".
//! The event states its rule; after the last round the players who meet it
//! are listed with the rank they qualify for.

use serde::{Deserialize, Serialize};
use shoutan_rules::Rank;

use crate::history::Entry;
use crate::{PlayerId, PlayerResult, Tournament, TournamentError, Value};

/// The rule of a rank-certification event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certification {
    /// Games over the board (forfeits do not count) needed, at least 1.
    pub min_games: u32,
    /// The winning rate needed, in percent (a jigo counts half a win).
    pub min_win_percent: u8,
    /// Only games against opponents of at least this rank count (none:
    /// every opponent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponents_from: Option<Rank>,
    /// Grades gained by those who qualify (1: one 级 or 段).
    pub grades: u8,
    /// No promotion above this rank (the amateur scale ends at 7 段).
    pub highest: Rank,
}

impl Certification {
    /// Refuses a rule that contradicts itself.
    ///
    /// # Errors
    /// No games, a rate above 100%, no grade, a professional rank.
    pub fn check(&self) -> Result<(), TournamentError> {
        let bad = |m: &str| Err(TournamentError::Settings(m.to_owned()));
        if self.min_games == 0 {
            return bad("a certification rule needs at least one game");
        }
        if self.min_win_percent > 100 {
            return bad("a winning rate is at most 100%");
        }
        if self.grades == 0 {
            return bad("a certification rule promotes by at least one grade");
        }
        if matches!(self.highest, Rank::Pro(_)) {
            return bad("certification grants amateur ranks only");
        }
        Ok(())
    }
}

/// A player who meets the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Qualifier {
    /// Who.
    pub player: PlayerId,
    /// Games that counted.
    pub games: u32,
    /// Wins among them (a jigo is half).
    pub wins: Value,
    /// The rank held.
    pub from: Rank,
    /// The rank qualified for.
    pub to: Rank,
}

impl Tournament {
    /// Whether the event is over: every round paired has all its results
    /// and no further round can be paired.
    #[must_use]
    pub fn finished(&self) -> bool {
        let played = self.rounds().len() as u32;
        played > 0
            && self.complete_rounds() == played
            && crate::pairing::draft(self, played + 1).is_err()
    }

    /// Who qualifies under the event's certification rule, in player
    /// order: `None` when the event has no rule or is not finished.
    #[must_use]
    pub fn certification(&self) -> Option<Vec<Qualifier>> {
        let rule = self.settings().certification?;
        if !self.finished() || self.entrants_are_teams() {
            return None;
        }
        let history = self.history(self.rounds().len() as u32);
        let floor = rule.opponents_from.map(Rank::level);
        let qualifiers = self
            .players()
            .iter()
            .filter_map(|p| {
                let from = p.rank?;
                let (mut games, mut halves) = (0u32, 0i64);
                for entry in &history.rows[p.id.index()] {
                    let Entry::Game(g) = entry else { continue };
                    let Some(result) = g.result.filter(|r| {
                        matches!(
                            r,
                            PlayerResult::Win | PlayerResult::Loss | PlayerResult::Draw
                        )
                    }) else {
                        continue;
                    };
                    let opponent = self.players()[g.opponent].rank.map(Rank::level);
                    if floor.is_some_and(|f| opponent.is_none_or(|o| o < f)) {
                        continue;
                    }
                    games += 1;
                    halves += i64::from(result.points());
                }
                let enough = games >= rule.min_games
                    && 100 * halves >= i64::from(rule.min_win_percent) * 2 * i64::from(games);
                let to = Rank::from_level(
                    (from.level() + i32::from(rule.grades)).min(rule.highest.level()),
                );
                (enough && to.level() > from.level() && !matches!(from, Rank::Pro(_))).then(|| {
                    Qualifier {
                        player: p.id,
                        games,
                        wins: Value::ratio(halves, 2),
                        from,
                        to,
                    }
                })
            })
            .collect();
        Some(qualifiers)
    }
}
