//! Game-independent search: iterative deepening alpha-beta with a
//! transposition table, driven through the [`Game`] trait.

mod game;

pub use game::{Game, HISTORY_SIZE, MAX_MOVES, MoveList, Outcome, Score};
