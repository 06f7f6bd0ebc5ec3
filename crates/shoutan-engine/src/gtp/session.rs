//! A GTP session: the game GTP builds up command by command, the engine,
//! the clocks, and the answer to every command. The state lives in a
//! [`shoutan_rules::Game`], so legality (superko included) and counting are
//! the rules engine's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shoutan_clock::TimeControl;
use shoutan_nn::Network;

use shoutan_rules::{
    BoardSize, ByColor, Color, Game, GameResult, Handicap, Move, Phase, Point, Ruleset, Score,
    count, fixed_handicap, max_fixed_handicap,
};
use shoutan_sgf::{GameInfo, GameTree, ReplayOptions};

use super::command::Symmetries;
use super::command::{
    AnalyzeArgs, COMMANDS, Command, Line, ParseError, Status, Vertex, parse_line,
};
use super::lz::{info_line, kata_info_line};
use crate::analysis::Analysis;
use crate::engine::{Budget, Decision, Engine, EngineConfig, Mode, Reporter, StopHandle};
use crate::level::Level;
use crate::time_manager::ClockReading;

/// How strong the engine plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strength {
    /// A level from 1 to 10 (see [`Level`]).
    Level(Level),
    /// A fixed number of visits per move.
    Visits(u64),
    /// A fixed time per move (the clock, if any, may shorten it).
    Time(Duration),
}

/// Settings of a session.
#[derive(Clone, Copy, Debug)]
pub struct SessionOptions {
    /// The ruleset of new games (`kgs-rules` changes it).
    pub ruleset: Ruleset,
    /// Strength.
    pub strength: Strength,
    /// The engine's settings (the temperature is the level's).
    pub engine: EngineConfig,
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            ruleset: Ruleset::CHINESE,
            strength: Strength::Level(Level::FULL),
            engine: EngineConfig::default(),
        }
    }
}

/// The answer to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `= text`
    Success(String),
    /// `? message`
    Failure(String),
}

impl Response {
    /// The response as GTP writes it, ending with the empty line.
    #[must_use]
    pub fn to_gtp(&self, id: Option<u32>) -> String {
        let id = id.map(|n| n.to_string()).unwrap_or_default();
        let (mark, text) = match self {
            Response::Success(t) => ('=', t),
            Response::Failure(t) => ('?', t),
        };
        if text.is_empty() {
            format!("{mark}{id}\n\n")
        } else if text.starts_with('\n') {
            format!("{mark}{id}{text}\n\n")
        } else {
            format!("{mark}{id} {text}\n\n")
        }
    }
}

fn ok(text: impl Into<String>) -> Result<String, String> {
    Ok(text.into())
}

/// What a game is set up from: size, rules, komi, handicap, or a record.
#[derive(Clone, Debug)]
struct Setup {
    size: BoardSize,
    ruleset: Ruleset,
    komi: Option<Score>,
    handicap: Vec<Point>,
    /// A record loaded with `loadsgf`, whose setup stones a rebuild keeps.
    record: Option<GameTree>,
}

/// A GTP session.
///
/// ```
/// use shoutan_engine::gtp::{Session, SessionOptions, Strength};
/// let mut gtp = Session::new(SessionOptions { strength: Strength::Visits(20), ..SessionOptions::default() });
/// assert_eq!(gtp.handle("boardsize 9").as_deref(), Some("=\n\n"));
/// assert_eq!(gtp.handle("1 play b e5").as_deref(), Some("=1\n\n"));
/// assert_eq!(gtp.handle("2 play w e5").as_deref(), Some("?2 illegal move: E5 is occupied\n\n"));
/// assert!(gtp.handle("genmove w").unwrap().starts_with("= "));
/// ```
pub struct Session {
    options: SessionOptions,
    engine: Engine,
    setup: Setup,
    game: Game,
    time: TimeControl,
    clocks: ByColor<ClockReading>,
    analysis_budget: Budget,
    last: Option<Analysis>,
    quit: bool,
}

impl Session {
    /// A session on an empty 19×19 board, thinking with the built-in
    /// network.
    #[must_use]
    pub fn new(options: SessionOptions) -> Session {
        Session::with_network(options, crate::builtin_network())
    }

    /// A session on an empty 19×19 board, thinking with `network`.
    #[must_use]
    pub fn with_network(options: SessionOptions, network: Arc<Network>) -> Session {
        let mut config = options.engine;
        if let Strength::Level(level) = options.strength {
            config.temperature = level.temperature();
        }
        let setup = Setup {
            size: BoardSize::NINETEEN,
            ruleset: options.ruleset,
            komi: None,
            handicap: Vec::new(),
            record: None,
        };
        let game = Game::new(setup.size, setup.ruleset);
        let time = TimeControl::None;
        Session {
            options,
            engine: Engine::with_network(config, network),
            setup,
            game,
            time,
            clocks: ByColor::of(|_| ClockReading::start(&time)),
            analysis_budget: Budget::until_stopped(),
            last: None,
            quit: false,
        }
    }

    /// The game so far.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The analysis behind the engine's last move.
    #[must_use]
    pub fn last_analysis(&self) -> Option<&Analysis> {
        self.last.as_ref()
    }

    /// Whether `quit` was received.
    #[must_use]
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Limits `lz-analyze` (by default it runs until the next command).
    pub fn set_analysis_budget(&mut self, budget: Budget) {
        self.analysis_budget = budget;
    }

    /// Answers one line; `None` for an empty or comment line. Analysis
    /// commands run until their budget (see
    /// [`set_analysis_budget`](Self::set_analysis_budget)) is spent.
    pub fn handle(&mut self, text: &str) -> Option<String> {
        let line = parse_line(text)?;
        let mut out = String::new();
        self.run(&line, &StopHandle::new(), &mut |s| out.push_str(s));
        Some(out)
    }

    /// Runs a parsed line, writing the whole response through `out`
    /// (analysis commands write as they go; `stop` ends them).
    pub fn run(&mut self, line: &Line, stop: &StopHandle, out: &mut dyn FnMut(&str)) {
        let command = match &line.command {
            Ok(c) => c.clone(),
            Err(e @ ParseError::Unknown(_)) | Err(e @ ParseError::Syntax(_)) => {
                out(&Response::Failure(e.to_string()).to_gtp(line.id));
                return;
            }
        };
        match command {
            Command::LzAnalyze(args) => self.stream(line.id, out, |session, out| {
                session.analyze(args, stop, out, |a| info_line(a, args.max_moves));
            }),
            Command::KataAnalyze(args) => self.stream(line.id, out, |session, out| {
                session.analyze(args, stop, out, |a| {
                    kata_info_line(a, args.max_moves, args.ownership)
                });
            }),
            Command::LzGenmoveAnalyze(color, args) => self.stream(line.id, out, |session, out| {
                session.genmove_analyze(color, args, stop, out, |a| info_line(a, args.max_moves));
            }),
            Command::KataGenmoveAnalyze(color, args) => {
                self.stream(line.id, out, |session, out| {
                    session.genmove_analyze(color, args, stop, out, |a| {
                        kata_info_line(a, args.max_moves, args.ownership)
                    });
                });
            }
            command => {
                let response = match self.execute(command, stop) {
                    Ok(text) => Response::Success(text),
                    Err(text) => Response::Failure(text),
                };
                out(&response.to_gtp(line.id));
            }
        }
    }

    fn ready_for_analysis(&self) -> Result<(), String> {
        match self.game.phase() {
            Phase::Finished => Err("the game is over".into()),
            Phase::Setup => Err("the handicap has not been placed".into()),
            _ => Ok(()),
        }
    }

    /// Answers a streaming command: its header, what `body` writes, the
    /// closing empty line; or the failure when there is nothing to analyse.
    fn stream(
        &mut self,
        id: Option<u32>,
        out: &mut dyn FnMut(&str),
        body: impl FnOnce(&mut Session, &mut dyn FnMut(&str)),
    ) {
        if let Err(e) = self.ready_for_analysis() {
            out(&Response::Failure(e).to_gtp(id));
            return;
        }
        out(&format!(
            "={}\n",
            id.map(|n| n.to_string()).unwrap_or_default()
        ));
        body(self, out);
        out("\n");
    }

    /// Analyses until stopped, writing a report line every interval.
    fn analyze(
        &mut self,
        args: AnalyzeArgs,
        stop: &StopHandle,
        out: &mut dyn FnMut(&str),
        format: impl Fn(&Analysis) -> String,
    ) {
        let color = args.color.unwrap_or(self.game.to_move());
        let mut report = |a: &Analysis| {
            let info = format(a);
            if !info.is_empty() {
                out(&format!("{info}\n"));
            }
        };
        let reporter = Reporter {
            every: args.interval,
            report: &mut report,
        };
        // Errors were ruled out by `ready_for_analysis`.
        let _ = self.engine.analyze(
            &self.game,
            color,
            self.analysis_budget,
            stop,
            Some(reporter),
        );
    }

    /// Thinks for a move, reporting as it goes, then plays it and ends
    /// with `play MOVE`.
    fn genmove_analyze(
        &mut self,
        color: Color,
        args: AnalyzeArgs,
        stop: &StopHandle,
        out: &mut dyn FnMut(&str),
        format: impl Fn(&Analysis) -> String,
    ) {
        let mut report = |a: &Analysis| {
            let info = format(a);
            if !info.is_empty() {
                out(&format!("{info}\n"));
            }
        };
        let reporter = Reporter {
            every: args.interval,
            report: &mut report,
        };
        let played = self.genmove(color, Mode::Normal, stop, Some(reporter));
        match played {
            Ok(text) => out(&format!("play {text}\n")),
            Err(e) => out(&format!("play pass\n# {e}\n")),
        }
    }

    /// Executes a command that answers in one response.
    fn execute(&mut self, command: Command, stop: &StopHandle) -> Result<String, String> {
        match command {
            Command::ProtocolVersion => ok("2"),
            Command::Name => ok("Shoutan"),
            Command::Version => ok(env!("CARGO_PKG_VERSION")),
            Command::KnownCommand(name) => ok(if COMMANDS.contains(&name.as_str()) {
                "true"
            } else {
                "false"
            }),
            Command::ListCommands => ok(COMMANDS.join("\n")),
            Command::Quit => {
                self.quit = true;
                ok("")
            }
            Command::Boardsize(n) => {
                let size = u8::try_from(n)
                    .ok()
                    .and_then(|n| BoardSize::new(u32::from(n)).ok())
                    .ok_or_else(|| "unacceptable size".to_owned())?;
                self.setup.size = size;
                self.clear_board();
                ok("")
            }
            Command::ClearBoard => {
                self.clear_board();
                ok("")
            }
            Command::Komi(komi) => {
                let before = self.setup.komi;
                self.setup.komi = Some(komi);
                self.rebuild().inspect_err(|_| self.setup.komi = before)?;
                ok("")
            }
            Command::KgsRules(name) => {
                let rules = Ruleset::preset(&name).map_err(|e| format!("unknown rules: {e}"))?;
                let before = self.setup.ruleset;
                self.setup.ruleset = rules;
                self.rebuild()
                    .inspect_err(|_| self.setup.ruleset = before)?;
                ok("")
            }
            Command::Play(color, vertex) => {
                let mv = self.vertex_move(vertex)?;
                self.play(color, mv)
                    .map_err(|e| format!("illegal move: {e}"))?;
                ok("")
            }
            Command::Genmove(color) => self.genmove(color, Mode::Normal, stop, None),
            Command::GenmoveCleanup(color) => self.genmove(color, Mode::Cleanup, stop, None),
            Command::Undo => {
                let mut game = self.game.clone();
                game.undo().map_err(|_| "cannot undo".to_owned())?;
                self.game = game;
                ok("")
            }
            Command::Showboard => {
                let board = self.game.board();
                ok(format!(
                    "\n{board}\nBlack (X) has captured {} stones, White (O) has captured {}; {} to move",
                    board.captures(Color::Black),
                    board.captures(Color::White),
                    self.game.to_move()
                ))
            }
            Command::FixedHandicap(n) => {
                self.require_empty_board()?;
                let points = fixed_handicap(self.setup.size, n)
                    .map_err(|_| "invalid number of stones".to_owned())?;
                self.set_handicap(points)
            }
            Command::PlaceFreeHandicap(n) => {
                self.require_empty_board()?;
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                if n < 2 || n >= self.setup.size.area() {
                    return Err("invalid number of stones".into());
                }
                let points = free_handicap(self.setup.size, n);
                self.set_handicap(points)
            }
            Command::SetFreeHandicap(vertices) => {
                self.require_empty_board()?;
                let size = self.setup.size;
                let points: Option<Vec<Point>> = vertices.iter().map(|v| v.on(size)).collect();
                let points = points.ok_or_else(|| "bad vertex list".to_owned())?;
                let mut distinct = points.clone();
                distinct.sort();
                distinct.dedup();
                if points.len() < 2 || distinct.len() != points.len() || points.len() >= size.area()
                {
                    return Err("bad vertex list".into());
                }
                self.set_handicap(points).map(|_| String::new())
            }
            Command::FinalScore => {
                let status = self.engine.final_status(&self.game).status;
                let counted = count(self.game.board(), &status.dead, &self.game.count_settings());
                ok(match counted.result() {
                    GameResult::Draw => "0".to_owned(),
                    result => result.international(),
                })
            }
            Command::FinalStatusList(wanted) => {
                let status = self.engine.final_status(&self.game).status;
                let board = self.game.board();
                let size = board.size();
                let mut seen = shoutan_rules::PointSet::new(size);
                let mut lines = Vec::new();
                for p in size.points() {
                    if board.get(p).is_none() || seen.contains(p) {
                        continue;
                    }
                    let chain: Vec<Point> = board
                        .chain(board.index(p))
                        .map(|i| board.point(i))
                        .collect();
                    seen.extend(chain.iter().copied());
                    let is = if status.dead.contains(p) {
                        Status::Dead
                    } else if status.seki.contains(p) {
                        Status::Seki
                    } else {
                        Status::Alive
                    };
                    if is == wanted {
                        let names: Vec<String> = chain.iter().map(|q| q.to_gtp(size)).collect();
                        lines.push(names.join(" "));
                    }
                }
                ok(lines.join("\n"))
            }
            Command::TimeSettings(control) => {
                self.time = control;
                self.clocks = ByColor::of(|_| ClockReading::start(&control));
                ok("")
            }
            Command::TimeLeft {
                color,
                time,
                stones,
            } => {
                self.clocks[color] = ClockReading {
                    time_left: time,
                    stones,
                };
                ok("")
            }
            Command::LoadSgf { file, move_number } => self.load_sgf(&file, move_number),
            Command::PrintSgf(file) => {
                let text =
                    shoutan_sgf::record(&self.game, &GameInfo::new(self.game.size())).to_sgf();
                match file {
                    None => ok(format!("\n{}", text.trim_end())),
                    Some(path) => {
                        std::fs::write(&path, text)
                            .map_err(|e| format!("cannot write {path}: {e}"))?;
                        ok("")
                    }
                }
            }
            Command::KgsGameOver => ok(""),
            Command::KataRawNn { color, symmetries } => {
                let color = color.unwrap_or(self.game.to_move());
                let chosen: Vec<shoutan_nn::Symmetry> = match symmetries {
                    Symmetries::All => shoutan_nn::Symmetry::ALL.to_vec(),
                    Symmetries::One(s) => vec![s],
                };
                let mut blocks = Vec::new();
                for symmetry in chosen {
                    let evaluation = self
                        .engine
                        .raw_evaluation(&self.game, color, symmetry)
                        .map_err(|e| format!("cannot evaluate: {e}"))?;
                    blocks.push(evaluation.kata_raw_nn(symmetry));
                }
                ok(blocks.join("\n"))
            }
            Command::KataSetRules(text) => {
                let nn = shoutan_nn::NnRules::parse_katago(&text, 0.0)
                    .map_err(|e| format!("unknown rules: {e}"))?;
                let rules = nn.to_ruleset(&self.setup.ruleset);
                let before = self.setup.ruleset;
                self.setup.ruleset = rules;
                self.rebuild()
                    .inspect_err(|_| self.setup.ruleset = before)?;
                ok("")
            }
            Command::KataGetRules => ok(shoutan_nn::NnRules::from_ruleset(
                self.game.ruleset(),
                self.game.komi(),
            )
            .katago_json()),
            Command::LzAnalyze(_)
            | Command::LzGenmoveAnalyze(..)
            | Command::KataAnalyze(_)
            | Command::KataGenmoveAnalyze(..) => Err("analysis streams its answer".into()),
        }
    }

    fn clear_board(&mut self) {
        self.setup.handicap.clear();
        self.setup.record = None;
        // Without handicap or record the setup always builds.
        self.game = self
            .base()
            .unwrap_or_else(|_| Game::new(self.setup.size, self.setup.ruleset));
        self.clocks = ByColor::of(|_| ClockReading::start(&self.time));
        self.engine.clear();
        self.last = None;
    }

    /// The start of the game as the setup describes it.
    fn base(&self) -> Result<Game, String> {
        if let Some(record) = &self.setup.record {
            let options = ReplayOptions {
                ruleset: Some(self.setup.ruleset),
                komi: self.setup.komi,
                until: Some(0),
            };
            return shoutan_sgf::replay(record, options)
                .map(|r| r.game)
                .map_err(|e| format!("cannot replay the loaded record: {e}"));
        }
        let mut builder = Game::builder(self.setup.size).ruleset(self.setup.ruleset);
        if !self.setup.handicap.is_empty() {
            builder = builder.handicap(Handicap::Placed(self.setup.handicap.clone()));
        }
        if let Some(komi) = self.setup.komi {
            builder = builder.komi(komi);
        }
        builder.build().map_err(|e| e.to_string())
    }

    /// Rebuilds the game from the setup and replays its turns (after a
    /// change of komi, rules or handicap).
    fn rebuild(&mut self) -> Result<(), String> {
        let mut game = self.base()?;
        for turn in self.game.turns() {
            apply(&mut game, turn.color, turn.mv)
                .map_err(|e| format!("the game no longer replays: {e}"))?;
        }
        self.game = game;
        self.engine.clear();
        Ok(())
    }

    fn require_empty_board(&self) -> Result<(), String> {
        let board = self.game.board();
        let stones = board.stone_count(Color::Black) + board.stone_count(Color::White);
        if stones > 0 || !self.game.turns().is_empty() {
            return Err("board not empty".into());
        }
        Ok(())
    }

    fn set_handicap(&mut self, points: Vec<Point>) -> Result<String, String> {
        let before = std::mem::replace(&mut self.setup.handicap, points.clone());
        self.rebuild()
            .inspect_err(|_| self.setup.handicap = before)?;
        let size = self.setup.size;
        Ok(points
            .iter()
            .map(|p| p.to_gtp(size))
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn vertex_move(&self, vertex: Vertex) -> Result<Move, String> {
        match vertex {
            Vertex::Pass => Ok(Move::Pass),
            v => v
                .on(self.game.size())
                .map(Move::Play)
                .ok_or_else(|| format!("invalid coordinate: {v} is off the board")),
        }
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), shoutan_rules::GameError> {
        let mut game = self.game.clone();
        apply(&mut game, color, mv)?;
        self.game = game;
        Ok(())
    }

    fn budget(&self, color: Color) -> Budget {
        let clock = Budget::from_clock(&self.time, &self.clocks[color], &self.game);
        let own = match self.options.strength {
            Strength::Level(level) => level.budget(self.game.size().area()),
            Strength::Visits(v) => Budget::visits(v),
            Strength::Time(t) => Budget::time(t),
        };
        own.and(clock)
    }

    fn genmove(
        &mut self,
        color: Color,
        mode: Mode,
        stop: &StopHandle,
        reporter: Option<Reporter<'_>>,
    ) -> Result<String, String> {
        let start = Instant::now();
        let budget = self.budget(color);
        let thought = self
            .engine
            .genmove_reporting(&self.game, color, budget, mode, stop, reporter)
            .map_err(|e| format!("cannot generate a move: {e}"))?;
        if let Ok(clock) = self.clocks[color].charge(&self.time, start.elapsed()) {
            self.clocks[color] = clock;
        }
        self.last = Some(thought.analysis);
        let size = self.game.size();
        match thought.decision {
            Decision::Resign => ok("resign"),
            Decision::Pass => {
                self.play(color, Move::Pass).map_err(|e| e.to_string())?;
                ok("pass")
            }
            Decision::Play(p) => {
                self.play(color, Move::Play(p))
                    .map_err(|e| format!("the engine chose an illegal move: {e}"))?;
                ok(Move::Play(p).to_gtp(size))
            }
        }
    }

    fn load_sgf(&mut self, file: &str, move_number: Option<u32>) -> Result<String, String> {
        let bytes = std::fs::read(file).map_err(|e| format!("cannot load file: {e}"))?;
        let sgf = shoutan_sgf::read(&bytes).map_err(|e| format!("cannot load file: {e}"))?;
        let tree = sgf
            .collection
            .games
            .into_iter()
            .next()
            .ok_or_else(|| "cannot load file: no game in it".to_owned())?;
        // GTP: `loadsgf FILE N` sets up the position before move N.
        let options = ReplayOptions {
            ruleset: Some(self.setup.ruleset),
            komi: None,
            until: move_number.map(|n| (n as usize).saturating_sub(1)),
        };
        let game = shoutan_sgf::replay(&tree, options)
            .map_err(|e| format!("cannot load file: {e}"))?
            .game;
        self.setup = Setup {
            size: game.size(),
            ruleset: *game.ruleset(),
            komi: Some(game.komi()),
            handicap: Vec::new(),
            record: Some(tree),
        };
        self.game = game;
        self.engine.clear();
        self.last = None;
        ok("")
    }
}

/// Plays `mv` for `color` whoever is to move (GTP allows it), reopening
/// play after two passes (a dispute: Art. 21.4).
fn apply(game: &mut Game, color: Color, mv: Move) -> Result<(), shoutan_rules::GameError> {
    if game.phase() == Phase::Counting {
        game.dispute(color)?;
    }
    if game.to_move() != color {
        game.set_to_move(color)?;
    }
    game.apply(color, mv).map(|_| ())
}

/// Free handicap placement: the fixed points as far as the table goes, then
/// points on the third and fourth lines far from the stones already placed.
fn free_handicap(size: BoardSize, n: usize) -> Vec<Point> {
    let fixed = usize::from(max_fixed_handicap(size)).min(n);
    let mut points = if fixed >= 2 {
        fixed_handicap(size, fixed as u32).unwrap_or_default()
    } else {
        Vec::new()
    };
    let side = i32::from(size.get());
    let line = |p: Point| {
        let (x, y) = (i32::from(p.col()), i32::from(p.row()));
        1 + x.min(y).min(side - 1 - x).min(side - 1 - y)
    };
    while points.len() < n {
        let distance = |p: Point| {
            points
                .iter()
                .map(|q| {
                    i32::from(p.col().abs_diff(q.col())) + i32::from(p.row().abs_diff(q.row()))
                })
                .min()
                .unwrap_or(i32::MAX)
        };
        let best = size
            .points()
            .filter(|p| !points.contains(p))
            .max_by_key(|&p| (i32::from(matches!(line(p), 3 | 4)), distance(p)));
        match best {
            Some(p) => points.push(p),
            None => break,
        }
    }
    points
}
