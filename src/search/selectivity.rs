//! Selectivity: which nodes and moves the tree search may cut short or
//! must look at deeper. Pruning before the moves (reverse futility, null
//! move), late-move pruning and reductions, and singular extensions, all
//! governed by [`SearchParams`](super::SearchParams) so that tuning can
//! switch each off; the tree in `tree.rs` asks, this module decides.

use super::correction::RawEval;
use super::game::{Game, MoveList, Score};
use super::ordering::{MovePicker, Scores};
use super::params::{SearchParams, params};
use super::score::{clamp_eval, is_decisive};
use super::tree::Tree;
use super::tt::{Bound, TtHit};

/// Late-move reduction, by remaining depth and move number.
pub(crate) struct Reductions([[u8; 64]; 64]);

impl Reductions {
    pub(crate) fn new() -> Self {
        let p = params();
        let (base, div) = (f64::from(p.lmr_base) / 100.0, f64::from(p.lmr_div) / 100.0);
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                let ln = (depth as f64).ln() * (index as f64).ln();
                *r = (base + ln / div).clamp(0.0, 63.0) as u8;
            }
        }
        Reductions(table)
    }

    fn get(&self, depth: i32, index: usize) -> i32 {
        i32::from(self.0[depth.clamp(0, 63) as usize][index.min(63)])
    }
}

/// What the pruning decisions of one node go by.
#[derive(Clone, Copy)]
pub(crate) struct Node<M> {
    pub(crate) ply: usize,
    /// Remaining depth, extensions and reductions of the node applied.
    pub(crate) depth: i32,
    pub(crate) beta: Score,
    pub(crate) in_check: bool,
    pub(crate) pv_node: bool,
    /// The node is on a principal variation, or the table says it was.
    pub(crate) tt_pv: bool,
    /// The parent expects this node to fail high.
    pub(crate) cut: bool,
    /// The move a singular-extension search leaves out here.
    pub(crate) excluded: Option<M>,
    /// The static evaluation, where pruning asked for it.
    pub(crate) eval: Option<Score>,
    /// The table's score and bound for the node, where `tt_refine` lets
    /// it refine the static evaluation.
    pub(crate) tt_bound: Option<(Score, Bound)>,
    /// The evaluation uncorrected, where correction history learns from
    /// the node.
    pub(crate) raw_eval: Option<RawEval>,
    /// The static evaluation beats the one two plies up (see
    /// [`SearchParams::rfp_improving`](super::SearchParams::rfp_improving)).
    pub(crate) improving: bool,
}

/// What decides a late move's reduction, besides the move.
#[derive(Clone, Copy)]
pub(crate) struct Late {
    pub(crate) ply: usize,
    pub(crate) depth: i32,
    /// The move's place in the node's order.
    pub(crate) index: usize,
    pub(crate) tactical: bool,
    /// The side to move is in check, or the move gives check.
    pub(crate) exempt: bool,
    pub(crate) pv_node: bool,
    /// The node is or was on a principal variation.
    pub(crate) tt_pv: bool,
    /// The node is an expected cut node.
    pub(crate) cut: bool,
    /// Every move at the node is tactical.
    pub(crate) forced: bool,
    /// The node is improving.
    pub(crate) improving: bool,
}

/// `eval`, or the table's score where its bound says the node is better
/// (a lower bound above `eval`) or worse (an upper bound below it): a
/// searched result says more than the static one. Decisive scores are
/// not used for pruning.
pub(crate) fn refined(eval: Score, tt_bound: Option<(Score, Bound)>) -> Score {
    match tt_bound {
        Some((score, bound))
            if !is_decisive(score)
                && ((score > eval && bound != Bound::Upper)
                    || (score < eval && bound != Bound::Lower)) =>
        {
            score
        }
        _ => eval,
    }
}

/// Whether every quiet node out of check wants its static evaluation:
/// correction history learns from it, the improving flag compares it.
fn evaluates_everywhere(p: &SearchParams) -> bool {
    p.uses_improving() || p.corrects()
}

impl<G: Game> Tree<'_, G> {
    /// The static evaluation of a node before the table is probed, where
    /// [`Tree::prune`] will want it whatever the table says: at every quiet
    /// node out of check when corrections or the improving flag are kept.
    /// Its work hides the wait for the table's entry.
    pub(super) fn early_eval(
        &self,
        pos: &G,
        moves: &[G::Move],
        ply: usize,
        in_check: bool,
    ) -> Option<(Score, Option<RawEval>)> {
        (evaluates_everywhere(&self.params)
            && !in_check
            && moves.iter().any(|&mv| !pos.is_tactical(mv)))
        .then(|| self.static_eval(pos, moves, ply))
    }

    /// Pruning before the moves: a score if the node can be cut at once
    /// (reverse futility, null move), else how many quiet moves to search
    /// before late-move pruning starts, and the node with its static
    /// evaluation where futility pruning of its moves may want it.
    /// `early` is what [`Tree::early_eval`] returned for the node.
    pub(super) fn prune(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        mut node: Node<G::Move>,
        early: Option<(Score, Option<RawEval>)>,
    ) -> Result<(usize, Node<G::Move>), Score> {
        let Node {
            ply,
            depth,
            beta,
            in_check,
            pv_node,
            cut,
            excluded,
            ..
        } = node;
        let p = self.params;
        // The static evaluation means something only where the side to
        // move may play a quiet move: with every move a compulsory capture
        // (or in check) the position is far from quiet. Only shallow nodes
        // prune, so only they pay for the look through the moves, unless
        // the improving flag wants the evaluation everywhere.
        // Futility asks for the evaluation where a move's reduced depth
        // can fall below `fp_depth`: reductions of up to 4 plies are
        // allowed for, past that the evaluation is not worth its cost.
        let fp_reach = if p.fp_depth > 0 { p.fp_depth + 4 } else { 0 };
        let shallow = !pv_node
            && excluded.is_none()
            && !in_check
            && !is_decisive(beta)
            && depth <= p.rfp_depth.max(p.lmp_depth).max(fp_reach);
        let track = p.uses_improving();
        let everywhere = evaluates_everywhere(&p);
        // Where every quiet node is evaluated, `early_eval` has looked for
        // a quiet move already: it evaluated exactly the nodes out of
        // check that have one.
        let has_quiet = if everywhere {
            early.is_some()
        } else {
            shallow && moves.iter().any(|&mv| !pos.is_tactical(mv))
        };
        let quiet_option = shallow && has_quiet;
        let wants_eval =
            (everywhere && has_quiet) || (quiet_option && depth <= p.rfp_depth.max(fp_reach));
        let evals = wants_eval.then(|| early.unwrap_or_else(|| self.static_eval(pos, moves, ply)));
        let eval = evals.map(|(corrected, _)| corrected);
        if excluded.is_none() {
            node.raw_eval = evals.and_then(|(_, raw)| raw);
        }
        if track {
            self.evals[ply] = eval;
            node.improving = self.improving(ply, eval);
        }
        let eval = eval.map(|eval| refined(eval, node.tt_bound));
        if let Some(eval) = eval.filter(|_| quiet_option) {
            // Reverse futility: so far above beta that no quiet reply of
            // the opponent's within a few plies will bring it back.
            let margin_plies = depth - p.rfp_improving * i32::from(node.improving);
            if depth <= p.rfp_depth && eval - p.rfp_margin * margin_plies >= beta {
                return Err(eval);
            }
            node.eval = Some(eval);
        }
        if !pv_node && excluded.is_none() && !in_check && depth >= 3 && !is_decisive(beta) {
            let tt_bound = node.tt_bound;
            let eval =
                || eval.unwrap_or_else(|| refined(clamp_eval(pos.evaluate_with(moves)), tt_bound));
            if let Some(score) = self.null_move(pos, eval, depth, beta, ply, cut) {
                return Err(score);
            }
            if self.control.stopped {
                return Err(0);
            }
        }
        let quiet_limit = if quiet_option && depth <= p.lmp_depth {
            let share = if node.improving { 100 } else { p.lmp_worsening };
            ((p.lmp_base + depth * depth) * share / 100) as usize
        } else {
            usize::MAX
        };
        Ok((quiet_limit, node))
    }

    /// Whether the node at `ply`, of static evaluation `eval`, is doing
    /// better than the last node of the same side to move with one (two
    /// plies up, else four); with neither, it is taken to be.
    fn improving(&self, ply: usize, eval: Option<Score>) -> bool {
        let Some(eval) = eval else { return false };
        let earlier = |back: usize| ply.checked_sub(back).and_then(|p| self.evals[p]);
        earlier(2)
            .or_else(|| earlier(4))
            .is_none_or(|before| eval > before)
    }

    /// Futility pruning of the quiet move at `index`: whether even a good
    /// gain on the static evaluation, by the depth the move would be
    /// searched to, leaves it at or below `alpha`.
    pub(super) fn futile(&self, node: Node<G::Move>, index: usize, alpha: Score) -> bool {
        let p = &self.params;
        let Some(eval) = node.eval else { return false };
        if p.fp_depth == 0 || index == 0 || is_decisive(alpha) {
            return false;
        }
        let lmr_depth = self.reduced_depth(node.depth, index).max(0);
        lmr_depth < p.fp_depth && eval + p.fp_base + p.fp_margin * lmr_depth <= alpha
    }

    /// The depth a late quiet move at `index` of a node of `depth` would
    /// be searched to after its reduction by the table.
    fn reduced_depth(&self, depth: i32, index: usize) -> i32 {
        depth - 1 - self.reductions.get(depth, index)
    }

    /// History pruning of the quiet move `mv` at `index`: whether its
    /// history is so bad that, this shallow, it is not worth a search.
    pub(super) fn hopeless(&self, pos: &G, node: Node<G::Move>, index: usize, mv: G::Move) -> bool {
        let margin = self.params.hist_prune;
        if margin == 0 || index == 0 || node.pv_node {
            return false;
        }
        self.reduced_depth(node.depth, index) < 4
            && self.heuristics.history(node.ply, pos.history_index(mv)) < -margin * node.depth
    }

    /// Whether a late quiet move may be pruned: not a killer, nor an offer.
    pub(super) fn prunable(&self, pos: &G, mv: G::Move, ply: usize) -> bool {
        !self.heuristics.is_killer(ply, mv) && !self.spared_offer(pos, mv)
    }

    /// ProbCut: at a node deep enough, a tactical move whose search 4
    /// plies shallower beats beta by a margin makes the node's full search
    /// all but sure to fail high too. In antichess this is the only
    /// pruning a node of compulsory captures can have: it offers neither
    /// a quiet move to judge by the evaluation nor a pass.
    pub(super) fn probcut(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hit: Option<TtHit>,
        node: Node<G::Move>,
    ) -> Option<Score> {
        let p = self.params;
        let Node {
            ply, depth, beta, ..
        } = node;
        if p.pc_depth == 0
            || depth < p.pc_depth
            || node.pv_node
            || node.in_check
            || node.excluded.is_some()
            || is_decisive(beta)
        {
            return None;
        }
        let pc_beta = beta + p.pc_margin;
        // The table has seen a search nearly as deep stay below it.
        if hit.is_some_and(|hit| hit.depth >= depth - 3 && hit.score < pc_beta) {
            return None;
        }
        let mut tactical: MoveList<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| pos.is_tactical(mv))
            .collect();
        let mut scores = Scores::new();
        let tt_move = hit.and_then(|hit| hit.mv);
        let picker = MovePicker::new(
            pos,
            &mut tactical,
            &mut scores,
            tt_move,
            self.ordering(),
            ply,
        );
        for mv in picker.take(p.pc_moves as usize) {
            let child = self.make(pos, mv);
            let check = child.in_check();
            self.record_move(pos, mv, ply);
            self.keys.push(child.key());
            // A null window at pc_beta, from the child's side; quiescence
            // first: most moves fail it, for far less.
            let (lo, hi) = (-pc_beta, -pc_beta + 1);
            let mut score = -self.quiesce(&child, lo, hi, ply + 1, 0, check);
            if score >= pc_beta {
                score = -self.negamax(&child, depth - 4, lo, hi, ply + 1, check, !node.cut);
            }
            self.keys.pop();
            if self.control.stopped {
                return None;
            }
            if score >= pc_beta {
                self.store(
                    (pos.key(), ply, depth - 3),
                    (score, Some(mv), node.tt_pv),
                    (pc_beta - 1, pc_beta),
                );
                return Some(if is_decisive(score) {
                    score
                } else {
                    score - p.pc_margin
                });
            }
        }
        None
    }

    /// Singular extension: whether the table's move is the only one that
    /// holds the table's score (it is then searched a ply deeper), found
    /// by searching the others at half depth against a lowered bound; or,
    /// as `Err`, a cutoff when even without it the node holds `beta`.
    /// The move comes with its extension: +1 when singular, or minus
    /// `se_negative` when it is not but the table's score beats `beta`.
    pub(super) fn singular(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        hit: Option<TtHit>,
        node: Node<G::Move>,
    ) -> Result<Option<(G::Move, i32)>, Score> {
        let Node {
            ply,
            depth,
            beta,
            in_check,
            excluded,
            ..
        } = node;
        let p = self.params;
        let Some(hit) = hit else { return Ok(None) };
        if p.se_depth == 0
            || depth < p.se_depth
            || ply == 0
            || ply >= self.extension_ply_limit
            || excluded.is_some()
            || moves.len() == 1 // nothing to single out (and extended unless extend_single=0)
            || hit.bound == Bound::Upper
            || hit.depth < depth - 3
            || is_decisive(hit.score)
        {
            return Ok(None);
        }
        let Some(&mv) = moves.iter().find(|&&mv| hit.mv == Some(G::pack(mv))) else {
            return Ok(None);
        };
        let singular_beta = hit.score - p.se_margin * depth;
        self.excluded[ply] = Some(mv);
        let score = self.negamax(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            in_check,
            node.cut,
        );
        self.excluded[ply] = None;
        if score < singular_beta {
            Ok(Some((mv, 1)))
        } else if singular_beta >= beta {
            // Two moves hold beta: the node will not fall below it.
            Err(singular_beta)
        } else if p.se_negative > 0 && hit.score >= beta {
            Ok(Some((mv, -p.se_negative)))
        } else {
            Ok(None)
        }
    }

    /// Plies to take off the null-window search of a late move: quiet
    /// moves by the table, less with good history; tactical ones only
    /// where every move is tactical, by a share of it.
    pub(super) fn reduction(&self, pos: &G, mv: G::Move, late: Late) -> i32 {
        if late.depth < 3 || late.index < self.params.lmr_index.max(1) as usize || late.exempt {
            return 0;
        }
        let table = self.reductions.get(late.depth, late.index);
        let reduction = if !late.tactical {
            if self.heuristics.is_killer(late.ply, mv) || self.spared_offer(pos, mv) {
                return 0;
            }
            let history = if self.params.lmr_history > 0 {
                let index = pos.history_index(mv);
                self.heuristics.history(late.ply, index) / self.params.lmr_history
            } else {
                0
            };
            let worsening = if late.improving || table == 0 {
                0
            } else {
                self.params.lmr_worsening
            };
            table - history + worsening + if late.cut { self.params.lmr_cut } else { 0 }
        } else if late.forced {
            table * self.params.lmr_forced / 100
        } else {
            return 0;
        };
        (reduction - i32::from(late.pv_node) - self.params.lmr_tt_pv * i32::from(late.tt_pv))
            .min(late.depth - 2)
            .max(0)
    }

    /// Whether quiet move `mv` compels the reply (in antichess: a man
    /// offered) and is to be spared pruning and reductions as a check is;
    /// Fairy-Stockfish spares such moves too. Asked last, only of moves
    /// that would otherwise be pruned or reduced: it is an attack test.
    fn spared_offer(&self, pos: &G, mv: G::Move) -> bool {
        self.params.spare_offers != 0 && pos.compels_reply(mv)
    }

    /// Null-move pruning: if passing still holds `beta` at reduced depth,
    /// a real move will too. Only when the game offers a pass and the
    /// static evaluation already holds `beta`.
    fn null_move(
        &mut self,
        pos: &G,
        eval: impl FnOnce() -> Score,
        depth: i32,
        beta: Score,
        ply: usize,
        cut: bool,
    ) -> Option<Score> {
        // Most games offer no pass; ask before paying for an evaluation.
        let null = pos.play_null()?;
        let eval = eval();
        if eval < beta {
            return None;
        }
        self.tt.prefetch(null.key());
        // A pass that leaves the side far above beta can be looked at
        // shallower still (`null_eval_div`; 0 divides nothing).
        let surplus = (eval - beta).checked_div(self.params.null_eval_div);
        let reduction = 3 + depth / 4 + surplus.map_or(0, |plies| plies.min(3));
        self.keys.push(null.key());
        self.moved[ply + 1] = 0;
        let score = -self.negamax(
            &null,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            null.in_check(),
            !cut,
        );
        self.keys.pop();
        // A forced result found after a pass proves nothing.
        (!self.control.stopped && score >= beta).then_some(if is_decisive(score) {
            beta
        } else {
            score
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MATE;

    #[test]
    fn the_table_refines_the_evaluation_only_where_its_bound_says_so() {
        let eval = 50;
        assert_eq!(refined(eval, None), eval);
        // A lower bound above the evaluation: the node is at least that good.
        assert_eq!(refined(eval, Some((120, Bound::Lower))), 120);
        assert_eq!(refined(eval, Some((120, Bound::Exact))), 120);
        // An upper bound above it says nothing.
        assert_eq!(refined(eval, Some((120, Bound::Upper))), eval);
        // An upper bound below it: the node is at most that good.
        assert_eq!(refined(eval, Some((-30, Bound::Upper))), -30);
        assert_eq!(refined(eval, Some((-30, Bound::Lower))), eval);
        // A mate found by the table is not a pruning margin.
        assert_eq!(refined(eval, Some((MATE - 10, Bound::Lower))), eval);
    }
}
