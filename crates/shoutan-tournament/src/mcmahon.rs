//! McMahon scores, as European events and OpenGotha count them
//! (docs/spec/formats.md): a start from rank between floor and bar, 1 per win,
//! ½ per jigo, 1 per bye, ½ per absent round (rounded down), nothing for a
//! round the player took part in without being paired.

use shoutan_rules::Rank;

use crate::history::{Entry, History};
use crate::{McMahon, PlayerId, Tournament};

/// The starting McMahon score: the rank clamped between floor and bar, on
/// the EGF scale where 30k is 0 and 1d is 30.
#[must_use]
pub fn start_mms(rank: Option<Rank>, m: McMahon) -> i64 {
    let level = rank.map_or(m.floor.level(), Rank::level);
    i64::from(level.clamp(m.floor.level(), m.bar.level()) + 30)
}

/// Twice the McMahon score of entrant `i` after `upto` rounds.
pub(crate) fn mms_half(t: &Tournament, history: &History, m: McMahon, i: usize, upto: u32) -> i64 {
    let player = t.player(PlayerId(i as u32));
    let mut half = start_half(t, m, i);
    let mut absent = 0;
    for (round, entry) in (1..).zip(history.rows[i].iter().take(upto as usize)) {
        match entry {
            Entry::Game(g) => half += i64::from(g.result.map_or(0, crate::PlayerResult::points)),
            Entry::Bye(p) => half += i64::from(*p),
            // Declared absent or withdrawn; a player taking part but left
            // unpaired (only in files from elsewhere) scores nothing, as in
            // OpenGotha.
            Entry::Absent if player.is_none_or(|p| !p.plays_in(round)) => absent += 1,
            Entry::Absent => {}
        }
    }
    // ½ per absent round, the running total rounded down.
    half + 2 * (absent / 2)
}

/// Twice the starting score of entrant `i`: from the rank, with the
/// arbiter's correction (OpenGotha's `smmsCorrection`).
pub(crate) fn start_half(t: &Tournament, m: McMahon, i: usize) -> i64 {
    let player = t.player(PlayerId(i as u32));
    let correction = player.map_or(0, |p| i64::from(p.registration.mms_correction));
    2 * (start_mms(player.and_then(|p| p.rank), m) + correction)
}
