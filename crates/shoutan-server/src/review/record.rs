//! Records uploaded for an AI review (the analysis board's SGF): read with
//! the project's SGF reader and replayed under their rules, as `shoutan
//! review` reads a file, and known by a digest of what the review depends
//! on — board size, rules, komi, handicap and set-up stones, the main
//! line's moves — so that the same game uploaded twice, by anyone, with
//! other player names, comments, variations or layout, is reviewed once.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};
use shoutan_rules::{Color, Game, Move};
use shoutan_sgf::{
    GameInfo, InfoError, ParseError, ReplayError, ReplayOptions, read, replay, ru_value,
};

use crate::error::{ApiError, ErrorCode};

/// The longest record taken, in bytes of UTF-8: a 300-move game with
/// comments on every move is a few tens of kilobytes.
pub const MAX_SGF_BYTES: usize = 100 * 1024;
/// The largest board reviewed: the networks are trained on boards up to
/// 19×19.
pub const MAX_SIZE: u8 = 19;
/// The most moves reviewed, so that one upload cannot hold the review
/// pool for hours (a game of 1,000 moves is a review of 1,001 positions).
pub const MAX_MOVES: usize = 1_000;

/// A record's id: SHA-256 of its canonical text (see [`Record::read`]),
/// written as 64 lowercase hexadecimal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId([u8; 32]);

impl fmt::Display for RecordId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl Serialize for RecordId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Text that is not a record's id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a record's id (64 hexadecimal digits)")]
pub struct BadRecordId(pub String);

impl FromStr for RecordId {
    type Err = BadRecordId;
    fn from_str(text: &str) -> Result<RecordId, BadRecordId> {
        let bad = || BadRecordId(text.to_owned());
        if text.len() != 64 {
            return Err(bad());
        }
        let mut bytes = [0u8; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
            let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(RecordId(bytes))
    }
}

/// Why an uploaded record is refused (nothing is stored then).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Over [`MAX_SGF_BYTES`].
    #[error("the record is {bytes} bytes long; at most {MAX_SGF_BYTES} are taken")]
    TooLarge {
        /// Its length.
        bytes: usize,
    },
    /// Not SGF.
    #[error("the record cannot be read: {0}")]
    Unreadable(#[from] ParseError),
    /// More than one game in the file.
    #[error("the file holds {0} games; upload one at a time")]
    SeveralGames(usize),
    /// A game information the reader cannot use (`GM`, `SZ`).
    #[error("the record cannot be read: {0}")]
    Info(#[from] InfoError),
    /// A board over [`MAX_SIZE`].
    #[error("the board is {0}×{0}; reviews take boards up to {MAX_SIZE}×{MAX_SIZE}")]
    BoardTooLarge(u8),
    /// The main line does not replay under the rules.
    #[error("the record cannot be replayed: {0}")]
    Replay(#[from] ReplayError),
    /// Nothing to review.
    #[error("the record has no move to review")]
    NoMoves,
    /// Over [`MAX_MOVES`].
    #[error("the record has more than {MAX_MOVES} moves, which a review takes at most")]
    TooManyMoves,
}

impl RecordError {
    /// The code a client sees.
    #[must_use]
    pub fn code(&self) -> ErrorCode {
        match self {
            RecordError::TooLarge { .. } => ErrorCode::TooLarge,
            RecordError::Unreadable(_)
            | RecordError::Info(InfoError::NotGo(_))
            | RecordError::Replay(
                ReplayError::TwoMovesInOneNode { .. } | ReplayError::Info(InfoError::NotGo(_)),
            ) => ErrorCode::BadSgf,
            RecordError::SeveralGames(_) => ErrorCode::SeveralGames,
            RecordError::Info(InfoError::Size(_))
            | RecordError::Replay(ReplayError::Info(InfoError::Size(_)))
            | RecordError::BoardTooLarge(_) => ErrorCode::BadSize,
            RecordError::Replay(ReplayError::BadPoint { .. }) => ErrorCode::BadPoint,
            RecordError::Replay(
                ReplayError::SetupWithoutLiberty { .. } | ReplayError::SetupAfterMoves { .. },
            ) => ErrorCode::BadSetup,
            RecordError::Replay(ReplayError::Handicap(_)) => ErrorCode::BadHandicap,
            RecordError::Replay(
                ReplayError::IllegalMove { .. }
                | ReplayError::Turn { .. }
                | ReplayError::MoveAfterEnd { .. },
            ) => ErrorCode::IllegalMove,
            RecordError::NoMoves => ErrorCode::NoMoves,
            RecordError::TooManyMoves => ErrorCode::TooManyMoves,
        }
    }
}

impl From<RecordError> for ApiError {
    fn from(e: RecordError) -> ApiError {
        ApiError::bad_request(e.code(), e.to_string())
    }
}

/// A record read for a review: its id and its main line as a game.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its id.
    pub id: RecordId,
    /// Its main line, replayed under its rules.
    pub game: Game,
}

impl Record {
    /// Reads an uploaded record: one game, on a board up to [`MAX_SIZE`],
    /// whose main line of 1 to [`MAX_MOVES`] moves replays under its rules.
    /// What the reader repairs (a Fox komi, a mislabelled encoding) is
    /// repaired silently, as the analysis board shows it.
    pub fn read(sgf: &str) -> Result<Record, RecordError> {
        if sgf.len() > MAX_SGF_BYTES {
            return Err(RecordError::TooLarge { bytes: sgf.len() });
        }
        let file = read(sgf.as_bytes())?;
        let tree = match file.collection.games.as_slice() {
            [one] => one,
            games => return Err(RecordError::SeveralGames(games.len())),
        };
        let (info, _) = GameInfo::read(tree.root())?;
        if info.size.get() > MAX_SIZE {
            return Err(RecordError::BoardTooLarge(info.size.get()));
        }
        // Replayed one move past the limit at most: enough to refuse it.
        let options = ReplayOptions {
            until: Some(MAX_MOVES + 1),
            ..ReplayOptions::default()
        };
        let game = replay(tree, options)?.game;
        match game.turns().len() {
            0 => Err(RecordError::NoMoves),
            n if n > MAX_MOVES => Err(RecordError::TooManyMoves),
            _ => Ok(Record {
                id: RecordId(Sha256::digest(canonical(&game).as_bytes()).into()),
                game,
            }),
        }
    }
}

/// What a review of `game` depends on, one fact a line: the size, the
/// ruleset (its SGF name, or its rules in full when it is no preset), the
/// komi, the handicap, the set-up stones of each colour and the moves, in
/// GTP notation. The first line names the form, so that a later form
/// makes other ids rather than equal ones for other games.
fn canonical(game: &Game) -> String {
    let size = game.size();
    let point = |mv: Move| mv.to_gtp(size);
    let mut lines = vec![
        "shoutan record 1".to_owned(),
        format!("size {}", size.get()),
        format!("rules {}", ru_value(game.ruleset())),
        format!("komi {}", game.komi()),
        format!("handicap {}", game.handicap()),
    ];
    for color in [Color::Black, Color::White] {
        let stones: Vec<String> = game
            .initial_board()
            .stones()
            .filter(|&(_, stone)| stone == Some(color))
            .map(|(p, _)| point(Move::Play(p)))
            .collect();
        lines.push(format!("{color} stones {}", stones.join(" ")));
    }
    lines.extend(
        game.turns()
            .iter()
            .map(|t| format!("{} {}", t.color, point(t.mv))),
    );
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(sgf: &str) -> RecordId {
        Record::read(sgf)
            .map(|r| r.id)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn code(sgf: &str) -> ErrorCode {
        Record::read(sgf).map_or_else(|e| e.code(), |r| panic!("read: {}", r.id))
    }

    const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gg])";

    #[test]
    fn the_same_game_has_the_same_id_whatever_else_the_file_says() {
        let plain = id(GAME);
        let dressed = id(
            "(;FF[4]GM[1]SZ[9]KM[7]RU[Chinese]PB[柯洁]PW[Shin]C[hello]\n\
             ;B[ee]C[good]\n;W[cc](;B[gg])(;B[hh];W[aa]))",
        );
        assert_eq!(plain, dressed);
        assert_eq!(plain.to_string().len(), 64);
        assert_eq!(plain.to_string().parse::<RecordId>(), Ok(plain));
    }

    #[test]
    fn whatever_the_review_depends_on_changes_the_id() {
        let plain = id(GAME);
        for other in [
            "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese];B[ee];W[cc];B[gg])",
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Japanese];B[ee];W[cc];B[gg])",
            "(;GM[1]FF[4]SZ[13]KM[7]RU[Chinese];B[ee];W[cc];B[gg])",
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]AB[aa];W[ee];B[cc];W[gg])",
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc])",
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[tt])",
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee];W[cc];B[gf])",
        ] {
            assert_ne!(id(other), plain, "{other}");
        }
    }

    #[test]
    fn bad_records_are_refused_with_their_codes() {
        let long = format!("(;SZ[9]C[{}];B[ee])", "x".repeat(MAX_SGF_BYTES));
        assert_eq!(code(&long), ErrorCode::TooLarge);
        assert_eq!(code("not a record"), ErrorCode::BadSgf);
        assert_eq!(code("(;GM[2];B[ee])"), ErrorCode::BadSgf);
        assert_eq!(
            code("(;SZ[9];B[ee])(;SZ[9];B[cc])"),
            ErrorCode::SeveralGames
        );
        assert_eq!(code("(;SZ[21];B[ee])"), ErrorCode::BadSize);
        assert_eq!(code("(;SZ[40];B[ee])"), ErrorCode::BadSize);
        assert_eq!(code("(;SZ[9]PB[x])"), ErrorCode::NoMoves);
        assert_eq!(code("(;SZ[9];B[ee];W[ee])"), ErrorCode::IllegalMove);
        assert_eq!(code("(;SZ[9];B[zz])"), ErrorCode::BadPoint);
        let many: String = (0..=MAX_MOVES).map(|_| ";B[tt]").collect();
        assert_eq!(code(&format!("(;SZ[9]{many})")), ErrorCode::TooManyMoves);
        assert!(Record::read("(;SZ[19];B[pd])").is_ok(), "19×19 is taken");
    }

    #[test]
    fn ids_read_back_and_nothing_else_does() {
        let text = "00ff".repeat(16);
        assert_eq!(text.parse::<RecordId>().map(|i| i.to_string()), Ok(text));
        for bad in ["", "00", &"0g".repeat(32), &"é".repeat(32), &"0".repeat(65)] {
            assert!(bad.parse::<RecordId>().is_err(), "{bad}");
        }
    }
}
