//! `shoutan review GAME.sgf [--visits N] [-o reviewed.sgf]`: the engine
//! reviews every position of a record's main line (see
//! `shoutan_engine::review`) and writes the review into the SGF, where
//! other programs read it:
//!
//! - `SBKV[54.30]` on the root and on every move: black's win rate in
//!   percent after that node, the property Sabaki saves its analysis in and
//!   draws its win-rate graph from (its author describes it in
//!   SabakiHQ/Sabaki issue #479);
//! - a comment on every move with the win rate, the score estimate, what
//!   the move lost and the engine's preferred move and line, as KaTrain
//!   writes its reviews into comments, and `MA` on the engine's preferred
//!   point where the move was another one (KaTrain marks its top move so);
//! - each player's biggest mistakes get the engine's line as a variation.
//!
//! Without `-o` the reviewed record goes to standard output. A progress
//! bar runs on standard error when it is a terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use shoutan_engine::{Engine, EngineConfig, MoveEval, PositionEval, Review, StopHandle};
use shoutan_rules::{BoardSize, Color, Move};
use shoutan_sgf::{
    GameTree, Node, NodeId, Property, ReplayOptions, Value, move_value, read, replay,
};

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The SGF file.
    #[arg(value_name = "GAME")]
    file: PathBuf,
    /// Visits per position (more is slower and better).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    visits: u64,
    /// Write the reviewed record here instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Search threads (the machine's cores by default).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The game to review in a file of several (from 1).
    #[arg(long, value_name = "N", default_value_t = 1)]
    game: usize,
    /// A KataGo network file (`.bin.gz`) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let network = crate::model::network(args.model.as_deref())?;
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut file = read(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let count = file.collection.games.len();
    let tree = args
        .game
        .checked_sub(1)
        .and_then(|i| file.collection.games.get_mut(i))
        .ok_or_else(|| {
            anyhow::anyhow!(
                "{name}: there is no game {} (the file has {count})",
                args.game
            )
        })?;
    let replayed =
        replay(tree, ReplayOptions::default()).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    for w in file.warnings.iter().chain(&replayed.warnings) {
        eprintln!("warning: {name}: {w}");
    }
    let mut config = EngineConfig::default();
    if let Some(threads) = args.threads {
        config.threads = threads.max(1);
    }
    let mut engine = Engine::with_network(config, network);
    let bar = ProgressBar::new(replayed.game.turns().len() as u64 + 1);
    bar.set_style(
        ProgressStyle::with_template("reviewing {bar:40} {pos}/{len} positions, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let review = shoutan_engine::review(
        &mut engine,
        &replayed.game,
        args.visits,
        &StopHandle::new(),
        &mut |done, _| bar.set_position(done as u64),
    )
    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?
    .ok_or_else(|| anyhow::anyhow!("{name}: the review was stopped"))?;
    bar.finish_and_clear();
    annotate(tree, replayed.game.size(), &review);
    let text = file.collection.to_sgf();
    match args.output {
        Some(path) => crate::sgf::write_atomically(&path, &text)?,
        None => print!("{text}"),
    }
    eprintln!("{}", summary(&review, replayed.game.size()));
    Ok(ExitCode::SUCCESS)
}

/// Writes the review into the main line of `tree`.
fn annotate(tree: &mut GameTree, size: BoardSize, review: &Review) {
    let move_nodes: Vec<NodeId> = tree
        .main_line()
        .filter(|&id| {
            let node = tree.node(id);
            node.has("B") || node.has("W")
        })
        .collect();
    if let Some(start) = review.positions.first() {
        let root = tree.root_mut();
        set_winrate(root, start);
        append_comment(root, &summary(review, size));
    }
    for (m, &id) in review.moves.iter().zip(&move_nodes) {
        let Some(after) = review.positions.get(m.number) else {
            continue;
        };
        let node = tree.node_mut(id);
        set_winrate(node, after);
        append_comment(node, &move_comment(m, after, size));
        if let (Some(Move::Play(best)), false) = (m.best, m.was_best())
            && !node.has("MA")
        {
            node.set(property("MA", vec![Value::from_text(&best.to_sgf())]));
        }
    }
    for color in [Color::Black, Color::White] {
        for m in review.mistakes(color) {
            let Some(&id) = move_nodes.get(m.number - 1) else {
                continue;
            };
            if let Some(parent) = tree.parent(id) {
                add_line(tree, parent, m, size);
            }
        }
    }
}

/// The engine's line from the position before a mistake, as a variation.
fn add_line(tree: &mut GameTree, parent: NodeId, m: &MoveEval, size: BoardSize) {
    let mut at = parent;
    let mut color = m.color;
    for (i, &mv) in m.pv.iter().enumerate() {
        let mut node = Node::new();
        node.set(property(color_id(color), vec![move_value(mv)]));
        if i == 0 {
            node.set(property(
                "C",
                vec![Value::from_text(&format!(
                    "Shoutan's line instead of move {} ({}): {}",
                    m.number,
                    m.mv.to_gtp(size),
                    line_text(&m.pv, size)
                ))],
            ));
        }
        at = tree.add_child(at, node);
        color = color.opponent();
    }
}

fn color_id(color: Color) -> &'static str {
    match color {
        Color::Black => "B",
        Color::White => "W",
    }
}

/// A property whose identifier is a known constant.
fn property(id: &'static str, values: Vec<Value>) -> Property {
    Property::new(id, values).unwrap_or_else(|_| unreachable!("{id} is an SGF identifier"))
}

fn set_winrate(node: &mut Node, eval: &PositionEval) {
    node.set(property(
        "SBKV",
        vec![Value::from_text(&format!(
            "{:.2}",
            eval.black_winrate * 100.0
        ))],
    ));
}

fn append_comment(node: &mut Node, text: &str) {
    let joined = match node.text("C") {
        Some(old) if !old.trim().is_empty() => format!("{old}\n\n{text}"),
        _ => text.to_owned(),
    };
    node.set(property("C", vec![Value::from_text(&joined)]));
}

fn line_text(pv: &[Move], size: BoardSize) -> String {
    pv.iter()
        .map(|&mv| mv.to_gtp(size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `B+2.5` or `W+0.5`: who leads and by how much.
fn lead_text(black_lead: f32) -> String {
    if black_lead >= 0.0 {
        format!("B+{black_lead:.1}")
    } else {
        format!("W+{:.1}", -black_lead)
    }
}

fn move_comment(m: &MoveEval, after: &PositionEval, size: BoardSize) -> String {
    let mut text = format!(
        "Move {} ({} {}): black wins {:.1}%, score {}.",
        m.number,
        color_id(m.color),
        m.mv.to_gtp(size),
        after.black_winrate * 100.0,
        lead_text(after.black_lead)
    );
    if m.was_best() {
        text.push_str("\nThe engine's choice too.");
    } else {
        if m.winrate_loss > 0.0 {
            text.push_str(&format!(
                "\nLost {:.1}% and {:.1} points.",
                m.winrate_loss * 100.0,
                m.points_loss
            ));
        }
        if let Some(best) = m.best {
            text.push_str(&format!(
                "\nThe engine preferred {}: {}",
                best.to_gtp(size),
                line_text(&m.pv, size)
            ));
        }
    }
    text
}

/// The root's comment: the depth and each player's biggest mistakes.
fn summary(review: &Review, size: BoardSize) -> String {
    let mut text = format!(
        "Reviewed by Shoutan with {} visits per position.",
        review.visits_per_position
    );
    for (color, who) in [(Color::Black, "Black"), (Color::White, "White")] {
        let listed: Vec<String> = review
            .mistakes(color)
            .iter()
            .map(|m| {
                format!(
                    "{} {} (−{:.1}%, {:.1} points)",
                    m.number,
                    m.mv.to_gtp(size),
                    m.winrate_loss * 100.0,
                    m.points_loss
                )
            })
            .collect();
        if listed.is_empty() {
            text.push_str(&format!("\n{who}'s biggest mistakes: none."));
        } else {
            text.push_str(&format!(
                "\n{who}'s biggest mistakes: {}.",
                listed.join(", ")
            ));
        }
    }
    text
}
