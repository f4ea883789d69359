//! Plays a run of seeded games with one policy and summarises them: what
//! `chessforge solve` prints and docs/chessforge.md's benchmark table is made of.

use std::fmt;
use std::thread;
use std::time::Duration;

use super::board::TOTAL_STRIKES;
use super::policy::{GameReport, Policy, play_game};
use super::square::SQUARES;
use super::tile::RuleSet;

/// Mean with the half-width of its 95% confidence interval (normal
/// approximation, fine for the hundreds of games a run has).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Sample mean.
    pub mean: f64,
    /// Half-width of the 95% confidence interval.
    pub ci95: f64,
}

impl Estimate {
    /// The estimate from `samples`; zeros if there are none.
    pub fn of(samples: impl Iterator<Item = f64> + Clone) -> Estimate {
        let n = samples.clone().count() as f64;
        if n == 0.0 {
            return Estimate::default();
        }
        let mean = samples.clone().sum::<f64>() / n;
        if n < 2.0 {
            return Estimate { mean, ci95: 0.0 };
        }
        let variance = samples.map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Estimate {
            mean,
            ci95: 1.96 * (variance / n).sqrt(),
        }
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.2} ± {:.2}", self.mean, self.ci95)
    }
}

/// What a run of games came to.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The policy that played.
    pub policy: Policy,
    /// Number of games.
    pub games: usize,
    /// Strikes per game, out of 108.
    pub strikes: Estimate,
    /// Tiles removed per game, out of 36.
    pub removed: Estimate,
    /// Games that cleared the board.
    pub cleared: usize,
    /// Mean thinking time per decision.
    pub per_decision: Duration,
    /// Strikes of each game, in seed order, for paired comparisons.
    pub per_game: Vec<u32>,
}

/// Plays games `seed`, `seed + 1`, … `seed + games - 1` with `policy`,
/// spread over `threads` threads (the results do not depend on it).
pub fn run(seed: u64, games: usize, rules: RuleSet, policy: Policy, threads: usize) -> Summary {
    let threads = threads.clamp(1, games.max(1));
    let mut reports: Vec<(usize, GameReport)> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..games)
                        .step_by(threads)
                        .map(|i| (i, play_game(seed.wrapping_add(i as u64), rules, policy)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join().unwrap_or_else(|_| {
                    log::error!("a benchmark worker panicked; its games are missing");
                    Vec::new()
                })
            })
            .collect()
    });
    reports.sort_by_key(|(i, _)| *i);
    let reports: Vec<GameReport> = reports.into_iter().map(|(_, r)| r).collect();
    let decisions: u32 = reports.iter().map(|r| r.decisions).sum();
    let thinking: Duration = reports.iter().map(|r| r.thinking).sum();
    Summary {
        policy,
        games: reports.len(),
        strikes: Estimate::of(reports.iter().map(|r| f64::from(r.strikes))),
        removed: Estimate::of(reports.iter().map(|r| f64::from(r.tiles_removed))),
        cleared: reports.iter().filter(|r| r.cleared).count(),
        per_decision: thinking / decisions.max(1),
        per_game: reports.iter().map(|r| r.strikes).collect(),
    }
}

/// Mean and 95% interval of the per-game difference `a - b` over the same
/// seeds; pairing removes most of the board-to-board noise.
pub fn paired_difference(a: &[u32], b: &[u32]) -> Estimate {
    let diffs: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(x) - f64::from(y))
        .collect();
    Estimate::of(diffs.iter().copied())
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = 100.0 * self.cleared as f64 / self.games.max(1) as f64;
        writeln!(f, "policy          {}", self.policy.name())?;
        writeln!(f, "games           {}", self.games)?;
        writeln!(f, "mean strikes    {} / {TOTAL_STRIKES}", self.strikes)?;
        writeln!(f, "mean removed    {} / {SQUARES}", self.removed)?;
        writeln!(
            f,
            "fully cleared   {share:.1}% ({}/{})",
            self.cleared, self.games
        )?;
        write!(
            f,
            "time/decision   {:.1} µs",
            self.per_decision.as_secs_f64() * 1e6
        )
    }
}
