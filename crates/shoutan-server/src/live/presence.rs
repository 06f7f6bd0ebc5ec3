//! Who is at a game: the players' connections, the spectators (counted,
//! never listed), and since when an absent player has been away. The
//! actor asks it whether a claim of abandonment may be made.
//!
//! Presence is told to clients at most once per [`PRESENCE_EVERY`]: a join
//! or a leave marks it changed, and the actor sends one frame when the
//! interval is over. Without that, N connections joining one game would
//! cost N²/2 frames (each join telling everyone already there).

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;
use shoutan_clock::{Instant, Millis};
use shoutan_rules::{ByColor, Color};

/// The shortest interval between two presence frames of a game.
pub const PRESENCE_EVERY: Duration = Duration::from_secs(1);
/// Another instance's report counts this long (it refreshes it every 20 s;
/// an instance that died stops counting).
const REPORTS_KEPT: Duration = Duration::from_secs(60);

/// Connections of one server instance to a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Attendance {
    /// Each player's connections.
    pub players: ByColor<u32>,
    /// Spectators' connections.
    pub spectators: u32,
}

impl Attendance {
    fn add(&mut self, other: &Attendance) {
        self.players.black += other.players.black;
        self.players.white += other.players.white;
        self.spectators += other.spectators;
    }
}

/// Who is at a game, as its `presence` frame tells it (by default:
/// nobody known to be there).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct PresenceFrame {
    /// Whether each player is connected.
    pub online: ByColor<bool>,
    /// Since when (ms) each absent player has been gone.
    pub away_since: ByColor<Option<u64>>,
    /// When (ms) the opponent of each absent player may claim the game.
    pub claimable_at: ByColor<Option<u64>>,
    /// How many spectators watch.
    pub spectators: u32,
}

/// The presence at one game.
#[derive(Debug)]
pub struct Presence {
    /// This instance's connections.
    local: Attendance,
    /// Other instances' connections, as they last reported them, and when.
    remote: HashMap<String, (Attendance, tokio::time::Instant)>,
    away_since: ByColor<Option<Instant>>,
    changed: bool,
    last_sent: Option<tokio::time::Instant>,
}

impl Presence {
    /// Nobody there yet: both players away since `now`.
    #[must_use]
    pub fn new(now: Instant) -> Presence {
        Presence {
            local: Attendance::default(),
            remote: HashMap::new(),
            away_since: ByColor::new(Some(now), Some(now)),
            changed: false,
            last_sent: None,
        }
    }

    /// Every connection, on this instance and the others.
    #[must_use]
    pub fn total(&self) -> Attendance {
        let mut all = self.local;
        let fresh = tokio::time::Instant::now().checked_sub(REPORTS_KEPT);
        for (other, at) in self.remote.values() {
            if fresh.is_none_or(|fresh| *at >= fresh) {
                all.add(other);
            }
        }
        all
    }

    /// This instance's connections.
    #[must_use]
    pub fn local(&self) -> Attendance {
        self.local
    }

    /// A connection joined as `color` (a spectator when `None`).
    pub fn join(&mut self, color: Option<Color>, now: Instant) {
        match color {
            Some(c) => self.local.players[c] += 1,
            None => self.local.spectators += 1,
        }
        self.settle_away(now);
    }

    /// A connection left.
    pub fn leave(&mut self, color: Option<Color>, now: Instant) {
        match color {
            Some(c) => self.local.players[c] = self.local.players[c].saturating_sub(1),
            None => self.local.spectators = self.local.spectators.saturating_sub(1),
        }
        self.settle_away(now);
    }

    /// Another instance's connections, as it reports them.
    pub fn report(&mut self, instance: &str, attendance: Attendance, now: Instant) {
        if attendance == Attendance::default() {
            self.remote.remove(instance);
        } else {
            self.remote.insert(
                instance.to_owned(),
                (attendance, tokio::time::Instant::now()),
            );
        }
        self.settle_away(now);
    }

    /// The other instances that serve connections to the game.
    #[must_use]
    pub fn other_instances(&self) -> Vec<String> {
        self.remote.keys().cloned().collect()
    }

    fn settle_away(&mut self, now: Instant) {
        let total = self.total();
        for c in Color::ALL {
            let away = &mut self.away_since[c];
            match (total.players[c] > 0, *away) {
                (true, _) => *away = None,
                (false, None) => *away = Some(now),
                (false, Some(_)) => {}
            }
        }
        self.changed = true;
    }

    /// Whether `color` has a connection open.
    #[must_use]
    pub fn is_online(&self, color: Color) -> bool {
        self.away_since[color].is_none()
    }

    /// Since when `color` has been away.
    #[must_use]
    pub fn away_since(&self, color: Color) -> Option<Instant> {
        self.away_since[color]
    }

    /// Whether nobody at all is connected.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.total() == Attendance::default()
    }

    /// When the next presence frame is due, if one is.
    #[must_use]
    pub fn due(&self) -> Option<tokio::time::Instant> {
        self.changed.then(|| {
            self.last_sent
                .map_or_else(tokio::time::Instant::now, |t| t + PRESENCE_EVERY)
        })
    }

    /// The frame to send now (and the change is then told), with the claim
    /// times `claimable_at` gives for each absent player.
    pub fn frame(&mut self, claimable_at: impl Fn(Color) -> Option<Instant>) -> PresenceFrame {
        self.changed = false;
        self.last_sent = Some(tokio::time::Instant::now());
        self.snapshot(claimable_at)
    }

    /// The presence as it is, without marking it told (for a welcome).
    #[must_use]
    pub fn snapshot(&self, claimable_at: impl Fn(Color) -> Option<Instant>) -> PresenceFrame {
        let total = self.total();
        PresenceFrame {
            online: total.players.map(|n| n > 0),
            away_since: self.away_since.map(|t| t.map(Instant::as_millis)),
            claimable_at: ByColor::of(|c| claimable_at(c).map(Instant::as_millis)),
            spectators: total.spectators,
        }
    }

    /// When the opponent of `absent` may claim the game: `wait` after he
    /// left, or sooner if he had less time than that left (`time_left`).
    #[must_use]
    pub fn claimable_at(&self, absent: Color, wait: Millis, time_left: Millis) -> Option<Instant> {
        let since = self.away_since[absent]?;
        Some(since + wait.min(time_left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_absence() {
        let t0 = Instant::from_millis(1_000);
        let mut p = Presence::new(t0);
        assert!(!p.is_online(Color::Black));
        p.join(Some(Color::Black), t0 + Millis::from_secs(1));
        p.join(None, t0 + Millis::from_secs(1));
        p.join(None, t0 + Millis::from_secs(1));
        assert!(p.is_online(Color::Black));
        assert_eq!(p.away_since(Color::White), Some(t0));
        p.report(
            "b",
            Attendance {
                players: ByColor::new(0, 1),
                spectators: 3,
            },
            t0,
        );
        assert!(
            p.is_online(Color::White),
            "a connection on another instance counts"
        );
        assert_eq!(p.total().spectators, 5);
        p.leave(Some(Color::Black), t0 + Millis::from_secs(9));
        assert_eq!(p.away_since(Color::Black), Some(t0 + Millis::from_secs(9)));
        let claim = p.claimable_at(Color::Black, Millis::from_secs(120), Millis::from_secs(30));
        assert_eq!(
            claim,
            Some(t0 + Millis::from_secs(39)),
            "his time left is shorter"
        );
        p.report("b", Attendance::default(), t0 + Millis::from_secs(10));
        assert!(!p.is_online(Color::White));
        assert_eq!(p.total().spectators, 2);
    }

    #[tokio::test(start_paused = true)]
    async fn frames_are_coalesced_to_one_per_interval() {
        let t0 = Instant::from_millis(1_000);
        let mut p = Presence::new(t0);
        assert_eq!(p.due(), None, "nothing changed yet");
        for _ in 0..1000 {
            p.join(None, t0);
        }
        let first = p.due().expect("a change is due");
        assert!(
            first <= tokio::time::Instant::now(),
            "the first frame goes at once"
        );
        let frame = p.frame(|_| None);
        assert_eq!(frame.spectators, 1000);
        for _ in 0..1000 {
            p.join(None, t0);
        }
        let next = p.due().expect("a change is due");
        assert_eq!(
            next,
            tokio::time::Instant::now() + PRESENCE_EVERY,
            "then one per interval"
        );
    }
}
