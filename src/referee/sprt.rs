//! The sequential probability ratio test of a match: a generalised SPRT
//! (GSPRT) on the pentanomial counts of game pairs, as fishtest and
//! fastchess compute it (Michel Van den Bergh's construction).
//!
//! Each opening is played twice with the colours swapped, and the pair's
//! score for the first player (0, ½, 1, 1½ or 2 points) is one draw from
//! an unknown five-point distribution. The log-likelihood ratio compares
//! the maximum-likelihood distributions that meet each hypothesis: an
//! expected score of `L(elo0)` against `L(elo1)` (logistic Elo), or a
//! t-value `(mu - 1/2) / sigma` of `elo0` against `elo1` in normalised
//! Elo. Empty cells count as 0.001 of a pair, as in both tools, so that
//! every likelihood stays finite.
//!
//! Both maximum-likelihood estimates are solved to the last bit of an
//! `f64` (bisection of the secular equation, and for the t-value the fixed
//! point iterated until it stops moving), not to a loose tolerance, so
//! that any converged implementation agrees to 1e-9 or so.

use std::fmt;
use std::str::FromStr;

/// Normalised Elo per unit of t-value: `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// What a cell with no pair counts as.
const EMPTY_CELL: f64 = 1e-3;

/// The pair scores of the five cells, as fractions of the two games' points.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts of game pairs by the first player's points in the pair: 0, ½,
/// 1, 1½ and 2 (so `counts[i]` holds the pairs worth `i` half-points).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// LL, LD, DD+WL, WD, WW.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair worth `half_points` (0 to 4) to the first player.
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The counts with empty cells at [`EMPTY_CELL`], and their total.
    fn regularized(&self) -> ([f64; 5], f64) {
        let cells = self
            .counts
            .map(|n| if n == 0 { EMPTY_CELL } else { n as f64 });
        (cells, cells.iter().sum())
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let c = &self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// Why the counts given on the command line could not be read.
impl FromStr for Pentanomial {
    type Err = String;

    fn from_str(text: &str) -> Result<Pentanomial, String> {
        let cells: Vec<&str> = text.split(',').map(str::trim).collect();
        if cells.len() != 5 {
            return Err(format!(
                "pentanomial counts are five numbers LL,LD,D,WD,WW, not '{text}'"
            ));
        }
        let mut counts = [0; 5];
        for (count, cell) in counts.iter_mut().zip(&cells) {
            *count = cell
                .parse()
                .map_err(|_| format!("'{cell}' is not a count of pairs"))?;
        }
        Ok(Pentanomial { counts })
    }
}

/// How the hypotheses' Elo is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Normalised Elo (fishtest's default): a t-value, independent of the
    /// draw rate.
    Normalized,
    /// Logistic Elo: an expected score `1 / (1 + 10^(-elo/400))`.
    Logistic,
}

impl FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Model, String> {
        match text.trim() {
            "normalized" | "normalised" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            _ => Err(format!(
                "the SPRT model is normalized or logistic, not '{text}'"
            )),
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        })
    }
}

/// The test: its hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1 (above `elo0`).
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// How `elo0` and `elo1` are measured.
    pub model: Model,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The LLR fell to the lower bound: H0 accepted.
    H0,
    /// The LLR rose to the upper bound: H1 accepted.
    H1,
    /// Neither bound crossed: play on.
    Continue,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "continue",
        })
    }
}

impl Sprt {
    /// A test with checked parameters.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: Model) -> Result<Sprt, String> {
        let finite = [elo0, elo1, alpha, beta].iter().all(|x| x.is_finite());
        if !finite {
            return Err("the SPRT's parameters must be numbers".into());
        }
        if elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be below elo1 ({elo1})"));
        }
        if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err("elo0 and elo1 must lie within ±1000".into());
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name} must lie between 0 and 0.5, not {p}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The LLR's lower bound, `ln(beta / (1 - alpha))`: at or below it H0
    /// is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound, `ln((1 - beta) / alpha)`: at or above it H1 is
    /// accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper() {
            Verdict::H1
        } else if llr <= self.lower() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The generalised log-likelihood ratio of H1 against H0 for the
    /// counts (0 before the first pair).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let (cells, total) = penta.regularized();
        let observed = cells.map(|n| n / total);
        let (p0, p1) = match self.model {
            Model::Logistic => (
                mle_expected(&observed, logistic_score(self.elo0)),
                mle_expected(&observed, logistic_score(self.elo1)),
            ),
            Model::Normalized => {
                // A pair's t-value is √2 a game's: its two games add up
                // their means and variances.
                let t = |elo: f64| elo / NELO_PER_T * std::f64::consts::SQRT_2;
                (
                    mle_t_value(&observed, t(self.elo0)),
                    mle_t_value(&observed, t(self.elo1)),
                )
            }
        };
        let per_pair: f64 = (0..5)
            .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
            .sum();
        total * per_pair
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=E0,elo1=E1,alpha=A,beta=B[,model=normalized|logistic]`; alpha
    /// and beta default to 0.05, the model to normalized.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta, mut model) = (0.05, 0.05, Model::Normalized);
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT parameter '{part}' must be written NAME=VALUE"))?;
            let number = || {
                value
                    .trim()
                    .parse::<f64>()
                    .map_err(|_| format!("SPRT parameter {name}: '{value}' is not a number"))
            };
            match name.trim() {
                "elo0" => elo0 = Some(number()?),
                "elo1" => elo1 = Some(number()?),
                "alpha" => alpha = number()?,
                "beta" => beta = number()?,
                "model" => model = value.parse()?,
                other => {
                    return Err(format!(
                        "unknown SPRT parameter '{other}' (elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("the SPRT needs elo0=E0 and elo1=E1".into());
        };
        Sprt::new(elo0, elo1, alpha, beta, model)
    }
}

/// The expected score of logistic Elo `elo`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The root of the secular equation `sum p_i b_i / (1 + x b_i) = 0` on
/// `(-1/max b, -1/min b)`, where the left side falls from +inf to -inf;
/// `None` unless the `b_i` have both signs.
fn secular(p: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let (lo_b, hi_b) = b
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if !(lo_b < 0.0 && hi_b > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { (0..5).map(|i| p[i] * b[i] / (1.0 + x * b[i])).sum() };
    let (mut lo, mut hi) = (-1.0 / hi_b, -1.0 / lo_b);
    // Bisection until the interval cannot shrink: the ends themselves are
    // poles, so only midpoints are ever evaluated.
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v == 0.0 {
            return Some(mid);
        }
        if v > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The mean and variance of the pair scores under `p`.
fn mean_variance(p: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
    let var = (0..5).map(|i| p[i] * (PAIR_SCORES[i] - mu).powi(2)).sum();
    (mu, var)
}

/// The most likely distribution on the pair scores with expectation `s`,
/// given the observed frequencies (Van den Bergh, "Support of the MLE for
/// a multinomial", proposition 1.1): `p_i = q_i / (1 + x (a_i - s))`.
fn mle_expected(observed: &[f64; 5], s: f64) -> [f64; 5] {
    let b = PAIR_SCORES.map(|a| a - s);
    let x = secular(observed, &b).unwrap_or(0.0);
    std::array::from_fn(|i| observed[i] / (1.0 + x * b[i]))
}

/// The most likely distribution with t-value `(mu - 1/2) / sigma = t`,
/// given the observed frequencies (Van den Bergh, "Comments on normalized
/// Elo", section 4.1): a fixed point from the uniform distribution, each
/// step a secular equation.
fn mle_t_value(observed: &[f64; 5], t: f64) -> [f64; 5] {
    let mut p = [0.2; 5];
    for _ in 0..10_000 {
        let (mu, var) = mean_variance(&p);
        let sigma = var.sqrt();
        let phi =
            PAIR_SCORES.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let Some(x) = secular(observed, &phi) else {
            break;
        };
        let next: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + x * phi[i]));
        let moved = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if moved < 1e-15 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_command_line_form() {
        let s: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.1));
        assert_eq!(s.model, Model::Normalized);
        let s: Sprt = "elo1=2,elo0=-1,model=logistic".parse().unwrap();
        assert_eq!(s.model, Model::Logistic);
        assert!("elo0=5,elo1=0".parse::<Sprt>().is_err());
        assert!("elo0=0".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<Sprt>().is_err());
        assert!("elo0=0,elo1=5,alpha=0.7".parse::<Sprt>().is_err());
        assert!("1,2,3".parse::<Pentanomial>().is_err());
        assert_eq!(
            "1,2,3,4,5".parse::<Pentanomial>().unwrap().counts,
            [1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn bounds_are_walds() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap();
        assert!((s.upper() - 19f64.ln()).abs() < 1e-12);
        assert!((s.lower() + 19f64.ln()).abs() < 1e-12);
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-3.0), Verdict::H0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
    }

    #[test]
    fn the_estimates_meet_their_constraints() {
        let q = [0.05, 0.2, 0.45, 0.2, 0.1];
        let p = mle_expected(&q, 0.6);
        let (mu, _) = mean_variance(&p);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mu - 0.6).abs() < 1e-12);
        let p = mle_t_value(&q, 0.1);
        let (mu, var) = mean_variance(&p);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(((mu - 0.5) / var.sqrt() - 0.1).abs() < 1e-12);
    }

    #[test]
    fn a_symmetric_sample_favours_neither_side_of_zero() {
        // Equal counts either side of an even score: H1 = +e and H0 = -e
        // are equally likely.
        let penta = Pentanomial {
            counts: [10, 30, 50, 30, 10],
        };
        for model in [Model::Normalized, Model::Logistic] {
            let s = Sprt::new(-3.0, 3.0, 0.05, 0.05, model).unwrap();
            assert!(s.llr(&penta).abs() < 1e-9, "{model}");
        }
    }
}
