//! `antichess bench`: a fixed set of positions of every rule set, each
//! searched to a fixed depth from a cleared table on one thread. The
//! total node count is deterministic, so it is a signature of the search:
//! a change that should not alter the search must not alter it, and the
//! speed line measures the machine and the build.

use crate::chess::{Position, Rules};
use crate::search::{Limits, Searcher, TtError};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The default depth: a few seconds in a release build.
pub const DEFAULT_DEPTH: u32 = 9;

/// Table size of the benchmark, MiB: small, so that replacement is
/// exercised and the run does not depend on the machine's memory.
const HASH_MIB: usize = 16;

/// The positions: openings, middlegames and endgames of each rule set.
const POSITIONS: &[(Rules, &str)] = &[
    (
        Rules::Antichess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    (
        Rules::Antichess,
        "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2",
    ),
    (
        Rules::Antichess,
        "rn1qkb1r/p1p1pppp/5n2/3p4/8/2N1P3/PP1P1PPP/R1B1KBNR w - - 0 6",
    ),
    (Rules::Antichess, "8/5p2/2k5/8/8/1P6/4K3/R7 w - - 0 30"),
    (
        Rules::Antichess1994,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    ),
    (
        Rules::Antichess1994,
        "r1bqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/R1BQKBNR w - - 0 2",
    ),
    (Rules::Antichess1994, "4k3/pp6/8/8/8/8/5PPP/4K3 b - - 0 25"),
    (
        Rules::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Rules::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        Rules::Chess,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    ),
    (Rules::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (Rules::Chess, "8/8/8/4k3/8/8/2R5/4K3 w - - 0 1"),
];

/// What the benchmark measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

impl Summary {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// Searches every position to `depth`; `report` gets one line per
/// position. Must run on a thread with a few MiB of stack.
pub fn run(depth: u32, mut report: impl FnMut(&str)) -> Result<Summary, TtError> {
    let mut searcher = Searcher::<Position>::new(HASH_MIB)?;
    let stop = AtomicBool::new(false);
    let mut summary = Summary {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for &(rules, fen) in POSITIONS {
        let Ok(position) = Position::from_fen(fen, rules) else {
            // The table is fixed: a rejected entry is a bug caught by the
            // tests, not something a user can cause.
            report(&format!("skipped {rules} {fen}: not a valid position"));
            continue;
        };
        searcher.clear();
        let started = Instant::now();
        let result = searcher.search(&position, &[], &Limits::depth(depth), &stop, |_| {});
        summary.elapsed += started.elapsed();
        summary.nodes += result.nodes;
        let best = result
            .best_move
            .map_or("-".to_string(), |m| m.handout().to_string());
        report(&format!(
            "{:<13} {fen:<72} {:>10} nodes  best {best}",
            rules.name(),
            result.nodes
        ));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_valid_and_undecided() {
        for &(rules, fen) in POSITIONS {
            let pos = Position::from_fen(fen, rules).expect(fen);
            assert!(!pos.status().is_over(), "{fen}");
        }
    }

    #[test]
    fn the_node_count_is_deterministic() {
        let first = run(3, |_| {}).expect("16 MiB");
        let second = run(3, |_| {}).expect("16 MiB");
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > 0);
    }
}
