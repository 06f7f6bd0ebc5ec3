//! The network's input features, input version 7 (model versions 8 to
//! 17), exactly as KataGo's `NNInputs::fillRowV7` fills them
//! (`neuralnet/nninputs.cpp`) with its default parameters: draws worth half
//! a win, no conservative pass, no passing hacks, no playout doubling
//! advantage, history as long as KataGo keeps it, no symmetry (applied
//! later), the main phase (no cleanup phase here).

use crate::area::{AreaOptions, calculate_area, independent_life_area};
use crate::board::{EMPTY, code, other};
use crate::position::Position;
use crate::rules::{KoRule, ScoringRule, TaxRule};
use crate::{GLOBAL_FEATURES, Inputs, SPATIAL_FEATURES};

/// Input planes, in KataGo's order.
mod plane {
    pub const ON_BOARD: usize = 0;
    pub const OWN_STONE: usize = 1;
    pub const OPPONENT_STONE: usize = 2;
    /// Stones of chains with 1, 2 and 3 liberties: this plane and the two after.
    pub const ONE_LIBERTY: usize = 3;
    pub const KO_BAN: usize = 6;
    /// The last move, then the ones before: five planes.
    pub const LAST_MOVE: usize = 9;
    pub const LADDERED: usize = 14;
    pub const LADDERED_ONE_MOVE_AGO: usize = 15;
    pub const LADDERED_TWO_MOVES_AGO: usize = 16;
    pub const LADDER_WORKING_MOVE: usize = 17;
    pub const OWN_AREA: usize = 18;
    pub const OPPONENT_AREA: usize = 19;
}

/// Global inputs, in KataGo's order.
mod global {
    /// The last move was a pass, then the ones before: five inputs.
    pub const LAST_MOVE_PASSED: usize = 0;
    pub const SELF_KOMI: usize = 5;
    pub const SUPERKO: usize = 6;
    pub const KO_SITUATION: usize = 7;
    pub const MULTI_STONE_SUICIDE: usize = 8;
    pub const TERRITORY: usize = 9;
    pub const TAX: usize = 10;
    pub const TAX_ALL: usize = 11;
    pub const PASS_ENDS_PHASE: usize = 14;
    pub const BUTTON: usize = 17;
    pub const KOMI_PARITY_WAVE: usize = 18;
}

/// KataGo bounds the komi input to the board's area and this much more.
const KOMI_CLIP_RADIUS: f32 = 20.0;

/// The history planes see at most this many moves.
const HISTORY_LEN: usize = 5;

impl Position {
    /// The network's inputs for this position, from the view of the player
    /// to move.
    ///
    /// ```
    /// use shoutan_nn::{GLOBAL_FEATURES, Position, SPATIAL_FEATURES};
    /// use shoutan_rules::{BoardSize, Game, Ruleset};
    /// let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
    /// let inputs = Position::from_game(&game).inputs();
    /// assert_eq!(inputs.spatial.len(), SPATIAL_FEATURES * 81);
    /// assert_eq!(inputs.global.len(), GLOBAL_FEATURES);
    /// assert_eq!(inputs.global[5], -7.5 / 20.0); // black's komi
    /// ```
    #[must_use]
    pub fn inputs(&self) -> Inputs {
        let board = self.chain_board();
        let size = usize::from(board.size().get());
        let area = size * size;
        let mut planes = Planes {
            values: vec![0.0; SPATIAL_FEATURES * area],
            area,
        };
        let mut global = vec![0.0; GLOBAL_FEATURES];
        let pla = code(self.to_move());
        let opp = other(pla);

        for loc in board.locs() {
            let pos = board.pos(loc);
            planes.set(plane::ON_BOARD, pos);
            let stone = board.color(loc);
            if stone == EMPTY {
                continue;
            }
            planes.set(
                if stone == pla {
                    plane::OWN_STONE
                } else {
                    plane::OPPONENT_STONE
                },
                pos,
            );
            let libs = usize::from(board.libs(loc));
            if (1..=3).contains(&libs) {
                planes.set(plane::ONE_LIBERTY + libs - 1, pos);
            }
        }

        if let Some(ko) = self.ko() {
            planes.set(plane::KO_BAN, board.pos(ko));
        }
        for loc in board.locs() {
            if self.superko_banned(loc) {
                planes.set(plane::KO_BAN, board.pos(loc));
            }
        }

        let rules = self.rules();
        let owners = match (rules.scoring, rules.tax) {
            (ScoringRule::Area, TaxRule::None) => Some(calculate_area(
                board,
                AreaOptions {
                    non_pass_alive_stones: true,
                    safe_big_territories: true,
                    unsafe_big_territories: true,
                    multi_stone_suicide: rules.multi_stone_suicide,
                },
            )),
            (ScoringRule::Area, TaxRule::Seki | TaxRule::All) => {
                Some(independent_life_area(board, false, true, rules.multi_stone_suicide).0)
            }
            // Territory counting shows no area before the cleanup phase.
            (ScoringRule::Territory, _) => None,
        };
        if let Some(owners) = owners {
            for loc in board.locs() {
                let owner = owners[usize::from(loc)];
                if owner == pla {
                    planes.set(plane::OWN_AREA, board.pos(loc));
                } else if owner == opp {
                    planes.set(plane::OPPONENT_AREA, board.pos(loc));
                }
            }
        }

        // The history is hidden when a pass would end the game but KataGo
        // plays on (friendly passing), and cut to the last move at the end.
        let hide_history = self.pass_would_end_katago_game() && self.friendly_pass_goes_on();
        let max_turns = if hide_history {
            0
        } else if self.is_over() {
            1
        } else {
            HISTORY_LEN
        };
        let visible = max_turns.min(self.turns_since_clear());
        let mut included = 0;
        for (i, played) in self.last_moves().take(visible).enumerate() {
            // Only moves that alternate back from the opponent's last one.
            let expected = if i.is_multiple_of(2) { opp } else { pla };
            if code(played.color) != expected {
                break;
            }
            included = i + 1;
            match played.at {
                Some(loc) => planes.set(plane::LAST_MOVE + i, board.pos(loc)),
                None => global[global::LAST_MOVE_PASSED + i] = 1.0,
            }
        }

        let ladders = board.ladders();
        for &loc in &ladders.stones {
            planes.set(plane::LADDERED, board.pos(loc));
        }
        for &mv in &ladders.working_moves[usize::from(opp - 1)] {
            planes.set(plane::LADDER_WORKING_MOVE, board.pos(mv));
        }
        // With fewer moves of history, KataGo searches the present board
        // again for the past: the same planes.
        if included >= 1 {
            for &loc in &self.board_before(1).ladders().stones {
                planes.set(plane::LADDERED_ONE_MOVE_AGO, board.pos(loc));
            }
        } else {
            planes.copy(plane::LADDERED, plane::LADDERED_ONE_MOVE_AGO);
        }
        if included >= 2 {
            for &loc in &self.board_before(2).ladders().stones {
                planes.set(plane::LADDERED_TWO_MOVES_AGO, board.pos(loc));
            }
        } else {
            planes.copy(plane::LADDERED_ONE_MOVE_AGO, plane::LADDERED_TWO_MOVES_AGO);
        }

        let bound = area as f32 + KOMI_CLIP_RADIUS;
        let self_komi = self.self_komi().clamp(-bound, bound);
        global[global::SELF_KOMI] = self_komi / 20.0;
        match rules.ko {
            KoRule::Simple => {}
            KoRule::Positional | KoRule::Spight => {
                global[global::SUPERKO] = 1.0;
                global[global::KO_SITUATION] = 0.5;
            }
            KoRule::Situational => {
                global[global::SUPERKO] = 1.0;
                global[global::KO_SITUATION] = -0.5;
            }
        }
        if rules.multi_stone_suicide {
            global[global::MULTI_STONE_SUICIDE] = 1.0;
        }
        if rules.scoring == ScoringRule::Territory {
            global[global::TERRITORY] = 1.0;
        }
        match rules.tax {
            TaxRule::None => {}
            TaxRule::Seki => global[global::TAX] = 1.0,
            TaxRule::All => {
                global[global::TAX] = 1.0;
                global[global::TAX_ALL] = 1.0;
            }
        }
        if !hide_history && self.pass_would_end_game() {
            global[global::PASS_ENDS_PHASE] = 1.0;
        }
        if self.has_button() {
            global[global::BUTTON] = 1.0;
        }
        if rules.scoring == ScoringRule::Area {
            global[global::KOMI_PARITY_WAVE] = komi_parity_wave(self_komi, area);
        }

        Inputs {
            size,
            spatial: planes.values,
            global,
        }
    }
}

/// The spatial inputs being filled: plane after plane of `area` values.
struct Planes {
    values: Vec<f32>,
    area: usize,
}

impl Planes {
    fn set(&mut self, plane: usize, pos: usize) {
        self.values[plane * self.area + pos] = 1.0;
    }

    fn copy(&mut self, from: usize, to: usize) {
        self.values
            .copy_within(from * self.area..(from + 1) * self.area, to * self.area);
    }
}

/// KataGo's triangle wave of the komi's parity: 0 at the komi where the
/// board's parity allows a draw, rising to ½ at half a point above, back
/// through 0 to −½ a point and a half above, period 2 (area counting only).
fn komi_parity_wave(self_komi: f32, board_area: usize) -> f32 {
    let drawable_komis_are_even = board_area.is_multiple_of(2);
    let floor = if drawable_komis_are_even {
        (self_komi / 2.0).floor() * 2.0
    } else {
        ((self_komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (self_komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}
