//! The searcher a protocol drives: it owns the long-lived tables
//! (transposition table, history, killers) and runs iterative deepening
//! with aspiration windows over [`Tree`], reporting each completed
//! iteration and honouring depth, node and time limits and a stop flag.

use super::game::{Game, MoveList, Score};
use super::limits::{Limits, TimeManager};
use super::ordering::Heuristics;
use super::score::{INFINITE, MATE, MAX_PLY, is_decisive, outcome_score};
use super::tree::{Control, PvTable, Reductions, Tree};
use super::tt::{TranspositionTable, TtError};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Deepest iteration; leaves room below for extensions and quiescence.
pub const MAX_DEPTH: u32 = (MAX_PLY / 2) as u32;

/// Half-width of the first aspiration window, in evaluation units.
const ASPIRATION_DELTA: Score = 25;

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
    /// Nodes per second over the whole search.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// A reusable searcher for one game type.
///
/// Build it once (the hash allocation is the expensive part), then call
/// [`Searcher::search`] for every move. Single-threaded; the search keeps
/// a few kilobytes per ply on the stack, so give a thread that runs it at
/// least 4 MiB.
pub struct Searcher<G: Game> {
    tt: TranspositionTable,
    heuristics: Heuristics<G::Move>,
    pv: PvTable<G::Move>,
    keys: Vec<u64>,
    reductions: Reductions,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Result<Self, TtError> {
        Ok(Searcher {
            tt: TranspositionTable::new(hash_mib)?,
            heuristics: Heuristics::new(),
            pv: PvTable::new(),
            keys: Vec::with_capacity(1024),
            reductions: Reductions::new(),
        })
    }

    /// Replaces the transposition table by a cleared one of `mib` MiB.
    pub fn resize_hash(&mut self, mib: usize) -> Result<(), TtError> {
        self.tt.resize(mib)
    }

    /// Forgets everything learnt (a new game). After this, a search with
    /// the same position and depth or node limit visits exactly the same
    /// nodes, which `bench` relies on.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// The transposition table, for its size and fill.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Searches `root` within `limits`.
    ///
    /// `history` holds the keys of the positions played before `root`,
    /// oldest first (the root's own key may end it); repetitions of them
    /// count as draws. `stop` is polled during the search: another thread
    /// sets it to make the search return its best move so far. The search
    /// never clears it; the caller does, before starting. `on_iteration` is
    /// called after each completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let time = TimeManager::new(limits, Instant::now());
        let mut moves = MoveList::new();
        root.generate(&mut moves);
        let mut result = SearchResult {
            best_move: moves.first().copied(),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
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
        self.heuristics.new_search();
        self.keys.clear();
        self.keys.extend_from_slice(history);
        if self.keys.last() == Some(&root.key()) {
            self.keys.pop();
        }
        self.keys.push(root.key());
        self.keys.reserve(MAX_PLY + 2);

        let mut tree = Tree {
            tt: &self.tt,
            heuristics: &mut self.heuristics,
            pv: &mut self.pv,
            keys: &mut self.keys,
            reductions: &self.reductions,
            control: Control::new(stop, time, limits.nodes),
            seldepth: 0,
            extension_ply_limit: 0,
            root_improved: None,
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let in_check = root.in_check();
        for depth in 1..=max_depth {
            tree.root_improved = None;
            tree.extension_ply_limit = 2 * depth as usize;
            let score = aspiration(&mut tree, root, depth as i32, result.score, in_check);
            if tree.control.stopped {
                // A move that beat the window in the unfinished iteration
                // is at least as good as the last finished choice.
                if let Some(partial) = tree.root_improved {
                    adopt(&mut result, tree.pv.line(0), partial);
                }
                break;
            }
            adopt(&mut result, tree.pv.line(0), score);
            result.depth = depth;
            result.seldepth = tree.seldepth as u32;
            result.nodes = tree.control.nodes;
            let now = Instant::now();
            result.elapsed = time.elapsed(now);
            on_iteration(&Info {
                depth,
                seldepth: result.seldepth,
                score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: &result.pv,
                hashfull: tree.tt.hashfull(),
            });
            if !time.next_iteration_ok(now) {
                break;
            }
            // A forced result well inside the horizon will not change.
            let plies_to_end = (MATE - score.abs()) as u32;
            if limits.is_clock_managed() && is_decisive(score) && depth > plies_to_end + 2 {
                break;
            }
        }
        result.nodes = tree.control.nodes;
        result.seldepth = result.seldepth.max(tree.seldepth as u32);
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

/// Takes `line` (if not empty) and `score` as the search's answer.
fn adopt<M: Copy>(result: &mut SearchResult<M>, line: &[M], score: Score) {
    if let Some(&first) = line.first() {
        result.best_move = Some(first);
        result.pv.clear();
        result.pv.extend_from_slice(line);
        result.score = score;
    }
}

/// One iteration: a narrow window around the previous score, widened on
/// each failure until the score falls inside it.
fn aspiration<G: Game>(
    tree: &mut Tree<'_, G>,
    root: &G,
    depth: i32,
    previous: Score,
    in_check: bool,
) -> Score {
    let mut delta = ASPIRATION_DELTA;
    let (mut alpha, mut beta) = if depth >= 4 && !is_decisive(previous) {
        (previous - delta, previous + delta)
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let score = tree.negamax(root, depth, alpha, beta, 0, in_check);
        if tree.control.stopped {
            return score;
        }
        if score <= alpha && alpha > -INFINITE {
            // Fail low: keep the upper side close, the score is dropping.
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta && beta < INFINITE {
            beta = (score + delta).min(INFINITE);
        } else {
            return score;
        }
        delta += delta;
    }
}
