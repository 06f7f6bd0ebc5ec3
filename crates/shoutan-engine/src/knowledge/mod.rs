//! Move knowledge learned from strong players' games: a Bradley–Terry
//! strength (a "gamma") for every feature of a move — 3×3 and larger
//! shapes, captures, escapes, self-ataris, ataris and ladders, the line,
//! the distance to the last two moves — fitted by minorization–
//! maximization as in Coulom's "Computing Elo Ratings of Move Patterns in
//! the Game of Go" (2007). A move's strength is the product of its
//! features' gammas, and the probability that a strong player chooses it
//! is its share of the strengths of all the moves of the position.
//!
//! The tree uses these probabilities as priors; the playouts use the 3×3
//! shapes' gammas near the last move. The tables ship inside the binary
//! (`data/knowledge.bin`), made by `shoutan train` (see the README).

mod features;
mod shape;
mod train;

use std::collections::HashMap;
use std::sync::OnceLock;

use shoutan_rules::PointIndex;

pub use features::Situation;
use features::{DIAMOND, SHAPE3, SMALL_GROUP_SIZES};
pub(crate) use features::{Features, GROUPS, Raw, Reader};
pub use train::{Fit, FitOptions, fit, positions};

use features::LAST;
pub(crate) use shape::shape3;
use shape::{SHAPE3_CODES, canonical3};

/// The tables made by `shoutan train` and shipped in the binary.
static SHIPPED: &[u8] = include_bytes!("../../data/knowledge.bin");

/// The start of a knowledge file.
const MAGIC: &[u8; 8] = b"SHTKNW01";

/// Why bytes are not a knowledge file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnowledgeError {
    /// Not a knowledge file, or a version this build does not read.
    #[error("not a Shoutan knowledge file (version {MAGIC:?})")]
    Magic,
    /// The file ends too early.
    #[error("the knowledge file is truncated")]
    Truncated,
    /// The counts do not add up.
    #[error("the knowledge file is inconsistent: {0}")]
    Inconsistent(&'static str),
}

/// Learned move knowledge: the shapes it knows and every feature's gamma.
pub struct Knowledge {
    /// Canonical 3×3 codes, in the order of their feature values (from 1).
    shape3_keys: Vec<u32>,
    /// Diamond hashes, in the order of their feature values (from 1).
    diamond_keys: Vec<u64>,
    shape3: HashMap<u32, u32>,
    diamond: HashMap<u64, u32>,
    /// Every feature's gamma, group after group.
    gammas: Vec<f32>,
    /// Where each group starts in `gammas`.
    offsets: [usize; GROUPS + 1],
    /// The 3×3 gamma of every raw code, for the playouts.
    playout_shape3: OnceLock<Vec<f32>>,
}

impl std::fmt::Debug for Knowledge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Knowledge")
            .field("shapes3", &self.shape3_keys.len())
            .field("diamonds", &self.diamond_keys.len())
            .field("features", &self.gammas.len())
            .finish()
    }
}

impl Knowledge {
    /// The knowledge shipped in the binary.
    ///
    /// # Panics
    /// If the shipped file is damaged, which the tests rule out.
    #[must_use]
    pub fn shipped() -> &'static Knowledge {
        static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
        KNOWLEDGE.get_or_init(|| {
            #[allow(clippy::expect_used)]
            Knowledge::from_bytes(SHIPPED).expect("the shipped knowledge file reads")
        })
    }

    /// Knowledge with these dictionaries and gammas (all 1 if `None`).
    fn new(shape3_keys: Vec<u32>, diamond_keys: Vec<u64>, gammas: Option<Vec<f32>>) -> Knowledge {
        let mut sizes = SMALL_GROUP_SIZES;
        sizes[SHAPE3] = shape3_keys.len() + 1;
        sizes[DIAMOND] = diamond_keys.len() + 1;
        let mut offsets = [0; GROUPS + 1];
        for g in 0..GROUPS {
            offsets[g + 1] = offsets[g] + sizes[g];
        }
        let shape3 = (1..).zip(&shape3_keys).map(|(k, &c)| (c, k)).collect();
        let diamond = (1..).zip(&diamond_keys).map(|(k, &h)| (h, k)).collect();
        Knowledge {
            gammas: gammas.unwrap_or_else(|| vec![1.0; offsets[GROUPS]]),
            shape3_keys,
            diamond_keys,
            shape3,
            diamond,
            offsets,
            playout_shape3: OnceLock::new(),
        }
    }

    /// Reads a knowledge file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Knowledge, KnowledgeError> {
        let mut r = Bytes(bytes);
        if r.take(8)? != MAGIC {
            return Err(KnowledgeError::Magic);
        }
        let n3 = r.u32()? as usize;
        let shape3 = (0..n3).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
        let nd = r.u32()? as usize;
        let diamonds = (0..nd).map(|_| r.u64()).collect::<Result<Vec<_>, _>>()?;
        let ng = r.u32()? as usize;
        let gammas = (0..ng).map(|_| r.f32()).collect::<Result<Vec<_>, _>>()?;
        if !r.0.is_empty() {
            return Err(KnowledgeError::Inconsistent("bytes after the gammas"));
        }
        if gammas.iter().any(|g| !g.is_finite() || *g <= 0.0) {
            return Err(KnowledgeError::Inconsistent(
                "a gamma is not a positive number",
            ));
        }
        let k = Knowledge::new(shape3, diamonds, Some(gammas));
        if k.gammas.len() != k.offsets[GROUPS] {
            return Err(KnowledgeError::Inconsistent(
                "gammas do not match the dictionaries",
            ));
        }
        Ok(k)
    }

    /// The knowledge file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((self.shape3_keys.len() as u32).to_le_bytes());
        for k in &self.shape3_keys {
            out.extend(k.to_le_bytes());
        }
        out.extend((self.diamond_keys.len() as u32).to_le_bytes());
        for k in &self.diamond_keys {
            out.extend(k.to_le_bytes());
        }
        out.extend((self.gammas.len() as u32).to_le_bytes());
        for g in &self.gammas {
            out.extend(g.to_le_bytes());
        }
        out
    }

    /// Number of 3×3 shapes, of larger shapes, and of features in all.
    #[must_use]
    pub fn sizes(&self) -> (usize, usize, usize) {
        (
            self.shape3_keys.len(),
            self.diamond_keys.len(),
            self.gammas.len(),
        )
    }

    /// The feature values of raw features: the shapes looked up (the
    /// largest diamond known).
    pub(crate) fn features(&self, raw: &Raw) -> Features {
        let mut f = raw.values;
        f[SHAPE3] = self.shape3.get(&raw.shape3).copied().unwrap_or(0);
        f[DIAMOND] = raw
            .diamonds
            .iter()
            .rev()
            .find_map(|h| self.diamond.get(h).copied())
            .unwrap_or(0);
        f
    }

    /// Index of a group's value in `gammas`.
    #[inline]
    fn id(&self, group: usize, value: u32) -> usize {
        self.offsets[group] + value as usize
    }

    /// The strength of a move with these features.
    #[must_use]
    pub(crate) fn strength(&self, f: &Features) -> f32 {
        (0..GROUPS).map(|g| self.gammas[self.id(g, f[g])]).product()
    }

    /// The strengths of every candidate of `s` (see
    /// [`Situation::is_candidate`]) written to `out`, in the order of the
    /// board's empty points.
    pub(crate) fn strengths(
        &self,
        s: &Situation,
        reader: &mut Reader,
        allowed: &dyn Fn(PointIndex) -> bool,
        out: &mut Vec<(PointIndex, f32)>,
    ) {
        out.clear();
        for &i in s.board.empty_points() {
            if s.is_candidate(i) && allowed(i) {
                let f = self.features(&reader.read(s, i));
                out.push((i, self.strength(&f)));
            }
        }
    }

    /// The 3×3 gamma of a raw 3×3 code, for the playouts: one load from a
    /// table of every code, made on first use.
    #[inline]
    #[must_use]
    pub(crate) fn shape3_gamma(&self, raw: u32) -> f32 {
        let table = self.playout_shape3.get_or_init(|| {
            (0..SHAPE3_CODES as u32)
                .map(|code| {
                    let k = self.shape3.get(&canonical3(code)).copied().unwrap_or(0);
                    self.gammas[self.id(SHAPE3, k)]
                })
                .collect()
        });
        table[raw as usize & (SHAPE3_CODES - 1)]
    }

    /// The gamma of a point next to the last move (`diagonal`: on its
    /// diagonal), for the playouts.
    #[inline]
    #[must_use]
    pub(crate) fn near_gamma(&self, diagonal: bool) -> f32 {
        self.gammas[self.id(LAST, if diagonal { 2 } else { 1 })]
    }

    /// The gamma of an empty 3×3 shape far from the last move: what the
    /// playouts weigh a point elsewhere as.
    #[must_use]
    pub(crate) fn far_gamma(&self) -> f32 {
        self.gammas[self.id(LAST, 16)] * self.shape3_gamma(0)
    }

    /// The rank of `played` among the candidates of `s` by strength (0:
    /// the first choice; ties count for the move played), or `None` when
    /// it is no candidate.
    #[must_use]
    pub fn rank(&self, s: &Situation, played: PointIndex, judge: &mut Judge) -> Option<usize> {
        self.strengths(s, &mut judge.reader, &|_| true, &mut judge.strengths);
        let mine = judge.strengths.iter().find(|(i, _)| *i == played)?.1;
        Some(judge.strengths.iter().filter(|(_, w)| *w > mine).count())
    }
}

/// Buffers for judging many positions in a row (see [`Knowledge::rank`]).
#[derive(Default)]
pub struct Judge {
    reader: Reader,
    strengths: Vec<(PointIndex, f32)>,
}

/// A little-endian reader.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], KnowledgeError> {
        if self.0.len() < n {
            return Err(KnowledgeError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], KnowledgeError> {
        let mut a = [0; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, KnowledgeError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, KnowledgeError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn f32(&mut self) -> Result<f32, KnowledgeError> {
        Ok(f32::from_le_bytes(self.array()?))
    }
}
