//! Match statistics: wins, draws and losses from the first engine's point
//! of view, the score, and the Elo difference with its 95% interval (the
//! normal approximation on the per-game scores, as match tools usually
//! report it).

use std::fmt;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

/// Games longer than this many plies that end on a flag are counted again
/// as draws in [`Flags::long_drawn`]: in antichess such games are usually
/// endings where neither side progressed, and the win says more about the
/// clock than about the play.
pub const LONG_GAME_PLIES: usize = 300;

/// Wins on time, kept apart from the rest of the tally.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// Wins on time of each player (first, second).
    pub wins: [u32; 2],
    /// Of those, the ones in games over [`LONG_GAME_PLIES`].
    pub long_wins: [u32; 2],
    /// The first player's tally with those long wins on time as draws.
    pub long_drawn: Tally,
}

impl Flags {
    /// Adds one game: the first player's `points`, who won it on time
    /// (`Some(0)` the first player, `Some(1)` the second) and its length.
    pub fn add(&mut self, points: f64, won_on_time_by: Option<usize>, plies: usize) {
        let long = plies > LONG_GAME_PLIES;
        match won_on_time_by {
            Some(player @ 0..=1) => {
                self.wins[player] += 1;
                self.long_wins[player] += u32::from(long);
                self.long_drawn.add(if long { 0.5 } else { points });
            }
            _ => self.long_drawn.add(points),
        }
    }
}

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games it won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games it lost.
    pub losses: u32,
}

/// An Elo difference and its 95% interval; infinite when one side scored
/// everything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// Half the width of the 95% interval (around the estimate, in Elo).
    pub margin: f64,
}

/// Elo difference for an expected score `p` in (0, 1).
fn elo_of(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

impl Tally {
    /// Adds one game: `points` 1, ½ or 0 for the first engine.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Its score as a fraction of the points played for; `None` before
    /// the first game.
    pub fn fraction(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The Elo difference; `None` before the first game.
    pub fn elo(&self) -> Option<Elo> {
        let p = self.fraction()?;
        let n = f64::from(self.games());
        if p <= 0.0 || p >= 1.0 {
            return Some(Elo {
                diff: if p <= 0.0 {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                margin: f64::INFINITY,
            });
        }
        let deviation = |x: f64, count: u32| f64::from(count) * (x - p) * (x - p);
        let variance =
            (deviation(1.0, self.wins) + deviation(0.5, self.draws) + deviation(0.0, self.losses))
                / n;
        let se = (variance / n).sqrt();
        // Keep the interval's ends inside (0, 1), where Elo is finite.
        let clamp = |x: f64| x.clamp(1e-6, 1.0 - 1e-6);
        let (low, high) = (clamp(p - Z95 * se), clamp(p + Z95 * se));
        Some(Elo {
            diff: elo_of(p),
            margin: (elo_of(high) - elo_of(low)) / 2.0,
        })
    }
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.diff.is_infinite() {
            let sign = if self.diff > 0.0 { "+" } else { "-" };
            return write!(f, "{sign}inf (one side scored every point)");
        }
        write!(f, "{:+.1} ± {:.1} (95%)", self.diff, self.margin)
    }
}

/// Elo from the pentanomial counts of game pairs: the pair scores' mean
/// and variance (each pair's two games are correlated by their opening,
/// which the per-game trinomial interval ignores), as fastchess and
/// fishtest report them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairElo {
    /// Logistic Elo and its 95% interval, `(estimate, low, high)`.
    pub elo: (f64, f64, f64),
    /// Normalised Elo (`(mu - 1/2) / sigma` of a game, times
    /// `800 / ln 10`) and its 95% interval.
    pub nelo: (f64, f64, f64),
    /// The likelihood that the first player is the stronger one.
    pub los: f64,
}

impl PairElo {
    /// The estimates for `counts` (pairs worth 0 to 4 half-points to the
    /// first player); `None` before the first pair, or while every pair
    /// scored the same (no variance).
    pub fn from_counts(counts: &[u64; 5]) -> Option<PairElo> {
        let n: u64 = counts.iter().sum();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let score = |i: usize| i as f64 / 4.0;
        let mu: f64 = (0..5).map(|i| counts[i] as f64 * score(i)).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| counts[i] as f64 * (score(i) - mu).powi(2))
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            return None;
        }
        let se = (var / n).sqrt();
        let elo = |p: f64| {
            if p <= 0.0 {
                f64::NEG_INFINITY
            } else if p >= 1.0 {
                f64::INFINITY
            } else {
                elo_of(p)
            }
        };
        let (lo, hi) = (mu - Z95 * se, mu + Z95 * se);
        // A game's deviation is √2 a pair's (two games, averaged).
        let sigma_game = (2.0 * var).sqrt();
        let nelo = |p: f64| (p - 0.5) / sigma_game * super::sprt::NELO_PER_T;
        Some(PairElo {
            elo: (elo(mu), elo(lo), elo(hi)),
            nelo: (nelo(mu), nelo(lo), nelo(hi)),
            los: normal_cdf((mu - 0.5) / se),
        })
    }
}

/// The standard normal distribution function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function to about 1e-15: the Taylor series of
/// erf near zero, a continued fraction of erfc further out.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        // erf x = 2/√π · Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum) = (x, x);
        for n in 1..200 {
            term *= -x * x / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return 1.0 - sum * std::f64::consts::FRAC_2_SQRT_PI;
    }
    if x > 27.0 {
        return 0.0;
    }
    // erfc x = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))),
    // evaluated from the tail.
    let mut tail = x;
    for k in (1..120).rev() {
        tail = x + (k as f64 / 2.0) / tail;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let elo = t.elo().unwrap();
        assert!(elo.diff.abs() < 1e-9);
        assert!(elo.margin > 100.0 && elo.margin < 200.0);
    }

    #[test]
    fn three_quarters_is_about_191() {
        let t = Tally {
            wins: 30,
            draws: 0,
            losses: 10,
        };
        assert!((t.elo().unwrap().diff - 190.85).abs() < 0.1);
        assert_eq!(t.points(), 30.0);
    }

    #[test]
    fn long_wins_on_time_count_as_draws() {
        let mut flags = Flags::default();
        flags.add(1.0, Some(0), LONG_GAME_PLIES + 1);
        flags.add(0.0, Some(1), 40);
        flags.add(1.0, None, 500);
        assert_eq!(flags.wins, [1, 1]);
        assert_eq!(flags.long_wins, [1, 0]);
        let expected = Tally {
            wins: 1,
            draws: 1,
            losses: 1,
        };
        assert_eq!(flags.long_drawn, expected);
    }

    #[test]
    fn a_clean_sweep_is_infinite() {
        let t = Tally {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert!(t.elo().unwrap().to_string().starts_with("+inf"));
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn the_normal_distribution_function_matches_tables() {
        // Values from any statistics table (Abramowitz and Stegun 26.2).
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-15);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-7);
        assert!((normal_cdf(-1.0) - 0.158_655_253_931_457).abs() < 1e-13);
        assert!((normal_cdf(3.0) - 0.998_650_101_968_370).abs() < 1e-13);
        assert!((normal_cdf(-4.0) - 3.167_124_183_311_99e-5).abs() < 1e-16);
    }

    #[test]
    fn pair_elo_of_an_even_match_is_zero() {
        let e = PairElo::from_counts(&[5, 20, 50, 20, 5]).unwrap();
        assert!(e.elo.0.abs() < 1e-9 && e.nelo.0.abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-12);
        assert!(e.elo.1 < 0.0 && e.elo.2 > 0.0);
        // A pair score of 0.75 every time has no variance, and no estimate.
        assert_eq!(PairElo::from_counts(&[0, 0, 0, 9, 0]), None);
        let e = PairElo::from_counts(&[0, 0, 10, 10, 0]).unwrap();
        // mu = 0.625: 400·log10(0.625/0.375) = 88.74 Elo.
        assert!((e.elo.0 - 88.739).abs() < 1e-3, "{e:?}");
        // sigma of a pair 0.125, of a game 0.125·√2: t = 1/√2, and nElo
        // is t times 800 / ln 10 = 347.4356.
        assert!((e.nelo.0 - 245.674_06).abs() < 1e-4, "{e:?}");
    }
}
