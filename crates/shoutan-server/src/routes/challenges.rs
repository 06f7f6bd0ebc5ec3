//! Challenges: make one (open or to a named player), accept one (the game
//! starts), withdraw one. A rengo or a simul is a challenge of several
//! seats: each player who accepts takes one (and may leave it), and the
//! last seat taken starts the games.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use shoutan_store::{
    Challenge, ChallengeId, Joined, NewChallenge, NewGame, Starting, StoreError, User,
};

use crate::AppState;
use crate::accounts::session::{LoggedIn, Visitor};
use crate::error::{ApiError, ErrorCode};
use crate::extract::{Body, Id};
use crate::lobby::{
    ChallengeView, LiveGameView, StoredChallenge, check_live_games, visible_challenges,
};
use crate::rank_rule::shown_rank;
use crate::settings::{ChallengeRequest, ChallengeSettings, GameSettings, Mode, Seat};
use crate::time;

/// Open challenges a player may have at once.
const MAX_OPEN: usize = 10;

/// The open challenges the caller may see.
pub async fn list(
    State(app): State<AppState>,
    Visitor(user): Visitor,
) -> Result<Json<Vec<ChallengeView>>, ApiError> {
    Ok(Json(visible_challenges(&app, user.map(|u| u.id)).await?))
}

/// Makes a challenge.
pub async fn create(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Body(request): Body<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let settings = request.check()?;
    check_live_games(&app, &[&user])?;
    if let Mode::Simul { boards } = settings.mode {
        let playing = app.lobby.games_of(user.id).len();
        let max = app.config.max_live_games;
        if playing + usize::try_from(boards).unwrap_or(usize::MAX) > max {
            return Err(ApiError::conflict(
                ErrorCode::TooManyGames,
                format!(
                    "a simul of {boards} boards and your {playing} live games are more than a player may have at once ({max})"
                ),
            ));
        }
    }
    let opponent = match &request.opponent {
        None => None,
        Some(name) => {
            let opponent = app
                .store
                .user_by_name(name)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("no player {name:?}")))?;
            if opponent.id == user.id {
                return Err(ApiError::bad_request(
                    ErrorCode::SelfChallenge,
                    "you cannot challenge yourself",
                ));
            }
            if app.computer.level_of(opponent.id).is_some() {
                return Err(ApiError::bad_request(
                    ErrorCode::ComputerOpponent,
                    "to play the computer, POST /api/computer/games with a level",
                ));
            }
            refuse_blocked(&app, &user, opponent.id).await?;
            Some(opponent.id)
        }
    };
    let mine = app
        .store
        .open_challenges()
        .await?
        .iter()
        .filter(|c| c.challenger.id == user.id)
        .count();
    if mine >= MAX_OPEN {
        return Err(ApiError::conflict(
            ErrorCode::TooManyChallenges,
            format!("you have {MAX_OPEN} open challenges; withdraw one first"),
        ));
    }
    let stored = StoredChallenge {
        settings,
        challenger_rank: shown_rank(&user),
    };
    let challenge = app
        .store
        .create_challenge(NewChallenge {
            challenger: user.id,
            opponent,
            seats: stored.settings.mode.seats(),
            settings: serde_json::to_string(&stored).map_err(ApiError::internal)?,
            created_at: time::now_millis(),
        })
        .await?;
    let view = ChallengeView::of(&challenge)?;
    app.lobby.challenge_opened(view.clone());
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// 403 if `user` or `other` blocked the other: no challenges, no games.
async fn refuse_blocked(app: &AppState, user: &User, other: i64) -> Result<(), ApiError> {
    if app.store.blocked(user.id, other).await? {
        return Err(ApiError::forbidden(
            ErrorCode::Blocked,
            "one of you has blocked the other: no challenges between you",
        ));
    }
    Ok(())
}

/// Accepts a challenge: the game starts, its clock runs.
pub async fn accept(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
) -> Result<Response, ApiError> {
    let challenge = app
        .store
        .challenge(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no open challenge {id}")))?;
    if challenge.challenger.id == user.id {
        return Err(ApiError::bad_request(
            ErrorCode::OwnChallenge,
            "you cannot accept your own challenge",
        ));
    }
    if challenge.opponent.as_ref().is_some_and(|o| o.id != user.id) {
        return Err(ApiError::forbidden(
            ErrorCode::NotForYou,
            "this challenge is for another player",
        ));
    }
    refuse_blocked(&app, &user, challenge.challenger.id).await?;
    let view = ChallengeView::of(&challenge)?;
    let stored: StoredChallenge =
        serde_json::from_str(&challenge.settings).map_err(ApiError::internal)?;
    let challenger = app
        .store
        .user(challenge.challenger.id)
        .await?
        .ok_or_else(|| {
            ApiError::conflict(ErrorCode::ChallengeGone, "the challenger's account is gone")
        })?;
    if stored.settings.mode != Mode::Single {
        return join(&app, &user, &challenger, &view, stored.settings).await;
    }
    let settings = GameSettings::resolve(
        &stored.settings,
        Seat::of(&challenger),
        Seat::of(&user),
        &mut fastrand::Rng::new(),
    )?;
    let starting = app.game_starts.lock().await;
    check_live_games(&app, &[&challenger, &user])?;
    let game = begin(&app, id, settings, Some(&view)).await?;
    drop(starting);
    Ok((StatusCode::CREATED, Json(game)).into_response())
}

/// Takes challenge `id` off the lobby and starts its game with `settings`:
/// its clock runs, the computer takes its seat if it has one, the lobby
/// hears of it (and that the challenge, if it `listed`, is gone).
pub(crate) async fn begin(
    app: &AppState,
    id: ChallengeId,
    settings: GameSettings,
    listed: Option<&ChallengeView>,
) -> Result<LiveGameView, ApiError> {
    let row = app
        .store
        .accept_challenge(
            id,
            NewGame {
                black: settings.black.id,
                white: settings.white.id,
                size: settings.size.get(),
                rated: settings.rated,
                settings: serde_json::to_string(&settings).map_err(ApiError::internal)?,
                simul: None,
                created_at: time::now_millis(),
            },
        )
        .await?;
    if let Some(view) = listed {
        app.lobby.challenge_closed(view);
    }
    let game = LiveGameView::of(row.id, row.created_at, &settings);
    app.games.start(row).await.map_err(ApiError::internal)?;
    app.lobby.game_started(game.clone());
    Ok(game)
}

/// Takes a seat of a rengo or a simul; the last seat starts the games
/// (201 with them), any other answers 200 with the challenge.
async fn join(
    app: &AppState,
    user: &User,
    challenger: &User,
    view: &ChallengeView,
    settings: ChallengeSettings,
) -> Result<Response, ApiError> {
    let host = Seat::of(challenger);
    let simul = view.id;
    let start: Starting = Box::new(move |c: &Challenge| start_games(&settings, host, c, simul));
    let me = serde_json::to_string(&Seat::of(user)).map_err(ApiError::internal)?;
    let starting = app.game_starts.lock().await;
    check_live_games(app, &[user])?;
    let joined = app
        .store
        .join_challenge(view.id, (user.id, me), time::now_millis(), start)
        .await?;
    let answer = match joined {
        Joined::Waiting(challenge) => {
            let view = ChallengeView::of(&challenge)?;
            app.lobby.challenge_opened(view.clone());
            (StatusCode::OK, Json(serde_json::json!({"challenge": view}))).into_response()
        }
        Joined::Started(rows) => {
            app.lobby.challenge_closed(view);
            let mut games = Vec::with_capacity(rows.len());
            for row in rows {
                let settings: GameSettings =
                    serde_json::from_str(&row.settings).map_err(ApiError::internal)?;
                let game = LiveGameView::of(row.id, row.created_at, &settings);
                app.games.start(row).await.map_err(ApiError::internal)?;
                app.lobby.game_started(game.clone());
                games.push(game);
            }
            (
                StatusCode::CREATED,
                Json(serde_json::json!({"games": games})),
            )
                .into_response()
        }
    };
    drop(starting);
    Ok(answer)
}

/// The games of a challenge whose seats are all taken: one rengo, or a
/// simul's boards (the host against each joiner, in the order they came).
fn start_games(
    settings: &ChallengeSettings,
    host: Seat,
    challenge: &Challenge,
    simul: ChallengeId,
) -> Result<Vec<NewGame>, StoreError> {
    let corrupt = |what: String| StoreError::Corrupt(format!("starting challenge {simul}: {what}"));
    let joined: Vec<Seat> = challenge
        .joined
        .iter()
        .map(|j| serde_json::from_str(&j.seat).map_err(|e| corrupt(e.to_string())))
        .collect::<Result<_, _>>()?;
    let mut rng = fastrand::Rng::new();
    let games = match settings.mode {
        Mode::Rengo => {
            let three: [Seat; 3] = joined
                .try_into()
                .map_err(|_| corrupt("a rengo needs three who join".into()))?;
            vec![
                GameSettings::resolve_rengo(settings, host, three, &mut rng)
                    .map_err(|e| corrupt(e.message))?,
            ]
        }
        Mode::Simul { .. } => joined
            .into_iter()
            .map(|opponent| {
                let mut board = GameSettings::resolve(settings, host.clone(), opponent, &mut rng)
                    .map_err(|e| corrupt(e.message))?;
                board.simul = Some(simul);
                Ok(board)
            })
            .collect::<Result<_, StoreError>>()?,
        Mode::Single => return Err(corrupt("a game of two has no seats".into())),
    };
    games
        .iter()
        .map(|g| {
            Ok(NewGame {
                black: g.black.id,
                white: g.white.id,
                size: g.size.get(),
                rated: g.rated,
                settings: serde_json::to_string(g).map_err(|e| corrupt(e.to_string()))?,
                simul: g.simul,
                created_at: time::now_millis(),
            })
        })
        .collect()
}

/// Gives up one's seat of a rengo or a simul not yet started.
pub async fn leave(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
) -> Result<Response, ApiError> {
    if !app.store.leave_challenge(id, user.id).await? {
        return Err(ApiError::conflict(
            ErrorCode::NoSeat,
            format!("you have no seat in open challenge {id}"),
        ));
    }
    if let Some(challenge) = app.store.challenge(id).await? {
        app.lobby.challenge_opened(ChallengeView::of(&challenge)?);
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Withdraws one's challenge.
pub async fn cancel(
    State(app): State<AppState>,
    LoggedIn(user): LoggedIn,
    Id(id): Id,
) -> Result<Response, ApiError> {
    let challenge = app
        .store
        .challenge(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no open challenge {id}")))?;
    if challenge.challenger.id != user.id {
        return Err(ApiError::forbidden(
            ErrorCode::NotYours,
            "only the challenger can withdraw a challenge",
        ));
    }
    if !app.store.delete_challenge(id).await? {
        return Err(ApiError::conflict(
            ErrorCode::ChallengeGone,
            format!("challenge {id} was accepted or withdrawn"),
        ));
    }
    app.lobby.challenge_closed(&ChallengeView::of(&challenge)?);
    Ok(StatusCode::NO_CONTENT.into_response())
}
