//! The forward pass against a naive reference written here from KataGo's
//! description of each layer: direct convolutions in f64 over padded
//! planes (NCHW), batch normalisation as (x − mean)/√(var + ε)·γ + β,
//! straightforward pooling. No Winograd, no merged weights, no batching.

use shoutan_nn::model::{Activation, BatchNorm, Block, Conv, MatBias, MatMul, Model};
use shoutan_nn::{Inputs, Network, NetworkError, RawOutput, Scratch};
use std::sync::OnceLock;

const MODEL_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/models/g170-b6c96-s175395328-d26788732.bin.gz"
);

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::load(MODEL_PATH).expect("the shipped model reads"))
}

fn network() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| Network::new(model()))
}

/// A small deterministic generator (xorshift64*), so that failures repeat.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Inputs shaped like real ones: plane 0 (on the board) all ones, the
/// other planes mostly 0/1 (stones, liberties, history) with a few
/// fractional values, global inputs small.
fn random_inputs(size: usize, seed: u64) -> Inputs {
    let mut random = Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let area = size * size;
    let mut spatial = vec![1.0; area];
    for plane in 1..22 {
        for _ in 0..area {
            let u = random.unit();
            spatial.push(if plane % 7 == 6 {
                u
            } else if u < 0.3 {
                1.0
            } else {
                0.0
            });
        }
    }
    let global = (0..19).map(|_| random.unit() * 2.0 - 1.0).collect();
    Inputs {
        size,
        spatial,
        global,
    }
}

/// Planes of one board: `channels × size × size`.
struct Planes {
    channels: usize,
    size: usize,
    values: Vec<f64>,
}

impl Planes {
    fn at(&self, c: usize, y: isize, x: isize) -> f64 {
        let s = self.size as isize;
        if y < 0 || x < 0 || y >= s || x >= s {
            0.0
        } else {
            self.values[(c * self.size + y as usize) * self.size + x as usize]
        }
    }
}

fn convolve(conv: &Conv, input: &Planes) -> Planes {
    let size = input.size;
    assert_eq!(input.channels, conv.in_channels);
    let (kh, kw) = (conv.kernel_height, conv.kernel_width);
    let mut values = vec![0.0; conv.out_channels * size * size];
    for o in 0..conv.out_channels {
        for y in 0..size {
            for x in 0..size {
                let mut sum = 0.0;
                for ky in 0..kh {
                    for kx in 0..kw {
                        let sy = y as isize + ky as isize - (kh / 2) as isize;
                        let sx = x as isize + kx as isize - (kw / 2) as isize;
                        for i in 0..conv.in_channels {
                            let w = conv.weights
                                [((ky * kw + kx) * conv.in_channels + i) * conv.out_channels + o];
                            sum += f64::from(w) * input.at(i, sy, sx);
                        }
                    }
                }
                values[(o * size + y) * size + x] = sum;
            }
        }
    }
    Planes {
        channels: conv.out_channels,
        size,
        values,
    }
}

fn activate(x: f64, activation: Activation) -> f64 {
    match activation {
        Activation::Identity => x,
        Activation::Relu => x.max(0.0),
        Activation::Mish => x * x.exp().ln_1p().tanh(),
        Activation::Silu => x / (1.0 + (-x).exp()),
    }
}

fn normalize(norm: &BatchNorm, activation: Activation, input: &Planes) -> Planes {
    let area = input.size * input.size;
    let mut values = input.values.clone();
    for c in 0..norm.channels {
        let gamma = norm.scale.as_ref().map_or(1.0, |s| f64::from(s[c]));
        let beta = norm.bias.as_ref().map_or(0.0, |b| f64::from(b[c]));
        let deviation = (f64::from(norm.variance[c]) + f64::from(norm.epsilon)).sqrt();
        for v in &mut values[c * area..(c + 1) * area] {
            *v = activate(
                (*v - f64::from(norm.mean[c])) / deviation * gamma + beta,
                activation,
            );
        }
    }
    Planes {
        channels: input.channels,
        size: input.size,
        values,
    }
}

fn dense(matmul: &MatMul, bias: Option<&MatBias>, input: &[f64]) -> Vec<f64> {
    (0..matmul.out_channels)
        .map(|o| {
            let sum: f64 = (0..matmul.in_channels)
                .map(|i| f64::from(matmul.weights[i * matmul.out_channels + o]) * input[i])
                .sum();
            sum + bias.map_or(0.0, |b| f64::from(b.weights[o]))
        })
        .collect()
}

/// Adds a per-channel bias to planes.
fn add_channel_bias(planes: &mut Planes, bias: &[f64]) {
    let area = planes.size * planes.size;
    for (c, b) in bias.iter().enumerate() {
        planes.values[c * area..(c + 1) * area]
            .iter_mut()
            .for_each(|v| *v += b);
    }
}

fn channel_means(planes: &Planes) -> Vec<f64> {
    let area = planes.size * planes.size;
    planes
        .values
        .chunks(area)
        .map(|p| p.iter().sum::<f64>() / area as f64)
        .collect()
}

/// Mean, mean scaled by (√area − 14)/10, and maximum (KataGo's backends
/// start it at −1) of each channel.
fn gpool(planes: &Planes) -> Vec<f64> {
    let area = planes.size * planes.size;
    let means = channel_means(planes);
    let width = (area as f64).sqrt() - 14.0;
    let mut features: Vec<f64> = means.clone();
    features.extend(means.iter().map(|m| m * width * 0.1));
    features.extend(
        planes
            .values
            .chunks(area)
            .map(|p| p.iter().copied().fold(-1.0, f64::max)),
    );
    features
}

fn value_pool(planes: &Planes) -> Vec<f64> {
    let area = planes.size * planes.size;
    let means = channel_means(planes);
    let width = (area as f64).sqrt() - 14.0;
    let mut features: Vec<f64> = means.clone();
    features.extend(means.iter().map(|m| m * width * 0.1));
    features.extend(means.iter().map(|m| m * (width * width * 0.01 - 0.1)));
    features
}

/// The reference forward pass of one position, outputs in f64.
fn reference(model: &Model, inputs: &Inputs) -> (Vec<f64>, f64, Vec<f64>, Vec<f64>, Vec<f64>) {
    let size = inputs.size;
    let input = Planes {
        channels: 22,
        size,
        values: inputs.spatial.iter().map(|&v| f64::from(v)).collect(),
    };
    let trunk_def = &model.trunk;
    let mut trunk = convolve(&trunk_def.initial_conv, &input);
    let global: Vec<f64> = inputs.global.iter().map(|&v| f64::from(v)).collect();
    add_channel_bias(&mut trunk, &dense(&trunk_def.initial_matmul, None, &global));
    for block in &trunk_def.blocks {
        let residual = match block {
            Block::Ordinary(b) => {
                let a = normalize(&b.pre_norm, b.pre_activation, &trunk);
                let mid = convolve(&b.first_conv, &a);
                let mid = normalize(&b.mid_norm, b.mid_activation, &mid);
                convolve(&b.final_conv, &mid)
            }
            Block::GlobalPooling(b) => {
                let a = normalize(&b.pre_norm, b.pre_activation, &trunk);
                let mut regular = convolve(&b.regular_conv, &a);
                let pooled = normalize(
                    &b.gpool_norm,
                    b.gpool_activation,
                    &convolve(&b.gpool_conv, &a),
                );
                add_channel_bias(
                    &mut regular,
                    &dense(&b.gpool_to_bias, None, &gpool(&pooled)),
                );
                let mid = normalize(&b.mid_norm, b.mid_activation, &regular);
                convolve(&b.final_conv, &mid)
            }
        };
        trunk
            .values
            .iter_mut()
            .zip(&residual.values)
            .for_each(|(t, r)| *t += r);
    }
    let trunk = normalize(&trunk_def.tip_norm, trunk_def.tip_activation, &trunk);

    let p = &model.policy_head;
    let mut p1 = convolve(&p.p1_conv, &trunk);
    let g1 = normalize(&p.g1_norm, p.g1_activation, &convolve(&p.g1_conv, &trunk));
    let g1_features = gpool(&g1);
    add_channel_bias(&mut p1, &dense(&p.gpool_to_bias, None, &g1_features));
    let p1 = normalize(&p.p1_norm, p.p1_activation, &p1);
    let policy = convolve(&p.p2_conv, &p1).values;
    let pass = dense(&p.gpool_to_pass, None, &g1_features)[0];

    let v = &model.value_head;
    let v1 = normalize(&v.v1_norm, v.v1_activation, &convolve(&v.v1_conv, &trunk));
    let hidden: Vec<f64> = dense(&v.v2_mul, Some(&v.v2_bias), &value_pool(&v1))
        .into_iter()
        .map(|h| activate(h, v.v2_activation))
        .collect();
    let value = dense(&v.v3_mul, Some(&v.v3_bias), &hidden);
    let score = dense(&v.sv3_mul, Some(&v.sv3_bias), &hidden);
    let ownership = convolve(&v.ownership_conv, &v1).values;
    (policy, pass, value, score, ownership)
}

/// The largest error of `actual` against `expected`, relative to
/// `1 + |expected|` (so absolute near 0, relative for large logits).
fn worst_error(actual: &[f32], expected: &[f64]) -> f64 {
    assert_eq!(actual.len(), expected.len());
    actual
        .iter()
        .zip(expected)
        .map(|(&a, &e)| (f64::from(a) - e).abs() / (1.0 + e.abs()))
        .fold(0.0, f64::max)
}

const TOLERANCE: f64 = 1e-4;

fn check_against_reference(output: &RawOutput, inputs: &Inputs) {
    let (policy, pass, value, score, ownership) = reference(model(), inputs);
    let errors = [
        ("policy", worst_error(&output.policy, &policy)),
        ("pass", worst_error(&[output.pass], &[pass])),
        ("value", worst_error(&output.value, &value)),
        ("score", worst_error(&output.score, &score)),
        ("ownership", worst_error(&output.ownership, &ownership)),
    ];
    for (what, error) in errors {
        assert!(
            error < TOLERANCE,
            "size {}: {what} off by {error:e}",
            inputs.size
        );
    }
    // The reference's outputs are not trivial: a network that output zeros
    // would not pass.
    assert!(policy.iter().any(|p| p.abs() > 0.5));
    assert!(value.iter().any(|v| v.abs() > 0.1));
}

#[test]
fn the_forward_pass_equals_the_reference_on_every_board_size_tested() {
    let mut scratch = Scratch::default();
    for (size, seed) in [(19, 1), (13, 2), (9, 3), (7, 4), (19, 5), (5, 6), (1, 7)] {
        let inputs = random_inputs(size, seed);
        let outputs = network().forward(&[&inputs], &mut scratch).unwrap();
        assert_eq!(outputs.len(), 1);
        let output = &outputs[0];
        assert_eq!(output.policy.len(), size * size);
        assert_eq!(output.ownership.len(), size * size);
        assert_eq!(output.score.len(), 4);
        check_against_reference(output, &inputs);
    }
}

#[test]
fn a_batch_equals_its_positions_evaluated_one_by_one() {
    let mut scratch = Scratch::default();
    for size in [19, 9] {
        let batch: Vec<Inputs> = (0..8).map(|seed| random_inputs(size, 100 + seed)).collect();
        let references: Vec<&Inputs> = batch.iter().collect();
        let together = network().forward(&references, &mut scratch).unwrap();
        assert_eq!(together.len(), 8);
        for (inputs, output) in batch.iter().zip(&together) {
            let alone = network().forward(&[inputs], &mut scratch).unwrap();
            assert_eq!(alone.len(), 1);
            let close = |a: &[f32], b: &[f32]| {
                a.iter()
                    .zip(b)
                    .all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + y.abs()))
            };
            assert!(close(&output.policy, &alone[0].policy));
            assert!(close(&output.ownership, &alone[0].ownership));
            assert!(close(&output.value, &alone[0].value));
            assert!(close(&output.score, &alone[0].score));
            assert!(close(&[output.pass], &[alone[0].pass]));
        }
        // And the positions differ, so the batch is not one answer repeated.
        assert_ne!(together[0].policy, together[1].policy);
        check_against_reference(&together[7], &batch[7]);
    }
}

#[test]
fn malformed_batches_are_refused() {
    let mut scratch = Scratch::default();
    let nine = random_inputs(9, 1);
    let thirteen = random_inputs(13, 2);
    assert_eq!(
        network().forward(&[&nine, &thirteen], &mut scratch),
        Err(NetworkError::MixedSizes {
            first: 9,
            other: 13
        })
    );
    let mut short = nine.clone();
    short.spatial.pop();
    assert!(matches!(
        network().forward(&[&nine, &short], &mut scratch),
        Err(NetworkError::SpatialLength { index: 1, .. })
    ));
    let mut long_global = nine.clone();
    long_global.global.push(0.0);
    assert!(matches!(
        network().forward(&[&long_global], &mut scratch),
        Err(NetworkError::GlobalLength { index: 0, .. })
    ));
    let mut padded = nine.clone();
    padded.spatial[80] = 0.0;
    assert_eq!(
        network().forward(&[&nine, &padded], &mut scratch),
        Err(NetworkError::OffBoardPoints { index: 1 })
    );
    let empty = Inputs {
        size: 0,
        spatial: Vec::new(),
        global: vec![0.0; 19],
    };
    assert_eq!(
        network().forward(&[&empty], &mut scratch),
        Err(NetworkError::EmptyBoard)
    );
    assert_eq!(network().forward(&[], &mut scratch), Ok(Vec::new()));
}

#[test]
fn the_network_describes_itself() {
    let network = network();
    assert_eq!(network.name(), "g170-b6c96-s175395328-d26788732");
    assert_eq!(network.version(), 8);
    assert_eq!(network.input_channels(), (22, 19));
}

#[test]
fn threads_sharing_one_network_each_get_the_same_answer() {
    let inputs = random_inputs(19, 42);
    let alone = network()
        .forward(&[&inputs], &mut Scratch::default())
        .unwrap();
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut scratch = Scratch::default();
                    (0..3)
                        .map(|_| network().forward(&[&inputs], &mut scratch).unwrap())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for thread in threads {
            for outputs in thread.join().unwrap() {
                assert_eq!(outputs, alone);
            }
        }
    });
}

/// The network is shared by search threads.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Network>();
};
