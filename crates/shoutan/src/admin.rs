//! `shoutan admin`: the operator's shell, on the database the server uses
//! (SQLite or PostgreSQL), while it runs. Roles, a one-time password reset
//! code, warnings, mutes, suspensions, bans and their lifting, the reports
//! and the audit log. Actions go through the same rules as the
//! moderators' (`shoutan_server::moderation`), as the operator: a running
//! server reads the audit log within a second and ends the games of a
//! player suspended or banned.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use shoutan_server::moderation::{self, Actor, Order};
use shoutan_store::{ActionKind, ActionRow, Database, Role, Store, User};

use crate::database::Location;

/// Arguments of `admin`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    location: Location,
    #[command(subcommand)]
    command: AdminCommand,
}

/// What the operator does.
#[derive(clap::Subcommand)]
enum AdminCommand {
    /// Give a player a role: administrator, moderator or arbiter.
    Grant { name: String, role: String },
    /// Take a role away.
    Revoke { name: String, role: String },
    /// The players holding a role.
    Staff,
    /// Print a one-time code with which the player sets a new password
    /// (on the login page, "Forgot password?"); good for a day.
    ResetPassword { name: String },
    /// Warn a player.
    Warn {
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Mute a player's chat for a time (`30m`, `12h`, `7d`, `2w`).
    Mute {
        name: String,
        #[arg(long = "for", value_parser = parse_duration)]
        duration: Duration,
        #[arg(long)]
        reason: String,
    },
    /// Keep a player out for a time; his running games are forfeited.
    Suspend {
        name: String,
        #[arg(long = "for", value_parser = parse_duration)]
        duration: Duration,
        #[arg(long)]
        reason: String,
    },
    /// Keep a player out until lifted; his running games are forfeited.
    Ban {
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Lift every mute, suspension and ban that holds against a player.
    Lift { name: String },
    /// The reports waiting (with --all, every report, newest first).
    Reports {
        #[arg(long)]
        all: bool,
    },
    /// The audit log, newest first: everyone's, or one player's.
    Log { name: Option<String> },
}

/// `30m`, `12h`, `7d` or `2w`.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{text:?}: give a unit: m, h, d or w (30m, 12h, 7d, 2w)"))?;
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?}: a number then a unit (30m, 12h, 7d, 2w)"))?;
    let unit_secs = match unit {
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => return Err(format!("{text:?}: the unit is m, h, d or w")),
    };
    Ok(Duration::from_secs(n.saturating_mul(unit_secs)))
}

/// Runs an admin command.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let database = args.location.database()?;
    if let Database::Sqlite(path) = &database
        && !path.exists()
    {
        bail!(
            "no database at {}: name the server's with --data DIR or --database URL",
            path.display()
        );
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = shoutan_store::open(&database)
            .await
            .context("opening the database")?;
        command(&store, args.command).await
    })
}

async fn player(store: &Arc<dyn Store>, name: &str) -> anyhow::Result<User> {
    store
        .user_by_name(name)
        .await?
        .with_context(|| format!("no player {name:?}"))
}

fn role(word: &str) -> anyhow::Result<Role> {
    Role::parse(word)
        .with_context(|| format!("{word:?} is no role: administrator, moderator or arbiter"))
}

async fn command(store: &Arc<dyn Store>, command: AdminCommand) -> anyhow::Result<ExitCode> {
    let now = shoutan_server::time::now_millis();
    let act = |name: String, kind: ActionKind, duration: Option<Duration>, reason: String| async move {
        let target = player(store, &name).await?;
        let order = Order {
            kind,
            reason,
            duration,
            game: None,
            report: None,
        };
        let row = moderation::act(&**store, Actor::Operator, &target, order, now)
            .await
            .map_err(refused)?;
        println!("{}", entry(&row));
        anyhow::Ok(ExitCode::SUCCESS)
    };
    match command {
        AdminCommand::Grant { name, role: word } => set_role(store, &name, &word, true).await,
        AdminCommand::Revoke { name, role: word } => set_role(store, &name, &word, false).await,
        AdminCommand::Staff => {
            for (player, roles) in store.staff().await? {
                let roles: Vec<_> = roles.iter().map(Role::as_str).collect();
                println!("{}\t{}", player.name, roles.join(", "));
            }
            Ok(ExitCode::SUCCESS)
        }
        AdminCommand::ResetPassword { name } => {
            let user = player(store, &name).await?;
            let (code, expires) = moderation::reset_code(&**store, Actor::Operator, &user, now)
                .await
                .map_err(refused)?;
            println!("{code}");
            eprintln!(
                "one-time code for {}: good until {} (it replaces any earlier code)",
                user.name,
                shoutan_server::time::utc_text(expires)
            );
            Ok(ExitCode::SUCCESS)
        }
        AdminCommand::Warn { name, reason } => act(name, ActionKind::Warning, None, reason).await,
        AdminCommand::Mute {
            name,
            duration,
            reason,
        } => act(name, ActionKind::Mute, Some(duration), reason).await,
        AdminCommand::Suspend {
            name,
            duration,
            reason,
        } => act(name, ActionKind::Suspension, Some(duration), reason).await,
        AdminCommand::Ban { name, reason } => act(name, ActionKind::Ban, None, reason).await,
        AdminCommand::Lift { name } => {
            let user = player(store, &name).await?;
            let holding: Vec<_> = store
                .actions(Some(user.id), 1000)
                .await?
                .into_iter()
                .filter(|a| a.holds(now) && a.kind != ActionKind::Warning)
                .collect();
            if holding.is_empty() {
                bail!("nothing holds against {}", user.name);
            }
            for action in holding {
                let lifted = moderation::lift(&**store, Actor::Operator, action.id, now)
                    .await
                    .map_err(refused)?;
                println!("lifted: {}", entry(&lifted));
            }
            Ok(ExitCode::SUCCESS)
        }
        AdminCommand::Reports { all } => {
            for r in store.reports(!all, 1000).await? {
                let game = r.game.map(|g| format!(" game {g}")).unwrap_or_default();
                let line = r.chat.map(|v| format!(" line {v}")).unwrap_or_default();
                let closed = r
                    .closed
                    .map(|c| format!(" [closed: {}]", c.2))
                    .unwrap_or_default();
                println!(
                    "#{} {} {} reports {} ({}){game}{line}: {}{closed}",
                    r.id,
                    shoutan_server::time::utc_text(r.at),
                    r.reporter.name,
                    r.target.name,
                    r.reason,
                    r.text
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        AdminCommand::Log { name } => {
            let user = match name {
                Some(name) => Some(player(store, &name).await?.id),
                None => None,
            };
            for row in store.actions(user, 1000).await? {
                println!("{}", entry(&row));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Grants (`held`) or revokes a role.
async fn set_role(
    store: &Arc<dyn Store>,
    name: &str,
    word: &str,
    held: bool,
) -> anyhow::Result<ExitCode> {
    let role = role(word)?;
    let user = player(store, name).await?;
    if user.roles.has(role) == held {
        println!(
            "{} {} {}",
            user.name,
            if held { "is already" } else { "is not" },
            role.as_str()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if !store
        .set_roles(user.id, user.roles.with(role, held))
        .await?
    {
        bail!("{} is gone", user.name);
    }
    println!(
        "{} {} {}",
        user.name,
        if held { "is now" } else { "is no longer" },
        role.as_str()
    );
    Ok(ExitCode::SUCCESS)
}

/// A refusal by moderation's rules, as the shell says it.
fn refused(e: shoutan_server::error::ApiError) -> anyhow::Error {
    anyhow::anyhow!("{} ({})", e.message, e.code.as_str())
}

/// An audit log entry on one line.
fn entry(row: &ActionRow) -> String {
    let by = row.by.as_ref().map_or("the operator", |b| b.name.as_str());
    let until = row
        .until
        .map(|u| format!(" until {}", shoutan_server::time::utc_text(u)))
        .unwrap_or_default();
    let lifted = if row.lifted.is_some() {
        " [lifted]"
    } else {
        ""
    };
    format!(
        "#{} {} {} {}{until} by {by}: {}{lifted}",
        row.id,
        shoutan_server::time::utc_text(row.at),
        row.kind.as_str(),
        row.user.name,
        row.reason
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_unit() {
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("12h"), Ok(Duration::from_secs(43_200)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(604_800)));
        assert_eq!(parse_duration("2w"), Ok(Duration::from_secs(1_209_600)));
        for bad in ["30", "m", "3y", "-1d", "1.5h"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
