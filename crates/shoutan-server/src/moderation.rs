//! Moderation's rules, in one place for the API and the operator's shell
//! (`shoutan admin`): who may act on whom, what an action needs, what
//! holds against an account. Suspensions and bans end running games
//! through [`crate::enforcement`].
//!
//! A moderator acts on players: not on another moderator or an
//! administrator (an administrator acts on moderators), and he lifts only
//! his own actions. The operator at the shell may do anything. Every
//! action is kept; lifting one is recorded beside it, nothing is erased.

use std::time::Duration;

use shoutan_store::moderation::{ActionId, ReportId};
use shoutan_store::{
    ActionKind, ActionRow, GameId, GameStatus, NewAction, Role, Standing, Store, User,
};

use crate::error::{ApiError, ErrorCode};

/// Who acts.
#[derive(Clone, Copy, Debug)]
pub enum Actor<'a> {
    /// The operator, at the shell: may do anything.
    Operator,
    /// A logged-in member of the staff (checked to moderate).
    Staff(&'a User),
}

impl Actor<'_> {
    fn id(self) -> Option<i64> {
        match self {
            Actor::Operator => None,
            Actor::Staff(user) => Some(user.id),
        }
    }

    /// Whether he may act on `target`: a moderator on players, an
    /// administrator on players and moderators.
    fn may_act_on(self, target: &User) -> Result<(), ApiError> {
        let Actor::Staff(me) = self else {
            return Ok(());
        };
        must_moderate(me)?;
        let protected = if me.roles.has(Role::Administrator) {
            target.roles.has(Role::Administrator)
        } else {
            target.roles.moderates()
        };
        if protected || target.id == me.id {
            return Err(ApiError::forbidden(
                ErrorCode::Protected,
                format!(
                    "{} is {}; only the operator can act on this account",
                    target.name,
                    target
                        .roles
                        .iter()
                        .map(Role::as_str)
                        .next()
                        .unwrap_or("yourself")
                ),
            ));
        }
        Ok(())
    }
}

/// 403 unless `user` is a moderator or an administrator.
pub fn must_moderate(user: &User) -> Result<(), ApiError> {
    if user.roles.moderates() {
        Ok(())
    } else {
        Err(ApiError::forbidden(
            ErrorCode::NotModerator,
            "only moderators and administrators may do this",
        ))
    }
}

/// The longest mute or suspension (a longer one is a ban).
pub const LONGEST: Duration = Duration::from_secs(365 * 24 * 3600);
/// The longest reason, in characters.
pub const MAX_REASON: usize = 500;

/// What a moderator orders.
#[derive(Clone, Debug)]
pub struct Order {
    /// What.
    pub kind: ActionKind,
    /// Why, as the player is told.
    pub reason: String,
    /// How long, for a mute or a suspension.
    pub duration: Option<Duration>,
    /// The game concerned (required for an annulment).
    pub game: Option<GameId>,
    /// The report answered (closed by the action).
    pub report: Option<ReportId>,
}

fn bad_action(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(ErrorCode::BadAction, message)
}

/// A reason as kept: one clean line of 1 to [`MAX_REASON`] characters.
pub fn clean_reason(text: &str) -> Result<String, ApiError> {
    let reason = crate::text::clean_line(text)?;
    if reason.is_empty() || reason.chars().count() > MAX_REASON {
        return Err(bad_action(format!(
            "say why, in 1 to {MAX_REASON} characters"
        )));
    }
    Ok(reason)
}

/// Records `order` against `target`, after checking that `actor` may and
/// that the order is whole; an annulment takes the game's rating changes
/// back in the same step.
pub async fn act(
    store: &dyn Store,
    actor: Actor<'_>,
    target: &User,
    order: Order,
    now: i64,
) -> Result<ActionRow, ApiError> {
    actor.may_act_on(target)?;
    let reason = clean_reason(&order.reason)?;
    let timed = matches!(order.kind, ActionKind::Mute | ActionKind::Suspension);
    let until = match (timed, order.duration) {
        (true, Some(d)) if d >= Duration::from_secs(60) && d <= LONGEST => {
            Some(now.saturating_add(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)))
        }
        (true, _) => {
            return Err(bad_action(format!(
                "a {} lasts from a minute to a year",
                order.kind.as_str()
            )));
        }
        (false, Some(_)) => {
            return Err(bad_action(format!(
                "a {} has no duration",
                order.kind.as_str()
            )));
        }
        (false, None) => None,
    };
    if let Some(report) = order.report
        && store.report(report).await?.is_none()
    {
        return Err(ApiError::not_found(format!("no report {report}")));
    }
    if order.kind == ActionKind::Annulment {
        let game = order
            .game
            .ok_or_else(|| bad_action("an annulment names its game"))?;
        annul(store, game, target).await?;
    } else if let Some(game) = order.game
        && store.game(game).await?.is_none()
    {
        return Err(ApiError::not_found(format!("no game {game}")));
    }
    Ok(store
        .record_action(NewAction {
            user: target.id,
            kind: order.kind,
            reason,
            until,
            game: order.game,
            report: order.report,
            by: actor.id(),
            at: now,
        })
        .await?)
}

/// Takes back game `game`'s rating changes (the player `target` must have
/// played it).
async fn annul(store: &dyn Store, game: GameId, target: &User) -> Result<(), ApiError> {
    let row = store
        .game(game)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {game}")))?;
    if row.black.id != target.id && row.white.id != target.id {
        return Err(bad_action(format!(
            "{} did not play game {game}",
            target.name
        )));
    }
    let not_annullable = || {
        ApiError::conflict(
            ErrorCode::NotAnnullable,
            format!("game {game} changed no ratings, or was annulled already"),
        )
    };
    let Some(summary) = row.ratings.filter(|_| row.status == GameStatus::Finished) else {
        return Err(not_annullable());
    };
    let mut value: serde_json::Value =
        serde_json::from_str(&summary).map_err(ApiError::internal)?;
    if value.get("annulled").is_some() {
        return Err(not_annullable());
    }
    let change = |color: &str| value[color]["change"].as_f64().unwrap_or(0.0);
    let changes = [
        (row.black.id, change("black")),
        (row.white.id, change("white")),
    ];
    value["annulled"] = true.into();
    if store
        .annul_rating(game, summary, value.to_string(), changes)
        .await?
    {
        Ok(())
    } else {
        Err(not_annullable())
    }
}

/// Lifts action `id`: a moderator only his own, an administrator any.
pub async fn lift(
    store: &dyn Store,
    actor: Actor<'_>,
    id: ActionId,
    now: i64,
) -> Result<ActionRow, ApiError> {
    let action = store
        .action(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no action {id}")))?;
    if let Actor::Staff(me) = actor {
        must_moderate(me)?;
        let own = action.by.as_ref().is_some_and(|by| by.id == me.id);
        if !own && !me.roles.has(Role::Administrator) {
            return Err(ApiError::forbidden(
                ErrorCode::Protected,
                "a moderator lifts only his own actions; ask an administrator",
            ));
        }
    }
    store
        .lift_action(id, actor.id(), now)
        .await?
        .ok_or_else(|| {
            ApiError::conflict(
                ErrorCode::NotLifted,
                format!("action {id} does not hold: lifted, run out, or a warning"),
            )
        })
}

/// Makes a one-time password reset code for `target` (printed by the
/// shell, shown to an administrator on the web): the code and when it
/// expires. Only administrators, and not for another administrator.
pub async fn reset_code(
    store: &dyn Store,
    actor: Actor<'_>,
    target: &User,
    now: i64,
) -> Result<(String, i64), ApiError> {
    if let Actor::Staff(me) = actor {
        if !me.roles.has(Role::Administrator) {
            return Err(ApiError::forbidden(
                ErrorCode::NotAdministrator,
                "only administrators give password reset codes",
            ));
        }
        if target.roles.has(Role::Administrator) && target.id != me.id {
            return Err(ApiError::forbidden(
                ErrorCode::Protected,
                "another administrator's code comes from the operator's shell",
            ));
        }
    }
    let code = crate::accounts::reset_code::new_code().map_err(ApiError::internal)?;
    let expires = now.saturating_add(crate::accounts::reset_code::LIFETIME_MS);
    store
        .create_reset_code(target.id, crate::accounts::reset_code::hash(&code), expires)
        .await?;
    Ok((code, expires))
}

/// The actions concerning `user` that count for his standing: the most an
/// account gathers is far below this.
const ACTIONS_READ: u32 = 1000;

/// What holds against `user` at `now`, with the actions it comes from.
async fn standing(
    store: &dyn Store,
    user: i64,
    now: i64,
) -> Result<(Standing, Vec<ActionRow>), ApiError> {
    let actions = store.actions(Some(user), ACTIONS_READ).await?;
    Ok((Standing::of(&actions, now), actions))
}

/// The latest holding action of `kind`'s reason.
fn reason_of(actions: &[ActionRow], kind: ActionKind, now: i64) -> String {
    actions
        .iter()
        .find(|a| a.kind == kind && a.holds(now))
        .map(|a| a.reason.clone())
        .unwrap_or_default()
}

/// Why `user` may not log in or play at `now`, if he may not.
pub async fn exclusion(store: &dyn Store, user: i64, now: i64) -> Result<(), ApiError> {
    let (standing, actions) = standing(store, user, now).await?;
    excluded(standing, &actions, now)
}

/// Why a suspended or banned player may not log in, play or chat.
fn excluded(standing: Standing, actions: &[ActionRow], now: i64) -> Result<(), ApiError> {
    if standing.banned {
        return Err(ApiError::forbidden(
            ErrorCode::Banned,
            format!(
                "this account is banned: {}",
                reason_of(actions, ActionKind::Ban, now)
            ),
        ));
    }
    if let Some(until) = standing.suspended_until {
        return Err(ApiError::forbidden(
            ErrorCode::Suspended,
            format!(
                "this account is suspended until {}: {}",
                crate::time::utc_text(until),
                reason_of(actions, ActionKind::Suspension, now)
            ),
        ));
    }
    Ok(())
}

/// Why `user` may not chat at `now`, if he may not (muted, or kept out).
pub async fn chat_refusal(store: &dyn Store, user: i64, now: i64) -> Result<(), ApiError> {
    let (standing, actions) = standing(store, user, now).await?;
    excluded(standing, &actions, now)?;
    match standing.muted_until {
        None => Ok(()),
        Some(until) => Err(ApiError::forbidden(
            ErrorCode::Muted,
            format!(
                "a moderator muted your chat until {}: {}",
                crate::time::utc_text(until),
                reason_of(&actions, ActionKind::Mute, now)
            ),
        )),
    }
}
