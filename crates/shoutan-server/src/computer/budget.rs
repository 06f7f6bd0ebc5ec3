//! How long the computer may think: its level's visits, within what the
//! game's clock allows (the engine's time management, fed with the
//! server's authoritative clock).

use std::time::Duration;

use shoutan_clock::{Clock, Instant, Millis, Overtime, TimeControl};
use shoutan_engine::{Budget, ClockReading, Level};
use shoutan_rules::{Color, Game};

fn duration(ms: Millis) -> Duration {
    Duration::from_millis(ms.as_millis())
}

/// The clock of `color` at `at`, in the engine's terms (its time control
/// and GTP's `time_left`). Fischer time is read as absolute time (the
/// increment is a bonus, not counted on) and per-move time as one
/// byo-yomi period.
#[must_use]
pub fn engine_clock(
    clock: &Clock,
    color: Color,
    at: Instant,
) -> (shoutan_engine::TimeControl, ClockReading) {
    use shoutan_engine::TimeControl as Engine;
    let reading = clock.reading(color, at);
    let main_left = duration(reading.main_left);
    let basic = |time_left| ClockReading {
        time_left,
        stones: 0,
    };
    match (clock.control(), reading.overtime) {
        (TimeControl::None, _) => (Engine::None, basic(Duration::ZERO)),
        (TimeControl::Absolute(a), _) => (
            Engine::Absolute {
                main: duration(a.main()),
            },
            basic(main_left),
        ),
        (TimeControl::Fischer(f), _) => (
            Engine::Absolute {
                main: duration(f.main()),
            },
            basic(main_left),
        ),
        (
            TimeControl::ByoYomi(b),
            Overtime::ByoYomi {
                periods_left,
                period_left,
                ..
            },
        ) => {
            let control = Engine::ByoYomi {
                main: duration(b.main()),
                period: duration(b.period()),
                periods: b.periods(),
            };
            let reading = if reading.in_overtime() {
                ClockReading {
                    time_left: duration(period_left),
                    stones: periods_left,
                }
            } else {
                basic(main_left)
            };
            (control, reading)
        }
        (
            TimeControl::MovesPerPeriod(m),
            Overtime::MovesPerPeriod {
                moves_left,
                period_left,
            },
        ) => {
            let control = Engine::Canadian {
                main: duration(m.main()),
                period: duration(m.period()),
                stones: m.moves(),
            };
            let reading = if reading.in_overtime() {
                ClockReading {
                    time_left: duration(period_left),
                    stones: moves_left,
                }
            } else {
                basic(main_left)
            };
            (control, reading)
        }
        (TimeControl::PerMove(p), overtime) => {
            let left = match overtime {
                Overtime::PerMove { left } => duration(left),
                _ => duration(p.time()),
            };
            let control = Engine::ByoYomi {
                main: Duration::ZERO,
                period: duration(p.time()),
                periods: 1,
            };
            (
                control,
                ClockReading {
                    time_left: left,
                    stones: 1,
                },
            )
        }
        // A reading whose overtime does not match its control: only the
        // time left until the flag is trusted.
        (_, _) => (
            Engine::Absolute { main: main_left },
            basic(reading.total_left.map_or(main_left, duration)),
        ),
    }
}

/// The budget of the next move: the level's own (its visits, within its
/// time per move for the board's size), never more than the clock allows.
#[must_use]
pub fn budget(level: Level, game: &Game, clock: &Clock, color: Color, at: Instant) -> Budget {
    let (control, reading) = engine_clock(clock, color, at);
    let from_clock = Budget::from_clock(&control, &reading, game);
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

    #[test]
    fn byo_yomi_reads_the_period_once_main_time_is_gone() {
        let c = clock("3×10s byo-yomi");
        let (control, reading) =
            engine_clock(&c, Color::Black, Instant::ORIGIN + Millis::from_secs(4));
        assert!(matches!(
            control,
            shoutan_engine::TimeControl::ByoYomi { periods: 3, .. }
        ));
        assert_eq!(reading.stones, 3);
        assert_eq!(reading.time_left, Duration::from_secs(6));
        let game = Game::new(BoardSize::NINE, Ruleset::CHINESE);
        let b = budget(
            Level::FULL,
            &game,
            &c,
            Color::Black,
            Instant::ORIGIN + Millis::from_secs(4),
        );
        assert!(b.time.unwrap() < Duration::from_secs(6));
    }
}
