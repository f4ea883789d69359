//! antichess: a machine player for the board games of a family of course
//! projects (antichess, chess, checkers and the ChessForge puzzle).
//!
//! Each game family owns its rules and move generation in its own module;
//! the search is game-independent and sees a game only through
//! [`search::Game`]. Protocols, the referee and the front ends (the terminal
//! and the web board) sit on top; the binaries in `src/bin` and `src/main.rs` are thin.
//! docs/architecture.md draws the layers.
//!
//! # Example
//!
//! A position from FEN under the 2002 antichess rules, its legal moves,
//! perft, and a search to a fixed depth:
//!
//! ```
//! use antichess::chess::{Position, Rules, perft};
//! use antichess::search::{Limits, MoveList, Searcher};
//! use std::sync::atomic::AtomicBool;
//!
//! // 1.d4 e5: White must take.
//! let fen = "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 2";
//! let pos = Position::from_fen(fen, Rules::Antichess)?;
//!
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! let moves: Vec<String> = moves.iter().map(|m| m.handout().to_string()).collect();
//! assert_eq!(moves, ["d4-e5"]);
//!
//! assert_eq!(perft(&Position::startpos(Rules::Antichess), 3), 8_067);
//!
//! let mut searcher = Searcher::<Position>::new(16)?; // a 16 MiB table
//! let stop = AtomicBool::new(false);
//! let start = Position::startpos(Rules::Antichess);
//! let result = searcher.search(&start, &[], &Limits::depth(4), &stop, |_| {});
//! assert_eq!(result.depth, 4);
//! assert!(result.best_move.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod checkers;
pub mod chess;
pub mod chessforge;
pub mod cli;
pub mod engine;
pub mod play;
pub mod referee;
pub mod rng;
pub mod search;
pub mod seat;
pub mod tune;
pub mod web;
