//! Choosing a move: the level decides between the quick choices of
//! [`levels`](super::levels) and a search, and the `go` limits and clocks
//! become the search's limits.
//!
//! PLACEHOLDER until the generic search lands on main: a one-ply look
//! through the `Game` trait stands in for the searcher.

use super::command::Go;
use super::levels::{self, Level, Style};
use crate::chess::{Move, Position};
use crate::search::{Game, MoveList, Outcome};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Deepest search accepted (PLACEHOLDER for the search's own constant).
pub const MAX_DEPTH: u32 = 64;

/// Most search threads (PLACEHOLDER for the search's own constant).
pub const MAX_THREADS: usize = 64;

/// Why the thinker cannot be set up as asked.
#[derive(Debug)]
pub enum ThinkError {
    /// The transposition table cannot be allocated.
    Hash(String),
}

impl fmt::Display for ThinkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ThinkError::Hash(why) => write!(f, "cannot allocate the hash table: {why}"),
        }
    }
}

impl std::error::Error for ThinkError {}

/// One request for a move.
pub struct Job<'a> {
    /// The position to move in.
    pub position: &'a Position,
    /// Keys of the game's earlier positions, oldest first.
    pub history: &'a [u64],
    /// Limits and clocks.
    pub go: Go,
    /// Strength level.
    pub level: Level,
    /// Seed of the quick levels.
    pub seed: u64,
    /// When the command arrived: time limits count from here.
    pub arrived: Instant,
    /// Raised by the reader to end the search.
    pub stop: &'a AtomicBool,
}

/// The long-lived search state: the transposition table and its tables.
pub struct Thinker {
    hash_mib: usize,
    threads: usize,
}

impl Thinker {
    /// A thinker with a `hash_mib` MiB table, allocated now.
    pub fn new(hash_mib: usize) -> Result<Thinker, ThinkError> {
        Ok(Thinker {
            hash_mib,
            threads: 1,
        })
    }

    /// Replaces the table by one of `mib` MiB.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), ThinkError> {
        self.hash_mib = mib;
        Ok(())
    }

    /// Searches with `threads` threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Forgets what earlier games taught.
    pub fn new_game(&mut self) {}

    /// The move to play; `None` only if the game is over.
    pub fn think(&mut self, job: &Job<'_>) -> Option<Move> {
        log::debug!(
            "thinking with {} MiB, {} threads, {:?}",
            self.hash_mib,
            self.threads,
            job.go
        );
        match job.level.style() {
            style @ (Style::Random | Style::Forcing | Style::Careful) => {
                levels::quick_move(job.position, style, job.seed)
            }
            Style::Full | Style::Depth(_) => one_ply(job.position),
        }
    }
}

/// The placeholder search: the move after which the opponent's static
/// evaluation is lowest.
fn one_ply(pos: &Position) -> Option<Move> {
    let mut moves = MoveList::new();
    Game::generate(pos, &mut moves);
    moves.iter().copied().min_by_key(|&mv| {
        let after = Game::play(pos, mv);
        let mut replies = MoveList::new();
        Game::generate(&after, &mut replies);
        match after.outcome(&replies) {
            Some(Outcome::Loss) => i32::MIN,
            Some(Outcome::Win) => i32::MAX,
            Some(Outcome::Draw) => 0,
            None => after.evaluate(),
        }
    })
}
