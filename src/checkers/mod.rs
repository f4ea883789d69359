//! Checkers (American rules, as in the CS61B Fall 2004 handout): the board,
//! move generation and perft, the handout's transcript notation, PDN FEN,
//! the game's referee, the evaluation that plugs into the shared search,
//! the machine player and two-program play over TCP.
//!
//! Front ends sit above and this module imports none of them: the
//! `checkers` program's command line and text interface are in
//! `src/play/checkers/`, its web page in `src/web/checkers.rs`. The
//! protocol layer and the front ends use the
//! re-exports below; the submodules are public for their error types and
//! helpers.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod net;
pub mod notation;
pub mod pdn;
pub mod player;
pub mod record;
pub mod transcript;

pub use board::{Color, Piece, Position, SetupError, Square};
pub use movegen::{Move, divide, perft};
pub use notation::{Action, MoveError, Score};
pub use pdn::FenError;
pub use player::{Seat, machine_seeds};
pub use record::{PlayError, Record};
pub use transcript::{TranscriptError, read_transcript, write_transcript};
