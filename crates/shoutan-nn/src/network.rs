//! The forward pass of a KataGo network on a batch of positions.
//!
//! The network is computed at the boards' exact size: KataGo pads a smaller
//! board to its buffer's size and masks the padding out after every layer,
//! which comes to the same as a board whose every point is on the board.
//! So the mask (input plane 0) must be all ones (checked, not otherwise
//! read), and the pooling layers average over all `size²` points.
//!
//! Batch normalisation is merged into a scale and a bias per channel when
//! the network is built; 3×3 convolutions run as Winograd F(4×4, 3×3) and
//! 5×5 as F(2×2, 5×5), with their kernels transformed in advance, other
//! kernel sizes as products of patches (im2col), 1×1 as plain products.

use crate::Inputs;
use crate::kernels::{self, Arch, PackedMatrix, Winograd};
use crate::model::{self, Activation, Block, Model};

/// Why a batch could not be evaluated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetworkError {
    /// The inputs of a batch are of different board sizes.
    #[error("a batch mixes board sizes {first} and {other}")]
    MixedSizes {
        /// The first input's size.
        first: usize,
        /// Another input's.
        other: usize,
    },
    /// A board size of 0.
    #[error("board size 0")]
    EmptyBoard,
    /// An input's spatial planes are not `spatial inputs × size²` values.
    #[error("input {index} has {found} spatial values where the network reads {expected}")]
    SpatialLength {
        /// The input's index in the batch.
        index: usize,
        /// What the network reads.
        expected: usize,
        /// What the input has.
        found: usize,
    },
    /// An input's plane 0 (on the board) is not all ones: it was made for a
    /// larger buffer than its board, which the network does not compute.
    #[error(
        "input {index} marks points off the board (plane 0 is not all ones): pass inputs of the board's exact size"
    )]
    OffBoardPoints {
        /// The input's index in the batch.
        index: usize,
    },
    /// An input's global values are not as many as the network reads.
    #[error("input {index} has {found} global values where the network reads {expected}")]
    GlobalLength {
        /// The input's index in the batch.
        index: usize,
        /// What the network reads.
        expected: usize,
        /// What the input has.
        found: usize,
    },
}

/// What the network outputs for one position, before any post-processing.
#[derive(Clone, Debug, PartialEq)]
pub struct RawOutput {
    /// Move logits, `size²` of them, row by row from the top left.
    pub policy: Vec<f32>,
    /// The pass logit.
    pub pass: f32,
    /// Win, loss and no-result logits, for the side to move.
    pub value: [f32; 3],
    /// The score outputs as they come: score mean, score stdev before
    /// softplus, lead, variance of the time left; from model version 9 also
    /// the short-term value and score errors.
    pub score: Vec<f32>,
    /// Ownership per point before tanh, for the side to move, row by row.
    pub ownership: Vec<f32>,
}

/// Merged batch normalisation and its activation: `act(x · scale + bias)`
/// per channel.
#[derive(Clone, Debug)]
struct Normalization {
    scale: Vec<f32>,
    bias: Vec<f32>,
    activation: Activation,
}

impl Normalization {
    fn new(norm: &model::BatchNorm, activation: Activation) -> Normalization {
        let (scale, bias) = norm.merged();
        Normalization {
            scale,
            bias,
            activation,
        }
    }

    fn apply(&self, arch: Arch, values: &mut [f32]) {
        kernels::normalize_activate(arch, values, &self.scale, &self.bias, self.activation);
    }

    fn apply_into(&self, arch: Arch, source: &[f32], target: &mut [f32]) {
        let (scale, bias) = (&self.scale, &self.bias);
        kernels::normalize_activate_into(arch, source, target, scale, bias, self.activation);
    }
}

/// A convolution with its weights prepared for its kernel size.
#[derive(Clone, Debug)]
enum Convolution {
    /// 1×1: a product of the rows with the weights.
    Pointwise(PackedMatrix),
    /// 3×3 and 5×5: Winograd F(4×4, 3×3) or F(2×2, 5×5), one matrix per
    /// element of the transformed tile.
    Winograd {
        kind: Winograd,
        weights: Vec<PackedMatrix>,
    },
    /// Any other odd size: a product of the patches with the weights.
    Patches {
        height: usize,
        width: usize,
        weights: PackedMatrix,
    },
}

/// Buffers of the convolutions.
#[derive(Debug, Default)]
struct ConvolutionScratch {
    transformed: Vec<f32>,
    products: Vec<f32>,
    patches: Vec<f32>,
}

impl Convolution {
    fn new(conv: &model::Conv) -> Convolution {
        let (inputs, outputs) = (conv.in_channels, conv.out_channels);
        let (height, width) = (conv.kernel_height, conv.kernel_width);
        if (height, width) == (1, 1) {
            Convolution::Pointwise(PackedMatrix::new(&conv.weights, inputs, outputs))
        } else if let Some(kind) = Winograd::for_kernel(height, width) {
            Convolution::Winograd {
                kind,
                weights: kernels::winograd_weights(kind, &conv.weights, inputs, outputs),
            }
        } else {
            Convolution::Patches {
                height,
                width,
                weights: PackedMatrix::new(&conv.weights, height * width * inputs, outputs),
            }
        }
    }

    /// Convolves `input` (`boards × size² × inputs`) into `output`
    /// (`boards × size² × outputs`), or adds the result to it.
    fn apply(
        &self,
        arch: Arch,
        input: &[f32],
        size: usize,
        output: &mut [f32],
        accumulate: bool,
        scratch: &mut ConvolutionScratch,
    ) {
        match self {
            Convolution::Pointwise(weights) => {
                kernels::matmul(arch, input, weights, output, accumulate);
            }
            Convolution::Winograd { kind, weights } => {
                let Some(first) = weights.first() else {
                    return;
                };
                let (inputs, outputs) = (first.depth(), first.columns());
                let area = size * size;
                let tiles_per_board = kind.tiles_per_side(size).pow(2);
                let boards =
                    board_chunk(kernels::TILE_ELEMENTS * tiles_per_board * inputs.max(outputs));
                for (input, output) in input
                    .chunks(boards * area * inputs)
                    .zip(output.chunks_mut(boards * area * outputs))
                {
                    let tiles = input.len() / (area * inputs) * tiles_per_board;
                    let transformed = sized(
                        &mut scratch.transformed,
                        kernels::TILE_ELEMENTS * tiles * inputs,
                    );
                    kernels::winograd_input(arch, *kind, input, size, inputs, transformed);
                    let products = sized(
                        &mut scratch.products,
                        kernels::TILE_ELEMENTS * tiles * outputs,
                    );
                    for ((weights, transformed), products) in weights
                        .iter()
                        .zip(transformed.chunks_exact(tiles * inputs))
                        .zip(products.chunks_exact_mut(tiles * outputs))
                    {
                        kernels::matmul(arch, transformed, weights, products, false);
                    }
                    kernels::winograd_output(
                        arch, *kind, products, size, outputs, output, accumulate,
                    );
                }
            }
            Convolution::Patches {
                height,
                width,
                weights,
            } => {
                let inputs = weights.depth() / (height * width);
                let area = size * size;
                let boards = board_chunk(area * weights.depth());
                for (input, output) in input
                    .chunks(boards * area * inputs)
                    .zip(output.chunks_mut(boards * area * weights.columns()))
                {
                    kernels::im2col(input, size, inputs, *height, *width, &mut scratch.patches);
                    kernels::matmul(arch, &scratch.patches, weights, output, accumulate);
                }
            }
        }
    }

    fn outputs(&self) -> usize {
        match self {
            Convolution::Pointwise(weights) | Convolution::Patches { weights, .. } => {
                weights.columns()
            }
            Convolution::Winograd { weights, .. } => {
                weights.first().map_or(0, PackedMatrix::columns)
            }
        }
    }
}

/// Boards convolved at once when a convolution's intermediate values (the
/// transformed tiles, the patches) take `values_per_board` floats per
/// board: as many as keep them within 512 KiB, a share of the L2 cache. On
/// 19×19 that is one board, and a batch of 8 convolved whole ran 15%
/// slower per board than one board at a time.
fn board_chunk(values_per_board: usize) -> usize {
    const BUDGET: usize = 128 * 1024;
    (BUDGET / values_per_board.max(1)).max(1)
}

/// A fully connected layer on per-board vectors, with an optional bias.
#[derive(Clone, Debug)]
struct Dense {
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    fn new(matmul: &model::MatMul, bias: Option<&model::MatBias>) -> Dense {
        Dense {
            outputs: matmul.out_channels,
            weights: matmul.weights.clone(),
            bias: bias.map_or_else(|| vec![0.0; matmul.out_channels], |b| b.weights.clone()),
        }
    }

    /// `input · weights + bias` for one board's vector.
    fn apply(&self, input: &[f32]) -> Vec<f32> {
        let mut output = self.bias.clone();
        for (&x, row) in input.iter().zip(self.weights.chunks_exact(self.outputs)) {
            for (o, &w) in output.iter_mut().zip(row) {
                *o += x * w;
            }
        }
        output
    }
}

#[derive(Clone, Debug)]
struct OrdinaryBlock {
    pre: Normalization,
    first_conv: Convolution,
    mid: Normalization,
    final_conv: Convolution,
}

#[derive(Clone, Debug)]
struct GlobalPoolingBlock {
    pre: Normalization,
    regular_conv: Convolution,
    gpool_conv: Convolution,
    gpool: Normalization,
    gpool_to_bias: Dense,
    mid: Normalization,
    final_conv: Convolution,
}

#[derive(Clone, Debug)]
enum ResidualBlock {
    Ordinary(OrdinaryBlock),
    GlobalPooling(GlobalPoolingBlock),
}

#[derive(Clone, Debug)]
struct PolicyHead {
    p1_conv: Convolution,
    g1_conv: Convolution,
    g1: Normalization,
    gpool_to_bias: Dense,
    p1: Normalization,
    p2_conv: Convolution,
    gpool_to_pass: Dense,
}

#[derive(Clone, Debug)]
struct ValueHead {
    v1_conv: Convolution,
    v1: Normalization,
    v2: Dense,
    v2_activation: Activation,
    v3: Dense,
    sv3: Dense,
    ownership_conv: Convolution,
}

/// A KataGo network ready to evaluate: immutable, shared by threads, each
/// with its own [`Scratch`].
#[derive(Clone, Debug)]
pub struct Network {
    /// The instruction set the kernels use, detected once.
    arch: Arch,
    name: String,
    version: u32,
    spatial_inputs: usize,
    global_inputs: usize,
    trunk_channels: usize,
    initial_conv: Convolution,
    initial_matmul: Dense,
    blocks: Vec<ResidualBlock>,
    tip: Normalization,
    policy: PolicyHead,
    value: ValueHead,
}

/// One thread's buffers for [`Network::forward`], kept between calls so
/// that evaluations allocate nothing once they have grown.
#[derive(Debug, Default)]
pub struct Scratch {
    input: Vec<f32>,
    trunk: Vec<f32>,
    activated: Vec<f32>,
    mid: Vec<f32>,
    pooled_channels: Vec<f32>,
    policy: Vec<f32>,
    value: Vec<f32>,
    single: Vec<f32>,
    convolution: ConvolutionScratch,
}

/// Resizes a buffer to `len` values (their contents are then overwritten).
fn sized(buffer: &mut Vec<f32>, len: usize) -> &mut [f32] {
    // Grown, never shrunk: layers of different widths take turns with a
    // buffer, and growing it again would clear the new part every time.
    if buffer.len() < len {
        buffer.resize(len, 0.0);
    }
    &mut buffer[..len]
}

impl Network {
    /// Prepares a model's weights for evaluation: batch normalisations
    /// merged, convolution kernels transformed and packed. The model's
    /// shapes are taken to be consistent, as [`Model::from_bytes`] checks
    /// them; a model built by hand with mismatched layers may panic here or
    /// in [`Network::forward`].
    pub fn new(model: &Model) -> Network {
        let trunk = &model.trunk;
        let blocks = trunk
            .blocks
            .iter()
            .map(|block| match block {
                Block::Ordinary(b) => ResidualBlock::Ordinary(OrdinaryBlock {
                    pre: Normalization::new(&b.pre_norm, b.pre_activation),
                    first_conv: Convolution::new(&b.first_conv),
                    mid: Normalization::new(&b.mid_norm, b.mid_activation),
                    final_conv: Convolution::new(&b.final_conv),
                }),
                Block::GlobalPooling(b) => ResidualBlock::GlobalPooling(GlobalPoolingBlock {
                    pre: Normalization::new(&b.pre_norm, b.pre_activation),
                    regular_conv: Convolution::new(&b.regular_conv),
                    gpool_conv: Convolution::new(&b.gpool_conv),
                    gpool: Normalization::new(&b.gpool_norm, b.gpool_activation),
                    gpool_to_bias: Dense::new(&b.gpool_to_bias, None),
                    mid: Normalization::new(&b.mid_norm, b.mid_activation),
                    final_conv: Convolution::new(&b.final_conv),
                }),
            })
            .collect();
        let p = &model.policy_head;
        let v = &model.value_head;
        Network {
            arch: Arch::new(),
            name: model.name.clone(),
            version: model.version,
            spatial_inputs: model.spatial_inputs,
            global_inputs: model.global_inputs,
            trunk_channels: trunk.channels,
            initial_conv: Convolution::new(&trunk.initial_conv),
            initial_matmul: Dense::new(&trunk.initial_matmul, None),
            blocks,
            tip: Normalization::new(&trunk.tip_norm, trunk.tip_activation),
            policy: PolicyHead {
                p1_conv: Convolution::new(&p.p1_conv),
                g1_conv: Convolution::new(&p.g1_conv),
                g1: Normalization::new(&p.g1_norm, p.g1_activation),
                gpool_to_bias: Dense::new(&p.gpool_to_bias, None),
                p1: Normalization::new(&p.p1_norm, p.p1_activation),
                p2_conv: Convolution::new(&p.p2_conv),
                gpool_to_pass: Dense::new(&p.gpool_to_pass, None),
            },
            value: ValueHead {
                v1_conv: Convolution::new(&v.v1_conv),
                v1: Normalization::new(&v.v1_norm, v.v1_activation),
                v2: Dense::new(&v.v2_mul, Some(&v.v2_bias)),
                v2_activation: v.v2_activation,
                v3: Dense::new(&v.v3_mul, Some(&v.v3_bias)),
                sv3: Dense::new(&v.sv3_mul, Some(&v.sv3_bias)),
                ownership_conv: Convolution::new(&v.ownership_conv),
            },
        }
    }

    /// The network's name, as its model file gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The model version.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Spatial input planes and global inputs the network reads.
    pub fn input_channels(&self) -> (usize, usize) {
        (self.spatial_inputs, self.global_inputs)
    }

    /// Evaluates a batch of positions of one board size; the outputs are in
    /// the batch's order. Every input must have the network's numbers of
    /// spatial and global inputs.
    pub fn forward(
        &self,
        batch: &[&Inputs],
        scratch: &mut Scratch,
    ) -> Result<Vec<RawOutput>, NetworkError> {
        let Some(first) = batch.first() else {
            return Ok(Vec::new());
        };
        let size = first.size;
        if size == 0 {
            return Err(NetworkError::EmptyBoard);
        }
        let area = size.saturating_mul(size);
        let spatial_len = area.saturating_mul(self.spatial_inputs);
        for (index, inputs) in batch.iter().enumerate() {
            if inputs.size != size {
                return Err(NetworkError::MixedSizes {
                    first: size,
                    other: inputs.size,
                });
            }
            if inputs.spatial.len() != spatial_len {
                return Err(NetworkError::SpatialLength {
                    index,
                    expected: spatial_len,
                    found: inputs.spatial.len(),
                });
            }
            if inputs.spatial[..area]
                .iter()
                .any(|&on_board| on_board != 1.0)
            {
                return Err(NetworkError::OffBoardPoints { index });
            }
            if inputs.global.len() != self.global_inputs {
                return Err(NetworkError::GlobalLength {
                    index,
                    expected: self.global_inputs,
                    found: inputs.global.len(),
                });
            }
        }
        self.trunk(batch, size, scratch);
        Ok(self.heads(batch.len(), size, scratch))
    }

    /// The trunk's output, normalised and activated, in `scratch.activated`
    /// (`boards × size² × trunk channels`).
    fn trunk(&self, batch: &[&Inputs], size: usize, scratch: &mut Scratch) {
        let area = size * size;
        let points = batch.len() * area;
        let channels = self.trunk_channels;
        // The input planes, transposed to rows of channels.
        let input = sized(&mut scratch.input, points * self.spatial_inputs);
        for (inputs, board) in batch
            .iter()
            .zip(input.chunks_exact_mut(area * self.spatial_inputs))
        {
            for (plane_index, plane) in inputs.spatial.chunks_exact(area).enumerate() {
                for (point, &value) in plane.iter().enumerate() {
                    board[point * self.spatial_inputs + plane_index] = value;
                }
            }
        }
        let trunk = sized(&mut scratch.trunk, points * channels);
        self.initial_conv.apply(
            self.arch,
            input,
            size,
            trunk,
            false,
            &mut scratch.convolution,
        );
        for (inputs, board) in batch.iter().zip(trunk.chunks_exact_mut(area * channels)) {
            kernels::add_rows(self.arch, board, &self.initial_matmul.apply(&inputs.global));
        }
        for block in &self.blocks {
            let activated = sized(&mut scratch.activated, points * channels);
            match block {
                ResidualBlock::Ordinary(b) => {
                    b.pre.apply_into(self.arch, trunk, activated);
                    let mid = sized(&mut scratch.mid, points * b.first_conv.outputs());
                    b.first_conv.apply(
                        self.arch,
                        activated,
                        size,
                        mid,
                        false,
                        &mut scratch.convolution,
                    );
                    b.mid.apply(self.arch, mid);
                    b.final_conv
                        .apply(self.arch, mid, size, trunk, true, &mut scratch.convolution);
                }
                ResidualBlock::GlobalPooling(b) => {
                    b.pre.apply_into(self.arch, trunk, activated);
                    let mid_channels = b.regular_conv.outputs();
                    let mid = sized(&mut scratch.mid, points * mid_channels);
                    b.regular_conv.apply(
                        self.arch,
                        activated,
                        size,
                        mid,
                        false,
                        &mut scratch.convolution,
                    );
                    let pooled = sized(
                        &mut scratch.pooled_channels,
                        points * b.gpool_conv.outputs(),
                    );
                    b.gpool_conv.apply(
                        self.arch,
                        activated,
                        size,
                        pooled,
                        false,
                        &mut scratch.convolution,
                    );
                    b.gpool.apply(self.arch, pooled);
                    let pooled_channels = b.gpool_conv.outputs();
                    for (pooled_board, mid_board) in pooled
                        .chunks_exact(area * pooled_channels)
                        .zip(mid.chunks_exact_mut(area * mid_channels))
                    {
                        let features = pool_mean_max(pooled_board, pooled_channels, size);
                        kernels::add_rows(self.arch, mid_board, &b.gpool_to_bias.apply(&features));
                    }
                    b.mid.apply(self.arch, mid);
                    b.final_conv
                        .apply(self.arch, mid, size, trunk, true, &mut scratch.convolution);
                }
            }
        }
        let activated = sized(&mut scratch.activated, points * channels);
        self.tip.apply_into(self.arch, trunk, activated);
    }

    /// The heads on the trunk's output in `scratch.activated`.
    fn heads(&self, boards: usize, size: usize, scratch: &mut Scratch) -> Vec<RawOutput> {
        let area = size * size;
        let points = boards * area;
        let trunk = &scratch.activated[..points * self.trunk_channels];
        let policy = &self.policy;
        let p1_channels = policy.p1_conv.outputs();
        let p1 = sized(&mut scratch.policy, points * p1_channels);
        policy
            .p1_conv
            .apply(self.arch, trunk, size, p1, false, &mut scratch.convolution);
        let g1_channels = policy.g1_conv.outputs();
        let g1 = sized(&mut scratch.pooled_channels, points * g1_channels);
        policy
            .g1_conv
            .apply(self.arch, trunk, size, g1, false, &mut scratch.convolution);
        policy.g1.apply(self.arch, g1);
        let mut passes = Vec::with_capacity(boards);
        for (g1_board, p1_board) in g1
            .chunks_exact(area * g1_channels)
            .zip(p1.chunks_exact_mut(area * p1_channels))
        {
            let features = pool_mean_max(g1_board, g1_channels, size);
            kernels::add_rows(self.arch, p1_board, &policy.gpool_to_bias.apply(&features));
            passes.push(policy.gpool_to_pass.apply(&features)[0]);
        }
        policy.p1.apply(self.arch, p1);
        let logits = sized(&mut scratch.single, points);
        policy
            .p2_conv
            .apply(self.arch, p1, size, logits, false, &mut scratch.convolution);
        let policies: Vec<Vec<f32>> = logits.chunks_exact(area).map(<[f32]>::to_vec).collect();

        let value = &self.value;
        let v1_channels = value.v1_conv.outputs();
        let v1 = sized(&mut scratch.value, points * v1_channels);
        value
            .v1_conv
            .apply(self.arch, trunk, size, v1, false, &mut scratch.convolution);
        value.v1.apply(self.arch, v1);
        let ownership = sized(&mut scratch.single, points);
        value.ownership_conv.apply(
            self.arch,
            v1,
            size,
            ownership,
            false,
            &mut scratch.convolution,
        );
        v1.chunks_exact(area * v1_channels)
            .zip(ownership.chunks_exact(area))
            .zip(policies)
            .zip(passes)
            .map(|(((v1_board, ownership), policy), pass)| {
                let features = pool_value(v1_board, v1_channels, size);
                let mut hidden = value.v2.apply(&features);
                kernels::activate(&mut hidden, value.v2_activation);
                let outcome = value.v3.apply(&hidden);
                RawOutput {
                    policy,
                    pass,
                    value: [outcome[0], outcome[1], outcome[2]],
                    score: value.sv3.apply(&hidden),
                    ownership: ownership.to_vec(),
                }
            })
            .collect()
    }
}

/// Per-channel sums and maxima of a board's rows of `channels`. The
/// maxima start at −1, as in every KataGo backend (below any value ReLU or
/// Mish produce, it keeps the padding out of the maximum there): a channel
/// whose values are all below −1, possible only with the identity
/// activation, pools to −1 as in KataGo.
fn sums_and_maxima(board: &[f32], channels: usize) -> (Vec<f32>, Vec<f32>) {
    let mut sums = vec![0.0; channels];
    let mut maxima = vec![-1.0f32; channels];
    for row in board.chunks_exact(channels) {
        for ((sum, max), &x) in sums.iter_mut().zip(maxima.iter_mut()).zip(row) {
            *sum += x;
            *max = max.max(x);
        }
    }
    (sums, maxima)
}

/// The global pooling of the trunk's blocks and the policy head: per
/// channel the mean, the mean scaled by the board's width
/// (`(√area − 14) / 10`), and the maximum.
fn pool_mean_max(board: &[f32], channels: usize, size: usize) -> Vec<f32> {
    let (sums, maxima) = sums_and_maxima(board, channels);
    let area = (size * size) as f32;
    let width_scale = (area.sqrt() - 14.0) * 0.1;
    let means: Vec<f32> = sums.iter().map(|s| s / area).collect();
    let scaled: Vec<f32> = means.iter().map(|m| m * width_scale).collect();
    [means, scaled, maxima].concat()
}

/// The global pooling of the value head: per channel the mean, the mean
/// scaled by `(√area − 14) / 10` and by `((√area − 14)² / 100 − 0.1)`.
fn pool_value(board: &[f32], channels: usize, size: usize) -> Vec<f32> {
    let (sums, _) = sums_and_maxima(board, channels);
    let area = (size * size) as f32;
    let width = area.sqrt() - 14.0;
    let means: Vec<f32> = sums.iter().map(|s| s / area).collect();
    let linear: Vec<f32> = means.iter().map(|m| m * width * 0.1).collect();
    let quadratic: Vec<f32> = means
        .iter()
        .map(|m| m * (width * width * 0.01 - 0.1))
        .collect();
    [means, linear, quadratic].concat()
}
