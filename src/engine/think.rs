//! Choosing a move: the level decides between the quick choices of
//! [`levels`] and a search, and the `go` limits and the
//! clocks become the search's [`Limits`]. Written once for every game the
//! protocol plays: a thinker owns the searcher of one game.

use super::command::Go;
use super::levels::{self, Level, Quick, Style};
use crate::chess::Color;
use crate::search::{Clock, Info, Limits, SearchParams, Searcher, TtError};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One request for a move.
pub struct Job<'a, P> {
    /// The position to move in.
    pub position: &'a P,
    /// The side to move there, in the protocol's colours (whose clock
    /// counts).
    pub side: Color,
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

/// The long-lived search state: the searcher and its transposition table.
pub struct Thinker<P: Quick> {
    searcher: Searcher<P>,
    /// Whether the table holds anything: clearing 64 MiB takes a few
    /// milliseconds, which a `new` just before the first `move` should not
    /// cost.
    used: bool,
}

impl<P: Quick> Thinker<P> {
    /// A thinker with a `hash_mib` MiB table, allocated (and its pages
    /// touched) now rather than during the first move.
    pub fn new(hash_mib: usize) -> Result<Thinker<P>, TtError> {
        Ok(Thinker {
            searcher: Searcher::new(hash_mib)?,
            used: false,
        })
    }

    /// Replaces the table by a cleared one of `mib` MiB; on failure the
    /// old one is kept.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), TtError> {
        self.searcher.resize_hash(mib)
    }

    /// Searches with `threads` threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads);
    }

    /// Forgets what earlier games taught but what `params` keep
    /// (`corr_keep`, antichess's correction history): without it, a game
    /// replays the same way (single-threaded, without clocks).
    pub fn new_game(&mut self, params: &SearchParams) {
        if self.used {
            self.searcher.new_game(params);
            self.used = false;
        }
    }

    /// The move to play; `None` only if the game is over. `on_info` sees
    /// every completed iteration of a search.
    pub fn think(
        &mut self,
        job: &Job<'_, P>,
        on_info: &mut dyn FnMut(&Info<'_, P::Move>),
    ) -> Option<P::Move> {
        let mut limits = limits(&job.go, job.side, job.arrived);
        match job.level.style() {
            style @ (Style::Random | Style::Forcing | Style::Careful) => {
                return levels::quick_move(job.position, style, job.seed);
            }
            Style::Depth(depth) => {
                limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
            }
            Style::Full => {}
        }
        self.used = true;
        let result = self
            .searcher
            .search(job.position, job.history, &limits, job.stop, on_info);
        log::info!(
            "searched depth {} score {} nodes {} in {:?}",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed
        );
        result.best_move
    }
}

/// The search limits of `go` for the side to move `side`.
pub fn limits(go: &Go, side: Color, arrived: Instant) -> Limits {
    let mut limits = Limits {
        start: Some(arrived),
        ..Limits::default()
    };
    if go.infinite {
        return limits;
    }
    let ms = Duration::from_millis;
    let (time, increment) = match side {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    limits.clock = time.map(|time| Clock {
        remaining: ms(time),
        increment: ms(increment.unwrap_or(0)),
        moves_to_go: go.movestogo,
    });
    limits.movetime = go.movetime.map(ms);
    limits.depth = go.depth;
    limits.nodes = go.nodes;
    limits
}
