//! One search thread's state and its iterative-deepening loop.
//!
//! A worker owns what must not be shared between threads (killers,
//! history, the principal-variation table, the key stack for repetitions)
//! and shares the transposition table. The main worker obeys the limits and
//! reports; helper workers (Lazy SMP) search the same root, some of them a
//! ply ahead, until the main worker is done, filling the table for it.

use super::correction::Corrections;
use super::driver::{Info, SearchResult};
use super::game::{Game, Score};
use super::limits::TimeManager;
use super::ordering::Heuristics;
use super::params::SearchParams;
use super::score::{INFINITE, MATE, MAX_PLY, is_decisive};
use super::selectivity::Reductions;
use super::tree::{Control, PvTable, Tree};
use super::tt::TranspositionTable;
use std::time::Instant;

/// Per-thread search state, kept between searches.
pub(crate) struct Worker<M> {
    heuristics: Heuristics<M>,
    corrections: Corrections,
    pv: PvTable<M>,
    keys: Vec<u64>,
}

/// How one worker iterates.
pub(crate) struct Plan {
    /// First iteration (helpers start some a ply deeper than the main one).
    pub(crate) first_depth: u32,
    /// Last iteration.
    pub(crate) max_depth: u32,
    /// Soft time management; helpers have none.
    pub(crate) time: TimeManager,
    /// Whether a clock governs the search (stop early on a forced result).
    pub(crate) clock_managed: bool,
}

impl<M: Copy + Default + Eq> Worker<M> {
    pub(crate) fn new() -> Self {
        Worker {
            heuristics: Heuristics::new(),
            corrections: Corrections::new(),
            pv: PvTable::new(),
            keys: Vec::with_capacity(1024),
        }
    }

    /// Forgets what a new game under `params` should not inherit.
    pub(crate) fn new_game(&mut self, params: &SearchParams) {
        self.heuristics.clear();
        self.corrections.new_game(params);
    }

    /// Readies the worker for a new root whose earlier positions are
    /// `history` (oldest first; the root's own key may end it).
    pub(crate) fn prepare(&mut self, history: &[u64], root_key: u64) {
        self.heuristics.new_search();
        self.keys.clear();
        self.keys.extend_from_slice(history);
        if self.keys.last() == Some(&root_key) {
            self.keys.pop();
        }
        self.keys.push(root_key);
        // The path never grows past MAX_PLY, so no push reallocates.
        self.keys.reserve(MAX_PLY + 2);
    }

    /// Iterative deepening from `root` until `plan` or `control` says stop.
    /// `result` holds the fallback move on entry and the answer on exit.
    pub(crate) fn iterate<G: Game<Move = M>>(
        &mut self,
        shared: (&TranspositionTable, &Reductions),
        root: &G,
        control: Control<'_>,
        plan: &Plan,
        result: &mut SearchResult<M>,
        on_iteration: &mut dyn FnMut(&Info<'_, M>),
    ) {
        let (tt, reductions) = shared;
        self.heuristics
            .keep_pawn_history(root.search_params().pawn_history != 0);
        let mut tree = Tree {
            tt,
            heuristics: &mut self.heuristics,
            corrections: &mut self.corrections,
            pv: &mut self.pv,
            keys: &mut self.keys,
            reductions,
            params: root.search_params(),
            control,
            seldepth: 0,
            extension_ply_limit: 0,
            root_improved: None,
            root_effort: (0, 0),
            excluded: [None; MAX_PLY + 1],
            evals: [None; MAX_PLY + 1],
            moved: [0; MAX_PLY + 1],
        };
        let in_check = root.in_check();
        let mut stability = Stability::default();
        for depth in plan.first_depth..=plan.max_depth {
            tree.root_improved = None;
            tree.extension_ply_limit = 2 * depth as usize;
            let score = aspiration(&mut tree, root, depth as i32, result.score, in_check);
            if tree.control.stopped {
                // A move that beat the window in the unfinished iteration
                // is at least as good as the last finished choice.
                if let Some(partial) = tree.root_improved {
                    adopt(result, tree.pv.line(0), partial);
                }
                break;
            }
            let previous = (result.best_move, result.score);
            adopt(result, tree.pv.line(0), score);
            if depth > plan.first_depth {
                stability.update(previous, (result.best_move, score));
            }
            result.depth = depth;
            result.seldepth = tree.seldepth as u32;
            result.nodes = tree.control.nodes;
            let now = Instant::now();
            result.elapsed = plan.time.elapsed(now);
            on_iteration(&Info {
                depth,
                seldepth: result.seldepth,
                score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: &result.pv,
                hashfull: tt.hashfull(),
            });
            let percent = stability.time_percent(&tree.params, tree.root_effort);
            if !plan.time.next_iteration_ok_scaled(now, percent) {
                break;
            }
            // A forced result well inside the horizon will not change.
            let plies_to_end = (MATE - score.abs()) as u32;
            if plan.clock_managed && is_decisive(score) && depth > plies_to_end + 2 {
                break;
            }
        }
        result.nodes = tree.control.nodes;
        result.seldepth = result.seldepth.max(tree.seldepth as u32);
    }
}

/// How settled the root's choice is, over the iterations so far: the
/// time manager spends more on a root whose best move keeps changing or
/// whose score is falling, and less on one settled for many iterations.
#[derive(Default)]
struct Stability {
    /// Recent changes of the best move, halved each iteration (in
    /// hundredths, so that the halving keeps some precision).
    changes: u32,
    /// Iterations in a row with the same best move.
    unchanged: u32,
    /// Whether the last iteration's score fell well below the one before.
    falling: bool,
}

/// A fall in the root's score, in evaluation units, that buys more time.
const FALLING_SCORE: Score = 100;

impl Stability {
    fn update<M: PartialEq>(&mut self, before: (Option<M>, Score), after: (Option<M>, Score)) {
        self.changes /= 2;
        if before.0 == after.0 {
            self.unchanged += 1;
        } else {
            self.changes += 100;
            self.unchanged = 0;
        }
        self.falling = after.1 < before.1 - FALLING_SCORE && !is_decisive(before.1);
    }

    /// The share of the time target to allow, in percent: `tm_settled`
    /// of it once the best move has held for a while, three quarters where
    /// the chosen move drew `tm_effort` percent of the root's last nodes
    /// (`best` of `all`, as [`Tree::root_effort`] counts them).
    fn time_percent(&self, params: &SearchParams, (best, all): (u64, u64)) -> u32 {
        let mut percent = 100 + self.changes * 6 / 10;
        if self.falling {
            percent += 40;
        }
        if self.unchanged >= 5 {
            percent = percent * params.tm_settled.clamp(1, 400) as u32 / 100;
        }
        let percent = percent.min(250);
        if params.tm_effort > 0 && best * 100 >= all.max(1) * params.tm_effort as u64 {
            percent * 3 / 4
        } else {
            percent
        }
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
    let mut delta = tree.params.aspiration;
    let (mut alpha, mut beta) = if depth >= 4 && !is_decisive(previous) {
        (previous - delta, previous + delta)
    } else {
        (-INFINITE, INFINITE)
    };
    loop {
        let score = tree.negamax(root, depth, alpha, beta, 0, in_check, false);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::DEFAULT;

    #[test]
    fn more_time_while_the_choice_changes_less_once_settled() {
        let mut s = Stability::default();
        assert_eq!(s.time_percent(&DEFAULT, (0, 0)), 100);
        s.update((Some(1), 0), (Some(2), 0));
        let changed = s.time_percent(&DEFAULT, (0, 0));
        assert!(changed > 100, "{changed}");
        s.update((Some(2), 0), (Some(2), -500));
        assert!(s.time_percent(&DEFAULT, (0, 0)) > 100 && s.falling);
        for _ in 0..8 {
            s.update((Some(2), 0), (Some(2), 0));
        }
        assert!(
            s.time_percent(&DEFAULT, (0, 0)) < 100,
            "{}",
            s.time_percent(&DEFAULT, (0, 0))
        );
        // A decisive score that changes is no reason to think longer.
        s.update((Some(2), MATE - 10), (Some(2), 0));
        assert!(!s.falling);
    }

    #[test]
    fn the_time_knobs_scale_the_share() {
        let mut s = Stability::default();
        for _ in 0..8 {
            s.update((Some(2), 0), (Some(2), 0));
        }
        let uncut = SearchParams {
            tm_settled: 100,
            ..DEFAULT
        };
        assert_eq!(s.time_percent(&DEFAULT, (0, 0)), 70);
        assert_eq!(s.time_percent(&uncut, (0, 0)), 100);
        // The nodes-effort cut: three quarters once the chosen move drew
        // the share, after the settled cut, and only where the knob is on.
        let effort = SearchParams {
            tm_effort: 90,
            ..DEFAULT
        };
        assert_eq!(s.time_percent(&effort, (95, 100)), 52);
        assert_eq!(s.time_percent(&effort, (89, 100)), 70);
        assert_eq!(s.time_percent(&DEFAULT, (100, 100)), 70);
    }
}
