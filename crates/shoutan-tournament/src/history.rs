//! Each entrant's record round by round, derived from the rounds: the one
//! view pairing and standings both read. Results cancelled by a withdrawal
//! (round robin half-rule, Art. 28) are read here as unplayed, so nothing
//! downstream needs to know about them.

use shoutan_rules::Color;

use crate::{Entrant, PlayerResult, Tournament};

/// One entrant in one round.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Entry {
    /// Paired against `opponent`.
    Game(GameEntry),
    /// A bye or rest worth these points.
    Bye(u32),
    /// Not paired (absent, withdrawn, eliminated, not yet registered).
    Absent,
}

/// A game (or, in a team event, a match) seen from one entrant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GameEntry {
    /// Entrant index of the opponent.
    pub opponent: usize,
    /// Colour held (board 1's in a team match).
    pub color: Color,
    /// Handicap of the game (0 for team matches).
    pub handicap: u8,
    /// The result, once known (a match's from its board points).
    pub result: Option<PlayerResult>,
    /// This entrant's games: in a team match, each game with the position
    /// of the team's player (the board; in an all-play-all match, the
    /// player's place in the line-up), from 1.
    pub boards: Vec<(u8, Option<PlayerResult>)>,
    /// Warnings this entrant received in the game.
    pub warnings: u32,
}

impl GameEntry {
    /// Board points (team matches) or game points.
    pub fn board_points(&self) -> u32 {
        self.boards
            .iter()
            .filter_map(|(_, r)| *r)
            .map(PlayerResult::points)
            .sum()
    }
}

/// Every entrant's record over rounds `1..=rounds`.
#[derive(Clone, Debug)]
pub(crate) struct History {
    /// Rounds included.
    pub rounds: u32,
    /// `[entrant][round − 1]`.
    pub rows: Vec<Vec<Entry>>,
}

impl History {
    /// The record of `t` over its first `rounds` rounds. Entrants are players
    /// in an individual event and teams in a team event, by index.
    pub fn build(t: &Tournament, rounds: u32) -> History {
        History::build_with(t, rounds, &t.cancelled_entrants())
    }

    /// The record with the results of `cancelled` entrants read as unplayed.
    pub fn build_with(t: &Tournament, rounds: u32, cancelled: &[usize]) -> History {
        let count = t.entrant_count();
        let mut rows = vec![vec![Entry::Absent; rounds as usize]; count];
        for round in t.rounds().iter().take(rounds as usize) {
            let r = round.number as usize - 1;
            for bye in &round.byes {
                rows[entrant_index(bye.entrant)][r] = Entry::Bye(u32::from(bye.points));
            }
            let read = |g: &crate::Game, c: Color| {
                let void =
                    cancelled.contains(&g.black.index()) || cancelled.contains(&g.white.index());
                g.outcome.map(|o| {
                    if void {
                        PlayerResult::Unplayed
                    } else {
                        o.for_color(c)
                    }
                })
            };
            if t.entrants_are_teams() {
                let size = t
                    .settings()
                    .teams
                    .map_or(1, |s| usize::from(s.boards).max(1));
                for (m, tm) in round.matches.iter().enumerate() {
                    let boards: Vec<&crate::Game> = round
                        .games
                        .iter()
                        .filter(|g| g.board.is_some_and(|(mi, _)| mi as usize == m))
                        .collect();
                    for (team, other, color) in [
                        (tm.black, tm.white, Color::Black),
                        (tm.white, tm.black, Color::White),
                    ] {
                        let mut per_board = Vec::with_capacity(boards.len());
                        let mut warnings = 0;
                        for g in &boards {
                            let board = g.board.map_or(1, |(_, b)| b);
                            let c = if t.players()[g.black.index()].team == Some(team) {
                                Color::Black
                            } else {
                                Color::White
                            };
                            let position = match g.match_round {
                                Some(r) if team == tm.white => {
                                    crate::pairing::all_play_all::second_position(
                                        size,
                                        usize::from(board).saturating_sub(1),
                                        usize::from(r).saturating_sub(1),
                                    ) as u8
                                        + 1
                                }
                                _ => board,
                            };
                            per_board.push((position, read(g, c)));
                            warnings += u32::from(g.warnings[c.index()]);
                        }
                        let voided =
                            cancelled.contains(&team.index()) || cancelled.contains(&other.index());
                        let result = if voided {
                            Some(PlayerResult::Unplayed)
                        } else {
                            match_result(&per_board)
                        };
                        rows[team.index()][r] = Entry::Game(GameEntry {
                            opponent: other.index(),
                            color,
                            handicap: 0,
                            result,
                            boards: per_board,
                            warnings,
                        });
                    }
                }
            } else {
                for g in &round.games {
                    for c in Color::ALL {
                        let me = g.player(c);
                        let result = read(g, c);
                        rows[me.index()][r] = Entry::Game(GameEntry {
                            opponent: g.player(c.opponent()).index(),
                            color: c,
                            handicap: g.handicap,
                            result,
                            boards: vec![(1, result)],
                            warnings: u32::from(g.warnings[c.index()]),
                        });
                    }
                }
            }
        }
        History { rounds, rows }
    }

    /// Points (2/1/0 per game, match points in team events) including byes,
    /// after the first `upto` rounds.
    pub fn points_after(&self, e: usize, upto: u32) -> u32 {
        self.rows[e]
            .iter()
            .take(upto as usize)
            .map(|entry| match entry {
                Entry::Game(g) => g.result.map_or(0, PlayerResult::points),
                Entry::Bye(p) => *p,
                Entry::Absent => 0,
            })
            .sum()
    }

    /// Points over every round included.
    pub fn points(&self, e: usize) -> u32 {
        self.points_after(e, self.rounds)
    }

    /// Games lost (of any kind), for elimination systems.
    pub fn losses(&self, e: usize) -> usize {
        self.games(e)
            .filter(|g| g.result.is_some_and(PlayerResult::is_loss))
            .count()
    }

    /// The games played or scheduled.
    pub fn games(&self, e: usize) -> impl Iterator<Item = &GameEntry> {
        self.rows[e].iter().filter_map(|x| match x {
            Entry::Game(g) => Some(g),
            _ => None,
        })
    }

    /// Opponents actually met (so a rematch is avoided), with repeats.
    pub fn met(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        self.games(e)
            .filter(|g| g.result.is_none_or(PlayerResult::met))
            .map(|g| g.opponent)
    }

    /// Byes received.
    pub fn byes(&self, e: usize) -> usize {
        self.rows[e]
            .iter()
            .filter(|x| matches!(x, Entry::Bye(_)))
            .count()
    }

    /// The colours held in even games that were played, the last first:
    /// what colour allocation reads.
    fn even_colors_from_last(&self, e: usize) -> impl Iterator<Item = Color> + '_ {
        self.rows[e].iter().rev().filter_map(|x| match x {
            Entry::Game(g) if g.handicap == 0 && g.result.is_some_and(PlayerResult::met) => {
                Some(g.color)
            }
            _ => None,
        })
    }

    /// Blacks minus whites over even games that were played.
    pub fn color_balance(&self, e: usize) -> i32 {
        self.even_colors_from_last(e)
            .map(|c| if c == Color::Black { 1 } else { -1 })
            .sum()
    }

    /// The colour of the last even game played.
    pub fn last_color(&self, e: usize) -> Option<Color> {
        self.even_colors_from_last(e).next()
    }

    /// The colour of the last two even games played, when it was the same
    /// in both (a third would be three in a row).
    pub fn color_streak(&self, e: usize) -> Option<Color> {
        let mut last = self.even_colors_from_last(e);
        match (last.next(), last.next()) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }

    /// Total warnings.
    pub fn warnings(&self, e: usize) -> u32 {
        self.games(e).map(|g| g.warnings).sum()
    }
}

/// A team match's result from per-board results: 2 for more board points,
/// 1 when equal (spec: 场分), once every board has a result.
fn match_result(boards: &[(u8, Option<PlayerResult>)]) -> Option<PlayerResult> {
    let mut mine = 0;
    let mut theirs = 0;
    for (_, b) in boards {
        let r = (*b)?;
        mine += r.points();
        theirs += r.reversed().points();
    }
    Some(match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => PlayerResult::Win,
        std::cmp::Ordering::Less => PlayerResult::Loss,
        std::cmp::Ordering::Equal => PlayerResult::Draw,
    })
}

/// The index of an entrant (a player's or a team's).
pub(crate) fn entrant_index(e: Entrant) -> usize {
    match e {
        Entrant::Player(p) => p.index(),
        Entrant::Team(t) => t.index(),
    }
}
