//! The true eyes listed apart in the empty list, and among them the eyes
//! where the opponent would capture: so the move choice of light playouts
//! draws from points nearly all playable instead of testing eye after eye
//! (most of the empty points late in a playout).
//!
//! An eye is listed when a draw lands on it, or at once where a stone taken
//! alone leaves one (most eyes come so); finding the others as a move makes
//! them would cost every move more than the draws that find them later. A
//! listed eye is always a true eye: it is taken off the list the moment it
//! stops being one, which only a stone on its diagonal (spoiling it), a
//! capture beside it (giving it an empty neighbour) or a stone on it can do.
//! An eye becomes capturable when a chain around it is left with that eye as
//! its only liberty — which a move finds from the chains it touches, as
//! their liberties outside their eyes run out — and stops being so when the
//! eye goes or its chain gains a liberty, which only captures give. Those
//! marks are exact: a draw never needs to test an unmarked eye.

use super::PointIndex;
use super::grid::{
    AnyStride, BLACK, EMPTY, EYE_CAPTURABLE, Grid, Slot, Stride, WHITE, atari_point, code,
    diagonal_eye_unit, has_empty_nbr, lib_key, libs_in_atari, libs_only_at, nbr_field,
};
use crate::Color;

impl Grid {
    /// Moves the plain point `e`, a true eye of `x`, into `x`'s eyes.
    pub(super) fn make_eye(&mut self, e: PointIndex, x: Color) {
        let first_plain = self.eye_end;
        self.swap_places(usize::from(self.slots[e.get()]), first_plain);
        // White's capturable eyes shift up one place (their first goes to
        // their end), and for a black eye white's other eyes too.
        let white_capturable = self.eye_end - self.capturable[1];
        self.swap_places(first_plain, white_capturable);
        if x == Color::Black {
            self.swap_places(white_capturable, self.black_eyes);
            self.black_eyes += 1;
        }
        self.eye_end += 1;
        let owner = code(x);
        self.cells[e.get()].eye = owner;
        if self.count_eye_liberty(e, owner, true) {
            self.flag(e, x);
        }
    }

    /// Moves the eye `e` back to the plain points.
    pub(super) fn uneye(&mut self, e: PointIndex) {
        let eye = self.cells[e.get()].eye;
        let owner = eye & 3;
        let x = if owner == BLACK {
            Color::Black
        } else {
            Color::White
        };
        if eye & EYE_CAPTURABLE != 0 {
            self.unflag(e, x);
        }
        // The reverse of `make_eye`: to the end of its colour's run, then
        // through white's runs to the last eye place.
        let at = usize::from(self.slots[e.get()]);
        let white_capturable = self.eye_end - self.capturable[1];
        if x == Color::Black {
            self.swap_places(at, self.black_eyes - 1);
            self.swap_places(self.black_eyes - 1, white_capturable - 1);
            self.black_eyes -= 1;
        } else {
            self.swap_places(at, white_capturable - 1);
        }
        self.swap_places(white_capturable - 1, self.eye_end - 1);
        self.eye_end -= 1;
        self.cells[e.get()].eye = 0;
        self.count_eye_liberty(e, owner, false);
    }

    /// Adds (or takes away) the eye `e` of colour code `owner` to the eye
    /// liberties of the chains around it and to its diagonals' words,
    /// without branches: an eye's neighbours are its owner's stones or the
    /// border, whose head is cell 0 and whose content masks the key out.
    /// Returns whether a chain around it has no other liberty (a stone of
    /// the other colour there would capture).
    fn count_eye_liberty(&mut self, e: PointIndex, owner: u8, add: bool) -> bool {
        let (key, unit) = if add {
            (lib_key(e.get()), diagonal_eye_unit(owner))
        } else {
            (
                lib_key(e.get()).wrapping_neg(),
                diagonal_eye_unit(owner).wrapping_neg(),
            )
        };
        let only_key = lib_key(e.get());
        let mut capturable = false;
        let at = Slot::of(e);
        for n in self.neighbour_slots(at, AnyStride) {
            let cell = self.cells[n];
            let h = usize::from(cell.head);
            let own = cell.content == owner;
            capturable |= own & libs_only_at(self.libs[h], only_key);
            self.eye_libs[h] = self.eye_libs[h].wrapping_add(key & u64::from(own).wrapping_neg());
        }
        for d in self.diagonal_slots(at, AnyStride) {
            self.nbrs[d] = self.nbrs[d].wrapping_add(unit);
        }
        capturable
    }

    /// Marks `x`'s eye `e` capturable: into the capturable run.
    fn flag(&mut self, e: PointIndex, x: Color) {
        let at = usize::from(self.slots[e.get()]);
        match x {
            Color::Black => self.swap_places(at, self.capturable[0]),
            Color::White => self.swap_places(at, self.eye_end - self.capturable[1] - 1),
        }
        self.capturable[x.index()] += 1;
        self.cells[e.get()].eye |= EYE_CAPTURABLE;
    }

    /// Unmarks `x`'s capturable eye `e`.
    fn unflag(&mut self, e: PointIndex, x: Color) {
        let at = usize::from(self.slots[e.get()]);
        match x {
            Color::Black => self.swap_places(at, self.capturable[0] - 1),
            Color::White => self.swap_places(at, self.eye_end - self.capturable[1]),
        }
        self.capturable[x.index()] -= 1;
        self.cells[e.get()].eye &= !EYE_CAPTURABLE;
    }

    /// Whether a stone of `x`'s opponent at `x`'s eye `e` would capture: a
    /// chain around it has no other liberty.
    pub(super) fn capturable_at(&self, e: PointIndex, x: Color) -> bool {
        let key = lib_key(e.get());
        self.neighbour_slots(Slot::of(e), AnyStride)
            .iter()
            .any(|&n| {
                let cell = self.cells[n];
                cell.content == code(x) && libs_only_at(self.libs[usize::from(cell.head)], key)
            })
    }

    /// Puts the eyes right after stones `captured[from..]` left the board,
    /// taken by `gainer`, whose chains around them gained liberties: the
    /// chains taken had listed eyes if `had_eyes`, and those have an empty
    /// neighbour now; a stone taken alone may leave an eye; and an eye of
    /// the gainer's marked capturable may not be any more. (An eye a removal
    /// makes on a diagonal is listed when drawn.)
    #[inline(never)]
    pub(super) fn after_removal(&mut self, from: usize, gainer: Color, had_eyes: bool) {
        if had_eyes {
            for k in from..self.captured_count {
                for n in self.neighbour_slots(Slot::of(self.captured[k]), AnyStride) {
                    if self.cells[n].eye != 0 {
                        self.uneye(n.point());
                    }
                }
            }
        }
        // A stone taken alone leaves a point of the gainer's eye shape, most
        // often an eye: listed now, rather than found by a draw later.
        for k in from..self.captured_count {
            let p = self.captured[k];
            let word = self.nbrs[Slot::of(p)];
            if !has_empty_nbr(word) && self.diagonals_allow_eye(p, gainer, AnyStride) {
                self.make_eye(p, gainer);
            }
        }
        while self.capturable[gainer.index()] > 0 {
            let stale = self
                .capturable_eyes(gainer)
                .find(|&e| !self.capturable_at(e, gainer));
            let Some(e) = stale else { break };
            self.unflag(e, gainer);
        }
    }

    /// `x`'s eyes marked capturable.
    fn capturable_eyes(&self, x: Color) -> impl Iterator<Item = PointIndex> + '_ {
        let places = match x {
            Color::Black => 0..self.capturable[0],
            Color::White => self.eye_end - self.capturable[1]..self.eye_end,
        };
        places.map(|j| self.empties[j])
    }

    /// A stone at `i` is on the diagonal of some of `x`'s eyes: those it
    /// spoils (a second opponent diagonal, or one on the edge) are plain now.
    #[cold]
    pub(super) fn spoil_diagonal_eyes(&mut self, i: PointIndex, x: Color) {
        for d in self.diagonal_slots(Slot::of(i), AnyStride) {
            if self.cells[d].eye & 3 == code(x)
                && !self.diagonals_allow_eye(d.point(), x, AnyStride)
            {
                self.uneye(d.point());
            }
        }
    }

    /// Some of `x`'s chains around `at` were left with liberties only at
    /// their eyes: a chain in atari there makes that eye capturable.
    #[cold]
    pub(super) fn flag_atari_eyes(&mut self, at: Slot, x: Color) {
        for n in self.neighbour_slots(at, AnyStride) {
            if self.cells[n].content == code(x) {
                let h = usize::from(self.cells[n].head);
                if self.libs[h] != 0 && self.libs[h] == self.eye_libs[h] {
                    self.flag_chain_atari_eye(h, x);
                }
            }
        }
    }

    /// `x`'s chain at head `h` has liberties only at its eyes: if they are
    /// one eye, that eye is capturable.
    #[cold]
    pub(super) fn flag_chain_atari_eye(&mut self, h: usize, x: Color) {
        let libs = self.libs[h];
        if libs_in_atari(libs) {
            let e = atari_point(libs);
            debug_assert_eq!(
                self.cells[e.get()].eye & 3,
                code(x),
                "eye liberties are eyes"
            );
            if self.cells[e.get()].eye == code(x) {
                self.flag(e, x);
            }
        }
    }

    /// Lists no eye (after stones were set up): every empty point among
    /// `points` is plain, and eyes are listed as they are drawn.
    pub(super) fn forget_eyes(&mut self, points: &[PointIndex]) {
        self.empty_count = 0;
        self.eye_end = 0;
        self.black_eyes = 0;
        self.capturable = [0, 0];
        for &i in points {
            self.cells[i.get()].eye = 0;
            if self.cells[i.get()].content == EMPTY {
                self.push_plain(i);
            } else {
                let h = self.head(i);
                self.eye_libs[h] = 0;
            }
        }
    }

    /// Lists the plain point `i`, whose neighbour word `word` shows no
    /// empty neighbour, among its owner's eyes if it is a true eye; returns
    /// the owner.
    #[inline]
    pub(super) fn list_if_eye(
        &mut self,
        i: PointIndex,
        word: u64,
        st: impl Stride,
    ) -> Option<Color> {
        let owner = if word & nbr_field(WHITE) == 0 {
            Color::Black
        } else if word & nbr_field(BLACK) == 0 {
            Color::White
        } else {
            return None;
        };
        self.diagonals_allow_eye(i, owner, st).then(|| {
            self.make_eye(i, owner);
            owner
        })
    }
}

/// A recount of everything the grid keeps up to date, for tests.
#[cfg(test)]
impl Grid {
    /// Checks the empty list, its runs, the listed eyes, their capturable
    /// marks, the neighbour words and the eye liberties of every chain
    /// against a recount from the stones of `points` (the board's points);
    /// the first difference, as text.
    pub(super) fn audit(&self, points: &[PointIndex]) -> Result<(), String> {
        use std::collections::BTreeSet;

        let (n, eye_end, black) = (self.empty_count, self.eye_end, self.black_eyes);
        let [black_capturable, white_capturable] = self.capturable;
        if !(black_capturable <= black && black <= eye_end && eye_end <= n) {
            return Err(format!(
                "runs out of order: {:?}",
                (black_capturable, black, eye_end, n)
            ));
        }
        if white_capturable > eye_end - black {
            return Err("more white capturable eyes than white eyes".into());
        }
        let listed: Vec<PointIndex> = (0..n).map(|j| self.empties[j]).collect();
        let empty: BTreeSet<PointIndex> = points
            .iter()
            .copied()
            .filter(|&i| self.cells[Slot::of(i)].content == EMPTY)
            .collect();
        if listed.iter().copied().collect::<BTreeSet<_>>() != empty || listed.len() != empty.len() {
            return Err("the empty list is not the empty points".into());
        }
        for (j, &i) in listed.iter().enumerate() {
            if usize::from(self.slots[i.get()]) != j {
                return Err(format!("slot of {i:?} is not {j}"));
            }
            let expected = if j < black_capturable {
                BLACK | EYE_CAPTURABLE
            } else if j < black {
                BLACK
            } else if j < eye_end - white_capturable {
                WHITE
            } else if j < eye_end {
                WHITE | EYE_CAPTURABLE
            } else {
                0
            };
            let eye = self.cells[Slot::of(i)].eye;
            if eye != expected {
                return Err(format!(
                    "{i:?} at place {j} is marked {eye}, its run says {expected}"
                ));
            }
            if eye != 0 {
                let owner = if eye & 3 == BLACK {
                    Color::Black
                } else {
                    Color::White
                };
                if !self.is_true_eye(i, owner, AnyStride) {
                    return Err(format!(
                        "{i:?} is listed as an eye of {owner:?} but is none"
                    ));
                }
                if (eye & EYE_CAPTURABLE != 0) != self.capturable_at(i, owner) {
                    return Err(format!("{i:?}: capturable mark {eye} is wrong"));
                }
            }
        }
        for &i in points {
            let at = Slot::of(i);
            let mut word = self.contents_word(at);
            for d in self.diagonal_slots(at, AnyStride) {
                let eye = self.cells[d].eye & 3;
                if eye != 0 && self.cells[d].content == EMPTY {
                    word = word.wrapping_add(diagonal_eye_unit(eye));
                }
            }
            if self.nbrs[at] != word {
                return Err(format!(
                    "word of {i:?} is {:x}, recounted {word:x}",
                    self.nbrs[at]
                ));
            }
            let content = self.cells[at].content;
            if content != EMPTY && self.head(i) == i.get() {
                let mut eye_libs = 0u64;
                for s in points.iter().copied().filter(|&s| self.head(s) == i.get()) {
                    for n in self.neighbour_slots(Slot::of(s), AnyStride) {
                        if self.cells[n].content == EMPTY && self.cells[n].eye & 3 == content {
                            eye_libs += lib_key(n.point().get());
                        }
                    }
                }
                if self.eye_libs[i.get()] != eye_libs {
                    return Err(format!("eye liberties of the chain at {i:?} are wrong"));
                }
            }
        }
        Ok(())
    }
}
