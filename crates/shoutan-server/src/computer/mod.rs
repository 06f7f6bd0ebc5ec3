//! "Play the computer": built-in accounts, one per level of the engine
//! (`Shoutan-AI-1` … `Shoutan-AI-10`), that a player challenges from the
//! lobby and that play at once. Each computer seat is played by a task
//! that joins the game like a connection and sends commands through the
//! game's actor like any player; only its thinking runs elsewhere — on
//! tokio's blocking threads, at most one search per core at a time (a
//! semaphore), so that the server stays responsive however many people
//! play the computer.

pub mod budget;
mod player;

use std::collections::BTreeMap;
use std::sync::Arc;

use shoutan_engine::Level;
use shoutan_nn::Network;
use shoutan_rules::Color;
use shoutan_store::{NewUser, Store, StoreError, User, UserId, name_key, name_skeleton};
use tokio::sync::{Semaphore, mpsc};

use crate::live::handle::GameHandle;
use crate::live::registry::Opened;
use crate::rating::newcomer;
use crate::settings::GameSettings;
use crate::time;

/// The start of every computer account's name; people cannot register
/// names that begin with it.
pub const NAME_PREFIX: &str = "Shoutan-AI-";

/// The stored password hash of a computer account: no PHC string, so no
/// password logs in as the computer.
const NO_PASSWORD: &str = "!computer";

/// Whether `name` is reserved for the computer.
#[must_use]
pub fn is_reserved(name: &str) -> bool {
    name_key(name).starts_with(&name_key(NAME_PREFIX))
        || name_skeleton(name).starts_with(&name_skeleton(NAME_PREFIX))
}

/// The computer players and the pool their searches share.
pub struct Computer {
    accounts: BTreeMap<Level, User>,
    levels: BTreeMap<UserId, Level>,
    pool: Arc<Semaphore>,
    network: Arc<Network>,
}

impl Computer {
    /// Finds (or, on the first start, makes) the account of every level,
    /// declaring the rank the level measured (an account made before a new
    /// measurement declares the new rank; its rating moves with its games
    /// as before); searches run `workers` at a time, with `network`.
    pub async fn open(
        store: &dyn Store,
        workers: usize,
        network: Arc<Network>,
    ) -> Result<Computer, StoreError> {
        let mut accounts = BTreeMap::new();
        for n in 1..=10u8 {
            let level = Level::new(n).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let rank = level.declared_rank();
            let name = format!("{NAME_PREFIX}{n}");
            let user = match store.user_by_name(&name).await? {
                Some(mut user) => {
                    if user.declared_rank != rank && store.set_declared_rank(user.id, rank).await? {
                        user.declared_rank = rank;
                    }
                    user
                }
                None => match store
                    .create_user(NewUser {
                        name: name.clone(),
                        password_hash: NO_PASSWORD.into(),
                        declared_rank: rank,
                        rating: newcomer(rank),
                        created_at: time::now_millis(),
                    })
                    .await
                {
                    Ok(user) => user,
                    // Another server instance on the same database was first.
                    Err(StoreError::NameTaken(_) | StoreError::NameConfusable(_)) => store
                        .user_by_name(&name)
                        .await?
                        .ok_or_else(|| StoreError::Corrupt(format!("{name} vanished")))?,
                    Err(e) => return Err(e),
                },
            };
            accounts.insert(level, user);
        }
        let levels = accounts.iter().map(|(&level, u)| (u.id, level)).collect();
        Ok(Computer {
            accounts,
            levels,
            pool: Arc::new(Semaphore::new(workers.max(1))),
            network,
        })
    }

    /// The account of `level`.
    #[must_use]
    pub fn account(&self, level: Level) -> Option<&User> {
        self.accounts.get(&level)
    }

    /// Every level and its account, weakest first.
    pub fn accounts(&self) -> impl Iterator<Item = (Level, &User)> {
        self.accounts.iter().map(|(&level, user)| (level, user))
    }

    /// The level of `user`, if the user is the computer.
    #[must_use]
    pub fn level_of(&self, user: UserId) -> Option<Level> {
        self.levels.get(&user).copied()
    }

    /// Takes the computer's seats of every live game opened here, as the
    /// games publish them.
    pub async fn seat_players(self: Arc<Self>, mut opened: mpsc::UnboundedReceiver<Opened>) {
        while let Some(game) = opened.recv().await {
            self.take_seats(&game.handle, &game.settings);
        }
    }

    /// Starts the computer's play in a game that has a computer seat (a new
    /// one, or one restored after a restart); nothing otherwise.
    fn take_seats(&self, handle: &GameHandle, settings: &GameSettings) {
        for color in Color::ALL {
            let seat = settings.seat(color);
            if let Some(level) = self.level_of(seat.id) {
                let player = player::ComputerPlayer::new(
                    handle.clone(),
                    (seat.id, seat.name.clone()),
                    color,
                    level,
                    Arc::clone(&self.pool),
                    Arc::clone(&self.network),
                );
                tokio::spawn(player.run());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computer_names_are_reserved_in_any_case() {
        assert!(is_reserved("Shoutan-AI-3"));
        assert!(is_reserved("shoutan-ai-x"));
        assert!(!is_reserved("Shoutan"));
        assert!(!is_reserved("AI-Shoutan"));
        // Look-alikes of the prefix: a Cyrillic Ѕ, a lower-case L for the I.
        assert!(is_reserved("\u{405}houtan-AI-11"));
        assert!(is_reserved("Shoutan-Al-x"));
    }
}
