//! Antichess's prior on quiet moves: a small score added to a quiet move's
//! history, so that among moves history does not tell apart the order is
//! chosen rather than the generator's (king, pieces, pawns last). Late-move
//! pruning keeps only the first few quiet moves at shallow depths, so this
//! order decides which ones are searched at all.
//!
//! For tuning runs, `ANTICHESS_ORDER` overrides it by name
//! (`pawn=2,double=1,safe=1`), read once at start-up.

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

impl QuietOrder {
    /// Whether any move gets a prior at all.
    pub fn is_active(&self) -> bool {
        *self != NONE
    }
}

/// The prior in force for antichess.
#[inline]
pub fn antichess() -> &'static QuietOrder {
    static TUNED: Lazy<QuietOrder> = Lazy::new(|| {
        let Ok(spec) = std::env::var("ANTICHESS_ORDER") else {
            return NONE;
        };
        match parse(&spec) {
            Ok(order) => {
                log::info!("antichess quiet order overridden: {order:?}");
                order
            }
            Err(why) => {
                log::error!("ANTICHESS_ORDER ignored: {why}");
                NONE
            }
        }
    });
    &TUNED
}

fn parse(spec: &str) -> Result<QuietOrder, String> {
    const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    let mut order = NONE;
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}` is not name=value"))?;
        let value: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("`{value}` is not a whole number"))?;
        let slot = match name.trim() {
            "double" => &mut order.double,
            "safe" => &mut order.safe,
            kind => {
                let index = KINDS
                    .iter()
                    .position(|&k| k == kind)
                    .ok_or_else(|| format!("no quiet-order term `{kind}`"))?;
                &mut order.kind[index]
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
        assert!(!parse("").unwrap().is_active());
    }
}
