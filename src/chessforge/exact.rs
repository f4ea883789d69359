//! Exact expectimax for endgames: the true expected number of strikes
//! still to come, with every random replacement as a chance node weighing
//! each symbol of its pool equally.
//!
//! Only small positions are affordable, so the search carries a node
//! limit and gives up (returns `None`) past it; the solver then falls back
//! to Monte-Carlo. Positions repeat a great deal (the same tiles struck in
//! another order), so values are memoised per board.

use std::collections::HashMap;

use super::board::Board;
use super::rules::Replacement;
use super::square::Square;
use super::tile::Symbol;

/// An exact search with its memo and node limit.
pub struct Exact {
    memo: HashMap<Board, f64>,
    nodes: u64,
    limit: u64,
}

impl Exact {
    /// A search that gives up after expanding `limit` positions.
    pub fn new(limit: u64) -> Exact {
        Exact {
            memo: HashMap::new(),
            nodes: 0,
            limit,
        }
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of every legal strike on `board` (strikes from here
    /// to the end, that one included), best first; `None` past the limit.
    pub fn root(&mut self, board: &Board) -> Option<Vec<(Square, f64)>> {
        let mut values = Vec::new();
        for sq in ordered(board) {
            values.push((sq, self.strike_value(board, sq, f64::NEG_INFINITY)?));
        }
        values.sort_by(|a, b| b.1.total_cmp(&a.1));
        Some(values)
    }

    /// Expected strikes to the end from `board`, with best play.
    pub fn value(&mut self, board: &Board) -> Option<f64> {
        if let Some(&v) = self.memo.get(board) {
            return Some(v);
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        // Nobody can do better than strike every hit left: stop there.
        let ceiling = f64::from(board.hits_left());
        let mut best = 0.0;
        for sq in ordered(board) {
            let v = self.strike_value(board, sq, best)?;
            if v > best {
                best = v;
                if best >= ceiling {
                    break;
                }
            }
        }
        self.memo.insert(*board, best);
        Some(best)
    }

    /// Expected strikes from striking `sq` on, this one included. If it
    /// cannot beat `alpha`, a value not above `alpha` may be returned.
    fn strike_value(&mut self, board: &Board, sq: Square, alpha: f64) -> Option<f64> {
        let pool = match board.replacement(sq) {
            Some(Replacement::Drawn(pool)) => pool,
            Some(Replacement::Removed | Replacement::Wild) | None => {
                return Some(1.0 + self.value(&board.play(sq, Symbol::Wild))?);
            }
        };
        // After this strike at most `hits_left - 1` strikes remain.
        let ceiling = f64::from(board.hits_left()) - 1.0;
        let n = pool.len() as f64;
        let mut sum = 0.0;
        for (i, &symbol) in pool.iter().enumerate() {
            sum += self.value(&board.play(sq, symbol))?;
            // Star1-style cut: even perfect luck in the draws not yet
            // looked at would not lift this strike above alpha.
            let optimistic = 1.0 + (sum + ceiling * (n - 1.0 - i as f64)) / n;
            if optimistic <= alpha {
                return Some(optimistic);
            }
        }
        Some(1.0 + sum / n)
    }
}

/// Legal strikes, fullest tiles first: the order in which a full clear
/// (which stops the search at once) is most likely to turn up early.
fn ordered(board: &Board) -> Vec<Square> {
    let mut squares: Vec<Square> = board.targets().iter().collect();
    squares.sort_by_key(|&sq| std::cmp::Reverse(board.tile(sq).map_or(0, |t| t.hits())));
    squares
}
