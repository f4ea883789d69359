//! The searcher a protocol drives: it owns the long-lived tables
//! (transposition table, and per thread history, killers and the rest),
//! settles trivial roots (game over, a forced move under a clock), and runs
//! the iterative deepening of its workers: the main one, which honours the
//! limits and reports each completed iteration, and optional Lazy SMP
//! helpers that share the table with it.

use super::game::{Game, MoveList, Score};
use super::limits::{Limits, TimeManager};
use super::params::{DEFAULT, SearchParams};
use super::score::{MAX_PLY, outcome_score};
use super::selectivity::Reductions;
use super::tree::Control;
use super::tt::{TranspositionTable, TtError};
use super::worker::{Plan, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest iteration; leaves room below for extensions and quiescence.
pub const MAX_DEPTH: u32 = (MAX_PLY / 2) as u32;

/// Most search threads.
pub const MAX_THREADS: usize = 64;

/// Stack for helper threads: a few kilobytes per ply, with a wide margin.
const HELPER_STACK: usize = 8 << 20;

/// A completed iteration, as reported to the caller (UCI `info`).
#[derive(Clone, Copy, Debug)]
pub struct Info<'a, M> {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached, extensions and quiescence included.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// Nodes visited so far in this search.
    pub nodes: u64,
    /// Time since the search was requested.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: &'a [M],
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
}

impl<M> Info<'_, M> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is already over.
    pub best_move: Option<M>,
    /// Score for the side to move (from the game's outcome if it is over).
    pub score: Score,
    /// Depth of the last completed iteration; 0 if none completed (a
    /// forced move played at once, or an immediate stop).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time since the search was requested.
    pub elapsed: Duration,
    /// Principal variation, best move first.
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    fn empty() -> Self {
        SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        }
    }

    /// Nodes per second over the whole search.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// A reusable searcher for one game type.
///
/// Build it once (the hash allocation is the expensive part), then call
/// [`Searcher::search`] for every move. The search keeps a few kilobytes
/// per ply on the stack, so a thread that runs it needs at least 4 MiB.
pub struct Searcher<G: Game> {
    tt: TranspositionTable,
    reductions: Reductions,
    main: Worker<G::Move>,
    helpers: Vec<Worker<G::Move>>,
}

impl<G: Game> Searcher<G> {
    /// A single-threaded searcher with a transposition table of
    /// `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Result<Self, TtError> {
        Ok(Searcher {
            tt: TranspositionTable::new(hash_mib)?,
            reductions: Reductions::new(),
            main: Worker::new(),
            helpers: Vec::new(),
        })
    }

    /// Replaces the transposition table by a cleared one of `mib` MiB.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), TtError> {
        self.tt.resize(mib)
    }

    /// Searches with `threads` threads (clamped to 1..=[`MAX_THREADS`]).
    /// Only a single thread is deterministic.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        self.helpers.resize_with(helpers, Worker::new);
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        1 + self.helpers.len()
    }

    /// Forgets everything learnt (a new game). After this, a
    /// single-threaded search with the same position and depth or node
    /// limit visits exactly the same nodes, which `bench` relies on.
    pub fn clear(&mut self) {
        // DEFAULT keeps nothing from game to game: all is forgotten.
        const _: () = assert!(DEFAULT.corr_keep == 0);
        self.new_game(&DEFAULT);
    }

    /// A new game under `params`: as [`clear`](Self::clear), but for what
    /// `corr_keep` carries over.
    pub fn new_game(&mut self, params: &SearchParams) {
        self.tt.clear();
        self.main.new_game(params);
        for helper in &mut self.helpers {
            helper.new_game(params);
        }
    }

    /// The transposition table, for its size and fill.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Searches `root` within `limits`.
    ///
    /// ```
    /// use antichess::chess::{Position, Rules};
    /// use antichess::search::{Limits, Searcher};
    /// use std::sync::atomic::AtomicBool;
    /// let mut searcher = Searcher::<Position>::new(1)?;
    /// let pos = Position::startpos(Rules::Chess);
    /// let limits = Limits { nodes: Some(2_000), ..Limits::default() };
    /// let result = searcher.search(&pos, &[], &limits, &AtomicBool::new(false), |_| {});
    /// assert!(result.nodes <= 2_000 && result.best_move.is_some());
    /// # Ok::<(), antichess::search::TtError>(())
    /// ```
    ///
    /// `history` holds the keys of the positions played before `root`,
    /// oldest first (the root's own key may end it); repetitions of them
    /// count as draws. `stop` is polled during the search: another thread
    /// sets it to make the search return its best move so far. The search
    /// never clears it; the caller does, before starting. `on_iteration` is
    /// called after each iteration the main thread completes; its node
    /// counts are the main thread's, the result's include the helpers'.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let time = TimeManager::planned(limits, Instant::now(), root.search_params().horizons());
        let mut moves = MoveList::new();
        root.generate(&mut moves);
        let mut result = SearchResult {
            best_move: moves.first().copied(),
            ..SearchResult::empty()
        };
        if let Some(outcome) = root.outcome(&moves) {
            result.best_move = None;
            result.score = outcome_score(outcome, 0);
            return result;
        }
        // Until an iteration completes, the table's move is the best guess.
        let tt_move = self.tt.probe(root.key()).and_then(|hit| hit.mv);
        if let Some(&mv) = moves.iter().find(|&&mv| Some(G::pack(mv)) == tt_move) {
            result.best_move = Some(mv);
        }
        if moves.len() == 1 && limits.is_clock_managed() {
            log::debug!("single legal move, played at once");
            result.elapsed = time.elapsed(Instant::now());
            return result;
        }

        self.tt.new_search();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let plan = Plan {
            first_depth: 1,
            max_depth,
            time,
            clock_managed: limits.is_clock_managed(),
        };
        self.main.prepare(history, root.key());
        let control = Control::new(stop, time, limits.nodes);
        let shared = (&self.tt, &self.reductions);
        if self.helpers.is_empty() {
            self.main
                .iterate(shared, root, control, &plan, &mut result, &mut on_iteration);
        } else {
            let helper_nodes =
                run_with_helpers(&mut self.helpers, shared, root, history, &plan, || {
                    self.main
                        .iterate(shared, root, control, &plan, &mut result, &mut on_iteration);
                });
            result.nodes += helper_nodes;
        }
        result.elapsed = time.elapsed(Instant::now());
        log::debug!(
            "search done: depth {} score {} nodes {} in {:?}",
            result.depth,
            result.score,
            result.nodes,
            result.elapsed
        );
        result
    }
}

/// Runs `main` while the helpers search the same root, then stops them;
/// returns the nodes they visited. A helper whose thread cannot be started
/// is skipped: the search only gets weaker.
fn run_with_helpers<G: Game>(
    helpers: &mut [Worker<G::Move>],
    shared: (&TranspositionTable, &Reductions),
    root: &G,
    history: &[u64],
    plan: &Plan,
    main: impl FnOnce(),
) -> u64 {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (index, helper) in helpers.iter_mut().enumerate() {
            helper.prepare(history, root.key());
            let done = &done;
            let job = move || {
                // Odd helpers run a ply ahead, so threads spread over depths.
                let helper_plan = Plan {
                    first_depth: 1 + (index as u32 + 1) % 2,
                    max_depth: plan.max_depth,
                    time: TimeManager::new(&Limits::default(), Instant::now()),
                    clock_managed: false,
                };
                let control = Control::new(done, helper_plan.time, None);
                let mut result = SearchResult::empty();
                helper.iterate(
                    shared,
                    root,
                    control,
                    &helper_plan,
                    &mut result,
                    &mut |_| {},
                );
                result.nodes
            };
            let spawned = std::thread::Builder::new()
                .name(format!("search-{}", index + 1))
                .stack_size(HELPER_STACK)
                .spawn_scoped(scope, job);
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(err) => log::warn!("cannot start search helper {}: {err}", index + 1),
            }
        }
        main();
        done.store(true, Ordering::Relaxed);
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap_or(0))
            .sum()
    })
}
