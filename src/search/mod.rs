//! Game-independent search: iterative deepening alpha-beta with a
//! transposition table, driven through the [`Game`] trait.
//!
//! A protocol builds a [`Searcher`] once per game type, sets [`Limits`]
//! for each move (depth for strength levels, a [`Clock`] for tournament
//! play, nodes for reproducible benchmarks) and calls [`Searcher::search`]
//! with a stop flag another thread may raise.

mod correction;
mod driver;
mod game;
mod limits;
mod ordering;
mod pages;
mod params;
mod score;
mod selectivity;
mod tree;
mod tt;
mod worker;

pub use driver::{Info, MAX_DEPTH, MAX_THREADS, SearchResult, Searcher};
pub use game::{
    CORRECTION_FEATURES, CorrectionKeys, Game, HISTORY_SIZE, MAX_MOVES, MoveList, Outcome, Score,
    mix_key,
};
pub use limits::{Clock, DEFAULT_MOVE_OVERHEAD, Horizons, Limits, TimeManager};
pub use params::{SearchParams, antichess_params, overrides, params};
pub use score::{DRAW, INFINITE, MATE, MATE_BOUND, MAX_PLY, ScoreKind, is_decisive};
pub use tt::{Bound, TranspositionTable, TtError, TtHit};
