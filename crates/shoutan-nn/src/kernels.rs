//! The numeric kernels of the forward pass: a matrix product, the Winograd
//! F(4×4, 3×3) and F(2×2, 5×5) transforms, im2col, and the per-channel
//! loops.
//!
//! Activations are kept row by row (one row per board point, its channels
//! contiguous: NHWC), so every kernel's inner loop runs over channels, which
//! vectorises without gathers. The matrix product and the transforms are
//! written with `pulp`'s SIMD types and run under `pulp::Arch::dispatch`,
//! which picks AVX-512, AVX2+FMA or plain code at run time: the binary is
//! built for any x86-64, where the compiler alone would only use SSE2.
//!
//! Chosen by measurement (2-core AVX-512 Xeon, g170 b6c96, 19×19, one
//! thread, evaluations per second at batch 1 / batch 8, one run of each
//! variant back to back; KataGo 1.17.2's Eigen AVX2 backend does 128
//! nnEvals/s in its `benchmark`, one thread):
//!
//! | matrix product                           | 3×3, 5×5 convolutions       | evals/s   |
//! |------------------------------------------|-----------------------------|-----------|
//! | this one (pulp, safe)                    | Winograd F(4×4), F(2×2)     | 356 / 318 |
//! | `gemm` 0.19, x86-v4, `Parallelism::None` | Winograd F(4×4), F(2×2)     | 334 / 329 |
//! | `matrixmultiply` 0.3 (AVX2+FMA)          | Winograd F(4×4), F(2×2)     | 258 / 259 |
//! | this one                                 | im2col                      | 183 / 145 |
//! | this one (an earlier version)            | Winograd F(2×2, 3×3), im2col | 295 / 218 |
//!
//! `gemm` and `matrixmultiply` are only callable through `unsafe` raw
//! pointer APIs, which the workspace forbids; this product is as fast at
//! batch 1 (the search's usual case) and within a few percent at batch 8.

pub(crate) use pulp::Arch;
use pulp::{Simd, WithSimd};

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
/// `accumulate`; `left` and `out` row-major.
pub(crate) fn matmul(
    arch: Arch,
    left: &[f32],
    right: &PackedMatrix,
    out: &mut [f32],
    accumulate: bool,
) {
    let depth = right.depth;
    let rows = left.len() / depth.max(1);
    debug_assert_eq!(left.len(), rows * depth);
    debug_assert_eq!(out.len(), rows * right.columns);
    arch.dispatch(Product {
        left,
        right,
        out,
        accumulate,
    });
}

struct Product<'a> {
    left: &'a [f32],
    right: &'a PackedMatrix,
    out: &'a mut [f32],
    accumulate: bool,
}

impl WithSimd for Product<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) {
        // Register blocks of 10 rows × 2 vectors of 16 with AVX-512 (20 of
        // its 32 registers accumulate), 6 rows × 2 vectors of 8 with AVX2
        // (12 of its 16: with 4 vectors the accumulators spill, and AVX2
        // ran slower than plain code).
        match S::F32_LANES {
            16 => product_blocks::<S, 10, 2>(simd, self),
            8 | 4 => product_blocks::<S, 6, 2>(simd, self),
            _ => product_blocks::<pulp::Scalar, 1, 32>(pulp::Scalar::new(), self),
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

/// The product in blocks of `ROWS` rows × `VECTORS` vectors of a panel,
/// slice of depth by slice of depth.
#[inline(always)]
fn product_blocks<S: Simd, const ROWS: usize, const VECTORS: usize>(simd: S, product: Product<'_>) {
    let Product {
        left,
        right,
        out,
        accumulate,
    } = product;
    debug_assert_eq!(PANEL_WIDTH % (S::F32_LANES * VECTORS), 0);
    let depth = right.depth;
    let columns = right.columns;
    let rows = out.len() / columns.max(1);
    for group_start in (0..rows).step_by(ROWS * BLOCKS_PER_GROUP) {
        let group_end = rows.min(group_start + ROWS * BLOCKS_PER_GROUP);
        for slice_start in (0..depth).step_by(DEPTH_SLICE) {
            let slice_end = depth.min(slice_start + DEPTH_SLICE);
            for (panel_index, panel) in right.panels.chunks_exact(depth * PANEL_WIDTH).enumerate() {
                let panel_slice = PanelSlice {
                    left,
                    depth,
                    slice: slice_start..slice_end,
                    panel: &panel[slice_start * PANEL_WIDTH..slice_end * PANEL_WIDTH],
                    columns,
                    first_column: panel_index * PANEL_WIDTH,
                    add: accumulate || slice_start > 0,
                };
                for first_row in (group_start..group_end).step_by(ROWS) {
                    let remaining = group_end - first_row;
                    if remaining >= ROWS {
                        panel_slice.compute::<S, ROWS, VECTORS>(simd, first_row, out);
                        continue;
                    }
                    // The last rows, fewer than a block (`ROWS` is at most
                    // 10), in a smaller block rather than padded: on 19×19 a
                    // Winograd product has 25 rows per board.
                    match remaining {
                        1 => panel_slice.compute::<S, 1, VECTORS>(simd, first_row, out),
                        2 => panel_slice.compute::<S, 2, VECTORS>(simd, first_row, out),
                        3 => panel_slice.compute::<S, 3, VECTORS>(simd, first_row, out),
                        4 => panel_slice.compute::<S, 4, VECTORS>(simd, first_row, out),
                        5 => panel_slice.compute::<S, 5, VECTORS>(simd, first_row, out),
                        6 => panel_slice.compute::<S, 6, VECTORS>(simd, first_row, out),
                        7 => panel_slice.compute::<S, 7, VECTORS>(simd, first_row, out),
                        8 => panel_slice.compute::<S, 8, VECTORS>(simd, first_row, out),
                        _ => panel_slice.compute::<S, 9, VECTORS>(simd, first_row, out),
                    }
                }
            }
        }
    }
}

/// A slice of depth of one panel, and what to do with its products.
struct PanelSlice<'a> {
    left: &'a [f32],
    depth: usize,
    slice: std::ops::Range<usize>,
    panel: &'a [f32],
    columns: usize,
    first_column: usize,
    add: bool,
}

impl PanelSlice<'_> {
    /// The products of `ROWS` rows from `first_row` with the panel's slice,
    /// written or added to `out`.
    #[inline(always)]
    fn compute<S: Simd, const ROWS: usize, const VECTORS: usize>(
        &self,
        simd: S,
        first_row: usize,
        out: &mut [f32],
    ) {
        let lefts: [&[f32]; ROWS] = std::array::from_fn(|r| {
            let start = (first_row + r) * self.depth;
            &self.left[start + self.slice.start..start + self.slice.end]
        });
        let block_width = VECTORS * S::F32_LANES;
        for first_vector in (0..PANEL_WIDTH / S::F32_LANES).step_by(VECTORS) {
            let first_column = self.first_column + first_vector * S::F32_LANES;
            if first_column >= self.columns {
                break;
            }
            let sums = block_product::<S, ROWS, VECTORS>(simd, lefts, self.panel, first_vector);
            let width = block_width.min(self.columns - first_column);
            for (r, sum_row) in sums.iter().enumerate() {
                let start = (first_row + r) * self.columns + first_column;
                store_row::<S, VECTORS>(simd, sum_row, &mut out[start..start + width], self.add);
            }
        }
    }
}

/// The sums of `ROWS` rows of the left matrix times `VECTORS` vectors of a
/// panel from `first_vector`, over a slice of depth: the register block of
/// the product.
#[inline(always)]
fn block_product<S: Simd, const ROWS: usize, const VECTORS: usize>(
    simd: S,
    lefts: [&[f32]; ROWS],
    panel: &[f32],
    first_vector: usize,
) -> [[S::f32s; VECTORS]; ROWS] {
    let mut sums = [[simd.splat_f32s(0.0); VECTORS]; ROWS];
    let depth = panel.len() / PANEL_WIDTH;
    // Equal lengths, checked once, let the compiler drop the checks of the
    // loop.
    if lefts.iter().any(|l| l.len() != depth) {
        return sums;
    }
    for (d, rights) in panel.chunks_exact(PANEL_WIDTH).enumerate() {
        let vectors = S::as_simd_f32s(rights).0;
        let Some(rights) = vectors
            .get(first_vector..)
            .and_then(<[_]>::first_chunk::<VECTORS>)
        else {
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
    if target.len() == VECTORS * S::F32_LANES {
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

/// A Winograd minimal filtering algorithm F(m×m, r×r): `m × m` outputs
/// from each `6 × 6` input tile (`m + r − 1 = 6`). Both use the
/// interpolation points 0, ±1, ±2 and ∞ (Lavin & Gray, "Fast Algorithms for
/// Convolutional Neural Networks", 2016), so they share the input
/// transform `Bᵀ d B` and differ in `G` and `Aᵀ`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Winograd {
    /// F(4×4, 3×3): 36 products for 16 outputs, against 144 directly.
    F4x4K3x3,
    /// F(2×2, 5×5): 36 products for 4 outputs, against 100 directly.
    F2x2K5x5,
}

impl Winograd {
    /// The algorithm for a square kernel of this size, if there is one.
    pub(crate) fn for_kernel(height: usize, width: usize) -> Option<Winograd> {
        match (height, width) {
            (3, 3) => Some(Winograd::F4x4K3x3),
            (5, 5) => Some(Winograd::F2x2K5x5),
            _ => None,
        }
    }

    /// Outputs on a side of a tile (m).
    fn tile(self) -> usize {
        match self {
            Winograd::F4x4K3x3 => 4,
            Winograd::F2x2K5x5 => 2,
        }
    }

    /// Kernel side (r).
    fn kernel(self) -> usize {
        INPUT_TILE + 1 - self.tile()
    }

    /// Tiles covering a board side.
    pub(crate) fn tiles_per_side(self, size: usize) -> usize {
        size.div_ceil(self.tile())
    }
}

/// Points on a side of a Winograd input tile.
const INPUT_TILE: usize = 6;
/// Elements of a transformed tile.
pub(crate) const TILE_ELEMENTS: usize = INPUT_TILE * INPUT_TILE;
/// Outputs of a tile, at most (F(4×4, 3×3)).
const MAX_TILE_OUTPUTS: usize = 16;

/// Row `point` of `G` for a kernel of `kernel` taps: the powers of the
/// point divided by the product of its differences to the other finite
/// points, or `(0, …, 0, 1)` for the point at infinity.
fn g_row(point: usize, kernel: usize) -> Vec<f64> {
    const POINTS: [f64; 5] = [0.0, 1.0, -1.0, 2.0, -2.0];
    match POINTS.get(point) {
        Some(&p) => {
            let scale: f64 = POINTS.iter().filter(|&&q| q != p).map(|q| p - q).product();
            (0..kernel).map(|k| p.powi(k as i32) / scale).collect()
        }
        None => (0..kernel)
            .map(|k| if k + 1 == kernel { 1.0 } else { 0.0 })
            .collect(),
    }
}

/// The Winograd kernel transform `G g Gᵀ` of a convolution (`weights` in
/// the file's order: row, column, input, output), as 36 packed `inputs ×
/// outputs` matrices, one per element of the transformed tile.
pub(crate) fn winograd_weights(
    kind: Winograd,
    weights: &[f32],
    inputs: usize,
    outputs: usize,
) -> Vec<PackedMatrix> {
    let r = kind.kernel();
    let g_matrix: Vec<Vec<f64>> = (0..INPUT_TILE).map(|point| g_row(point, r)).collect();
    let mut transformed = vec![vec![0.0f32; inputs * outputs]; TILE_ELEMENTS];
    let mut kernel = vec![0.0f64; r * r];
    for i in 0..inputs {
        for o in 0..outputs {
            for (k, value) in kernel.iter_mut().enumerate() {
                *value = f64::from(weights[(k * inputs + i) * outputs + o]);
            }
            // G g, then (G g) Gᵀ.
            let left: Vec<Vec<f64>> = g_matrix
                .iter()
                .map(|g_row| {
                    (0..r)
                        .map(|x| {
                            g_row
                                .iter()
                                .enumerate()
                                .map(|(y, a)| a * kernel[y * r + x])
                                .sum()
                        })
                        .collect()
                })
                .collect();
            for (a, left_row) in left.iter().enumerate() {
                for (b, g_row) in g_matrix.iter().enumerate() {
                    let sum: f64 = left_row.iter().zip(g_row).map(|(l, g)| l * g).sum();
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

/// The Winograd input transform `Bᵀ d B` of every tile of every board:
/// `input` is `boards × size² × channels`; `transformed` (36 × tiles ×
/// channels values, every one written) becomes 36 matrices `tiles ×
/// channels` (element by element, tiles board by board and row by row).
/// Points off the board are zeros (the convolution's padding).
pub(crate) fn winograd_input(
    arch: Arch,
    kind: Winograd,
    input: &[f32],
    size: usize,
    channels: usize,
    transformed: &mut [f32],
) {
    debug_assert_eq!(
        transformed.len(),
        TILE_ELEMENTS * input.len() / (size * size) * kind.tiles_per_side(size).pow(2)
    );
    arch.dispatch(InputTransform {
        kind,
        input,
        size,
        channels,
        transformed,
    });
}

struct InputTransform<'a> {
    kind: Winograd,
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
            kind,
            input,
            size,
            channels,
            transformed,
        } = self;
        let side = kind.tiles_per_side(size);
        let (tile_side, padding) = (kind.tile(), kind.kernel() / 2);
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
                        let y = (tile_y * tile_side + i / INPUT_TILE).checked_sub(padding);
                        let x = (tile_x * tile_side + i % INPUT_TILE).checked_sub(padding);
                        if let (Some(y), Some(x)) = (y, x)
                            && y < size
                            && x < size
                        {
                            *point = Some((y * size + x) * channels);
                        }
                    }
                    let output_start = tile * channels;
                    // One tile array, transformed in place: passing 36
                    // vectors by value costs copies.
                    let mut d = [simd.splat_f32s(0.0); TILE_ELEMENTS];
                    for v in 0..vectors {
                        let c = v * S::F32_LANES;
                        for (value, point) in d.iter_mut().zip(&points) {
                            *value = match *point {
                                Some(p) => load::<S>(&board[p + c..p + c + S::F32_LANES]),
                                None => simd.splat_f32s(0.0),
                            };
                        }
                        input_tile(simd, &mut d);
                        for (e, value) in d.iter().enumerate() {
                            let start = e * element_len + output_start + c;
                            store::<S>(&mut transformed[start..start + S::F32_LANES], *value);
                        }
                    }
                    let scalar = pulp::Scalar::new();
                    for c in vectors * S::F32_LANES..channels {
                        let mut d = points.map(|p| p.map_or(0.0, |p| board[p + c]));
                        input_tile(scalar, &mut d);
                        for (e, value) in d.iter().enumerate() {
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

/// `Bᵀ d B` of one 6×6 tile (of vectors of channels), in place.
#[inline(always)]
fn input_tile<S: Simd>(simd: S, d: &mut [S::f32s; TILE_ELEMENTS]) {
    for x in 0..INPUT_TILE {
        let column = input_1d(simd, std::array::from_fn(|y| d[y * INPUT_TILE + x]));
        for (y, value) in column.into_iter().enumerate() {
            d[y * INPUT_TILE + x] = value;
        }
    }
    for row in d.chunks_exact_mut(INPUT_TILE) {
        let transformed = input_1d(simd, std::array::from_fn(|x| row[x]));
        row.copy_from_slice(&transformed);
    }
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
    arch: Arch,
    kind: Winograd,
    transformed: &[f32],
    size: usize,
    channels: usize,
    output: &mut [f32],
    accumulate: bool,
) {
    arch.dispatch(OutputTransform {
        kind,
        transformed,
        size,
        channels,
        output,
        accumulate,
    });
}

struct OutputTransform<'a> {
    kind: Winograd,
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
        match self.kind {
            Winograd::F4x4K3x3 => output_tiles::<S, 4>(simd, self),
            Winograd::F2x2K5x5 => output_tiles::<S, 2>(simd, self),
        }
    }
}

/// The output transform of tiles of `M × M` outputs.
#[inline(always)]
fn output_tiles<S: Simd, const M: usize>(simd: S, transform: OutputTransform<'_>) {
    let OutputTransform {
        kind,
        transformed,
        size,
        channels,
        output,
        accumulate,
    } = transform;
    let side = kind.tiles_per_side(size);
    let board_len = size * size * channels;
    let element_len = transformed.len() / TILE_ELEMENTS;
    let vectors = channels / S::F32_LANES;
    for (board_index, board) in output.chunks_exact_mut(board_len).enumerate() {
        for tile_y in 0..side {
            for tile_x in 0..side {
                let tile = (board_index * side + tile_y) * side + tile_x;
                let input_start = tile * channels;
                let mut points = [None; MAX_TILE_OUTPUTS];
                for (i, point) in points.iter_mut().enumerate().take(M * M) {
                    let y = tile_y * M + i / M;
                    let x = tile_x * M + i % M;
                    if y < size && x < size {
                        *point = Some((y * size + x) * channels);
                    }
                }
                let mut m = [simd.splat_f32s(0.0); TILE_ELEMENTS];
                for v in 0..vectors {
                    let c = v * S::F32_LANES;
                    for (e, value) in m.iter_mut().enumerate() {
                        let start = e * element_len + input_start + c;
                        *value = load::<S>(&transformed[start..start + S::F32_LANES]);
                    }
                    output_tile::<S, M>(simd, &mut m);
                    for (i, point) in points.iter().enumerate().take(M * M) {
                        if let Some(p) = *point {
                            let value = m[i / M * INPUT_TILE + i % M];
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
                    let mut m: [f32; TILE_ELEMENTS] =
                        std::array::from_fn(|e| transformed[e * element_len + input_start + c]);
                    output_tile::<pulp::Scalar, M>(scalar, &mut m);
                    for (i, point) in points.iter().enumerate().take(M * M) {
                        if let Some(p) = *point {
                            let value = m[i / M * INPUT_TILE + i % M];
                            let target = &mut board[p + c];
                            *target = if accumulate { *target + value } else { value };
                        }
                    }
                }
            }
        }
    }
}

/// `Aᵀ m A` of one 6×6 transformed tile, in place: its `M × M` outputs
/// end in the tile's first `M` rows and columns (output `(y, x)` at
/// `y × 6 + x`).
#[inline(always)]
fn output_tile<S: Simd, const M: usize>(simd: S, m: &mut [S::f32s; TILE_ELEMENTS]) {
    for x in 0..INPUT_TILE {
        let column = output_1d::<S, M>(simd, std::array::from_fn(|y| m[y * INPUT_TILE + x]));
        for (y, value) in column.into_iter().enumerate().take(M) {
            m[y * INPUT_TILE + x] = value;
        }
    }
    for row in m.chunks_exact_mut(INPUT_TILE).take(M) {
        let transformed = output_1d::<S, M>(simd, std::array::from_fn(|x| row[x]));
        row[..M].copy_from_slice(&transformed[..M]);
    }
}

/// `Aᵀ m` of 6 values: `M` outputs (the rest zeros).
#[inline(always)]
fn output_1d<S: Simd, const M: usize>(simd: S, m: [S::f32s; INPUT_TILE]) -> [S::f32s; 4] {
    let [m0, m1, m2, m3, m4, m5] = m;
    let f = |x: f32| simd.splat_f32s(x);
    let mul_add = |a, b, c| simd.mul_add_e_f32s(a, b, c);
    let sum12 = simd.add_f32s(m1, m2);
    let difference12 = simd.sub_f32s(m1, m2);
    let sum34 = simd.add_f32s(m3, m4);
    let difference34 = simd.sub_f32s(m3, m4);
    let first = simd.add_f32s(simd.add_f32s(m0, sum12), sum34);
    let last = simd.add_f32s(mul_add(f(2.0), difference34, difference12), m5);
    if M == 2 {
        [first, last, f(0.0), f(0.0)]
    } else {
        [
            first,
            mul_add(f(2.0), difference34, difference12),
            mul_add(f(4.0), sum34, sum12),
            simd.add_f32s(mul_add(f(8.0), difference34, difference12), m5),
        ]
    }
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
    arch: Arch,
    values: &mut [f32],
    scale: &[f32],
    bias: &[f32],
    activation: crate::model::Activation,
) {
    arch.dispatch(|| {
        for row in values.chunks_exact_mut(scale.len()) {
            for ((x, &s), &b) in row.iter_mut().zip(scale).zip(bias) {
                *x = *x * s + b;
            }
        }
        activate(values, activation);
    });
}

/// [`normalize_activate`] of `source` into `target` (of the same length),
/// which spares a copy when the source must be kept (the trunk).
pub(crate) fn normalize_activate_into(
    arch: Arch,
    source: &[f32],
    target: &mut [f32],
    scale: &[f32],
    bias: &[f32],
    activation: crate::model::Activation,
) {
    arch.dispatch(|| {
        for (source_row, row) in source
            .chunks_exact(scale.len())
            .zip(target.chunks_exact_mut(scale.len()))
        {
            for (((x, &y), &s), &b) in row.iter_mut().zip(source_row).zip(scale).zip(bias) {
                *x = y * s + b;
            }
        }
        activate(target, activation);
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
pub(crate) fn add_rows(arch: Arch, values: &mut [f32], bias: &[f32]) {
    arch.dispatch(|| {
        for row in values.chunks_exact_mut(bias.len()) {
            for (x, &b) in row.iter_mut().zip(bias) {
                *x += b;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Activation;

    /// Every instruction set this machine runs: each kernel is checked on
    /// each, not only the one `Arch::new` picks.
    fn instruction_sets() -> Vec<Arch> {
        let mut sets = vec![Arch::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(v3) = pulp::x86::V3::try_new() {
                sets.push(Arch::V3(v3));
            }
            if let Some(v4) = pulp::x86::V4::try_new() {
                sets.push(Arch::V4(v4));
            }
        }
        sets
    }

    /// Values in [-1, 1) from a seed, deterministic.
    fn values(len: usize, seed: u64) -> Vec<f32> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
            })
            .collect()
    }

    fn assert_close(actual: &[f32], expected: &[f64], tolerance: f64, what: &str) {
        assert_eq!(actual.len(), expected.len(), "{what}");
        for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
            assert!(
                (f64::from(a) - e).abs() <= tolerance * (1.0 + e.abs()),
                "{what}: value {i} is {a}, expected {e}"
            );
        }
    }

    #[test]
    fn the_product_equals_the_naive_product_on_every_instruction_set() {
        for arch in instruction_sets() {
            for (rows, depth, columns) in [
                (1, 1, 1),
                (25, 96, 96),
                (23, 7, 33),
                (11, 300, 32),
                (9, 129, 65),
                (361, 550, 96),
                (4, 19, 3),
            ] {
                let left = values(rows * depth, 1);
                let right = values(depth * columns, 2);
                let initial = values(rows * columns, 3);
                let packed = PackedMatrix::new(&right, depth, columns);
                let expected: Vec<f64> = (0..rows * columns)
                    .map(|i| {
                        let (r, c) = (i / columns, i % columns);
                        (0..depth)
                            .map(|d| {
                                f64::from(left[r * depth + d]) * f64::from(right[d * columns + c])
                            })
                            .sum()
                    })
                    .collect();
                let what = format!("{arch:?} {rows}×{depth}×{columns}");
                let mut out = vec![f32::NAN; rows * columns];
                matmul(arch, &left, &packed, &mut out, false);
                assert_close(&out, &expected, 1e-5, &what);
                let mut out = initial.clone();
                matmul(arch, &left, &packed, &mut out, true);
                let accumulated: Vec<f64> = expected
                    .iter()
                    .zip(&initial)
                    .map(|(e, &i)| e + f64::from(i))
                    .collect();
                assert_close(&out, &accumulated, 1e-5, &format!("{what} accumulated"));
            }
        }
    }

    /// A direct convolution with zero padding, in f64: `boards × size² ×
    /// inputs` to `boards × size² × outputs`, weights in the file's order.
    fn direct_convolution(
        input: &[f32],
        weights: &[f32],
        size: usize,
        kernel: usize,
        inputs: usize,
        outputs: usize,
    ) -> Vec<f64> {
        let area = size * size;
        let boards = input.len() / (area * inputs);
        let half = (kernel / 2) as isize;
        let mut out = vec![0.0; boards * area * outputs];
        for b in 0..boards {
            for y in 0..size as isize {
                for x in 0..size as isize {
                    for o in 0..outputs {
                        let mut sum = 0.0;
                        for ky in 0..kernel as isize {
                            for kx in 0..kernel as isize {
                                let (sy, sx) = (y + ky - half, x + kx - half);
                                if sy < 0 || sx < 0 || sy >= size as isize || sx >= size as isize {
                                    continue;
                                }
                                let point = b * area + (sy as usize) * size + sx as usize;
                                for i in 0..inputs {
                                    let w = weights[(((ky as usize) * kernel + kx as usize)
                                        * inputs
                                        + i)
                                        * outputs
                                        + o];
                                    sum += f64::from(w) * f64::from(input[point * inputs + i]);
                                }
                            }
                        }
                        out[(b * area + (y as usize) * size + x as usize) * outputs + o] = sum;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn winograd_equals_a_direct_convolution_on_every_instruction_set() {
        for arch in instruction_sets() {
            for kind in [Winograd::F4x4K3x3, Winograd::F2x2K5x5] {
                for (size, boards, inputs, outputs) in [
                    (1, 1, 3, 2),
                    (2, 2, 17, 5),
                    (4, 1, 16, 16),
                    (5, 3, 33, 18),
                    (7, 1, 8, 40),
                    (9, 2, 32, 32),
                    (19, 1, 22, 7),
                ] {
                    let kernel = kind.kernel();
                    let input = values(boards * size * size * inputs, 4);
                    let weights = values(kernel * kernel * inputs * outputs, 5);
                    let expected =
                        direct_convolution(&input, &weights, size, kernel, inputs, outputs);
                    let transformed_weights = winograd_weights(kind, &weights, inputs, outputs);
                    let tiles = boards * kind.tiles_per_side(size).pow(2);
                    let mut transformed = vec![f32::NAN; TILE_ELEMENTS * tiles * inputs];
                    winograd_input(arch, kind, &input, size, inputs, &mut transformed);
                    let mut products = vec![0.0; TILE_ELEMENTS * tiles * outputs];
                    for ((w, t), p) in transformed_weights
                        .iter()
                        .zip(transformed.chunks_exact(tiles * inputs))
                        .zip(products.chunks_exact_mut(tiles * outputs))
                    {
                        matmul(arch, t, w, p, false);
                    }
                    let what = format!("{arch:?} {kind:?} size {size}, {inputs} → {outputs}");
                    let mut out = vec![f32::NAN; boards * size * size * outputs];
                    winograd_output(arch, kind, &products, size, outputs, &mut out, false);
                    assert_close(&out, &expected, 1e-4, &what);
                    let mut accumulated = vec![1.0; out.len()];
                    winograd_output(arch, kind, &products, size, outputs, &mut accumulated, true);
                    let plus_one: Vec<f64> = expected.iter().map(|e| e + 1.0).collect();
                    assert_close(
                        &accumulated,
                        &plus_one,
                        1e-4,
                        &format!("{what} accumulated"),
                    );
                }
            }
        }
    }

    #[test]
    fn patches_times_weights_equal_a_direct_convolution() {
        for (size, kernel, inputs, outputs) in
            [(1, 5, 3, 4), (3, 5, 2, 3), (7, 5, 22, 9), (4, 3, 5, 5)]
        {
            let input = values(2 * size * size * inputs, 6);
            let weights = values(kernel * kernel * inputs * outputs, 7);
            let expected = direct_convolution(&input, &weights, size, kernel, inputs, outputs);
            let mut patches = Vec::new();
            im2col(&input, size, inputs, kernel, kernel, &mut patches);
            let packed = PackedMatrix::new(&weights, kernel * kernel * inputs, outputs);
            let mut out = vec![f32::NAN; expected.len()];
            matmul(Arch::new(), &patches, &packed, &mut out, false);
            assert_close(
                &out,
                &expected,
                1e-5,
                &format!("size {size}, kernel {kernel}"),
            );
        }
    }

    #[test]
    fn normalisation_and_activations_follow_their_formulas() {
        let activations = [
            (Activation::Identity, (|x| x) as fn(f64) -> f64),
            (Activation::Relu, |x: f64| x.max(0.0)),
            (Activation::Mish, |x: f64| x * x.exp().ln_1p().tanh()),
            (Activation::Silu, |x: f64| x / (1.0 + (-x).exp())),
        ];
        for arch in instruction_sets() {
            for (activation, formula) in activations {
                let channels = 19;
                let mut x: Vec<f32> = values(5 * channels, 8).iter().map(|v| v * 30.0).collect();
                let scale = values(channels, 9);
                let bias = values(channels, 10);
                let expected: Vec<f64> = x
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        let c = i % channels;
                        formula(f64::from(v) * f64::from(scale[c]) + f64::from(bias[c]))
                    })
                    .collect();
                let mut target = vec![f32::NAN; x.len()];
                normalize_activate_into(arch, &x, &mut target, &scale, &bias, activation);
                assert_close(
                    &target,
                    &expected,
                    1e-5,
                    &format!("{arch:?} {activation:?} into"),
                );
                normalize_activate(arch, &mut x, &scale, &bias, activation);
                assert_close(&x, &expected, 1e-5, &format!("{arch:?} {activation:?}"));
            }
        }
    }
}
