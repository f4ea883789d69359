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
}
