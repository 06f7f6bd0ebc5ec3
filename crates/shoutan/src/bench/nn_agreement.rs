//! `shoutan bench nn-agreement`: how closely our network evaluation agrees
//! with KataGo's own for the same network. A fixed set of positions (real
//! records at every stage under several rulesets and komi, the autoscore
//! final positions, small boards and handicap games from random play) is
//! set up in KataGo through GTP (`loadsgf`, `komi`, `kata-set-rules`) and
//! in Shoutan from the same description; both answers to `kata-raw-nn 0`
//! are compared. `--write` keeps KataGo's answers as the test suite's
//! golden outputs; `--goldens` compares with kept answers instead of
//! asking KataGo.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use shoutan_nn::oracle::{Agreement, Case};
use shoutan_nn::{Network, Position, RawNnAnswer, Scratch, Symmetry};
use shoutan_rules::{
    Board, BoardSize, Color, Game, Move, Point, Ruleset, Score, fixed_handicap, random_move,
};

use crate::engine_match::{GtpProcess, Player};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// KataGo's GTP command, e.g. `katago gtp -model M -config C` with the
    /// same network as ours.
    #[arg(long)]
    katago: Option<String>,
    /// Compare with KataGo's answers kept in this file instead of asking
    /// KataGo.
    #[arg(long, conflicts_with = "katago")]
    goldens: Option<PathBuf>,
    /// Keep KataGo's answers in this file (`.jsonl.gz`).
    #[arg(long, requires = "katago")]
    write: Option<PathBuf>,
    /// The records to take positions from.
    #[arg(long, default_value = "tests/data/sgf")]
    records: PathBuf,
    /// The final positions of the autoscore tests.
    #[arg(long, default_value = "tests/data/autoscore")]
    autoscore: PathBuf,
    /// Positions taken from the records (the other sources add about 100).
    #[arg(long, default_value_t = 200)]
    from_records: usize,
    /// A KataGo network file to use on our side instead of the built-in one.
    #[arg(long)]
    model: Option<PathBuf>,
    /// Ask our answers of this GTP command (e.g. `shoutan gtp`) as KataGo's
    /// are asked, instead of evaluating in this process.
    #[arg(long)]
    shoutan: Option<String>,
}

/// Compares and prints the agreement; fails when it misses a target.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let network = match &args.model {
        Some(path) => Network::load(path)?,
        None => Network::builtin(),
    };
    let answers: Vec<(Case, String)> = match (&args.goldens, &args.katago) {
        (Some(path), _) => read_goldens(path)?,
        (None, Some(katago)) => {
            let cases = cases(&args)?;
            let answers = ask_gtp(katago, &cases, "KataGo")?;
            if let Some(path) = &args.write {
                write_goldens(path, &answers)?;
                println!("kept {} answers in {}", answers.len(), path.display());
            }
            answers
        }
        (None, None) => anyhow::bail!("give --katago CMD or --goldens FILE"),
    };
    let mut scratch = Scratch::default();
    let ours_by_gtp = match &args.shoutan {
        Some(command) => {
            let cases: Vec<Case> = answers.iter().map(|(c, _)| c.clone()).collect();
            Some(ask_gtp(command, &cases, "ours")?)
        }
        None => None,
    };
    let mut agreement = Agreement::default();
    let mut outside = 0;
    for (k, (case, katago)) in answers.iter().enumerate() {
        let theirs = RawNnAnswer::parse(katago, case.size)
            .with_context(|| format!("KataGo's answer for {}", case.to_json()))?;
        let ours = match &ours_by_gtp {
            Some(texts) => RawNnAnswer::parse(&texts[k].1, case.size)
                .with_context(|| format!("our answer for {}", case.to_json()))?,
            None => our_answer(&network, case, &mut scratch)?,
        };
        let mut one = Agreement::default();
        one.add(&ours, &theirs);
        if !one.within_targets() {
            outside += 1;
            if outside <= 10 {
                println!("outside the targets: {}\n  {one}", case.to_json());
                let legality = |p: &Option<f32>| p.is_some();
                let differ: Vec<String> = case
                    .size
                    .points()
                    .enumerate()
                    .filter(|&(i, _)| legality(&ours.policy[i]) != legality(&theirs.policy[i]))
                    .map(|(_, p)| p.to_gtp(case.size))
                    .collect();
                if !differ.is_empty() {
                    println!("  legal to one engine only: {}", differ.join(" "));
                }
            }
        }
        agreement.add(&ours, &theirs);
    }
    println!("{agreement}");
    Ok(if agreement.within_targets() {
        ExitCode::SUCCESS
    } else {
        println!("outside the targets");
        ExitCode::FAILURE
    })
}

/// Our `kata-raw-nn 0` for `case`, as printed and read back (so both
/// answers are compared at the precision KataGo prints).
pub fn our_answer(
    network: &Network,
    case: &Case,
    scratch: &mut Scratch,
) -> anyhow::Result<RawNnAnswer> {
    let game = case.game()?;
    let position = Position::from_game(&game);
    let evaluation = network.evaluate(&[(&position, Symmetry::IDENTITY)], scratch);
    let evaluation = evaluation.first().context("no evaluation")?;
    Ok(RawNnAnswer::parse(
        &evaluation.kata_raw_nn(Symmetry::IDENTITY),
        case.size,
    )?)
}

/// The answer of the engine `command` (`who`, for messages) to each case,
/// over one GTP session.
fn ask_gtp(command: &str, cases: &[Case], who: &str) -> anyhow::Result<Vec<(Case, String)>> {
    let dir = tempfile::tempdir()?;
    let mut engine = GtpProcess::spawn(command, &dir.path().join("engine.log"))?;
    let sgf = dir.path().join("case.sgf");
    let sgf_path = sgf.to_str().context("the temporary path is not UTF-8")?;
    let mut answers = Vec::with_capacity(cases.len());
    for (i, case) in cases.iter().enumerate() {
        std::fs::write(&sgf, case.sgf())?;
        let mut answer = String::new();
        for command in case.gtp_commands(sgf_path) {
            answer = engine
                .send(&command, None)
                .with_context(|| format!("{who} refused {command:?} for case {i}"))?;
        }
        answers.push((case.clone(), answer));
        if (i + 1) % 50 == 0 {
            eprintln!("{} of {} asked", i + 1, cases.len());
        }
    }
    Ok(answers)
}

fn write_goldens(path: &Path, answers: &[(Case, String)]) -> anyhow::Result<()> {
    let file =
        std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
    let mut out = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    for (case, answer) in answers {
        let line = serde_json::json!({ "case": case.to_json(), "katago": answer });
        writeln!(out, "{line}")?;
    }
    out.finish()?;
    Ok(())
}

/// The kept answers: one JSON object a line, `{"case": …, "katago": …}`.
pub fn read_goldens(path: &Path) -> anyhow::Result<Vec<(Case, String)>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
    let mut answers = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line?;
        let value: serde_json::Value =
            serde_json::from_str(&line).with_context(|| format!("line {}", n + 1))?;
        let case = Case::from_json(&value["case"]).with_context(|| format!("line {}", n + 1))?;
        let answer = value["katago"]
            .as_str()
            .with_context(|| format!("line {}: no KataGo answer", n + 1))?;
        answers.push((case, answer.to_owned()));
    }
    Ok(answers)
}

/// The rulesets cases rotate through: every counting, ko and suicide rule
/// KataGo's encoding has.
const RULESETS: [Ruleset; 10] = [
    Ruleset::CHINESE,
    Ruleset::JAPANESE,
    Ruleset::TROMP_TAYLOR,
    Ruleset::AGA,
    Ruleset::NEW_ZEALAND,
    Ruleset::CHINESE_SIMPLE_KO,
    Ruleset::ING,
    Ruleset::KOREAN,
    Ruleset::CHINESE_1988,
    Ruleset::ANCIENT_CHINESE,
];

/// Komi the cases rotate through, in half points: the usual ones, an
/// integer (draws possible), small, negative and large.
const KOMI: [i32; 9] = [15, 13, 14, 11, 1, 16, -6, 31, 4];

/// The positions: from the records, the autoscore final positions, and
/// random play on 9×9, 13×13 and 19×19 with handicap.
fn cases(args: &Args) -> anyhow::Result<Vec<Case>> {
    let mut cases = Vec::new();
    let records = crate::records::load(std::slice::from_ref(&args.records), BoardSize::NINETEEN)?;
    let games = &records.games;
    anyhow::ensure!(
        !games.is_empty(),
        "no 19×19 record in {}",
        args.records.display()
    );
    let mut i = 0usize;
    while cases.len() < args.from_records && i < 4 * args.from_records {
        let game = &games[(i * 37) % games.len()];
        let total = game.turns().len();
        // Early, middle and late in turn.
        let turns = match i % 3 {
            0 => 8 + (i * 7) % 40,
            1 => 80 + (i * 13) % 80,
            _ => total.saturating_sub(1 + (i * 11) % 40),
        }
        .min(total);
        let ruleset = RULESETS[i % RULESETS.len()];
        let komi = Score::from_half_points(KOMI[(i / 2) % KOMI.len()]);
        let mut moves: Vec<(Color, Move)> = game.turns()[..turns]
            .iter()
            .map(|t| (t.color, t.mv))
            .collect();
        // Every seventh position after a pass: the pass planes and whether
        // a second pass would end the game.
        if i % 7 == 3 {
            let next = moves.last().map_or(Color::Black, |m| m.0.opponent());
            moves.push((next, Move::Pass));
        }
        let case = Case {
            size: BoardSize::NINETEEN,
            ruleset,
            komi,
            black: stones(game.initial_board(), Color::Black),
            white: stones(game.initial_board(), Color::White),
            first: game.initial_to_move(),
            moves,
        };
        if usable(&case) {
            cases.push(case);
        }
        i += 1;
    }
    cases.extend(autoscore_cases(&args.autoscore)?);
    let mut rng = fastrand::Rng::with_seed(0x4b41_5441_474f);
    for (n, size) in [(30, 9), (20, 13)] {
        for k in 0..n {
            let size = BoardSize::new(size)?;
            let ruleset = RULESETS[k % RULESETS.len()];
            let komi = Score::from_half_points(KOMI[k % KOMI.len()]);
            let length = 5 + rng.usize(..size.area() * 3 / 4);
            cases.extend(random_case(
                size,
                ruleset,
                komi,
                Vec::new(),
                length,
                &mut rng,
            ));
        }
    }
    for k in 0..20 {
        let handicap = 2 + (k % 8) as u32;
        let black = fixed_handicap(BoardSize::NINETEEN, handicap)?;
        let ruleset = RULESETS[k % RULESETS.len()];
        let komi = Score::from_half_points(if k % 2 == 0 { 1 } else { 0 });
        let length = rng.usize(..150);
        cases.extend(random_case(
            BoardSize::NINETEEN,
            ruleset,
            komi,
            black,
            length,
            &mut rng,
        ));
    }
    Ok(cases)
}

/// Whether the case is a legal game under its rules and still in play.
fn usable(case: &Case) -> bool {
    case.game()
        .is_ok_and(|g| g.phase() == shoutan_rules::Phase::Play)
}

fn stones(board: &Board, color: Color) -> Vec<Point> {
    board
        .stones()
        .filter(|&(_, c)| c == Some(color))
        .map(|(p, _)| p)
        .collect()
}

/// A game of `length` random moves (no filling of one's own eyes) from
/// `black` set up, white first when there are stones (a handicap).
fn random_case(
    size: BoardSize,
    ruleset: Ruleset,
    komi: Score,
    black: Vec<Point>,
    length: usize,
    rng: &mut fastrand::Rng,
) -> Option<Case> {
    let first = if black.is_empty() {
        Color::Black
    } else {
        Color::White
    };
    let mut case = Case {
        size,
        ruleset,
        komi,
        black,
        white: Vec::new(),
        first,
        moves: Vec::new(),
    };
    let mut game: Game = case.game().ok()?;
    while case.moves.len() < length {
        let color = game.to_move();
        let chosen = (0..10)
            .filter_map(|_| random_move(game.board(), color, ruleset.suicide, rng))
            .map(|i| game.board().point(i))
            .find(|&p| game.is_legal(color, p));
        let Some(p) = chosen else { break };
        if game.play(color, p).is_err() {
            break;
        }
        case.moves.push((color, Move::Play(p)));
    }
    usable(&case).then_some(case)
}

/// The autoscore final positions, black to move, under Chinese and
/// Japanese rules in turn.
fn autoscore_cases(dir: &Path) -> anyhow::Result<Vec<Case>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for (k, file) in files.iter().enumerate() {
        let value: serde_json::Value = serde_json::from_slice(&std::fs::read(file)?)
            .with_context(|| format!("{}", file.display()))?;
        let rows: Vec<&str> = value["board"]
            .as_array()
            .with_context(|| format!("{}: no board", file.display()))?
            .iter()
            .filter_map(|r| r.as_str())
            .collect();
        let size = BoardSize::new(u32::try_from(rows.len())?)?;
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (row, line) in rows.iter().enumerate() {
            for (col, ch) in line.chars().enumerate() {
                let p = u8::try_from(col)
                    .ok()
                    .zip(u8::try_from(row).ok())
                    .and_then(|(c, r)| size.point(c, r));
                match (ch, p) {
                    ('b' | 'B', Some(p)) => black.push(p),
                    ('w' | 'W', Some(p)) => white.push(p),
                    _ => {}
                }
            }
        }
        let (ruleset, komi) = if k % 2 == 0 {
            (Ruleset::CHINESE, Score::from_half_points(15))
        } else {
            (Ruleset::JAPANESE, Score::from_half_points(13))
        };
        let case = Case {
            size,
            ruleset,
            komi,
            black,
            white,
            first: Color::Black,
            moves: Vec::new(),
        };
        if usable(&case) {
            cases.push(case);
        }
    }
    Ok(cases)
}
