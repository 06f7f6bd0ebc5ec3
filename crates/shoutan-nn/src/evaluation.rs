//! What the network says of a position, post-processed as KataGo does
//! (`nneval.cpp`): the policy as probabilities over the legal moves, the
//! game's outcome as win / loss / no-result probabilities, the score and
//! lead in points, and who owns each point — all from white's side, as
//! KataGo reports them. `kata-raw-nn` prints exactly this.

use std::fmt::Write as _;

use shoutan_rules::{BoardSize, Color, Move, Point};

use crate::network::RawOutput;
use crate::rules::{KoRule, ScoringRule};
use crate::{Position, Symmetry};

/// KataGo's scale of the raw score outputs (for model versions below 13,
/// which do not carry their own): 20 points per unit.
const SCORE_SCALE: f64 = 20.0;
/// KataGo's scale of the variance-of-time output.
const VARIANCE_TIME_SCALE: f64 = 40.0;
/// KataGo's scales of the short-term error outputs (model versions 10 to 13).
const SHORTTERM_VALUE_ERROR_SCALE: f64 = 0.25;
const SHORTTERM_SCORE_ERROR_SCALE: f64 = 30.0;

/// The network's judgement of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The board's size.
    pub size: BoardSize,
    /// Who is to move.
    pub to_move: Color,
    /// White's chance to win.
    pub white_win: f32,
    /// White's chance to lose.
    pub white_loss: f32,
    /// The chance of no result (long cycles under simple ko rules; zero
    /// where the rules make cycles impossible).
    pub no_result: f32,
    /// White's lead in points: how many points of komi would make the game
    /// even (KataGo's `whiteLead`).
    pub white_lead: f32,
    /// White's expected score in self-play (`whiteScoreSelfplay`).
    pub white_score: f32,
    /// The expected square of it (`whiteScoreSelfplaySq`).
    pub white_score_sq: f32,
    /// How long the game's outcome stays uncertain (−1 when the model has
    /// no such output).
    pub var_time_left: f32,
    /// The expected error of the win/loss value over a short search (−1
    /// when the model has none).
    pub shortterm_winloss_error: f32,
    /// The same for the score (−1 when the model has none).
    pub shortterm_score_error: f32,
    /// Probability of each point as the next move, row by row from the
    /// top left; negative where the move is illegal.
    pub policy: Vec<f32>,
    /// Probability of passing.
    pub policy_pass: f32,
    /// Ownership of each point, row by row from the top left: +1 white's,
    /// −1 black's.
    pub white_ownership: Vec<f32>,
}

impl Evaluation {
    /// Post-processes the network's raw outputs for `position` (already
    /// turned back from the symmetry it was evaluated under), for a model
    /// of `version`.
    pub(crate) fn from_raw(raw: &RawOutput, position: &Position, version: u32) -> Evaluation {
        let size = position.size();
        let to_move = position.to_move();
        let legal: Vec<bool> = size
            .points()
            .map(|p| position.is_legal_for_network(Move::Play(p)))
            .collect();
        let pass_legal = position.is_legal_for_network(Move::Pass);
        let logit = |legal: bool, x: f32| if legal { x } else { f32::NEG_INFINITY };
        let pass = logit(pass_legal, raw.pass);
        let mut policy: Vec<f32> = legal
            .iter()
            .zip(&raw.policy)
            .map(|(&l, &x)| logit(l, x))
            .collect();
        let max = policy.iter().copied().fold(pass, f32::max);
        let mut sum = 0.0f32;
        for p in policy.iter_mut() {
            *p = (*p - max).exp();
            sum += *p;
        }
        let pass_weight = (pass - max).exp();
        sum += pass_weight;
        for (p, &l) in policy.iter_mut().zip(&legal) {
            *p = if l { *p / sum } else { -1.0 };
        }
        let policy_pass = if pass_legal { pass_weight / sum } else { -1.0 };

        let rules = position.rules();
        let cycles_possible = rules.ko == KoRule::Simple || rules.scoring == ScoringRule::Territory;
        let [win, loss, no_result] = raw.value.map(f64::from);
        let no_result = if cycles_possible {
            no_result
        } else {
            no_result - 100_000.0
        };
        let max = win.max(loss).max(no_result);
        let (win, loss, mut no_result) = (
            (win - max).exp(),
            (loss - max).exp(),
            (no_result - max).exp(),
        );
        if !cycles_possible {
            no_result = 0.0;
        }
        let total = win + loss + no_result;
        let (win, loss, no_result) = (win / total, loss / total, no_result / total);
        let raw_score = |i: usize| raw.score.get(i).copied().map_or(0.0, f64::from);
        let score_mean = raw_score(0) * SCORE_SCALE;
        let score_stdev = soft_plus(raw_score(1)) * SCORE_SCALE;
        let score_sq = score_mean * score_mean + score_stdev * score_stdev;
        let lead = raw_score(2) * SCORE_SCALE;
        let has_result = 1.0 - no_result;
        let (var_time_left, shortterm_winloss, shortterm_score) = if version >= 9 {
            let var_time = soft_plus(raw_score(3)) * VARIANCE_TIME_SCALE;
            if version >= 10 {
                (
                    var_time,
                    (soft_plus(raw_score(4)) * SHORTTERM_VALUE_ERROR_SCALE).sqrt(),
                    (soft_plus(raw_score(5)) * SHORTTERM_SCORE_ERROR_SCALE).sqrt(),
                )
            } else {
                (
                    var_time,
                    soft_plus(raw_score(4)),
                    soft_plus(raw_score(5)) * 10.0,
                )
            }
        } else {
            (-1.0, -1.0, -1.0)
        };
        // The network answers for the side to move; KataGo reports white's.
        let white = to_move == Color::White;
        let (white_win, white_loss) = if white { (win, loss) } else { (loss, win) };
        let sign = if white { 1.0 } else { -1.0 };
        let white_ownership = raw
            .ownership
            .iter()
            .map(|&o| (sign * f64::from(o).tanh()) as f32)
            .collect();
        Evaluation {
            size,
            to_move,
            white_win: white_win as f32,
            white_loss: white_loss as f32,
            no_result: no_result as f32,
            white_lead: (sign * lead * has_result) as f32,
            white_score: (sign * score_mean * has_result) as f32,
            white_score_sq: (score_sq * has_result) as f32,
            var_time_left: var_time_left as f32,
            shortterm_winloss_error: shortterm_winloss as f32,
            shortterm_score_error: shortterm_score as f32,
            policy,
            policy_pass,
            white_ownership,
        }
    }

    /// `color`'s chance to win (a draw or no result counts half).
    #[must_use]
    pub fn winrate(&self, color: Color) -> f32 {
        let white = self.white_win + 0.5 * self.no_result;
        match color {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }

    /// `color`'s lead in points.
    #[must_use]
    pub fn lead(&self, color: Color) -> f32 {
        match color {
            Color::White => self.white_lead,
            Color::Black => -self.white_lead,
        }
    }

    /// The policy's probability of `mv` (0 when illegal).
    #[must_use]
    pub fn prior(&self, mv: Move) -> f32 {
        let p = match mv {
            Move::Pass => self.policy_pass,
            Move::Play(p) => self
                .policy
                .get(self.size.offset(p))
                .copied()
                .unwrap_or(-1.0),
        };
        p.max(0.0)
    }

    /// Ownership of `p`: +1 black's, −1 white's (Shoutan's convention).
    #[must_use]
    pub fn black_ownership(&self, p: Point) -> f32 {
        -self
            .white_ownership
            .get(self.size.offset(p))
            .copied()
            .unwrap_or(0.0)
    }

    /// The answer to GTP `kata-raw-nn`, in exactly KataGo's format (its
    /// `GTPEngine::rawNN`): the numbers, then the policy and ownership
    /// grids row by row from the top.
    #[must_use]
    pub fn kata_raw_nn(&self, symmetry: Symmetry) -> String {
        let n = usize::from(self.size.get());
        let mut out = String::new();
        let _ = writeln!(out, "symmetry {symmetry}");
        let _ = writeln!(out, "whiteWin {:.6}", self.white_win);
        let _ = writeln!(out, "whiteLoss {:.6}", self.white_loss);
        let _ = writeln!(out, "noResult {:.6}", self.no_result);
        let _ = writeln!(out, "whiteLead {:.3}", self.white_lead);
        let _ = writeln!(out, "whiteScoreSelfplay {:.3}", self.white_score);
        let _ = writeln!(out, "whiteScoreSelfplaySq {:.3}", self.white_score_sq);
        let _ = writeln!(out, "varTimeLeft {:.3}", self.var_time_left);
        let _ = writeln!(
            out,
            "shorttermWinlossError {:.3}",
            self.shortterm_winloss_error
        );
        let _ = writeln!(out, "shorttermScoreError {:.3}", self.shortterm_score_error);
        out.push_str("policy\n");
        for row in self.policy.chunks(n) {
            for &p in row {
                if p < 0.0 {
                    out.push_str("    NAN ");
                } else {
                    let _ = write!(out, "{p:8.6} ");
                }
            }
            out.push('\n');
        }
        out.push_str("policyPass ");
        if self.policy_pass < 0.0 {
            out.push_str("    NAN ");
        } else {
            let _ = write!(out, "{:8.6} ", self.policy_pass);
        }
        out.push_str("\nwhiteOwnership\n");
        for row in self.white_ownership.chunks(n) {
            for &o in row {
                let _ = write!(out, "{o:9.7} ");
            }
            out.push('\n');
        }
        out.trim_end().to_owned()
    }
}

fn soft_plus(x: f64) -> f64 {
    if x > 40.0 { x } else { x.exp().ln_1p() }
}

/// KataGo's `kata-raw-nn` answer as numbers, to compare with ours.
#[derive(Clone, Debug, PartialEq)]
pub struct RawNnAnswer {
    /// The symmetry it was evaluated under.
    pub symmetry: Symmetry,
    /// `whiteWin`.
    pub white_win: f32,
    /// `whiteLoss`.
    pub white_loss: f32,
    /// `noResult`.
    pub no_result: f32,
    /// `whiteLead`.
    pub white_lead: f32,
    /// The policy grid, row by row; `None` where KataGo printed `NAN`
    /// (an illegal move).
    pub policy: Vec<Option<f32>>,
    /// `policyPass`.
    pub policy_pass: Option<f32>,
    /// The ownership grid, row by row.
    pub white_ownership: Vec<f32>,
}

/// Why a `kata-raw-nn` answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RawNnError {
    /// A line that should have come did not.
    #[error("kata-raw-nn: expected {0}, found the end of the answer")]
    Missing(&'static str),
    /// A line that is not what it should be.
    #[error("kata-raw-nn: expected {expected}, found {found:?}")]
    Unexpected {
        /// What should have come.
        expected: &'static str,
        /// What came.
        found: String,
    },
}

impl RawNnAnswer {
    /// The most probable move's index: a point's row-major offset, or the
    /// board's area for a pass.
    #[must_use]
    pub fn best_move(&self) -> usize {
        let pass = std::iter::once(self.policy_pass);
        self.policy
            .iter()
            .copied()
            .chain(pass)
            .enumerate()
            .fold((usize::MAX, f32::MIN), |best, (i, p)| match p {
                Some(p) if p > best.1 => (i, p),
                _ => best,
            })
            .0
    }

    /// Reads one `kata-raw-nn SYMMETRY` answer for a board of `size` (the
    /// GTP `= ` already removed or not).
    pub fn parse(text: &str, size: BoardSize) -> Result<RawNnAnswer, RawNnError> {
        let n = usize::from(size.get());
        let mut reader = AnswerReader {
            lines: Box::new(
                text.lines()
                    .map(|l| l.trim_start_matches('=').trim())
                    .filter(|l| !l.is_empty()),
            ),
        };
        let symmetry = reader.field("symmetry")?;
        let symmetry = symmetry
            .parse::<u32>()
            .ok()
            .and_then(|s| Symmetry::new(s).ok())
            .ok_or(RawNnError::Unexpected {
                expected: "a symmetry 0 to 7",
                found: symmetry,
            })?;
        let white_win = reader.number("whiteWin")?;
        let white_loss = reader.number("whiteLoss")?;
        let no_result = reader.number("noResult")?;
        let white_lead = reader.number("whiteLead")?;
        for name in [
            "whiteScoreSelfplay",
            "whiteScoreSelfplaySq",
            "varTimeLeft",
            "shorttermWinlossError",
            "shorttermScoreError",
        ] {
            reader.number(name)?;
        }
        reader.field("policy")?;
        let policy = reader.grid("policy", n)?;
        let pass = reader.field("policyPass")?;
        let policy_pass = if pass == "NAN" {
            None
        } else {
            Some(number("policyPass", &pass)?)
        };
        reader.field("whiteOwnership")?;
        let white_ownership = reader
            .grid("whiteOwnership", n)?
            .into_iter()
            .map(|o| o.unwrap_or(f32::NAN))
            .collect();
        Ok(RawNnAnswer {
            symmetry,
            white_win,
            white_loss,
            no_result,
            white_lead,
            policy,
            policy_pass,
            white_ownership,
        })
    }
}

/// The lines of an answer, read in order.
struct AnswerReader<'a> {
    lines: Box<dyn Iterator<Item = &'a str> + 'a>,
}

impl AnswerReader<'_> {
    /// The value of the line `name VALUE` (empty for a line `name` alone).
    fn field(&mut self, name: &'static str) -> Result<String, RawNnError> {
        let line = self.lines.next().ok_or(RawNnError::Missing(name))?;
        match line.split_once(' ') {
            Some((key, value)) if key == name => Ok(value.trim().to_owned()),
            _ if line == name => Ok(String::new()),
            _ => Err(RawNnError::Unexpected {
                expected: name,
                found: line.to_owned(),
            }),
        }
    }

    fn number(&mut self, name: &'static str) -> Result<f32, RawNnError> {
        let text = self.field(name)?;
        number(name, &text)
    }

    /// `n` lines of `n` numbers (`NAN` read as none).
    fn grid(&mut self, name: &'static str, n: usize) -> Result<Vec<Option<f32>>, RawNnError> {
        let mut values = Vec::with_capacity(n * n);
        for _ in 0..n {
            let line = self.lines.next().ok_or(RawNnError::Missing(name))?;
            for word in line.split_whitespace() {
                values.push(if word == "NAN" {
                    None
                } else {
                    Some(number(name, word)?)
                });
            }
        }
        if values.len() == n * n {
            Ok(values)
        } else {
            Err(RawNnError::Unexpected {
                expected: name,
                found: format!("{} values for {} points", values.len(), n * n),
            })
        }
    }
}

fn number(name: &'static str, text: &str) -> Result<f32, RawNnError> {
    text.parse().map_err(|_| RawNnError::Unexpected {
        expected: name,
        found: text.to_owned(),
    })
}

impl crate::Network {
    /// Evaluates `batch`, each position under its symmetry, in as few
    /// forward passes as there are board sizes among them; the answers
    /// come in the batch's order.
    pub fn evaluate(
        &self,
        batch: &[(&Position, Symmetry)],
        scratch: &mut crate::Scratch,
    ) -> Vec<Evaluation> {
        let mut answers: Vec<Option<Evaluation>> = vec![None; batch.len()];
        let mut sizes: Vec<BoardSize> = batch.iter().map(|(p, _)| p.size()).collect();
        sizes.sort_unstable();
        sizes.dedup();
        for size in sizes {
            let n = usize::from(size.get());
            let members: Vec<usize> = (0..batch.len())
                .filter(|&i| batch[i].0.size() == size)
                .collect();
            let inputs: Vec<crate::Inputs> = members
                .iter()
                .map(|&i| {
                    let (position, symmetry) = batch[i];
                    let inputs = position.inputs();
                    crate::Inputs {
                        spatial: symmetry.planes_to_network(&inputs.spatial, n),
                        ..inputs
                    }
                })
                .collect();
            let refs: Vec<&crate::Inputs> = inputs.iter().collect();
            // One size, inputs built by `Position::inputs` for input version
            // 7, which every model the reader accepts takes.
            let raws = self
                .forward(&refs, scratch)
                .expect("a batch of one size with version 7 inputs");
            for (&i, mut raw) in members.iter().zip(raws) {
                let (position, symmetry) = batch[i];
                raw.policy = symmetry.plane_to_position(&raw.policy, n);
                raw.ownership = symmetry.plane_to_position(&raw.ownership, n);
                answers[i] = Some(Evaluation::from_raw(&raw, position, self.version()));
            }
        }
        answers.into_iter().flatten().collect()
    }
}
