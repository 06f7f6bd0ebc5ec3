//! The games of a round: each pairing between two players with accounts
//! becomes a server game with the event's ruleset, board, komi and clock,
//! the pairing's colours and handicap (1: 让先, black without komi; 2–9
//! stones placed as the ruleset places them).

use shoutan_rules::{Handicap, HandicapPlacement, Score};
use shoutan_store::{NewGame, NewTournamentGame, Store};
use shoutan_tournament::{Game, Round};

use super::event::Event;
use crate::error::{ApiError, ErrorCode};
use crate::rank_rule::shown_rank;
use crate::settings::{ColorDecision, GameSettings, Seat};
use crate::time;

/// The settings of a paired game between two seats.
fn settings(event: &Event, black: Seat, white: Seat, handicap: u8) -> GameSettings {
    let game = &event.config.game;
    let ruleset = game.ruleset;
    let (handicap_stones, komi) = match handicap {
        0 => (Handicap::None, game.komi.unwrap_or(ruleset.komi)),
        1 => (Handicap::None, Score::ZERO),
        n => {
            let placed = match ruleset.handicap_placement {
                HandicapPlacement::Fixed if n <= shoutan_rules::max_fixed_handicap(game.size) => {
                    Handicap::Fixed(n)
                }
                _ => Handicap::Free(n),
            };
            (placed, ruleset.komi_for(n))
        }
    };
    GameSettings {
        black,
        white,
        size: game.size,
        ruleset,
        komi,
        handicap: handicap_stones,
        time_control: game.time_control,
        time_out: game.time_out,
        rated: game.rated,
        colors: ColorDecision::Choice,
        rating_handicap: i32::from(handicap),
        partners: None,
        simul: None,
    }
}

/// The games to create for a round just paired: one per game still to be
/// played whose players both play online. Games with an account missing
/// are played over the board and entered by an arbiter.
pub async fn for_round(
    store: &dyn Store,
    event: &Event,
    round: &Round,
) -> Result<Vec<(NewTournamentGame, GameSettings)>, ApiError> {
    let mut made = Vec::new();
    for g in round.games.iter().filter(|g| g.outcome.is_none()) {
        made.extend(for_pairing(store, event, round.number, g).await?);
    }
    Ok(made)
}

/// The game to create for one pairing of round `round` (also when an
/// arbiter orders it replayed), if both its players play online and the
/// event's game is one Shoutan hosts.
pub async fn for_pairing(
    store: &dyn Store,
    event: &Event,
    round: u32,
    g: &Game,
) -> Result<Option<(NewTournamentGame, GameSettings)>, ApiError> {
    if !event.tournament.settings().discipline.rules().online {
        return Ok(None);
    }
    let (Some(b), Some(w)) = (event.account(g.black), event.account(g.white)) else {
        return Ok(None);
    };
    let seat = |user: Option<shoutan_store::User>, name: &str| -> Result<Seat, ApiError> {
        let user = user.ok_or_else(|| {
            ApiError::conflict(
                ErrorCode::AccountGone,
                format!("the account of {name} is gone"),
            )
        })?;
        Ok(Seat {
            rank: shown_rank(&user),
            id: user.id,
            name: user.name,
        })
    };
    let black = seat(store.user(b.id).await?, &b.name)?;
    let white = seat(store.user(w.id).await?, &w.name)?;
    let s = settings(event, black, white, g.handicap);
    s.new_game()?;
    Ok(Some((
        NewTournamentGame {
            round,
            table: g.table,
            game: NewGame {
                black: s.black.id,
                white: s.white.id,
                size: s.size.get(),
                rated: s.rated,
                settings: serde_json::to_string(&s).map_err(ApiError::internal)?,
                simul: None,
                created_at: time::now_millis(),
            },
        },
        s,
    )))
}
