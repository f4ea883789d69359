//! antichess: a machine player for the board games of a family of course
//! projects (antichess, chess, checkers and the ChessForge puzzle).
//!
//! Each game family owns its rules and move generation in its own module;
//! the search is game-independent and sees a game only through
//! [`search::Game`]. Protocols, the referee and the front ends (the terminal
//! and the web board) sit on top; the binaries in `src/bin` and `src/main.rs` are thin.

pub mod checkers;
pub mod chess;
pub mod chessforge;
pub mod cli;
pub mod engine;
pub mod play;
pub mod referee;
pub mod rng;
pub mod search;
pub mod tune;
pub mod web;
