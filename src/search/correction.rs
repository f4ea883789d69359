//! Correction history: what the search has learnt, this game, of the
//! static evaluation's error in positions that share a feature.
//!
//! After a node is searched, the difference between its result and its
//! static evaluation is averaged into a slot chosen by the position's
//! feature keys (the game's, [`Game::correction_keys`]: its pawns and its
//! material; and the search's: the move that led to it, and the two), and
//! later evaluations of positions with the same keys are moved by what
//! the slots hold. An evaluation that misjudges a kind of position
//! consistently, as a linear one does, is then corrected where pruning
//! and quiescence take its word. (Stockfish's correction histories.)
//!
//! [`Game::correction_keys`]: super::Game::correction_keys

use super::game::{CORRECTION_FEATURES, Game, HISTORY_SIZE, Score, mix_key};
use super::params::SearchParams;
use super::score::{clamp_eval, faded, is_decisive};
use super::tree::Tree;

/// Slots per feature; a key picks one by its low bits.
const SLOTS: usize = 1 << 14;

/// The features: the game's, then the last move's and the last two's.
const FEATURES: usize = CORRECTION_FEATURES + 2;

/// A key per feature.
type Keys = [u64; FEATURES];

// The last move's key is its history index and the ply's parity, exact.
const _: () = assert!(2 * (HISTORY_SIZE + 1) <= SLOTS);

/// Fixed point: a slot holds the average error times this.
const GRAIN: i32 = 256;

/// The largest error one result may teach, in evaluation units: past it
/// the result is a tactic, not the evaluation's bias.
const MAX_ERROR: Score = 400;

/// A result moves its slot's average by `depth + 1` 256ths of the way
/// to its error (times `corr_rate`, in percent), at most this many (a
/// result this deep or deeper).
const FULL_WEIGHT_DEPTH: i32 = 16;

/// The average errors of the evaluation by feature, kept for a game.
pub(crate) struct Corrections {
    /// `features × SLOTS` averages, in 1/[`GRAIN`] evaluation units.
    slots: Vec<i32>,
}

impl Corrections {
    pub(crate) fn new() -> Self {
        Corrections {
            slots: vec![0; FEATURES * SLOTS],
        }
    }

    /// Forgets what a new game should not inherit: everything but the
    /// averages `corr_keep` names (none for a reproducible benchmark).
    pub(crate) fn new_game(&mut self, params: &SearchParams) {
        // Feature 0 is the pawns', 1 the material's.
        let kept: &[usize] = match params.corr_keep {
            0 => &[],
            1 => &[1],
            _ => &[0, 1],
        };
        for (feature, slots) in self.slots.chunks_mut(SLOTS).enumerate() {
            if !kept.contains(&feature) {
                slots.fill(0);
            }
        }
    }

    fn slot(feature: usize, key: u64) -> usize {
        feature * SLOTS + (key as usize & (SLOTS - 1))
    }

    /// What to add to the static evaluation of a position with `keys`:
    /// each feature's average error, weighed by its parameter (percent).
    pub(crate) fn correction(&self, params: &SearchParams, keys: Keys) -> Score {
        let mut sum = 0;
        for (feature, (&key, weight)) in keys.iter().zip(params.corrections()).enumerate() {
            if weight != 0 {
                sum += self.slots[Self::slot(feature, key)] * weight / 100;
            }
        }
        sum / GRAIN
    }

    /// A node with `keys` and static evaluation `raw` (uncorrected) was
    /// searched `depth` plies deep to `result`, which bounds its true
    /// score on the side of `raw` it lies: move each used feature's
    /// average towards the error.
    pub(crate) fn learn(
        &mut self,
        params: &SearchParams,
        keys: Keys,
        (raw, result): (Score, Score),
        depth: i32,
    ) {
        let error = (result - raw).clamp(-MAX_ERROR, MAX_ERROR) * GRAIN;
        let weight = (depth + 1).clamp(1, FULL_WEIGHT_DEPTH) * params.corr_rate;
        for (feature, (&key, used)) in keys.iter().zip(params.corrections()).enumerate() {
            if used != 0 {
                let slot = &mut self.slots[Self::slot(feature, key)];
                // i64: the product passes i32 at a fast `corr_rate`.
                *slot += (i64::from(error - *slot) * i64::from(weight) / (256 * 100)) as i32;
            }
        }
    }
}

/// A static evaluation as the game gives it, with the feature keys it
/// was corrected by: what a node keeps to learn from its result.
#[derive(Clone, Copy)]
pub(crate) struct RawEval {
    pub(crate) score: Score,
    keys: Keys,
}

impl<G: Game> Tree<'_, G> {
    /// The static evaluation of `pos` at `ply` (whose legal moves are
    /// `moves`) as the search takes it, corrected by what it has learnt
    /// and faded by a stall (`fade_plies`),
    /// and the uncorrected one where corrections are kept.
    pub(crate) fn static_eval(
        &self,
        pos: &G,
        moves: &[G::Move],
        ply: usize,
    ) -> (Score, Option<RawEval>) {
        let score = clamp_eval(pos.evaluate_with(moves));
        let fade = |score| faded(score, pos.reversible_plies(), self.params.fade_plies);
        if !self.params.corrects() {
            return (fade(score), None);
        }
        let keys = self.correction_keys(pos, ply);
        let corrected = clamp_eval(score + self.corrections.correction(&self.params, keys));
        (fade(corrected), Some(RawEval { score, keys }))
    }

    /// The features' keys of `pos` at `ply`. The moves' side is the ply's
    /// parity, as in the histories: the root's side is the same all game.
    fn correction_keys(&self, pos: &G, ply: usize) -> Keys {
        let [pawns, material] = pos.correction_keys();
        let side = (ply & 1) as u64;
        let last = u64::from(self.moved[ply]);
        let before = ply.checked_sub(1).map_or(0, |p| u64::from(self.moved[p]));
        let two = (before * (HISTORY_SIZE as u64 + 1) + last) * 2 + side;
        [pawns, material, last * 2 + side, mix_key(two)]
    }

    /// A node of static evaluation `raw`, searched `depth` plies deep
    /// within `(alpha, beta)`, returned `best` by way of `best_move`:
    /// learn from the error where the result is a bound on the right side
    /// of `raw`. Not where a tactical move decided it: the evaluation of a
    /// quiet position is what is being judged.
    pub(crate) fn learn_correction(
        &mut self,
        pos: &G,
        (raw, depth): (RawEval, i32),
        (best, best_move): (Score, Option<G::Move>),
        (alpha, beta): (Score, Score),
    ) {
        let bounded = (best > raw.score && best > alpha) || (best < raw.score && best < beta);
        if !bounded || is_decisive(best) || best_move.is_some_and(|mv| pos.is_tactical(mv)) {
            return;
        }
        self.corrections
            .learn(&self.params, raw.keys, (raw.score, best), depth);
    }
}

impl SearchParams {
    /// The correction features' weights (percent), in the order of their
    /// keys: the game's ([`Game::correction_keys`]), then the moves'.
    pub(crate) fn corrections(&self) -> [i32; FEATURES] {
        [
            self.corr_pawns,
            self.corr_material,
            self.corr_moves,
            self.corr_moves,
        ]
    }

    /// Whether the evaluation is corrected by what the search learnt.
    pub(crate) fn corrects(&self) -> bool {
        self.corrections() != [0; FEATURES]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::DEFAULT;

    /// A feature's average moves towards the errors it is taught, only
    /// its own slot moves, and a feature weighed at 0 is left alone.
    #[test]
    fn averages_move_towards_the_error_of_their_own_slot() {
        let params = SearchParams {
            corr_pawns: 100,
            corr_material: 0,
            ..DEFAULT
        };
        let mut c = Corrections::new();
        let keys = [7, 9, 0, 0];
        for _ in 0..200 {
            c.learn(&params, keys, (0, 50), FULL_WEIGHT_DEPTH);
        }
        let learnt = c.correction(&params, keys);
        assert!((45..=50).contains(&learnt), "{learnt}");
        assert_eq!(c.correction(&params, [8, 9, 0, 0]), 0);
        let both = SearchParams {
            corr_material: 100,
            ..params
        };
        assert_eq!(c.correction(&both, keys), learnt);
        // Errors past the cap teach only the cap.
        for _ in 0..400 {
            c.learn(&params, keys, (0, -5000), FULL_WEIGHT_DEPTH);
        }
        assert!(c.correction(&params, keys) >= -MAX_ERROR);
        c.new_game(&DEFAULT);
        assert_eq!(c.correction(&params, keys), 0);
    }

    /// A new game keeps what `corr_keep` says and forgets the rest.
    #[test]
    fn a_new_game_keeps_material_or_pawns_as_told() {
        let pawns = SearchParams {
            corr_pawns: 100,
            corr_material: 0,
            ..DEFAULT
        };
        let material = SearchParams {
            corr_pawns: 0,
            corr_material: 100,
            ..DEFAULT
        };
        let keys = [3, 5, 0, 0];
        let learnt = |keep| {
            let mut c = Corrections::new();
            c.learn(
                &SearchParams {
                    corr_material: 100,
                    ..pawns
                },
                keys,
                (0, 80),
                16,
            );
            c.new_game(&SearchParams {
                corr_keep: keep,
                ..DEFAULT
            });
            (c.correction(&pawns, keys), c.correction(&material, keys))
        };
        assert_eq!(learnt(0), (0, 0));
        let (p, m) = learnt(1);
        assert_eq!(p, 0);
        assert!(m > 0, "{m}");
        let (p, m) = learnt(2);
        assert!(p > 0 && m > 0, "{p} {m}");
    }
}
