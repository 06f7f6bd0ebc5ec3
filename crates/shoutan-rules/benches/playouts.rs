//! Light playouts per second on 9×9 and 19×19, single-threaded.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use shoutan_rules::{Board, BoardSize, Color, Suicide, light_playout};

fn playouts(c: &mut Criterion) {
    for size in [BoardSize::NINE, BoardSize::NINETEEN] {
        let empty = Board::new(size);
        let mut board = empty.clone();
        let mut rng = fastrand::Rng::with_seed(1);
        c.bench_function(&format!("light playout {size}"), |b| {
            b.iter(|| {
                board.clone_from(&empty);
                light_playout(
                    &mut board,
                    Color::Black,
                    Suicide::Forbidden,
                    3 * size.area(),
                    &mut rng,
                )
            });
        });
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
