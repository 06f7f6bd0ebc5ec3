//! `shoutan solve FILE.sgf --group POINT [--move N] [--region A1:F6]
//! [--json]`: whether the group at POINT can be killed with its opponent
//! moving first, and saved with its owner moving first, in the record's
//! position (after N moves, or at the end of the main line; a problem of
//! setup stones and no moves works the same), by `shoutan_solver`'s proof
//! search. With `--json` it prints exactly
//! `{"group", "to_kill", "kill", "to_live", "live", "nodes", "ms"}`, the
//! verdicts being `"win"`, `"ko"`, `"seki"` (the owner keeps the group only
//! in seki: `to_live` only), `"lose"` or `"unknown"`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use shoutan_rules::{BoardSize, Color, Point, PointSet};
use shoutan_sgf::{ReplayOptions, read, replay};
use shoutan_solver::{
    Budget, Goal, Ko, MAX_KO_THREATS, Problem, Solution, Summary, Verdict, solve,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The SGF file: a game record, or a problem of setup stones.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// A stone of the group to kill or save (GTP, e.g. `B18`).
    #[arg(long, value_name = "POINT")]
    group: String,
    /// The position after this many moves of the main line (default: its
    /// end).
    #[arg(long = "move", value_name = "N")]
    at_move: Option<usize>,
    /// The rectangle moves may be played in, by two corners (`A1:F6`);
    /// default: the group's surroundings, up to unconditionally alive walls.
    #[arg(long, value_name = "A1:F6")]
    region: Option<String>,
    /// The most positions searched for each side moving first.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    nodes: u64,
    /// The most seconds spent for each side moving first.
    #[arg(long, value_name = "S", default_value_t = 10)]
    seconds: u64,
    /// Print the answer as JSON.
    #[arg(long)]
    json: bool,
}

/// The rectangle between two corners `A1:F6`.
fn rectangle(text: &str, size: BoardSize) -> anyhow::Result<PointSet> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| anyhow!("--region {text:?}: give two corners, as A1:F6"))?;
    let corner =
        |s: &str| Point::from_gtp(s.trim(), size).map_err(|e| anyhow!("--region {text:?}: {e}"));
    let (a, b) = (corner(a)?, corner(b)?);
    let mut set = PointSet::new(size);
    for p in size.points() {
        if (a.col().min(b.col())..=a.col().max(b.col())).contains(&p.col())
            && (a.row().min(b.row())..=a.row().max(b.row())).contains(&p.row())
        {
            set.insert(p);
        }
    }
    Ok(set)
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).with_context(|| format!("cannot read {name}"))?;
    let file = read(&bytes).map_err(|e| anyhow!("{name}: {e}"))?;
    let tree = file
        .collection
        .games
        .first()
        .ok_or_else(|| anyhow!("{name}: no game in the file"))?;
    let options = ReplayOptions {
        until: args.at_move,
        ..ReplayOptions::default()
    };
    let replayed = replay(tree, options).map_err(|e| anyhow!("{name}: {e}"))?;
    if let Some(n) = args.at_move
        && n > replayed.moves
    {
        bail!(
            "{name}: --move {n}, but the main line has {} moves",
            replayed.moves
        );
    }
    let game = &replayed.game;
    let size = game.size();
    let target = Point::from_gtp(&args.group, size).map_err(|e| anyhow!("--group: {e}"))?;
    let owner = game
        .board()
        .get(target)
        .ok_or_else(|| anyhow!("--group {}: there is no stone there", args.group))?;
    let mut builder = Problem::builder(game.board().clone(), owner.opponent(), target, Goal::Kill)
        .ruleset(game.ruleset());
    if let Some(text) = &args.region {
        builder = builder.region(rectangle(text, size)?);
    }
    let problem = builder
        .build()
        .map_err(|e| anyhow!("--group {}: {e}", args.group))?;
    let budget = Budget {
        nodes: args.nodes,
        time: Duration::from_secs(args.seconds),
    };
    let solution = solve(&problem, budget);
    let summary = solution.summary(&problem);
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    } else {
        let stones = problem.board().chain_len(problem.board().index(target));
        print!("{}", words(&summary, &solution, owner, stones));
    }
    Ok(ExitCode::SUCCESS)
}

/// The report in words, in English and then as Chinese players say it
/// (黑先净杀, 白先劫活, 白先双活 …), with what each ko asks of the sides.
fn words(r: &Summary, solution: &Solution, owner: Color, stones: usize) -> String {
    let (attacker, defender) = (owner.opponent(), owner);
    let english = |mover: Color, verdict: Verdict, moves: &[String], aim: &str| {
        let aim = format!("{} to play {aim}", capital(mover));
        match verdict {
            Verdict::Win => format!("{aim}: yes, by {}", moves.join(" or ")),
            Verdict::Ko => format!(
                "{aim}: only by a ko, started by {}{}",
                moves.join(" or "),
                solution
                    .of(mover)
                    .ko
                    .map_or_else(String::new, |ko| format!(" ({})", ko_english(ko)))
            ),
            Verdict::Seki => format!("{aim}: only in seki, by {}", moves.join(" or ")),
            Verdict::Lose => format!("{aim}: no"),
            Verdict::Unknown => format!("{aim}: unknown (the search ran out of its budget)"),
        }
    };
    let chinese = |mover: Color, verdict: Verdict, moves: &[String], [win, ko, lose]: [&str; 3]| {
        match verdict {
            Verdict::Win => format!("{win}（{}）", moves.join("、")),
            Verdict::Ko => format!(
                "{ko}（{}）{}",
                moves.join("、"),
                solution
                    .of(mover)
                    .ko
                    .map_or_else(String::new, |ko| format!("，{}", ko_chinese(ko)))
            ),
            Verdict::Seki => format!("双活（{}）", moves.join("、")),
            Verdict::Lose => lose.to_owned(),
            Verdict::Unknown => "未能算清".to_owned(),
        }
    };
    let ten_thousand_years = if solution.is_ten_thousand_year_ko() {
        "A ten-thousand-year ko (万年劫): left alone the group lives in seki, \
         and whichever side starts the ko must find the threats to win it.\n"
    } else {
        ""
    };
    format!(
        "The {defender} group at {group} ({stones} stones)\n{}\n{}\n\
         {d}棋{group}一块（{stones}子）：{a}先{}；{d}先{}\n\
         {ten_thousand_years}Searched {} positions in {} ms.\n",
        english(attacker, r.to_kill, &r.kill, "kills it"),
        english(defender, r.to_live, &r.live, "saves it"),
        chinese(attacker, r.to_kill, &r.kill, ["净杀", "劫杀", "杀不掉"]),
        chinese(defender, r.to_live, &r.live, ["净活", "劫活", "活不了"]),
        r.nodes,
        r.ms,
        group = r.group,
        a = zh(attacker),
        d = zh(defender),
    )
}

/// "Black", "White".
fn capital(c: Color) -> String {
    let name = c.name();
    format!("{}{}", name[..1].to_uppercase(), &name[1..])
}

/// 黑, 白.
fn zh(c: Color) -> &'static str {
    match c {
        Color::Black => "黑",
        Color::White => "白",
    }
}

/// What a ko asks of the sides, in English.
fn ko_english(ko: Ko) -> String {
    let finder = capital(ko.finder);
    let other = ko.finder.opponent().name();
    match ko.threats {
        Some(1) => format!("a direct ko: {finder} must find the first ko threat"),
        Some(n) => format!(
            "an approach ko: {finder} needs {n} ko threats more than {other}, \
             {} approach move{} to play",
            n - 1,
            if n == 2 { "" } else { "s" }
        ),
        None => format!("{finder} needs more than {MAX_KO_THREATS} ko threats more than {other}"),
    }
}

/// What a ko asks of the sides, as Chinese players say it: 紧劫 (direct),
/// 缓一气劫 (an approach ko of one move) ….
fn ko_chinese(ko: Ko) -> String {
    let finder = zh(ko.finder);
    match ko.threats {
        Some(1) => format!("紧劫，{finder}方先找劫材"),
        Some(n) => format!(
            "缓{}气劫，{finder}方需比对方多{n}个劫材",
            ["一", "二", "三", "四", "五"]
                .get(usize::from(n - 2))
                .copied()
                .unwrap_or("多")
        ),
        None => format!("{finder}方需比对方多{MAX_KO_THREATS}个以上劫材"),
    }
}
