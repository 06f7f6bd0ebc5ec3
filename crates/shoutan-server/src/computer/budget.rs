//! How long the computer may think: its level's visits, within what the
//! game's clock allows (the engine's time management, fed with the
//! server's authoritative clock).

use std::time::Duration;

use shoutan_clock::{Clock, Instant, Millis, Overtime};
use shoutan_engine::{Budget, ClockReading, Level};
use shoutan_rules::{Color, Game};

fn duration(ms: Millis) -> Duration {
    Duration::from_millis(ms.as_millis())
}

/// The clock of `color` at `at` in GTP's `time_left` terms, for the
/// engine's time manager under the clock's own time control: the main time
/// left, then the time and periods (or moves) left in overtime; per-move
/// time is one period.
#[must_use]
fn clock_reading(clock: &Clock, color: Color, at: Instant) -> ClockReading {
    let reading = clock.reading(color, at);
    let in_overtime = reading.in_overtime();
    let (time_left, stones) = match reading.overtime {
        Overtime::ByoYomi {
            periods_left,
            period_left,
            ..
        } if in_overtime => (period_left, periods_left),
        Overtime::MovesPerPeriod {
            moves_left,
            period_left,
        } if in_overtime => (period_left, moves_left),
        Overtime::PerMove { left } => (left, 1),
        _ => (reading.main_left, 0),
    };
    ClockReading {
        time_left: duration(time_left),
        stones,
    }
}

/// The budget of the next move: the level's own (its visits, within its
/// time per move for the board's size), never more than the clock allows.
#[must_use]
pub fn budget(level: Level, game: &Game, clock: &Clock, color: Color, at: Instant) -> Budget {
    let reading = clock_reading(clock, color, at);
    let from_clock = Budget::from_clock(clock.control(), &reading, game);
    level.budget(game.size().area()).and(from_clock)
}

#[cfg(test)]
mod tests {
    use shoutan_clock::{ClockOptions, TimeControl};
    use shoutan_rules::{BoardSize, Ruleset};

    use super::*;

    fn clock(text: &str) -> Clock {
        let control: TimeControl = text.parse().unwrap();
        let mut clock = Clock::new(control, ClockOptions::default()).unwrap();
        clock.start(Color::Black, Instant::ORIGIN).unwrap();
        clock
    }

    #[test]
    fn the_level_caps_the_visits_and_the_clock_the_time() {
        let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
        let beginner = Level::BEGINNER;
        let b = budget(
            beginner,
            &game,
            &clock("absolute 10 min"),
            Color::Black,
            Instant::ORIGIN,
        );
        assert_eq!(b.visits, Some(1));
        assert_eq!(b.time, Some(Level::max_time(81)));
        // Without a clock: the level's own budget; at full strength, at
        // most 3 s a move on 9×9 and 6 s on 19×19, even with a long clock.
        let none = Clock::new(TimeControl::None, ClockOptions::default()).unwrap();
        assert_eq!(
            budget(beginner, &game, &none, Color::Black, Instant::ORIGIN),
            beginner.budget(81)
        );
        let full = budget(Level::FULL, &game, &none, Color::Black, Instant::ORIGIN);
        assert_eq!(
            (full.visits, full.time),
            (None, Some(Duration::from_secs(3)))
        );
        let big = Game::new(BoardSize::NINETEEN, Ruleset::CHINESE);
        let slow = clock("absolute 90 min");
        let full = budget(Level::FULL, &big, &slow, Color::Black, Instant::ORIGIN);
        assert_eq!(full.time, Some(Duration::from_secs(6)));
    }

    fn at(secs: u64) -> Instant {
        Instant::ORIGIN + Millis::from_secs(secs)
    }

    #[test]
    fn byo_yomi_reads_the_period_once_main_time_is_gone() {
        let c = clock("3×10s byo-yomi");
        let reading = clock_reading(&c, Color::Black, at(4));
        assert_eq!(
            reading,
            ClockReading {
                time_left: Duration::from_secs(6),
                stones: 3
            }
        );
        let c = clock("1 min + 3×10s byo-yomi");
        let reading = clock_reading(&c, Color::Black, at(4));
        assert_eq!(
            reading,
            ClockReading {
                time_left: Duration::from_secs(56),
                stones: 0
            }
        );
        let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
        let b = budget(
            Level::FULL,
            &game,
            &clock("3×10s byo-yomi"),
            Color::Black,
            at(4),
        );
        assert!(b.time.unwrap() < Duration::from_secs(6));
    }

    #[test]
    fn moves_per_period_reads_the_moves_left_in_the_period() {
        let mut c = clock("2 moves / 1 min");
        c.play(Color::Black, at(20)).unwrap();
        c.play(Color::White, at(21)).unwrap();
        assert_eq!(
            clock_reading(&c, Color::Black, at(31)),
            ClockReading {
                time_left: Duration::from_secs(30),
                stones: 1
            }
        );
    }

    #[test]
    fn fischer_counts_on_its_increment() {
        // Read as absolute time, 60 s would give about 0.8 s on 9×9: the
        // increment is part of the budget now.
        let c = clock("1 min + 10s Fischer");
        let reading = clock_reading(&c, Color::Black, at(0));
        assert_eq!(
            reading,
            ClockReading {
                time_left: Duration::from_secs(60),
                stones: 0
            }
        );
        let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
        let b = budget(Level::FULL, &game, &c, Color::Black, at(0));
        let from_clock = Budget::from_clock(c.control(), &reading, &game)
            .time
            .unwrap();
        assert!(from_clock > Duration::from_secs(8), "{from_clock:?}");
        assert_eq!(b.time, Some(Level::max_time(81)), "the level's cap holds");
    }

    #[test]
    fn per_move_time_reads_the_time_left_for_this_move() {
        let c = clock("30s per move");
        assert_eq!(
            clock_reading(&c, Color::Black, at(12)),
            ClockReading {
                time_left: Duration::from_secs(18),
                stones: 1
            }
        );
        // Most of those 18 s, not a share of them as in basic time.
        let game = Game::new(BoardSize::NINETEEN, Ruleset::CHINESE);
        let reading = clock_reading(&c, Color::Black, at(12));
        let t = Budget::from_clock(c.control(), &reading, &game)
            .time
            .unwrap();
        assert!(
            t > Duration::from_secs(14) && t < Duration::from_secs(18),
            "{t:?}"
        );
    }
}
