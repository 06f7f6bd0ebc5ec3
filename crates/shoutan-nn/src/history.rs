//! The positions a game has been through, as the ko rules, the features'
//! superko bans and the end by passes need them (KataGo's `koHashHistory`,
//! `hashesBeforeBlackPass` and `hashesBeforeWhitePass`).
//!
//! A search clones a position at every node, so the game's long history is
//! shared behind an [`Arc`] (the root) and each clone keeps only the
//! positions of its own path, a few dozen at most.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use shoutan_rules::Color;

/// Zobrist keys are uniformly random already: they hash as they are.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Where a key occurs in the root's positions.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// Its last position number.
    last: usize,
    /// How often from the root's `kept_from` on.
    kept: u32,
}

/// The positions shared by every clone of a root.
#[derive(Debug, Default)]
struct Root {
    keys: Vec<u64>,
    seen: HashMap<u64, Seen, BuildHasherDefault<KeyHasher>>,
    len: usize,
    kept_from: usize,
    passes: Vec<(Color, u64)>,
}

/// The keys of the positions so far (one per position, the first one the
/// game's start), numbered from 0, and the keys before each pass.
#[derive(Clone, Debug, Default)]
pub(crate) struct KoHistory {
    root: Arc<Root>,
    path: Vec<u64>,
    /// The first position KataGo still remembers: history is forgotten
    /// when the player to move changes out of turn, and by passes where
    /// they lift the bans (simple ko and spight rules) or take the button.
    kept_from: usize,
    /// The first position the ko rule itself looks at: forgotten by passes
    /// and the button only, never by a change of the player to move (the
    /// game's referee remembers those positions).
    rule_from: usize,
    /// Whether the root's passes still count (no clear since).
    root_passes: bool,
    passes: Vec<(Color, u64)>,
}

impl KoHistory {
    /// The number of positions so far.
    pub(crate) fn len(&self) -> usize {
        self.root.len + self.path.len()
    }

    /// Records the next position.
    pub(crate) fn push(&mut self, key: u64) {
        self.path.push(key);
    }

    /// Whether `key` occurs from position `from` on.
    fn occurs_from(&self, key: u64, from: usize) -> bool {
        let in_root =
            from < self.root.len && self.root.seen.get(&key).is_some_and(|s| s.last >= from);
        let path_from = from.saturating_sub(self.root.len).min(self.path.len());
        in_root || self.path[path_from..].contains(&key)
    }

    /// Whether a position with `key` is one the ko rule forbids repeating.
    pub(crate) fn forbids(&self, key: u64) -> bool {
        self.occurs_from(key, self.rule_from)
    }

    /// Whether KataGo would ban repeating `key` (its remembered positions).
    pub(crate) fn remembers(&self, key: u64) -> bool {
        self.occurs_from(key, self.kept_from)
    }

    /// How often KataGo remembers `key`.
    pub(crate) fn remembered_count(&self, key: u64) -> usize {
        let in_root = if self.kept_from == self.root.kept_from {
            self.root.seen.get(&key).map_or(0, |s| s.kept as usize)
        } else {
            0
        };
        let path_from = self
            .kept_from
            .saturating_sub(self.root.len)
            .min(self.path.len());
        in_root + self.path[path_from..].iter().filter(|&&k| k == key).count()
    }

    /// KataGo forgets the positions and passes so far (the player to move
    /// changed out of turn); the ko rule does not.
    pub(crate) fn clear(&mut self) {
        self.kept_from = self.len();
        self.root_passes = false;
        self.passes.clear();
    }

    /// Both KataGo and the ko rule forget the positions so far (a pass that
    /// lifts the bans, or the button taken).
    pub(crate) fn restart(&mut self) {
        self.kept_from = self.len();
        self.rule_from = self.len();
    }

    /// Forgets the positions before passes (the button taken).
    pub(crate) fn forget_passes(&mut self) {
        self.root_passes = false;
        self.passes.clear();
    }

    /// `color` passes in the position of `key`.
    pub(crate) fn record_pass(&mut self, color: Color, key: u64) {
        self.passes.push((color, key));
    }

    /// Whether `color` passed before in the position of `key`.
    pub(crate) fn passed_in(&self, color: Color, key: u64) -> bool {
        let root = self.root_passes && self.root.passes.contains(&(color, key));
        root || self.passes.contains(&(color, key))
    }

    /// Makes everything so far the shared root of the clones to come.
    pub(crate) fn share(&mut self) {
        let mut keys = self.root.keys.clone();
        keys.append(&mut self.path);
        let mut seen: HashMap<u64, Seen, BuildHasherDefault<KeyHasher>> = HashMap::default();
        for (index, &key) in keys.iter().enumerate() {
            let entry = seen.entry(key).or_insert(Seen {
                last: index,
                kept: 0,
            });
            entry.last = index;
            if index >= self.kept_from {
                entry.kept += 1;
            }
        }
        let mut passes = if self.root_passes {
            self.root.passes.clone()
        } else {
            Vec::new()
        };
        passes.append(&mut self.passes);
        self.root = Arc::new(Root {
            len: keys.len(),
            keys,
            seen,
            kept_from: self.kept_from,
            passes,
        });
        self.root_passes = true;
    }
}
