//! The board as KataGo keeps it (`game/board.cpp`), for the features.
//!
//! Every chain is a circular list of its stones whose head holds the number
//! of stones and the exact number of liberties, and a move is undone from a
//! small record. The features read liberty counts everywhere and the ladder
//! search plays and undoes thousands of moves, which Shoutan's board (with
//! pseudo-liberties and no undo) is not made for.
//!
//! The lists are linked exactly as KataGo links them, on merges, captures,
//! undos and rebuilds alike: the ladder search's node budget makes its
//! answer depend on the order in which it meets liberties, and that order is
//! the order of the chain lists. Cells are numbered as KataGo numbers them
//! (`(x + 1) + (y + 1)(size + 1)`, `y` from the top), which is also
//! Shoutan's [`PointIndex`](shoutan_rules::PointIndex).

use shoutan_rules::{BoardSize, Color, Point};

/// A cell of the board, KataGo's `Loc`. 0 is never on the board.
pub(crate) type Loc = u16;

/// No cell: no ko, no head.
pub(crate) const NO_LOC: Loc = 0;

/// What a cell holds, with KataGo's codes.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;
const WALL: u8 = 3;

/// The code of a colour.
pub(crate) const fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// The other player's code (for [`BLACK`] and [`WHITE`] only).
pub(crate) const fn other(pla: u8) -> u8 {
    3 - pla
}

/// Cells of the padded array of the largest board: (25 + 2) × 26 + 1.
const MAX_CELLS: usize = 27 * 26 + 1;

/// splitmix64: fixed, well-mixed Zobrist keys, the same in every process.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn zobrist_keys() -> [[u64; MAX_CELLS]; 2] {
    let mut keys = [[0; MAX_CELLS]; 2];
    let mut i = 0;
    while i < MAX_CELLS {
        keys[0][i] = splitmix(0x6e6e_6665_6174_0000 ^ (2 * i as u64));
        keys[1][i] = splitmix(0x6e6e_6665_6174_0000 ^ (2 * i as u64 + 1));
        i += 1;
    }
    keys
}

static ZOBRIST: [[u64; MAX_CELLS]; 2] = zobrist_keys();

/// The Zobrist key of a stone of `pla` on `loc`.
fn stone_key(loc: Loc, pla: u8) -> u64 {
    ZOBRIST[usize::from(pla - 1)][usize::from(loc)]
}

/// One cell: its content and, for stones, its chain's links. `stones` and
/// `libs` are meaningful at a chain's head only (KataGo's `chain_data`).
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    color: u8,
    head: Loc,
    next: Loc,
    stones: u16,
    libs: u16,
}

/// What [`ChainBoard::play_recorded`] needs to undo a move: KataGo's
/// `MoveRecord`, without suicide (the ladder search never plays one).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MoveRecord {
    loc: Loc,
    pla: u8,
    ko: Loc,
    /// Bit `i`: the move captured the chain in direction `i`.
    captured_directions: u8,
}

/// A board with chains, exact liberty counts, the simple-ko point and undo,
/// as KataGo keeps it.
#[derive(Clone, Debug)]
pub(crate) struct ChainBoard {
    size: BoardSize,
    stride: Loc,
    cells: Vec<Cell>,
    ko: Loc,
    hash: u64,
    /// Stones of each colour captured (suicides included), black first.
    lost: [u32; 2],
}

impl PartialEq for ChainBoard {
    /// Same stones (the chains' links and the captures are history).
    fn eq(&self, other: &ChainBoard) -> bool {
        self.size == other.size
            && self
                .cells
                .iter()
                .zip(&other.cells)
                .all(|(a, b)| a.color == b.color)
    }
}

impl ChainBoard {
    /// An empty board.
    pub(crate) fn new(size: BoardSize) -> ChainBoard {
        let n = Loc::from(size.get());
        let stride = n + 1;
        let used = usize::from((n + 2) * stride + 1);
        let mut board = ChainBoard {
            size,
            stride,
            cells: vec![
                Cell {
                    color: WALL,
                    ..Cell::default()
                };
                used
            ],
            ko: NO_LOC,
            hash: 0,
            lost: [0, 0],
        };
        for loc in board.locs() {
            board.cells[usize::from(loc)].color = EMPTY;
        }
        board
    }

    /// The stones of `board`, placed row by row from the top left as
    /// KataGo's `parseBoard` and `setStonesFailIfNoLibs` place them (each a
    /// move without captures: a position whose chains all have liberties
    /// never captures on the way).
    pub(crate) fn from_board(board: &shoutan_rules::Board) -> ChainBoard {
        let mut chains = ChainBoard::new(board.size());
        for (p, stone) in board.stones() {
            if let Some(c) = stone {
                chains.play(chains.loc(p), code(c));
            }
        }
        chains.ko = NO_LOC;
        chains
    }

    /// The board's size.
    pub(crate) fn size(&self) -> BoardSize {
        self.size
    }

    /// The cell of a point of the board.
    pub(crate) fn loc(&self, p: Point) -> Loc {
        (Loc::from(p.row()) + 1) * self.stride + Loc::from(p.col()) + 1
    }

    /// The point of an on-board cell.
    pub(crate) fn point(&self, loc: Loc) -> Point {
        Point::new((loc % self.stride - 1) as u8, (loc / self.stride - 1) as u8)
    }

    /// The feature position of an on-board cell: `y × size + x`.
    pub(crate) fn pos(&self, loc: Loc) -> usize {
        let n = usize::from(self.size.get());
        let (x, y) = (loc % self.stride - 1, loc / self.stride - 1);
        usize::from(y) * n + usize::from(x)
    }

    /// Every cell of the board, row by row from the top left.
    pub(crate) fn locs(&self) -> impl Iterator<Item = Loc> + use<> {
        let n = Loc::from(self.size.get());
        let stride = self.stride;
        (1..=n).flat_map(move |y| (1..=n).map(move |x| y * stride + x))
    }

    /// The number of cells, border included: the length of per-cell arrays.
    pub(crate) fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// What `loc` holds: [`EMPTY`], [`BLACK`], [`WHITE`] or the border.
    #[inline]
    pub(crate) fn color(&self, loc: Loc) -> u8 {
        self.cells[usize::from(loc)].color
    }

    /// The four neighbours, in KataGo's order: up, left, right, down.
    #[inline]
    pub(crate) fn adjacent(&self, loc: Loc) -> [Loc; 4] {
        [loc - self.stride, loc - 1, loc + 1, loc + self.stride]
    }

    /// Whether two cells are orthogonal neighbours.
    pub(crate) fn are_adjacent(&self, a: Loc, b: Loc) -> bool {
        a == b.wrapping_sub(self.stride)
            || a == b.wrapping_sub(1)
            || a == b + 1
            || a == b + self.stride
    }

    /// The head of the chain of the stone at `loc`.
    #[inline]
    pub(crate) fn head(&self, loc: Loc) -> Loc {
        self.cells[usize::from(loc)].head
    }

    /// The next stone of the chain after `loc`.
    #[inline]
    pub(crate) fn next(&self, loc: Loc) -> Loc {
        self.cells[usize::from(loc)].next
    }

    /// The liberties of the chain of the stone at `loc`.
    #[inline]
    pub(crate) fn libs(&self, loc: Loc) -> u16 {
        self.cells[usize::from(self.head(loc))].libs
    }

    /// The stones of the chain of the stone at `loc`.
    #[inline]
    pub(crate) fn chain_len(&self, loc: Loc) -> u16 {
        self.cells[usize::from(self.head(loc))].stones
    }

    /// The simple-ko point: the move that would retake the ko just taken,
    /// forbidden to whoever moves next.
    pub(crate) fn ko(&self) -> Loc {
        self.ko
    }

    /// Forgets the ko point (a pass, or a change of the player to move).
    pub(crate) fn clear_ko(&mut self) {
        self.ko = NO_LOC;
    }

    /// Puts back a ko point taken off with [`clear_ko`](Self::clear_ko).
    pub(crate) fn set_ko(&mut self, ko: Loc) {
        self.ko = ko;
    }

    /// Zobrist hash of the stones.
    pub(crate) fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of `pla` captured so far (its suicides included).
    pub(crate) fn lost(&self, pla: u8) -> u32 {
        self.lost[usize::from(pla - 1)]
    }

    /// The number of stones of `pla` on the board.
    pub(crate) fn stone_count(&self, pla: u8) -> u32 {
        self.locs().filter(|&l| self.color(l) == pla).count() as u32
    }

    /// Empty neighbours of `loc`.
    pub(crate) fn immediate_libs(&self, loc: Loc) -> u16 {
        self.adjacent(loc)
            .iter()
            .filter(|&&a| self.color(a) == EMPTY)
            .count() as u16
    }

    /// Whether `pla` at `loc` would be left without liberties, taking nothing.
    pub(crate) fn is_suicide(&self, loc: Loc, pla: u8) -> bool {
        let opp = other(pla);
        self.adjacent(loc).iter().all(|&a| {
            let c = self.color(a);
            !(c == EMPTY || (c == pla && self.libs(a) > 1) || (c == opp && self.libs(a) == 1))
        })
    }

    /// Whether `pla` at `loc` is a suicide the rules forbid. KataGo never
    /// allows a lone stone's suicide; `multi_stone_suicide` allows the rest.
    pub(crate) fn is_illegal_suicide(&self, loc: Loc, pla: u8, multi_stone_suicide: bool) -> bool {
        let opp = other(pla);
        self.adjacent(loc).iter().all(|&a| {
            let c = self.color(a);
            !(c == EMPTY
                || (c == pla && (multi_stone_suicide || self.libs(a) > 1))
                || (c == opp && self.libs(a) == 1))
        })
    }

    /// KataGo's `isLegal` for a stone: empty, not the ko point, no illegal
    /// suicide.
    pub(crate) fn is_legal(&self, loc: Loc, pla: u8, multi_stone_suicide: bool) -> bool {
        self.color(loc) == EMPTY
            && loc != self.ko
            && !self.is_illegal_suicide(loc, pla, multi_stone_suicide)
    }

    /// Whether the empty `loc` is surrounded by `pla`'s opponent (and the
    /// edge) with exactly one neighbouring chain in atari, of one stone.
    pub(crate) fn would_be_ko_capture(&self, loc: Loc, pla: u8) -> bool {
        if self.color(loc) != EMPTY {
            return false;
        }
        let opp = other(pla);
        let mut capturable = NO_LOC;
        for a in self.adjacent(loc) {
            let c = self.color(a);
            if c != WALL && c != opp {
                return false;
            }
            if c == opp && self.libs(a) == 1 {
                if capturable != NO_LOC {
                    return false;
                }
                capturable = a;
            }
        }
        capturable != NO_LOC && self.chain_len(capturable) == 1
    }

    /// KataGo's quick bounds on the liberties of `pla`'s stone at `loc`.
    pub(crate) fn bound_libs_after_play(&self, loc: Loc, pla: u8) -> (u16, u16) {
        let opp = other(pla);
        let (mut immediate, mut captures, mut from_captures) = (0, 0, 0);
        let (mut connection, mut max_connection) = (0, 0);
        for a in self.adjacent(loc) {
            let c = self.color(a);
            if c == EMPTY {
                immediate += 1;
            } else if c == opp {
                if self.libs(a) == 1 {
                    captures += 1;
                    from_captures += self.chain_len(a);
                }
            } else if c == pla {
                let extra = self.libs(a) - 1;
                connection += extra;
                max_connection = max_connection.max(extra);
            }
        }
        (
            captures + max_connection.max(immediate),
            immediate + from_captures + connection,
        )
    }

    /// The liberties `pla`'s stone at `loc` would have, or `max` when at
    /// least `max`.
    pub(crate) fn libs_after_play(&self, loc: Loc, pla: u8, max: usize) -> usize {
        const MAX: usize = 8;
        debug_assert!(max <= MAX);
        let opp = other(pla);
        let mut libs: [Loc; MAX] = [NO_LOC; MAX];
        let mut n_libs = 0;
        let mut captured: [Loc; 4] = [NO_LOC; 4];
        let mut n_captured = 0;
        for a in self.adjacent(loc) {
            let c = self.color(a);
            if c == EMPTY || (c == opp && self.libs(a) == 1) {
                libs[n_libs] = a;
                n_libs += 1;
                if n_libs >= max {
                    return max;
                }
                if c == opp {
                    let head = self.head(a);
                    if !captured[..n_captured].contains(&head) {
                        captured[n_captured] = head;
                        n_captured += 1;
                    }
                }
            }
        }
        let would_be_empty = |l: Loc| {
            let c = self.color(l);
            c == EMPTY || (c == opp && captured[..n_captured].contains(&self.head(l)))
        };
        let mut joined: [Loc; 4] = [NO_LOC; 4];
        let mut n_joined = 0;
        for a in self.adjacent(loc) {
            if self.color(a) != pla {
                continue;
            }
            let head = self.head(a);
            if joined[..n_joined].contains(&head) {
                continue;
            }
            joined[n_joined] = head;
            n_joined += 1;
            let mut cur = a;
            loop {
                for lib in self.adjacent(cur) {
                    if lib != loc && would_be_empty(lib) && !libs[..n_libs].contains(&lib) {
                        libs[n_libs] = lib;
                        n_libs += 1;
                        if n_libs >= max {
                            return max;
                        }
                    }
                }
                cur = self.next(cur);
                if cur == a {
                    break;
                }
            }
        }
        n_libs
    }

    /// KataGo's move-ordering heuristic: twice the liberties beyond 1.5 of
    /// each of `pla`'s chains next to `loc`.
    pub(crate) fn heuristic_connection_libs_x2(&self, loc: Loc, pla: u8) -> i32 {
        self.adjacent(loc)
            .iter()
            .filter(|&&a| self.color(a) == pla && self.libs(a) > 1)
            .map(|&a| i32::from(self.libs(a)) * 2 - 3)
            .sum()
    }

    /// Whether the empty `loc` touches a stone of the chain headed by `head`.
    pub(crate) fn is_liberty_of(&self, loc: Loc, head: Loc) -> bool {
        let color = self.color(head);
        self.adjacent(loc)
            .iter()
            .any(|&a| self.color(a) == color && self.head(a) == head)
    }

    /// The hash of the stones after `pla` plays at the empty `loc`
    /// (captures and suicide included), without playing.
    pub(crate) fn hash_after(&self, loc: Loc, pla: u8) -> u64 {
        let opp = other(pla);
        let mut hash = self.hash ^ stone_key(loc, pla);
        let mut suicide = true;
        let mut removed: [Loc; 4] = [NO_LOC; 4];
        let mut n_removed = 0;
        for a in self.adjacent(loc) {
            let c = self.color(a);
            if c == EMPTY || (c == pla && self.libs(a) > 1) {
                suicide = false;
            } else if c == opp && self.libs(a) == 1 {
                let head = self.head(a);
                if !removed[..n_removed].contains(&head) {
                    removed[n_removed] = head;
                    n_removed += 1;
                    suicide = false;
                    hash ^= self.chain_hash(a, opp);
                }
            }
        }
        if suicide {
            for a in self.adjacent(loc) {
                if self.color(a) == pla && self.libs(a) == 1 {
                    let head = self.head(a);
                    if !removed[..n_removed].contains(&head) {
                        removed[n_removed] = head;
                        n_removed += 1;
                        hash ^= self.chain_hash(a, pla);
                    }
                }
            }
            hash ^= stone_key(loc, pla);
        }
        hash
    }

    fn chain_hash(&self, loc: Loc, pla: u8) -> u64 {
        let mut hash = 0;
        let mut cur = loc;
        loop {
            hash ^= stone_key(cur, pla);
            cur = self.next(cur);
            if cur == loc {
                return hash;
            }
        }
    }

    fn cell(&mut self, loc: Loc) -> &mut Cell {
        &mut self.cells[usize::from(loc)]
    }

    fn set_color(&mut self, loc: Loc, color: u8) {
        let old = self.color(loc);
        if old == BLACK || old == WHITE {
            self.hash ^= stone_key(loc, old);
        }
        if color == BLACK || color == WHITE {
            self.hash ^= stone_key(loc, color);
        }
        self.cell(loc).color = color;
    }

    fn add_libs(&mut self, head: Loc, delta: i32) {
        let cell = self.cell(head);
        cell.libs = (i32::from(cell.libs) + delta) as u16;
    }

    /// `pla` plays at the empty `loc`, legal or not (KataGo's
    /// `playMoveAssumeLegal`): captures, the simple-ko point (one stone
    /// taken by a lone stone left with one liberty), then suicide.
    pub(crate) fn play(&mut self, loc: Loc, pla: u8) {
        let opp = other(pla);
        self.set_color(loc, pla);
        let libs = self.immediate_libs(loc);
        *self.cell(loc) = Cell {
            color: pla,
            head: loc,
            next: loc,
            stones: 1,
            libs,
        };
        let mut captured = 0;
        let mut possible_ko = NO_LOC;
        let mut opp_seen: [Loc; 4] = [NO_LOC; 4];
        let mut n_seen = 0;
        for a in self.adjacent(loc) {
            let c = self.color(a);
            if c == pla {
                if self.head(a) == self.head(loc) {
                    continue;
                }
                let head = self.head(a);
                self.add_libs(head, -1);
                self.merge_chains(a, loc);
            } else if c == opp {
                let head = self.head(a);
                if opp_seen[..n_seen].contains(&head) {
                    continue;
                }
                self.add_libs(head, -1);
                opp_seen[n_seen] = head;
                n_seen += 1;
                if self.libs(a) == 0 {
                    captured += self.remove_chain(a);
                    possible_ko = a;
                }
            }
        }
        self.ko = if captured == 1 && self.chain_len(loc) == 1 && self.libs(loc) == 1 {
            possible_ko
        } else {
            NO_LOC
        };
        self.lost[usize::from(opp - 1)] += captured;
        if self.libs(loc) == 0 {
            let suicided = u32::from(self.chain_len(loc));
            self.remove_chain(loc);
            self.lost[usize::from(pla - 1)] += suicided;
        }
    }

    /// [`play`](Self::play) for a legal move that is no suicide, with a
    /// record to [`undo`](Self::undo) it.
    pub(crate) fn play_recorded(&mut self, loc: Loc, pla: u8) -> MoveRecord {
        debug_assert!(!self.is_suicide(loc, pla));
        let opp = other(pla);
        let mut captured_directions = 0;
        for (i, a) in self.adjacent(loc).into_iter().enumerate() {
            if self.color(a) == opp && self.libs(a) == 1 {
                captured_directions |= 1 << i;
            }
        }
        let record = MoveRecord {
            loc,
            pla,
            ko: self.ko,
            captured_directions,
        };
        self.play(loc, pla);
        record
    }

    /// Takes back the move of `record`, the last one played (KataGo's
    /// `undo`: the stones come back, the chain lists are relinked as KataGo
    /// relinks them, not necessarily as they were).
    pub(crate) fn undo(&mut self, record: MoveRecord) {
        self.ko = record.ko;
        let MoveRecord { loc, pla, .. } = record;
        let opp = other(pla);
        for (i, a) in self.adjacent(loc).into_iter().enumerate() {
            if record.captured_directions & (1 << i) != 0 && self.color(a) == EMPTY {
                self.add_chain(a, opp);
                let returned = u32::from(self.chain_len(a));
                self.lost[usize::from(opp - 1)] -= returned;
            }
        }
        self.set_color(loc, EMPTY);
        self.change_surrounding_libs(loc, opp, 1);
        if self.chain_len(loc) <= 1 {
            return;
        }
        let neighbours = self
            .adjacent(loc)
            .iter()
            .filter(|&&a| self.color(a) == pla)
            .count();
        if neighbours <= 1 {
            // The stone hung off its chain at one point: unlink it alone.
            let mut head = self.head(loc);
            if head == loc {
                let new_head = self.next(loc);
                let mut cur = loc;
                loop {
                    self.cell(cur).head = new_head;
                    cur = self.next(cur);
                    if cur == loc {
                        break;
                    }
                }
                let (stones, libs) = (
                    self.cells[usize::from(head)].stones,
                    self.cells[usize::from(head)].libs,
                );
                let cell = self.cell(new_head);
                cell.stones = stones;
                cell.libs = libs;
                head = new_head;
            }
            let mut cur = head;
            while self.next(cur) != loc {
                cur = self.next(cur);
            }
            let after = self.next(loc);
            self.cell(cur).next = after;
            let mut delta = 1;
            for a in self.adjacent(loc) {
                if self.color(a) == EMPTY && !self.is_liberty_of(a, head) {
                    delta -= 1;
                }
            }
            self.add_libs(head, delta);
            self.cell(head).stones -= 1;
        } else {
            // The stone may have joined several chains: rebuild them.
            let mut cur = loc;
            loop {
                self.cell(cur).head = NO_LOC;
                cur = self.next(cur);
                if cur == loc {
                    break;
                }
            }
            for a in self.adjacent(loc) {
                if self.color(a) == pla && self.head(a) == NO_LOC {
                    self.rebuild_chain(a, pla);
                }
            }
        }
    }

    /// Joins the chains of `a` and `b`: the smaller one's stones go after
    /// the larger one's head.
    fn merge_chains(&mut self, a: Loc, b: Loc) {
        let (mut head1, mut head2) = (self.head(a), self.head(b));
        if self.cells[usize::from(head1)].stones < self.cells[usize::from(head2)].stones {
            std::mem::swap(&mut head1, &mut head2);
        }
        let added = self.cells[usize::from(head2)].stones;
        self.cell(head1).stones += added;
        let mut new_libs = 0;
        let mut loc = head2;
        loop {
            for adj in self.adjacent(loc) {
                if self.color(adj) == EMPTY && !self.is_liberty_of(adj, head1) {
                    new_libs += 1;
                }
            }
            self.cell(loc).head = head1;
            if self.next(loc) == head2 {
                break;
            }
            loc = self.next(loc);
        }
        self.add_libs(head1, new_libs);
        let after_head1 = self.next(head1);
        self.cell(loc).next = after_head1;
        self.cell(head1).next = head2;
    }

    /// Removes the chain of `loc`, giving its neighbours their liberties
    /// back. Returns the number of stones removed.
    fn remove_chain(&mut self, loc: Loc) -> u32 {
        let opp = other(self.color(loc));
        let mut removed = 0;
        let mut cur = loc;
        loop {
            self.set_color(cur, EMPTY);
            removed += 1;
            self.change_surrounding_libs(cur, opp, 1);
            cur = self.next(cur);
            if cur == loc {
                return removed;
            }
        }
    }

    /// Fills the empty region of `loc` with a chain of `pla` headed by
    /// `loc` (the stones a move had captured, back again). The chain's
    /// liberties are left at zero: the caller restores the one it had.
    fn add_chain(&mut self, loc: Loc, pla: u8) {
        let cell = self.cell(loc);
        cell.libs = 0;
        cell.stones = 0;
        let front = self.add_chain_from(loc, loc, loc, pla);
        self.cell(loc).next = front;
    }

    /// Depth-first flood of [`add_chain`](Self::add_chain): links `loc` to
    /// `tail` and returns the new front of the list.
    fn add_chain_from(&mut self, head: Loc, tail: Loc, loc: Loc, pla: u8) -> Loc {
        self.set_color(loc, pla);
        let cell = self.cell(loc);
        cell.head = head;
        cell.next = tail;
        self.cell(head).stones += 1;
        self.change_surrounding_libs(loc, other(pla), -1);
        let mut front = loc;
        for a in self.adjacent(loc) {
            if self.color(a) == EMPTY {
                front = self.add_chain_from(head, front, a, pla);
            }
        }
        front
    }

    /// Relinks the chain of `pla` through `loc` (whose stones' heads are
    /// [`NO_LOC`]) with `loc` as its head, counting its liberties.
    fn rebuild_chain(&mut self, loc: Loc, pla: u8) {
        let cell = self.cell(loc);
        cell.libs = 0;
        cell.stones = 0;
        let front = self.rebuild_chain_from(loc, loc, loc, pla);
        self.cell(loc).next = front;
    }

    fn rebuild_chain_from(&mut self, head: Loc, tail: Loc, loc: Loc, pla: u8) -> Loc {
        let adjacent = self.adjacent(loc);
        let new_libs = adjacent
            .iter()
            .filter(|&&a| self.color(a) == EMPTY && !self.is_liberty_of(a, head))
            .count();
        self.add_libs(head, new_libs as i32);
        let cell = self.cell(loc);
        cell.head = head;
        cell.next = tail;
        self.cell(head).stones += 1;
        let mut front = loc;
        for a in adjacent {
            if self.color(a) == pla && self.head(a) != head {
                front = self.rebuild_chain_from(head, front, a, pla);
            }
        }
        front
    }

    /// Adds `delta` liberties to each distinct chain of `pla` next to `loc`.
    fn change_surrounding_libs(&mut self, loc: Loc, pla: u8, delta: i32) {
        let mut seen: [Loc; 4] = [NO_LOC; 4];
        let mut n_seen = 0;
        for a in self.adjacent(loc) {
            if self.color(a) == pla {
                let head = self.head(a);
                if !seen[..n_seen].contains(&head) {
                    seen[n_seen] = head;
                    n_seen += 1;
                    self.add_libs(head, delta);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(diagram: &str) -> ChainBoard {
        ChainBoard::from_board(&diagram.parse().unwrap())
    }

    fn at(board: &ChainBoard, gtp: &str) -> Loc {
        board.loc(Point::from_gtp(gtp, board.size()).unwrap())
    }

    /// Every chain's stone count and liberties recounted from the colours.
    fn assert_consistent(board: &ChainBoard) {
        for loc in board.locs() {
            let color = board.color(loc);
            if color == EMPTY {
                continue;
            }
            let head = board.head(loc);
            let mut stones = std::collections::BTreeSet::new();
            let mut libs = std::collections::BTreeSet::new();
            let mut cur = head;
            loop {
                assert_eq!(board.head(cur), head);
                assert_eq!(board.color(cur), color);
                stones.insert(cur);
                libs.extend(
                    board
                        .adjacent(cur)
                        .into_iter()
                        .filter(|&a| board.color(a) == EMPTY),
                );
                cur = board.next(cur);
                if cur == head {
                    break;
                }
            }
            assert!(stones.contains(&loc));
            assert_eq!(usize::from(board.chain_len(loc)), stones.len());
            assert_eq!(
                usize::from(board.libs(loc)),
                libs.len(),
                "{:?}",
                board.point(loc)
            );
        }
    }

    #[test]
    fn plays_capture_and_undo_restore_the_stones_and_counts() {
        let mut b = board(
            "
            . X O . .
            X O . O .
            . X O . .
            . . . . .
            . . . . .",
        );
        assert_consistent(&b);
        let before = b.clone();
        let take = at(&b, "C4");
        let record = b.play_recorded(take, BLACK);
        assert_eq!(b.ko(), at(&b, "B4"), "one stone taken by a lone stone");
        assert_eq!(b.lost(WHITE), 1);
        assert_consistent(&b);
        b.undo(record);
        assert_eq!(b, before);
        assert_eq!(b.hash(), before.hash());
        assert_eq!(b.lost(WHITE), 0);
        assert_eq!(b.ko(), NO_LOC);
        assert_consistent(&b);
    }

    #[test]
    fn undo_of_a_joining_move_rebuilds_the_chains() {
        let mut b = board(
            "
            . . . . .
            . X . X .
            . X . X .
            . . . . .
            . . . . .",
        );
        let before = b.clone();
        let join = at(&b, "C3");
        let record = b.play_recorded(join, BLACK);
        assert_eq!(b.chain_len(join), 5);
        assert_consistent(&b);
        b.undo(record);
        assert_eq!(b, before);
        assert_consistent(&b);
        assert_eq!(b.libs(at(&b, "B4")), 6);
    }

    #[test]
    fn hash_after_predicts_captures_and_suicide() {
        let b = board(
            "
            . X O . .
            X O . O .
            . X O . .
            . . . . .
            X O . . .",
        );
        for (gtp, pla) in [("C4", BLACK), ("A5", WHITE), ("E5", BLACK)] {
            let loc = at(&b, gtp);
            let mut played = b.clone();
            played.play(loc, pla);
            assert_eq!(b.hash_after(loc, pla), played.hash(), "{gtp}");
        }
        // Multi-stone suicide: white's two stones go.
        let b = board(
            "
            . O X . .
            O X . . .
            X . . . .
            . . . . .
            . . . . .",
        );
        let loc = at(&b, "A5");
        let mut played = b.clone();
        played.play(loc, WHITE);
        assert_eq!(played.stone_count(WHITE), 0);
        assert_eq!(played.lost(WHITE), 3);
        assert_eq!(b.hash_after(loc, WHITE), played.hash());
        assert_consistent(&played);
    }

    #[test]
    fn suicide_rules_follow_katago() {
        let b = board(
            "
            . O . . .
            O . . . .
            X O . . .
            . X . . .
            X . . . .",
        );
        let corner = at(&b, "A5");
        assert!(
            b.is_illegal_suicide(corner, BLACK, true),
            "a lone stone never"
        );
        let a2 = at(&b, "A2");
        assert!(!b.is_suicide(a2, BLACK), "it takes nothing but connects");
        assert!(!b.is_illegal_suicide(a2, BLACK, false));
    }

    #[test]
    fn libs_after_play_counts_distinct_liberties() {
        let b = board(
            "
            . . . . .
            . X . . .
            X . O O .
            . X O . .
            . . . . .",
        );
        let loc = at(&b, "B3");
        // A4, C4, B5, A2 and B1: the three black stones joined.
        assert_eq!(b.libs_after_play(loc, BLACK, 8), 5);
        assert_eq!(b.libs_after_play(loc, BLACK, 3), 3);
        assert_eq!(b.bound_libs_after_play(loc, BLACK), (3, 7));
    }
}
