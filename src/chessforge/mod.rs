//! ChessForge: a one-player puzzle on a 6x6 board of tiles, each with a
//! symbol and three hits. Every strike must follow the movement rule of
//! the symbol the previously struck tile had; the goal is to strike all
//! 108 hits off the board.
//!
//! # Layout
//!
//! - [`square`]: squares (`c3`) and 36-bit square sets.
//! - [`tile`]: symbols, tiles (symbol + hits) and the two rule sets with
//!   their replacement pools.
//! - [`board`]: the position, a small `Copy` value: 36 optional tiles, the
//!   last strike and the rule set, plus cached occupancy and hit counts.
//! - [`rules`]: where the next strike may go (a compile-time table per
//!   symbol and square, masked by occupancy) and what a strike does to the
//!   struck tile (removed, wild, or a random draw).
//! - [`text`]: the one-line board text form and its typed parse errors.
//! - [`rng`](crate::rng): the seeded random source; a game is its seed.
//! - [`policy`]: random, greedy and heuristic play, and the game loop.
//! - [`solver`]: Monte-Carlo over the legal strikes with heuristic
//!   rollouts; [`exact`]: exact expectimax for small endgames.
//! - [`bench`](mod@bench), [`engine`], [`play`]: what the `chessforge` binary runs.
//!
//! # Chance
//!
//! The only randomness in the game is the symbol a struck tile takes. A
//! [`Board`] never holds a random source: [`Board::strike`] takes one,
//! [`Board::strike_as`] takes the symbol from outside (the engine protocol
//! lets a controller deal), and [`Board::replacement`] says beforehand what
//! kind of replacement a strike causes, which is how the searches build
//! their chance nodes. Keeping the deal outside the position is also what
//! lets the benchmark give every policy the same draws for the same seed.
//!
//! # Errors
//!
//! Nothing here panics on outside input: square names, board texts,
//! strikes and protocol lines are checked and refused with typed errors
//! ([`ParseSquareError`], [`ParseBoardError`], [`BoardError`],
//! [`StrikeError`]) whose messages say what was wrong and what is
//! expected instead.

pub mod bench;
pub mod board;
pub mod engine;
pub mod exact;
pub mod play;
pub mod policy;
pub mod rules;
pub mod solver;
pub mod square;
pub mod text;
pub mod tile;

pub use crate::rng::Xoshiro;
pub use board::{Board, BoardError, Strike, TOTAL_STRIKES};
pub use rules::{Replacement, StrikeError};
pub use square::{ParseSquareError, Square, SquareSet};
pub use text::ParseBoardError;
pub use tile::{RuleSet, Symbol, Tile};
