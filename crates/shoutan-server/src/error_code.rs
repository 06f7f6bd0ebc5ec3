//! The one vocabulary of error codes: the `error` of an HTTP error body and
//! the `code` of a WebSocket error frame are both an [`ErrorCode`], so a
//! client switches on one list, which `docs/api/errors.md` documents (a
//! test keeps the two equal).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! error_codes {
    ($($(#[doc = $doc:literal])+ $variant:ident => $code:literal,)+) => {
        /// A stable word for what was refused or went wrong.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[doc = $doc])+ $variant,)+
        }

        impl ErrorCode {
            /// Every code, in the order of the documentation.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$variant,)+];

            /// The word clients see.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)+
                }
            }
        }
    };
}

error_codes! {
    // Requests
    /// Not JSON, not an object, no `type`, a field missing or unknown, a binary frame.
    Malformed => "malformed",
    /// No such WebSocket message.
    UnknownType => "unknown_type",
    /// A message, body or uploaded record over its size limit.
    TooLarge => "too_large",
    /// A command without its integer `id`.
    MissingId => "missing_id",
    /// An id that is not an integer from 1 to 2^53 − 1.
    BadId => "bad_id",
    /// A command id not above the last accepted one.
    ReplayedId => "replayed_id",
    /// The stated version is ahead of the game's.
    FutureVersion => "future_version",
    /// The stated version is behind the game's.
    StaleVersion => "stale_version",
    /// A page or limit outside its bounds.
    BadPage => "bad_page",
    /// A request from another site's page.
    CrossOrigin => "cross_origin",
    /// A state-changing request without the `X-Shoutan-Request` header.
    Csrf => "csrf",
    /// Too many attempts; `Retry-After` says when to try again.
    RateLimited => "rate_limited",
    /// The server is at its limit for this work; try again shortly.
    Busy => "busy",
    /// The server failed; nothing is reported of its internals.
    Internal => "internal",
    /// The server could not save; nothing changed, try again.
    Storage => "storage",
    /// The server could not save the game's change.
    StorageFailed => "storage_failed",
    /// No such thing.
    NotFound => "not_found",
    // Accounts
    /// No valid session.
    LoginRequired => "login_required",
    /// A wrong name or password.
    BadCredentials => "bad_credentials",
    /// A password outside its length bounds.
    BadPassword => "bad_password",
    /// A name outside the length or character rules.
    BadName => "bad_name",
    /// The name belongs to another account.
    NameTaken => "name_taken",
    /// The name looks like an existing account's name (Unicode TR39).
    ConfusableName => "confusable_name",
    /// A name kept for the server (the computer players).
    ReservedName => "reserved_name",
    /// Not a rank (`30k` to `9d`, `1p` to `9p`).
    BadRank => "bad_rank",
    /// A text with a control character.
    ControlCharacter => "control_character",
    /// A text with a bidirectional override, embedding or isolate.
    BidiControl => "bidi_control",
    /// Not a date.
    BadDate => "bad_date",
    /// The account no longer exists.
    AccountGone => "account_gone",
    // Challenges and games
    /// Main time (or a Fischer maximum) over 24 h.
    MainTimeTooLong => "main_time_too_long",
    /// More than 30 byo-yomi periods.
    TooManyPeriods => "too_many_periods",
    /// A byo-yomi period or time per move over 1 h, a period of moves over 2 h.
    PeriodTooLong => "period_too_long",
    /// More than 100 moves per Canadian period.
    TooManyMovesPerPeriod => "too_many_moves_per_period",
    /// A Fischer increment over 1 h.
    IncrementTooLong => "increment_too_long",
    /// The challenge was accepted or withdrawn.
    ChallengeGone => "challenge_gone",
    /// A challenge to oneself.
    SelfChallenge => "self_challenge",
    /// Accepting one's own challenge.
    OwnChallenge => "own_challenge",
    /// A challenge addressed to another player.
    NotForYou => "not_for_you",
    /// Withdrawing another player's challenge.
    NotYours => "not_yours",
    /// Too many open challenges.
    TooManyChallenges => "too_many_challenges",
    /// The server's live games are at their limit.
    TooManyGames => "too_many_games",
    /// Too many games against the computer at once.
    TooManyComputerGames => "too_many_computer_games",
    /// A challenge to a computer account (play it from the computer form).
    ComputerOpponent => "computer_opponent",
    /// No such computer level.
    BadLevel => "bad_level",
    /// No such computer opponent.
    BadOpponent => "bad_opponent",
    /// A board size the server does not offer.
    BadSize => "bad_size",
    /// No such ruleset.
    BadRuleset => "bad_ruleset",
    /// A komi that is not a whole or half number within bounds.
    BadKomi => "bad_komi",
    /// Not a colour (`black`, `white`), or a colour choice the challenge does not allow.
    BadColor => "bad_color",
    /// A time control that cannot be read (English or Chinese text, or the clock's JSON).
    BadTimeControl => "bad_time_control",
    /// A rengo challenge that is not even, casual and for four players.
    BadRengo => "bad_rengo",
    /// A simul of fewer than 2 or more than 20 boards.
    BadSimul => "bad_simul",
    /// A seat in the challenge is already yours.
    AlreadyJoined => "already_joined",
    /// Leaving a challenge in which you have no seat.
    NoSeat => "no_seat",
    /// A seek's rank range that is empty or not ranks.
    BadRankRange => "bad_rank_range",
    // Play
    /// Spectators cannot play.
    NotAPlayer => "not_a_player",
    /// Not the sender's turn.
    NotYourTurn => "not_your_turn",
    /// Against the rules; `reason` says which.
    IllegalMove => "illegal_move",
    /// Not a point of this board.
    BadPoint => "bad_point",
    /// Not allowed in the game's phase.
    WrongPhase => "wrong_phase",
    /// Answering a request the opponent did not make.
    NoRequest => "no_request",
    /// The sender's request is pending.
    AlreadyAsked => "already_asked",
    /// The opponent's same request is pending.
    AnswerFirst => "answer_first",
    /// No move to take back.
    NothingToTakeBack => "nothing_to_take_back",
    /// No stone on the point marked.
    NoStone => "no_stone",
    /// A handicap the rules refuse.
    BadHandicap => "bad_handicap",
    /// An event's game whose players have not both sat down (opened it).
    NotStarted => "not_started",
    /// The clock refuses the command.
    Clock => "clock",
    /// The move came after the flag fell.
    TimeOut => "time_out",
    /// The game is over.
    GameOver => "game_over",
    /// The game is closed on this connection.
    GameClosed => "game_closed",
    /// The game moved to another instance; connect again.
    GameMoved => "game_moved",
    /// A chat line outside its length bounds.
    BadChat => "bad_chat",
    /// An abandonment claim while the opponent is present.
    OpponentPresent => "opponent_present",
    /// An abandonment claim before its time.
    NotYet => "not_yet",
    /// In rengo: your partner plays this move, not you.
    PartnersTurn => "partners_turn",
    // Events
    /// Not an event system the server runs.
    BadSystem => "bad_system",
    /// Not a result.
    BadResult => "bad_result",
    /// Not a ruling.
    BadRuling => "bad_ruling",
    /// The tournament rules refuse the change.
    Refused => "refused",
    /// Only the organiser may do this.
    NotOrganiser => "not_organiser",
    /// Only an arbiter may do this.
    NotArbiter => "not_arbiter",
    /// Already an arbiter of the event.
    AlreadyArbiter => "already_arbiter",
    /// Already registered for the event.
    AlreadyRegistered => "already_registered",
    /// Not registered for the event.
    NotRegistered => "not_registered",
    /// Registration has closed.
    RegistrationClosed => "registration_closed",
    /// Tie-breaks the event's system does not take.
    BadTieBreaks => "bad_tie_breaks",
    /// A bye worth other than 0, 1 or 2 points.
    BadByePoints => "bad_bye_points",
    /// A late-arrival limit outside 1 ms to 1 hour (Art. 22.1).
    BadLateArrival => "bad_late_arrival",
    /// Registration closing before it opens.
    BadRegistrationWindow => "bad_registration_window",
    /// Round times out of order.
    BadRoundTimes => "bad_round_times",
    /// A rank-certification rule out of bounds.
    BadCertification => "bad_certification",
    /// The event is not a rank certification, or not finished.
    NotCertifiable => "not_certifiable",
    /// The certification was confirmed already.
    AlreadyCertified => "already_certified",
    /// The player does not qualify for that rank.
    NotQualified => "not_qualified",
    // Review and analysis
    /// A review of a game still being played.
    GameLive => "game_live",
    /// Too many of your reviews are waiting.
    ReviewBudget => "review_budget",
    /// Position judgement is not allowed in this game (rated).
    EstimateNotAllowed => "estimate_not_allowed",
    /// No position judgements left in this game.
    EstimateLimit => "estimate_limit",
    /// A position or record with more moves than an estimate or a review takes.
    TooManyMoves => "too_many_moves",
    /// Set-up stones that are not a position of the board.
    BadSetup => "bad_setup",
    /// A game record that cannot be read as SGF (the message says where and why).
    BadSgf => "bad_sgf",
    /// A file of several game records where one is wanted.
    SeveralGames => "several_games",
    /// A game record without a move to review.
    NoMoves => "no_moves",
    /// A life-and-death question about a point without a stone.
    NoGroup => "no_group",
    // Problems
    /// A try's line that is empty, too long, ends with the opponent's move, or whose opponent's moves are not the server's answers.
    BadLine => "bad_line",
    /// A move outside the problem's area.
    OutsideProblem => "outside_problem",
    /// Moves after the try ended (a wrong move, or the problem solved).
    TryOver => "try_over",
    /// The solver could not settle the move within its budget.
    Unsettled => "unsettled",
    // Moderation
    /// Only a moderator or an administrator may do this.
    NotModerator => "not_moderator",
    /// Only an administrator may do this.
    NotAdministrator => "not_administrator",
    /// A moderator acting on an administrator or another moderator, or on another's action.
    Protected => "protected",
    /// The account is suspended until the time given.
    Suspended => "suspended",
    /// The account is banned.
    Banned => "banned",
    /// A moderator muted the player's chat for a time.
    Muted => "muted",
    /// One of the two players blocked the other.
    Blocked => "blocked",
    /// A report without a reason the server knows, or of oneself, or of a chat line that is not the player's.
    BadReport => "bad_report",
    /// A moderator's action without a reason, a duration, or the game it needs.
    BadAction => "bad_action",
    /// The action does not hold (lifted, run out, or a warning).
    NotLifted => "not_lifted",
    /// A reset code that is unknown, used or expired.
    BadCode => "bad_code",
    /// Blocking or muting oneself, or a kind other than `block` or `mute`.
    BadRelation => "bad_relation",
    /// The account has games in play (finish them before deleting it).
    GamesInPlay => "games_in_play",
    /// The game changed no ratings, or was annulled already.
    NotAnnullable => "not_annullable",
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code is equal to the word clients see (as tests and clients compare).
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, word: &&str) -> bool {
        self.as_str() == *word
    }
}

/// A word that is not an error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an error code")]
pub struct UnknownCode(pub String);

impl FromStr for ErrorCode {
    type Err = UnknownCode;
    fn from_str(s: &str) -> Result<ErrorCode, UnknownCode> {
        ErrorCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCode(s.to_owned()))
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ErrorCode, D::Error> {
        let word = String::deserialize(deserializer)?;
        word.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    /// The codes in the first column of the Markdown tables of `page` whose
    /// header row is `| code |…`.
    fn documented(page: &str) -> Vec<String> {
        let mut codes = Vec::new();
        let mut in_table = false;
        for line in page.lines() {
            if line.starts_with("| code |") {
                in_table = true;
            } else if !line.starts_with('|') {
                in_table = false;
            } else if in_table && !line.starts_with("|---") {
                let first = line.split('|').nth(1).unwrap_or_default();
                codes.extend(first.split('`').skip(1).step_by(2).map(str::to_owned));
            }
        }
        codes
    }

    #[test]
    fn the_error_page_lists_every_code_once_in_order() {
        let page = include_str!("../../../docs/api/errors.md");
        let ours: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(documented(page), ours);
    }

    #[test]
    fn every_code_the_websocket_page_names_is_one_of_ours() {
        let page = include_str!("../../../docs/api/websocket.md");
        let named = documented(page);
        assert!(named.len() > 20, "the page's code table was not found");
        for code in named {
            assert!(
                code.parse::<ErrorCode>().is_ok(),
                "{code} is not an ErrorCode"
            );
        }
    }

    #[test]
    fn a_code_reads_back_from_its_word() {
        for &code in ErrorCode::ALL {
            let json = serde_json::to_string(&code).unwrap_or_default();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(serde_json::from_str::<ErrorCode>(&json).ok(), Some(code));
        }
        assert!("no_such_code".parse::<ErrorCode>().is_err());
    }
}
