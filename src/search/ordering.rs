//! Move ordering: the transposition-table move, then tactical moves by the
//! game's victim/attacker key, then killer moves, then quiet moves by
//! history (and, where the search asks for it, continuation history: how a
//! move did after the moves one and two plies before it); and the tables
//! behind them.
//!
//! Moves are scored once per node and picked by partial selection sort, so a
//! node that cuts off after its first move never sorts the rest.

use super::game::{CONTINUATION_SIZE, Game, HISTORY_SIZE, MAX_MOVES, MoveList};
use super::score::MAX_PLY;
use arrayvec::ArrayVec;

const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 26;
/// History scores stay within this magnitude (gravity formula).
const HISTORY_MAX: i32 = 1 << 14;

/// A quiet move as the history tables know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QuietKey {
    /// [`Game::history_index`].
    pub(crate) history: usize,
    /// [`Game::continuation_index`].
    pub(crate) continuation: Option<usize>,
}

impl QuietKey {
    /// The key of `mv`, its continuation index only if `continuation`
    /// history is kept (the index costs a look at the board).
    pub(crate) fn of<G: Game>(pos: &G, mv: G::Move, continuation: bool) -> Self {
        QuietKey {
            history: pos.history_index(mv),
            continuation: if continuation {
                pos.continuation_index(mv)
            } else {
                None
            },
        }
    }
}

/// How many plies back continuation history looks.
const CONTINUATION_PLIES: usize = 2;

/// Killer moves per ply and history scores per side to move. Owned by the
/// searcher and kept between searches of one game.
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    /// Indexed by `side * HISTORY_SIZE + Game::history_index`, where the
    /// side is the parity of the ply: the search only needs to keep the two
    /// players apart, not to know their colours.
    history: Vec<i32>,
    /// Indexed by side, then the continuation index of the earlier move,
    /// then that of the move scored.
    continuation: Vec<i32>,
    /// Per ply, the continuation index of the move being searched from it;
    /// `None` for a pass, or while the search keeps no continuation
    /// history (then every continuation score is 0).
    path: [Option<u16>; MAX_PLY + 1],
    /// Whether `continuation` holds anything: a search without it pays
    /// nothing to clear or age the table.
    continuation_used: bool,
}

impl<M: Copy + Eq> Heuristics<M> {
    pub(crate) fn new() -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * HISTORY_SIZE],
            continuation: vec![0; 2 * CONTINUATION_SIZE * CONTINUATION_SIZE],
            path: [None; MAX_PLY + 1],
            continuation_used: false,
        }
    }

    /// Forgets everything (a new game, or a reproducible benchmark).
    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        if self.continuation_used {
            self.continuation.fill(0);
            self.continuation_used = false;
        }
        self.path.fill(None);
    }

    /// Prepares for a new search from a new root: killers refer to plies
    /// of the old tree and go; history keeps half its weight.
    pub(crate) fn new_search(&mut self) {
        self.killers.fill([None; 2]);
        let continuation = if self.continuation_used {
            &mut self.continuation[..]
        } else {
            &mut []
        };
        for h in self.history.iter_mut().chain(continuation) {
            *h /= 2;
        }
    }

    /// The move searched from `ply` is now the one with this continuation
    /// index (`None`: a pass).
    pub(crate) fn played(&mut self, ply: usize, continuation: Option<usize>) {
        self.path[ply] = continuation.and_then(|c| u16::try_from(c).ok());
    }

    /// The continuation-history slots of a move at `ply`: one for each
    /// earlier move on the path that is known.
    fn continuation_slots(
        &self,
        ply: usize,
        continuation: Option<usize>,
    ) -> impl Iterator<Item = usize> + use<M> {
        let side = (ply & 1) * CONTINUATION_SIZE * CONTINUATION_SIZE;
        let earlier: [Option<u16>; CONTINUATION_PLIES] =
            std::array::from_fn(|back| ply.checked_sub(back + 1).and_then(|p| self.path[p]));
        earlier.into_iter().filter_map(move |prev| {
            let cur = continuation.filter(|&c| c < CONTINUATION_SIZE)?;
            Some(side + usize::from(prev?) * CONTINUATION_SIZE + cur)
        })
    }

    /// Whether a move at `ply` follows a move continuation history knows
    /// (asked once per node: most searches keep no continuation history).
    fn continues(&self, ply: usize) -> bool {
        (1..=CONTINUATION_PLIES).any(|back| ply >= back && self.path[ply - back].is_some())
    }

    /// The continuation-history score of a quiet move at `ply`.
    fn continuation_score(&self, ply: usize, continuation: Option<usize>) -> i32 {
        self.continuation_slots(ply, continuation)
            .map(|slot| self.continuation[slot])
            .sum()
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

    /// A quiet move caused a cutoff at `ply` after the quiet moves in
    /// `tried` failed: reward it, punish them.
    pub(crate) fn quiet_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        mv: M,
        key: QuietKey,
        tried: &[QuietKey],
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.nudge(ply, key, bonus);
        for &other in tried {
            self.nudge(ply, other, -bonus);
        }
    }

    /// Moves a move's history scores towards the bound of the bonus' sign,
    /// more slowly the closer they already are, so scores never saturate.
    fn nudge(&mut self, ply: usize, key: QuietKey, bonus: i32) {
        let gravity = |h: &mut i32| *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        gravity(&mut self.history[Self::history_slot(ply, key.history)]);
        if key.continuation.is_none() {
            return;
        }
        let slots: ArrayVec<usize, CONTINUATION_PLIES> =
            self.continuation_slots(ply, key.continuation).collect();
        for slot in slots {
            gravity(&mut self.continuation[slot]);
            self.continuation_used = true;
        }
    }
}

/// The moves of one node with their ordering scores.
pub(crate) struct MovePicker<M> {
    moves: MoveList<M>,
    // Only as long as `moves`: zeroing a full-size array at every node
    // showed up in profiles.
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
}

impl<M: Copy + Eq> MovePicker<M> {
    /// Scores `moves` for the node at `ply` of `pos`.
    pub(crate) fn new<G: Game<Move = M>>(
        pos: &G,
        moves: MoveList<M>,
        tt_move: Option<u16>,
        heuristics: &Heuristics<M>,
        ply: usize,
    ) -> Self {
        let mut scores = ArrayVec::new();
        let continues = heuristics.continues(ply);
        for &mv in moves.iter() {
            let score = if tt_move == Some(G::pack(mv)) {
                TT_MOVE
            } else if pos.is_tactical(mv) {
                TACTICAL + pos.tactical_order(mv).clamp(-(1 << 24), 1 << 24)
            } else if heuristics.is_killer(ply, mv) {
                // The more recent killer first.
                KILLER + i32::from(heuristics.killers[ply][0] == Some(mv))
            } else {
                let history = heuristics.history(ply, pos.history_index(mv));
                if continues {
                    history + heuristics.continuation_score(ply, pos.continuation_index(mv))
                } else {
                    history
                }
            };
            scores.push(score);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }
}

impl<M> MovePicker<M> {
    /// The node's moves (all of them until picking starts).
    pub(crate) fn moves(&self) -> &[M] {
        &self.moves
    }
}

impl<M: Copy + Eq> Iterator for MovePicker<M> {
    type Item = M;

    /// The best-scored move not yet returned; among equals the earliest,
    /// so the order depends on nothing but the position and the tables.
    fn next(&mut self) -> Option<M> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(history: usize, continuation: Option<usize>) -> QuietKey {
        QuietKey {
            history,
            continuation,
        }
    }

    #[test]
    fn history_stays_bounded() {
        let mut h = Heuristics::<u8>::new();
        for _ in 0..10_000 {
            h.quiet_cutoff(3, 40, 1, key(7, Some(5)), &[key(8, Some(6))]);
        }
        assert!(h.history(3, 7) <= HISTORY_MAX);
        assert!(h.history(3, 8) >= -HISTORY_MAX);
        assert_eq!(h.history(4, 7), 0, "the other side's table is untouched");
        assert!(h.is_killer(3, 1) && !h.is_killer(2, 1));
        // No earlier move on the path: history alone.
        assert!(!h.continues(3));
        assert_eq!(h.continuation_score(3, Some(5)), 0);
        h.new_search();
        assert!(!h.is_killer(3, 1));
    }

    #[test]
    fn continuation_history_follows_the_path() {
        let mut h = Heuristics::<u8>::new();
        h.played(1, Some(100));
        h.played(2, Some(200));
        h.quiet_cutoff(3, 10, 1, key(7, Some(5)), &[key(8, Some(6))]);
        // One table for each of the two moves before, besides history.
        assert_eq!(h.history(3, 7), 100);
        assert_eq!(h.continuation_score(3, Some(5)), 2 * 100);
        assert_eq!(h.continuation_score(3, Some(6)), -2 * 100);
        // After another move two plies back, one table no longer applies.
        h.played(1, Some(101));
        assert_eq!(h.continuation_score(3, Some(5)), 100);
        // A pass just before: only the move two plies back counts.
        h.played(1, Some(100));
        h.played(2, None);
        assert!(h.continues(3));
        assert_eq!(h.continuation_score(3, Some(5)), 100);
        assert_eq!(h.continuation_score(3, None), 0, "no index, no table");
        h.played(1, None);
        assert!(!h.continues(3));
    }
}
