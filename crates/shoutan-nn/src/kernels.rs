//! The numeric kernels of the forward pass: a matrix product, the Winograd
//! F(4×4, 3×3) transforms, im2col, and the per-channel loops.
//!
//! Activations are kept row by row (one row per board point, its channels
//! contiguous: NHWC), so every kernel's inner loop runs over channels, which
//! vectorises without gathers. The matrix product and the transforms are
//! written with `pulp`'s SIMD types and run under `pulp::Arch::dispatch`,
//! which picks AVX-512, AVX2+FMA or plain code at run time: the binary is
//! built for any x86-64 and the compiler alone would only use SSE2.
//!
//! Measured on the target machine (19×19, b6c96): the product's own kernel
//! beats calling a general GEMM on these shapes (a few hundred rows, 32 to
//! 96 columns, 22 to 550 deep), whose per-call packing and dispatch weigh
//! on the 36 small products of each Winograd convolution.

use pulp::{Arch, Simd, WithSimd};

/// Columns of a panel of a packed right-hand matrix: two AVX-512 vectors,
/// four AVX2 vectors.
const PANEL_WIDTH: usize = 32;

/// A right-hand matrix (`depth × columns`, weights known in advance),
/// packed for [`matmul`]: columns in panels of [`PANEL_WIDTH`], each panel
/// row by row, the last panel padded with zeros.
#[derive(Clone, Debug)]
pub(crate) struct PackedMatrix {
    depth: usize,
    columns: usize,
    panels: Vec<f32>,
}

impl PackedMatrix {
    /// Packs a row-major `depth × columns` matrix.
    pub(crate) fn new(matrix: &[f32], depth: usize, columns: usize) -> PackedMatrix {
        debug_assert_eq!(matrix.len(), depth * columns);
        let panel_count = columns.div_ceil(PANEL_WIDTH);
        let mut panels = vec![0.0; panel_count * depth * PANEL_WIDTH];
        for (panel_index, panel) in panels.chunks_exact_mut(depth * PANEL_WIDTH).enumerate() {
            let first = panel_index * PANEL_WIDTH;
            let width = PANEL_WIDTH.min(columns - first);
            for (row, packed) in panel.chunks_exact_mut(PANEL_WIDTH).enumerate() {
                let start = row * columns + first;
                packed[..width].copy_from_slice(&matrix[start..start + width]);
            }
        }
        PackedMatrix {
            depth,
            columns,
            panels,
        }
    }

    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    pub(crate) fn columns(&self) -> usize {
        self.columns
    }
}

/// `out (rows × columns) = left (rows × depth) · right`, or `+=` when
/// `accumulate`; `left` and `out` row-major. `packing` is scratch space.
pub(crate) fn matmul(
    left: &[f32],
    right: &PackedMatrix,
    out: &mut [f32],
    accumulate: bool,
    packing: &mut Vec<f32>,
) {
    let depth = right.depth;
    let rows = left.len() / depth.max(1);
    debug_assert_eq!(left.len(), rows * depth);
    debug_assert_eq!(out.len(), rows * right.columns);
    Arch::new().dispatch(Product {
        left,
        right,
        out,
        accumulate,
        packing,
    });
}

struct Product<'a> {
    left: &'a [f32],
    right: &'a PackedMatrix,
    out: &'a mut [f32],
    accumulate: bool,
    packing: &'a mut Vec<f32>,
}

impl WithSimd for Product<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        // Register blocks of about a dozen accumulators: 6 rows × 2 vectors
        // of 16 with AVX-512, 3 rows × 4 vectors of 8 with AVX2.
        match S::F32_LANES {
            16 => product_blocks::<S, 10, 2>(simd, self),
            8 => product_blocks::<S, 3, 4>(simd, self),
            4 => product_blocks::<S, 2, 8>(simd, self),
            _ => product_blocks::<S, 1, 32>(simd, self),
        }
    }
}

/// Depth of the slices of the product: a panel's slice (`DEPTH_SLICE ×
/// PANEL_WIDTH` floats, 16 KiB) stays in the L1 cache while every block of
/// rows goes through it.
const DEPTH_SLICE: usize = 128;

/// Blocks of rows in a group: the group's slice of the left matrix
/// (`24 × ROWS × DEPTH_SLICE` floats, 120 KiB with AVX-512) stays in the L2
/// cache while every panel goes through it.
const BLOCKS_PER_GROUP: usize = 24;

/// The product in blocks of `ROWS` rows × one panel (`VECTORS` vectors),
/// slice of depth by slice of depth.
#[inline(always)]
fn product_blocks<S: Simd, const ROWS: usize, const VECTORS: usize>(simd: S, product: Product<'_>) {
    let Product {
        left,
        right,
        out,
        accumulate,
        packing,
    } = product;
    if S::F32_LANES * VECTORS != PANEL_WIDTH {
        return;
    }
    let depth = right.depth;
    let columns = right.columns;
    let rows = out.len() / columns.max(1);
    let full_rows = rows / ROWS * ROWS;
    // The last rows, if not a whole block, padded with zero rows.
    packing.clear();
    packing.extend_from_slice(&left[full_rows * depth..rows * depth]);
    packing.resize(ROWS * depth, 0.0);
    for group_start in (0..rows).step_by(ROWS * BLOCKS_PER_GROUP) {
        let group_end = rows.min(group_start + ROWS * BLOCKS_PER_GROUP);
        for slice_start in (0..depth).step_by(DEPTH_SLICE) {
            let slice_end = depth.min(slice_start + DEPTH_SLICE);
            let add = accumulate || slice_start > 0;
            for (panel_index, panel) in right.panels.chunks_exact(depth * PANEL_WIDTH).enumerate() {
                let panel = &panel[slice_start * PANEL_WIDTH..slice_end * PANEL_WIDTH];
                let first_column = panel_index * PANEL_WIDTH;
                let width = PANEL_WIDTH.min(columns - first_column);
                for first_row in (group_start..group_end).step_by(ROWS) {
                    let (block, block_start) = if first_row < full_rows {
                        (left, first_row)
                    } else {
                        (&packing[..], 0)
                    };
                    let lefts: [&[f32]; ROWS] = std::array::from_fn(|r| {
                        let start = (block_start + r) * depth;
                        &block[start + slice_start..start + slice_end]
                    });
                    let sums = block_product::<S, ROWS, VECTORS>(simd, lefts, panel);
                    for (r, sum_row) in sums.iter().enumerate().take(rows - first_row) {
                        let start = (first_row + r) * columns + first_column;
                        store_row::<S, VECTORS>(simd, sum_row, &mut out[start..start + width], add);
                    }
                }
            }
        }
    }
}

/// The sums of `ROWS` rows of the left matrix times a panel, over a slice
/// of depth: the register block of the product.
#[inline(always)]
fn block_product<S: Simd, const ROWS: usize, const VECTORS: usize>(
    simd: S,
    lefts: [&[f32]; ROWS],
    panel: &[f32],
) -> [[S::f32s; VECTORS]; ROWS] {
    let mut sums = [[simd.splat_f32s(0.0); VECTORS]; ROWS];
    let depth = panel.len() / PANEL_WIDTH;
    // Equal lengths, checked once, let the compiler drop the checks of the
    // loop.
    if lefts.iter().any(|l| l.len() != depth) {
        return sums;
    }
    for (d, rights) in panel.chunks_exact(PANEL_WIDTH).enumerate() {
        let Some(rights) = S::as_simd_f32s(rights).0.first_chunk::<VECTORS>() else {
            return sums;
        };
        for (sum_row, l) in sums.iter_mut().zip(&lefts) {
            let l = simd.splat_f32s(l[d]);
            for (sum, &r) in sum_row.iter_mut().zip(rights) {
                *sum = simd.mul_add_e_f32s(l, r, *sum);
            }
        }
    }
    sums
}

/// Writes (or adds) a row of sums to the first `target.len()` columns.
#[inline(always)]
fn store_row<S: Simd, const VECTORS: usize>(
    simd: S,
    sums: &[S::f32s; VECTORS],
    target: &mut [f32],
    accumulate: bool,
) {
    if target.len() == PANEL_WIDTH {
        let (vectors, _) = S::as_mut_simd_f32s(target);
        for (t, &s) in vectors.iter_mut().zip(sums) {
            *t = if accumulate { simd.add_f32s(*t, s) } else { s };
        }
    } else {
        let mut row = [0.0f32; PANEL_WIDTH];
        for (t, &s) in S::as_mut_simd_f32s(&mut row).0.iter_mut().zip(sums) {
            *t = s;
        }
        for (t, &s) in target.iter_mut().zip(&row) {
            *t = if accumulate { *t + s } else { s };
        }
    }
}

/// Points on a side of a Winograd output tile.
pub(crate) const TILE: usize = 4;
/// Points on a side of a Winograd input tile (`TILE + 3 - 1`).
pub(crate) const INPUT_TILE: usize = 6;
/// Elements of a transformed tile.
pub(crate) const TILE_ELEMENTS: usize = INPUT_TILE * INPUT_TILE;

/// The Winograd F(4×4, 3×3) kernel transform `G g Gᵀ` of a 3×3 convolution
/// (`weights` in the file's order: row, column, input, output), as 36
/// packed `inputs × outputs` matrices, one per element of the transformed
/// tile.
pub(crate) fn winograd_weights(
    weights: &[f32],
    inputs: usize,
    outputs: usize,
) -> Vec<PackedMatrix> {
    // G, from Lavin & Gray, "Fast Algorithms for Convolutional Neural
    // Networks" (2016), with the interpolation points 0, ±1, ±2, ∞.
    const G: [[f64; 3]; 6] = [
        [1.0 / 4.0, 0.0, 0.0],
        [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
        [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
        [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
        [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
        [0.0, 0.0, 1.0],
    ];
    let mut transformed = vec![vec![0.0f32; inputs * outputs]; TILE_ELEMENTS];
    for i in 0..inputs {
        for o in 0..outputs {
            let g: [[f64; 3]; 3] = std::array::from_fn(|y| {
                std::array::from_fn(|x| {
                    f64::from(weights[((y * 3 + x) * inputs + i) * outputs + o])
                })
            });
            // G g, then (G g) Gᵀ.
            let left: [[f64; 3]; INPUT_TILE] = G.map(|row| {
                std::array::from_fn(|x| row.iter().zip(&g).map(|(a, g_row)| a * g_row[x]).sum())
            });
            for (a, left_row) in left.iter().enumerate() {
                for (b, g_row) in G.iter().enumerate() {
                    let sum: f64 = left_row.iter().zip(g_row).map(|(l, r)| l * r).sum();
                    transformed[a * INPUT_TILE + b][i * outputs + o] = sum as f32;
                }
            }
        }
    }
    transformed
        .iter()
        .map(|matrix| PackedMatrix::new(matrix, inputs, outputs))
        .collect()
}

/// Tiles of `TILE × TILE` covering a board side.
pub(crate) fn tiles_per_side(size: usize) -> usize {
    size.div_ceil(TILE)
}

/// The Winograd input transform `Bᵀ d B` of every tile of every board:
/// `input` is `boards × size² × channels`; `transformed` becomes 36
/// matrices `tiles × channels` (element by element, tiles board by board
/// and row by row). Points off the board are zeros (the convolution's
/// padding).
pub(crate) fn winograd_input(
    input: &[f32],
    size: usize,
    channels: usize,
    transformed: &mut Vec<f32>,
) {
    let side = tiles_per_side(size);
    let boards = input.len() / (size * size * channels);
    let tiles = boards * side * side;
    // Every value is written: no need to clear what a previous call left.
    transformed.resize(TILE_ELEMENTS * tiles * channels, 0.0);
    Arch::new().dispatch(InputTransform {
        input,
        size,
        channels,
        transformed,
    });
}

struct InputTransform<'a> {
    input: &'a [f32],
    size: usize,
    channels: usize,
    transformed: &'a mut [f32],
}

impl WithSimd for InputTransform<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let InputTransform {
            input,
            size,
            channels,
            transformed,
        } = self;
        let side = tiles_per_side(size);
        let board_len = size * size * channels;
        let tiles = input.len() / board_len * side * side;
        let element_len = tiles * channels;
        let vectors = channels / S::F32_LANES;
        for (board_index, board) in input.chunks_exact(board_len).enumerate() {
            for tile_y in 0..side {
                for tile_x in 0..side {
                    let tile = (board_index * side + tile_y) * side + tile_x;
                    // The board points of the tile: offsets in `board`, or
                    // none off the board.
                    let mut points = [None; TILE_ELEMENTS];
                    for (i, point) in points.iter_mut().enumerate() {
                        let y = (tile_y * TILE + i / INPUT_TILE).checked_sub(1);
                        let x = (tile_x * TILE + i % INPUT_TILE).checked_sub(1);
                        if let (Some(y), Some(x)) = (y, x)
                            && y < size
                            && x < size
                        {
                            *point = Some((y * size + x) * channels);
                        }
                    }
                    let output_start = tile * channels;
                    for v in 0..vectors {
                        let c = v * S::F32_LANES;
                        let d = points.map(|p| match p {
                            Some(p) => load::<S>(&board[p + c..p + c + S::F32_LANES]),
                            None => simd.splat_f32s(0.0),
                        });
                        let t = input_tile(simd, d);
                        for (e, value) in t.iter().enumerate() {
                            let start = e * element_len + output_start + c;
                            store::<S>(&mut transformed[start..start + S::F32_LANES], *value);
                        }
                    }
                    let scalar = pulp::Scalar::new();
                    for c in vectors * S::F32_LANES..channels {
                        let d = points.map(|p| p.map_or(0.0, |p| board[p + c]));
                        let t = input_tile(scalar, d);
                        for (e, value) in t.iter().enumerate() {
                            transformed[e * element_len + output_start + c] = *value;
                        }
                    }
                }
            }
        }
    }
}

/// The vector at the start of `values` (which holds at least one).
#[inline(always)]
fn load<S: Simd>(values: &[f32]) -> S::f32s {
    S::as_simd_f32s(values).0[0]
}

/// Stores a vector at the start of `values` (which has room for one).
#[inline(always)]
fn store<S: Simd>(values: &mut [f32], vector: S::f32s) {
    S::as_mut_simd_f32s(values).0[0] = vector;
}

/// `Bᵀ d B` of one 6×6 tile (of vectors of channels).
#[inline(always)]
fn input_tile<S: Simd>(simd: S, d: [S::f32s; TILE_ELEMENTS]) -> [S::f32s; TILE_ELEMENTS] {
    let mut columns = d;
    for x in 0..INPUT_TILE {
        let t = input_1d(simd, std::array::from_fn(|y| d[y * INPUT_TILE + x]));
        for (y, value) in t.into_iter().enumerate() {
            columns[y * INPUT_TILE + x] = value;
        }
    }
    let mut out = columns;
    for y in 0..INPUT_TILE {
        let t = input_1d(simd, std::array::from_fn(|x| columns[y * INPUT_TILE + x]));
        out[y * INPUT_TILE..(y + 1) * INPUT_TILE].copy_from_slice(&t);
    }
    out
}

/// `Bᵀ d` of 6 values.
#[inline(always)]
fn input_1d<S: Simd>(simd: S, d: [S::f32s; INPUT_TILE]) -> [S::f32s; INPUT_TILE] {
    let [d0, d1, d2, d3, d4, d5] = d;
    let f = |x: f32| simd.splat_f32s(x);
    let mul_add = |a, b, c| simd.mul_add_e_f32s(a, b, c);
    // d4 - 4·d2 and d3 - 4·d1 are shared by the middle rows.
    let d4_m4d2 = mul_add(f(-4.0), d2, d4);
    let d3_m4d1 = mul_add(f(-4.0), d1, d3);
    let d4_md2 = simd.sub_f32s(d4, d2);
    let d3_md1 = simd.sub_f32s(d3, d1);
    [
        mul_add(f(4.0), d0, mul_add(f(-5.0), d2, d4)),
        simd.add_f32s(d4_m4d2, d3_m4d1),
        simd.sub_f32s(d4_m4d2, d3_m4d1),
        mul_add(f(2.0), d3_md1, d4_md2),
        mul_add(f(-2.0), d3_md1, d4_md2),
        mul_add(f(4.0), d1, mul_add(f(-5.0), d3, d5)),
    ]
}

/// The Winograd output transform `Aᵀ m A` of every tile: `transformed` is
/// 36 matrices `tiles × channels` (as [`winograd_input`] orders tiles);
/// the 4×4 outputs of each tile are written to (or, `accumulate`, added
/// to) `output`, `boards × size² × channels`, but for those off the board.
pub(crate) fn winograd_output(
    transformed: &[f32],
    size: usize,
    channels: usize,
    output: &mut [f32],
    accumulate: bool,
) {
    Arch::new().dispatch(OutputTransform {
        transformed,
        size,
        channels,
        output,
        accumulate,
    });
}

struct OutputTransform<'a> {
    transformed: &'a [f32],
    size: usize,
    channels: usize,
    output: &'a mut [f32],
    accumulate: bool,
}

impl WithSimd for OutputTransform<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        let OutputTransform {
            transformed,
            size,
            channels,
            output,
            accumulate,
        } = self;
        let side = tiles_per_side(size);
        let board_len = size * size * channels;
        let element_len = transformed.len() / TILE_ELEMENTS;
        let vectors = channels / S::F32_LANES;
        for (board_index, board) in output.chunks_exact_mut(board_len).enumerate() {
            for tile_y in 0..side {
                for tile_x in 0..side {
                    let tile = (board_index * side + tile_y) * side + tile_x;
                    let input_start = tile * channels;
                    let mut points = [None; TILE * TILE];
                    for (i, point) in points.iter_mut().enumerate() {
                        let y = tile_y * TILE + i / TILE;
                        let x = tile_x * TILE + i % TILE;
                        if y < size && x < size {
                            *point = Some((y * size + x) * channels);
                        }
                    }
                    for v in 0..vectors {
                        let c = v * S::F32_LANES;
                        let m: [S::f32s; TILE_ELEMENTS] = std::array::from_fn(|e| {
                            let start = e * element_len + input_start + c;
                            load::<S>(&transformed[start..start + S::F32_LANES])
                        });
                        let o = output_tile(simd, m);
                        for (point, value) in points.iter().zip(o) {
                            if let Some(p) = *point {
                                let target = &mut board[p + c..p + c + S::F32_LANES];
                                let value = if accumulate {
                                    simd.add_f32s(load::<S>(target), value)
                                } else {
                                    value
                                };
                                store::<S>(target, value);
                            }
                        }
                    }
                    let scalar = pulp::Scalar::new();
                    for c in vectors * S::F32_LANES..channels {
                        let m: [f32; TILE_ELEMENTS] =
                            std::array::from_fn(|e| transformed[e * element_len + input_start + c]);
                        let o = output_tile(scalar, m);
                        for (point, value) in points.iter().zip(o) {
                            if let Some(p) = *point {
                                let target = &mut board[p + c];
                                *target = if accumulate { *target + value } else { value };
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `Aᵀ m A` of one 6×6 transformed tile: the 4×4 outputs.
#[inline(always)]
fn output_tile<S: Simd>(simd: S, m: [S::f32s; TILE_ELEMENTS]) -> [S::f32s; TILE * TILE] {
    let zero = simd.splat_f32s(0.0);
    let mut columns = [zero; TILE * INPUT_TILE];
    for x in 0..INPUT_TILE {
        let t = output_1d(simd, std::array::from_fn(|y| m[y * INPUT_TILE + x]));
        for (y, value) in t.into_iter().enumerate() {
            columns[y * INPUT_TILE + x] = value;
        }
    }
    let mut out = [zero; TILE * TILE];
    for y in 0..TILE {
        let t = output_1d(simd, std::array::from_fn(|x| columns[y * INPUT_TILE + x]));
        out[y * TILE..(y + 1) * TILE].copy_from_slice(&t);
    }
    out
}

/// `Aᵀ m` of 6 values.
#[inline(always)]
fn output_1d<S: Simd>(simd: S, m: [S::f32s; INPUT_TILE]) -> [S::f32s; TILE] {
    let [m0, m1, m2, m3, m4, m5] = m;
    let f = |x: f32| simd.splat_f32s(x);
    let mul_add = |a, b, c| simd.mul_add_e_f32s(a, b, c);
    let sum12 = simd.add_f32s(m1, m2);
    let difference12 = simd.sub_f32s(m1, m2);
    let sum34 = simd.add_f32s(m3, m4);
    let difference34 = simd.sub_f32s(m3, m4);
    [
        simd.add_f32s(simd.add_f32s(m0, sum12), sum34),
        mul_add(f(2.0), difference34, difference12),
        mul_add(f(4.0), sum34, sum12),
        simd.add_f32s(mul_add(f(8.0), difference34, difference12), m5),
    ]
}

/// The patches of a `height × width` convolution (odd sizes, zero
/// padding) as rows: `input` is `boards × size² × channels`; `patches`
/// becomes `boards × size²` rows of `height × width × channels` (kernel
/// row, kernel column, channel), the order of the file's weights.
pub(crate) fn im2col(
    input: &[f32],
    size: usize,
    channels: usize,
    height: usize,
    width: usize,
    patches: &mut Vec<f32>,
) {
    let row_len = height * width * channels;
    let points = input.len() / channels;
    patches.clear();
    patches.resize(points * row_len, 0.0);
    let (half_height, half_width) = (height / 2, width / 2);
    for (point, row) in patches.chunks_exact_mut(row_len).enumerate() {
        let board_start = point / (size * size) * size * size;
        let (y, x) = (point % (size * size) / size, point % size);
        for ky in 0..height {
            let Some(source_y) = (y + ky).checked_sub(half_height).filter(|&sy| sy < size) else {
                continue;
            };
            for kx in 0..width {
                let Some(source_x) = (x + kx).checked_sub(half_width).filter(|&sx| sx < size)
                else {
                    continue;
                };
                let source = (board_start + source_y * size + source_x) * channels;
                let target = (ky * width + kx) * channels;
                row[target..target + channels].copy_from_slice(&input[source..source + channels]);
            }
        }
    }
}

/// `x · scale + bias` per channel, then the activation, in place on rows
/// of `scale.len()` channels.
pub(crate) fn normalize_activate(
    values: &mut [f32],
    scale: &[f32],
    bias: &[f32],
    activation: crate::model::Activation,
) {
    Arch::new().dispatch(|| {
        for row in values.chunks_exact_mut(scale.len()) {
            for ((x, &s), &b) in row.iter_mut().zip(scale).zip(bias) {
                *x = *x * s + b;
            }
        }
        activate(values, activation);
    });
}

/// Applies an activation in place.
#[inline(always)]
pub(crate) fn activate(values: &mut [f32], activation: crate::model::Activation) {
    use crate::model::Activation;
    match activation {
        Activation::Identity => {}
        Activation::Relu => values.iter_mut().for_each(|x| *x = x.max(0.0)),
        Activation::Mish => values.iter_mut().for_each(|x| {
            // softplus, without overflow past 20 where it equals x.
            let softplus = if *x > 20.0 { *x } else { x.exp().ln_1p() };
            *x *= softplus.tanh();
        }),
        Activation::Silu => values.iter_mut().for_each(|x| *x /= 1.0 + (-*x).exp()),
    }
}

/// Adds `bias` (one value per channel) to every row of `values`.
pub(crate) fn add_rows(values: &mut [f32], bias: &[f32]) {
    Arch::new().dispatch(|| {
        for row in values.chunks_exact_mut(bias.len()) {
            for (x, &b) in row.iter_mut().zip(bias) {
                *x += b;
            }
        }
    });
}
