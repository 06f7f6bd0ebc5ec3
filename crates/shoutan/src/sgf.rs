//! `shoutan sgf …`: work on SGF files.
//!
//! `shoutan sgf normalize FILE` rewrites a messy record as clean UTF-8
//! `FF[4]` (standard komi, rules, result and time properties, `[]` passes),
//! to standard output, to `-o FILE` or in place, and lists every repair as
//! a warning on standard error. Moves, variations, comments and unknown
//! properties are kept.

use std::path::PathBuf;
use std::process::ExitCode;

use shoutan_sgf::{normalize, read};

/// Subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Rewrite a record as clean UTF-8 `FF[4]`, listing the repairs.
    Normalize(NormalizeArgs),
}

/// Arguments of `sgf normalize`.
#[derive(clap::Args)]
pub struct NormalizeArgs {
    /// The SGF file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Write here instead of standard output.
    #[arg(short, long, value_name = "OUT", conflicts_with = "in_place")]
    output: Option<PathBuf>,
    /// Replace the file.
    #[arg(long)]
    in_place: bool,
}

/// Runs a subcommand.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Normalize(args) => run_normalize(args),
    }
}

fn run_normalize(args: NormalizeArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut file = read(&bytes).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let repairs = normalize(&mut file.collection);
    for w in file.warnings.iter().chain(&repairs) {
        eprintln!("warning: {name}: {w}");
    }
    let text = file.collection.to_sgf();
    let target = if args.in_place {
        Some(args.file)
    } else {
        args.output
    };
    match target {
        Some(path) => write_atomically(&path, &text)?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes through a temporary file beside `path`, so that a failure never
/// leaves half a record.
pub(crate) fn write_atomically(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    let name = path.display();
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".shoutan-tmp");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", temporary.display()))?;
    std::fs::rename(&temporary, path).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    Ok(())
}
