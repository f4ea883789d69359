//! The solver: picks the strike that maximises the expected number of
//! strikes still to come.
//!
//! Monte-Carlo over the root strikes: each playout strikes one root
//! candidate, draws its replacement (the chance node) from the solver's
//! own random source, and plays on with the fullest-tile-first rollout
//! policy until no strike is left. UCB1 spreads the playouts so that
//! promising strikes get most of them; the strike with the best mean
//! wins. Once few hits are left, exact expectimax ([`super::exact`])
//! takes over. (A full MCTS tree with sampled chance nodes was measured
//! too and did no better at equal playouts; see docs/chessforge.md.)

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::board::Board;
use super::exact::Exact;
use super::policy::heuristic;
use super::square::Square;
use crate::rng::Xoshiro;

/// How long the solver may think about one strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed number of playouts: reproducible on any machine.
    Playouts(u32),
    /// Wall-clock time per decision.
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Playouts(1000)
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Playouts(n) => write!(f, "{n} playouts"),
            Budget::Time(t) => write!(f, "{} ms", t.as_millis()),
        }
    }
}

/// Why a budget could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBudgetError(String);

impl fmt::Display for ParseBudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a budget: give a number of playouts (2000) or a time (50ms, 2s)",
            self.0
        )
    }
}

impl std::error::Error for ParseBudgetError {}

impl FromStr for Budget {
    type Err = ParseBudgetError;

    /// `2000` playouts, or a time per decision such as `50ms` or `2s`.
    fn from_str(s: &str) -> Result<Budget, ParseBudgetError> {
        let err = || ParseBudgetError(s.to_string());
        let s = s.trim();
        let (digits, unit_ms) = if let Some(n) = s.strip_suffix("ms") {
            (n, Some(1))
        } else if let Some(n) = s.strip_suffix('s') {
            (n, Some(1000))
        } else {
            (s, None)
        };
        let n: u32 = digits.parse().map_err(|_| err())?;
        if n == 0 {
            return Err(err());
        }
        Ok(match unit_ms {
            None => Budget::Playouts(n),
            Some(scale) => Budget::Time(Duration::from_millis(u64::from(n) * scale)),
        })
    }
}

/// What the solver thinks of one candidate strike.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The strike.
    pub square: Square,
    /// Mean strikes from here to the end, this one included.
    pub mean: f64,
    /// Playouts spent on it; 0 when the endgame was solved exactly (the
    /// mean is then the exact expectation).
    pub playouts: u32,
}

/// The solver with its budget.
#[derive(Clone, Copy, Debug)]
pub struct Solver {
    budget: Budget,
}

/// UCB1 exploration weight, in strikes: about the spread of playout
/// results, so that exploration and the means are on the same scale.
const EXPLORATION: f64 = 12.0;

/// Positions with at most this many hits left are solved exactly. Below
/// it exact search needs a few thousand nodes at most; at 20 hits it
/// needs hundreds of thousands, which the time per decision cannot buy.
const EXACT_HITS: u32 = 16;

/// Node limit of the exact endgame search; past it Monte-Carlo decides.
const EXACT_NODES: u64 = 200_000;

impl Solver {
    /// A solver thinking within `budget` per decision.
    pub fn new(budget: Budget) -> Solver {
        Solver { budget }
    }

    /// The best strike on `board`, or `None` if the game is over.
    pub fn choose(&self, board: &Board, rng: &mut Xoshiro) -> Option<Square> {
        let targets = board.targets();
        if targets.len() <= 1 {
            // Nothing to weigh: no need to spend the budget.
            return targets.nth(0);
        }
        let candidates = self.analyse(board, rng);
        candidates.first().map(|c| c.square)
    }

    /// Every legal strike with its estimated value, best first.
    pub fn analyse(&self, board: &Board, rng: &mut Xoshiro) -> Vec<Candidate> {
        let mut stats: Vec<Candidate> = board
            .targets()
            .iter()
            .map(|square| Candidate {
                square,
                mean: 0.0,
                playouts: 0,
            })
            .collect();
        if stats.is_empty() {
            return stats;
        }
        if board.hits_left() <= EXACT_HITS {
            let mut exact = Exact::new(EXACT_NODES);
            if let Some(values) = exact.root(board) {
                log::trace!("solver: endgame solved exactly in {} nodes", exact.nodes());
                return values
                    .into_iter()
                    .map(|(square, mean)| Candidate {
                        square,
                        mean,
                        playouts: 0,
                    })
                    .collect();
            }
        }
        let start = Instant::now();
        let mut total = 0u32;
        while !self.spent(total, start) {
            let pick = select(&stats, total);
            let Some(candidate) = stats.get_mut(pick) else {
                break;
            };
            let value = 1.0 + rollout(board.play_random(candidate.square, rng), rng);
            candidate.playouts += 1;
            candidate.mean += (value - candidate.mean) / f64::from(candidate.playouts);
            total += 1;
        }
        stats.sort_by(|a, b| b.mean.total_cmp(&a.mean));
        log::trace!("solver: {total} playouts, best {:?}", stats.first());
        stats
    }

    fn spent(&self, playouts: u32, start: Instant) -> bool {
        match self.budget {
            Budget::Playouts(n) => playouts >= n,
            // Checking the clock every few playouts keeps its cost small.
            Budget::Time(limit) => playouts.is_multiple_of(16) && start.elapsed() >= limit,
        }
    }
}

/// The candidate UCB1 plays next; each is tried once before any twice.
fn select(stats: &[Candidate], total: u32) -> usize {
    let log_total = f64::from(total.max(1)).ln();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, c) in stats.iter().enumerate() {
        if c.playouts == 0 {
            return i;
        }
        let score = c.mean + EXPLORATION * (log_total / f64::from(c.playouts)).sqrt();
        if score > best_score {
            best = i;
            best_score = score;
        }
    }
    best
}

/// Strikes made from `board` to the end by the rollout policy.
fn rollout(mut board: Board, rng: &mut Xoshiro) -> f64 {
    let before = board.strikes_made();
    while let Some(sq) = heuristic(&board, rng) {
        board = board.play_random(sq, rng);
    }
    f64::from(board.strikes_made() - before)
}
