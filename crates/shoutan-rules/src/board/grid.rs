//! The board's state in one allocation, and the hot loops over it: the
//! move, captures, merges and the light-playout move choice.
//!
//! Everything a move reads and writes lives in one [`Grid`], so the loops
//! reach every array from one base register at fixed offsets, and as their
//! `&mut self` is known not to alias anything else they keep values in
//! registers across stores instead of reloading them.
//!
//! Random playouts make the branches of a board unpredictable, and a
//! mispredicted branch costs more than a dozen instructions; so the per-move
//! updates are written without branches where they can be (masked adds
//! instead of `if`), and the rare cases (merges, captures, eyes made or
//! spoilt) are found with bit masks and handled behind one branch each.

use super::PointIndex;
use crate::Color;
use crate::ruleset::Suicide;
use crate::zobrist::{self, CELLS};

pub(super) const EMPTY: u8 = 0;
pub(super) const BLACK: u8 = 1;
pub(super) const WHITE: u8 = 2;
pub(super) const BORDER: u8 = 3;

pub(super) const fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// Bit positions of the packed pseudo-liberty fields: the sum of squares in
/// bits 0..32, the sum in bits 32..52 and the count in bits 52..64. On the
/// largest board (25×25, cells below 2¹⁰) a chain touches at most 1200
/// (stone, empty) pairs, so the count stays below 2¹², the sum below
/// 1200 × 703 < 2²⁰ and the sum of squares below 1200 × 703² < 2³²: the
/// fields never carry into each other, and as every value is a real count
/// none ever borrows on removal.
const LIB_SUM_SHIFT: u32 = 32;
const LIB_COUNT_SHIFT: u32 = 52;

/// What one pseudo-liberty at cell `l` adds to a chain's packed liberties.
const fn lib_key_of(l: usize) -> u64 {
    let l = l as u64;
    (1 << LIB_COUNT_SHIFT) | (l << LIB_SUM_SHIFT) | (l * l)
}

/// [`lib_key_of`] for every cell, by [`Slot`]: one load instead of a
/// multiply and three bit operations on the hot path.
static LIB_KEYS: [u64; SLOTS] = {
    let mut keys = [0; SLOTS];
    let mut l = 0;
    while l < CELLS {
        keys[l + MARGIN] = lib_key_of(l);
        l += 1;
    }
    keys
};

/// What a stone of each colour (by [`Color::index`]) at a cell, by
/// [`Slot`], adds to its neighbours' words: one more neighbour of its colour
/// and one fewer empty one. A table, so the hot loop adds one loaded value
/// rather than two (the compiler splits a computed difference into both).
static STONE_DELTAS: [[u64; SLOTS]; 2] = {
    let mut deltas = [[0; SLOTS]; 2];
    let mut l = 0;
    while l < CELLS {
        let key = lib_key_of(l);
        deltas[0][l + MARGIN] = (1u64 << NBR_BLACK_SHIFT).wrapping_sub(key);
        deltas[1][l + MARGIN] = (1u64 << NBR_WHITE_SHIFT).wrapping_sub(key);
        l += 1;
    }
    deltas
};

/// What one pseudo-liberty at cell `l` adds to a chain's packed liberties.
#[inline]
pub(super) fn lib_key(l: usize) -> u64 {
    LIB_KEYS[(l & (CELLS - 1)) + MARGIN]
}

/// Whether a chain with packed liberties `libs` that touches the empty cell
/// whose key is `key` has that cell as its only liberty: then all its
/// pseudo-liberties are that cell, so `libs` is `count` times `key` (and if
/// the sum of squared deviations from the cell is zero, no other cell is
/// among them). Cheaper than [`libs_in_atari`], which must find the point.
#[inline]
pub(super) const fn libs_only_at(libs: u64, key: u64) -> bool {
    libs == lib_count(libs).wrapping_mul(key)
}

/// Number of pseudo-liberties in packed liberties.
#[inline]
pub(super) const fn lib_count(libs: u64) -> u64 {
    libs >> LIB_COUNT_SHIFT
}

/// Sum of the pseudo-liberty indices in packed liberties.
#[inline]
pub(super) const fn lib_sum(libs: u64) -> u64 {
    (libs >> LIB_SUM_SHIFT) & ((1 << (LIB_COUNT_SHIFT - LIB_SUM_SHIFT)) - 1)
}

/// Whether packed liberties are all one point (and there is at least one).
#[inline]
pub(super) const fn libs_in_atari(libs: u64) -> bool {
    let count = lib_count(libs);
    let sum = lib_sum(libs);
    let sum_sq = libs & 0xFFFF_FFFF;
    (count * sum_sq == sum * sum) & (count != 0)
}

/// The one point of packed liberties that are all one point.
#[inline]
pub(super) fn atari_point(libs: u64) -> PointIndex {
    PointIndex((lib_sum(libs) / lib_count(libs)) as u16)
}

/// The ko ban of cell `i` for colour `c`: never 0, as no board point is cell 0.
#[inline]
pub(super) fn ko_key(i: PointIndex, c: Color) -> u32 {
    (u32::from(i.0) << 1) | c.index() as u32
}

/// A cell's neighbour word (see [`Grid::nbrs`]) holds the packed
/// pseudo-liberty keys of its empty neighbours in the layout of a chain's
/// liberties (see [`lib_key`]), so a new stone's liberties are one masked
/// load; and in bits that layout leaves free (four neighbours' keys never
/// reach bit 21 of the sum of squares, nor bit 44 of the sum) how many
/// black and white neighbours it has, whether it lies on the edge, and how
/// many black and white eyes are on its diagonals.
const NBR_BLACK_SHIFT: u32 = 22;
const NBR_WHITE_SHIFT: u32 = 26;
/// Set in the word of a point with a neighbour off the board; never changes.
pub(super) const NBR_EDGE: u64 = 1 << 30;
const DIAGONAL_EYE_BLACK_SHIFT: u32 = 44;
const DIAGONAL_EYE_WHITE_SHIFT: u32 = 48;
/// The liberty keys of a neighbour word.
const NBR_KEYS: u64 = 0xFFF0_0FFF_801F_FFFF;

/// What a neighbour with content `content` at cell `n` adds to a word.
#[inline]
fn nbr_unit(content: u8, n: usize) -> u64 {
    match content {
        EMPTY => lib_key(n),
        BLACK => 1 << NBR_BLACK_SHIFT,
        WHITE => 1 << NBR_WHITE_SHIFT,
        _ => 0,
    }
}

/// The bits of a neighbour word that count neighbours of colour code `code`.
#[inline]
pub(super) const fn nbr_field(code: u8) -> u64 {
    let shift = if code == BLACK {
        NBR_BLACK_SHIFT
    } else {
        NBR_WHITE_SHIFT
    };
    7 << shift
}

/// What an eye of colour code `code` adds to the words of its diagonals.
#[inline]
pub(super) const fn diagonal_eye_unit(code: u8) -> u64 {
    let shift = if code == BLACK {
        DIAGONAL_EYE_BLACK_SHIFT
    } else {
        DIAGONAL_EYE_WHITE_SHIFT
    };
    1 << shift
}

/// Whether a neighbour word has an empty neighbour.
#[inline]
pub(super) const fn has_empty_nbr(word: u64) -> bool {
    lib_count(word) != 0
}

/// Set in [`Cell::eye`] of an eye where the opponent's stone would capture.
pub(super) const EYE_CAPTURABLE: u8 = 4;

/// What the inner loops read about a neighbour, in eight bytes so a cell
/// index scales into an address for free; the neighbour words, chain
/// liberties and the empty-list slot live in arrays of their own.
#[derive(Clone, Copy, Debug)]
#[repr(align(8))]
pub(super) struct Cell {
    /// Head of this stone's chain.
    pub(super) head: u16,
    /// Next stone of the chain (circular).
    pub(super) next: u16,
    /// At a chain's head: the number of stones.
    pub(super) stones: u16,
    pub(super) content: u8,
    /// At an empty point that is a true eye: the colour code of its owner,
    /// with [`EYE_CAPTURABLE`] when a stone of the other colour there would
    /// capture; else 0.
    pub(super) eye: u8,
}

impl Cell {
    const BORDER: Cell = Cell {
        head: 0,
        next: 0,
        stones: 0,
        content: BORDER,
        eye: 0,
    };
}

/// Cells sit this far inside their arrays (more than the widest stride),
/// so a neighbour or diagonal of a [`Slot`] is in bounds by construction.
const MARGIN: usize = 32;
/// Entries of a per-cell array: every cell number, and the margin on both
/// sides. Not a power of two, so two arrays never place the same cell 4 KiB
/// apart (a load that seems to hit the store before it, 4 KiB away, waits
/// for it).
const SLOTS: usize = CELLS + 2 * MARGIN;

/// The place of a cell in the per-cell arrays: its number, masked into
/// range, plus the margin. The hot loops index with slots: every slot a
/// stride or a diagonal away from one is still in bounds, which the
/// compiler sees, so it needs neither a check nor a mask per neighbour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Slot(usize);

impl Slot {
    /// The slot of the cell `i`.
    #[inline(always)]
    pub(super) fn of(i: PointIndex) -> Slot {
        Slot((i.get() & (CELLS - 1)) + MARGIN)
    }

    /// The cell at this slot.
    #[inline(always)]
    pub(super) fn point(self) -> PointIndex {
        PointIndex(self.0.wrapping_sub(MARGIN) as u16)
    }

    /// [`lib_key`] of this cell.
    #[inline(always)]
    pub(super) fn key(self) -> u64 {
        LIB_KEYS[self.0]
    }

    /// What a stone of `c` here adds to its neighbours' words.
    #[inline(always)]
    fn stone_delta(self, c: Color) -> u64 {
        STONE_DELTAS[c.index()][self.0]
    }
}

/// The distance between rows of cells, a neighbour's offset: a constant
/// for the usual board sizes, so light playouts compile their neighbours'
/// offsets into the instructions, or the grid's own for any size.
pub(crate) trait Stride: Copy {
    /// The stride, given the grid's own.
    fn of(self, stride: u16) -> usize;

    /// What to add to a slot for its neighbour `k` (in the order of
    /// [`Grid::neighbour_slots`]), for a neighbour picked at run time: a
    /// table lookup, so the slots of all four need not wait on the stack.
    #[inline(always)]
    fn neighbour_offset(self, stride: u16, k: usize) -> usize {
        let s = self.of(stride);
        [s.wrapping_neg(), usize::MAX, 1, s][k & 3]
    }
}

/// The stride of a board of `S − 1` points a side.
#[derive(Clone, Copy)]
pub(crate) struct FixedStride<const S: usize>;

impl<const S: usize> FixedStride<S> {
    const OFFSETS: [usize; 4] = [S.wrapping_neg(), usize::MAX, 1, S];
}

impl<const S: usize> Stride for FixedStride<S> {
    #[inline(always)]
    fn of(self, stride: u16) -> usize {
        const { assert!(S < MARGIN) };
        debug_assert_eq!(usize::from(stride), S);
        S
    }

    #[inline(always)]
    fn neighbour_offset(self, _stride: u16, k: usize) -> usize {
        Self::OFFSETS[k & 3]
    }
}

/// The grid's own stride, whatever the board's size.
#[derive(Clone, Copy)]
pub(crate) struct AnyStride;

impl Stride for AnyStride {
    #[inline(always)]
    fn of(self, stride: u16) -> usize {
        usize::from(stride) & (MARGIN - 1)
    }
}

/// A per-cell array sized for the largest board. Indexed by cell number
/// (masked into range, so with no bounds check) or by [`Slot`].
#[derive(Clone)]
pub(super) struct CellArray<T>(pub(super) [T; SLOTS]);

impl<T: Copy> CellArray<T> {
    /// The entries of the first `n` cell numbers.
    #[inline]
    pub(super) fn prefix(&self, n: usize) -> &[T] {
        &self.0[MARGIN..MARGIN + n]
    }

    /// Copies the first `n` entries of `other`.
    pub(super) fn copy_prefix(&mut self, other: &Self, n: usize) {
        self.0[MARGIN..MARGIN + n].copy_from_slice(other.prefix(n));
    }
}

impl<T> std::ops::Index<usize> for CellArray<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.0[(i & (CELLS - 1)) + MARGIN]
    }
}

impl<T> std::ops::IndexMut<usize> for CellArray<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[(i & (CELLS - 1)) + MARGIN]
    }
}

impl<T> std::ops::Index<Slot> for CellArray<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, s: Slot) -> &T {
        &self.0[s.0]
    }
}

impl<T> std::ops::IndexMut<Slot> for CellArray<T> {
    #[inline(always)]
    fn index_mut(&mut self, s: Slot) -> &mut T {
        &mut self.0[s.0]
    }
}

/// How many uniform draws the move choice makes before it scans every
/// candidate: a drawn point is nearly always playable, as the list it draws
/// from holds few eyes.
const DRAWS: usize = 4;

/// Everything a move reads and writes, in one allocation.
///
/// The empty points are one list in five runs: black's eyes where a white
/// stone would capture, black's other eyes, white's other eyes, white's eyes
/// where a black stone would capture, and the *plain* points — every empty
/// point not listed as an eye (see the `eyes` module for when one is):
///
/// ```text
/// [ black capturable | black eyes | white eyes | white capturable | plain ]
///   ends at: capturable[0], black_eyes, eye_end − capturable[1], eye_end,
///   empty_count
/// ```
///
/// A light playout never fills its own eye, and under the usual rules a
/// stone in the opponent's eye is legal only where it captures; so a move
/// is drawn from the plain points and the opponent's capturable eyes, which
/// are nearly all playable, instead of testing eye after eye. The plain
/// points come last so that a stone played on one, the common case, leaves
/// the list with one swap.
#[derive(Clone)]
pub(super) struct Grid {
    pub(super) stride: u16,
    /// All empty points.
    pub(super) empty_count: usize,
    /// End of the eyes (black's then white's) and start of the plain points.
    pub(super) eye_end: usize,
    /// Black's eyes; white's follow them.
    pub(super) black_eyes: usize,
    /// Eyes of each colour where the other colour would capture.
    pub(super) capturable: [usize; 2],
    pub(super) hash: u64,
    /// The simple ko as [`ko_key`] of the cell and the colour that may not
    /// take it next, or 0 for none: the candidate test compares one number.
    pub(super) ko: u32,
    pub(super) captures: [u32; 2],
    pub(super) captured_count: usize,
    pub(super) cells: CellArray<Cell>,
    /// Per cell: what its neighbours hold (see [`NBR_KEYS`]), for every
    /// point whatever its content, so a captured stone's cell is ready.
    pub(super) nbrs: CellArray<u64>,
    /// At a chain's head: packed pseudo-liberties (see [`lib_key`]).
    pub(super) libs: CellArray<u64>,
    /// At a chain's head: the part of `libs` at the chain's own true eyes.
    /// When it is all of `libs` the chain has no other liberty, which is
    /// when one of its eyes can be capturable.
    pub(super) eye_libs: CellArray<u64>,
    /// At an empty cell: its position in `empties`.
    pub(super) slots: CellArray<u16>,
    pub(super) empties: CellArray<PointIndex>,
    /// Stones removed by the last `play`, reused from move to move.
    pub(super) captured: CellArray<PointIndex>,
}

impl Grid {
    /// All border: the board's constructor opens its points.
    pub(super) fn boxed(stride: u16) -> Box<Grid> {
        Box::new(Grid {
            stride,
            empty_count: 0,
            eye_end: 0,
            black_eyes: 0,
            capturable: [0, 0],
            hash: 0,
            ko: 0,
            captures: [0, 0],
            captured_count: 0,
            cells: CellArray([Cell::BORDER; SLOTS]),
            nbrs: CellArray([0; SLOTS]),
            libs: CellArray([0; SLOTS]),
            eye_libs: CellArray([0; SLOTS]),
            slots: CellArray([0; SLOTS]),
            empties: CellArray([PointIndex(0); SLOTS]),
            captured: CellArray([PointIndex(0); SLOTS]),
        })
    }

    /// Copies `other`'s first `used` cells and its move state.
    pub(super) fn copy_from(&mut self, other: &Grid, used: usize) {
        self.stride = other.stride;
        self.empty_count = other.empty_count;
        self.eye_end = other.eye_end;
        self.black_eyes = other.black_eyes;
        self.capturable = other.capturable;
        self.hash = other.hash;
        self.ko = other.ko;
        self.captures = other.captures;
        self.captured_count = other.captured_count;
        self.cells.copy_prefix(&other.cells, used);
        self.nbrs.copy_prefix(&other.nbrs, used);
        self.libs.copy_prefix(&other.libs, used);
        self.eye_libs.copy_prefix(&other.eye_libs, used);
        self.slots.copy_prefix(&other.slots, used);
        self.empties.copy_prefix(&other.empties, other.empty_count);
        self.captured
            .copy_prefix(&other.captured, other.captured_count);
    }

    /// The slots of the four orthogonal neighbours of `at`.
    #[inline(always)]
    pub(super) fn neighbour_slots(&self, at: Slot, st: impl Stride) -> [Slot; 4] {
        let s = st.of(self.stride);
        [
            Slot(at.0 - s),
            Slot(at.0 - 1),
            Slot(at.0 + 1),
            Slot(at.0 + s),
        ]
    }

    /// The neighbour word of `at` as its neighbours' contents make it
    /// (their liberty keys and colours, the edge), without the eyes on its
    /// diagonals: a recount, for setting up and checking the board.
    pub(super) fn contents_word(&self, at: Slot) -> u64 {
        let mut word = 0;
        for n in self.neighbour_slots(at, AnyStride) {
            let content = self.cells[n].content;
            word += nbr_unit(content, n.point().get());
            if content == BORDER {
                word |= NBR_EDGE;
            }
        }
        word
    }

    /// The slot of neighbour `k` of `at` (see [`Stride::neighbour_offset`]).
    #[inline(always)]
    fn neighbour_slot(&self, at: Slot, k: u32, st: impl Stride) -> Slot {
        Slot(at.0.wrapping_add(st.neighbour_offset(self.stride, k as usize)))
    }

    /// The slots of the four diagonal neighbours of `at`.
    #[inline(always)]
    pub(super) fn diagonal_slots(&self, at: Slot, st: impl Stride) -> [Slot; 4] {
        let s = st.of(self.stride);
        [
            Slot(at.0 - s - 1),
            Slot(at.0 - s + 1),
            Slot(at.0 + s - 1),
            Slot(at.0 + s + 1),
        ]
    }

    #[inline(always)]
    pub(super) fn head(&self, i: PointIndex) -> usize {
        usize::from(self.cells[i.get()].head)
    }

    /// Whether the chain through the stone at `i` has no liberty at all.
    #[inline(always)]
    pub(super) fn has_no_liberty(&self, i: PointIndex) -> bool {
        self.libs[self.head(i)] == 0
    }

    /// Exchanges the points at two places of the empty list.
    #[inline]
    pub(super) fn swap_places(&mut self, a: usize, b: usize) {
        let (x, y) = (self.empties[a], self.empties[b]);
        self.empties[a] = y;
        self.empties[b] = x;
        self.slots[y.get()] = a as u16;
        self.slots[x.get()] = b as u16;
    }

    /// Takes the plain point `i` out of the empty list.
    #[inline]
    fn remove_plain(&mut self, i: PointIndex) {
        let slot = usize::from(self.slots[i.get()]);
        self.empty_count -= 1;
        let moved = self.empties[self.empty_count];
        self.empties[slot] = moved;
        self.slots[moved.get()] = slot as u16;
    }

    /// Adds `i` to the plain points.
    #[inline]
    pub(super) fn push_plain(&mut self, i: PointIndex) {
        self.slots[i.get()] = self.empty_count as u16;
        self.empties[self.empty_count] = i;
        self.empty_count += 1;
    }

    /// Removes the chain through `i`; returns how many stones it had. Each
    /// stone's cell becomes a plain point, its own head, and a liberty of the
    /// adjacent opponent chains, added without branches or masks: the other
    /// neighbours are the border or empty (their own heads, whose `libs`
    /// nothing reads) or stones of the chain going. The eyes around are put
    /// right by [`Grid::after_removal`].
    fn remove_chain(&mut self, i: PointIndex, st: impl Stride) -> usize {
        let content = self.cells[i.get()].content;
        let color = if content == BLACK {
            Color::Black
        } else {
            Color::White
        };
        let mut s = i.0;
        let mut count = 0;
        loop {
            let p = PointIndex(s);
            let ps = Slot::of(p);
            let next = self.cells[ps].next;
            self.cells[ps].content = EMPTY;
            self.cells[ps].head = s;
            self.hash ^= zobrist::key(color, p.get());
            self.push_plain(p);
            self.captured[self.captured_count] = p;
            self.captured_count += 1;
            count += 1;
            let key = ps.key();
            let delta = ps.stone_delta(color).wrapping_neg();
            for n in self.neighbour_slots(ps, st) {
                self.nbrs[n] = self.nbrs[n].wrapping_add(delta);
                let head = usize::from(self.cells[n].head);
                self.libs[head] = self.libs[head].wrapping_add(key);
            }
            s = next;
            if s == i.0 {
                break;
            }
        }
        count
    }

    /// Joins chain `b` into chain `a`, or `a` into `b` when `b` has more
    /// stones: the smaller chain's stones are relabelled. Returns the head
    /// of the joined chain.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (keep, gone) = if self.cells[a].stones >= self.cells[b].stones {
            (a, b)
        } else {
            (b, a)
        };
        // The first four stones unconditionally (in a smaller chain the walk
        // comes round and relabels some twice), the rest only in a longer
        // chain: most merged chains are that small, and a loop exit whose
        // trip count varies is mispredicted nearly every time.
        let mut s = gone;
        for _ in 0..4 {
            self.cells[s].head = keep as u16;
            s = usize::from(self.cells[s].next);
        }
        if self.cells[gone].stones > 4 {
            while s != gone {
                self.cells[s].head = keep as u16;
                s = usize::from(self.cells[s].next);
            }
        }
        let (kn, gn) = (self.cells[keep].next, self.cells[gone].next);
        self.cells[keep].next = gn;
        self.cells[gone].next = kn;
        self.cells[keep].stones += self.cells[gone].stones;
        self.libs[keep] += self.libs[gone];
        self.eye_libs[keep] += self.eye_libs[gone];
        keep
    }

    #[inline]
    pub(super) fn add_liberty(&mut self, head: usize, lib: PointIndex) {
        self.libs[head] += lib_key(lib.get());
    }

    /// A uniformly random point where `c` may play and that is not `c`'s
    /// own eye, or `None` when there is none: the move choice of light
    /// playouts. Always inlined, so a constant colour and rule fold in.
    ///
    /// The candidates are the plain points and those of the opponent's
    /// listed eyes where `c` may play (see [`Grid::eye_candidates`]). A draw
    /// that lands on an unplayable candidate (an eye not listed yet, which
    /// it then lists; a suicide; the ko) is drawn again, which keeps every
    /// playable point equally likely. After [`DRAWS`] misses, or a miss
    /// among that few candidates, they are scanned, so a pass costs one
    /// pass over them.
    #[inline(always)]
    pub(super) fn choose(
        &mut self,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
        st: impl Stride,
    ) -> Option<PointIndex> {
        for _ in 0..DRAWS {
            let plain = self.empty_count - self.eye_end;
            let (eyes, eye_base) = self.eye_candidates(c, suicide);
            let candidates = plain + eyes;
            if candidates == 0 {
                return None;
            }
            // Multiply-shift range reduction: a bias below 2⁻²² is nothing
            // for a playout.
            let r = ((u64::from(rng.u32(..)) * candidates as u64) >> 32) as usize;
            let j = if r < plain {
                self.eye_end + r
            } else {
                eye_base + (r - plain)
            };
            let i = self.empties[j];
            let word = self.nbrs[Slot::of(i)];
            // An empty neighbour: legal, and neither an eye nor a ko point.
            if has_empty_nbr(word) {
                return Some(i);
            }
            if self.cells[Slot::of(i)].eye == 0 && self.list_if_eye(i, word, st) == Some(c) {
                continue;
            }
            if self.playable_surrounded(i, c, suicide, word, st) {
                return Some(i);
            }
            // So few candidates that more draws would mostly land on this
            // one again (late in a playout, before a pass): scan them.
            if candidates <= DRAWS {
                break;
            }
        }
        // A generator of its own for the scan, so `rng` (a local of the
        // playout) stays in a register.
        self.choose_by_scan(c, suicide, &mut rng.fork(), st, |_| true)
    }

    /// The opponent's eyes among `c`'s candidates, as a count and the
    /// first place of their run: under rules that allow suicide all of them
    /// (a stone there is legal, capturing or not), otherwise the capturable.
    #[inline(always)]
    pub(super) fn eye_candidates(&self, c: Color, suicide: Suicide) -> (usize, usize) {
        match (suicide, c) {
            (Suicide::Allowed, Color::White) => (self.black_eyes, 0),
            (Suicide::Allowed, Color::Black) => (self.eye_end - self.black_eyes, self.black_eyes),
            (_, Color::White) => (self.capturable[0], 0),
            (_, Color::Black) => (self.capturable[1], self.eye_end - self.capturable[1]),
        }
    }

    /// [`Grid::choose`] when drawing keeps missing: one pass over the
    /// candidates keeps the `k`-th playable one with probability `1/k`
    /// (reservoir sampling), so each is picked alike; nearly always there
    /// is none and `c` passes.
    /// Only the candidates `keep` accepts are counted.
    #[cold]
    #[inline(never)]
    pub(super) fn choose_by_scan(
        &self,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
        st: impl Stride,
        mut keep: impl FnMut(PointIndex) -> bool,
    ) -> Option<PointIndex> {
        let (eyes, eye_base) = self.eye_candidates(c, suicide);
        let mut chosen = None;
        let mut playable = 0;
        for j in (self.eye_end..self.empty_count).chain(eye_base..eye_base + eyes) {
            let i = self.empties[j];
            if self.playable_non_eye(i, c, suicide, st) && keep(i) {
                playable += 1;
                if rng.usize(..playable) == 0 {
                    chosen = Some(i);
                }
            }
        }
        chosen
    }

    /// Whether `c` may play at the empty point `i` and `i` is not `c`'s
    /// own eye, listed or not.
    #[inline]
    pub(super) fn playable_non_eye(
        &self,
        i: PointIndex,
        c: Color,
        suicide: Suicide,
        st: impl Stride,
    ) -> bool {
        let word = self.nbrs[Slot::of(i)];
        has_empty_nbr(word)
            || (!self.is_true_eye(i, c, st) && self.playable_surrounded(i, c, suicide, word, st))
    }

    /// Whether `c` may play at the empty point `i`, whose neighbour word is
    /// `word` and which has no empty neighbour: the liberty test, without
    /// branches.
    #[inline(always)]
    pub(super) fn playable_surrounded(
        &self,
        i: PointIndex,
        c: Color,
        suicide: Suicide,
        word: u64,
        st: impl Stride,
    ) -> bool {
        let ko = self.ko == ko_key(i, c);
        let suicide_ok = match suicide {
            Suicide::Forbidden => false,
            Suicide::MultiStoneOnly => word & nbr_field(code(c)) != 0,
            Suicide::Allowed => true,
        };
        let gains = suicide_ok | self.surrounded_gains_liberty(i, c, st);
        // `gains && !ko` as one subtraction, so the caller branches once on
        // the answer: LLVM splits `a & b` into two jumps, each mispredicted.
        u32::from(gains).wrapping_sub(u32::from(ko)) == 1
    }

    /// Places a stone of colour `c` at `i`, a move legal under `suicide`.
    /// Always inlined: light playouts call it with a constant colour and
    /// rule, so the colour's codes, shifts and hash keys fold into the
    /// instructions, and where suicide is forbidden the test for it goes.
    ///
    /// One branch-free pass over the neighbours updates their words, takes
    /// the new stone's cell from every adjacent chain's liberties, and notes
    /// opponent chains left with no liberty or only eye liberties; those,
    /// merges, eyes on the diagonals that the stone may spoil and its own
    /// chain left with only eye liberties follow behind one branch each.
    #[inline(always)]
    pub(super) fn play_as(
        &mut self,
        i: PointIndex,
        c: Color,
        suicide: Suicide,
        st: impl Stride,
    ) -> usize {
        let me = code(c);
        let opp = me ^ (BLACK ^ WHITE);
        let at = Slot::of(i);
        let ns = self.neighbour_slots(at, st);
        self.captured_count = 0;
        if self.cells[at].eye != 0 {
            // A stone in an eye: a capture in the opponent's, or (never in
            // a playout) the filling of one's own.
            self.uneye(i);
        }
        self.remove_plain(i);
        self.hash ^= zobrist::key(c, i.get());
        let key = at.key();
        let word = self.nbrs[at];
        let libs = word & NBR_KEYS;
        let delta = at.stone_delta(c);
        // The chain the stone joins: an own neighbour's, else its own. The
        // own neighbours' heads are kept, so after the loop the ones in other
        // chains are known without a branch, and one test, taken only by a
        // real merge, decides. (A first test for two own neighbours or more
        // is taken by many moves that merge nothing, and mispredicted there.)
        let mut join = i.get();
        let mut own_heads = [None; 4];
        // Zero exactly when some opponent neighbour's chain was left with
        // liberties at its eyes alone (none at all: captured): the least of
        // the neighbours' differences, as a number, so the compiler keeps no
        // flag per neighbour.
        let mut opponent_events = u64::MAX;
        for (k, n) in ns.into_iter().enumerate() {
            let cell = self.cells[n];
            let content = cell.content;
            let head = usize::from(cell.head);
            let chain = self.libs[head];
            let chain_eye_libs = self.eye_libs[head];
            self.nbrs[n] = self.nbrs[n].wrapping_add(delta);
            let is_own = content == me;
            let is_opp = content == opp;
            join = if is_own { head } else { join };
            own_heads[k] = is_own.then_some(head);
            // An empty or border cell is its own head: the key taken from its
            // `libs` goes where nothing reads it, so no mask is needed. An
            // opponent chain left with no liberty but at its eyes is
            // captured (none at all) or may have a capturable eye; a chain
            // that touches `i` from several sides gets there at its last.
            let after = chain.wrapping_sub(key);
            self.libs[head] = after;
            let not_opp = u64::from(is_opp).wrapping_sub(1);
            opponent_events = opponent_events.min((after ^ chain_eye_libs) | not_opp);
        }
        let cell = &mut self.cells[at];
        cell.content = me;
        cell.next = i.0;
        self.cells[at].stones = 0;
        self.libs[at] = 0;
        self.eye_libs[at] = 0;

        // Join without a branch: linking `at` after the chain's head works
        // for the one-stone chain of `at` alone too.
        self.cells[at].head = join as u16;
        self.cells[at].next = self.cells[join].next;
        self.cells[join].next = i.0;
        self.cells[join].stones += 1;
        self.libs[join] += libs;
        // Own neighbours in other chains: merge them. From here on `join` is
        // the head of the stone's chain, kept in a register: reading it back
        // from the stone's cell waits for the stores just made to that cell.
        let mut merges = 0u32;
        for (k, head) in own_heads.into_iter().enumerate() {
            merges |= u32::from(head.is_some_and(|h| h != join)) << k;
        }
        while merges != 0 {
            let n = self.neighbour_slot(at, merges.trailing_zeros(), st);
            merges &= merges - 1;
            let theirs = usize::from(self.cells[n].head);
            if join != theirs {
                join = self.merge(theirs, join);
            }
        }

        let mut captured = 0;
        self.ko = 0;
        if opponent_events == 0 {
            let mut dead = 0u32;
            for (k, &n) in ns.iter().enumerate() {
                let cell = self.cells[n];
                let gone = self.libs[usize::from(cell.head)] == 0;
                dead |= u32::from((cell.content == opp) & gone) << k;
            }
            // The eye liberties of the chains taken: whether they had eyes.
            let mut eyes_taken = 0;
            while dead != 0 {
                let n = self.neighbour_slot(at, dead.trailing_zeros(), st);
                dead &= dead - 1;
                // Two sides of one chain: the first removal empties the second.
                if self.cells[n].content == opp {
                    eyes_taken |= self.eye_libs[usize::from(self.cells[n].head)];
                    captured += self.remove_chain(n.point(), st);
                }
            }
            if captured > 0 {
                self.after_removal(0, c, eyes_taken != 0);
            }
            // A ko: one stone taken by a lone stone left with one liberty
            // (computed without a branch: its outcome is unpredictable).
            let ko = (captured == 1)
                & (self.cells[join].stones == 1)
                & (lib_count(self.libs[join]) == 1);
            let ban = ko_key(self.captured[0], c.opponent());
            self.ko = ban & u32::from(ko).wrapping_neg();
            // Opponent chains left with liberties at their eyes alone.
            let mut eye_bound = false;
            for n in ns {
                let cell = self.cells[n];
                let libs = self.libs[usize::from(cell.head)];
                let eye_libs = self.eye_libs[usize::from(cell.head)];
                eye_bound |= (cell.content == opp) & (libs != 0) & (libs == eye_libs);
            }
            if eye_bound {
                self.flag_atari_eyes(at, c.opponent());
            }
        }
        self.captures[c.index()] += captured as u32;
        if suicide != Suicide::Forbidden && self.libs[join] == 0 {
            let had_eyes = self.eye_libs[join] != 0;
            let lost = self.remove_chain(i, st);
            self.captures[c.opponent().index()] += lost as u32;
            self.after_removal(captured, c.opponent(), had_eyes);
            self.captured_count = captured;
        }
        if word & diagonal_eye_field(opp) != 0 {
            self.spoil_diagonal_eyes(i, c.opponent());
        }
        let stands = suicide == Suicide::Forbidden || self.cells[at].content == me;
        if stands && self.libs[join] == self.eye_libs[join] {
            self.flag_chain_atari_eye(join, c);
        }
        captured
    }

    /// [`Board::gains_liberty`](super::Board) for a point with no empty
    /// neighbour: an own chain not in atari at `i`, or an opponent chain
    /// that is (a border neighbour, its own head, is neither).
    #[inline]
    pub(super) fn surrounded_gains_liberty(
        &self,
        i: PointIndex,
        c: Color,
        st: impl Stride,
    ) -> bool {
        let me = code(c);
        let opp = code(c.opponent());
        let at = Slot::of(i);
        let key = at.key();
        let mut gains = false;
        for n in self.neighbour_slots(at, st) {
            let cell = &self.cells[n];
            let only_here = libs_only_at(self.libs[usize::from(cell.head)], key);
            gains |= ((cell.content == me) & !only_here) | ((cell.content == opp) & only_here);
        }
        gains
    }

    /// The diagonal half of the eye test, without branches: at most one
    /// opponent stone on the diagonals, none on the edge (where a neighbour
    /// is off the board, so is a diagonal).
    #[inline]
    pub(super) fn diagonals_allow_eye(&self, i: PointIndex, c: Color, st: impl Stride) -> bool {
        let opp = code(c.opponent());
        let at = Slot::of(i);
        let bad: u16 = self
            .diagonal_slots(at, st)
            .iter()
            .map(|&d| u16::from(self.cells[d].content == opp))
            .sum();
        let edge = u16::from(self.nbrs[at] & NBR_EDGE != 0);
        bad + edge < 2
    }

    /// Whether the empty point `i` is a true eye of `c`: every neighbour is
    /// `c` or the edge, and the diagonals leave it no false eye.
    #[inline]
    pub(super) fn is_true_eye(&self, i: PointIndex, c: Color, st: impl Stride) -> bool {
        let word = self.nbrs[Slot::of(i)];
        !has_empty_nbr(word)
            && word & nbr_field(code(c.opponent())) == 0
            && self.diagonals_allow_eye(i, c, st)
    }
}

/// The bits of a neighbour word that count eyes of colour code `code` on
/// its diagonals.
#[inline]
const fn diagonal_eye_field(code: u8) -> u64 {
    7 * diagonal_eye_unit(code)
}
