//! A position as KataGo's network sees it, and playable: the board, the
//! player to move, the last moves and boards, the rules and komi, and what
//! KataGo's `BoardHistory` keeps of the game (`game/boardhistory.cpp`).
//!
//! A game becomes a position as KataGo's GTP engine would have it after the
//! game's moves were played to it one by one: when a move (or the player to
//! move at the end) is not the other player's turn, KataGo forgets the
//! history (`Search::setPlayerAndClearHistory`, and `kata-raw-nn` for a
//! player not to move): the last moves, the remembered positions, the ko
//! point, the passes, and it counts the handicap and the territory bonus
//! again from the board. Legality stays the game's: every position since
//! the start counts for superko, as for [`Game::is_legal`].

use std::sync::Arc;

use shoutan_rules::{BoardSize, Color, Game, Move, Point, Suicide};

use crate::area::{AreaOptions, calculate_area, independent_life_area};
use crate::board::{ChainBoard, EMPTY, Loc, NO_LOC, WHITE, code};
use crate::history::KoHistory;
use crate::ladder::BoardWithLadders;
use crate::rules::{KoRule, NnRules, ScoringRule, TaxRule, WhiteHandicapBonus};

/// Xored into a position's key when white is to move, where the ko rule
/// tells positions apart by the player to move (KataGo's player hash).
const WHITE_TO_MOVE: u64 = 0x9d0b_5f3e_71c4_2a86;

/// Why a move is refused. The position is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The point is not on this board.
    #[error("{} is off the board", .0.to_sgf())]
    OffBoard(Point),
    /// A stone is already there.
    #[error("{} is occupied", .0.to_sgf())]
    Occupied(Point),
    /// The immediate recapture of a ko.
    #[error("{} retakes the ko", .0.to_sgf())]
    Ko(Point),
    /// The stone would have no liberty and capture nothing.
    #[error("{} is suicide", .0.to_sgf())]
    Suicide(Point),
    /// The move repeats an earlier position.
    #[error("{} repeats an earlier position", .0.to_sgf())]
    Superko(Point),
}

/// A move of the history: who played, and where (`None`: a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub color: Color,
    pub at: Option<Loc>,
}

/// How the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// Play goes on.
    NotYet,
    /// Ended by passes (KataGo's consecutive ending passes or a pass where
    /// the same player passed before in the same position).
    Passes,
    /// Ended by a long cycle under simple ko, with no result.
    Cycle,
}

/// What KataGo counts to find the handicap: the stones it started from
/// (since its history was last cleared) and black's first moves.
#[derive(Clone, Copy, Debug, Default)]
struct HandicapCount {
    start_black: u32,
    start_white: u32,
    /// Black's stones played before white's first stone.
    black_moves: u32,
    white_has_moved: bool,
}

impl HandicapCount {
    /// KataGo's handicap: black's stones and first moves on a start without
    /// white stones, none when one or no stone.
    fn stones(&self) -> u32 {
        let advantage = self.start_black + self.black_moves;
        if self.start_white != 0 || advantage <= 1 {
            0
        } else {
            advantage
        }
    }
}

/// A set of cells.
#[derive(Clone, Copy, Debug, Default)]
struct CellSet([u64; 11]);

impl CellSet {
    fn insert(&mut self, loc: Loc) {
        self.0[usize::from(loc / 64)] |= 1 << (loc % 64);
    }

    fn contains(&self, loc: Loc) -> bool {
        self.0[usize::from(loc / 64)] & (1 << (loc % 64)) != 0
    }
}

/// A position: the board, who is to move, the rules and what the network
/// and the rules need of the history. Cheap to clone and to play on.
///
/// ```
/// use shoutan_nn::Position;
/// use shoutan_rules::{BoardSize, Color, Game, Move, Point, Ruleset};
/// let mut game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
/// game.play(Color::Black, Point::from_gtp("E5", BoardSize::NINE).unwrap()).unwrap();
/// let mut position = Position::from_game(&game);
/// assert_eq!(position.to_move(), Color::White);
/// let taken = Move::Play(Point::from_gtp("E5", BoardSize::NINE).unwrap());
/// assert!(position.play(taken).is_err());
/// position.play(Move::Pass).unwrap();
/// assert!(position.pass_would_end_game());
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    rules: NnRules,
    /// The game's suicide rule, for legality (KataGo never allows a lone
    /// stone's suicide; some rulesets do).
    suicide: Suicide,
    board: Arc<BoardWithLadders>,
    to_move: Color,
    /// The boards before the last move and before the one before it (the
    /// current board where KataGo's history holds fewer moves).
    before: [Arc<BoardWithLadders>; 2],
    /// The last five moves since the history was cleared, the last first.
    last_moves: [Option<Played>; 5],
    /// Moves since the history was cleared (KataGo's
    /// `numApproxValidTurnsThisPhase`: cut to one by a move after the end).
    turns: u32,
    /// Consecutive passes that count towards the end.
    ending_passes: u32,
    end: End,
    has_button: bool,
    /// White's bonus for moves (territory counting) and the button.
    white_bonus: f32,
    handicap: HandicapCount,
    history: KoHistory,
    /// Cells that held a stone at some time: a move elsewhere makes a new
    /// position unless it is suicide.
    ever_occupied: CellSet,
}

impl Position {
    /// The game's position with [`Game::to_move`] to play, its rules from
    /// its ruleset and komi.
    #[must_use]
    pub fn from_game(game: &Game) -> Position {
        Position::with_rules(game, NnRules::from_ruleset(game.ruleset(), game.komi()))
    }

    /// The game's position under other rules (the game's moves are played
    /// as they were, legal or not under `rules`).
    #[must_use]
    pub fn with_rules(game: &Game, rules: NnRules) -> Position {
        let board = ChainBoard::from_board(game.initial_board());
        let first = game.turns().first().map_or(game.to_move(), |t| t.color);
        let mut ever_occupied = CellSet::default();
        for loc in board.locs().filter(|&l| board.color(l) != EMPTY) {
            ever_occupied.insert(loc);
        }
        let current = Arc::new(BoardWithLadders::new(board));
        let mut position = Position {
            rules,
            suicide: game.ruleset().suicide,
            board: Arc::clone(&current),
            to_move: first,
            before: [Arc::clone(&current), current],
            last_moves: [None; 5],
            turns: 0,
            ending_passes: 0,
            end: End::NotYet,
            has_button: false,
            white_bonus: 0.0,
            handicap: HandicapCount::default(),
            history: KoHistory::default(),
            ever_occupied,
        };
        position.clear_history(first);
        for turn in game.turns() {
            if turn.color != position.to_move {
                position.clear_history(turn.color);
            }
            let at = match turn.mv {
                Move::Play(p) => Some(position.board.loc(p)),
                Move::Pass => None,
            };
            position.apply(at);
        }
        if game.to_move() != position.to_move {
            position.clear_history(game.to_move());
        }
        position.history.share();
        debug_assert!(game.board().stones().all(|(p, s)| position.get(p) == s));
        position
    }

    /// KataGo's `BoardHistory::clear` with `pla` to move, after
    /// `clearSimpleKoLoc`: the current board becomes the start.
    fn clear_history(&mut self, pla: Color) {
        let mut board = ChainBoard::clone(&self.board);
        board.clear_ko();
        self.board = Arc::new(BoardWithLadders::new(board));
        self.to_move = pla;
        self.before = [Arc::clone(&self.board), Arc::clone(&self.board)];
        self.last_moves = [None; 5];
        self.turns = 0;
        self.ending_passes = 0;
        self.end = End::NotYet;
        self.has_button = self.rules.button;
        self.history.clear();
        self.history.push(self.key(self.board.hash(), pla));
        let (black, white) = (code(Color::Black), code(Color::White));
        let (on_black, on_white) = (self.board.stone_count(black), self.board.stone_count(white));
        self.white_bonus = 0.0;
        if self.rules.scoring == ScoringRule::Territory {
            // One point per stone played, those captured included.
            let stones = i64::from(on_black) - i64::from(on_white);
            let captured = i64::from(self.board.lost(white)) - i64::from(self.board.lost(black));
            self.white_bonus = (stones - captured) as f32;
        }
        self.handicap = HandicapCount {
            start_black: on_black,
            start_white: on_white,
            black_moves: 0,
            white_has_moved: false,
        };
    }

    /// The player to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The same board with `color` to move: when that changes the player to
    /// move, the history is cleared as KataGo clears it (GTP's move out of
    /// turn), so the network judges the board as it stands.
    #[must_use]
    pub fn with_to_move(&self, color: Color) -> Position {
        let mut position = self.clone();
        if color != self.to_move {
            position.clear_history(color);
        }
        position
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &NnRules {
        &self.rules
    }

    /// The board's size.
    #[must_use]
    pub fn size(&self) -> BoardSize {
        self.board.size()
    }

    /// The stone at `p`, if any.
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.board.color(self.board.loc(p)) {
            EMPTY => None,
            c if c == WHITE => Some(Color::White),
            _ => Some(Color::Black),
        }
    }

    /// The board, as Shoutan's [`Board`](shoutan_rules::Board).
    #[must_use]
    pub fn board(&self) -> shoutan_rules::Board {
        let mut board = shoutan_rules::Board::new(self.size());
        board
            .set_stones(self.size().points().map(|p| (p, self.get(p))))
            .unwrap_or_else(|e| unreachable!("every chain of a position has a liberty: {e}"));
        board
    }

    /// Whether the player to move may play `mv`: on an empty point, not
    /// retaking the ko, suicide as the game's ruleset allows, no repetition
    /// the ko rule forbids. A pass is always legal.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Whether `mv` is a legal move the network judges: KataGo never plays
    /// the suicide of a lone stone, so its policy has no probability for
    /// one even where the rules allow it (and nothing is lost: such a move
    /// only gives the opponent a free move).
    #[must_use]
    pub fn is_legal_for_network(&self, mv: Move) -> bool {
        self.is_legal(mv)
            && match mv {
                Move::Play(p) => {
                    let loc = self.board.loc(p);
                    !self.board.is_illegal_suicide(loc, code(self.to_move), true)
                }
                Move::Pass => true,
            }
    }

    /// Why the player to move may not play `mv`, if not.
    pub fn check(&self, mv: Move) -> Result<(), PositionError> {
        let Move::Play(p) = mv else {
            return Ok(());
        };
        if !self.size().contains(p) {
            return Err(PositionError::OffBoard(p));
        }
        let loc = self.board.loc(p);
        let pla = code(self.to_move);
        if self.board.color(loc) != EMPTY {
            return Err(PositionError::Occupied(p));
        }
        if loc == self.board.ko() {
            return Err(PositionError::Ko(p));
        }
        let suicide_forbidden = match self.suicide {
            Suicide::Forbidden => self.board.is_suicide(loc, pla),
            Suicide::MultiStoneOnly => self.board.is_illegal_suicide(loc, pla, true),
            Suicide::Allowed => false,
        };
        if suicide_forbidden {
            return Err(PositionError::Suicide(p));
        }
        if self.rules.ko != KoRule::Simple && self.repeats(loc) {
            return Err(PositionError::Superko(p));
        }
        Ok(())
    }

    /// Whether the player to move at the empty `loc` makes a position the
    /// ko rule forbids repeating.
    fn repeats(&self, loc: Loc) -> bool {
        let pla = code(self.to_move);
        if !self.ever_occupied.contains(loc) && !self.board.is_suicide(loc, pla) {
            return false;
        }
        let after = self.board.hash_after(loc, pla);
        self.history
            .forbids(self.key(after, self.to_move.opponent()))
    }

    /// Every legal move of the player to move, the pass last.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        self.board
            .locs()
            .map(|loc| Move::Play(self.board.point(loc)))
            .filter(|&mv| self.is_legal(mv))
            .chain(std::iter::once(Move::Pass))
            .collect()
    }

    /// The player to move plays `mv`; an illegal move is refused and
    /// changes nothing. A move after the end of the game resumes it.
    pub fn play(&mut self, mv: Move) -> Result<(), PositionError> {
        self.check(mv)?;
        let at = match mv {
            Move::Play(p) => Some(self.board.loc(p)),
            Move::Pass => None,
        };
        self.apply(at);
        Ok(())
    }

    /// KataGo's `BoardHistory::makeBoardMoveAssumeLegal` in the main phase:
    /// the player to move plays `at` (`None`: passes).
    fn apply(&mut self, at: Option<Loc>) {
        let pla = self.to_move;
        if self.end != End::NotYet {
            self.turns = self.turns.min(1);
        }
        self.end = End::NotYet;
        let mut spight_like_end = false;
        if at.is_some() {
            self.ending_passes = 0;
        } else if self.has_button {
            self.has_button = false;
            self.white_bonus += if pla == Color::White { 0.5 } else { -0.5 };
            self.ending_passes = 0;
            self.history.forget_passes();
            self.history.restart();
        } else {
            if self.passes_lift_bans() {
                self.history.restart();
            }
            let key = self.key(self.board.hash(), pla);
            self.ending_passes = self.ending_passes_after_pass();
            spight_like_end = self.is_spight_like_end(pla, key);
            self.history.record_pass(pla, key);
        }

        let mut board = ChainBoard::clone(&self.board);
        match at {
            Some(loc) => {
                board.play(loc, code(pla));
                self.ever_occupied.insert(loc);
            }
            None => board.clear_ko(),
        }
        let previous = std::mem::replace(&mut self.board, Arc::new(BoardWithLadders::new(board)));
        self.before[1] = std::mem::replace(&mut self.before[0], previous);
        self.history
            .push(self.key(self.board.hash(), pla.opponent()));
        self.last_moves.rotate_right(1);
        self.last_moves[0] = Some(Played { color: pla, at });
        self.turns += 1;
        self.to_move = pla.opponent();

        if self.rules.scoring == ScoringRule::Territory && at.is_some() {
            self.white_bonus += if pla == Color::Black { 1.0 } else { -1.0 };
        }
        if at.is_some() {
            match pla {
                Color::White => self.handicap.white_has_moved = true,
                Color::Black if !self.handicap.white_has_moved => self.handicap.black_moves += 1,
                Color::Black => {}
            }
        }

        if self.ending_passes >= 2 || spight_like_end {
            self.end = End::Passes;
            if self.rules.scoring == ScoringRule::Area && self.has_button {
                self.has_button = false;
                self.white_bonus += if self.to_move == Color::White {
                    0.5
                } else {
                    -0.5
                };
            }
        }
        if at.is_some() && self.rules.ko == KoRule::Simple {
            let key = self.key(self.board.hash(), self.to_move);
            if self.history.remembered_count(key) >= 3 {
                self.end = End::Cycle;
            }
        }
    }

    /// The key of the stones of `hash` with `to_move` to play, as the ko
    /// rule tells positions apart (KataGo's `getKoHash`).
    fn key(&self, hash: u64, to_move: Color) -> u64 {
        match (self.rules.ko, to_move) {
            (KoRule::Simple | KoRule::Situational, Color::White) => hash ^ WHITE_TO_MOVE,
            _ => hash,
        }
    }

    /// Whether passes lift the ko bans and end the game when a player
    /// passes again where they passed before (simple ko and spight rules).
    fn passes_lift_bans(&self) -> bool {
        matches!(self.rules.ko, KoRule::Simple | KoRule::Spight)
    }

    /// The consecutive ending passes after a pass now.
    fn ending_passes_after_pass(&self) -> u32 {
        match self.rules.ko {
            KoRule::Spight => 0,
            _ => self.ending_passes + 1,
        }
    }

    /// Whether `pla` passing in the position of `key` ends the game because
    /// `pla` passed in it before.
    fn is_spight_like_end(&self, pla: Color, key: u64) -> bool {
        self.passes_lift_bans() && self.history.passed_in(pla, key)
    }

    /// Whether a pass now would end the game (there is no cleanup phase
    /// here: two passes end it under territory counting too).
    #[must_use]
    pub fn pass_would_end_game(&self) -> bool {
        let key = self.key(self.board.hash(), self.to_move);
        self.ending_passes_after_pass() >= 2 || self.is_spight_like_end(self.to_move, key)
    }

    /// Whether KataGo would end the game with a pass now (under territory
    /// counting it only ends a phase).
    pub(crate) fn pass_would_end_katago_game(&self) -> bool {
        self.pass_would_end_game() && self.rules.scoring == ScoringRule::Area
    }

    /// Whether KataGo plays on after such a pass where friendly passing is
    /// fine: it then hides the history from the network.
    pub(crate) fn friendly_pass_goes_on(&self) -> bool {
        let key = self.key(self.board.hash(), self.to_move);
        self.rules.friendly_pass_ok
            && self.rules.scoring == ScoringRule::Area
            && self.ending_passes_after_pass() == 2
            && !self.is_spight_like_end(self.to_move, key)
    }

    /// Whether the game has ended: by passes, or by a long cycle under
    /// simple ko (with no result, see [`is_no_result`](Self::is_no_result)).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.end != End::NotYet
    }

    /// Whether the game ended in a cycle without result (a position of
    /// KataGo's memory repeated a third time under simple ko).
    #[must_use]
    pub fn is_no_result(&self) -> bool {
        self.end == End::Cycle
    }

    /// White's score minus black's if the game were counted now, as KataGo
    /// counts an ended game (`BoardHistory::endAndScoreGameNow` under area
    /// counting, with the rules' tax): the area of pass-alive chains, their
    /// territory, big empty regions and all other stones, plus komi, the
    /// bonus for moves (territory counting) and the button, and the
    /// handicap bonus.
    #[must_use]
    pub fn white_score_if_over(&self) -> f32 {
        let board_score = match self.rules.tax {
            TaxRule::None => {
                let area = calculate_area(
                    &self.board,
                    AreaOptions {
                        non_pass_alive_stones: true,
                        safe_big_territories: true,
                        unsafe_big_territories: true,
                        multi_stone_suicide: self.rules.multi_stone_suicide,
                    },
                );
                self.white_minus_black(&area)
            }
            TaxRule::Seki | TaxRule::All => {
                let (area, regions) =
                    independent_life_area(&self.board, false, true, self.rules.multi_stone_suicide);
                let tax = if self.rules.tax == TaxRule::All {
                    2 * regions
                } else {
                    0
                };
                self.white_minus_black(&area) - tax
            }
        };
        let button = match (self.has_button, self.to_move) {
            (false, _) => 0.0,
            (true, Color::White) => 0.5,
            (true, Color::Black) => -0.5,
        };
        board_score as f32 + (self.white_bonus + button) + self.handicap_bonus() + self.rules.komi
    }

    fn white_minus_black(&self, area: &[u8]) -> i32 {
        self.board
            .locs()
            .map(|loc| match area[usize::from(loc)] {
                EMPTY => 0,
                c if c == WHITE => 1,
                _ => -1,
            })
            .sum()
    }

    /// White's compensation for the handicap, as KataGo counts it.
    fn handicap_bonus(&self) -> f32 {
        let stones = self.handicap.stones();
        let bonus = match self.rules.white_handicap_bonus {
            WhiteHandicapBonus::Zero => 0,
            WhiteHandicapBonus::N => stones,
            WhiteHandicapBonus::NMinusOne => stones.saturating_sub(1),
        };
        bonus as f32
    }

    /// KataGo's komi from the side to move's view (`currentSelfKomi` with
    /// draws worth half a win): white's komi and bonuses, negated for black.
    pub(crate) fn self_komi(&self) -> f32 {
        let white = self.white_bonus + self.handicap_bonus() + self.rules.komi;
        match self.to_move {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// The board KataGo computes on.
    pub(crate) fn chain_board(&self) -> &BoardWithLadders {
        &self.board
    }

    /// The board `moves_ago` (1 or 2) moves ago.
    pub(crate) fn board_before(&self, moves_ago: usize) -> &BoardWithLadders {
        &self.before[moves_ago - 1]
    }

    /// The last moves since the history was cleared, the last first.
    pub(crate) fn last_moves(&self) -> impl Iterator<Item = Played> + '_ {
        self.last_moves.iter().map_while(|m| *m)
    }

    /// Moves since the history was cleared (KataGo's
    /// `numApproxValidTurnsThisPhase`).
    pub(crate) fn turns_since_clear(&self) -> usize {
        self.turns as usize
    }

    /// Whether the button is still to take.
    pub(crate) fn has_button(&self) -> bool {
        self.has_button
    }

    /// Whether KataGo bans the player to move from `loc` for superko
    /// (`superKoBanned` as `makeBoardMoveAssumeLegal` marks it): a
    /// pseudo-legal point that is not the ko point and whose move repeats a
    /// position it remembers.
    pub(crate) fn superko_banned(&self, loc: Loc) -> bool {
        let pla = code(self.to_move);
        if self.rules.ko == KoRule::Simple
            || self.last_moves[0].is_none()
            || self.board.color(loc) != EMPTY
            || loc == self.board.ko()
            || self
                .board
                .is_illegal_suicide(loc, pla, self.rules.multi_stone_suicide)
            || (!self.ever_occupied.contains(loc) && !self.board.is_suicide(loc, pla))
        {
            return false;
        }
        let after = self.board.hash_after(loc, pla);
        self.history
            .remembers(self.key(after, self.to_move.opponent()))
    }

    /// The ko point forbidden to the player to move.
    pub(crate) fn ko(&self) -> Option<Loc> {
        (self.board.ko() != NO_LOC).then_some(self.board.ko())
    }
}

impl Position {
    /// A key for caching evaluations: a hash of what the network's inputs
    /// read — the board, the player to move, the simple ko, the last five
    /// moves, the passes towards the end, the rules and komi, white's
    /// bonus. Superko bans left by an older history are not in it: two
    /// positions differing only there share a key (rare, and KataGo's
    /// cache does the same).
    #[must_use]
    pub fn nn_key(&self) -> u64 {
        let mut key = Mix(self.board.hash());
        key.add(u64::from(self.to_move == Color::White));
        key.add(u64::from(self.board.ko()));
        for played in &self.last_moves {
            key.add(played.map_or(u64::MAX, |p| {
                (u64::from(p.color == Color::White) << 32) | p.at.map_or(0xFFFF, u64::from)
            }));
        }
        key.add(u64::from(self.ending_passes));
        key.add(u64::from(self.end != End::NotYet));
        key.add(u64::from(self.white_bonus.to_bits()));
        key.add(u64::from(self.has_button));
        let r = &self.rules;
        key.add(u64::from(r.komi.to_bits()));
        key.add(
            (r.ko as u64)
                | (r.scoring as u64) << 4
                | (r.tax as u64) << 8
                | u64::from(r.multi_stone_suicide) << 12
                | u64::from(r.button) << 13
                | (r.white_handicap_bonus as u64) << 14
                | u64::from(r.friendly_pass_ok) << 18,
        );
        key.0
    }
}

/// A hash combined value by value (splitmix64's finaliser on each step).
struct Mix(u64);

impl Mix {
    fn add(&mut self, value: u64) {
        let mut z = self.0 ^ value.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_go_to_other_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Position>();
        let game = Game::new(BoardSize::NINE, shoutan_rules::Ruleset::CHINESE);
        let position = Position::from_game(&game);
        let inputs = std::thread::scope(|s| s.spawn(|| position.inputs()).join());
        assert_eq!(inputs.ok(), Some(position.inputs()));
    }

    #[test]
    fn errors_name_the_point() {
        let point = Point::new(2, 3);
        assert_eq!(PositionError::Ko(point).to_string(), "cd retakes the ko");
    }
}
