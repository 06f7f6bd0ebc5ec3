//! Everything an organiser can get wrong, said precisely. Every command
//! that returns one of these has changed nothing.

/// Why a command was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// The settings contradict each other or the system.
    #[error("invalid settings: {0}")]
    Settings(String),
    /// A player or team name is empty.
    #[error("a name may not be empty")]
    EmptyName,
    /// Two players or teams with one name.
    #[error("{0:?} is already registered")]
    Duplicate(String),
    /// No such player.
    #[error("no player {0:?} (give the player's number or exact name)")]
    UnknownPlayer(String),
    /// No such team.
    #[error("no team {0:?} (give the team's number or exact name)")]
    UnknownTeam(String),
    /// The system needs a rank.
    #[error("{0} has no rank; McMahon and handicap games need one")]
    RankRequired(String),
    /// Registration closed.
    #[error("players can no longer be added: {0}")]
    RegistrationClosed(&'static str),
    /// The field is too small or too large.
    #[error("cannot pair {count} entrants: {why}")]
    FieldSize {
        /// Entrants to pair.
        count: usize,
        /// The limit.
        why: &'static str,
    },
    /// The round was paired already.
    #[error("round {0} is already paired")]
    AlreadyPaired(u32),
    /// Rounds go in order.
    #[error("round {requested} cannot be paired now: the next round is {next}")]
    OutOfOrder {
        /// Asked for.
        requested: u32,
        /// Expected.
        next: u32,
    },
    /// Results are missing.
    #[error("round {round} still has {missing} game(s) without a result (first: table {table})")]
    ResultsMissing {
        /// The round.
        round: u32,
        /// How many.
        missing: usize,
        /// The first table without a result.
        table: u32,
    },
    /// The event is over.
    #[error("the event is finished: {0}")]
    Finished(String),
    /// No such round.
    #[error("round {0} has not been paired")]
    NoSuchRound(u32),
    /// No such game.
    #[error("round {round} has no table {table}")]
    NoSuchGame {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
    },
    /// A knockout or relay game needs a winner.
    #[error(
        "round {round} table {table} has no winner ({outcome}); a knockout game needs one: record the playoff's winner"
    )]
    Undecided {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The recorded result.
        outcome: String,
    },
    /// A result was entered for an entrant who does not play.
    #[error("{0} is withdrawn")]
    Withdrawn(String),
    /// Results may only be entered in a round whose later rounds are unpaired.
    #[error("round {0} cannot be changed: round {1} is already paired from its results")]
    Locked(u32, u32),
    /// A pairing round with results cannot be undone.
    #[error("round {0} cannot be unpaired: it has results")]
    HasResults(u32),
    /// A team line-up breaks the team rule.
    #[error("invalid line-up: {0}")]
    Lineup(String),
    /// A loaded file is inconsistent.
    #[error("inconsistent tournament data: {0}")]
    Corrupt(String),
    /// The tournament cannot be written as JSON (nothing was written).
    #[error("the tournament cannot be written: {0}")]
    Unencodable(String),
}
