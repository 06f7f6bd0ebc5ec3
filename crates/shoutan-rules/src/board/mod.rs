//! The board: stones, chains with incremental liberties, captures, simple ko,
//! the true eyes, and an incremental Zobrist hash. This is the hot path of
//! the engine and of every playout, so it never allocates while playing.
//!
//! Layout: a one-dimensional array of `(size + 2) × (size + 1) + 1` cells
//! with a border ring, so the four neighbours of any on-board cell are at
//! `±1` and `±stride` and never out of bounds. Each chain is a circular
//! linked list of its stones; its head (any one stone) carries the number of
//! stones and its *pseudo-liberties*: every (stone, empty neighbour) pair,
//! with the sum and the sum of squares of those liberty indices, packed in
//! one `u64` (see `grid::lib_key`) so adding or removing a liberty is one
//! add. A chain is in atari exactly when all its pseudo-liberties are one
//! point, which is when `count × Σ² = (Σ)²`; that point is `Σ / count`.
//! Every empty or border cell is its own head, so a stone's update of the
//! chains around it needs no mask for the neighbours that are none.
//!
//! Every point also keeps one word of what its neighbours hold (their
//! liberty keys, colours, and eyes on its diagonals), and the empty points
//! are kept in one list with each colour's true eyes apart from the rest
//! (see `eyes`), so a light playout draws its moves where nearly every
//! point is playable. The arrays and the move's other state share one
//! allocation (`grid::Grid`), whose methods are the hot loops; light
//! playouts run them with the board's stride a constant (`grid::Stride`).

mod eyes;
mod grid;

use std::fmt;

pub(crate) use self::grid::{AnyStride, FixedStride, Stride};
use self::grid::{
    BLACK, BORDER, EMPTY, Grid, Slot, WHITE, code, has_empty_nbr, ko_key, lib_count, lib_sum,
    libs_in_atari,
};
use crate::ruleset::Suicide;
use crate::zobrist::{self, MAX_CELLS};
use crate::{BoardSize, Color, Point};

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
        self.used = other.used;
        self.grid.copy_from(&other.grid, other.used);
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
        // Every cell its own head: the empty and border cells never change
        // that, so a stone's update of its neighbours' chains needs no mask.
        for cell in 0..used {
            board.grid.cells[cell].head = cell as u16;
        }
        for p in size.points() {
            let i = board.index(p);
            board.grid.cells[i.get()].content = EMPTY;
            board.grid.push_plain(i);
        }
        board.recount_neighbours();
        board
    }

    /// Computes every point's neighbour word from the contents.
    fn recount_neighbours(&mut self) {
        for p in self.size.points() {
            let at = Slot::of(self.index(p));
            self.grid.nbrs[at] = self.grid.contents_word(at);
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
        self.grid.empties.prefix(self.grid.empty_count)
    }

    /// The four orthogonal neighbours; some may be off the board.
    #[inline]
    #[must_use]
    pub fn neighbors(&self, i: PointIndex) -> [PointIndex; 4] {
        self.grid
            .neighbour_slots(Slot::of(i), AnyStride)
            .map(Slot::point)
    }

    /// The four diagonal neighbours; some may be off the board.
    #[inline]
    #[must_use]
    pub fn diagonals(&self, i: PointIndex) -> [PointIndex; 4] {
        self.grid
            .diagonal_slots(Slot::of(i), AnyStride)
            .map(Slot::point)
    }

    /// Zobrist hash of the stones (not of the player to move).
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.grid.hash
    }

    /// What a stone of colour `c` at `i` adds to [`Board::hash`] (by
    /// xor): a search that counts some points as interchangeable rewrites
    /// their part of the hash with it.
    #[inline]
    #[must_use]
    pub fn stone_hash(i: PointIndex, c: Color) -> u64 {
        zobrist::key(c, i.get())
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
        self.grid.captured.prefix(self.grid.captured_count)
    }

    /// Number of stones on the board of colour `c`.
    #[must_use]
    pub fn stone_count(&self, c: Color) -> usize {
        let code = code(c);
        self.grid
            .cells
            .prefix(self.used)
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
        usize::from(self.grid.cells[self.head(i)].stones)
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
        has_empty_nbr(self.grid.nbrs[i.get()])
            || self.grid.surrounded_gains_liberty(i, c, AnyStride)
    }

    /// Whether `i` is an eye of `c` in the playout sense: every neighbour is
    /// `c` or the edge, and the diagonals leave it no false eye (at most one
    /// opponent diagonal in the centre, none on the edge).
    #[inline]
    #[must_use]
    pub fn is_eye(&self, i: PointIndex, c: Color) -> bool {
        self.grid.is_true_eye(i, c, AnyStride)
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
        self.grid.play_as(i, c, Suicide::Allowed, AnyStride)
    }

    /// [`play_unchecked`](Self::play_unchecked) of a move legal under
    /// `suicide`, always inlined: light playouts call it with a constant
    /// colour and rule, so the colour's codes, shifts and hash keys fold into
    /// the instructions, and where suicide is forbidden the test for it goes.
    #[inline(always)]
    pub(crate) fn play_as(
        &mut self,
        i: PointIndex,
        c: Color,
        suicide: Suicide,
        st: impl Stride,
    ) -> usize {
        self.grid.play_as(i, c, suicide, st)
    }

    /// A uniformly random point where `c` may play under `suicide` (simple
    /// ko included) that is not `c`'s own eye, or `None` when there is none:
    /// the move choice of light playouts.
    /// Finding eyes on the way, it lists them, which is why it takes the
    /// board mutably; [`choose_by_scan`](Self::choose_by_scan) draws from
    /// the same distribution without.
    #[inline(always)]
    pub(crate) fn choose(
        &mut self,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
        st: impl Stride,
    ) -> Option<PointIndex> {
        self.grid.choose(c, suicide, rng, st)
    }

    /// [`choose`](Self::choose) by one pass over every candidate.
    pub(crate) fn choose_by_scan(
        &self,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
    ) -> Option<PointIndex> {
        self.grid
            .choose_by_scan(c, suicide, rng, AnyStride, |_| true)
    }

    /// [`choose_by_scan`](Self::choose_by_scan) among the candidates that
    /// `keep` accepts.
    pub(crate) fn choose_by_scan_where(
        &self,
        c: Color,
        suicide: Suicide,
        rng: &mut fastrand::Rng,
        mut keep: impl FnMut(&Board, PointIndex) -> bool,
    ) -> Option<PointIndex> {
        self.grid
            .choose_by_scan(c, suicide, rng, AnyStride, |i| keep(self, i))
    }

    /// Whether `c` may play at the empty point `i` and `i` is not `c`'s own
    /// eye: the candidate test of light playouts.
    #[inline(always)]
    #[must_use]
    pub fn is_playable_non_eye(&self, i: PointIndex, c: Color, suicide: Suicide) -> bool {
        self.grid.playable_non_eye(i, c, suicide, AnyStride)
    }

    /// [`is_playable_non_eye`](Self::is_playable_non_eye) on a board of
    /// stride `st`, for an empty or occupied `i`.
    #[inline(always)]
    pub(crate) fn is_playable_non_eye_as(
        &self,
        i: PointIndex,
        c: Color,
        suicide: Suicide,
        st: impl Stride,
    ) -> bool {
        self.grid.cells[i.get()].content == EMPTY && self.grid.playable_non_eye(i, c, suicide, st)
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

    /// Recomputes chains, liberties, empties, eyes and hash from the contents.
    fn rebuild(&mut self) {
        self.recount_neighbours();
        self.grid.hash = 0;
        self.grid.ko = 0;
        for p in self.size.points() {
            let i = self.index(p);
            self.grid.cells[i.get()].head = i.0;
        }
        let mut chained = CellSet::default();
        for p in self.size.points() {
            let i = self.index(p);
            if let Some(c) = self.stone(i) {
                self.grid.hash ^= zobrist::key(c, i.get());
                if !chained.contains(i) {
                    self.rebuild_chain(i, &mut chained);
                }
            }
        }
        let points: Vec<PointIndex> = self.size.points().map(|p| self.index(p)).collect();
        self.grid.forget_eyes(&points);
    }

    /// Links the chain through `start` (whose stones are not in `chained`)
    /// and counts its liberties, with `start` as its head.
    fn rebuild_chain(&mut self, start: PointIndex, chained: &mut CellSet) {
        let content = self.grid.cells[start.get()].content;
        let head = start.get();
        let mut stack = vec![start];
        let mut members = Vec::new();
        chained.insert(start);
        while let Some(s) = stack.pop() {
            members.push(s);
            self.grid.cells[s.get()].head = start.0;
            for n in self.neighbors(s) {
                if self.grid.cells[n.get()].content == content && chained.insert(n) {
                    stack.push(n);
                }
            }
        }
        self.grid.cells[head].stones = members.len() as u16;
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

    /// A move choice under test: `choose` (draws, which list the eyes they
    /// find) or `choose_by_scan`.
    type Pick = fn(&mut Board, Color, Suicide, &mut fastrand::Rng) -> Option<PointIndex>;

    const PICKS: [(&str, Pick); 2] = [
        ("scan", |b, c, suicide, rng| {
            b.choose_by_scan(c, suicide, rng)
        }),
        ("draws", |b, c, suicide, rng| {
            b.choose(c, suicide, rng, AnyStride)
        }),
    ];

    /// How often each point is picked by `pick` from `board` for `c`.
    fn picks(
        board: &mut Board,
        c: Color,
        suicide: Suicide,
        times: usize,
        pick: Pick,
    ) -> std::collections::BTreeMap<PointIndex, usize> {
        let mut rng = fastrand::Rng::with_seed(11);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..times {
            let i = pick(board, c, suicide, &mut rng).unwrap();
            *seen.entry(i).or_insert(0) += 1;
        }
        seen
    }

    /// Every point `c` may play that is not `c`'s own eye, by the plain rules.
    fn playable(board: &Board, c: Color, suicide: Suicide) -> Vec<PointIndex> {
        board
            .empty_points()
            .iter()
            .copied()
            .filter(|&i| board.is_legal(i, c, suicide) && !board.is_eye(i, c))
            .collect()
    }

    /// Asserts that both move choices hit exactly the points `c` may play,
    /// each about as often (within a fifth of the mean: ten standard
    /// deviations here). The scan goes first, on eyes no draw listed yet.
    fn assert_uniform(board: &mut Board, c: Color, suicide: Suicide) {
        let mut expected = playable(board, c, suicide);
        expected.sort();
        let times = 400 * expected.len();
        for (name, pick) in PICKS {
            let seen = picks(board, c, suicide, times, pick);
            assert_eq!(seen.keys().copied().collect::<Vec<_>>(), expected, "{name}");
            let mean = times / expected.len();
            for (i, &n) in &seen {
                assert!(
                    n.abs_diff(mean) < mean / 5,
                    "{name}: {:?} picked {n} times, expected about {mean}",
                    board.point(*i)
                );
            }
        }
    }

    #[test]
    fn the_move_choice_draws_every_playable_point_alike() {
        // Black's eye at A2 is no candidate for black; White's eye at D1
        // neither (a black stone there has no liberty and captures nothing).
        let mut b = board(
            "
            . . . . .
            . . . . .
            X X X . .
            . X O O O
            X X O . O",
        );
        assert_uniform(&mut b, Color::Black, Suicide::Forbidden);
        assert!(!playable(&b, Color::Black, Suicide::Forbidden).contains(&gtp(&b, "D1")));
        assert_uniform(&mut b, Color::White, Suicide::Forbidden);
        // Where suicide is allowed, a stone in White's eye is a move.
        assert_uniform(&mut b, Color::Black, Suicide::Allowed);
        assert!(playable(&b, Color::Black, Suicide::Allowed).contains(&gtp(&b, "D1")));
    }

    #[test]
    fn a_miss_among_few_candidates_scans_them_alike() {
        // Black may play A4 (a false eye) and A1. Not C1 (suicide), nor
        // White's eye D3 (it captures nothing), nor its own eye B5: once the
        // draws list the eyes, two of three candidates, few enough that a
        // miss scans them.
        let mut b = board(
            "
            X . X X X
            . X X O O
            X O O . O
            X O O O O
            . O . X O",
        );
        assert_eq!(playable(&b, Color::Black, Suicide::Forbidden).len(), 2);
        assert_uniform(&mut b, Color::Black, Suicide::Forbidden);
        assert_eq!(
            (b.grid.black_eyes, b.grid.eye_end),
            (1, 2),
            "B5 and D3 listed"
        );
        b.grid.audit(&points(&b)).unwrap();
    }

    #[test]
    fn an_eye_where_a_stone_captures_is_a_candidate() {
        // White's group has one liberty, its eye at D1: black may take it.
        let mut b = board(
            "
            . . . . .
            . . . . .
            X X X X X
            . X O O O
            X X O . O",
        );
        assert!(playable(&b, Color::Black, Suicide::Forbidden).contains(&gtp(&b, "D1")));
        assert_uniform(&mut b, Color::Black, Suicide::Forbidden);
        b.grid.audit(&points(&b)).unwrap();
        // Taking it makes D1 a plain point again and lists nothing wrong.
        let d1 = gtp(&b, "D1");
        assert_eq!(
            b.play_as(d1, Color::Black, Suicide::Forbidden, AnyStride),
            5
        );
        b.grid.audit(&points(&b)).unwrap();
    }

    fn points(board: &Board) -> Vec<PointIndex> {
        board.size().points().map(|p| board.index(p)).collect()
    }

    mod bookkeeping {
        use proptest::prelude::*;

        use super::*;

        fn sizes() -> impl Strategy<Value = u32> {
            prop::sample::select(vec![2, 3, 4, 5, 7, 9, 13, 19])
        }

        fn rules() -> impl Strategy<Value = Suicide> {
            prop::sample::select(vec![
                Suicide::Forbidden,
                Suicide::MultiStoneOnly,
                Suicide::Allowed,
            ])
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            /// Random games mixing the playout's move choice with any legal
            /// move (own eyes filled, suicides where allowed): after every
            /// move the grid's incremental state equals a recount. The usual
            /// sizes run with their fixed stride, as light playouts do.
            #[test]
            fn eyes_runs_and_words_stay_exact(size in sizes(), rule in rules(), seed: u64) {
                let size = BoardSize::new(size).unwrap();
                let result = match size.get() {
                    9 => random_game(size, rule, seed, FixedStride::<10>),
                    13 => random_game(size, rule, seed, FixedStride::<14>),
                    19 => random_game(size, rule, seed, FixedStride::<20>),
                    _ => random_game(size, rule, seed, AnyStride),
                };
                prop_assert_eq!(result, Ok(()));
            }
        }

        fn random_game(
            size: BoardSize,
            rule: Suicide,
            seed: u64,
            st: impl Stride,
        ) -> Result<(), String> {
            let mut board = Board::new(size);
            let points = points(&board);
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut c = Color::Black;
            let mut passes = 0;
            for _ in 0..3 * size.area() {
                let choice = if rng.bool() {
                    board.choose(c, rule, &mut rng, st)
                } else {
                    let legal: Vec<_> = board
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&i| board.is_legal(i, c, rule))
                        .collect();
                    (!legal.is_empty()).then(|| legal[rng.usize(..legal.len())])
                };
                board.grid.audit(&points)?;
                match choice {
                    Some(i) => {
                        if !board.is_legal(i, c, rule) {
                            return Err(format!("chose the illegal {:?}", board.point(i)));
                        }
                        board.play_as(i, c, rule, st);
                        passes = 0;
                    }
                    None => {
                        board.clear_ko();
                        passes += 1;
                        if passes == 2 {
                            break;
                        }
                    }
                }
                board.grid.audit(&points)?;
                c = c.opponent();
            }
            Ok(())
        }
    }
}
