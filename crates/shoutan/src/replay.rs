//! `shoutan replay FILE...`: checks game records move by move under their
//! rules. One record: its game information, warnings, the final position
//! and the captures. Several (or directories): one line per game, a
//! summary, a progress bar on a terminal. Every file is checked, also after
//! a failure (use `--fail-fast` to stop at the first); the exit status is
//! non-zero if any record is unreadable or has an illegal move.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use shoutan_rules::{Color, Ruleset};
use shoutan_sgf::{GameTree, Replay, ReplayError, ReplayOptions, Warning, read, replay};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// SGF files, or directories to search for `.sgf` files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Replay under this ruleset instead of the record's `RU`
    /// (chinese, japanese, korean, aga, nz, ing, tromp-taylor, fox…).
    #[arg(long, value_name = "NAME", value_parser = parse_rules)]
    rules: Option<Ruleset>,
    /// Show the position after this many moves (one record).
    #[arg(long = "move", value_name = "N")]
    until: Option<usize>,
    /// Stop at the first record that fails.
    #[arg(long)]
    fail_fast: bool,
    /// List every warning (with several records).
    #[arg(long, short)]
    verbose: bool,
}

/// Reads a ruleset name as `RU` may write it, or a preset's name or alias.
pub fn parse_rules(name: &str) -> Result<Ruleset, String> {
    shoutan_sgf::ruleset_from_ru(name)
        .ok_or_else(|| shoutan_rules::RulesetError(name.to_owned()).to_string())
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let files = expand(&args.files)?;
    let options = ReplayOptions {
        ruleset: args.rules,
        until: args.until,
        ..ReplayOptions::default()
    };
    if let [file] = &files[..] {
        return Ok(one(file, options));
    }
    Ok(many(&files, options, args.fail_fast, args.verbose))
}

/// Files as given, and the `.sgf` files under directories, sorted.
fn expand(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![path.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in
                std::fs::read_dir(&dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?
            {
                let p = entry?.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
                    found.push(p);
                }
            }
        }
        found.sort();
        files.extend(found);
    }
    anyhow::ensure!(!files.is_empty(), "no .sgf file found");
    Ok(files)
}

/// A file read and each of its games replayed.
struct Checked {
    /// Repairs made reading the file.
    warnings: Vec<Warning>,
    games: Vec<(GameTree, Result<Replay, ReplayError>)>,
}

/// Reads a file and replays each of its games.
fn check(path: &Path, options: ReplayOptions) -> Result<Checked, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let file = read(&bytes).map_err(|e| e.to_string())?;
    let games = file
        .collection
        .games
        .into_iter()
        .map(|tree| {
            let outcome = replay(&tree, options);
            (tree, outcome)
        })
        .collect();
    Ok(Checked {
        warnings: file.warnings,
        games,
    })
}

fn one(path: &Path, options: ReplayOptions) -> ExitCode {
    let name = path.display();
    let Checked {
        warnings: file_warnings,
        games,
    } = match check(path, options) {
        Ok(checked) => checked,
        Err(e) => {
            eprintln!("error: {name}: {e}");
            return ExitCode::FAILURE;
        }
    };
    for w in &file_warnings {
        eprintln!("warning: {name}: {w}");
    }
    let several = games.len() > 1;
    let mut failed = false;
    for (i, (tree, outcome)) in games.iter().enumerate() {
        if several {
            println!("Game {} of {}", i + 1, games.len());
        }
        match outcome {
            Ok(r) => {
                for w in &r.warnings {
                    eprintln!("warning: {name}: {w}");
                }
                print_game(r);
            }
            Err(e) => {
                failed = true;
                eprintln!("error: {name}: {e}");
                if let ReplayError::IllegalMove { number, .. }
                | ReplayError::MoveAfterEnd { number, .. } = e
                {
                    let before = ReplayOptions {
                        until: Some(number.saturating_sub(1)),
                        ..options
                    };
                    if let Ok(r) = replay(tree, before) {
                        println!("The position before move {number}:");
                        print_game(&r);
                    }
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn print_game(r: &Replay) {
    let info = &r.info;
    let player = |p: &shoutan_sgf::Player| {
        let name = p.name.as_deref().unwrap_or("?");
        match &p.rank {
            Some(rank) => format!("{name} {rank}"),
            None => name.to_owned(),
        }
    };
    println!(
        "Black: {}   White: {}",
        player(&info.black),
        player(&info.white)
    );
    let result = info.result.map_or_else(
        || "unknown".to_owned(),
        |r| format!("{} ({})", r.international(), r.chinese()),
    );
    let game = &r.game;
    println!(
        "Rules: {}   Komi: {}   Handicap: {}   Result: {result}",
        game.ruleset(),
        game.komi(),
        game.handicap()
    );
    println!("{}", game.board());
    println!(
        "{} moves; {} to play. Captures: black {}, white {}.",
        r.moves,
        game.to_move(),
        game.board().captures(Color::Black),
        game.board().captures(Color::White)
    );
}

fn many(files: &[PathBuf], options: ReplayOptions, fail_fast: bool, verbose: bool) -> ExitCode {
    // A bar for long runs only; indicatif hides it when stderr is no terminal.
    let bar = if files.len() >= 50 {
        ProgressBar::new(files.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {wide_msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let (mut games, mut replayed, mut illegal, mut unreadable, mut warnings) = (0, 0, 0, 0, 0);
    for path in files {
        let name = path.display().to_string();
        bar.set_message(name.clone());
        let mut failed = false;
        match check(path, options) {
            Err(e) => {
                unreadable += 1;
                failed = true;
                bar.suspend(|| println!("ERROR  {name}: {e}"));
            }
            Ok(Checked {
                warnings: file_warnings,
                games: found,
            }) => {
                warnings += file_warnings.len();
                let several = found.len() > 1;
                let mut lines = Vec::new();
                if verbose {
                    lines.extend(file_warnings.iter().map(|w| format!("       warning: {w}")));
                }
                for (i, (_, outcome)) in found.iter().enumerate() {
                    games += 1;
                    let label = if several {
                        format!("{name}#{}", i + 1)
                    } else {
                        name.clone()
                    };
                    match outcome {
                        Ok(r) => {
                            replayed += 1;
                            warnings += r.warnings.len();
                            let result = r
                                .info
                                .result
                                .map_or_else(|| "?".to_owned(), |r| r.international());
                            let noted = match r.warnings.len() + file_warnings.len() {
                                0 => String::new(),
                                n => format!("  ({n} warning{})", if n == 1 { "" } else { "s" }),
                            };
                            lines.push(format!(
                                "ok     {label}  {} move{}  {result}  {}{noted}",
                                r.moves,
                                if r.moves == 1 { "" } else { "s" },
                                r.game.ruleset()
                            ));
                            if verbose {
                                lines.extend(
                                    r.warnings.iter().map(|w| format!("       warning: {w}")),
                                );
                            }
                        }
                        Err(e) => {
                            failed = true;
                            if matches!(e, ReplayError::Info(_)) {
                                unreadable += 1;
                                lines.push(format!("ERROR  {label}: {e}"));
                            } else {
                                illegal += 1;
                                lines.push(format!("FAIL   {label}: {e}"));
                            }
                        }
                    }
                }
                bar.suspend(|| {
                    for line in &lines {
                        println!("{line}");
                    }
                });
            }
        }
        bar.inc(1);
        if failed && fail_fast {
            break;
        }
    }
    bar.finish_and_clear();
    println!(
        "{} files, {games} games: {replayed} replayed, {illegal} with an illegal move, {unreadable} unreadable; {warnings} warnings{}",
        files.len(),
        if verbose || warnings == 0 {
            ""
        } else {
            " (--verbose lists them)"
        }
    );
    if illegal + unreadable > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
