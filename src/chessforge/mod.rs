//! ChessForge: a one-player puzzle on a 6x6 board of tiles, each with a
//! symbol and three hits. Every strike must follow the movement rule of
//! the symbol the previously struck tile had; the goal is to strike all
//! 108 hits off the board.
//!
//! This module owns the rules ([`Board`], [`rules`]), a seeded random
//! source ([`Rng`]), the board text form ([`text`]), the playing policies
//! and solver ([`policy`], [`solver`]) and the front ends behind the
//! `chessforge` binary ([`engine`], [`play`], [`bench`]).

pub mod board;
pub mod rng;
pub mod rules;
pub mod square;
pub mod text;
pub mod tile;

pub use board::{Board, BoardError, Strike, TOTAL_STRIKES};
pub use rng::Rng;
pub use rules::{Replacement, StrikeError};
pub use square::{ParseSquareError, Square, SquareSet};
pub use text::ParseBoardError;
pub use tile::{RuleSet, Symbol, Tile};
pub mod bench;
pub mod engine;
pub mod exact;
pub mod play;
pub mod policy;
pub mod solver;
