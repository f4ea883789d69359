//! Checkers (American rules, as in the CS61B Fall 2004 handout): the board,
//! move generation and perft, the handout's transcript notation, PDN FEN,
//! the evaluation that plugs into the shared search, the text interface and
//! two-program play over TCP.
//!
//! The protocol layer and the `checkers` binary use the re-exports below;
//! the submodules are public for their error types and helpers.

pub mod board;
pub mod cli;
pub mod eval;
pub mod movegen;
pub mod net;
pub mod notation;
pub mod pdn;
pub mod player;
pub mod record;
pub mod session;
pub mod transcript;
pub mod ui;

pub use board::{Color, Piece, Position, SetupError, Square};
pub use movegen::{Move, divide, perft};
pub use notation::{Action, MoveError, Score};
pub use pdn::FenError;
pub use record::{PlayError, Record};
pub use transcript::{TranscriptError, read_transcript, write_transcript};
