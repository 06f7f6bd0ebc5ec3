//! GTP commands as typed values, and the parser from a line of text: pure,
//! total (every input gives a command or an error, never a panic), and so
//! a natural fuzz target.
//!
//! Preprocessing follows GTP 2 §3.1: control characters other than tab and
//! newline are removed, tabs become spaces, everything after `#` is a
//! comment, and a line with nothing left is ignored. A line may start with
//! a numeric id that the response repeats.

use std::fmt;
use std::time::Duration;

use shoutan_clock::{
    Absolute, ByoYomi, Leftover, Millis, MovesPerPeriod, TimeControl, TimeControlError,
};
use shoutan_rules::{BoardSize, Color, Point, Score};

/// A vertex as GTP writes it, before it is placed on a board: `pass` or a
/// point's name (a letter without I and a row number from the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// `pass`.
    Pass,
    /// A point, by its name.
    Point(shoutan_rules::Vertex),
}

impl Vertex {
    /// The point on a board of `size`, if it lies on it; `None` for a pass
    /// or a vertex off the board.
    #[must_use]
    pub fn on(self, size: BoardSize) -> Option<Point> {
        match self {
            Vertex::Pass => None,
            Vertex::Point(v) => v.on(size).ok(),
        }
    }

    fn parse(text: &str) -> Result<Vertex, ParseError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::Pass);
        }
        let bad = || ParseError::Syntax(format!("invalid vertex {text:?}"));
        let vertex: shoutan_rules::Vertex = text.parse().map_err(|_| bad())?;
        // A name no board has (row 0, beyond 25) is no vertex at all.
        vertex.on(BoardSize::LARGEST).map_err(|_| bad())?;
        Ok(Vertex::Point(vertex))
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Point(v) => v.fmt(f),
        }
    }
}

/// The stone statuses `final_status_list` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Living stones.
    Alive,
    /// Dead stones.
    Dead,
    /// Stones in seki.
    Seki,
}

/// What live analysis (`lz-analyze`, `kata-analyze` and their `genmove`
/// forms) asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeArgs {
    /// The player to analyse for (default: the player to move).
    pub color: Option<Color>,
    /// Interval between reports.
    pub interval: Duration,
    /// Report at most this many moves.
    pub max_moves: Option<u32>,
    /// Add the ownership of every point (`kata-analyze … ownership true`).
    pub ownership: bool,
}

/// Which symmetries `kata-raw-nn` evaluates under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetries {
    /// All eight, one answer each.
    All,
    /// This one (0 to 7).
    One(shoutan_nn::Symmetry),
}

/// A GTP command with its arguments checked for form.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `protocol_version`
    ProtocolVersion,
    /// `name`
    Name,
    /// `version`
    Version,
    /// `known_command NAME`
    KnownCommand(String),
    /// `list_commands`
    ListCommands,
    /// `quit`
    Quit,
    /// `boardsize N`
    Boardsize(u32),
    /// `clear_board`
    ClearBoard,
    /// `komi K`
    Komi(Score),
    /// `play COLOR VERTEX`
    Play(Color, Vertex),
    /// `genmove COLOR`
    Genmove(Color),
    /// `kgs-genmove_cleanup COLOR`
    GenmoveCleanup(Color),
    /// `undo`
    Undo,
    /// `showboard`
    Showboard,
    /// `fixed_handicap N`
    FixedHandicap(u32),
    /// `place_free_handicap N`
    PlaceFreeHandicap(u32),
    /// `set_free_handicap VERTEX…`
    SetFreeHandicap(Vec<Vertex>),
    /// `final_score`
    FinalScore,
    /// `final_status_list STATUS`
    FinalStatusList(Status),
    /// `time_settings MAIN BYO STONES` and `kgs-time_settings …`
    TimeSettings(TimeControl),
    /// `time_left COLOR TIME STONES`
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Time left (in the period, in overtime).
        time: Duration,
        /// 0 in main time; stones or periods left in overtime.
        stones: u32,
    },
    /// `loadsgf FILE [MOVE_NUMBER]`
    LoadSgf {
        /// The file.
        file: String,
        /// Load the position before this move (from 1).
        move_number: Option<u32>,
    },
    /// `printsgf [FILE]`
    PrintSgf(Option<String>),
    /// `kgs-rules NAME`
    KgsRules(String),
    /// `kgs-game_over`
    KgsGameOver,
    /// `lz-analyze …`
    LzAnalyze(AnalyzeArgs),
    /// `lz-genmove_analyze …`
    LzGenmoveAnalyze(Color, AnalyzeArgs),
    /// `kata-analyze …`
    KataAnalyze(AnalyzeArgs),
    /// `kata-genmove_analyze …`
    KataGenmoveAnalyze(Color, AnalyzeArgs),
    /// `kata-raw-nn [COLOR] SYMMETRY|all`: the network's raw outputs.
    KataRawNn {
        /// Evaluate as if this player were to move.
        color: Option<Color>,
        /// Under which symmetries.
        symmetries: Symmetries,
    },
    /// `kata-set-rules RULES`: a ruleset name or KataGo's short form.
    KataSetRules(String),
    /// `kata-get-rules`
    KataGetRules,
}

/// The commands this engine knows, as `list_commands` lists them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "loadsgf",
    "printsgf",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-genmove_cleanup",
    "kgs-game_over",
    "lz-analyze",
    "lz-genmove_analyze",
    "kata-analyze",
    "kata-genmove_analyze",
    "kata-raw-nn",
    "kata-set-rules",
    "kata-get-rules",
];

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No such command.
    #[error("unknown command")]
    Unknown(String),
    /// The arguments are not what the command takes.
    #[error("syntax error: {0}")]
    Syntax(String),
}

/// One line of input: its id, if any, and the command or why it is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The numeric id the response must repeat.
    pub id: Option<u32>,
    /// The command.
    pub command: Result<Command, ParseError>,
}

/// Parses one line; `None` when there is nothing to answer (an empty line
/// or a comment).
///
/// ```
/// use shoutan_engine::gtp::{parse_line, Command, Vertex};
/// use shoutan_rules::Color;
/// let line = parse_line("7 play B d4  # the 4-4 point").unwrap();
/// assert_eq!(line.id, Some(7));
/// assert_eq!(line.command, Ok(Command::Play(Color::Black, Vertex::Point("D4".parse().unwrap()))));
/// assert!(parse_line("   # nothing").is_none());
/// assert!(parse_line("fly away").unwrap().command.is_err());
/// ```
#[must_use]
pub fn parse_line(text: &str) -> Option<Line> {
    let clean: String = text
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = clean.split_whitespace().peekable();
    let first = *words.peek()?;
    let id = if first.bytes().all(|b| b.is_ascii_digit()) {
        words.next();
        Some(first.parse::<u32>().ok()).flatten()
    } else {
        None
    };
    let Some(name) = words.next() else {
        return Some(Line {
            id,
            command: Err(ParseError::Syntax("an id without a command".into())),
        });
    };
    let args: Vec<&str> = words.collect();
    Some(Line {
        id,
        command: parse_command(name, &args),
    })
}

fn syntax(what: impl Into<String>) -> ParseError {
    ParseError::Syntax(what.into())
}

fn exactly<'a, const N: usize>(args: &[&'a str], usage: &str) -> Result<[&'a str; N], ParseError> {
    <[&str; N]>::try_from(args).map_err(|_| syntax(format!("usage: {usage}")))
}

fn color(text: &str) -> Result<Color, ParseError> {
    text.parse::<Color>()
        .map_err(|_| syntax(format!("invalid color {text:?}")))
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, ParseError> {
    text.parse::<T>()
        .map_err(|_| syntax(format!("{what} must be a number, not {text:?}")))
}

fn seconds(text: &str) -> Result<Duration, ParseError> {
    let s: f64 = number(text, "time")?;
    if !(0.0..=1e9).contains(&s) {
        return Err(syntax(format!("invalid time {text:?}")));
    }
    Ok(Duration::from_secs_f64(s))
}

/// Seconds as the clock counts them, to the millisecond.
fn millis(text: &str) -> Result<Millis, ParseError> {
    let ms = seconds(text)?.as_millis();
    // `seconds` holds a time to 1e9 s, far below u64::MAX milliseconds.
    Ok(Millis::from_millis(u64::try_from(ms).unwrap_or(u64::MAX)))
}

/// The longest `lz-analyze` report interval: a longer one means "report
/// rarely" and is held here, so the search's next-report instant never
/// overflows.
const MAX_REPORT_INTERVAL: Duration = Duration::from_secs(24 * 60 * 60);

/// An `lz-analyze` interval, given in centiseconds.
fn centiseconds(cs: u64) -> Duration {
    Duration::from_millis(cs.saturating_mul(10)).min(MAX_REPORT_INTERVAL)
}

fn parse_command(name: &str, args: &[&str]) -> Result<Command, ParseError> {
    let none = |cmd: Command| -> Result<Command, ParseError> {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(syntax(format!("{name} takes no arguments")))
        }
    };
    match name {
        "protocol_version" => none(Command::ProtocolVersion),
        "name" => none(Command::Name),
        "version" => none(Command::Version),
        "list_commands" => none(Command::ListCommands),
        "quit" => none(Command::Quit),
        "clear_board" => none(Command::ClearBoard),
        "undo" => none(Command::Undo),
        "showboard" => none(Command::Showboard),
        "final_score" => none(Command::FinalScore),
        "kgs-game_over" => none(Command::KgsGameOver),
        "known_command" => {
            let [n] = exactly(args, "known_command NAME")?;
            Ok(Command::KnownCommand(n.to_owned()))
        }
        "boardsize" => {
            let [n] = exactly(args, "boardsize SIZE")?;
            Ok(Command::Boardsize(number(n, "the size")?))
        }
        "komi" => {
            let [k] = exactly(args, "komi KOMI")?;
            let points: f64 = number(k, "komi")?;
            let komi = Score::try_from_points(points)
                .map_err(|_| syntax(format!("komi {k} is not a multiple of 0.5")))?;
            Ok(Command::Komi(komi))
        }
        "play" => {
            let [c, v] = exactly(args, "play COLOR VERTEX")?;
            Ok(Command::Play(color(c)?, Vertex::parse(v)?))
        }
        "genmove" => {
            let [c] = exactly(args, "genmove COLOR")?;
            Ok(Command::Genmove(color(c)?))
        }
        "kgs-genmove_cleanup" => {
            let [c] = exactly(args, "kgs-genmove_cleanup COLOR")?;
            Ok(Command::GenmoveCleanup(color(c)?))
        }
        "fixed_handicap" => {
            let [n] = exactly(args, "fixed_handicap STONES")?;
            Ok(Command::FixedHandicap(number(n, "the number of stones")?))
        }
        "place_free_handicap" => {
            let [n] = exactly(args, "place_free_handicap STONES")?;
            Ok(Command::PlaceFreeHandicap(number(
                n,
                "the number of stones",
            )?))
        }
        "set_free_handicap" => {
            if args.is_empty() {
                return Err(syntax("usage: set_free_handicap VERTEX..."));
            }
            let vertices = args
                .iter()
                .map(|v| Vertex::parse(v))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Command::SetFreeHandicap(vertices))
        }
        "final_status_list" => {
            let [s] = exactly(args, "final_status_list alive|dead|seki")?;
            let status = match s.to_ascii_lowercase().as_str() {
                "alive" => Status::Alive,
                "dead" => Status::Dead,
                "seki" => Status::Seki,
                _ => return Err(syntax(format!("unknown status {s:?}"))),
            };
            Ok(Command::FinalStatusList(status))
        }
        "time_settings" => {
            let [m, b, s] = exactly(args, "time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES")?;
            let (main, period, stones) = (millis(m)?, millis(b)?, number::<u32>(s, "stones")?);
            // GTP §6.3.2: byo-yomi time 0 means absolute time; byo-yomi
            // time with 0 stones means no time limit. Its overtime is
            // Canadian: time left in a period is lost.
            let control = if period.is_zero() {
                if main.is_zero() {
                    TimeControl::None
                } else {
                    valid(Absolute::new(main))?
                }
            } else if stones == 0 {
                TimeControl::None
            } else {
                valid(MovesPerPeriod::new(main, stones, period, Leftover::Lost))?
            };
            Ok(Command::TimeSettings(control))
        }
        "kgs-time_settings" => parse_kgs_time(args).map(Command::TimeSettings),
        "time_left" => {
            let [c, t, s] = exactly(args, "time_left COLOR TIME STONES")?;
            Ok(Command::TimeLeft {
                color: color(c)?,
                time: seconds(t)?,
                stones: number(s, "stones")?,
            })
        }
        "loadsgf" => match args {
            [file] => Ok(Command::LoadSgf {
                file: (*file).to_owned(),
                move_number: None,
            }),
            [file, n] => Ok(Command::LoadSgf {
                file: (*file).to_owned(),
                move_number: Some(number(n, "the move number")?),
            }),
            _ => Err(syntax("usage: loadsgf FILE [MOVE_NUMBER]")),
        },
        "printsgf" => match args {
            [] => Ok(Command::PrintSgf(None)),
            [file] => Ok(Command::PrintSgf(Some((*file).to_owned()))),
            _ => Err(syntax("usage: printsgf [FILE]")),
        },
        "kgs-rules" => {
            let [r] = exactly(args, "kgs-rules RULES")?;
            Ok(Command::KgsRules(r.to_owned()))
        }
        "lz-analyze" => parse_analyze(args).map(|(_, a)| Command::LzAnalyze(a)),
        "kata-analyze" => parse_analyze(args).map(|(_, a)| Command::KataAnalyze(a)),
        "kata-genmove_analyze" => {
            let (color, a) = parse_analyze(args)?;
            let color = color.ok_or_else(|| syntax("usage: kata-genmove_analyze COLOR …"))?;
            Ok(Command::KataGenmoveAnalyze(color, a))
        }
        "kata-raw-nn" => parse_raw_nn(args),
        "kata-set-rules" => match args {
            [] => Err(syntax("usage: kata-set-rules RULES")),
            words => Ok(Command::KataSetRules(words.join(" "))),
        },
        "kata-get-rules" => none(Command::KataGetRules),
        "lz-genmove_analyze" => {
            let (c, a) = parse_analyze(args)?;
            let c = c.ok_or_else(|| syntax("usage: lz-genmove_analyze COLOR [INTERVAL]"))?;
            Ok(Command::LzGenmoveAnalyze(c, a))
        }
        _ => Err(ParseError::Unknown(name.to_owned())),
    }
}

fn parse_kgs_time(args: &[&str]) -> Result<TimeControl, ParseError> {
    let usage = "kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES";
    match args {
        [kind] if kind.eq_ignore_ascii_case("none") => Ok(TimeControl::None),
        [kind, m] if kind.eq_ignore_ascii_case("absolute") => valid(Absolute::new(millis(m)?)),
        [kind, m, p, n] if kind.eq_ignore_ascii_case("byoyomi") => {
            valid(ByoYomi::new(millis(m)?, number(n, "periods")?, millis(p)?))
        }
        [kind, m, p, n] if kind.eq_ignore_ascii_case("canadian") => valid(MovesPerPeriod::new(
            millis(m)?,
            number(n, "stones")?,
            millis(p)?,
            Leftover::Lost,
        )),
        _ => Err(syntax(format!("usage: {usage}"))),
    }
}

/// A time control the clock crate accepts; settings that make no clock
/// (a period of no time, no periods) are a syntax error, as GTP answers
/// any argument out of range.
fn valid<T: Into<TimeControl>>(
    settings: Result<T, TimeControlError>,
) -> Result<TimeControl, ParseError> {
    settings
        .map(Into::into)
        .map_err(|e| syntax(format!("invalid time settings: {e}")))
}

/// `[COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] [ownership B]`,
/// the interval in centiseconds, as Leela Zero and KataGo read them.
fn parse_analyze(args: &[&str]) -> Result<(Option<Color>, AnalyzeArgs), ParseError> {
    let mut out = AnalyzeArgs {
        color: None,
        interval: Duration::from_secs(1),
        max_moves: None,
        ownership: false,
    };
    let mut rest = args;
    if let Some((first, tail)) = rest.split_first()
        && let Ok(c) = first.parse::<Color>()
    {
        out.color = Some(c);
        rest = tail;
    }
    if let Some((first, tail)) = rest.split_first()
        && let Ok(cs) = first.parse::<u32>()
    {
        out.interval = centiseconds(u64::from(cs));
        rest = tail;
    }
    while let Some((key, tail)) = rest.split_first() {
        let Some((value, tail)) = tail.split_first() else {
            return Err(syntax(format!("{key} needs a value")));
        };
        match *key {
            "interval" => out.interval = centiseconds(number(value, "interval")?),
            "maxmoves" => out.max_moves = Some(number(value, "maxmoves")?),
            "minmoves" => {
                number::<u32>(value, "minmoves")?;
            }
            "ownership" => out.ownership = boolean(value, "ownership")?,
            "ownershipStdev" | "movesOwnership" | "pvVisits" | "rootInfo" => {
                boolean(value, key)?;
            }
            _ => return Err(syntax(format!("unknown analysis option {key:?}"))),
        }
        rest = tail;
    }
    out.interval = out.interval.max(Duration::from_millis(10));
    Ok((out.color, out))
}

fn boolean(text: &str, what: &str) -> Result<bool, ParseError> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(syntax(format!(
            "{what}: expected true or false, got {text:?}"
        ))),
    }
}

/// `kata-raw-nn [COLOR] SYMMETRY`, the symmetry 0 to 7 or `all`.
fn parse_raw_nn(args: &[&str]) -> Result<Command, ParseError> {
    let usage = || syntax("usage: kata-raw-nn [COLOR] SYMMETRY (0 to 7, or all)");
    let (color, rest) = match args.split_first() {
        Some((first, rest)) if first.parse::<Color>().is_ok() => (first.parse().ok(), rest),
        _ => (None, args),
    };
    let [symmetry] = rest else {
        return Err(usage());
    };
    let symmetries = if symmetry.eq_ignore_ascii_case("all") {
        Symmetries::All
    } else {
        let n: u32 = symmetry.parse().map_err(|_| usage())?;
        Symmetries::One(shoutan_nn::Symmetry::new(n).map_err(|e| syntax(e.to_string()))?)
    };
    Ok(Command::KataRawNn { color, symmetries })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Command, ParseError> {
        parse_line(s).expect("a command line").command
    }

    #[test]
    fn preprocessing_follows_the_spec() {
        // GTP 2 §3.1: comments, tabs, control characters, empty lines.
        assert!(parse_line("").is_none());
        assert!(parse_line("   \t ").is_none());
        assert!(parse_line("# just a comment").is_none());
        assert_eq!(parse("\tname\r"), Ok(Command::Name));
        assert_eq!(parse("na\u{7}me"), Ok(Command::Name));
        let line = parse_line("42 boardsize 9 # nine").unwrap();
        assert_eq!(line.id, Some(42));
        assert_eq!(line.command, Ok(Command::Boardsize(9)));
    }

    #[test]
    fn vertices_skip_i_and_know_pass() {
        assert_eq!(
            parse("play w J9"),
            Ok(Command::Play(
                Color::White,
                Vertex::Point("J9".parse().unwrap())
            ))
        );
        assert_eq!(
            parse("play WHITE PASS"),
            Ok(Command::Play(Color::White, Vertex::Pass))
        );
        for bad in [
            "play b I5",
            "play b D0",
            "play b D26",
            "play b 44",
            "play b",
            "play x D4",
        ] {
            assert!(matches!(parse(bad), Err(ParseError::Syntax(_))), "{bad}");
        }
        let size = BoardSize::NINE;
        let v = Vertex::Point("D4".parse().unwrap());
        assert_eq!(v.on(size).map(|p| p.to_gtp(size)), Some("D4".to_owned()));
        assert_eq!(
            Vertex::Point("K4".parse().unwrap()).on(size),
            None,
            "K4 is off 9×9"
        );
        assert_eq!(v.to_string(), "D4");
    }

    #[test]
    fn unknown_commands_and_bad_arguments_are_told_apart() {
        assert_eq!(parse("fly"), Err(ParseError::Unknown("fly".into())));
        assert!(matches!(
            parse("boardsize nine"),
            Err(ParseError::Syntax(_))
        ));
        assert!(matches!(parse("komi 7.25"), Err(ParseError::Syntax(_))));
        assert!(matches!(parse("name please"), Err(ParseError::Syntax(_))));
        assert_eq!(parse("komi -3"), Ok(Command::Komi(Score::from_points(-3))));
    }

    #[test]
    fn time_settings_follow_gtp_and_kgs() {
        let s = Millis::from_secs;
        let settings = |control: Result<TimeControl, TimeControlError>| {
            Ok(Command::TimeSettings(control.unwrap()))
        };
        assert_eq!(
            parse("time_settings 300 0 0"),
            settings(Absolute::new(s(300)).map(Into::into))
        );
        assert_eq!(
            parse("time_settings 0 0 0"),
            Ok(Command::TimeSettings(TimeControl::None))
        );
        assert_eq!(
            parse("time_settings 0 30 0"),
            Ok(Command::TimeSettings(TimeControl::None))
        );
        assert_eq!(
            parse("time_settings 600 300 25"),
            settings(MovesPerPeriod::new(s(600), 25, s(300), Leftover::Lost).map(Into::into))
        );
        assert_eq!(
            parse("time_settings 0 30 1"),
            settings(MovesPerPeriod::new(Millis::ZERO, 1, s(30), Leftover::Lost).map(Into::into))
        );
        assert_eq!(
            parse("kgs-time_settings byoyomi 1200 30 5"),
            settings(ByoYomi::new(s(1200), 5, s(30)).map(Into::into))
        );
        assert_eq!(
            parse("kgs-time_settings canadian 0 300 25"),
            settings(MovesPerPeriod::new(Millis::ZERO, 25, s(300), Leftover::Lost).map(Into::into))
        );
        assert_eq!(
            parse("kgs-time_settings absolute 90.5"),
            settings(Absolute::new(Millis::from_millis(90_500)).map(Into::into))
        );
        assert_eq!(
            parse("kgs-time_settings NONE"),
            Ok(Command::TimeSettings(TimeControl::None))
        );
        assert!(parse("kgs-time_settings fischer 10 5").is_err());
        assert_eq!(
            parse("time_left b 25.5 3"),
            Ok(Command::TimeLeft {
                color: Color::Black,
                time: Duration::from_millis(25_500),
                stones: 3
            })
        );
        assert!(parse("time_left b -1 0").is_err());
    }

    #[test]
    fn time_settings_that_make_no_clock_are_syntax_errors() {
        for (line, why) in [
            ("kgs-time_settings canadian 600 0 25", "longer than zero"),
            ("kgs-time_settings canadian 600 300 0", "at least one move"),
            ("kgs-time_settings byoyomi 600 30 0", "at least one period"),
            ("kgs-time_settings byoyomi 600 0 5", "longer than zero"),
            ("kgs-time_settings byoyomi 600 30.5 5", "whole seconds"),
            ("kgs-time_settings absolute 0", "above zero"),
        ] {
            let Err(ParseError::Syntax(message)) = parse(line) else {
                panic!("{line} is accepted");
            };
            assert!(
                message.starts_with("invalid time settings") && message.contains(why),
                "{line}: {message}"
            );
        }
    }

    #[test]
    fn analysis_arguments_in_both_styles() {
        let Ok(Command::LzAnalyze(a)) = parse("lz-analyze 50") else {
            panic!("lz-analyze 50")
        };
        assert_eq!(a.interval, Duration::from_millis(500));
        assert_eq!(a.color, None);
        let Ok(Command::LzAnalyze(a)) = parse("lz-analyze W interval 20 maxmoves 5") else {
            panic!("key-value form")
        };
        assert_eq!(
            (a.color, a.interval, a.max_moves),
            (Some(Color::White), Duration::from_millis(200), Some(5))
        );
        assert!(parse("lz-analyze B interval").is_err());
        let Ok(Command::LzAnalyze(a)) = parse("lz-analyze b interval 2288888888888888888") else {
            panic!("a huge interval")
        };
        assert_eq!(a.interval, MAX_REPORT_INTERVAL, "held, not overflowed");
        assert!(parse("lz-analyze B wobble 3").is_err());
        assert!(
            parse("lz-genmove_analyze 50").is_err(),
            "the colour is required"
        );
        assert!(matches!(
            parse("lz-genmove_analyze b 10"),
            Ok(Command::LzGenmoveAnalyze(Color::Black, _))
        ));
    }

    #[test]
    fn every_listed_command_parses_as_known() {
        for name in COMMANDS {
            assert!(
                !matches!(parse(name), Err(ParseError::Unknown(_))),
                "{name} is listed but unknown to the parser"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn parsing_never_panics(line in "\\PC{0,60}") {
            let _ = parse_line(&line);
        }

        #[test]
        fn parsing_any_ascii_words_never_panics(words in proptest::collection::vec("[a-z_0-9.-]{0,8}", 0..6)) {
            let _ = parse_line(&words.join(" "));
        }
    }
}
