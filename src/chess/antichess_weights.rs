//! The antichess evaluation's weights: one table per rule set, in one
//! place, so that tuning (by hand, by self-play, or by a fit over labelled
//! positions) changes numbers here and nowhere else; and the terms they
//! weigh, which `eval.rs` counts.
//!
//! For tuning runs only, the environment variable `ANTICHESS_EVAL` can
//! override weights by name (`legal_moves=60,opening.tempo=300,
//! burden.pawn=80,locked.man=150`), read once at start-up: two engines in a match can then
//! differ by one weight without a rebuild (`proto:env ANTICHESS_EVAL=...
//! target/release/antichess`). Unset, the tables below are used as they are.

use super::rules::Rules;
use super::types::PieceKind;
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
    /// Taken off a man's burden when the opponent attacks it and nothing
    /// of ours defends it, on top of `threatened`: taken, it is gone for
    /// nothing, where a defended one comes back as a recapture (the
    /// distinction Fairy-Stockfish's must-capture evaluation draws).
    pub loose: Score,
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
    /// Of those, the ones nothing of their own side defends.
    pub loose: i32,
    /// Pawns that cannot step forward.
    pub blocked_pawns: i32,
    /// Ranks advanced, summed over pawns.
    pub pawn_ranks: i32,
    /// Quiet squares knights, bishops, rooks and queens can reach.
    pub mobility: i32,
    /// Empty squares a man can step to that the opponent attacks.
    pub offers: i32,
    /// Men on the board, both sides and kings counted: how far the game is
    /// from its opening (32) towards a bare board; not a difference.
    pub men_on_board: i32,
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
            - w.loose * self.loose
            + w.blocked_pawn * self.blocked_pawns
            - w.pawn_rank * self.pawn_ranks;
        let cap = w.legal_moves_cap;
        let moves = self
            .legal_moves
            .map_or(0, |diff| w.legal_moves * diff.clamp(-cap, cap));
        -burden + w.mobility * self.mobility + w.offers * self.offers + moves + w.tempo
    }
}

/// The antichess evaluation's weights for one rule set: a table for the
/// full board of the opening and one for a bare board, blended by the men
/// left, because what a man or a move is worth changes as the board
/// empties (the fit over games says so: docs/strength-log.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AntichessEval {
    /// Weights with all 32 men on the board.
    pub opening: AntichessWeights,
    /// Weights with the kings alone.
    pub ending: AntichessWeights,
    /// Weights of the endings where a side is stuck (`locked.rs`), which
    /// replace the tables there.
    pub locked: LockedWeights,
}

/// Weights of the evaluation of endings where one side has nothing but
/// its king and immobile pawns (`locked.rs`), from the side that is not
/// stuck: it wins by feeding its men to the stuck king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockedWeights {
    /// For the side that is not stuck, before what it has still to do.
    pub base: Score,
    /// Per man it has still to feed (other than its king and immobile
    /// pawns).
    pub man: Score,
    /// Per square the stuck king stands beyond reach of the nearest
    /// immobile pawn it has to take last.
    pub king_steps: Score,
    /// Per square between the stuck king and each man still to be fed.
    pub feed_steps: Score,
}

/// The locked-ending weights of both rule sets: set by hand, and measured
/// by conversions of such endings against the anchor (docs/strength-log.md,
/// 2026-11-29, 98078ab).
const LOCKED: LockedWeights = LockedWeights {
    base: 1500,
    man: 100,
    king_steps: 60,
    feed_steps: 6,
};

impl LockedWeights {
    /// The weight called `name` (`base`, `man`, `king_steps`,
    /// `feed_steps`), if there is one.
    pub fn weight_mut(&mut self, name: &str) -> Option<&mut Score> {
        Some(match name {
            "base" => &mut self.base,
            "man" => &mut self.man,
            "king_steps" => &mut self.king_steps,
            "feed_steps" => &mut self.feed_steps,
            _ => return None,
        })
    }
}

/// Names of the locked-ending weights start with this (`locked.man`).
const LOCKED_PREFIX: &str = "locked.";

/// Men on the board when the game starts: the evaluation is all
/// `opening` there.
pub const FULL_BOARD: i32 = 32;

/// The tables' names, as a weight's name starts (`opening.tempo`), in the
/// order of [`AntichessEval`]'s fields.
pub const TABLES: [&str; 2] = ["opening", "ending"];

/// The table a qualified weight name is in, and the name within it.
fn split_table(name: &str) -> Option<(usize, &str)> {
    let (table, rest) = name.split_once('.')?;
    Some((TABLES.iter().position(|&t| t == table)?, rest))
}

impl AntichessEval {
    /// One table for the whole game.
    pub const fn flat(weights: AntichessWeights) -> Self {
        AntichessEval {
            opening: weights,
            ending: weights,
            locked: LOCKED,
        }
    }

    /// The evaluation of `terms` for the side to move.
    #[inline]
    pub fn score(&self, terms: &AntichessTerms) -> Score {
        let men = terms.men_on_board.clamp(0, FULL_BOARD);
        (terms.score(&self.opening) * men + terms.score(&self.ending) * (FULL_BOARD - men))
            / FULL_BOARD
    }

    /// The weight called `name`: one of [`TABLES`], a dot and a name
    /// [`AntichessWeights::weight_mut`] knows.
    pub fn weight_mut(&mut self, name: &str) -> Option<&mut Score> {
        if let Some(rest) = name.strip_prefix(LOCKED_PREFIX) {
            return self.locked.weight_mut(rest);
        }
        let (table, rest) = split_table(name)?;
        self.tables_mut().into_iter().nth(table)?.weight_mut(rest)
    }

    /// The tables in the order of [`TABLES`].
    fn tables_mut(&mut self) -> [&mut AntichessWeights; TABLES.len()] {
        [&mut self.opening, &mut self.ending]
    }

    /// The weight called `name`, if there is one.
    pub fn weight(&self, name: &str) -> Option<Score> {
        let mut copy = *self;
        copy.weight_mut(name).copied()
    }
}

/// The antichess weights with the kings alone (the ending's table); the
/// opening's differs only in its knights and bishops.
const ANTICHESS_ENDING: AntichessWeights = AntichessWeights {
    burden: [90, 100, 110, 100, 95, 0],
    threatened: 15,
    loose: 0,
    blocked_pawn: 25,
    pawn_rank: 4,
    mobility: 20,
    legal_moves: 80,
    legal_moves_cap: 12,
    offers: 0,
    tempo: 400,
};

/// The 2002 rules (MIT 6.170, royal king, bare king wins). In the opening
/// knights and bishops are worth keeping, not a burden: two fits (to game
/// results, and to the anchor's judgement) found it, and it scored +10.7
/// and +14.0 points in 200 games at 10 s against Fairy-Stockfish on two
/// sets of openings, each paired with the weights before
/// (docs/strength-log.md, 2026-11-25, c2d73dd and 995b8e2). Blended by the men left,
/// they stay worth keeping down to about 12 men, a burden below.
///
/// The legal-move difference counts up to 24 moves in the opening's table
/// (12 in the ending's, where the cap was made for the long endings):
/// with many men on the board a side that must capture with two moves
/// against the opponent's thirty is worse off than one with ten against
/// twenty-two. +12.0 points in 400 games at 10 s against Fairy-Stockfish
/// on two sets of openings, paired with the cap of 12 (2026-11-26, 5ee8905).
pub const ANTICHESS_2002: AntichessEval = AntichessEval {
    opening: AntichessWeights {
        legal_moves_cap: 24,
        ..KNIGHTS_AND_BISHOPS_KEPT
    },
    ending: ANTICHESS_ENDING,
    locked: LOCKED,
};

/// The opening's weights of both rule sets before the wider legal-move cap.
const KNIGHTS_AND_BISHOPS_KEPT: AntichessWeights = AntichessWeights {
    burden: [90, -173, -190, 100, 95, 0],
    ..ANTICHESS_ENDING
};

/// The 1994 rules: the same game without double steps, tuned together
/// with the 2002 rules until the wider legal-move cap, which was measured
/// at 2002 only.
pub const ANTICHESS_1994: AntichessEval = AntichessEval {
    opening: KNIGHTS_AND_BISHOPS_KEPT,
    ending: ANTICHESS_ENDING,
    locked: LOCKED,
};

/// The antichess weights in force for `rules` (the table, or the tuning
/// override).
#[inline]
pub fn antichess(rules: Rules) -> &'static AntichessEval {
    static TUNED: Lazy<[AntichessEval; 2]> = Lazy::new(|| {
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

impl AntichessWeights {
    /// The weight called `name` (as `ANTICHESS_EVAL` and `antichess tune`
    /// name them: `tempo`, `burden.knight`, ...), if there is one.
    pub fn weight_mut(&mut self, name: &str) -> Option<&mut Score> {
        let slot = match name {
            "threatened" => &mut self.threatened,
            "loose" => &mut self.loose,
            "blocked_pawn" => &mut self.blocked_pawn,
            "pawn_rank" => &mut self.pawn_rank,
            "mobility" => &mut self.mobility,
            "legal_moves" => &mut self.legal_moves,
            "legal_moves_cap" => &mut self.legal_moves_cap,
            "offers" => &mut self.offers,
            "tempo" => &mut self.tempo,
            other => {
                let kind = other
                    .strip_prefix("burden.")
                    .and_then(PieceKind::from_word)?;
                &mut self.burden[kind.index()]
            }
        };
        Some(slot)
    }

    /// The weight called `name`, if there is one.
    pub fn weight(&self, name: &str) -> Option<Score> {
        let mut copy = *self;
        copy.weight_mut(name).copied()
    }
}

/// The weights a name stands for, each with its table: `opening.tempo`
/// is itself, a bare `tempo` is the weight in both tables (the rule
/// `ANTICHESS_EVAL` and `antichess tune --fixed` share).
pub fn qualified(name: &str) -> Vec<String> {
    if split_table(name).is_some() || name.starts_with(LOCKED_PREFIX) {
        vec![name.to_string()]
    } else {
        TABLES.iter().map(|t| format!("{t}.{name}")).collect()
    }
}

/// Applies `name=value,...` overrides to `eval` (names as [`qualified`]
/// reads them).
pub fn apply(eval: &mut AntichessEval, spec: &str) -> Result<(), String> {
    // On a copy, so that a spec refused halfway changes nothing.
    let mut changed = *eval;
    for (name, value) in overrides(spec)? {
        for full in qualified(name) {
            *changed
                .weight_mut(&full)
                .ok_or_else(|| format!("unknown weight '{name}'"))? = value;
        }
    }
    *eval = changed;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_by_name() {
        let mut w = ANTICHESS_2002;
        apply(&mut w, "legal_moves=60, tempo=300,burden.knight=120").unwrap();
        assert_eq!((w.opening.legal_moves, w.ending.tempo), (60, 300));
        assert_eq!((w.opening.burden[1], w.ending.burden[1]), (120, 120));
        assert_eq!(w.opening.burden[0], ANTICHESS_2002.opening.burden[0]);
        apply(&mut w, "locked.man=150").unwrap();
        assert_eq!(w.locked.man, 150);
        assert!(apply(&mut w, "locked.tempo=1").is_err());
        apply(&mut w, "opening.tempo=7,ending.offers=-3").unwrap();
        assert_eq!(
            (w.opening.tempo, w.ending.tempo, w.ending.offers),
            (7, 300, -3)
        );
        assert!(apply(&mut w, "speed=3").is_err());
        assert!(apply(&mut w, "opening.speed=3").is_err());
        assert!(apply(&mut w, "tempo").is_err());
        assert!(apply(&mut w, "tempo=x").is_err());
        assert!(apply(&mut w, "burden.emperor=1").is_err());
        let before = w;
        assert!(apply(&mut w, "tempo=1,speed=3").is_err());
        assert_eq!(w, before);
    }

    #[test]
    fn a_bare_name_stands_for_both_tables() {
        assert_eq!(qualified("tempo"), ["opening.tempo", "ending.tempo"]);
        assert_eq!(qualified("ending.burden.pawn"), ["ending.burden.pawn"]);
        // A dot alone does not name a table.
        assert_eq!(
            qualified("burden.pawn"),
            ["opening.burden.pawn", "ending.burden.pawn"]
        );
    }

    #[test]
    fn tables_blend_by_men_on_board() {
        let mut eval = ANTICHESS_2002;
        apply(&mut eval, "opening.tempo=400,ending.tempo=0").unwrap();
        let mut terms = AntichessTerms::default();
        for (men, score) in [(32, 400), (16, 200), (2, 25), (40, 400)] {
            terms.men_on_board = men;
            assert_eq!(eval.score(&terms), score, "{men} men");
        }
        // One table for the whole game weighs every phase alike.
        let flat = AntichessEval::flat(ANTICHESS_2002.ending);
        for men in [2, 17, 32] {
            terms.men_on_board = men;
            assert_eq!(flat.score(&terms), terms.score(&flat.opening));
        }
    }
}
