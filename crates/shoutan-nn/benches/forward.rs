//! Evaluations per second of the shipped network on 19×19, one thread, at
//! batch 1 and batch 8 (compare with KataGo's own `benchmark`, Eigen
//! backend, one thread: its nnEvals/s).
// criterion's macros define undocumented functions.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shoutan_nn::model::Model;
use shoutan_nn::{Inputs, Network, Scratch};

const MODEL_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/g170-b6c96-s175395328-d26788732.bin.gz"
);

/// A position-like input: every point on the board, a few stones.
fn inputs(size: usize, seed: usize) -> Inputs {
    let area = size * size;
    let mut spatial = vec![0.0; 22 * area];
    spatial[..area].fill(1.0);
    for point in (seed..area).step_by(7) {
        spatial[area + point] = 1.0;
        spatial[2 * area + (point + 3) % area] = 1.0;
    }
    Inputs {
        size,
        spatial,
        global: vec![0.0; 19],
    }
}

fn forward(c: &mut Criterion) {
    let network = Network::new(&Model::load(MODEL_PATH).expect("the shipped model reads"));
    let mut group = c.benchmark_group("forward 19x19");
    for batch_size in [1, 8] {
        let batch: Vec<Inputs> = (0..batch_size).map(|seed| inputs(19, seed)).collect();
        let batch: Vec<&Inputs> = batch.iter().collect();
        let mut scratch = Scratch::default();
        group.throughput(Throughput::Elements(batch_size as u64));
        group.bench_function(format!("batch {batch_size}"), |b| {
            b.iter(|| {
                network
                    .forward(&batch, &mut scratch)
                    .expect("a valid batch")
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = forward
}
criterion_main!(benches);
