//! Fitting the gammas: every sampled position of the training games is a
//! competition among its candidate moves, won by the move played, and the
//! Bradley–Terry model of those competitions is fitted by minorization–
//! maximization (Coulom 2007), one feature group at a time, each gamma
//! with a prior of one win and one loss against a gamma of 1.

use std::collections::HashMap;

use shoutan_rules::{Game, Move};

use super::Knowledge;
use super::features::{DIAMOND, GROUPS, Reader, SHAPE3, Situation};

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Seed of the sampling of positions.
    pub seed: u64,
    /// One position in this many enters the fit (all of them give shapes).
    pub sample_every: u32,
    /// A larger shape is learned when the move played had it at least this
    /// many times.
    pub min_diamond_count: u32,
    /// At most this many larger shapes (the most frequent).
    pub max_diamonds: usize,
    /// Rounds of minorization–maximization over every group.
    pub iterations: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            seed: 2007,
            sample_every: 8,
            min_diamond_count: 8,
            max_diamonds: 200_000,
            iterations: 16,
        }
    }
}

/// The knowledge fitted, with what the fit measured.
pub struct Fit {
    /// The learned knowledge.
    pub knowledge: Knowledge,
    /// Positions in the training games (where a stone was played).
    pub positions: usize,
    /// Positions in the fit.
    pub sampled: usize,
    /// Candidate moves in the fit.
    pub candidates: usize,
    /// Mean log-likelihood of the move played, per round.
    pub log_likelihood: Vec<f64>,
    /// Share of fitted positions whose move played ranks first.
    pub train_top1: f64,
}

/// Calls `f` with every position of `game` where a stone was played, and
/// the point it was played on.
pub fn positions(game: &Game, mut f: impl FnMut(&Situation, shoutan_rules::PointIndex)) {
    let mut board = game.initial_board().clone();
    let (mut last, mut before_last) = (None, None);
    for turn in game.turns() {
        let here = match turn.mv {
            Move::Play(p) => {
                let i = board.index(p);
                if board.is_empty(i) {
                    let s = Situation {
                        board: &board,
                        to_move: turn.color,
                        last,
                        before_last,
                    };
                    f(&s, i);
                }
                board.play_unchecked(i, turn.color);
                Some(i)
            }
            Move::Pass => {
                board.clear_ko();
                None
            }
        };
        before_last = last;
        last = here;
    }
}

/// A candidate of the fit: its shapes' values and the small groups'.
#[derive(Clone, Copy)]
struct Candidate {
    shapes: [u32; 2],
    small: [u8; GROUPS - 2],
}

impl Candidate {
    fn value(&self, g: usize) -> u32 {
        match g {
            SHAPE3 => self.shapes[0],
            DIAMOND => self.shapes[1],
            _ => u32::from(self.small[g - 2]),
        }
    }
}

/// Fits knowledge to `games`, reporting progress through `progress`.
pub fn fit(games: &[Game], options: FitOptions, progress: &mut dyn FnMut(&str)) -> Fit {
    let mut reader = Reader::default();
    // Pass 1: the shapes of the moves played.
    let mut shape3_counts: HashMap<u32, u32> = HashMap::new();
    let mut diamond_counts: HashMap<u64, u32> = HashMap::new();
    let mut total = 0;
    for game in games {
        positions(game, |s, played| {
            total += 1;
            let raw = reader.read_shapes(s, played);
            *shape3_counts.entry(raw.0).or_default() += 1;
            for h in raw.1 {
                *diamond_counts.entry(h).or_default() += 1;
            }
        });
    }
    let mut shape3_keys: Vec<(u32, u32)> = shape3_counts.into_iter().collect();
    shape3_keys.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut diamonds: Vec<(u64, u32)> = diamond_counts
        .into_iter()
        .filter(|&(_, n)| n >= options.min_diamond_count)
        .collect();
    diamonds.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    diamonds.truncate(options.max_diamonds);
    let dictionaries = Knowledge::new(
        shape3_keys.iter().map(|k| k.0).collect(),
        diamonds.iter().map(|k| k.0).collect(),
        None,
    );
    progress(&format!(
        "{total} positions in {} games; {} 3×3 shapes, {} larger shapes seen {}+ times",
        games.len(),
        dictionaries.shape3_keys.len(),
        dictionaries.diamond_keys.len(),
        options.min_diamond_count
    ));

    // Pass 2: the features of every candidate of the sampled positions.
    let mut rng = fastrand::Rng::with_seed(options.seed);
    let mut candidates: Vec<Candidate> = Vec::new();
    // Per sampled position: its first candidate and the one played.
    let mut competitions: Vec<(usize, usize)> = Vec::new();
    for game in games {
        positions(game, |s, played| {
            if rng.u32(..options.sample_every.max(1)) != 0 {
                return;
            }
            let start = candidates.len();
            let mut winner = None;
            for &i in s.board.empty_points() {
                if !s.is_candidate(i) && i != played {
                    continue;
                }
                if i == played {
                    winner = Some(candidates.len());
                }
                let f = dictionaries.features(&reader.read(s, i));
                let mut small = [0u8; GROUPS - 2];
                for (g, v) in small.iter_mut().enumerate() {
                    *v = f[g + 2] as u8;
                }
                candidates.push(Candidate {
                    shapes: [f[SHAPE3], f[DIAMOND]],
                    small,
                });
            }
            match winner {
                Some(w) => competitions.push((start, w)),
                None => candidates.truncate(start),
            }
        });
    }
    progress(&format!(
        "fitting on {} positions ({} candidate moves)",
        competitions.len(),
        candidates.len()
    ));

    let mut k = dictionaries;
    let n_features = k.gammas.len();
    let mut wins = vec![0f64; n_features];
    for &(_, w) in &competitions {
        for g in 0..GROUPS {
            wins[k.id(g, candidates[w].value(g))] += 1.0;
        }
    }
    let ends: Vec<usize> = competitions
        .iter()
        .skip(1)
        .map(|c| c.0)
        .chain(std::iter::once(candidates.len()))
        .collect();
    let mut strengths = vec![0f64; candidates.len()];
    let mut log_likelihood = Vec::new();
    for round in 0..options.iterations {
        let mut ll = 0.0;
        for g in 0..GROUPS {
            let gammas: Vec<f64> = k.gammas.iter().map(|&x| f64::from(x)).collect();
            let mut denominators = vec![0f64; n_features];
            ll = 0.0;
            for (c, &(start, winner)) in competitions.iter().enumerate() {
                let end = ends[c];
                let mut sum = 0.0;
                for j in start..end {
                    let cand = &candidates[j];
                    let s: f64 = (0..GROUPS)
                        .map(|h| gammas[k.id(h, cand.value(h))])
                        .product();
                    strengths[j] = s;
                    sum += s;
                }
                ll += (strengths[winner] / sum).ln();
                for j in start..end {
                    let f = k.id(g, candidates[j].value(g));
                    denominators[f] += strengths[j] / gammas[f] / sum;
                }
            }
            for f in k.offsets[g]..k.offsets[g + 1] {
                let gamma = (wins[f] + 1.0) / (denominators[f] + 2.0 / (gammas[f] + 1.0));
                k.gammas[f] = gamma as f32;
            }
        }
        let mean = ll / competitions.len().max(1) as f64;
        progress(&format!(
            "round {}: mean log-likelihood {mean:.4}",
            round + 1
        ));
        log_likelihood.push(mean);
    }
    normalise(&mut k);
    let mut first = 0usize;
    for (c, &(start, winner)) in competitions.iter().enumerate() {
        let strength = |j: usize| {
            let cand = &candidates[j];
            (0..GROUPS)
                .map(|h| f64::from(k.gammas[k.id(h, cand.value(h))]))
                .product::<f64>()
        };
        let won = strength(winner);
        if (start..ends[c]).all(|j| j == winner || strength(j) <= won) {
            first += 1;
        }
    }
    Fit {
        positions: total,
        sampled: competitions.len(),
        candidates: candidates.len(),
        log_likelihood,
        train_top1: first as f64 / competitions.len().max(1) as f64,
        knowledge: k,
    }
}

/// Scales each group so that its geometric mean gamma is 1 (the model is
/// the same; the numbers read better and stay far from f32's limits).
fn normalise(k: &mut Knowledge) {
    for g in 0..GROUPS {
        let range = k.offsets[g]..k.offsets[g + 1];
        let n = range.len() as f64;
        let mean_log: f64 = k.gammas[range.clone()]
            .iter()
            .map(|&x| f64::from(x).ln())
            .sum::<f64>()
            / n;
        let scale = (-mean_log).exp();
        for x in &mut k.gammas[range] {
            *x = (f64::from(*x) * scale) as f32;
        }
    }
}
