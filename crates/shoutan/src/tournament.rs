//! `shoutan tournament …`: run an event from one tournament file. Every
//! command loads the file, applies one validated change and writes the file
//! back atomically; on any error it prints why and leaves the file as it was.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use shoutan_rules::{Color, Rank};
use shoutan_tournament::formats::report::{self, Format};
use shoutan_tournament::formats::{csv, h9, opengotha, trf};
use shoutan_tournament::{
    Certification, ColorRule, Criterion, Discipline, Entrant, HandicapBasis, HandicapRule, McMahon,
    NewPlayer, PairingModel, Ruling, Seeding, Settings, System, TeamFormat, TeamSettings, TieRule,
    Tournament, Value, WithdrawnValuation, file, level_points,
};

/// Subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Create a tournament file.
    New(Box<NewArgs>),
    /// Register players.
    #[command(subcommand)]
    Players(PlayersCommand),
    /// Register teams (team events).
    #[command(subcommand)]
    Teams(TeamsCommand),
    /// Name a team's line-up for its match in a round (before results).
    Lineup {
        /// The tournament file.
        file: PathBuf,
        /// The round.
        #[arg(long)]
        round: u32,
        /// The team (number or name).
        #[arg(long)]
        team: String,
        /// Players in board order (numbers or names), comma-separated.
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
    },
    /// Pair the next round and print it.
    Pair {
        /// The tournament file.
        file: PathBuf,
        /// The round to pair (must be the next one).
        #[arg(long)]
        round: Option<u32>,
    },
    /// Remove the last round while it has no results.
    Unpair {
        /// The tournament file.
        file: PathBuf,
    },
    /// Record (or correct) a game's result: B+, W+, B+R, W+7.5, 1-0, 0-1,
    /// draw, B+F, W+F (forfeits), both-lose, void, unplayed.
    Result {
        /// The tournament file.
        file: PathBuf,
        /// The round (default: the last paired).
        #[arg(long)]
        round: Option<u32>,
        /// The table.
        #[arg(long)]
        table: u32,
        /// The result.
        result: String,
    },
    /// Give a player a warning in a game (Art. 24).
    Warn {
        /// The tournament file.
        file: PathBuf,
        /// The round (default: the last paired).
        #[arg(long)]
        round: Option<u32>,
        /// The table.
        #[arg(long)]
        table: u32,
        /// The player (number or name).
        player: String,
    },
    /// Record an arbiter's ruling on a game: draw, replay, both-lose, void,
    /// forfeit-black, forfeit-white, loss-black, loss-white.
    Ruling {
        /// The tournament file.
        file: PathBuf,
        /// The round (default: the last paired).
        #[arg(long)]
        round: Option<u32>,
        /// The table.
        #[arg(long)]
        table: u32,
        /// The ruling.
        ruling: String,
        /// Why (kept in the arbiter's notes).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Add an arbiter's note.
    Note {
        /// The tournament file.
        file: PathBuf,
        /// The text.
        text: String,
        /// The round it concerns.
        #[arg(long)]
        round: Option<u32>,
        /// The table it concerns.
        #[arg(long)]
        table: Option<u32>,
    },
    /// Withdraw a player (or a team) from the next round on (Art. 28).
    Withdraw {
        /// The tournament file.
        file: PathBuf,
        /// The player or team (number or name; teams as T1 or their name;
        /// in a team total-score event a team withdraws all its players).
        who: String,
    },
    /// Each player's level points (级别积分) after the event, from their
    /// rating, by the chess room's table of the rules pages.
    LevelPoints {
        /// The tournament file.
        file: PathBuf,
    },
    /// Print the standings with the crosstable.
    Standings {
        /// The tournament file.
        file: PathBuf,
        /// After this round (default: every paired round).
        #[arg(long)]
        after: Option<u32>,
        /// md (Markdown, the default) or html.
        #[arg(long, default_value = "md")]
        format: String,
        /// Write to this file instead of printing.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Show the event, or one round's pairings.
    Show {
        /// The tournament file.
        file: PathBuf,
        /// The round to show.
        #[arg(long)]
        round: Option<u32>,
        /// md (Markdown, the default) or html.
        #[arg(long, default_value = "md")]
        format: String,
    },
    /// Export: opengotha (XML), h9 (EGF results), trf (FIDE TRF-16), html or
    /// md (standings), json (the tournament file itself).
    Export {
        /// The tournament file.
        file: PathBuf,
        /// The format.
        #[arg(long)]
        format: String,
        /// Write to this file instead of printing.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Create a tournament file from an OpenGotha file.
    Import {
        /// The OpenGotha XML file.
        opengotha: PathBuf,
        /// The tournament file to create.
        file: PathBuf,
        /// Overwrite an existing tournament file.
        #[arg(long)]
        force: bool,
        /// Pair the next rounds as OpenGotha does (opengotha, the default
        /// for its files) or with Shoutan's own model (shoutan).
        #[arg(long, default_value = "opengotha")]
        pairing: String,
    },
}

/// `players …`.
#[derive(clap::Subcommand)]
pub enum PlayersCommand {
    /// Register one player.
    Add {
        /// The tournament file.
        file: PathBuf,
        /// Full name.
        #[arg(long)]
        name: String,
        /// Rank: 30k…1k, 1d…9d, 1p…9p (or 5级, 3段, 职业9段).
        #[arg(long)]
        rank: Option<String>,
        /// Rating.
        #[arg(long)]
        rating: Option<i32>,
        /// Club.
        #[arg(long)]
        club: Option<String>,
        /// Country.
        #[arg(long)]
        country: Option<String>,
    },
    /// Register every player of a CSV file (header: name, rank, rating,
    /// club, country, team), all or nothing.
    Import {
        /// The tournament file.
        file: PathBuf,
        /// The CSV file.
        csv: PathBuf,
    },
    /// Mark a player absent in a future round.
    Absent {
        /// The tournament file.
        file: PathBuf,
        /// The player.
        player: String,
        /// The round.
        #[arg(long)]
        round: u32,
    },
    /// List the players.
    List {
        /// The tournament file.
        file: PathBuf,
    },
}

/// `teams …`.
#[derive(clap::Subcommand)]
pub enum TeamsCommand {
    /// Register a team of registered players, in board order.
    Add {
        /// The tournament file.
        file: PathBuf,
        /// Team name.
        #[arg(long)]
        name: String,
        /// Members (numbers or names) in board order, comma-separated.
        #[arg(long, value_delimiter = ',')]
        members: Vec<String>,
    },
}

/// `new`.
#[derive(clap::Args)]
pub struct NewArgs {
    /// The tournament file to create.
    file: PathBuf,
    /// The event's name.
    #[arg(long)]
    name: String,
    /// swiss, mcmahon, round-robin, knockout, swiss-elimination, best-of, relay.
    #[arg(long)]
    system: String,
    /// The game: weiqi (the default), xiangqi, chess or junqi. Sets how
    /// points are shown (chess 1/½/0, the others 2/1/0), the colours'
    /// names, strict colour alternation (chess, xiangqi) and the game's
    /// own tie-breaks; results are entered by hand.
    #[arg(long, default_value = "weiqi")]
    game: String,
    /// Rounds (Swiss, McMahon).
    #[arg(long)]
    rounds: Option<u32>,
    /// Round robin cycles (1 single, 2 double, …).
    #[arg(long, default_value_t = 1)]
    cycles: u8,
    /// Losses that put a player out (knockout: 1 single, 2 double…; Swiss elimination).
    #[arg(long, default_value_t = 1)]
    losses: u8,
    /// Games of a best-of-N match (3 to 7, or 10).
    #[arg(long, default_value_t = 3)]
    games: u8,
    /// McMahon bar.
    #[arg(long, default_value = "3d")]
    bar: String,
    /// McMahon floor.
    #[arg(long, default_value = "20k")]
    floor: String,
    /// McMahon handicap basis: mms or rank.
    #[arg(long, default_value = "mms")]
    handicap_basis: String,
    /// Handicap correction.
    #[arg(long, default_value_t = 0)]
    correction: u8,
    /// Handicap ceiling (0: even games).
    #[arg(long, default_value_t = 0)]
    ceiling: u8,
    /// No handicap among players at or above this rank (OpenGotha's
    /// handicap-free top group).
    #[arg(long)]
    no_handicap_from: Option<String>,
    /// Team event with this many boards per match (all-play-all: players
    /// a side; total-score: members whose points count for the team).
    #[arg(long)]
    boards: Option<u8>,
    /// Team format (needs --boards): fixed (分台定人制, the default),
    /// substitutes (定台换人制), per-match (临场出人制), all-play-all
    /// (全队轮赛制: each player meets every player of the other team), or
    /// total-score (队员总分制: players paired as individuals, teams ranked by
    /// their members' points).
    #[arg(long, visible_alias = "lineup")]
    team_format: Option<String>,
    /// Standings order, comma-separated (default per system): points, mms,
    /// sb, sos, sos-1, sosos, sodos, cuss, direct, warnings, total,
    /// board-points, boards, progress, wins, second-mover-wins.
    #[arg(long, value_delimiter = ',')]
    criteria: Vec<String>,
    /// Remaining ties: shared, playoff or lots.
    #[arg(long, default_value = "shared")]
    ties: String,
    /// Colours of even games: balanced or nigiri.
    #[arg(long, alias = "colours", default_value = "balanced")]
    colors: String,
    /// Score group seeding: slide or fold.
    #[arg(long, default_value = "slide")]
    seeding: String,
    /// Swiss and McMahon pairing: shoutan (its own cost model) or opengotha
    /// (OpenGotha's weights and procedure, with OpenGotha's default
    /// parameters for the system).
    #[arg(long, default_value = "shoutan")]
    pairing: String,
    /// Rank certification (段级位赛): games over the board a player needs to
    /// be promoted (with --certify-rate).
    #[arg(long)]
    certify_games: Option<u32>,
    /// Rank certification: the winning rate needed, in percent.
    #[arg(long, default_value_t = 50)]
    certify_rate: u8,
    /// Rank certification: only games against opponents of at least this
    /// rank count.
    #[arg(long)]
    certify_opponents_from: Option<String>,
    /// Rank certification: grades gained.
    #[arg(long, default_value_t = 1)]
    certify_grades: u8,
    /// Rank certification: the highest rank granted.
    #[arg(long, default_value = "7d")]
    certify_highest: String,
    /// Avoid pairing players of one club.
    #[arg(long)]
    avoid_club: bool,
    /// Avoid pairing players of one country.
    #[arg(long)]
    avoid_country: bool,
    /// Team total score: never pair teammates while avoidable (Swiss,
    /// McMahon); in a round robin they meet in round 1.
    #[arg(long)]
    avoid_teammates: bool,
    /// Points for a bye (default: 2 in Swiss-like systems, 0 in round robin).
    #[arg(long)]
    bye_points: Option<u8>,
    /// Value a withdrawn player's unplayed games by the 1988 rule in opponents' tie-breaks.
    #[arg(long)]
    withdrawn_1988: bool,
    /// Seed of every random draw (nigiri, lots); recorded in the file.
    #[arg(long)]
    seed: Option<u64>,
    /// Place.
    #[arg(long)]
    place: Option<String>,
    /// Dates (2026-05-01 or 2026-05-01,2026-05-03).
    #[arg(long)]
    dates: Option<String>,
    /// Komi as stated.
    #[arg(long)]
    komi: Option<String>,
    /// Time control as stated.
    #[arg(long)]
    time: Option<String>,
    /// Overwrite an existing file.
    #[arg(long)]
    force: bool,
}

/// Runs one tournament command.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::New(args) => new(*args),
        Command::Players(cmd) => players(cmd),
        Command::Teams(TeamsCommand::Add {
            file,
            name,
            members,
        }) => change(&file, |t| {
            let ids = members
                .iter()
                .map(|m| t.find_player(m))
                .collect::<Result<Vec<_>, _>>()?;
            let id = t.add_team(&name, &ids)?;
            Ok(format!("team {id}: {name} ({} members)", ids.len()))
        }),
        Command::Lineup {
            file,
            round,
            team,
            players,
        } => change(&file, |t| {
            let team = t.find_team(&team)?;
            let ids = players
                .iter()
                .map(|m| t.find_player(m))
                .collect::<Result<Vec<_>, _>>()?;
            t.set_lineup(round, team, &ids)?;
            Ok(format!("line-up set for round {round}"))
        }),
        Command::Pair { file, round } => change(&file, |t| {
            let number = round.unwrap_or_else(|| t.next_round());
            t.pair_round(number)?;
            Ok(report::pairings(t, number, Format::Markdown))
        }),
        Command::Unpair { file } => change(&file, |t| {
            Ok(format!("round {} removed", t.unpair_last_round()?))
        }),
        Command::Result {
            file,
            round,
            table,
            result,
        } => change(&file, |t| {
            let outcome = t.settings().discipline.parse_result(&result)?;
            let round = round_or_last(t, round)?;
            t.record(round, table, outcome)?;
            let text = t.settings().discipline.result_text(outcome);
            Ok(format!("round {round} table {table}: {text}"))
        }),
        Command::Warn {
            file,
            round,
            table,
            player,
        } => change(&file, |t| {
            let round = round_or_last(t, round)?;
            let id = t.find_player(&player)?;
            let n = t.warn(round, table, id)?;
            let name = t.player(id).map_or_else(String::new, |p| p.name.clone());
            let mut msg = format!("{name}: warning {n} in round {round} table {table}");
            if n >= 2 {
                msg.push_str(" (a second warning in one game loses it under the Chinese rules: record it with `ruling … loss-<colour>`)");
            }
            Ok(msg)
        }),
        Command::Ruling {
            file,
            round,
            table,
            ruling,
            reason,
        } => change(&file, |t| {
            let round = round_or_last(t, round)?;
            let ruling = parse_ruling(&ruling)?;
            t.rule(round, table, ruling, &reason)?;
            Ok(format!("round {round} table {table}: {ruling:?} recorded"))
        }),
        Command::Note {
            file,
            text,
            round,
            table,
        } => change(&file, |t| {
            anyhow::ensure!(!text.trim().is_empty(), "the note is empty");
            t.note(round, table, &text);
            Ok("note added".into())
        }),
        Command::Withdraw { file, who } => change(&file, |t| {
            let entrant = if t.entrants_are_teams() && t.settings().system != System::Relay {
                t.find_team(&who).map(Entrant::Team)?
            } else if t.team_format() == Some(TeamFormat::TotalScore) {
                match t.find_player(&who) {
                    Ok(p) => Entrant::Player(p),
                    Err(e) => t.find_team(&who).map(Entrant::Team).map_err(|_| e)?,
                }
            } else {
                t.find_player(&who).map(Entrant::Player)?
            };
            t.withdraw(entrant)?;
            Ok(format!(
                "{} withdrawn from round {} on",
                t.entrant_name(entrant),
                t.next_round()
            ))
        }),
        Command::LevelPoints { file } => {
            let t = load(&file)?;
            let after = level_points::after_event(&t);
            let level = |v| level_points::level(v).map_or("-".to_owned(), |l| format!("{l}级"));
            for (p, points) in t.players().iter().zip(after) {
                let before = Value::int(p.rating.map_or(0, i64::from));
                println!(
                    "{:4}  {:<24} {:>8} → {:>8} ({:+}) {}",
                    p.id.to_string(),
                    p.name,
                    before.to_f64(),
                    points.to_f64(),
                    (points - before).to_f64(),
                    level(points)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Standings {
            file,
            after,
            format,
            output,
        } => {
            let t = load(&file)?;
            let s = match after {
                Some(r) => {
                    anyhow::ensure!(
                        r >= 1 && r as usize <= t.rounds().len(),
                        "round {r} has not been paired"
                    );
                    t.standings_after(r)
                }
                None => t.standings(),
            };
            emit(
                &report::standings(&t, &s, parse_format(&format)?),
                output.as_deref(),
            )
        }
        Command::Show {
            file,
            round,
            format,
        } => {
            let t = load(&file)?;
            let format = parse_format(&format)?;
            match round {
                Some(r) => {
                    anyhow::ensure!(
                        r >= 1 && r as usize <= t.rounds().len(),
                        "round {r} has not been paired"
                    );
                    emit(&report::pairings(&t, r, format), None)
                }
                None => emit(&summary(&t), None),
            }
        }
        Command::Export {
            file,
            format,
            output,
        } => {
            let t = load(&file)?;
            let text = match format.to_lowercase().as_str() {
                "opengotha" | "xml" => {
                    anyhow::ensure!(
                        !t.entrants_are_teams(),
                        "OpenGotha export is for individual events"
                    );
                    opengotha::export(&t)
                }
                "h9" | "egf" => {
                    anyhow::ensure!(
                        !t.entrants_are_teams(),
                        "EGF results are for individual events"
                    );
                    h9::export(&t)
                }
                "trf" => {
                    anyhow::ensure!(!t.entrants_are_teams(), "TRF-16 is for individual events");
                    trf::export(&t)
                }
                "html" => report::standings(&t, &t.standings(), Format::Html),
                "md" | "markdown" => report::standings(&t, &t.standings(), Format::Markdown),
                "json" => t.to_json()?,
                other => bail!(
                    "unknown export format {other:?} (expected opengotha, h9, trf, html, md or json)"
                ),
            };
            emit(&text, output.as_deref())
        }
        Command::Import {
            opengotha: xml,
            file,
            force,
            pairing,
        } => {
            refuse_overwrite(&file, force)?;
            let model = pairing_model(&pairing)?;
            let text = std::fs::read_to_string(&xml)
                .with_context(|| format!("reading {}", xml.display()))?;
            let mut t = opengotha::import(&text)?;
            let mut settings = t.settings().clone();
            settings.pairing_model = model;
            t.set_settings(settings)?;
            file::save(&file, &t)?;
            println!(
                "{}: {} players, {} rounds imported",
                file.display(),
                t.players().len(),
                t.rounds().len()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn load(path: &Path) -> anyhow::Result<Tournament> {
    Ok(file::load(path)?)
}

/// Loads, applies `f`, saves atomically only if `f` succeeded.
fn change(
    path: &Path,
    f: impl FnOnce(&mut Tournament) -> anyhow::Result<String>,
) -> anyhow::Result<ExitCode> {
    let mut t = load(path)?;
    let message = f(&mut t)?;
    file::save(path, &t)?;
    println!("{}", message.trim_end());
    Ok(ExitCode::SUCCESS)
}

fn emit(text: &str, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    match output {
        Some(path) => {
            file::write_atomic(path, text)?;
            println!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn round_or_last(t: &Tournament, round: Option<u32>) -> anyhow::Result<u32> {
    match round {
        Some(r) => Ok(r),
        None if t.rounds().is_empty() => bail!("no round has been paired yet"),
        None => Ok(t.rounds().len() as u32),
    }
}

fn refuse_overwrite(path: &Path, force: bool) -> anyhow::Result<()> {
    if path.exists() && !force {
        bail!("{} exists (use --force to overwrite it)", path.display());
    }
    Ok(())
}

fn parse_format(s: &str) -> anyhow::Result<Format> {
    match s.to_lowercase().as_str() {
        "md" | "markdown" | "text" => Ok(Format::Markdown),
        "html" => Ok(Format::Html),
        other => bail!("unknown format {other:?} (expected md or html)"),
    }
}

fn parse_ruling(s: &str) -> anyhow::Result<Ruling> {
    Ok(match s.to_lowercase().replace('_', "-").as_str() {
        "draw" | "jigo" => Ruling::Draw,
        "replay" => Ruling::Replay,
        "both-lose" => Ruling::BothLose,
        "void" => Ruling::Void,
        "forfeit-black" => Ruling::Forfeit(Color::Black),
        "forfeit-white" => Ruling::Forfeit(Color::White),
        "loss-black" => Ruling::Loss(Color::Black),
        "loss-white" => Ruling::Loss(Color::White),
        other => bail!(
            "unknown ruling {other:?} (expected draw, replay, both-lose, void, forfeit-black, forfeit-white, loss-black or loss-white)"
        ),
    })
}

fn pairing_model(s: &str) -> anyhow::Result<PairingModel> {
    match s.to_lowercase().as_str() {
        "shoutan" => Ok(PairingModel::Shoutan),
        "opengotha" | "gotha" => Ok(PairingModel::OpenGotha),
        other => bail!("unknown pairing model {other:?} (expected shoutan or opengotha)"),
    }
}

fn rank(s: &str) -> anyhow::Result<Rank> {
    Ok(s.parse::<Rank>()?)
}

fn new(a: NewArgs) -> anyhow::Result<ExitCode> {
    refuse_overwrite(&a.file, a.force)?;
    let system = match a.system.to_lowercase().replace('_', "-").as_str() {
        "swiss" => System::Swiss,
        "swiss-elimination" => System::SwissElimination { losses: a.losses },
        "mcmahon" => System::McMahon(McMahon {
            bar: rank(&a.bar)?,
            floor: rank(&a.floor)?,
            handicap: HandicapRule {
                basis: match a.handicap_basis.to_lowercase().as_str() {
                    "mms" => HandicapBasis::Mms,
                    "rank" => HandicapBasis::Rank,
                    other => bail!("unknown handicap basis {other:?} (expected mms or rank)"),
                },
                correction: a.correction,
                ceiling: a.ceiling,
                no_handicap_from: a.no_handicap_from.as_deref().map(rank).transpose()?,
            },
        }),
        "round-robin" | "rr" => System::RoundRobin { cycles: a.cycles },
        "knockout" | "ko" => System::Knockout { losses: a.losses },
        "best-of" | "match" => System::BestOf { games: a.games },
        "relay" => System::Relay,
        other => bail!(
            "unknown system {other:?} (expected swiss, mcmahon, round-robin, knockout, swiss-elimination, best-of or relay)"
        ),
    };
    let format = a
        .team_format
        .as_deref()
        .map(str::parse::<TeamFormat>)
        .transpose()?;
    let teams = match (a.boards, system) {
        (Some(boards), _) => Some(TeamSettings {
            boards,
            format: format.unwrap_or_default(),
        }),
        (None, System::Relay) => Some(TeamSettings {
            boards: 1,
            format: format.unwrap_or_default(),
        }),
        (None, _) if format.is_some() => {
            bail!("--team-format needs --boards (boards per match, or players a side)")
        }
        (None, _) => None,
    };
    let discipline: Discipline = a.game.parse()?;
    let mut s = Settings::for_discipline(discipline, system, teams);
    s.rounds = a.rounds;
    if !a.criteria.is_empty() {
        s.criteria = a
            .criteria
            .iter()
            .map(|c| c.parse::<Criterion>())
            .collect::<Result<_, _>>()?;
    }
    s.ties = match a.ties.to_lowercase().as_str() {
        "shared" => TieRule::SharedPlace,
        "playoff" => TieRule::Playoff,
        "lots" => TieRule::Lots,
        other => bail!("unknown tie rule {other:?} (expected shared, playoff or lots)"),
    };
    s.colors = match a.colors.to_lowercase().as_str() {
        "balanced" => ColorRule::Balanced,
        "nigiri" => ColorRule::Nigiri,
        other => bail!("unknown colour rule {other:?} (expected balanced or nigiri)"),
    };
    s.seeding = match a.seeding.to_lowercase().as_str() {
        "slide" => Seeding::Slide,
        "fold" => Seeding::Fold,
        other => bail!("unknown seeding {other:?} (expected slide or fold)"),
    };
    s.pairing_model = pairing_model(&a.pairing)?;
    if let Some(games) = a.certify_games {
        s.certification = Some(Certification {
            min_games: games,
            min_win_percent: a.certify_rate,
            opponents_from: a.certify_opponents_from.as_deref().map(rank).transpose()?,
            grades: a.certify_grades,
            highest: rank(&a.certify_highest)?,
        });
    }
    s.avoid_same_club = a.avoid_club;
    s.avoid_same_country = a.avoid_country;
    s.avoid_teammates = a.avoid_teammates;
    if let Some(b) = a.bye_points {
        s.bye_points = b;
    }
    if a.withdrawn_1988 {
        s.withdrawn_valuation = WithdrawnValuation::Average1988;
    }
    s.seed = a.seed.unwrap_or_else(|| fastrand::u64(..));
    let mut t = Tournament::new(&a.name, s)?;
    t.set_details(a.place, a.dates, a.komi, a.time);
    file::save(&a.file, &t)?;
    println!(
        "{}: {} created (seed {})",
        a.file.display(),
        t.name(),
        t.settings().seed
    );
    Ok(ExitCode::SUCCESS)
}

fn players(cmd: PlayersCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        PlayersCommand::Add {
            file,
            name,
            rank: r,
            rating,
            club,
            country,
        } => change(&file, |t| {
            let player = NewPlayer {
                name: name.clone(),
                rank: r.as_deref().map(rank).transpose()?,
                rating,
                club,
                country,
                ..NewPlayer::default()
            };
            let id = t.add_player(player)?;
            Ok(format!("player {id}: {}", name.trim()))
        }),
        PlayersCommand::Import { file, csv: path } => change(&file, |t| {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("reading {}", path.display()))?;
            let ids = csv::import_players(t, &text)?;
            Ok(format!("{} players registered", ids.len()))
        }),
        PlayersCommand::Absent {
            file,
            player,
            round,
        } => change(&file, |t| {
            let id = t.find_player(&player)?;
            t.set_absent(id, round)?;
            Ok(format!("player {id} absent in round {round}"))
        }),
        PlayersCommand::List { file } => {
            let t = load(&file)?;
            let mut out = String::from(
                "| No | Name | Rank | Rating | Club | Country | Status |\n|---|---|---|---|---|---|---|\n",
            );
            for p in t.players() {
                let status = p
                    .withdrawn_from
                    .map_or_else(String::new, |r| format!("withdrawn from round {r}"));
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {status} |\n",
                    p.id,
                    p.name,
                    p.rank.map_or_else(String::new, |r| r.to_string()),
                    p.rating.map_or_else(String::new, |r| r.to_string()),
                    p.club.as_deref().unwrap_or(""),
                    p.country.as_deref().unwrap_or("")
                ));
            }
            emit(&out, None)
        }
    }
}

fn summary(t: &Tournament) -> String {
    let s = t.settings();
    let mut out = format!("# {}\n\n", t.name());
    out.push_str(&format!("- system: {:?}\n", s.system));
    if let Some(teams) = s.teams {
        out.push_str(&format!(
            "- teams: {} ({} {})\n",
            teams.format,
            teams.boards,
            match teams.format {
                TeamFormat::AllPlayAll => "players a side",
                TeamFormat::TotalScore => "members counted",
                _ => "boards",
            }
        ));
    }
    if let Some(r) = s.rounds {
        out.push_str(&format!("- rounds planned: {r}\n"));
    }
    out.push_str(&format!(
        "- standings: {}\n",
        s.criteria
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str(&format!(
        "- entrants: {} players, {} teams\n",
        t.players().len(),
        t.teams().len()
    ));
    out.push_str(&format!("- rounds paired: {}\n", t.rounds().len()));
    if let Some(last) = t.rounds().last() {
        out.push_str(&format!(
            "- results missing in round {}: {}\n",
            last.number,
            last.pending().count()
        ));
    }
    for n in t.notes() {
        let at = match (n.round, n.table) {
            (Some(r), Some(tb)) => format!("round {r} table {tb}: "),
            (Some(r), None) => format!("round {r}: "),
            _ => String::new(),
        };
        out.push_str(&format!("- note: {at}{}\n", n.text));
    }
    out
}
