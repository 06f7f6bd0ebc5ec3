//! 猜先 nigiri (spec §6): the fair draw that decides colours in an even
//! game, recorded so anyone can check how colours were decided.
//!
//! Over the board, the higher-ranked player (the elder at equal rank) hides
//! a handful of white stones; the other shows one black stone ("odd: I take
//! black") or two ("even: I take black"); the stones are counted. Here the
//! handful and, unless the guesser chose, the guess come from a seed that
//! the record keeps: replaying the seed gives the same draw.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Color, Rank};

/// A guess on the handful.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Parity {
    /// 单: one black stone shown.
    Odd,
    /// 双: two black stones shown.
    Even,
}

/// One of the two players of a nigiri, by the order they were given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The first player given.
    First,
    /// The second player given.
    Second,
}

impl Seat {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// The record of a nigiri.
///
/// ```
/// use shoutan_rules::{Color, Nigiri, Rank, Seat};
/// let draw = Nigiri::draw(["3d".parse().unwrap(), "1k".parse().unwrap()], None, 42);
/// assert_eq!(draw.holder, Seat::First); // the 3 dan grabs the stones
/// assert_eq!(Nigiri::draw(["3d".parse().unwrap(), "1k".parse().unwrap()], None, 42), draw);
/// assert_eq!(draw.color_of(draw.black), Color::Black);
/// println!("{}", draw.describe_zh());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Nigiri {
    /// The seed of the draw.
    pub seed: u64,
    /// Who hid the white stones (the higher rank; the first given at equal rank).
    pub holder: Seat,
    /// How many white stones the handful held (11 to 30: as many odd as even).
    pub stones: u8,
    /// The guesser's guess.
    pub guess: Parity,
    /// Who takes black: the guesser if the guess was right, else the holder.
    pub black: Seat,
}

/// splitmix64: a fixed, documented mix, so a seed means the same draw forever.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Separates the guess from the handful drawn from the same seed.
const GUESS_SALT: u64 = 0x0067_7565_7373;

impl Nigiri {
    /// Draws colours for two players of the given ranks. `guess` is the
    /// guesser's choice, or `None` to draw it too.
    #[must_use]
    pub fn draw(ranks: [Rank; 2], guess: Option<Parity>, seed: u64) -> Nigiri {
        let holder = if ranks[1] > ranks[0] {
            Seat::Second
        } else {
            Seat::First
        };
        let stones = 11 + (mix(seed) % 20) as u8;
        let guess = guess.unwrap_or(if mix(seed ^ GUESS_SALT).is_multiple_of(2) {
            Parity::Odd
        } else {
            Parity::Even
        });
        let actual = if stones % 2 == 1 {
            Parity::Odd
        } else {
            Parity::Even
        };
        let black = if guess == actual {
            holder.other()
        } else {
            holder
        };
        Nigiri {
            seed,
            holder,
            stones,
            guess,
            black,
        }
    }

    /// The guesser.
    #[must_use]
    pub fn guesser(&self) -> Seat {
        self.holder.other()
    }

    /// Whether the guess was right.
    #[must_use]
    pub fn guessed_right(&self) -> bool {
        self.black == self.guesser()
    }

    /// The colour of a player.
    #[must_use]
    pub fn color_of(&self, seat: Seat) -> Color {
        if seat == self.black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The draw in Chinese: 猜先：先手方握子15枚，对手猜单，猜错，先手方执黑。
    #[must_use]
    pub fn describe_zh(&self) -> String {
        let seat = |s: Seat| if s == Seat::First { "甲" } else { "乙" };
        format!(
            "猜先：{}握白子{}枚，{}猜{}，猜{}，{}执黑。",
            seat(self.holder),
            self.stones,
            seat(self.guesser()),
            if self.guess == Parity::Odd {
                "单"
            } else {
                "双"
            },
            if self.guessed_right() { "对" } else { "错" },
            seat(self.black)
        )
    }
}

impl fmt::Display for Nigiri {
    /// The draw in English.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seat = |s: Seat| {
            if s == Seat::First {
                "the first player"
            } else {
                "the second player"
            }
        };
        write!(
            f,
            "nigiri: {} held {} white stones, {} guessed {}, {}; {} takes black",
            seat(self.holder),
            self.stones,
            seat(self.guesser()),
            if self.guess == Parity::Odd {
                "odd"
            } else {
                "even"
            },
            if self.guessed_right() {
                "right"
            } else {
                "wrong"
            },
            seat(self.black)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(s: &str) -> Rank {
        s.parse().unwrap()
    }

    #[test]
    fn the_stronger_player_holds_the_stones() {
        assert_eq!(
            Nigiri::draw([rank("5k"), rank("2d")], None, 1).holder,
            Seat::Second
        );
        assert_eq!(
            Nigiri::draw([rank("2d"), rank("5k")], None, 1).holder,
            Seat::First
        );
        assert_eq!(
            Nigiri::draw([rank("2d"), rank("2d")], None, 1).holder,
            Seat::First
        );
    }

    #[test]
    fn a_right_guess_takes_black() {
        for seed in 0..200 {
            let n = Nigiri::draw([rank("1d"), rank("1d")], Some(Parity::Odd), seed);
            assert!((11..=30).contains(&n.stones));
            assert_eq!(n.guessed_right(), n.stones % 2 == 1);
            assert_eq!(n.black == Seat::Second, n.guessed_right());
        }
    }

    #[test]
    fn the_draw_is_fair() {
        let black_for_first = (0..10_000)
            .filter(|&s| Nigiri::draw([rank("1k"), rank("1k")], None, s).black == Seat::First)
            .count();
        assert!(
            (4_700..=5_300).contains(&black_for_first),
            "{black_for_first} of 10000"
        );
    }

    #[test]
    fn the_record_reads_in_both_languages() {
        let n = Nigiri {
            seed: 0,
            holder: Seat::First,
            stones: 15,
            guess: Parity::Even,
            black: Seat::First,
        };
        assert_eq!(
            n.describe_zh(),
            "猜先：甲握白子15枚，乙猜双，猜错，甲执黑。"
        );
        assert!(n.to_string().contains("15 white stones"));
    }
}
