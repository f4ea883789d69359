//! The contract between a game and the game-independent search.
//!
//! A game hands the search its legal moves, plays them by copy-make, scores
//! positions and says when the game is over. Everything is from the point of
//! view of the side to move, so the search is plain negamax.

use super::params::{SearchParams, params};
use arrayvec::ArrayVec;
use std::fmt::Debug;

/// Centipawn-like score from the side to move's point of view.
pub type Score = i32;

/// Capacity of a move list: enough for chess (218) and checkers.
pub const MAX_MOVES: usize = 256;

/// Fixed-capacity list of moves; never allocates.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// Size of the history table the search keeps per side; a game maps each
/// move to an index below this with [`Game::history_index`].
pub const HISTORY_SIZE: usize = 64 * 64;

/// How many features of a position [`Game::correction_keys`] keys (the
/// search adds its own, of the moves that led to it).
pub const CORRECTION_FEATURES: usize = 2;

/// One key per feature of a position: its pawns and its material
/// (weighed by `corr_pawns` and `corr_material`).
pub type CorrectionKeys = [u64; CORRECTION_FEATURES];

/// A bijective scrambling of 64 bits (SplitMix64's finaliser), so that
/// keys differing in any bit pick different slots by their low bits.
#[inline]
pub fn mix_key(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// How a finished game ended, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won (in antichess: it was just checkmated, or
    /// it has lost all its men).
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody wins.
    Draw,
}

/// A two-player, zero-sum, perfect-information game the search can play.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move; small and `Copy`.
    type Move: Copy + Eq + Default + Debug + Send + Sync + 'static;

    /// Zobrist key of the position, side to move included.
    fn key(&self) -> u64;

    /// Appends the legal moves of the side to move to `moves`.
    fn generate(&self, moves: &mut MoveList<Self::Move>);

    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: Self::Move) -> Self;

    /// The key the position will have after `mv`, if the game can tell
    /// more cheaply than by playing it: the search then fetches the
    /// table's entry while the move is made. A wrong key costs only the
    /// fetch; `None` (the default) fetches after the move.
    fn key_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// Whether the game is over, given this position's legal moves
    /// (already generated, so the game need not generate them again).
    fn outcome(&self, moves: &[Self::Move]) -> Option<Outcome>;

    /// Whether the game's end here is a matter of the position alone (the
    /// men, the side to move), so that a score stored under its key may
    /// be taken before the moves are generated. Not where a count outside
    /// the key has just ended it (chess's fifty-move rule); always, by
    /// default.
    fn end_is_positional(&self) -> bool {
        true
    }

    /// Static evaluation for the side to move.
    fn evaluate(&self) -> Score;

    /// [`Game::evaluate`], given this position's legal moves (already
    /// generated, so a game whose evaluation counts them need not generate
    /// them again).
    fn evaluate_with(&self, _moves: &[Self::Move]) -> Score {
        self.evaluate()
    }

    /// Keys of features of the position, each with the side to move:
    /// its pawn structure and its material. Positions alike in one share
    /// what the search learns of the evaluation's error there
    /// ([`SearchParams::corr_pawns`]); none (0), by default.
    fn correction_keys(&self) -> CorrectionKeys {
        [0; CORRECTION_FEATURES]
    }

    /// Whether the side to move is in check (never, for checkers).
    fn in_check(&self) -> bool;

    /// Captures and promotions: the moves quiescence search looks at.
    fn is_tactical(&self, mv: Self::Move) -> bool;

    /// Whether a quiet move compels the opponent's reply, so that pruning
    /// or reducing it like other quiet moves would miss a forcing line (in
    /// antichess: it offers a man to a compulsory capture). Never, by
    /// default.
    fn compels_reply(&self, _mv: Self::Move) -> bool {
        false
    }

    /// A quiet move's prior, added to its history score: where history
    /// does not tell quiet moves apart, the higher is tried first. None
    /// (0), by default.
    fn quiet_order(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Ordering key among tactical moves (most valuable victim, least
    /// valuable attacker); higher is tried first.
    fn tactical_order(&self, mv: Self::Move) -> i32;

    /// Index below [`HISTORY_SIZE`] for the history and killer tables.
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Plies since the last irreversible move: how far back a repetition
    /// can be.
    fn reversible_plies(&self) -> u32;

    /// The position after passing the move, for null-move pruning; `None`
    /// (the default) where passing tells nothing, as in games with forced
    /// captures or frequent zugzwang, or in check. A game that returns a
    /// position must give it `reversible_plies() == 0`, so that no
    /// repetition is detected across the pass.
    fn play_null(&self) -> Option<Self> {
        None
    }

    /// What an endgame table says of this position: how the game ends
    /// for the side to move with best play, and in how many plies; `None`
    /// (the default) where no table covers it.
    fn table_result(&self) -> Option<(Outcome, usize)> {
        None
    }

    /// The search's pruning parameters for games from this position on.
    /// The default is the table measured for the chess-board games; a game
    /// whose evaluation has another scale turns off what it has not been
    /// measured with.
    fn search_params(&self) -> SearchParams {
        *params()
    }

    /// A 16-bit code for the transposition table. Different moves of one
    /// position should get different codes; a clash only costs ordering.
    fn pack(mv: Self::Move) -> u16;
}
