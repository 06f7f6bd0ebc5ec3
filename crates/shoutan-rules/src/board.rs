//! The board: stones, chains with incremental liberties, captures, simple ko
//! and an incremental Zobrist hash. This is the hot path of the engine and
//! of every playout, so it never allocates while playing.
//!
//! Layout: a one-dimensional array of `(size + 2) × (size + 1) + 1` cells
//! with a border ring, so the four neighbours of any on-board cell are at
//! `±1` and `±stride` and never out of bounds. Each chain is a circular
//! linked list of its stones; its head (any one stone) carries the number of
//! stones and its *pseudo-liberties*: every (stone, empty neighbour) pair,
//! with the sum and the sum of squares of those liberty indices, packed in
//! one `u64` (see [`lib_key`]) so adding or removing a liberty is one add.
//! A chain is in atari exactly when all its pseudo-liberties are one point,
//! which is when `count × Σ² = (Σ)²`; that point is `Σ / count`.
//!
//! What the inner loops read of a cell (content, chain head, next stone and
//! packed counts of the neighbours' contents) fits in eight bytes; chain
//! totals and empty-list slots are arrays of their own, and all the arrays
//! share one allocation, with the move's other state (empty count, ko,
//! hash), so they are reached from one base pointer. The hot loops are
//! methods of that allocation rather than of the board: its `&mut self` is
//! known to alias nothing, so values stay in registers across stores.
//!
//! Random playouts make the branches of a board unpredictable, and a
//! mispredicted branch costs more than a dozen instructions; so the per-move
//! updates are written without branches where they can be (masked adds
//! instead of `if`), and the rare cases (merges, captures) are found with
//! bit masks and handled behind one branch each.

use std::fmt;

use crate::ruleset::Suicide;
use crate::zobrist::{self, CELLS, MAX_CELLS};
use crate::{BoardSize, Color, Point};

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// The `around` count of one neighbour with content `content`: four bits
/// per content (empty, black, white, border).
const fn around(content: u8) -> u16 {
    1 << (4 * content)
}

/// The bits of a packed count that hold the count of `content`.
const fn field(content: u8) -> u16 {
    0xF << (4 * content)
}

/// How many neighbours of content `content` a packed count holds.
#[inline]
const fn count_of(packed: u16, content: u8) -> u16 {
    (packed >> (4 * content)) & 0xF
}

/// All ones when `b`, else zero: selects a value without a branch.
#[inline]
const fn mask(b: bool) -> u64 {
    (b as u64).wrapping_neg()
}

/// All ones for an empty cell, else zero, by content. A table rather than
/// [`mask`]: with a compare, LLVM turns the masked add of a loaded liberty key
/// into a conditional jump, which random playouts mispredict.
const EMPTY_MASK: [u64; 4] = [!0, 0, 0, 0];

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

/// [`lib_key_of`] for every cell: one load instead of a multiply and three
/// bit operations on the hot path.
static LIB_KEYS: [u64; CELLS] = {
    let mut keys = [0; CELLS];
    let mut l = 0;
    while l < CELLS {
        keys[l] = lib_key_of(l);
        l += 1;
    }
    keys
};

/// What one pseudo-liberty at cell `l` adds to a chain's packed liberties.
#[inline]
fn lib_key(l: usize) -> u64 {
    LIB_KEYS[l & (CELLS - 1)]
}

/// Whether a chain with packed liberties `libs` that touches the empty cell
/// whose key is `key` has that cell as its only liberty: then all its
/// pseudo-liberties are that cell, so `libs` is `count` times `key` (and if
/// the sum of squared deviations from the cell is zero, no other cell is
/// among them). Cheaper than [`libs_in_atari`], which must find the point.
#[inline]
const fn libs_only_at(libs: u64, key: u64) -> bool {
    libs == lib_count(libs).wrapping_mul(key)
}

/// Number of pseudo-liberties in packed liberties.
#[inline]
const fn lib_count(libs: u64) -> u64 {
    libs >> LIB_COUNT_SHIFT
}

/// Sum of the pseudo-liberty indices in packed liberties.
#[inline]
const fn lib_sum(libs: u64) -> u64 {
    (libs >> LIB_SUM_SHIFT) & ((1 << (LIB_COUNT_SHIFT - LIB_SUM_SHIFT)) - 1)
}

/// Whether packed liberties count at most one pseudo-liberty. Tested on the
/// upper half, so the constant fits in an instruction (a 64-bit mask would
/// need a register of its own in the hottest loop).
#[inline]
const fn at_most_one_lib(libs: u64) -> bool {
    (libs >> LIB_SUM_SHIFT) as u32 >> (LIB_COUNT_SHIFT - LIB_SUM_SHIFT + 1) == 0
}

/// Whether packed liberties are all one point (and there is at least one).
#[inline]
const fn libs_in_atari(libs: u64) -> bool {
    let count = lib_count(libs);
    let sum = lib_sum(libs);
    let sum_sq = libs & 0xFFFF_FFFF;
    (count * sum_sq == sum * sum) & (count != 0)
}

/// The ko ban of cell `i` for colour `c`: never 0, as no board point is cell 0.
#[inline]
fn ko_key(i: PointIndex, c: Color) -> u32 {
    (u32::from(i.0) << 1) | c.index() as u32
}

const fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// A cell of the board's internal array: a point of the board, fast to use.
///
/// Get one from [`Board::index`]; it is only meaningful for boards of the
/// size it was made for. The engine works in these; everything facing users
/// works in [`Point`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PointIndex(u16);

impl PointIndex {
    /// Position in the cell array.
    #[inline]
    #[must_use]
    pub const fn get(self) -> usize {
        self.0 as usize
    }
}

/// What the inner loops read about a neighbour, in eight bytes so a cell
/// index scales into an address for free; chain totals and the empty-list
/// slot live in arrays of their own.
#[derive(Clone, Copy, Debug)]
struct Cell {
    /// How many neighbours are empty, black, white and border (four bits each).
    around: u16,
    /// Head of this stone's chain.
    head: u16,
    /// Next stone of the chain (circular).
    next: u16,
    content: u8,
}

impl Cell {
    const BORDER: Cell = Cell {
        around: 4 * around(BORDER),
        head: 0,
        next: 0,
        content: BORDER,
    };
}

/// The packed liberties of border cells (border heads are cell 0, itself a
/// border cell): a value no chain has (no liberty, yet a sum of squares), so
/// a chain test on a border neighbour comes out false without a mask.
const BORDER_LIBS: u64 = 1;

/// Why the board refuses a stone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A stone is already there.
    #[error("the point is occupied")]
    Occupied,
    /// The stone would have no liberties and capture nothing.
    #[error("suicide: the stone would have no liberties and captures nothing")]
    Suicide,
    /// Immediate recapture of a single-stone ko.
    #[error("ko: the stone retakes a ko immediately")]
    Ko,
}

/// Stones on a square board with chains, liberties, captures and a hash.
///
/// ```
/// use shoutan_rules::{Board, BoardSize, Color, Point, Suicide};
/// let mut board: Board = "
///     . X O .
///     X O . .
///     . X O .
///     . . . .".parse().unwrap();
/// let at = board.index(Point::from_gtp("C3", board.size()).unwrap());
/// board.play(at, Color::Black, Suicide::Forbidden).unwrap();
/// assert_eq!(board.captures(Color::Black), 1);
/// assert_eq!(board.get(Point::from_gtp("B3", board.size()).unwrap()), None);
/// ```
pub struct Board {
    size: BoardSize,
    /// Cells in use: `(size + 2) × (size + 1) + 1`.
    used: usize,
    grid: Box<Grid>,
}

/// Everything a move reads and writes, in one allocation: the hot loops
/// are methods of this, so they reach every array from one base register at
/// fixed offsets, and as `&mut self` is known not to alias anything else
/// they keep values in registers across stores instead of reloading them.
#[derive(Clone)]
struct Grid {
    stride: u16,
    empty_count: usize,
    hash: u64,
    /// The simple ko as [`ko_key`] of the cell and the colour that may not
    /// take it next, or 0 for none: the candidate test compares one number.
    ko: u32,
    captures: [u32; 2],
    captured_count: usize,
    cells: CellArray<Cell>,
    /// At a chain's head: packed pseudo-liberties (see [`lib_key`]).
    libs: CellArray<u64>,
    /// At a chain's head: the number of stones.
    chain_stones: CellArray<u16>,
    /// At an empty cell: its position in `empties`.
    slots: CellArray<u16>,
    empties: CellArray<PointIndex>,
    /// Stones removed by the last `play`, reused from move to move.
    captured: CellArray<PointIndex>,
}

impl Grid {
    /// All border: the board's constructor opens its points.
    fn boxed(stride: u16) -> Box<Grid> {
        Box::new(Grid {
            stride,
            empty_count: 0,
            hash: 0,
            ko: 0,
            captures: [0, 0],
            captured_count: 0,
            cells: CellArray([Cell::BORDER; CELLS]),
            libs: CellArray([BORDER_LIBS; CELLS]),
            chain_stones: CellArray([0; CELLS]),
            slots: CellArray([0; CELLS]),
            empties: CellArray([PointIndex(0); CELLS]),
            captured: CellArray([PointIndex(0); CELLS]),
        })
    }
}

/// A per-cell array sized for the largest board. Indices are masked into
/// range, so indexing needs no bounds check (every index the board computes
/// is below `MAX_CELLS` anyway).
#[derive(Clone)]
struct CellArray<T>([T; CELLS]);

impl<T: Copy> CellArray<T> {
    /// Copies the first `n` entries of `other`.
    fn copy_prefix(&mut self, other: &Self, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }
}

impl<T> std::ops::Index<usize> for CellArray<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (CELLS - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for CellArray<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (CELLS - 1)]
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut board = Board {
            size: self.size,
            used: self.used,
            grid: Grid::boxed(self.grid.stride),
        };
        board.clone_from(self);
        board
    }

    /// Copies only the cells the source's size uses: cheap for small boards.
    fn clone_from(&mut self, other: &Board) {
        self.size = other.size;
        self.grid.stride = other.grid.stride;
        self.used = other.used;
        self.grid.cells.copy_prefix(&other.grid.cells, other.used);
        self.grid.libs.copy_prefix(&other.grid.libs, other.used);
        self.grid
            .chain_stones
            .copy_prefix(&other.grid.chain_stones, other.used);
        self.grid.slots.copy_prefix(&other.grid.slots, other.used);
        self.grid
            .empties
            .copy_prefix(&other.grid.empties, other.grid.empty_count);
        self.grid.empty_count = other.grid.empty_count;
        self.grid.hash = other.grid.hash;
        self.grid.ko = other.grid.ko;
        self.grid.captures = other.grid.captures;
        self.grid
            .captured
            .copy_prefix(&other.grid.captured, other.grid.captured_count);
        self.grid.captured_count = other.grid.captured_count;
    }
}

impl Board {
    /// An empty board.
    #[must_use]
    pub fn new(size: BoardSize) -> Board {
        let n = usize::from(size.get());
        let stride = n + 1;
        let used = (n + 2) * stride + 1;
        debug_assert!(used <= MAX_CELLS);
        let mut board = Board {
            size,
            used,
            grid: Grid::boxed(stride as u16),
        };
        for p in size.points() {
            let i = board.index(p);
            board.set_content(i, EMPTY);
            board.grid.push_empty(i);
        }
        board
    }

    /// Changes the content of a cell and the neighbour counts around it.
    #[inline]
    fn set_content(&mut self, i: PointIndex, content: u8) {
        let old = self.grid.cells[i.get()].content;
        self.grid.cells[i.get()].content = content;
        let delta = around(content).wrapping_sub(around(old));
        for n in self.neighbors(i) {
            let a = &mut self.grid.cells[n.get()].around;
            *a = a.wrapping_add(delta);
        }
    }

    /// The board's size.
    #[inline]
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The cell of `p`. `p` must lie on the board.
    #[inline]
    #[must_use]
    pub fn index(&self, p: Point) -> PointIndex {
        debug_assert!(self.size.contains(p));
        PointIndex((u16::from(p.row()) + 1) * self.grid.stride + u16::from(p.col()) + 1)
    }

    /// The point of an on-board cell.
    #[inline]
    #[must_use]
    pub fn point(&self, i: PointIndex) -> Point {
        let row = i.0 / self.grid.stride - 1;
        let col = i.0 % self.grid.stride - 1;
        Point::new(col as u8, row as u8)
    }

    /// The colour of the stone at `i`, if any.
    #[inline]
    #[must_use]
    pub fn stone(&self, i: PointIndex) -> Option<Color> {
        match self.grid.cells[i.get()].content {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// The colour of the stone at `p`, if any.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.stone(self.index(p))
    }

    /// Whether `i` is an empty point of the board (not a stone, not the border).
    #[inline]
    #[must_use]
    pub fn is_empty(&self, i: PointIndex) -> bool {
        self.grid.cells[i.get()].content == EMPTY
    }

    /// Whether `i` is a point of the board (not the border ring).
    #[inline]
    #[must_use]
    pub fn is_on_board(&self, i: PointIndex) -> bool {
        self.grid.cells[i.get()].content != BORDER
    }

    /// The empty points, in no particular order.
    #[inline]
    #[must_use]
    pub fn empty_points(&self) -> &[PointIndex] {
        &self.grid.empties.0[..self.grid.empty_count]
    }

    /// The four orthogonal neighbours; some may be off the board.
    #[inline]
    #[must_use]
    pub fn neighbors(&self, i: PointIndex) -> [PointIndex; 4] {
        self.grid.neighbors(i)
    }

    /// The four diagonal neighbours; some may be off the board.
    #[inline]
    #[must_use]
    pub fn diagonals(&self, i: PointIndex) -> [PointIndex; 4] {
        self.grid.diagonals(i)
    }

    /// Zobrist hash of the stones (not of the player to move).
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.grid.hash
    }

    /// Stones captured so far by `c` (prisoners `c` holds).
    #[inline]
    #[must_use]
    pub fn captures(&self, c: Color) -> u32 {
        self.grid.captures[c.index()]
    }

    /// The simple-ko point, and the colour it is forbidden to.
    #[inline]
    #[must_use]
    pub fn ko(&self) -> Option<(PointIndex, Color)> {
        (self.grid.ko != 0).then(|| {
            let color = Color::ALL[(self.grid.ko & 1) as usize];
            (PointIndex((self.grid.ko >> 1) as u16), color)
        })
    }

    /// Forgets the simple-ko point: a pass or any other turn lifts the ban.
    #[inline]
    pub fn clear_ko(&mut self) {
        self.grid.ko = 0;
    }

    /// The stones removed by the last [`play`](Self::play).
    #[inline]
    #[must_use]
    pub fn last_captured(&self) -> &[PointIndex] {
        &self.grid.captured.0[..self.grid.captured_count]
    }

    /// Number of stones on the board of colour `c`.
    #[must_use]
    pub fn stone_count(&self, c: Color) -> usize {
        let code = code(c);
        self.grid.cells.0[..self.used]
            .iter()
            .filter(|cell| cell.content == code)
            .count()
    }

    #[inline]
    fn head(&self, i: PointIndex) -> usize {
        self.grid.head(i)
    }

    /// Whether the chain through the stone at `i` has exactly one liberty.
    #[inline]
    #[must_use]
    pub fn in_atari(&self, i: PointIndex) -> bool {
        libs_in_atari(self.grid.libs[self.head(i)])
    }

    /// The only liberty of the chain at `i`, when it is in atari.
    #[must_use]
    pub fn atari_liberty(&self, i: PointIndex) -> Option<PointIndex> {
        self.in_atari(i).then(|| {
            let libs = self.grid.libs[self.head(i)];
            PointIndex((lib_sum(libs) / lib_count(libs)) as u16)
        })
    }

    /// Whether the chain through the stone at `i` has no liberty at all.
    #[inline]
    fn has_no_liberty(&self, i: PointIndex) -> bool {
        self.grid.has_no_liberty(i)
    }

    /// Number of stones in the chain through the stone at `i`.
    #[inline]
    #[must_use]
    pub fn chain_len(&self, i: PointIndex) -> usize {
        usize::from(self.grid.chain_stones[self.head(i)])
    }

    /// A chain's identity: equal for two stones exactly when they are connected.
    #[inline]
    #[must_use]
    pub fn chain_id(&self, i: PointIndex) -> PointIndex {
        PointIndex(self.grid.cells[i.get()].head)
    }

    /// The stones of the chain through the stone at `i`.
    pub fn chain(&self, i: PointIndex) -> impl Iterator<Item = PointIndex> + '_ {
        let start = i.0;
        let mut cur = Some(start);
        std::iter::from_fn(move || {
            let c = cur?;
            let next = self.grid.cells[usize::from(c)].next;
            cur = (next != start).then_some(next);
            Some(PointIndex(c))
        })
    }

    /// The distinct liberties of the chain through the stone at `i`.
    #[must_use]
    pub fn liberties(&self, i: PointIndex) -> Vec<PointIndex> {
        let mut seen = CellSet::default();
        let mut libs = Vec::new();
        for s in self.chain(i) {
            for n in self.neighbors(s) {
                if self.is_empty(n) && seen.insert(n) {
                    libs.push(n);
                }
            }
        }
        libs
    }

    /// Number of distinct liberties of the chain through the stone at `i`.
    #[must_use]
    pub fn liberty_count(&self, i: PointIndex) -> usize {
        let mut seen = CellSet::default();
        let mut count = 0;
        for s in self.chain(i) {
            for n in self.neighbors(s) {
                if self.is_empty(n) && seen.insert(n) {
                    count += 1;
                }
            }
        }
        count
    }

    /// Whether a stone of colour `c` may be placed at `i` (simple ko
    /// included, superko not: that needs the game's history).
    #[inline]
    #[must_use]
    pub fn is_legal(&self, i: PointIndex, c: Color, suicide: Suicide) -> bool {
        self.check(i, c, suicide).is_ok()
    }

    /// Why a stone of colour `c` may not be placed at `i`, if it may not.
    #[inline]
    pub fn check(&self, i: PointIndex, c: Color, suicide: Suicide) -> Result<(), BoardError> {
        if self.grid.cells[i.get()].content != EMPTY {
            return Err(BoardError::Occupied);
        }
        if self.grid.ko == ko_key(i, c) {
            return Err(BoardError::Ko);
        }
        if self.gains_liberty(i, c) {
            return Ok(());
        }
        let allowed = match suicide {
            Suicide::Forbidden => false,
            Suicide::MultiStoneOnly => self
                .neighbors(i)
                .iter()
                .any(|&n| self.grid.cells[n.get()].content == code(c)),
            Suicide::Allowed => true,
        };
        if allowed {
            Ok(())
        } else {
            Err(BoardError::Suicide)
        }
    }

    /// Whether a stone of `c` at empty `i` keeps a liberty or captures:
    /// an empty neighbour, an own chain with another liberty or an opponent
    /// chain whose last liberty is `i`.
    #[inline]
    fn gains_liberty(&self, i: PointIndex, c: Color) -> bool {
        count_of(self.grid.cells[i.get()].around, EMPTY) > 0
            || self.grid.surrounded_gains_liberty(i, c)
    }

    /// Whether `i` is an eye of `c` in the playout sense: every neighbour is
    /// `c` or the edge, and the diagonals leave it no false eye (at most one
    /// opponent diagonal in the centre, none on the edge).
    #[inline]
    #[must_use]
    pub fn is_eye(&self, i: PointIndex, c: Color) -> bool {
        let me = code(c);
        let packed = self.grid.cells[i.get()].around;
        count_of(packed, me) + count_of(packed, BORDER) == 4 && self.grid.diagonals_allow_eye(i, c)
    }

    /// The hash the board would have after `c` plays at `i`, without playing.
    /// `i` must be a legal move for `c` under `suicide`.
    #[must_use]
    pub fn hash_after(&self, i: PointIndex, c: Color) -> u64 {
        let mut h = self.grid.hash ^ zobrist::key(c, i.get());
        let opp = code(c.opponent());
        let mut seen = [0u16; 4];
        let mut n_seen = 0;
        let mut captures = false;
        for n in self.neighbors(i) {
            if self.grid.cells[n.get()].content == opp && self.in_atari(n) {
                let head = self.grid.cells[n.get()].head;
                if !seen[..n_seen].contains(&head) {
                    seen[n_seen] = head;
                    n_seen += 1;
                    captures = true;
                    for s in self.chain(n) {
                        h ^= zobrist::key(c.opponent(), s.get());
                    }
                }
            }
        }
        if !captures && !self.gains_liberty(i, c) {
            // Suicide (where the rules allow it): the stone and its chain go.
            h ^= zobrist::key(c, i.get());
            let me = code(c);
            for n in self.neighbors(i) {
                if self.grid.cells[n.get()].content == me {
                    let head = self.grid.cells[n.get()].head;
                    if !seen[..n_seen].contains(&head) {
                        seen[n_seen] = head;
                        n_seen += 1;
                        for s in self.chain(n) {
                            h ^= zobrist::key(c, s.get());
                        }
                    }
                }
            }
        }
        h
    }

    /// Places a stone of colour `c` at `i`: opponent chains without
    /// liberties are removed first, then the player's own (suicide, where
    /// allowed). Returns the number of opponent stones captured; on error
    /// nothing changes.
    pub fn play(&mut self, i: PointIndex, c: Color, suicide: Suicide) -> Result<usize, BoardError> {
        self.check(i, c, suicide)?;
        Ok(self.play_unchecked(i, c))
    }

    /// [`play`](Self::play) for a move already known to be legal (the engine's
    /// playouts check legality while choosing).
    #[inline]
    pub fn play_unchecked(&mut self, i: PointIndex, c: Color) -> usize {
        self.grid.play_as(i, c, Suicide::Allowed)
    }

    /// [`play_unchecked`](Self::play_unchecked) of a move legal under
    /// `suicide`, always inlined: light playouts call it with a constant
    /// colour and rule, so the colour's codes, shifts and hash keys fold into
    /// the instructions, and where suicide is forbidden the test for it goes.
    #[inline(always)]
    pub(crate) fn play_as(&mut self, i: PointIndex, c: Color, suicide: Suicide) -> usize {
        self.grid.play_as(i, c, suicide)
    }

    /// The first empty point from the `r`-th of `2³²` of the way through the
    /// empty list, wrapping round, where `c` may play and that is not `c`'s
    /// own eye: the move choice of light playouts.
    #[inline(always)]
    pub(crate) fn playable_from(&self, r: u32, c: Color, suicide: Suicide) -> Option<PointIndex> {
        self.grid.playable_from(r, c, suicide)
    }

    /// Whether `c` may play at empty `i` and `i` is not `c`'s own eye: the
    /// candidate test of light playouts, in one pass over the neighbours.
    #[inline(always)]
    #[must_use]
    pub fn is_playable_non_eye(&self, i: PointIndex, c: Color, suicide: Suicide) -> bool {
        self.grid.playable_non_eye(i, c, suicide)
    }

    /// Puts stones on and takes them off without captures (SGF setup, handicap,
    /// undo). Every chain must keep a liberty; otherwise nothing changes.
    pub fn set_stones(
        &mut self,
        changes: impl IntoIterator<Item = (Point, Option<Color>)>,
    ) -> Result<(), SetupError> {
        let before = self.clone();
        for (p, stone) in changes {
            if !self.size.contains(p) {
                *self = before;
                return Err(SetupError::OffBoard(p));
            }
            let i = self.index(p);
            self.grid.cells[i.get()].content = stone.map_or(EMPTY, code);
        }
        self.rebuild();
        if let Some(p) = self.size.points().find(|&p| {
            let i = self.index(p);
            self.stone(i).is_some() && self.has_no_liberty(i)
        }) {
            *self = before;
            return Err(SetupError::NoLiberty(p));
        }
        Ok(())
    }

    /// Recomputes chains, liberties, empties and hash from the contents.
    fn rebuild(&mut self) {
        for p in self.size.points() {
            let i = self.index(p);
            let packed = self
                .neighbors(i)
                .iter()
                .map(|n| around(self.grid.cells[n.get()].content))
                .sum();
            self.grid.cells[i.get()].around = packed;
        }
        self.grid.empty_count = 0;
        self.grid.hash = 0;
        self.grid.ko = 0;
        for p in self.size.points() {
            let i = self.index(p);
            self.grid.cells[i.get()].head = 0;
        }
        for p in self.size.points() {
            let i = self.index(p);
            match self.stone(i) {
                None => self.grid.push_empty(i),
                Some(c) => {
                    self.grid.hash ^= zobrist::key(c, i.get());
                    if self.grid.cells[i.get()].head == 0 {
                        self.rebuild_chain(i);
                    }
                }
            }
        }
    }

    fn rebuild_chain(&mut self, start: PointIndex) {
        let content = self.grid.cells[start.get()].content;
        let head = start.get();
        let mut stack = vec![start];
        let mut members = Vec::new();
        self.grid.cells[head].head = start.0;
        while let Some(s) = stack.pop() {
            members.push(s);
            for n in self.neighbors(s) {
                if self.grid.cells[n.get()].content == content && self.grid.cells[n.get()].head == 0
                {
                    self.grid.cells[n.get()].head = start.0;
                    stack.push(n);
                }
            }
        }
        self.grid.chain_stones[head] = members.len() as u16;
        self.grid.libs[head] = 0;
        for (k, &s) in members.iter().enumerate() {
            self.grid.cells[s.get()].next = members[(k + 1) % members.len()].0;
            for n in self.neighbors(s) {
                if self.grid.cells[n.get()].content == EMPTY {
                    self.grid.add_liberty(head, n);
                }
            }
        }
    }

    /// Every point with its stone, row by row from the top left.
    pub fn stones(&self) -> impl Iterator<Item = (Point, Option<Color>)> + '_ {
        self.size.points().map(|p| (p, self.get(p)))
    }
}

impl PartialEq for Board {
    /// Boards are equal when they hold the same stones (chains and prisoners
    /// follow from the history, not the position).
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size && self.stones().eq(other.stones())
    }
}

impl Eq for Board {}

/// The hot loops: moves, captures, merges and the playout move choice.
impl Grid {
    /// The four orthogonal neighbours; some may be off the board.
    #[inline(always)]
    fn neighbors(&self, i: PointIndex) -> [PointIndex; 4] {
        let s = self.stride;
        [
            PointIndex(i.0 - s),
            PointIndex(i.0 - 1),
            PointIndex(i.0 + 1),
            PointIndex(i.0 + s),
        ]
    }

    /// The four diagonal neighbours; some may be off the board.
    #[inline(always)]
    fn diagonals(&self, i: PointIndex) -> [PointIndex; 4] {
        let s = self.stride;
        [
            PointIndex(i.0 - s - 1),
            PointIndex(i.0 - s + 1),
            PointIndex(i.0 + s - 1),
            PointIndex(i.0 + s + 1),
        ]
    }

    #[inline(always)]
    fn head(&self, i: PointIndex) -> usize {
        usize::from(self.cells[i.get()].head)
    }

    /// Whether the chain through the stone at `i` has no liberty at all.
    #[inline(always)]
    fn has_no_liberty(&self, i: PointIndex) -> bool {
        self.libs[self.head(i)] == 0
    }

    #[inline]
    fn remove_empty(&mut self, i: PointIndex) {
        let slot = usize::from(self.slots[i.get()]);
        self.empty_count -= 1;
        let moved = self.empties[self.empty_count];
        self.empties[slot] = moved;
        self.slots[moved.get()] = slot as u16;
    }

    #[inline]
    fn push_empty(&mut self, i: PointIndex) {
        self.slots[i.get()] = self.empty_count as u16;
        self.empties[self.empty_count] = i;
        self.empty_count += 1;
    }

    /// Removes the chain through `i`; returns how many stones it had. Each
    /// stone's cell becomes a liberty of the adjacent opponent chains, added
    /// without branches (masked by content).
    fn remove_chain(&mut self, i: PointIndex) -> usize {
        let content = self.cells[i.get()].content;
        let other = content ^ (BLACK ^ WHITE);
        let color = if content == BLACK {
            Color::Black
        } else {
            Color::White
        };
        let delta = around(EMPTY).wrapping_sub(around(content));
        let mut s = i.0;
        let mut count = 0;
        loop {
            let p = PointIndex(s);
            let next = self.cells[p.get()].next;
            self.cells[p.get()].content = EMPTY;
            self.hash ^= zobrist::key(color, p.get());
            self.push_empty(p);
            self.captured[self.captured_count] = p;
            self.captured_count += 1;
            count += 1;
            let key = lib_key(p.get());
            for n in self.neighbors(p) {
                let cell = &mut self.cells[n.get()];
                cell.around = cell.around.wrapping_add(delta);
                let head = usize::from(cell.head);
                let gains = mask(cell.content == other);
                self.libs[head] += key & gains;
            }
            s = next;
            if s == i.0 {
                break;
            }
        }
        count
    }

    /// Joins chain `b` into chain `a`, or `a` into `b` when `b` has more
    /// stones: the smaller chain's stones are relabelled.
    fn merge(&mut self, a: usize, b: usize) {
        let (keep, gone) = if self.chain_stones[a] >= self.chain_stones[b] {
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
        if self.chain_stones[gone] > 4 {
            while s != gone {
                self.cells[s].head = keep as u16;
                s = usize::from(self.cells[s].next);
            }
        }
        let (kn, gn) = (self.cells[keep].next, self.cells[gone].next);
        self.cells[keep].next = gn;
        self.cells[gone].next = kn;
        self.chain_stones[keep] += self.chain_stones[gone];
        self.libs[keep] += self.libs[gone];
    }

    #[inline]
    fn add_liberty(&mut self, head: usize, lib: PointIndex) {
        self.libs[head] += lib_key(lib.get());
    }

    /// [`Board::is_playable_non_eye`].
    #[inline(always)]
    fn playable_non_eye(&self, i: PointIndex, c: Color, suicide: Suicide) -> bool {
        let packed = self.cells[i.get()].around;
        // An empty neighbour: legal, and neither an eye nor a ko point.
        if count_of(packed, EMPTY) > 0 {
            return true;
        }
        // Surrounded points (eyes, the opponent's eyes, ko) are most of the
        // candidates late in a playout. A third are the mover's own eyes:
        // rejecting those before the liberty test saves more than the
        // branch's mispredictions cost. The rest without branches: which
        // kind a point is cannot be predicted. With no empty neighbour, no
        // opponent neighbour means an eye shape.
        let eye_shape = packed & field(code(c.opponent())) == 0;
        let eye = eye_shape && self.diagonals_allow_eye(i, c);
        if eye {
            return false;
        }
        let ko = self.ko == ko_key(i, c);
        let suicide_ok = match suicide {
            Suicide::Forbidden => false,
            Suicide::MultiStoneOnly => packed & field(code(c)) != 0,
            Suicide::Allowed => true,
        };
        let gains = suicide_ok | self.surrounded_gains_liberty(i, c);
        // `gains && !ko` as one subtraction, so the caller branches once on
        // the answer: LLVM splits `a & b` into two jumps, each mispredicted.
        u32::from(gains).wrapping_sub(u32::from(ko)) == 1
    }

    /// [`Board::playable_from`]. Two plain loops instead of one with a wrap
    /// test, and masked indices, keep the scan short. Always inlined, so a
    /// constant colour folds into the candidate test.
    #[inline(always)]
    fn playable_from(&self, r: u32, c: Color, suicide: Suicide) -> Option<PointIndex> {
        let n = self.empty_count;
        // Multiply-shift range reduction: a bias below 2⁻²² is nothing for a playout.
        let start = ((u64::from(r) * n as u64) >> 32) as usize;
        for j in start..n {
            let i = self.empties[j];
            if self.playable_non_eye(i, c, suicide) {
                return Some(i);
            }
        }
        for j in 0..start {
            let i = self.empties[j];
            if self.playable_non_eye(i, c, suicide) {
                return Some(i);
            }
        }
        None
    }

    /// [`Board::play_as`].
    ///
    /// One branch-free pass over the neighbours updates their counts, takes
    /// the new stone's cell from every adjacent chain's liberties and
    /// collects the new stone's own; merges and captures, found as bit masks,
    /// follow behind one branch each.
    #[inline(always)]
    fn play_as(&mut self, i: PointIndex, c: Color, suicide: Suicide) -> usize {
        let me = code(c);
        let opp = me ^ (BLACK ^ WHITE);
        let at = i.get();
        let ns = self.neighbors(i).map(PointIndex::get);
        self.captured_count = 0;
        self.remove_empty(i);
        self.hash ^= zobrist::key(c, at);
        let key = lib_key(at);
        let delta = around(me).wrapping_sub(around(EMPTY));
        let mut libs = 0;
        let mut any_dead = false;
        // The chain the stone joins: an own neighbour's, else its own; and
        // whether two own neighbours are in different chains. Few values
        // live across the loop: more would spill to the stack.
        let mut join = at;
        let mut seen_own = false;
        let mut other_chains = false;
        for n in ns {
            let cell = &mut self.cells[n];
            cell.around = cell.around.wrapping_add(delta);
            let content = cell.content;
            let head = usize::from(cell.head);
            let is_own = content == me;
            libs += lib_key(n) & EMPTY_MASK[usize::from(content & 3)];
            other_chains |= is_own & seen_own & (head != join);
            seen_own |= is_own;
            join = if is_own { head } else { join };
            // An empty or border cell's head is stale: the content masks it
            // out. An opponent chain dies when it has one pseudo-liberty left
            // before this side's is taken (at most one: it has this one):
            // that one is `i`, and a chain that touches `i` from several
            // sides reaches one at its last side.
            let chain = self.libs[head];
            any_dead |= (content == opp) & at_most_one_lib(chain);
            self.libs[head] = chain.wrapping_sub(key & mask(is_own | (content == opp)));
        }
        let cell = &mut self.cells[at];
        cell.content = me;
        cell.next = i.0;
        self.chain_stones[at] = 0;
        self.libs[at] = 0;

        // Join without a branch: linking `at` after the chain's head works
        // for the one-stone chain of `at` alone too.
        self.cells[at].head = join as u16;
        self.cells[at].next = self.cells[join].next;
        self.cells[join].next = i.0;
        self.chain_stones[join] += 1;
        self.libs[join] += libs;
        // Own neighbours in other chains (rare): merge them.
        if other_chains {
            let mut merges = 0u32;
            for (k, &n) in ns.iter().enumerate() {
                let cell = self.cells[n];
                merges |= u32::from((cell.content == me) & (usize::from(cell.head) != join)) << k;
            }
            // At least one: the first needs no loop test.
            loop {
                let n = ns[merges.trailing_zeros() as usize & 3];
                merges &= merges - 1;
                let (mine, theirs) = (self.head(i), usize::from(self.cells[n].head));
                if mine != theirs {
                    self.merge(theirs, mine);
                }
                if merges == 0 {
                    break;
                }
            }
        }

        let mut captured = 0;
        if any_dead {
            let mut dead = 0u32;
            for (k, &n) in ns.iter().enumerate() {
                let cell = self.cells[n];
                let gone = self.libs[usize::from(cell.head)] == 0;
                dead |= u32::from((cell.content == opp) & gone) << k;
            }
            // At least one: the first needs no loop test.
            loop {
                let n = ns[dead.trailing_zeros() as usize & 3];
                dead &= dead - 1;
                // Two sides of one chain: the first removal empties the second.
                if self.cells[n].content == opp {
                    captured += self.remove_chain(PointIndex(n as u16));
                }
                if dead == 0 {
                    break;
                }
            }
        }
        self.captures[c.index()] += captured as u32;
        self.ko = 0;
        if suicide != Suicide::Forbidden && self.has_no_liberty(i) {
            let lost = self.remove_chain(i);
            self.captures[c.opponent().index()] += lost as u32;
            self.captured_count = captured;
        } else if captured == 1 {
            let h = self.head(i);
            if self.chain_stones[h] == 1 && lib_count(self.libs[h]) == 1 {
                self.ko = ko_key(self.captured[0], c.opponent());
            }
        }
        captured
    }

    /// [`Board::gains_liberty`] for a point with no empty neighbour (whose
    /// stale head would mislead the test): an own chain not in atari at
    /// `i`, or an opponent chain
    /// that is. A border neighbour counts as neither without a test: its
    /// head's [`BORDER_LIBS`] are never "only at `i`", and it is not `c`.
    #[inline]
    fn surrounded_gains_liberty(&self, i: PointIndex, c: Color) -> bool {
        let me = code(c);
        let key = lib_key(i.get());
        let mut gains = false;
        for n in self.neighbors(i) {
            let cell = &self.cells[n.get()];
            let only_here = libs_only_at(self.libs[usize::from(cell.head)], key);
            gains |= (cell.content == me) != only_here;
        }
        gains
    }

    /// The diagonal half of [`Board::is_eye`], without branches: at most
    /// one opponent stone on the diagonals, none on the edge (where a
    /// neighbour is off the board, so is a diagonal). Read from the four
    /// cells when asked rather than kept up to date at every stone: only
    /// eye-shaped playout candidates ask.
    #[inline]
    fn diagonals_allow_eye(&self, i: PointIndex, c: Color) -> bool {
        let opp = code(c.opponent());
        let bad: u16 = self
            .diagonals(i)
            .iter()
            .map(|d| u16::from(self.cells[d.get()].content == opp))
            .sum();
        let edge = u16::from(count_of(self.cells[i.get()].around, BORDER) > 0);
        bad + edge < 2
    }
}

/// A setup that is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A stone off the board.
    #[error("a set-up stone at column {}, row {} is off the board", .0.col() + 1, .0.row() + 1)]
    OffBoard(Point),
    /// A chain with no liberty: setup stones never capture.
    #[error("the set-up stones at {} would have no liberty", .0.to_sgf())]
    NoLiberty(Point),
}

/// A set of cells, on the stack.
#[derive(Default)]
pub(crate) struct CellSet([u64; MAX_CELLS.div_ceil(64)]);

impl CellSet {
    /// Adds `i`; true when it was not there.
    #[inline]
    pub(crate) fn insert(&mut self, i: PointIndex) -> bool {
        let (w, b) = (i.get() / 64, i.get() % 64);
        let fresh = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        fresh
    }

    /// Whether `i` is in the set.
    #[inline]
    pub(crate) fn contains(&self, i: PointIndex) -> bool {
        self.0[i.get() / 64] & (1 << (i.get() % 64)) != 0
    }
}

/// Diagram text that is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// Rows of different lengths, or not as many rows as columns.
    #[error("a diagram must be square: {rows} rows, row {row} has {cols} points")]
    NotSquare {
        /// Number of rows.
        rows: usize,
        /// The first row that does not fit (from 1).
        row: usize,
        /// Its number of points.
        cols: usize,
    },
    /// Size outside 2..=25.
    #[error(transparent)]
    Size(#[from] crate::point::BoardSizeError),
    /// A chain without liberties.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

impl std::str::FromStr for Board {
    type Err = DiagramError;

    /// Reads an ASCII diagram: `X`/`#` black, `O`/`@` white, `.`/`+`/`,`
    /// empty; other characters (spaces, coordinates) are ignored; blank lines
    /// are skipped. A diagram with a coordinate header is accepted as long as
    /// the header has none of those characters.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rows: Vec<Vec<Option<Color>>> = s
            .lines()
            .map(|line| {
                line.chars()
                    .filter_map(|ch| match ch {
                        'X' | 'x' | '#' => Some(Some(Color::Black)),
                        'O' | 'o' | '@' => Some(Some(Color::White)),
                        '.' | '+' | ',' => Some(None),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let size = BoardSize::new(rows.len() as u32)?;
        if let Some((r, row)) = rows
            .iter()
            .enumerate()
            .find(|(_, row)| row.len() != rows.len())
        {
            return Err(DiagramError::NotSquare {
                rows: rows.len(),
                row: r + 1,
                cols: row.len(),
            });
        }
        let mut board = Board::new(size);
        let stones = rows.iter().enumerate().flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(move |(c, &s)| (Point::new(c as u8, r as u8), s))
        });
        board.set_stones(stones)?;
        Ok(board)
    }
}

impl fmt::Display for Board {
    /// A diagram with GTP coordinates: `X` black, `O` white, `+` star points.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size.get();
        let stars = crate::handicap::star_points(self.size);
        let header: String = (0..n)
            .map(|c| {
                let p = Point::new(c, 0).to_gtp(self.size);
                format!(" {}", &p[..1])
            })
            .collect();
        writeln!(f, "   {header}")?;
        for row in 0..n {
            write!(f, "{:>2} ", n - row)?;
            for col in 0..n {
                let p = Point::new(col, row);
                let ch = match self.get(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if stars.contains(&p) => '+',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f, "  {}", n - row)?;
        }
        write!(f, "   {header}")
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board (hash {:016x}):", self.grid.hash)?;
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gtp(board: &Board, s: &str) -> PointIndex {
        board.index(Point::from_gtp(s, board.size()).unwrap())
    }

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn captures_several_groups_at_once() {
        // Black at B3 takes four separate white stones.
        let mut b = board(
            "
            . X . . .
            X O X . .
            O . O X .
            X O X . .
            . X . . .",
        );
        let at = gtp(&b, "B3");
        assert_eq!(b.play(at, Color::Black, Suicide::Forbidden), Ok(4));
        assert_eq!(b.captures(Color::Black), 4);
        assert_eq!(
            b,
            board(
                "
                . X . . .
                X . X . .
                . X . X .
                X . X . .
                . X . . ."
            )
        );
    }

    #[test]
    fn capture_comes_before_suicide() {
        // White at A1 has no liberty, but it removes the black stones first.
        let mut b = board(
            "
            . . . .
            O . . .
            X O . .
            . X O .",
        );
        let at = gtp(&b, "A1");
        assert_eq!(b.play(at, Color::White, Suicide::Forbidden), Ok(2));
        assert_eq!(b.stone_count(Color::Black), 0);
        assert_eq!(b.liberty_count(at), 2);
    }

    #[test]
    fn suicide_single_and_multi_stone() {
        let b = board(
            "
            . O . .
            O . . .
            . . . .
            . . . .",
        );
        let corner = gtp(&b, "A4");
        for rule in [Suicide::Forbidden, Suicide::MultiStoneOnly] {
            assert_eq!(
                b.check(corner, Color::Black, rule),
                Err(BoardError::Suicide)
            );
        }
        let mut allowed = b.clone();
        assert_eq!(allowed.play(corner, Color::Black, Suicide::Allowed), Ok(0));
        assert_eq!(
            allowed, b,
            "a single-stone suicide leaves the board as it was"
        );
        assert_eq!(allowed.captures(Color::White), 1);

        let mut b = board(
            "
            X O . .
            . O . .
            O . . .
            . . . .",
        );
        let at = gtp(&b, "A3");
        assert_eq!(
            b.check(at, Color::Black, Suicide::Forbidden),
            Err(BoardError::Suicide)
        );
        assert_eq!(b.play(at, Color::Black, Suicide::MultiStoneOnly), Ok(0));
        assert_eq!(b.captures(Color::White), 2);
        assert_eq!(b.stone_count(Color::Black), 0);
    }

    #[test]
    fn simple_ko_forbids_immediate_recapture_only() {
        let mut b = board(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        );
        let take = gtp(&b, "C3");
        b.play(take, Color::Black, Suicide::Forbidden).unwrap();
        let back = gtp(&b, "B3");
        assert_eq!(
            b.check(back, Color::White, Suicide::Forbidden),
            Err(BoardError::Ko)
        );
        // A ko threat elsewhere lifts the ban.
        b.play(gtp(&b, "D1"), Color::White, Suicide::Forbidden)
            .unwrap();
        b.play(gtp(&b, "C1"), Color::Black, Suicide::Forbidden)
            .unwrap();
        assert_eq!(b.play(back, Color::White, Suicide::Forbidden), Ok(1));
    }

    #[test]
    fn snapback_is_not_ko() {
        // Black throws in at B1, white takes it at A1, black takes back five.
        let mut b = board(
            "
            . . . . .
            . . . . .
            X X X X .
            O O O X .
            . . O X .",
        );
        let throw_in = gtp(&b, "B1");
        assert_eq!(b.play(throw_in, Color::Black, Suicide::Forbidden), Ok(0));
        assert_eq!(
            b.play(gtp(&b, "A1"), Color::White, Suicide::Forbidden),
            Ok(1)
        );
        assert_eq!(b.ko(), None, "the taking chain has more than one stone");
        assert_eq!(b.play(throw_in, Color::Black, Suicide::Forbidden), Ok(5));
        assert_eq!(b.stone_count(Color::White), 0);
    }

    #[test]
    fn hash_after_matches_the_played_hash() {
        let mut b = board(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        );
        let at = gtp(&b, "C3");
        let predicted = b.hash_after(at, Color::Black);
        b.play(at, Color::Black, Suicide::Forbidden).unwrap();
        assert_eq!(predicted, b.hash());
    }

    #[test]
    fn atari_is_detected_through_pseudo_liberties() {
        let b = board(
            "
            . X O .
            X O . O
            . X O .
            . . . .",
        );
        let white = gtp(&b, "B3");
        assert!(b.in_atari(white));
        assert_eq!(b.atari_liberty(white), Some(gtp(&b, "C3")));
        assert_eq!(b.liberty_count(gtp(&b, "C4")), 2);
        assert_eq!(b.liberties(white), vec![gtp(&b, "C3")]);
        assert!(!b.in_atari(gtp(&b, "B2")));
    }

    #[test]
    fn diagram_round_trip() {
        let b = board(
            "
            X . O
            . . .
            O . X",
        );
        let shown = b.to_string();
        assert_eq!(shown.parse::<Board>().unwrap(), b);
        assert!(shown.contains(" 3  X . O  3"));
    }

    #[test]
    fn diagram_errors() {
        assert!(matches!(
            "X .\n. . .".parse::<Board>(),
            Err(DiagramError::NotSquare { .. })
        ));
        assert!(matches!(
            "X O\nO .".parse::<Board>(),
            Err(DiagramError::Setup(_))
        ));
    }
}
