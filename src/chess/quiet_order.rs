//! Antichess's prior on quiet moves: a small score added to a quiet move's
//! history, so that among moves history does not tell apart the order is
//! chosen rather than the generator's (king, pieces, pawns last). Late-move
//! pruning keeps only the first few quiet moves at shallow depths, so this
//! order decides which ones are searched at all.
//!
//! The default puts the king's moves last: a king walk is rarely the quiet
//! move that matters, and putting it behind the others gained about 45 Elo
//! against Fairy-Stockfish in paired games (docs/strength-log.md,
//! 2026-11-26, 79fa099 and 2026-11-27, ad733e2). A tuning run replaces the whole
//! prior by name in `ANTICHESS_ORDER` (`pawn=2,double=1,safe=1`; `king=0`
//! for none), read once at start-up.

use super::types::PieceKind;
use crate::search::overrides;
use once_cell::sync::Lazy;

/// The prior of a quiet move, by what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietOrder {
    /// By the kind of the man moved.
    pub kind: [i32; 6],
    /// A pawn's double step, on top of `kind`.
    pub double: i32,
    /// A move to a square the opponent does not attack (not an offer).
    pub safe: i32,
}

/// No prior: the generator's order among equal history.
pub const NONE: QuietOrder = QuietOrder {
    kind: [0; 6],
    double: 0,
    safe: 0,
};

/// The default prior: the king's moves after the other quiet moves of
/// equal history.
pub const DEFAULT: QuietOrder = QuietOrder {
    kind: [0, 0, 0, 0, 0, -1],
    double: 0,
    safe: 0,
};

/// The prior in force for antichess, if any (`DEFAULT` unless
/// `ANTICHESS_ORDER` names another): decided once, so that a node without
/// a prior pays one test a move.
#[inline]
pub fn antichess() -> Option<&'static QuietOrder> {
    static TUNED: Lazy<Option<QuietOrder>> = Lazy::new(|| {
        let Ok(spec) = std::env::var("ANTICHESS_ORDER") else {
            return Some(DEFAULT);
        };
        match parse(&spec) {
            Ok(order) => {
                log::info!("antichess quiet order overridden: {order:?}");
                (order != NONE).then_some(order)
            }
            Err(why) => {
                log::error!("ANTICHESS_ORDER ignored: {why}");
                Some(DEFAULT)
            }
        }
    });
    TUNED.as_ref()
}

fn parse(spec: &str) -> Result<QuietOrder, String> {
    let mut order = NONE;
    for (name, value) in overrides(spec)? {
        let slot = match name {
            "double" => &mut order.double,
            "safe" => &mut order.safe,
            word => {
                let kind = PieceKind::from_word(word)
                    .ok_or_else(|| format!("no quiet-order term '{word}'"))?;
                &mut order.kind[kind.index()]
            }
        };
        *slot = value;
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_rejects_others() {
        let order = parse("pawn=2, double=1,safe=-1").unwrap();
        assert_eq!((order.kind[0], order.double, order.safe), (2, 1, -1));
        assert!(parse("pawns=2").is_err());
        assert!(parse("pawn").is_err());
        assert_eq!(parse(""), Ok(NONE));
    }

    #[test]
    fn default_puts_only_the_king_last() {
        assert_eq!(DEFAULT.kind[PieceKind::King.index()], -1);
        assert_eq!(parse("king=-1"), Ok(DEFAULT));
    }
}
