//! Score conventions shared by the tree search, the driver and the
//! transposition table.
//!
//! A decided game scores `MATE - ply` for the side that wins, `ply` being the
//! distance from the root to the position where the game ends, so the search
//! prefers the quickest win and the slowest loss whatever the game calls a
//! win (checkmate in chess, losing every man in antichess). Static
//! evaluations are clamped below [`MATE_BOUND`] so they can never be mistaken
//! for a decided result.

use super::game::{Outcome, Score};

/// Deepest ply the search ever reaches, extensions and quiescence included.
pub const MAX_PLY: usize = 128;

/// Score of a win at the root itself; wins further away score less.
pub const MATE: Score = 30_000;

/// Any score at least this large in magnitude is a forced result.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;

/// Larger than any score the search returns; the initial window edge.
pub const INFINITE: Score = MATE + 1;

/// Score of a drawn game.
pub const DRAW: Score = 0;

/// Score, for the side to move, of a game that ended with `outcome` at
/// distance `ply` from the root.
pub fn outcome_score(outcome: Outcome, ply: usize) -> Score {
    let distance = MATE - ply as Score;
    match outcome {
        Outcome::Win => distance,
        Outcome::Loss => -distance,
        Outcome::Draw => DRAW,
    }
}

/// Reversible plies in a row that are no sign of a stalled game: past
/// them a static evaluation fades (see [`faded`]).
pub const PATIENT_PLIES: u32 = 20;

/// `score` faded towards a draw by `plies` reversible plies in a row: by
/// half once `half_plies` have passed [`PATIENT_PLIES`], and no further.
/// The side ahead then prefers lines that make progress (a capture, a
/// pawn step), and the side behind lines that stall; 0 leaves the score.
pub fn faded(score: Score, plies: u32, half_plies: i32) -> Score {
    if half_plies <= 0 {
        return score;
    }
    let stalled = (plies.saturating_sub(PATIENT_PLIES) as i32).min(half_plies);
    score * (2 * half_plies - stalled) / (2 * half_plies)
}

/// Keeps a static evaluation strictly inside the range of forced results.
pub fn clamp_eval(score: Score) -> Score {
    score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// Whether `score` is a forced win or loss rather than an evaluation.
pub fn is_decisive(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Converts a score relative to the root into one relative to the current
/// node, as stored in the transposition table: a position reached at
/// different plies must store the same distance to the end of the game.
pub fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Inverse of [`to_tt`]: a stored score seen from a node at `ply`.
pub fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// A score as a protocol prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// An evaluation in centipawn-like units.
    Centipawns(Score),
    /// A forced result in this many moves (a move being two plies, rounded
    /// up); positive when the side to move wins, negative when it loses.
    Mate(i32),
}

impl ScoreKind {
    /// Classifies a search score; `Mate(n)` follows the UCI `score mate`
    /// convention.
    pub fn of(score: Score) -> ScoreKind {
        if !is_decisive(score) {
            return ScoreKind::Centipawns(score);
        }
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        ScoreKind::Mate(if score > 0 { moves } else { -moves })
    }
}

impl std::fmt::Display for ScoreKind {
    /// `cp <n>` or `mate <n>`, as in UCI `info` lines.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScoreKind::Centipawns(cp) => write!(f, "cp {cp}"),
            ScoreKind::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A score keeps its sign and fades only past the patient plies, by
    /// half at most; a fade of 0 plies leaves it alone.
    #[test]
    fn a_stalled_score_fades_towards_a_draw_by_half_at_most() {
        assert_eq!(faded(1000, PATIENT_PLIES, 100), 1000);
        assert_eq!(faded(1000, PATIENT_PLIES + 50, 100), 750);
        assert_eq!(faded(-1000, PATIENT_PLIES + 100, 100), -500);
        assert_eq!(faded(1000, 900, 100), 500);
        assert_eq!(faded(1000, 900, 0), 1000);
        let mut last = 800;
        for plies in 0..300 {
            let now = faded(800, plies, 60);
            assert!(now <= last && now >= 400, "{plies}: {now}");
            last = now;
        }
    }

    #[test]
    fn tt_round_trip_keeps_distance_to_the_end() {
        for ply in [0, 1, 7, 40] {
            for score in [0, 123, -456, MATE - 3, -(MATE - 60)] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
        // A win 5 plies below a node at ply 3 is stored as "5 from here".
        assert_eq!(to_tt(MATE - 8, 3), MATE - 5);
    }

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(ScoreKind::of(MATE - 1), ScoreKind::Mate(1));
        assert_eq!(ScoreKind::of(MATE - 4), ScoreKind::Mate(2));
        assert_eq!(ScoreKind::of(-(MATE - 2)), ScoreKind::Mate(-1));
        assert_eq!(ScoreKind::of(35), ScoreKind::Centipawns(35));
        assert_eq!(ScoreKind::of(-(MATE - 2)).to_string(), "mate -1");
    }

    #[test]
    fn evaluations_stay_below_forced_results() {
        assert!(!is_decisive(clamp_eval(Score::MAX)));
        assert!(!is_decisive(clamp_eval(Score::MIN)));
        assert!(is_decisive(outcome_score(Outcome::Loss, MAX_PLY)));
    }
}
