//! KataGo's neural networks, evaluated in Rust.
//!
//! - [`model`]: KataGo's model file (`.bin.gz`, and the `.txt.gz` it was
//!   written from), read into a description of the network's layers.
//! - [`Network`]: the forward pass (convolutions, normalisation, global
//!   pooling, the policy, value, score and ownership heads) on a batch of
//!   positions of one board size; [`Network::evaluate`] adds the input
//!   features, the board's [`Symmetry`] and KataGo's post-processing into
//!   an [`Evaluation`].
//! - [`Position`] and [`Inputs`]: a position as the network sees it (the
//!   board, the last moves, the rules as KataGo encodes them, komi) and its
//!   input features.
//! - [`oracle`]: agreement with KataGo's own answers.
//!
//! KataGo (lightvector/KataGo, MIT) is the reference for every fact here:
//! the format, the features and the post-processing; its outputs for a set
//! of positions are kept in `tests/data` and the tests compare against them.

mod area;
mod board;
mod builtin;
mod evaluation;
mod features;
mod history;
mod kernels;
mod ladder;
pub mod model;
mod network;
pub mod oracle;
mod position;
mod rules;
mod symmetry;

pub use builtin::BUILTIN_MODEL;
pub use evaluation::{Evaluation, RawNnAnswer, RawNnError};
pub use network::{Network, NetworkError, RawOutput, Scratch};
pub use position::{Position, PositionError};
pub use rules::{KoRule, NnRules, ScoringRule, TaxRule, WhiteHandicapBonus};
pub use symmetry::{Symmetry, SymmetryError};

/// Spatial input planes of input version 7 (model versions 8 to 17).
pub const SPATIAL_FEATURES: usize = 22;
/// Global inputs of input version 7.
pub const GLOBAL_FEATURES: usize = 19;

/// A position's input features, as the network reads them.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Board width and height (the board is square: both the size).
    pub size: usize,
    /// [`SPATIAL_FEATURES`] planes of `size × size`, plane by plane, each
    /// row by row from the top left (KataGo's NCHW order, `y` rows).
    pub spatial: Vec<f32>,
    /// [`GLOBAL_FEATURES`] values.
    pub global: Vec<f32>,
}
