//! `shoutan match`: GTP engines against each other, adjudicated by our
//! rules. Colours alternate game by game; an illegal move loses with the
//! reason; after two passes both engines are asked for the dead stones, and
//! when they disagree play resumes in cleanup mode (`kgs-genmove_cleanup`,
//! Art. 21.4) until the position speaks for itself. Every game is written
//! as SGF, and the score is printed with a 95 % Wilson interval.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::str::FromStr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use shoutan_clock::{
    Absolute, ByoYomi, Leftover, Millis, MovesPerPeriod, TimeControl, TimeControlError,
};
use shoutan_engine::ClockReading;
use shoutan_rules::{
    BoardSize, ByColor, Color, Game, GameResult, Move, Point, PointSet, Ruleset, Score, WinBy,
};
use shoutan_sgf::GameInfo;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Command of the first engine (black in odd games).
    #[arg(long)]
    black: String,
    /// Command of the second engine (white in odd games).
    #[arg(long)]
    white: String,
    /// Number of games (colours alternate).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Board size.
    #[arg(long, default_value_t = 19)]
    size: u32,
    /// Ruleset (`chinese`, `japanese`, …).
    #[arg(long, default_value = "chinese")]
    rules: Ruleset,
    /// Komi (default: the ruleset's).
    #[arg(long, allow_hyphen_values = true)]
    komi: Option<f64>,
    /// Time control: `none`, `MAIN` (absolute), `MAIN+PERIODxN` (byo-yomi),
    /// or `MAIN+PERIOD/STONES` (Canadian), in seconds (byo-yomi periods
    /// whole).
    #[arg(long, default_value = "none")]
    time: TimeSpec,
    /// Network and process lag forgiven on each move, in milliseconds.
    #[arg(long, default_value_t = 200)]
    lag_ms: u64,
    /// Where the SGF records (and the engines' stderr) go.
    #[arg(long, default_value = "shoutan-match")]
    sgf_dir: PathBuf,
}

/// A time control written on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSpec(pub TimeControl);

impl FromStr for TimeSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeSpec, String> {
        let secs = |t: &str| -> Result<Millis, String> {
            let x: f64 = t
                .parse()
                .map_err(|_| format!("{t:?} is not a number of seconds"))?;
            if x.is_finite() && (0.0..1e7).contains(&x) {
                // Below 1e10 ms: the cast neither truncates nor saturates.
                Ok(Millis::from_millis((x * 1000.0).round() as u64))
            } else {
                Err(format!("{t:?} is not a number of seconds"))
            }
        };
        let count = |t: &str| -> Result<u32, String> {
            t.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{t:?} is not a positive count"))
        };
        if s == "none" {
            return Ok(TimeSpec(TimeControl::None));
        }
        let control: Result<TimeControl, TimeControlError> = match s.split_once('+') {
            None => Absolute::new(secs(s)?).map(Into::into),
            Some((main, over)) => {
                let main = secs(main)?;
                if let Some((period, n)) = over.split_once('x') {
                    ByoYomi::new(main, count(n)?, secs(period)?).map(Into::into)
                } else if let Some((period, n)) = over.split_once('/') {
                    // Canadian overtime, as GTP's `time_settings` tells it.
                    MovesPerPeriod::new(main, count(n)?, secs(period)?, Leftover::Lost)
                        .map(Into::into)
                } else {
                    return Err(format!(
                        "{s:?}: expected none, MAIN, MAIN+PERIODxN or MAIN+PERIOD/STONES"
                    ));
                }
            }
        };
        control.map(TimeSpec).map_err(|e| format!("{s:?}: {e}"))
    }
}

/// Why a player did not answer a command.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// `? message`.
    #[error("refused: {0}")]
    Refused(String),
    /// No answer before the deadline.
    #[error("no answer in time")]
    Timeout,
    /// The process ended or its pipes broke.
    #[error("the engine died: {0}")]
    Died(String),
}

/// Something that answers GTP commands.
pub trait Player {
    /// Sends a command; the answer's text, or why there is none. With a
    /// deadline, waits no longer than it.
    fn send(&mut self, command: &str, deadline: Option<Instant>) -> Result<String, PlayerError>;

    /// The engine's name and version, as GTP tells them.
    fn identify(&mut self) -> String {
        let name = self.send("name", None).unwrap_or_else(|_| "?".into());
        let version = self.send("version", None).unwrap_or_default();
        format!("{name} {version}").trim().to_owned()
    }

    /// Whether the engine knows `command`.
    fn knows(&mut self, command: &str) -> bool {
        self.send(&format!("known_command {command}"), None)
            .is_ok_and(|a| a.trim() == "true")
    }
}

/// An engine in another process, speaking GTP over its stdin and stdout.
pub struct GtpProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// How long to wait for an engine without a clock before giving up on it.
const NO_CLOCK_LIMIT: Duration = Duration::from_secs(600);

impl GtpProcess {
    /// Starts `command` (split like a shell would, without a shell), its
    /// stderr going to `stderr_log`.
    pub fn spawn(command: &str, stderr_log: &Path) -> anyhow::Result<GtpProcess> {
        let words =
            shell_words::split(command).with_context(|| format!("cannot split {command:?}"))?;
        let (program, args) = words.split_first().context("empty engine command")?;
        let log = std::fs::File::create(stderr_log)
            .with_context(|| format!("cannot create {}", stderr_log.display()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .with_context(|| format!("cannot start {command:?}"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GtpProcess {
            command: command.to_owned(),
            child,
            stdin,
            lines,
        })
    }

    /// The command it was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    fn next_line(&self, deadline: Instant) -> Result<String, PlayerError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(wait).map_err(|e| match e {
            mpsc::RecvTimeoutError::Timeout => PlayerError::Timeout,
            mpsc::RecvTimeoutError::Disconnected => PlayerError::Died("its output closed".into()),
        })
    }
}

impl Player for GtpProcess {
    fn send(&mut self, command: &str, deadline: Option<Instant>) -> Result<String, PlayerError> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| PlayerError::Died(e.to_string()))?;
        let deadline = deadline.unwrap_or_else(|| Instant::now() + NO_CLOCK_LIMIT);
        // Skip anything before the response (stray output, analysis lines).
        let first = loop {
            let line = self.next_line(deadline)?;
            if line.starts_with('=') || line.starts_with('?') {
                break line;
            }
        };
        let mut text = first[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
            .to_owned();
        loop {
            let line = self.next_line(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        if first.starts_with('=') {
            Ok(text)
        } else {
            Err(PlayerError::Refused(text))
        }
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What every game of a match shares.
#[derive(Clone, Copy, Debug)]
pub struct MatchSettings {
    /// Board size.
    pub size: BoardSize,
    /// Rules.
    pub rules: Ruleset,
    /// Komi.
    pub komi: Score,
    /// Clock.
    pub time: TimeControl,
    /// Lag forgiven per move.
    pub lag: Duration,
}

/// A finished game.
pub struct Played {
    /// The game, finished.
    pub game: Game,
    /// How it ended, in words (for the SGF comment and the log).
    pub reason: String,
    /// Whether an engine died or broke the protocol (restart it).
    pub broken: ByColor<bool>,
}

/// Plays one game between `players`, each on his colour. Never fails:
/// whatever goes wrong is part of the result (a loss with its reason, or no
/// result).
pub fn play_game(players: ByColor<&mut dyn Player>, settings: &MatchSettings) -> Played {
    let mut referee = Referee::new(players, settings);
    referee.run();
    Played {
        game: referee.game,
        reason: referee.reason,
        broken: referee.broken,
    }
}

struct Referee<'a> {
    players: ByColor<&'a mut dyn Player>,
    settings: MatchSettings,
    game: Game,
    clocks: ByColor<ClockReading>,
    cleanup: ByColor<bool>,
    reason: String,
    broken: ByColor<bool>,
}

impl<'a> Referee<'a> {
    fn new(players: ByColor<&'a mut dyn Player>, settings: &MatchSettings) -> Self {
        let game = Game::builder(settings.size)
            .ruleset(settings.rules)
            .komi(settings.komi)
            .build()
            .unwrap_or_else(|_| Game::new(settings.size, settings.rules));
        Referee {
            players,
            settings: *settings,
            game,
            clocks: ByColor::of(|_| ClockReading::start(&settings.time)),
            cleanup: ByColor::default(),
            reason: String::new(),
            broken: ByColor::default(),
        }
    }

    fn end(&mut self, result: Result<GameResult, shoutan_rules::GameError>, reason: String) {
        if result.is_err() {
            let _ = self.game.declare(GameResult::NoResult);
        }
        self.reason = reason;
    }

    fn setup(&mut self) -> Result<(), (Color, PlayerError)> {
        let s = self.settings;
        for c in Color::ALL {
            let p = &mut *self.players[c];
            let cleanup = p.knows("kgs-genmove_cleanup");
            let kgs_rules = p.knows("kgs-rules");
            let kgs_time = p.knows("kgs-time_settings");
            self.cleanup[c] = cleanup;
            let mut commands = vec![
                format!("boardsize {}", s.size.get()),
                "clear_board".to_owned(),
                format!("komi {}", s.komi),
            ];
            if kgs_rules && let Some(name) = kgs_rules_name(&s.rules) {
                commands.push(format!("kgs-rules {name}"));
            }
            if let Some(t) = time_command(&s.time, kgs_time) {
                commands.push(t);
            }
            for command in commands {
                p.send(&command, None).map_err(|e| (c, e))?;
            }
        }
        Ok(())
    }

    fn run(&mut self) {
        if let Err((c, e)) = self.setup() {
            self.broken[c] = true;
            let r = self.game.forfeit(c);
            self.end(r, format!("{c} could not be set up: {e}"));
            return;
        }
        let limit = 4 * self.settings.size.area();
        let mut cleanup_phase = false;
        loop {
            if self.game.turns().len() >= limit {
                let r = self.game.declare(GameResult::NoResult);
                self.end(r, format!("no result: {limit} moves without an end"));
                return;
            }
            let color = self.game.to_move();
            let Some(mv) = self.ask_move(color, cleanup_phase) else {
                return;
            };
            let played = match mv {
                Move::Play(p) => self.game.play(color, p).map(|_| ()),
                Move::Pass => self.game.pass(color).map(|_| ()),
            };
            if let Err(e) = played {
                let r = self.game.declare(GameResult::Win {
                    winner: color.opponent(),
                    by: WinBy::Ruling,
                });
                self.end(r, format!("{color} played an illegal move: {e}"));
                return;
            }
            let text = match mv {
                Move::Play(p) => p.to_gtp(self.settings.size),
                Move::Pass => "pass".into(),
            };
            let other = color.opponent();
            if let Err(e) =
                self.players[other].send(&format!("play {} {text}", color.letter()), None)
            {
                self.broken[other] = matches!(e, PlayerError::Died(_));
                let r = self.game.declare(GameResult::NoResult);
                self.end(
                    r,
                    format!("{other} did not accept {color}'s legal move {text}: {e}"),
                );
                return;
            }
            if self.game.phase() == shoutan_rules::Phase::Counting && self.count(&mut cleanup_phase)
            {
                return;
            }
        }
    }

    /// After two passes: count if the engines agree on the dead stones (or
    /// after cleanup); otherwise resume in cleanup. True when the game ended.
    fn count(&mut self, cleanup_phase: &mut bool) -> bool {
        let size = self.settings.size;
        let claims = ByColor::of(|c| {
            let answer = self.players[c]
                .send("final_status_list dead", None)
                .unwrap_or_default();
            let mut dead = PointSet::new(size);
            for word in answer.split_whitespace() {
                if let Ok(p) = Point::from_gtp(word, size)
                    && self.game.board().get(p).is_some()
                {
                    dead.insert(p);
                }
            }
            dead
        });
        let agreed = claims.black == claims.white;
        if !agreed && !*cleanup_phase {
            // Art. 21.4: play resumes; the claimant of more dead stones moves first.
            *cleanup_phase = true;
            let claimant = if claims.white.len() > claims.black.len() {
                Color::White
            } else {
                Color::Black
            };
            if self.game.dispute(claimant).is_ok() {
                return false;
            }
        }
        let (dead, how) = if agreed {
            (claims.black, "both engines agreed on the dead stones")
        } else {
            (
                PointSet::new(size),
                "counted as the stones stand after cleanup",
            )
        };
        let marked = self.game.set_dead(dead);
        let accepted = self
            .game
            .accept(Color::Black)
            .and_then(|_| self.game.accept(Color::White));
        match (marked, accepted) {
            (Ok(()), Ok(Some(result))) => self.end(Ok(result), format!("counted: {how}")),
            _ => {
                let r = self.game.declare(GameResult::NoResult);
                self.end(r, "the count failed".into());
            }
        }
        true
    }

    /// Asks `color` for a move; `None` when the game ended instead.
    fn ask_move(&mut self, color: Color, cleanup_phase: bool) -> Option<Move> {
        let timed = self.settings.time != TimeControl::None;
        if timed {
            let clock = self.clocks[color];
            let _ = self.players[color].send(
                &format!(
                    "time_left {} {} {}",
                    color.letter(),
                    clock.time_left.as_secs(),
                    clock.stones
                ),
                None,
            );
        }
        let command = if cleanup_phase && self.cleanup[color] {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let start = Instant::now();
        let deadline = timed
            .then(|| start + self.max_think(color) + self.settings.lag + Duration::from_secs(1));
        let answer = self.players[color].send(&format!("{command} {}", color.letter()), deadline);
        let used = start.elapsed().saturating_sub(self.settings.lag);
        let answer = match answer {
            Ok(a) => a,
            Err(PlayerError::Timeout) => {
                let r = self.game.time_out(color);
                self.end(r, format!("{color} ran out of time"));
                return None;
            }
            Err(e) => {
                self.broken[color] = matches!(e, PlayerError::Died(_));
                let r = self.game.forfeit(color);
                self.end(r, format!("{color} gave no move: {e}"));
                return None;
            }
        };
        if timed {
            match self.clocks[color].charge(&self.settings.time, used) {
                Ok(c) => self.clocks[color] = c,
                Err(_) => {
                    let r = self.game.time_out(color);
                    self.end(r, format!("{color} ran out of time"));
                    return None;
                }
            }
        }
        let word = answer.trim();
        if word.eq_ignore_ascii_case("resign") {
            let r = self.game.resign(color);
            self.end(r, format!("{color} resigned"));
            return None;
        }
        if word.eq_ignore_ascii_case("pass") {
            return Some(Move::Pass);
        }
        match Point::from_gtp(word, self.settings.size) {
            Ok(p) => Some(Move::Play(p)),
            Err(e) => {
                let r = self.game.declare(GameResult::Win {
                    winner: color.opponent(),
                    by: WinBy::Ruling,
                });
                self.end(r, format!("{color} answered {word:?}, not a move: {e}"));
                None
            }
        }
    }

    /// The most the clock allows for the current move.
    fn max_think(&self, color: Color) -> Duration {
        let clock = self.clocks[color];
        let d = |m: Millis| Duration::from_millis(m.as_millis());
        match self.settings.time {
            TimeControl::None => NO_CLOCK_LIMIT,
            TimeControl::Absolute(_) | TimeControl::Fischer(_) | TimeControl::PerMove(_) => {
                clock.time_left
            }
            TimeControl::ByoYomi(b) if clock.stones == 0 => {
                clock.time_left + d(b.period()) * b.periods()
            }
            TimeControl::ByoYomi(b) => d(b.period()) * clock.stones,
            TimeControl::MovesPerPeriod(m) if clock.stones == 0 => clock.time_left + d(m.period()),
            TimeControl::MovesPerPeriod(_) => clock.time_left,
        }
    }
}

/// The name KGS's `kgs-rules` uses for a ruleset, if it has one.
fn kgs_rules_name(rules: &Ruleset) -> Option<&'static str> {
    match rules.preset_name()? {
        "chinese" => Some("chinese"),
        "japanese" => Some("japanese"),
        "aga" => Some("aga"),
        "new-zealand" => Some("new_zealand"),
        _ => None,
    }
}

/// The GTP command that sets the clock, if there is one.
fn time_command(t: &TimeControl, kgs: bool) -> Option<String> {
    let s = Millis::whole_secs;
    match t {
        TimeControl::None => None,
        TimeControl::Absolute(a) => Some(format!("time_settings {} 0 0", s(a.main()))),
        TimeControl::ByoYomi(b) if kgs => Some(format!(
            "kgs-time_settings byoyomi {} {} {}",
            s(b.main()),
            s(b.period()),
            b.periods()
        )),
        // Without KGS's extension, byo-yomi is announced as its last period
        // in Canadian form (one stone per period), as gogui-twogtp does.
        TimeControl::ByoYomi(b) => {
            Some(format!("time_settings {} {} 1", s(b.main()), s(b.period())))
        }
        TimeControl::MovesPerPeriod(m) => Some(format!(
            "time_settings {} {} {}",
            s(m.main()),
            s(m.period()),
            m.moves()
        )),
        // GTP has no Fischer time: announced as absolute, and `time_left`
        // tells each increment as it comes.
        TimeControl::Fischer(f) => Some(format!("time_settings {} 0 0", s(f.main()))),
        // One stone per period, nothing carried over: per-move time.
        TimeControl::PerMove(p) => Some(format!("time_settings 0 {} 1", s(p.time()))),
    }
}

/// The Wilson score interval of a proportion at 95 %: (low, high).
#[must_use]
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let p = successes / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Writes a game as SGF with the players' names and the reason in `GC`.
pub fn write_sgf(path: &Path, played: &Played, names: ByColor<&str>) -> anyhow::Result<()> {
    let mut info = GameInfo::new(played.game.size());
    info.black.name = Some(names.black.to_owned());
    info.white.name = Some(names.white.to_owned());
    info.comment = Some(played.reason.clone());
    let text = shoutan_sgf::record(&played.game, &info).to_sgf();
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Wins, draws and games without result of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Draws (half a win each).
    pub draws: u32,
    /// Games without a result (not counted).
    pub void: u32,
}

impl Tally {
    /// Adds a game's result for `side`.
    pub fn add(&mut self, result: Option<GameResult>, side: Color) {
        match result {
            Some(GameResult::Win { winner, .. }) if winner == side => self.wins += 1,
            Some(GameResult::Win { .. }) => self.losses += 1,
            Some(GameResult::Draw) => self.draws += 1,
            _ => self.void += 1,
        }
    }

    /// The score with its interval: "12 wins, 7 losses, 1 draw: 62.5 % (95 % CI 40.9–80.0 %)".
    #[must_use]
    pub fn summary(&self) -> String {
        let n = f64::from(self.wins + self.losses + self.draws);
        let score = f64::from(self.wins) + f64::from(self.draws) / 2.0;
        let (lo, hi) = wilson(score, n);
        let rate = if n > 0.0 { 100.0 * score / n } else { 0.0 };
        let void = if self.void > 0 {
            format!(", {} without result", self.void)
        } else {
            String::new()
        };
        format!(
            "{} wins, {} losses, {} draws{void}: {rate:.1} % (95 % CI {:.1}–{:.1} %)",
            self.wins,
            self.losses,
            self.draws,
            100.0 * lo,
            100.0 * hi
        )
    }
}

/// Runs the match.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let size = BoardSize::new(args.size)?;
    anyhow::ensure!(args.games > 0, "--games must be at least 1");
    let komi = match args.komi {
        Some(k) => Score::try_from_points(k)?,
        None => args.rules.komi,
    };
    let settings = MatchSettings {
        size,
        rules: args.rules,
        komi,
        time: args.time.0,
        lag: Duration::from_millis(args.lag_ms),
    };
    std::fs::create_dir_all(&args.sgf_dir)
        .with_context(|| format!("cannot create {}", args.sgf_dir.display()))?;
    let commands = [args.black.as_str(), args.white.as_str()];
    let logs = [
        args.sgf_dir.join("engine-1.stderr"),
        args.sgf_dir.join("engine-2.stderr"),
    ];
    let mut engines = [
        GtpProcess::spawn(commands[0], &logs[0])?,
        GtpProcess::spawn(commands[1], &logs[1])?,
    ];
    let names = [engines[0].identify(), engines[1].identify()];
    let bar = ProgressBar::new(u64::from(args.games));
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut tally = Tally::default();
    for g in 0..args.games {
        // Game 1: the first engine has black; then colours alternate.
        let first_is_black = g % 2 == 0;
        // Which engine (0: the first, 1: the second) plays each colour.
        let seat = if first_is_black {
            ByColor::new(0, 1)
        } else {
            ByColor::new(1, 0)
        };
        let [e0, e1] = &mut engines;
        let players = if first_is_black {
            ByColor::<&mut dyn Player>::new(e0, e1)
        } else {
            ByColor::<&mut dyn Player>::new(e1, e0)
        };
        let played = play_game(players, &settings);
        let result = played.game.result();
        let first_color = if first_is_black {
            Color::Black
        } else {
            Color::White
        };
        tally.add(result, first_color);
        let path = args.sgf_dir.join(format!("game-{:03}.sgf", g + 1));
        write_sgf(&path, &played, seat.map(|k| names[k].as_str()))?;
        bar.println(format!(
            "game {}: {} (B) vs {} (W): {} — {}",
            g + 1,
            names[seat.black],
            names[seat.white],
            result.map_or("?".into(), |r| r.international()),
            played.reason
        ));
        for c in Color::ALL {
            if played.broken[c] {
                let k = seat[c];
                engines[k] = GtpProcess::spawn(commands[k], &logs[k])?;
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "{} ({}): {}",
        names[0],
        engines[0].command(),
        tally.summary()
    );
    println!("records in {}", args.sgf_dir.display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_specs() {
        let s = Millis::from_secs;
        let spec = |control: Result<TimeControl, TimeControlError>| Ok(TimeSpec(control.unwrap()));
        assert_eq!("none".parse(), Ok(TimeSpec(TimeControl::None)));
        assert_eq!("300".parse(), spec(Absolute::new(s(300)).map(Into::into)));
        assert_eq!(
            "90.5".parse(),
            spec(Absolute::new(Millis::from_millis(90_500)).map(Into::into))
        );
        assert_eq!(
            "600+30x5".parse(),
            spec(ByoYomi::new(s(600), 5, s(30)).map(Into::into))
        );
        assert_eq!(
            "0+300/25".parse(),
            spec(MovesPerPeriod::new(Millis::ZERO, 25, s(300), Leftover::Lost).map(Into::into))
        );
        assert!("10+5".parse::<TimeSpec>().is_err());
        assert!("10+5x0".parse::<TimeSpec>().is_err());
        assert!("ten".parse::<TimeSpec>().is_err());
        // What makes no clock is refused with the clock's reason.
        for (bad, why) in [
            ("0", "above zero"),
            ("600+0x5", "longer than zero"),
            ("600+0/25", "longer than zero"),
            ("600+30.5x5", "whole seconds"),
        ] {
            let err = bad.parse::<TimeSpec>().unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn time_commands_tell_engines_the_clock() {
        let s = Millis::from_secs;
        let byo = ByoYomi::new(s(600), 5, s(30)).unwrap().into();
        assert_eq!(
            time_command(&byo, true).as_deref(),
            Some("kgs-time_settings byoyomi 600 30 5")
        );
        assert_eq!(
            time_command(&byo, false).as_deref(),
            Some("time_settings 600 30 1")
        );
        let per_move = shoutan_clock::PerMove::new(s(20)).unwrap().into();
        assert_eq!(
            time_command(&per_move, true).as_deref(),
            Some("time_settings 0 20 1")
        );
        let fischer = shoutan_clock::Fischer::new(s(300), s(10), None)
            .unwrap()
            .into();
        assert_eq!(
            time_command(&fischer, false).as_deref(),
            Some("time_settings 300 0 0")
        );
        assert_eq!(time_command(&TimeControl::None, true), None);
    }

    #[test]
    fn wilson_interval_matches_the_textbook() {
        // 80 of 100: the Wilson interval is 71.1 %–86.7 %.
        let (lo, hi) = wilson(80.0, 100.0);
        assert!(
            (lo - 0.711).abs() < 0.001 && (hi - 0.867).abs() < 0.001,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.25 && hi < 0.35);
    }

    #[test]
    fn tally_counts_draws_as_half() {
        let mut t = Tally::default();
        let win = |winner| {
            Some(GameResult::Win {
                winner,
                by: WinBy::Resignation,
            })
        };
        t.add(win(Color::Black), Color::Black);
        t.add(win(Color::White), Color::Black);
        t.add(Some(GameResult::Draw), Color::White);
        t.add(Some(GameResult::NoResult), Color::White);
        assert_eq!(
            t,
            Tally {
                wins: 1,
                losses: 1,
                draws: 1,
                void: 1
            }
        );
        assert!(
            t.summary()
                .starts_with("1 wins, 1 losses, 1 draws, 1 without result: 50.0 %")
        );
    }
}
