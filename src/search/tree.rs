//! The tree search proper: principal variation search with null windows,
//! transposition-table cutoffs, null-move pruning where the game allows a
//! pass, late-move reductions, check and forced-move extensions, repetition
//! detection, and a quiescence search that fits forced-capture games.
//!
//! The quiescence rule is game-independent: the side to move may stand pat
//! only when it is not in check and has at least one quiet legal move. When
//! every legal move is tactical (in antichess and checkers: captures are
//! compulsory) all of them are searched, since declining is not an option;
//! only far below the horizon does a safety valve let the evaluation judge.
//!
//! Nothing here allocates: move lists live on the stack, the principal
//! variation in a table sized once, the key stack within reserved capacity.

use super::correction::Corrections;
use super::game::{Game, MoveList};
use super::limits::TimeManager;
use super::ordering::{Heuristics, MovePicker, OrderBy, Scores, Tried};
use super::params::SearchParams;
use super::score::{DRAW, INFINITE, MATE, MAX_PLY, clamp_eval, from_tt, outcome_score, to_tt};
use super::selectivity::{Late, Node, Reductions, refined};
use super::tt::{Bound, TranspositionTable, TtHit};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::game::Score;

/// Nodes between two looks at the stop flag and the clock.
const POLL_INTERVAL: u64 = 1024;

/// Decides when the search must stop: stop flag, node budget, hard deadline.
pub(crate) struct Control<'a> {
    stop: &'a AtomicBool,
    time: TimeManager,
    node_limit: u64,
    /// Nodes visited so far (main search and quiescence).
    pub(crate) nodes: u64,
    /// Set once a limit is hit; every result computed after is garbage.
    pub(crate) stopped: bool,
}

impl<'a> Control<'a> {
    pub(crate) fn new(stop: &'a AtomicBool, time: TimeManager, node_limit: Option<u64>) -> Self {
        Control {
            stop,
            time,
            node_limit: node_limit.unwrap_or(u64::MAX),
            nodes: 0,
            // Checked now, and the clock at the first poll: a search
            // started too late returns within 1024 nodes.
            stopped: stop.load(Ordering::Relaxed),
        }
    }

    /// Counts a node; true when the search must unwind.
    fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.stopped =
                self.stop.load(Ordering::Relaxed) || self.time.hard_expired(Instant::now());
        }
        self.stopped
    }
}

/// Triangular principal-variation table: line `ply` is the best line found
/// from the node at `ply`.
pub(crate) struct PvTable<M> {
    lines: Vec<[M; MAX_PLY + 1]>,
    lengths: [usize; MAX_PLY + 1],
}

impl<M: Copy + Default> PvTable<M> {
    pub(crate) fn new() -> Self {
        PvTable {
            lines: vec![[M::default(); MAX_PLY + 1]; MAX_PLY + 1],
            lengths: [0; MAX_PLY + 1],
        }
    }

    fn clear(&mut self, ply: usize) {
        self.lengths[ply] = 0;
    }

    /// `mv` followed by the child's line becomes the line at `ply`.
    fn update(&mut self, ply: usize, mv: M) {
        let child_len = self.lengths.get(ply + 1).copied().unwrap_or(0);
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = mv;
        let len = child_len.min(MAX_PLY);
        if let Some(child) = tail.first() {
            line[1..=len].copy_from_slice(&child[..len]);
        }
        self.lengths[ply] = len + 1;
    }

    /// The line from the node at `ply`.
    pub(crate) fn line(&self, ply: usize) -> &[M] {
        &self.lines[ply][..self.lengths[ply]]
    }
}

/// One search in progress, borrowing the searcher's long-lived tables.
pub(crate) struct Tree<'a, G: Game> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) heuristics: &'a mut Heuristics<G::Move>,
    /// The evaluation's errors learnt so far this game.
    pub(crate) corrections: &'a mut Corrections,
    pub(crate) pv: &'a mut PvTable<G::Move>,
    /// Keys of the game so far and of the current path; the last one is the
    /// current node's. Capacity is reserved for `MAX_PLY` more.
    pub(crate) keys: &'a mut Vec<u64>,
    pub(crate) reductions: &'a Reductions,
    /// Pruning margins and counts.
    pub(crate) params: SearchParams,
    pub(crate) control: Control<'a>,
    /// Deepest ply reached, quiescence included.
    pub(crate) seldepth: usize,
    /// Extensions stop below this ply, so forced sequences cannot run away.
    pub(crate) extension_ply_limit: usize,
    /// The score with which the root's line was last improved in the
    /// current iteration, if it was: an interrupted iteration can still
    /// yield a better move.
    pub(crate) root_improved: Option<Score>,
    /// Nodes the root's last move loop spent on the move it chose, and in
    /// all: a choice that took nearly all the effort is seldom overturned.
    pub(crate) root_effort: (u64, u64),
    /// Per ply, the move a singular-extension search leaves out.
    pub(crate) excluded: [Option<G::Move>; MAX_PLY + 1],
    /// Per ply, the static evaluation of the node on the current path,
    /// where the improving flag wants it (`None` in check, or where every
    /// move is tactical).
    pub(crate) evals: [Option<Score>; MAX_PLY + 1],
    /// Per ply, the history index of the move that led to the node on the
    /// current path, plus one; 0 at the root, after a pass and throughout
    /// where `corr_moves` is 0. What correction history keys its moves'
    /// features by.
    pub(crate) moved: [u16; MAX_PLY + 1],
}

impl<G: Game> Tree<'_, G> {
    /// Negamax value of `pos` searched `depth` plies deep, within
    /// `(alpha, beta)`; fail-soft. `in_check` is `pos.in_check()`; `cut`
    /// says the parent expects this node to fail high.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        in_check: bool,
        cut: bool,
    ) -> Score {
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, 0, in_check);
        }
        self.pv.clear(ply);
        if self.control.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            if self.is_repetition(pos) {
                return DRAW;
            }
            // Neither side can do better than deciding the game right here.
            alpha = alpha.max(-(MATE - ply as Score));
            beta = beta.min(MATE - ply as Score);
            if alpha >= beta {
                return alpha;
            }
            if let Some(score) = table_score(pos, ply) {
                return score;
            }
        }
        if ply >= MAX_PLY - 1 {
            return clamp_eval(pos.evaluate());
        }
        // The moves before the table, though a node the table settles
        // needs none: the generator's work hides the wait for the entry,
        // fetched when the move to here was made, and that wait cost more
        // than the moves of the settled nodes. (A node whose game is over
        // is never stored, so the order changes no score.) A search without
        // one move must not take the table's word for the node, nor leave
        // its own there.
        let mut moves = MoveList::new();
        if let Some(end) = legal_moves(pos, ply, &mut moves) {
            return end;
        }
        let early = self.early_eval(pos, &moves, ply, in_check);
        let excluded = self.excluded[ply];
        let (hit, settled) = self.probe(pos.key(), ply, depth, alpha, beta);
        if let (Some(score), None, true) = (settled, excluded, pos.end_is_positional()) {
            return score;
        }
        // A check or a forced move costs the opponent nothing to make, so
        // it must not use up depth (forced-capture games are full of both;
        // `extend_single` is how few moves count as forced, and the list
        // is not empty here: a side without moves has ended the game).
        let few = moves.len() <= self.params.extend_single.max(0) as usize;
        let check = in_check && depth >= self.params.check_ext_depth;
        let extend = (check || few) && ply < self.extension_ply_limit;
        let mut depth = depth + i32::from(extend);
        let tt_move = hit.and_then(|hit| hit.mv);
        // A node the table knows nothing of is rarely worth its full depth
        // (and this iteration will fill the table for the next).
        if self.params.iir_depth > 0 && depth >= self.params.iir_depth && tt_move.is_none() {
            depth -= 1;
        }
        let pv_node = beta - alpha > 1;
        let node = Node {
            ply,
            depth,
            beta,
            in_check,
            pv_node,
            // On a principal variation now or when the table last saw it.
            tt_pv: pv_node || hit.is_some_and(|hit| hit.pv),
            cut,
            excluded,
            eval: None,
            tt_bound: self.tt_bound(hit),
            raw_eval: None,
            improving: false,
        };
        let (quiet_limit, node) = match self.prune(pos, &moves, node, early) {
            Ok(pruned) => pruned,
            Err(score) => return score,
        };
        if let Some(score) = self.probcut(pos, &moves, hit, node) {
            return score;
        }
        let singular = match self.singular(pos, &moves, hit, node) {
            Ok(singular) => singular,
            Err(score) => return score,
        };
        if self.control.stopped {
            return 0;
        }
        let mut scores = Scores::new();
        let mut picker =
            MovePicker::new(pos, &mut moves, &mut scores, tt_move, self.ordering(), ply);
        self.search_moves(pos, &mut picker, node, (alpha, quiet_limit), singular)
    }

    /// The move loop of [`Tree::negamax`]: principal variation search with
    /// late-move pruning (after `quiet_limit` quiet moves) and reductions,
    /// the table's move extended as [`Tree::singular`] says; stores the
    /// result.
    fn search_moves(
        &mut self,
        pos: &G,
        picker: &mut MovePicker<G::Move>,
        node: Node<G::Move>,
        (mut alpha, quiet_limit): (Score, usize),
        singular: Option<(G::Move, i32)>,
    ) -> Score {
        let Node {
            ply, depth, beta, ..
        } = node;
        // Every move a compulsory capture: late ones may be reduced too.
        let forced = self.params.lmr_forced > 0
            && depth >= 3
            && !node.in_check
            && picker.moves().iter().all(|&mv| pos.is_tactical(mv));
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut tried = Tried::new(self.params.capture_history > 0);
        let pawns = picker.pawns();
        let loop_start = self.control.nodes;
        for (index, mv) in picker.enumerate() {
            if node.excluded == Some(mv) {
                continue;
            }
            let tactical = pos.is_tactical(mv);
            let late_quiet = !tactical
                && (tried.quiets.len() >= quiet_limit
                    || self.futile(node, index, alpha)
                    || self.hopeless(pos, node, index, mv));
            // A move likely to be pruned is played without fetching its
            // table entry: most are, and the fetch would only evict.
            let child = if late_quiet {
                pos.play(mv)
            } else {
                self.make(pos, mv)
            };
            let gives_check = child.in_check();
            if late_quiet && !gives_check && self.prunable(pos, mv, ply) {
                // Late-move and futility pruning: this far down a shallow
                // node's list, or this far below alpha, a quiet move
                // rarely refutes anything.
                continue;
            }
            if late_quiet {
                self.tt.prefetch(child.key());
            }
            let late = Late {
                ply,
                depth,
                index,
                tactical,
                exempt: node.in_check || gives_check,
                pv_node: node.pv_node,
                tt_pv: node.tt_pv,
                cut: node.cut,
                forced,
                improving: node.improving,
            };
            let reduction = if index == 0 {
                None
            } else {
                Some(self.reduction(pos, mv, late))
            };
            let extension = singular.filter(|&(m, _)| m == mv).map_or(0, |(_, e)| e);
            let new_depth = depth - 1 + extension;
            self.record_move(pos, mv, ply);
            let move_start = self.control.nodes;
            let score = self.search_child(&child, new_depth, reduction, (alpha, beta), node);
            if self.control.stopped {
                return 0;
            }
            if ply == 0 && score > alpha {
                self.root_effort.0 = self.control.nodes - move_start;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.pv.update(ply, mv);
                    if ply == 0 {
                        self.root_improved = Some(score);
                    }
                    if alpha >= beta {
                        let cutter = (mv, pos.history_index(mv), tactical);
                        self.heuristics.cutoff((ply, depth), cutter, &tried, pawns);
                        break;
                    }
                }
            }
            tried.remember(tactical, || pos.history_index(mv));
        }
        if ply == 0 {
            self.root_effort.1 = self.control.nodes - loop_start;
        }
        if node.excluded.is_some() {
            // Nothing but the left-out move: it is singular indeed.
            return if best == -INFINITE { alpha } else { best };
        }
        if let Some(raw) = node.raw_eval {
            self.learn_correction(pos, (raw, depth), (best, best_move), (original_alpha, beta));
        }
        self.store(
            (pos.key(), ply, depth),
            (best, best_move, node.tt_pv),
            (original_alpha, beta),
        );
        best
    }

    /// The score of `child` for the side to move at `ply`: the first move
    /// (`reduction` of `None`) with the full window; a later one with a
    /// null window, reduced, and searched again fully only if it beats
    /// `alpha`.
    ///
    /// Expected node types follow the usual scheme: a PV node's first
    /// child is a PV node, a cut node's first child an all node and the
    /// reduced searches of late moves cut nodes.
    fn search_child(
        &mut self,
        child: &G,
        new_depth: i32,
        reduction: Option<i32>,
        (alpha, beta): (Score, Score),
        node: Node<G::Move>,
    ) -> Score {
        let check = child.in_check();
        let ply = node.ply + 1;
        // The child's type when the parent's expectation holds.
        let flipped = !node.cut;
        self.keys.push(child.key());
        let score = match reduction {
            None => {
                let cut = flipped && !node.pv_node;
                -self.negamax(child, new_depth, -beta, -alpha, ply, check, cut)
            }
            Some(reduction) => {
                let reduced = new_depth - reduction;
                let mut score = -self.negamax(child, reduced, -alpha - 1, -alpha, ply, check, true);
                if score > alpha && reduction > 0 {
                    score =
                        -self.negamax(child, new_depth, -alpha - 1, -alpha, ply, check, flipped);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(child, new_depth, -beta, -alpha, ply, check, false);
                }
                score
            }
        };
        self.keys.pop();
        score
    }

    /// Quiescence search, `qply` plies below the horizon: only tactical
    /// moves, unless the side to move is in check or every legal move is
    /// tactical (then all of them).
    pub(super) fn quiesce(
        &mut self,
        pos: &G,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        qply: u32,
        in_check: bool,
    ) -> Score {
        self.pv.clear(ply);
        if self.control.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return clamp_eval(pos.evaluate());
        }
        if let Some(score) = table_score(pos, ply) {
            return score;
        }
        // The moves first, as in `negamax`, while the entry is on its way.
        let mut moves = MoveList::new();
        if let Some(end) = legal_moves(pos, ply, &mut moves) {
            return end;
        }
        // Past the safety valve the evaluation must judge even a position
        // with compulsory captures: chains of them can branch enough to
        // swamp the clock in antichess middlegames.
        let forced = in_check || moves.iter().all(|&mv| pos.is_tactical(mv));
        let stands = !forced || qply >= self.params.q_forced_plies as u32;
        let stand_pat = stands.then(|| self.static_eval(pos, &moves, ply).0);
        let key = pos.key();
        let (hit, settled) = self.probe(key, ply, 0, alpha, beta);
        if let (Some(score), true) = (settled, pos.end_is_positional()) {
            return score;
        }
        let tt_move = hit.and_then(|hit| hit.mv);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        if let Some(stand_pat) = stand_pat {
            best = refined(stand_pat, self.tt_bound(hit));
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            let offers = !forced && (qply as i32) < self.params.q_offers;
            moves.retain(|&mut mv| pos.is_tactical(mv) || (offers && pos.compels_reply(mv)));
        }

        let mut best_move = None;
        let mut scores = Scores::new();
        let picker = MovePicker::new(pos, &mut moves, &mut scores, tt_move, self.ordering(), ply);
        for mv in picker {
            let child = self.make(pos, mv);
            self.record_move(pos, mv, ply);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1, child.in_check());
            if self.control.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.pv.update(ply, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let tt_pv = hit.is_some_and(|hit| hit.pv);
        self.store(
            (key, ply, 0),
            (best, best_move, tt_pv),
            (original_alpha, beta),
        );
        best
    }

    /// Records in [`Tree::moved`] that `mv` was played in `pos` at `ply`,
    /// only where corrections by move are kept: every move made pays.
    #[inline]
    pub(super) fn record_move(&mut self, pos: &G, mv: G::Move, ply: usize) {
        if self.params.corr_moves != 0 {
            self.moved[ply + 1] = (pos.history_index(mv) + 1) as u16;
        }
    }

    /// `pos` after `mv`, the child's table entry on its way to the cache
    /// as early as the game can name it, so that the memory answers
    /// while the move is made.
    #[inline]
    pub(super) fn make(&self, pos: &G, mv: G::Move) -> G {
        let early = pos.key_after(mv);
        if let Some(key) = early {
            self.tt.prefetch(key);
        }
        let child = pos.play(mv);
        if early != Some(child.key()) {
            self.tt.prefetch(child.key());
        }
        child
    }

    /// What the move picker orders by.
    pub(super) fn ordering(&self) -> OrderBy<'_, G::Move> {
        OrderBy {
            heuristics: self.heuristics,
            capture_weight: self.params.capture_history,
            pawn_weight: self.params.pawn_history,
        }
    }

    /// Looks the node up: the entry (its score made relative to the
    /// root), and the stored score if it settles the window at this depth.
    /// Never settles a PV node, so that the principal variation stays
    /// whole.
    fn probe(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
    ) -> (Option<TtHit>, Option<Score>) {
        let Some(mut hit) = self.tt.probe(key) else {
            return (None, None);
        };
        hit.score = from_tt(hit.score, ply);
        let pv_node = beta - alpha > 1;
        let settles = !pv_node && hit.depth >= depth && cuts(hit.bound, hit.score, alpha, beta);
        (Some(hit), settles.then_some(hit.score))
    }

    /// The table's score and bound for refining a node's static
    /// evaluation ([`refined`]), where `tt_refine` asks for it.
    fn tt_bound(&self, hit: Option<TtHit>) -> Option<(Score, Bound)> {
        hit.filter(|_| self.params.tt_refine != 0)
            .map(|hit| (hit.score, hit.bound))
    }

    /// Records a node's fail-soft result `best`, its best move and whether
    /// it is on a principal variation, searched within `window` (alpha as
    /// it was before any move raised it, and beta).
    pub(super) fn store(
        &self,
        (key, ply, depth): (u64, usize, i32),
        (best, best_move, pv): (Score, Option<G::Move>, bool),
        (alpha, beta): (Score, Score),
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let result = TtHit {
            mv: best_move.map(G::pack),
            score: to_tt(best, ply),
            depth,
            bound,
            pv,
        };
        self.tt.store(key, result);
    }

    /// Whether `pos` (the last key on the stack) occurred before, with the
    /// same side to move, since the last irreversible move. One earlier
    /// occurrence is enough: if repeating was best once, it is a draw.
    fn is_repetition(&self, pos: &G) -> bool {
        let len = self.keys.len();
        let reach = (pos.reversible_plies() as usize).min(len.saturating_sub(1));
        let key = pos.key();
        (2..=reach)
            .step_by(2)
            .any(|back| self.keys[len - 1 - back] == key)
    }
}

/// Fills `moves` with the legal moves of `pos`; its score if the game is
/// over there. (Filled in place: a returned list of 256 moves was copied
/// whole, and the copies showed in profiles.)
fn legal_moves<G: Game>(pos: &G, ply: usize, moves: &mut MoveList<G::Move>) -> Option<Score> {
    pos.generate(moves);
    pos.outcome(moves)
        .map(|outcome| outcome_score(outcome, ply))
}

/// The exact score of `pos`, `ply` from the root, if an endgame table
/// knows it.
fn table_score<G: Game>(pos: &G, ply: usize) -> Option<Score> {
    pos.table_result()
        .map(|(outcome, plies)| outcome_score(outcome, ply + plies))
}

/// Whether a stored score with this bound settles the window.
fn cuts(bound: Bound, score: Score, alpha: Score, beta: Score) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}
