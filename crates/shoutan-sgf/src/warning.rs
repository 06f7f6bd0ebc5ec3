//! What was repaired or assumed while reading a record: every quirk of the
//! servers' files that the reader accepts is reported as one of these.

use serde::Serialize;
use shoutan_rules::{Color, Score};

use crate::parse::Position;

/// A repair or an assumption made while reading. Each says what was found
/// and what was made of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Warning {
    /// The file was converted from a legacy encoding to UTF-8.
    #[error("converted from {from} to UTF-8")]
    Reencoded {
        /// The encoding read.
        from: String,
    },
    /// Bytes that are no character in the encoding became U+FFFD.
    #[error("bytes that are not valid {encoding} were replaced by U+FFFD")]
    InvalidBytes {
        /// The encoding read.
        encoding: String,
    },
    /// `CA[]` names another encoding than the file's.
    #[error("CA[{declared}] but the text is {actual}; read as {actual}")]
    MislabelledEncoding {
        /// As declared.
        declared: String,
        /// As found.
        actual: String,
    },
    /// No `CA[]`, and the text is not UTF-8: the encoding was guessed.
    #[error("no CA[] and the text is not UTF-8; read as {detected}")]
    UndeclaredEncoding {
        /// The guess.
        detected: String,
    },
    /// `CA[]` names no known encoding.
    #[error("CA[{label}] is no known encoding; ignored")]
    UnknownCharset {
        /// The label.
        label: String,
    },
    /// Text outside any game tree was skipped.
    #[error("{at}: text outside the game tree skipped")]
    TextOutsideGameTree {
        /// Where it began.
        at: Position,
    },
    /// `()` with no node: dropped.
    #[error("{at}: empty variation dropped")]
    EmptyVariation {
        /// Where it began.
        at: Position,
    },
    /// The file ends before its game trees are closed (a cut download).
    #[error("the file ends inside a game tree; {missing} ')' added")]
    UnclosedGameTree {
        /// How many parentheses were missing.
        missing: usize,
    },
    /// An `FF[3]` identifier with lower-case letters (`AddBlack`).
    #[error("{at}: property {written} read as {read}")]
    LowercaseIdentifier {
        /// As written.
        written: String,
        /// As read.
        read: String,
        /// Where.
        at: Position,
    },
    /// A property given twice in one node: the values were joined.
    #[error("{at}: {id} given twice in one node; values joined")]
    DuplicateProperty {
        /// The identifier.
        id: String,
        /// Where the second one is.
        at: Position,
    },
    /// Fox writes komi in hundredths: `KM[750]` is 7.5 points, `KM[375]`
    /// is 3.75 子 = 7.5 points.
    #[error("KM[{written}] is Fox's komi in hundredths: {komi} points")]
    FoxKomi {
        /// As written.
        written: String,
        /// As read, in points.
        komi: Score,
    },
    /// A komi written in 子 (`KM[3.75]`): doubled into points.
    #[error("KM[{written}] is a komi in 子 (quarters are no points): {komi} points")]
    KomiInZi {
        /// As written.
        written: String,
        /// In points.
        komi: Score,
    },
    /// No `KM`, but a root `KO[7.5]` (Tom/Sina files): read as the komi.
    #[error("no KM; the root's KO[{written}] read as komi {komi}")]
    KomiFromKo {
        /// As written.
        written: String,
        /// In points.
        komi: Score,
    },
    /// `KM[0]` in an even game, where Fox- and Tygem-derived files write 0
    /// for games played with komi: with `HA[0]` written beside it (their
    /// way), or with a result that no komi of 0 could give (a half point
    /// margin). The ruleset's komi is used.
    #[error("KM[0] in an even game {why}; the rules' komi {komi} is used", why = zero_komi_evidence(result.as_deref()))]
    ZeroKomi {
        /// The komi used.
        komi: Score,
        /// The record's result, when it is the evidence.
        result: Option<String>,
    },
    /// A komi that is no number of half points: the rules' komi is used.
    #[error("KM[{written}] is not a komi; the rules' komi is used")]
    UnreadableKomi {
        /// As written.
        written: String,
    },
    /// Fox labels games it counts under Chinese rules `RU[Japanese]`.
    #[error(
        "RU[{written}] on a Fox record with komi 7.5: Fox counts these under Chinese rules ({rules})"
    )]
    FoxChineseRules {
        /// As written.
        written: String,
        /// The ruleset used.
        rules: String,
    },
    /// `HA` that is no number: no handicap is assumed (setup stones still count).
    #[error("HA[{written}] is not a number of stones; ignored")]
    UnreadableHandicap {
        /// As written.
        written: String,
    },
    /// `RU` names no ruleset known: the default is used.
    #[error("RU[{written}] names no known ruleset; {rules} assumed")]
    UnknownRules {
        /// As written.
        written: String,
        /// The ruleset used.
        rules: String,
    },
    /// A result written in a form of one server, read as a standard one.
    #[error("RE[{written}] read as {read} ({quirk})")]
    NonstandardResult {
        /// As written.
        written: String,
        /// As read: in Chinese notation, which has a word for each reason
        /// (判胜 for a ruling); in the international one for a Chinese form.
        read: String,
        /// Which form it was.
        quirk: ResultQuirk,
    },
    /// A result that could not be read: kept as unknown.
    #[error("RE[{written}] is not a result; the result is taken as unknown")]
    UnreadableResult {
        /// As written.
        written: String,
    },
    /// Time settings written in a server's own properties, read as standard.
    #[error("{written} read as {read}")]
    TimeProperties {
        /// The properties as written (`TM[60]TC[3]TT[30]`).
        written: String,
        /// What they mean.
        read: String,
    },
    /// Passes written `[tt]` (`FF[3]`) rewritten as `[]` (`FF[4]`).
    #[error("{count} passes written [tt] rewritten as []")]
    TtPasses {
        /// How many.
        count: usize,
    },
    /// Time properties that could not be read: the time is taken as unknown.
    #[error("{written}: {reason}; the time control is taken as unknown")]
    UnreadableTime {
        /// The properties as written.
        written: String,
        /// Why they could not be read.
        reason: String,
    },
    /// A move by the player who is not to move (two moves of one colour in
    /// a row, or white first in an even game): the turn is given to them.
    #[error("move {number}: {color} plays out of turn; the turn is given to {color}")]
    OutOfTurn {
        /// The move's number.
        number: usize,
        /// Who played.
        color: Color,
    },
    /// `HA` disagrees with the number of black setup stones: the stones count.
    #[error("HA[{declared}] but {stones} black stones are set up; the stones count")]
    HandicapMismatch {
        /// `HA`.
        declared: u8,
        /// Black setup stones.
        stones: usize,
    },
    /// `HA` without setup stones, white moving first: the stones are put on
    /// the fixed handicap points.
    #[error(
        "HA[{stones}] without AB and white moves first: the stones are put on the fixed handicap points"
    )]
    FixedHandicapAssumed {
        /// The handicap.
        stones: u8,
    },
    /// `HA` without setup stones, black's first moves are the placement.
    #[error(
        "HA[{stones}] without AB: black's first {stones} moves are taken as the free handicap placement"
    )]
    HandicapAsMoves {
        /// The handicap.
        stones: u8,
    },
    /// Moves after two passes: play resumed (Art. 21.4, a dispute).
    #[error("move {number}: play goes on after two passes; taken as a dispute (Art. 21.4)")]
    ResumedAfterPasses {
        /// The move that resumed play.
        number: usize,
    },
}

/// Result forms of particular servers and tournaments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultQuirk {
    /// Fox's `W+0.0`: a win whose margin and reason were not recorded.
    FoxZeroMargin,
    /// `B+J`: by the referee's judgment.
    Judgment,
    /// `B+V`: the opponent's violation of the rules.
    Violation,
    /// `B+AW`: the programs' agreement on the winner.
    AgreedWinner,
    /// `D+J`: a draw by the referee's judgment.
    DrawByJudgment,
    /// A standard form with a different spelling (`B+2.50`, `B+Resign`).
    Spelling,
    /// The Chinese notation (黑中盘胜, 白胜3/4子).
    Chinese,
}

impl std::fmt::Display for ResultQuirk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ResultQuirk::FoxZeroMargin => "Fox's +0.0: a win whose reason was not recorded",
            ResultQuirk::Judgment => "won by the referee's judgment",
            ResultQuirk::Violation => "won by the opponent's violation",
            ResultQuirk::AgreedWinner => "winner by agreement, reason not recorded",
            ResultQuirk::DrawByJudgment => "a draw by the referee's judgment",
            ResultQuirk::Spelling => "another spelling",
            ResultQuirk::Chinese => "Chinese notation",
        })
    }
}

fn zero_komi_evidence(result: Option<&str>) -> String {
    match result {
        Some(result) => format!("but the result {result} needs a komi"),
        None => "with HA[0], as Fox and Tygem files mark games played with komi".to_owned(),
    }
}
