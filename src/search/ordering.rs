//! Move ordering: the transposition-table move, then tactical moves by the
//! game's victim/attacker key (and, where the game's parameters ask, their
//! own history), then killer moves, then quiet moves by history (and, where
//! asked, by their history over the same pawns); and the tables behind
//! killers and the histories.
//!
//! Moves are scored once per node and picked by partial selection sort, so a
//! node that cuts off after its first move never sorts the rest.

use super::game::{Game, HISTORY_SIZE, MAX_MOVES, MoveList, mix_key};
use super::score::MAX_PLY;
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
/// History scores stay within this magnitude (gravity formula).
const HISTORY_MAX: i32 = 1 << 14;
/// Pawn structures the pawn history tells apart, by their key's bits;
/// others share a slot. Two bytes a move each: 2 MiB a searcher.
const PAWN_SLOTS: usize = 256;

/// Killer moves per ply and history scores per side to move. Owned by the
/// searcher and kept between searches of one game.
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    /// Indexed by `side * HISTORY_SIZE + Game::history_index`, where the
    /// side is the parity of the ply: the search only needs to keep the two
    /// players apart, not to know their colours.
    history: Vec<i32>,
    /// The same for tactical moves, kept apart: in forced-capture games
    /// most nodes offer nothing but captures, and which of them refutes
    /// is learnt as a quiet move's worth is.
    captures: Vec<i32>,
    /// Quiet moves' history by the pawns on the board
    /// ([`Heuristics::pawn_base`] plus the move's history index): the
    /// key tells the sides apart, so the ply's parity is not wanted.
    /// Empty unless the game's parameters keep one (`pawn_history`):
    /// 2 MiB a searcher otherwise spent on nothing.
    pawns: Vec<i16>,
}

impl<M: Copy + Eq> Heuristics<M> {
    pub(crate) fn new() -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SIZE],
            captures: vec![0; 2 * HISTORY_SIZE],
            pawns: Vec::new(),
        }
    }

    /// Forgets everything (a new game, or a reproducible benchmark).
    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.captures.fill(0);
        self.pawns.fill(0);
    }

    /// Holds a pawn history, empty at first, exactly while the search's
    /// parameters keep one.
    pub(crate) fn keep_pawn_history(&mut self, keep: bool) {
        if !keep {
            self.pawns = Vec::new();
        } else if self.pawns.is_empty() {
            self.pawns = vec![0; PAWN_SLOTS * HISTORY_SIZE];
        }
    }

    /// Prepares for a new search from a new root: killers refer to plies
    /// of the old tree and go; history keeps half its weight (the pawn
    /// history all of it: a structure recurs seldom, and only in one
    /// stretch of the game).
    pub(crate) fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        for h in self.history.iter_mut().chain(&mut self.captures) {
            *h /= 2;
        }
    }

    pub(crate) fn is_killer(&self, ply: usize, mv: M) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    fn history_slot(ply: usize, index: usize) -> usize {
        (ply & 1) * HISTORY_SIZE + index.min(HISTORY_SIZE - 1)
    }

    pub(crate) fn history(&self, ply: usize, index: usize) -> i32 {
        self.history[Self::history_slot(ply, index)]
    }

    /// Where the pawn history of `pos`'s pawns (its first correction
    /// key, which holds the side to move) starts.
    pub(crate) fn pawn_base<G: Game>(pos: &G) -> PawnBase {
        let slot = mix_key(pos.correction_keys()[0]) as usize & (PAWN_SLOTS - 1);
        PawnBase(slot * HISTORY_SIZE)
    }

    fn pawn_slot(base: PawnBase, index: usize) -> usize {
        base.0 + index.min(HISTORY_SIZE - 1)
    }

    /// Zero where no pawn history is kept.
    pub(crate) fn pawn_history(&self, base: PawnBase, index: usize) -> i32 {
        self.pawns
            .get(Self::pawn_slot(base, index))
            .map_or(0, |&h| i32::from(h))
    }

    fn nudge_pawns(&mut self, base: PawnBase, index: usize, bonus: i32) {
        let Some(slot) = self.pawns.get_mut(Self::pawn_slot(base, index)) else {
            return;
        };
        let mut h = i32::from(*slot);
        nudge(&mut h, bonus);
        // The gravity formula keeps it within ±HISTORY_MAX, well inside i16.
        *slot = h as i16;
    }

    /// A quiet move caused a cutoff at `ply` after the quiet moves in
    /// `tried` (history indices) failed: reward it, punish them, in the
    /// pawn history too where the node keeps one (`pawns`).
    pub(crate) fn quiet_cutoff(
        &mut self,
        (ply, depth): (usize, i32),
        (mv, index): (M, usize),
        tried: &[usize],
        pawns: Option<PawnBase>,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = cutoff_bonus(depth);
        self.nudge(ply, index, bonus);
        for &other in tried {
            self.nudge(ply, other, -bonus);
        }
        if let Some(base) = pawns {
            self.nudge_pawns(base, index, bonus);
            for &other in tried {
                self.nudge_pawns(base, other, -bonus);
            }
        }
    }

    pub(crate) fn capture_history(&self, ply: usize, index: usize) -> i32 {
        self.captures[Self::history_slot(ply, index)]
    }

    /// A move caused a cutoff at `ply` after the tactical moves in `tried`
    /// (history indices) failed: punish them, and reward the move if it is
    /// tactical too (`index`).
    pub(crate) fn tactical_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        index: Option<usize>,
        tried: &[usize],
    ) {
        let bonus = cutoff_bonus(depth);
        if let Some(index) = index {
            nudge(&mut self.captures[Self::history_slot(ply, index)], bonus);
        }
        for &other in tried {
            nudge(&mut self.captures[Self::history_slot(ply, other)], -bonus);
        }
    }

    /// The move `mv` (history `index`) cut off at `ply` after the moves
    /// in `tried` failed; `pawns`, the node's pawn history if kept.
    pub(crate) fn cutoff(
        &mut self,
        (ply, depth): (usize, i32),
        (mv, index, tactical): (M, usize, bool),
        tried: &Tried,
        pawns: Option<PawnBase>,
    ) {
        if !tactical {
            self.quiet_cutoff((ply, depth), (mv, index), &tried.quiets, pawns);
        }
        if tried.own_history {
            self.tactical_cutoff(ply, depth, tactical.then_some(index), &tried.tacticals);
        }
    }

    fn nudge(&mut self, ply: usize, index: usize, bonus: i32) {
        nudge(&mut self.history[Self::history_slot(ply, index)], bonus);
    }
}

/// Where one pawn structure's slots start in the pawn history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PawnBase(usize);

/// What the move picker orders by: the histories, how much a tactical
/// move's own history counts (256ths) and how much the pawn history
/// (percent; 0: not kept).
#[derive(Clone, Copy)]
pub(crate) struct OrderBy<'h, M> {
    pub(crate) heuristics: &'h Heuristics<M>,
    pub(crate) capture_weight: i32,
    pub(crate) pawn_weight: i32,
}

/// The history indices of the moves a node has searched without a cutoff,
/// quiet and tactical apart, for the punishment when a later one cuts off.
pub(crate) struct Tried {
    pub(crate) quiets: ArrayVec<usize, 64>,
    tacticals: ArrayVec<usize, 64>,
    /// Tactical moves have a history of their own (`capture_history`).
    own_history: bool,
}

impl Tried {
    pub(crate) fn new(own_history: bool) -> Self {
        Tried {
            quiets: ArrayVec::new(),
            tacticals: ArrayVec::new(),
            own_history,
        }
    }

    /// Notes a move that failed, of history index `index()`. Tactical
    /// moves are noted only where they have a history of their own (the
    /// tactical cutoff ignores them otherwise), and the index is not
    /// looked up for a move not noted; past 64 of a kind, the rest go
    /// unpunished.
    pub(crate) fn remember(&mut self, tactical: bool, index: impl FnOnce() -> usize) {
        let list = match (tactical, self.own_history) {
            (false, _) => &mut self.quiets,
            (true, true) => &mut self.tacticals,
            (true, false) => return,
        };
        if !list.is_full() {
            list.push(index());
        }
    }
}

/// What a cutoff `depth` plies deep is worth to a history score, capped
/// so that deep cutoffs do not swamp the many shallow ones.
fn cutoff_bonus(depth: i32) -> i32 {
    (depth * depth).min(400)
}

/// Moves a history score towards the bound of the bonus' sign, more slowly
/// the closer it already is, so scores never saturate.
fn nudge(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// A node's buffer for its moves' ordering scores, on its own stack frame:
/// returned inside the picker, a full-size array was copied at every node
/// (zeroing one showed up in profiles too, so it fills only as far as the
/// moves go).
pub(crate) type Scores = ArrayVec<i32, MAX_MOVES>;

/// The moves of one node with their ordering scores; the list and the
/// scores are the node's own, borrowed so that neither is ever copied.
pub(crate) struct MovePicker<'a, M> {
    moves: &'a mut [M],
    scores: &'a mut [i32],
    next: usize,
    /// The node's pawn history, where kept.
    pawns: Option<PawnBase>,
}

impl<'a, M: Copy + Eq> MovePicker<'a, M> {
    /// Scores `moves` for the node at `ply` of `pos`, into `scores`, by
    /// `ordering`.
    pub(crate) fn new<G: Game<Move = M>>(
        pos: &G,
        moves: &'a mut MoveList<M>,
        scores: &'a mut Scores,
        tt_move: Option<u16>,
        ordering: OrderBy<M>,
        ply: usize,
    ) -> Self {
        let OrderBy {
            heuristics,
            capture_weight,
            pawn_weight,
        } = ordering;
        let pawns = (pawn_weight != 0).then(|| Heuristics::<M>::pawn_base(pos));
        scores.clear();
        for &mv in moves.iter() {
            let score = if tt_move == Some(G::pack(mv)) {
                TT_MOVE
            } else if pos.is_tactical(mv) {
                let learnt = if capture_weight == 0 {
                    0
                } else {
                    heuristics.capture_history(ply, pos.history_index(mv)) * capture_weight / 256
                };
                TACTICAL + (pos.tactical_order(mv) + learnt).clamp(-(1 << 24), 1 << 24)
            } else if heuristics.is_killer(ply, mv) {
                // The more recent killer first.
                KILLER + i32::from(heuristics.killers[ply][0] == Some(mv))
            } else {
                let index = pos.history_index(mv);
                let by_pawns = pawns.map_or(0, |base| {
                    heuristics.pawn_history(base, index) * pawn_weight / 100
                });
                heuristics.history(ply, index) + by_pawns + pos.quiet_order(mv)
            };
            scores.push(score);
        }
        MovePicker {
            moves: moves.as_mut_slice(),
            scores: scores.as_mut_slice(),
            next: 0,
            pawns,
        }
    }
}

impl<M> MovePicker<'_, M> {
    /// The node's moves (all of them until picking starts).
    pub(crate) fn moves(&self) -> &[M] {
        self.moves
    }

    /// The node's pawn history, where kept: for the cutoff to teach.
    pub(crate) fn pawns(&self) -> Option<PawnBase> {
        self.pawns
    }
}

impl<M: Copy + Eq> Iterator for MovePicker<'_, M> {
    type Item = M;

    /// The best-scored move not yet returned; among equals the earliest
    /// in the list, so the order depends on nothing but the position and
    /// the tables. The first pick is a scan (most cutoffs come from it);
    /// a node that asks for a second sorts the rest once.
    fn next(&mut self) -> Option<M> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        if self.next == 0 {
            let mut best = 0;
            for i in 1..len {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            // Keep the others in their order: a rotation, not a swap.
            self.moves[..=best].rotate_right(1);
            self.scores[..=best].rotate_right(1);
        } else if self.next == 1 {
            sort_descending(&mut self.moves[1..], &mut self.scores[1..]);
        }
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// Stable insertion sort of `moves` by `scores`, highest first: the lists
/// are short and mostly in order already (captures, killers and history
/// ties come out of the generator in its order).
fn sort_descending<M: Copy>(moves: &mut [M], scores: &mut [i32]) {
    for i in 1..scores.len() {
        let (mv, score) = (moves[i], scores[i]);
        let mut j = i;
        while j > 0 && scores[j - 1] < score {
            moves[j] = moves[j - 1];
            scores[j] = scores[j - 1];
            j -= 1;
        }
        moves[j] = mv;
        scores[j] = score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_bounded() {
        let mut h = Heuristics::<u8>::new();
        for _ in 0..10_000 {
            h.quiet_cutoff((3, 40), (1, 7), &[8], None);
        }
        assert!(h.history(3, 7) <= HISTORY_MAX);
        assert!(h.history(3, 8) >= -HISTORY_MAX);
        assert_eq!(h.history(4, 7), 0, "the other side's table is untouched");
        assert!(h.is_killer(3, 1) && !h.is_killer(2, 1));
        h.new_search();
        assert!(!h.is_killer(3, 1));
    }

    /// A cutoff teaches the pawn history of its own structure only, and
    /// a new search keeps it whole; a game that keeps none learns nothing
    /// there and holds no table.
    #[test]
    fn pawn_history_is_kept_by_structure() {
        let mut h = Heuristics::<u8>::new();
        let (here, there) = (PawnBase(HISTORY_SIZE), PawnBase(2 * HISTORY_SIZE));
        h.quiet_cutoff((3, 10), (1, 7), &[8], Some(here));
        assert_eq!(h.pawn_history(here, 7), 0, "no table yet");
        h.keep_pawn_history(true);
        h.quiet_cutoff((3, 10), (1, 7), &[8], Some(here));
        assert!(h.pawn_history(here, 7) > 0 && h.pawn_history(here, 8) < 0);
        assert_eq!(h.pawn_history(there, 7), 0);
        let before = h.pawn_history(here, 7);
        h.quiet_cutoff((3, 10), (1, 7), &[], None);
        h.new_search();
        assert_eq!(h.pawn_history(here, 7), before);
        h.clear();
        assert_eq!(h.pawn_history(here, 7), 0);
        h.keep_pawn_history(false);
        assert!(h.pawns.is_empty());
    }

    #[test]
    fn capture_history_is_its_own_table() {
        let mut h = Heuristics::<u8>::new();
        for _ in 0..10_000 {
            h.tactical_cutoff(5, 40, Some(9), &[10]);
        }
        assert!((1..=HISTORY_MAX).contains(&h.capture_history(5, 9)));
        assert!((-HISTORY_MAX..0).contains(&h.capture_history(5, 10)));
        assert_eq!(h.history(5, 9), 0, "quiet history is untouched");
        h.tactical_cutoff(5, 3, None, &[9]);
        assert!(h.capture_history(5, 9) < HISTORY_MAX);
        let before = h.capture_history(5, 9);
        h.new_search();
        assert_eq!(h.capture_history(5, 9), before / 2);
        h.clear();
        assert_eq!(h.capture_history(5, 10), 0);
    }

    #[test]
    fn picks_by_score_and_among_equals_by_list_order() {
        let scores = [3, 9, 1, 9, 3, 0, 3];
        let mut moves: Vec<usize> = (0..scores.len()).collect();
        let mut by_hand = moves.clone();
        by_hand.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        let mut s: Scores = scores.into_iter().collect();
        let picker = MovePicker {
            moves: &mut moves,
            scores: &mut s,
            next: 0,
            pawns: None,
        };
        assert_eq!(picker.collect::<Vec<_>>(), by_hand);
    }
}
