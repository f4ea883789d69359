//! Texel tuning of the antichess evaluation: positions from finished games,
//! each labelled with the game's result for the side to move, and the
//! weights that make the evaluation, through a logistic curve, predict
//! those results best (least squares).
//!
//! The evaluation is linear in its weights ([`AntichessTerms::score`]), so a
//! position is kept as its terms and the fit never replays a game. Only
//! quiet positions are kept (side to move not in check, no capture or
//! promotion among its moves): elsewhere the search does not trust the
//! static evaluation either, and a compulsory capture's outcome is not the
//! evaluation's business.

use super::pgn_read::PgnGame;
use crate::chess::eval::antichess_terms;
use crate::chess::weights::{AntichessTerms, AntichessWeights};
use crate::chess::{Position, Rules};
use crate::search::{Game, MoveList};

/// Names of the fitted weights, in the order of [`features`] (as
/// `ANTICHESS_EVAL` reads them).
pub const NAMES: [&str; 12] = [
    "burden.pawn",
    "burden.knight",
    "burden.bishop",
    "burden.rook",
    "burden.queen",
    "threatened",
    "blocked_pawn",
    "pawn_rank",
    "mobility",
    "legal_moves",
    "offers",
    "tempo",
];

/// One labelled position: the evaluation's inputs for each weight, and the
/// game's result for the side to move (1 won, ½ drawn, 0 lost).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub features: [f64; 12],
    pub result: f64,
}

/// The weights as a vector, in the order of [`NAMES`].
pub fn to_vector(w: &AntichessWeights) -> [f64; 12] {
    NAMES.map(|name| f64::from(w.weight(name).unwrap_or_default()))
}

/// A vector in the order of [`NAMES`] as weights (rounded), the rest
/// (king burden, legal-move cap) taken from `base`.
pub fn from_vector(v: &[f64; 12], base: &AntichessWeights) -> AntichessWeights {
    let mut w = *base;
    for (name, &value) in NAMES.iter().zip(v) {
        if let Some(slot) = w.weight_mut(name) {
            *slot = value.round() as i32;
        }
    }
    w
}

/// The inputs whose dot product with [`to_vector`] is
/// [`AntichessTerms::score`]; `cap` is the legal-move cap.
pub fn features(t: &AntichessTerms, cap: i32) -> [f64; 12] {
    let m = t.men;
    [
        -m[0],
        -m[1],
        -m[2],
        -m[3],
        -m[4],
        t.threatened,
        -t.blocked_pawns,
        t.pawn_ranks,
        t.mobility,
        t.legal_moves.map_or(0, |d| d.clamp(-cap, cap)),
        t.offers,
        1,
    ]
    .map(f64::from)
}

/// The quiet positions of `games` played under `rules` with a result.
pub fn samples(games: &[PgnGame], rules: Rules, cap: i32) -> Vec<Sample> {
    let mut out = Vec::new();
    for game in games.iter().filter(|g| g.rules == rules) {
        let Some(white_score) = game.white_score else {
            continue;
        };
        let mut pos = game.start;
        for &mv in &game.moves {
            if let Some(sample) = sample(&pos, white_score, cap) {
                out.push(sample);
            }
            pos = pos.play(mv);
        }
    }
    out
}

fn sample(pos: &Position, white_score: f64, cap: i32) -> Option<Sample> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    // A finished game (a bare king too) has no legal moves.
    let quiet =
        !pos.in_check() && !moves.is_empty() && moves.iter().all(|&mv| !pos.is_tactical(mv));
    if !quiet {
        return None;
    }
    let terms = antichess_terms(pos, || moves.len());
    let white = pos.side_to_move() == crate::chess::Color::White;
    Some(Sample {
        features: features(&terms, cap),
        result: if white {
            white_score
        } else {
            1.0 - white_score
        },
    })
}

/// Logistic curve from centipawns to expected score; `k` scales it.
fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval * std::f64::consts::LN_10 / 400.0).exp())
}

fn dot(a: &[f64; 12], b: &[f64; 12]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean squared error of the predictions of `weights` on `samples`.
pub fn error(samples: &[Sample], weights: &[f64; 12], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, dot(weights, &s.features))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The curve's scale that fits `weights` best (a golden-section search).
pub fn fit_k(samples: &[Sample], weights: &[f64; 12]) -> f64 {
    let (mut lo, mut hi) = (0.01, 5.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the weights by gradient descent (Adam) from `start`, with the
/// curve's scale `k` held fixed; `fixed[i]` keeps weight `i` as it is.
pub fn fit(
    samples: &[Sample],
    start: &[f64; 12],
    k: f64,
    epochs: u32,
    fixed: &[bool; 12],
) -> [f64; 12] {
    const RATE: f64 = 1.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let mut w = *start;
    let mut m = [0.0; 12];
    let mut v = [0.0; 12];
    let n = samples.len().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = [0.0; 12];
        for s in samples {
            let p = sigmoid(k, dot(&w, &s.features));
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * scale / n;
            for (gi, xi) in grad.iter_mut().zip(&s.features) {
                *gi += g * xi;
            }
        }
        for i in (0..12).filter(|&i| !fixed[i]) {
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * grad[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * grad[i] * grad[i];
            let m_hat = m[i] / (1.0 - BETA1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - BETA2.powi(epoch as i32));
            w[i] -= RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::weights::ANTICHESS_2002;

    #[test]
    fn every_fitted_name_is_a_weight() {
        for name in NAMES {
            assert!(ANTICHESS_2002.weight(name).is_some(), "{name}");
        }
    }

    #[test]
    fn features_weighed_are_the_evaluation() {
        let w = ANTICHESS_2002;
        let fens = [
            "rnbqkbnr/pppppp2/6p1/7p/8/1P6/PBPPPPPP/RN1QKBNR w - - 0 3",
            "b2k4/8/4p1p1/8/2n5/4P3/7K/8 b - - 0 1",
            "8/8/3k4/8/8/2P5/1K6/7r w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, Rules::Antichess).unwrap();
            let terms = antichess_terms(&pos, || pos.count_legal());
            let linear = dot(&to_vector(&w), &features(&terms, w.legal_moves_cap));
            assert_eq!(linear as i32, terms.score(&w), "{fen}");
            assert_eq!(from_vector(&to_vector(&w), &w), w);
        }
    }

    #[test]
    fn fit_learns_a_planted_weight() {
        // Results drawn from a curve where only the tempo weight matters.
        let mut samples = Vec::new();
        for i in 0..400 {
            let mut features = [0.0; 12];
            features[11] = 1.0;
            features[8] = f64::from(i % 21 - 10);
            let p = sigmoid(1.0, 100.0 + 30.0 * features[8]);
            samples.push(Sample {
                features,
                result: p,
            });
        }
        let fitted = fit(&samples, &[0.0; 12], 1.0, 3000, &[false; 12]);
        assert!((fitted[11] - 100.0).abs() < 5.0, "{fitted:?}");
        assert!((fitted[8] - 30.0).abs() < 2.0, "{fitted:?}");
        assert!(error(&samples, &fitted, 1.0) < 1e-4);
    }
}
