//! The evaluation's weights: one table per rule set, in one place, so that
//! tuning (by hand, by self-play, or by a fit over labelled positions)
//! changes numbers here and nowhere else.
//!
//! For tuning runs only, the environment variable `ANTICHESS_EVAL` can
//! override antichess weights by name (`legal_moves=60,tempo=300,
//! burden.pawn=80`), read once at start-up: two engines in a match can then
//! differ by one weight without a rebuild (`proto:env ANTICHESS_EVAL=...
//! target/release/antichess`). Unset, the tables below are used as they are.

use super::rules::Rules;
use crate::search::{Score, overrides};
use once_cell::sync::Lazy;

/// Weights of the antichess evaluation (both rule sets), in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AntichessWeights {
    /// How much of a burden each man is, by kind (pawn, knight, bishop,
    /// rook, queen, king): the fewer men, the closer the goal.
    pub burden: [Score; 6],
    /// Taken off a man's burden when the opponent attacks it: it is on its
    /// way out.
    pub threatened: Score,
    /// Added for a pawn that cannot step forward: it can leave only by
    /// capturing.
    pub blocked_pawn: Score,
    /// Taken off a pawn's burden per rank advanced: it will soon be a
    /// queen, which is easily given away.
    pub pawn_rank: Score,
    /// Per quiet square a knight, bishop, rook or queen can reach (the
    /// places it can be offered on).
    pub mobility: Score,
    /// Per legal move of difference, both sides counted as if to move (a
    /// side that must capture has only its captures).
    pub legal_moves: Score,
    /// The legal-move difference counts up to this many moves either way,
    /// so that a side with many men cannot prefer its mobility to getting
    /// rid of them.
    pub legal_moves_cap: Score,
    /// Per empty square a non-king man can move to that the opponent
    /// attacks: each is a way to force a capture.
    pub offers: Score,
    /// For having the move.
    pub tempo: Score,
}

/// What the antichess evaluation counts in one position, each term the
/// side to move's count minus the opponent's: the evaluation is these terms
/// weighed by [`AntichessWeights`] (see [`AntichessTerms::score`]), and a
/// fit over labelled positions (`antichess tune`) reads the same terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AntichessTerms {
    /// Men by kind (pawn, knight, bishop, rook, queen, king).
    pub men: [i32; 6],
    /// Men other than the king that the opponent attacks.
    pub threatened: i32,
    /// Pawns that cannot step forward.
    pub blocked_pawns: i32,
    /// Ranks advanced, summed over pawns.
    pub pawn_ranks: i32,
    /// Quiet squares knights, bishops, rooks and queens can reach.
    pub mobility: i32,
    /// Empty squares a man can step to that the opponent attacks.
    pub offers: i32,
    /// Legal moves, both sides counted as if to move; `None` in check
    /// (the opponent's moves cannot be counted by passing).
    pub legal_moves: Option<i32>,
}

impl AntichessTerms {
    /// The evaluation of these terms for the side to move.
    #[inline]
    pub fn score(&self, w: &AntichessWeights) -> Score {
        let burden: Score = (0..6).map(|k| w.burden[k] * self.men[k]).sum::<Score>()
            - w.threatened * self.threatened
            + w.blocked_pawn * self.blocked_pawns
            - w.pawn_rank * self.pawn_ranks;
        let cap = w.legal_moves_cap;
        let moves = self
            .legal_moves
            .map_or(0, |diff| w.legal_moves * diff.clamp(-cap, cap));
        -burden + w.mobility * self.mobility + w.offers * self.offers + moves + w.tempo
    }
}

/// The 2002 rules (MIT 6.170, royal king, bare king wins).
pub const ANTICHESS_2002: AntichessWeights = AntichessWeights {
    burden: [90, 100, 110, 100, 95, 0],
    threatened: 15,
    blocked_pawn: 25,
    pawn_rank: 4,
    mobility: 20,
    legal_moves: 80,
    legal_moves_cap: 12,
    offers: 0,
    tempo: 400,
};

/// The 1994 rules: the same game without double steps; tuned together so
/// far.
pub const ANTICHESS_1994: AntichessWeights = ANTICHESS_2002;

/// Weights of the chess evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessWeights {
    /// Middlegame and endgame material by kind (king: 0).
    pub material: [(Score, Score); 6],
    /// Game-phase weight by kind; 24 is a full middlegame.
    pub phase: [i32; 6],
    /// Per square a piece attacks that its side does not occupy.
    pub mobility: (Score, Score),
    /// For two bishops or more.
    pub bishop_pair: (Score, Score),
    /// For having the move.
    pub tempo: Score,
}

/// Standard chess.
pub const CHESS: ChessWeights = ChessWeights {
    material: [
        (82, 100),
        (330, 300),
        (345, 315),
        (480, 530),
        (1000, 960),
        (0, 0),
    ],
    phase: [0, 1, 1, 2, 4, 0],
    mobility: (3, 2),
    bishop_pair: (30, 50),
    tempo: 10,
};

/// The antichess weights in force for `rules` (the table, or the tuning
/// override).
#[inline]
pub fn antichess(rules: Rules) -> &'static AntichessWeights {
    static TUNED: Lazy<[AntichessWeights; 2]> = Lazy::new(|| {
        let mut tables = [ANTICHESS_2002, ANTICHESS_1994];
        if let Ok(spec) = std::env::var("ANTICHESS_EVAL") {
            for table in &mut tables {
                if let Err(why) = apply(table, &spec) {
                    log::error!("ANTICHESS_EVAL ignored: {why}");
                    return [ANTICHESS_2002, ANTICHESS_1994];
                }
            }
            log::info!("antichess weights overridden: {:?}", tables[0]);
        }
        tables
    });
    &TUNED[usize::from(rules == Rules::Antichess1994)]
}

/// Applies `name=value,...` overrides to `weights`.
pub fn apply(weights: &mut AntichessWeights, spec: &str) -> Result<(), String> {
    const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    for (name, value) in overrides(spec)? {
        let slot = match name {
            "threatened" => &mut weights.threatened,
            "blocked_pawn" => &mut weights.blocked_pawn,
            "pawn_rank" => &mut weights.pawn_rank,
            "mobility" => &mut weights.mobility,
            "legal_moves" => &mut weights.legal_moves,
            "legal_moves_cap" => &mut weights.legal_moves_cap,
            "offers" => &mut weights.offers,
            "tempo" => &mut weights.tempo,
            other => {
                let kind = other
                    .strip_prefix("burden.")
                    .and_then(|k| KINDS.iter().position(|&n| n == k))
                    .ok_or_else(|| format!("unknown weight '{other}'"))?;
                &mut weights.burden[kind]
            }
        };
        *slot = value;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_by_name() {
        let mut w = ANTICHESS_2002;
        apply(&mut w, "legal_moves=60, tempo=300,burden.knight=120").unwrap();
        assert_eq!((w.legal_moves, w.tempo, w.burden[1]), (60, 300, 120));
        assert_eq!(w.burden[0], ANTICHESS_2002.burden[0]);
        assert!(apply(&mut w, "speed=3").is_err());
        assert!(apply(&mut w, "tempo").is_err());
        assert!(apply(&mut w, "tempo=x").is_err());
        assert!(apply(&mut w, "burden.emperor=1").is_err());
    }
}
