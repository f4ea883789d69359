//! Match statistics: wins, draws and losses from the first engine's point
//! of view, the score, and the Elo difference with its 95% interval (the
//! normal approximation on the per-game scores, as match tools usually
//! report it).

use std::fmt;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_964;

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
    fn a_clean_sweep_is_infinite() {
        let t = Tally {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert!(t.elo().unwrap().to_string().starts_with("+inf"));
        assert_eq!(Tally::default().elo(), None);
    }
}
