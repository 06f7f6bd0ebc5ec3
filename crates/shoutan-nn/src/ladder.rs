//! KataGo's ladder search (`Board::searchIsLadderCaptured`,
//! `Board::searchIsLadderCapturedAttackerFirst2Libs` in `game/board.cpp`)
//! and its walk over a board's chains (`iterLadders` in
//! `neuralnet/nninputs.cpp`), for input planes 14 to 17.
//!
//! The search is KataGo's, decision for decision, because its answer is not
//! only the truth of the ladder: it gives up after 25 000 moves (the ladder
//! then "works" for nobody), a line longer than the board allows counts as
//! captured, a defender facing a ko point escapes, and an attacker facing
//! two ko mouths that do not help the defender wins. Which moves it tries
//! first decides when it runs out of budget, so the moves come in KataGo's
//! order from KataGo's chain lists (see [`ChainBoard`]).

use std::cell::RefCell;
use std::ops::Deref;
use std::sync::OnceLock;

use crate::board::{ChainBoard, EMPTY, Loc, MoveRecord, NO_LOC, other};

/// Moves one search may play before it gives up and answers "not captured".
const NODE_BUDGET: usize = 25_000;

/// What the ladder planes read of a board.
#[derive(Debug, Default)]
pub(crate) struct Ladders {
    /// The stones of chains with one or two liberties that can be
    /// captured in a ladder, row by row from the top left.
    pub stones: Vec<Loc>,
    /// For the chains of each colour (black first) with two liberties: the
    /// attacker's first moves that capture one of them.
    pub working_moves: [Vec<Loc>; 2],
}

/// A board and its [`Ladders`], searched once when first asked for. Shared
/// by a position and those played from it, whose board one move ago it is:
/// a search's positions each search only their own board.
#[derive(Debug)]
pub(crate) struct BoardWithLadders {
    board: ChainBoard,
    ladders: OnceLock<Ladders>,
}

thread_local! {
    /// The search's buffers, kept between searches on each thread.
    static SEARCH: RefCell<LadderSearch> = RefCell::default();
}

impl BoardWithLadders {
    pub(crate) fn new(board: ChainBoard) -> BoardWithLadders {
        BoardWithLadders {
            board,
            ladders: OnceLock::new(),
        }
    }

    /// The board's ladders.
    pub(crate) fn ladders(&self) -> &Ladders {
        self.ladders.get_or_init(|| {
            SEARCH.with_borrow_mut(|search| {
                let mut ladders = Ladders::default();
                search.for_each_laddered(&self.board, |loc, working_moves| {
                    ladders.stones.push(loc);
                    let color = usize::from(self.board.color(loc) - 1);
                    ladders.working_moves[color].extend_from_slice(working_moves);
                });
                ladders
            })
        })
    }
}

impl Deref for BoardWithLadders {
    type Target = ChainBoard;

    fn deref(&self) -> &ChainBoard {
        &self.board
    }
}

/// Buffers of the ladder search, kept between searches.
#[derive(Debug, Default)]
pub(crate) struct LadderSearch {
    /// Move lists of every level, one after another.
    buf: Vec<Loc>,
    /// Chains already looked at for captures, in one call.
    checked_heads: Vec<Loc>,
    list_starts: Vec<usize>,
    list_lens: Vec<usize>,
    /// The move being tried at each level; `None` before its list is made.
    list_cur: Vec<Option<usize>>,
    records: Vec<MoveRecord>,
    /// Chains already solved by [`for_each_laddered`](Self::for_each_laddered).
    solved: Vec<(Loc, bool)>,
    /// The attacker's first moves that capture a chain with two liberties.
    working_moves: Vec<Loc>,
}

impl LadderSearch {
    /// Calls `f(stone, working_moves)` for every stone of a chain with one
    /// or two liberties that can be captured in a ladder: with one liberty,
    /// whoever moves; with two, if the attacker moves first (the moves that
    /// work are then given for the chain's first stone, and none for the
    /// others). Stones come row by row from the top left.
    fn for_each_laddered(&mut self, board: &ChainBoard, mut f: impl FnMut(Loc, &[Loc])) {
        self.solved.clear();
        // KataGo searches a copy, the same copy for every chain.
        let mut copy = board.clone();
        for loc in board.locs() {
            if board.color(loc) == EMPTY {
                continue;
            }
            let libs = board.libs(loc);
            if libs != 1 && libs != 2 {
                continue;
            }
            let head = board.head(loc);
            if let Some(&(_, laddered)) = self.solved.iter().find(|(h, _)| *h == head) {
                if laddered {
                    f(loc, &[]);
                }
                continue;
            }
            let laddered = if libs == 1 {
                self.is_captured(&mut copy, loc)
            } else {
                self.is_captured_attacker_first(&mut copy, loc)
            };
            self.solved.push((head, laddered));
            if laddered {
                let working = if libs == 2 {
                    self.working_moves.as_slice()
                } else {
                    &[]
                };
                f(loc, working);
            }
        }
    }

    /// Whether the chain at `loc`, with two liberties, is captured in a
    /// ladder when the attacker moves first; the first moves that capture
    /// it are left in `working_moves`.
    fn is_captured_attacker_first(&mut self, board: &mut ChainBoard, loc: Loc) -> bool {
        if board.color(loc) == EMPTY || board.libs(loc) != 2 {
            return false;
        }
        let attacker = other(board.color(loc));
        let found = self.find_liberties(board, loc, 0, 0);
        debug_assert_eq!(found, 2);
        let moves = [self.buf[0], self.buf[1]];
        let mut works = [false; 2];
        for (i, &mv) in moves.iter().enumerate() {
            // Suicide is never part of a ladder.
            if board.is_legal(mv, attacker, false) {
                let record = board.play_recorded(mv, attacker);
                works[i] = self.is_captured(board, loc);
                board.undo(record);
            }
        }
        if works[0] || works[1] {
            self.working_moves.clear();
            self.working_moves
                .extend(moves.iter().zip(works).filter(|(_, w)| *w).map(|(&m, _)| m));
            return true;
        }
        false
    }

    /// Whether the chain at `loc`, in atari, is captured in a ladder with
    /// the defender to move: a search of the defender's moves on its
    /// liberty and its liberty-gaining captures against the attacker's
    /// moves on its two liberties. The simple ko point is lifted for the
    /// defender at the start. (KataGo's `searchIsLadderCaptured` with the
    /// defender first, the only way the features call it.)
    pub(crate) fn is_captured(&mut self, board: &mut ChainBoard, loc: Loc) -> bool {
        if board.color(loc) == EMPTY || board.libs(loc) > 1 {
            return false;
        }
        let defender = board.color(loc);
        let attacker = other(defender);
        let saved_ko = board.ko();
        board.clear_ko();
        let n = usize::from(board.size().get());
        // Longer lines than this are taken as captured.
        let stack_size = n * n * 3 / 2 + 1;
        self.list_starts.resize(stack_size, 0);
        self.list_lens.resize(stack_size, 0);
        self.list_cur.resize(stack_size, None);
        self.records.resize(stack_size, MoveRecord::default());

        let mut depth: isize = 0;
        let mut nodes = 0;
        self.list_cur[0] = None;
        self.list_starts[0] = 0;
        self.list_lens[0] = 0;
        let mut value = false;
        let mut returned_from_deeper = false;

        // Leaves the current level with `value` as its answer.
        macro_rules! answer {
            ($v:expr) => {{
                value = $v;
                returned_from_deeper = true;
                depth -= 1;
                continue;
            }};
        }

        loop {
            if depth < 0 {
                board.set_ko(saved_ko);
                return value;
            }
            let level = depth as usize;
            if level >= stack_size - 1 {
                answer!(true);
            }
            if nodes >= NODE_BUDGET {
                // KataGo unwinds without putting back the ko point it lifted.
                for record in self.records[..level].iter().rev() {
                    board.undo(*record);
                }
                return false;
            }
            let is_defender = level.is_multiple_of(2);

            match self.list_cur[level] {
                None => {
                    let libs = board.libs(loc);
                    if !is_defender && libs <= 1 {
                        answer!(true);
                    }
                    if !is_defender && libs >= 3 {
                        answer!(false);
                    }
                    if is_defender && libs >= 2 {
                        answer!(false);
                    }
                    // A ko the attacker left: the ladder is not clean.
                    if is_defender && board.ko() != NO_LOC {
                        answer!(false);
                    }
                    let start = self.list_starts[level];
                    let mut len;
                    if is_defender {
                        len = self.find_liberty_gaining_captures(board, loc, start, start);
                        len += self.find_liberties(board, loc, start, start + len);
                        let (lower, upper) =
                            board.bound_libs_after_play(self.buf[start + len - 1], defender);
                        if lower >= 3 {
                            answer!(false);
                        }
                        if len == 1 && upper <= 1 {
                            answer!(true);
                        }
                    } else {
                        len = self.find_liberties(board, loc, start, start);
                        debug_assert_eq!(len, 2);
                        let (m0, m1) = (self.buf[start], self.buf[start + 1]);
                        let mut libs0 = i32::from(board.immediate_libs(m0));
                        let mut libs1 = i32::from(board.immediate_libs(m1));
                        // Both liberties ko mouths that help no connection,
                        // nothing of the attacker's in atari: a double ko.
                        if libs0 == 0
                            && libs1 == 0
                            && board.would_be_ko_capture(m0, attacker)
                            && board.would_be_ko_capture(m1, attacker)
                            && board.libs_after_play(m0, defender, 3) <= 2
                            && board.libs_after_play(m1, defender, 3) <= 2
                            && !has_liberty_gaining_captures(board, loc)
                        {
                            answer!(true);
                        }
                        if !board.are_adjacent(m0, m1) {
                            if libs0 >= 3 && libs1 >= 3 {
                                answer!(false);
                            } else if libs0 >= 3 {
                                len = 1;
                            } else if libs1 >= 3 {
                                self.buf[start] = m1;
                                len = 1;
                            }
                        }
                        if len > 1 {
                            libs0 = libs0 * 2 + board.heuristic_connection_libs_x2(m0, defender);
                            libs1 = libs1 * 2 + board.heuristic_connection_libs_x2(m1, defender);
                            if libs1 > libs0 {
                                self.buf.swap(start, start + 1);
                            }
                        }
                    }
                    self.list_lens[level] = len;
                    self.list_cur[level] = Some(0);
                }
                Some(cur) => {
                    if returned_from_deeper {
                        board.undo(self.records[level]);
                    }
                    if is_defender && !value {
                        answer!(false);
                    }
                    if !is_defender && value {
                        answer!(true);
                    }
                    self.list_cur[level] = Some(cur + 1);
                }
            }

            let cur = self.list_cur[level].unwrap_or(0);
            if cur >= self.list_lens[level] {
                // Out of moves: the defender is captured, the attacker failed.
                answer!(is_defender);
            }
            let mv = self.buf[self.list_starts[level] + cur];
            let player = if is_defender { defender } else { attacker };
            if !board.is_legal(mv, player, false) {
                // As a failed move, and on to the next one at this level.
                value = is_defender;
                returned_from_deeper = false;
                continue;
            }
            self.records[level] = board.play_recorded(mv, player);
            nodes += 1;
            depth += 1;
            let next = level + 1;
            self.list_cur[next] = None;
            self.list_starts[next] = self.list_starts[level] + self.list_lens[level];
            self.list_lens[next] = 0;
        }
    }

    /// Writes the liberties of the chain at `loc` from `buf[at]` on, leaving
    /// out those already in `buf[from..]`. Returns how many it wrote.
    fn find_liberties(&mut self, board: &ChainBoard, loc: Loc, from: usize, at: usize) -> usize {
        let mut found = 0;
        let mut cur = loc;
        loop {
            for lib in board.adjacent(cur) {
                if board.color(lib) == EMPTY && !self.buf[from..at + found].contains(&lib) {
                    if at + found >= self.buf.len() {
                        let grown = self.buf.len() * 3 / 2 + 64;
                        self.buf.resize(grown, NO_LOC);
                    }
                    self.buf[at + found] = lib;
                    found += 1;
                }
            }
            cur = board.next(cur);
            if cur == loc {
                return found;
            }
        }
    }

    /// Writes the moves that capture a chain in atari next to the chain at
    /// `loc` (their liberties), as [`find_liberties`](Self::find_liberties).
    fn find_liberty_gaining_captures(
        &mut self,
        board: &ChainBoard,
        loc: Loc,
        from: usize,
        at: usize,
    ) -> usize {
        let opp = other(board.color(loc));
        self.checked_heads.clear();
        let mut found = 0;
        let mut cur = loc;
        loop {
            for adj in board.adjacent(cur) {
                if board.color(adj) != opp {
                    continue;
                }
                let head = board.head(adj);
                if board.libs(head) == 1 && !self.checked_heads.contains(&head) {
                    found += self.find_liberties(board, adj, from, at + found);
                    self.checked_heads.push(head);
                }
            }
            cur = board.next(cur);
            if cur == loc {
                return found;
            }
        }
    }
}

/// Whether a chain of the opponent in atari touches the chain at `loc`.
fn has_liberty_gaining_captures(board: &ChainBoard, loc: Loc) -> bool {
    let opp = other(board.color(loc));
    let mut cur = loc;
    loop {
        if board
            .adjacent(cur)
            .iter()
            .any(|&a| board.color(a) == opp && board.libs(a) == 1)
        {
            return true;
        }
        cur = board.next(cur);
        if cur == loc {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KataGo's own ladder tests: positions and its answers (see the file).
    const KATAGO_LADDERS: &str = include_str!("../tests/data/features-katago-ladders.txt");

    struct Case {
        name: String,
        board: Vec<String>,
        kind: String,
        expected: Vec<String>,
    }

    fn cases(text: &str) -> Vec<Case> {
        let mut cases = Vec::new();
        let mut lines = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty());
        while let Some(line) = lines.next() {
            let name = line.strip_prefix("case ").expect("a case").to_owned();
            let mut board = Vec::new();
            let kind = loop {
                let line = lines.next().expect("a board row or an expectation");
                match line.strip_prefix("expect ") {
                    Some(kind) => break kind.to_owned(),
                    None => board.push(line.to_owned()),
                }
            };
            let expected = (0..board.len())
                .map(|_| lines.next().expect("a row").to_owned())
                .collect();
            cases.push(Case {
                name,
                board,
                kind,
                expected,
            });
        }
        cases
    }

    #[test]
    fn katagos_ladder_tests_get_katagos_answers() {
        let cases = cases(KATAGO_LADDERS);
        assert_eq!(cases.len(), 7);
        for case in cases {
            let diagram = case.board.join("\n");
            let mut board = ChainBoard::from_board(&diagram.parse().expect("a diagram"));
            let start = board.clone();
            let mut search = LadderSearch::default();
            let n = usize::from(board.size().get());
            let mut rows = vec![String::new(); n];
            for loc in start.locs() {
                let row = &mut rows[board.point(loc).row() as usize];
                if board.color(loc) == EMPTY {
                    row.push('.');
                    continue;
                }
                // On the same board, one stone after the other, as KataGo's test.
                let captured = match case.kind.as_str() {
                    "one" => search.is_captured(&mut board, loc),
                    _ => search.is_captured_attacker_first(&mut board, loc),
                };
                row.push(if captured { '1' } else { '0' });
            }
            assert_eq!(rows, case.expected, "{}", case.name);
            assert_eq!(
                board, start,
                "{}: the searches put every stone back",
                case.name
            );
            for loc in start.locs().filter(|&l| start.color(l) != EMPTY) {
                assert_eq!(board.libs(loc), start.libs(loc), "{}", case.name);
            }
        }
    }
}
