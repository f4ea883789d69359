//! Perft: counting the leaves of the legal move tree, the standard test
//! of a move generator. The last ply is counted by popcount, never played.

use super::moves::Move;
use super::position::Position;
use crate::search::MoveList;

/// Number of leaf positions `depth` plies below `pos`.
///
/// ```
/// use antichess::chess::{Position, Rules, perft};
/// assert_eq!(perft(&Position::startpos(Rules::Chess), 3), 8_902);
/// // Captures are compulsory in antichess: fewer lines from the start.
/// assert_eq!(perft(&Position::startpos(Rules::Antichess), 3), 8_067);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let promotions = pos.rules().promotions();
            let mut total = 0;
            pos.for_each_legal(|pm| {
                pm.for_each(promotions, |m| total += perft(&pos.play(m), depth - 1));
                false
            });
            total
        }
    }
}

/// Perft split by first move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| (m, perft(&pos.play(m), depth.saturating_sub(1))))
        .collect()
}
