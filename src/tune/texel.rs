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
use crate::chess::antichess_weights::{AntichessEval, AntichessTerms, FULL_BOARD, TABLES};
use crate::chess::eval::antichess_terms;
use crate::chess::{Position, Rules};
use crate::search::{Game, MoveList};

/// The terms each table weighs, in the order of [`features`] (as
/// `ANTICHESS_EVAL` names them, after `opening.` or `ending.`).
pub const TERMS: [&str; 13] = [
    "burden.pawn",
    "burden.knight",
    "burden.bishop",
    "burden.rook",
    "burden.queen",
    "threatened",
    "loose",
    "blocked_pawn",
    "pawn_rank",
    "mobility",
    "legal_moves",
    "offers",
    "tempo",
];

/// How many weights are fitted: each term in the opening table, then each
/// in the ending table.
pub const N: usize = TABLES.len() * TERMS.len();

/// The name of the `i`th fitted weight (as `ANTICHESS_EVAL` reads it).
pub fn name(i: usize) -> String {
    let table = TABLES[i / TERMS.len()];
    format!("{table}.{}", TERMS[i % TERMS.len()])
}

/// One labelled position: the evaluation's inputs for each weight, and the
/// game's result for the side to move (1 won, ½ drawn, 0 lost).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub features: [f64; N],
    pub result: f64,
    /// The position, for labels that need more than its features.
    pub position: Position,
}

/// The weights as a vector, in the order of [`name`].
pub fn to_vector(w: &AntichessEval) -> [f64; N] {
    std::array::from_fn(|i| f64::from(w.weight(&name(i)).unwrap_or_default()))
}

/// A vector in the order of [`name`] as weights (rounded), the rest (king
/// burden, legal-move cap) taken from `base`.
pub fn from_vector(v: &[f64; N], base: &AntichessEval) -> AntichessEval {
    let mut w = *base;
    for (i, &value) in v.iter().enumerate() {
        if let Some(slot) = w.weight_mut(&name(i)) {
            *slot = value.round() as i32;
        }
    }
    w
}

/// The inputs whose dot product with [`to_vector`] is
/// [`AntichessEval::score`] (but for its rounding); the legal-move caps are
/// `eval`'s, which the fit leaves as they are.
pub fn features(t: &AntichessTerms, eval: &AntichessEval) -> [f64; N] {
    let opening = table_features(t, eval.opening.legal_moves_cap);
    let ending = table_features(t, eval.ending.legal_moves_cap);
    let share = f64::from(t.men_on_board.clamp(0, FULL_BOARD)) / f64::from(FULL_BOARD);
    std::array::from_fn(|i| match i.checked_sub(TERMS.len()) {
        None => opening[i] * share,
        Some(j) => ending[j] * (1.0 - share),
    })
}

/// The inputs of one table, in the order of [`TERMS`].
fn table_features(t: &AntichessTerms, cap: i32) -> [f64; TERMS.len()] {
    let m = t.men;
    [
        -m[0],
        -m[1],
        -m[2],
        -m[3],
        -m[4],
        t.threatened,
        t.loose,
        -t.blocked_pawns,
        t.pawn_ranks,
        t.mobility,
        t.legal_moves.map_or(0, |d| d.clamp(-cap, cap)),
        t.offers,
        1,
    ]
    .map(f64::from)
}

/// Which positions of a game make samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Those with no tactical move and not in check: where a static
    /// evaluation is the whole story, as the Texel fit wants.
    Quiet,
    /// Every position with a move to make that is not in check: the
    /// search evaluates those too (most antichess nodes have a capture
    /// due), so a correction fitted for the search wants them.
    Playable,
}

impl Keep {
    /// The word for the positions kept.
    pub fn name(self) -> &'static str {
        match self {
            Keep::Quiet => "quiet",
            Keep::Playable => "playable",
        }
    }
}

/// The quiet positions of `games` played under `rules` with a result.
pub fn samples(games: &[PgnGame], rules: Rules, eval: &AntichessEval) -> Vec<Sample> {
    samples_kept(games, rules, eval, Keep::Quiet)
}

/// The positions of `games` played under `rules` with a result that
/// `keep` keeps.
pub fn samples_kept(
    games: &[PgnGame],
    rules: Rules,
    eval: &AntichessEval,
    keep: Keep,
) -> Vec<Sample> {
    let mut out = Vec::new();
    for game in games.iter().filter(|g| g.rules == rules) {
        let Some(white_score) = game.white_score else {
            continue;
        };
        let mut pos = game.start;
        for &mv in &game.moves {
            if let Some(sample) = sample(&pos, white_score, eval, keep) {
                out.push(sample);
            }
            pos = pos.play(mv);
        }
    }
    out
}

/// Positions a few random plies off the games' paths: from each position
/// of each game, `walks` walks of one to four random legal plies, each
/// kept where its end is one `keep` keeps (with the game's result, which
/// says little there). A search spends most of its evaluations off the path
/// a game takes, after moves no player would choose, so an evaluation
/// fitted to search scores wants those positions too.
pub fn scattered(
    games: &[PgnGame],
    rules: Rules,
    eval: &AntichessEval,
    (walks, seed): (usize, u64),
    keep: Keep,
) -> Vec<(Sample, usize)> {
    let mut rng = crate::rng::Xoshiro::new(seed);
    let mut out = Vec::new();
    for (index, game) in games.iter().enumerate().filter(|(_, g)| g.rules == rules) {
        let Some(white_score) = game.white_score else {
            continue;
        };
        let mut pos = game.start;
        for &mv in &game.moves {
            for _ in 0..walks {
                let mut walk = pos;
                for _ in 0..=rng.below(4) {
                    let mut moves = MoveList::new();
                    walk.legal_moves(&mut moves);
                    let Some(step) = rng.pick(&moves) else { break };
                    walk = walk.play(step);
                }
                if let Some(sample) = sample(&walk, white_score, eval, keep) {
                    out.push((sample, index));
                }
            }
            pos = pos.play(mv);
        }
    }
    out
}

fn sample(pos: &Position, white_score: f64, eval: &AntichessEval, keep: Keep) -> Option<Sample> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    // A finished game (a bare king too) has no legal moves.
    let playable = !pos.in_check() && !moves.is_empty();
    let kept = match keep {
        Keep::Quiet => playable && moves.iter().all(|&mv| !pos.is_tactical(mv)),
        Keep::Playable => playable,
    };
    if !kept {
        return None;
    }
    let terms = antichess_terms(pos, || moves.len());
    let white = pos.side_to_move() == crate::chess::Color::White;
    Some(Sample {
        features: features(&terms, eval),
        position: *pos,
        result: if white {
            white_score
        } else {
            1.0 - white_score
        },
    })
}

/// Logistic curve from centipawns to expected score; `k` scales it.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval * std::f64::consts::LN_10 / 400.0).exp())
}

fn dot(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean squared error of the predictions of `weights` on `samples`.
pub fn error(samples: &[Sample], weights: &[f64; N], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, dot(weights, &s.features))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The curve's scale that fits `weights` best.
pub fn fit_k(samples: &[Sample], weights: &[f64; N]) -> f64 {
    best_scale(|k| error(samples, weights, k))
}

/// The curve's scale from 0.01 to 5 where `error` is least, by a
/// golden-section search (the error of a scale is unimodal in practice).
pub fn best_scale(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.01, 5.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The ridge penalty counts a weight's distance from where the fit started
/// in these units (centipawns): a pawn's worth away costs `ridge`.
const RIDGE_UNIT: f64 = 100.0;

/// Fits the weights by gradient descent (Adam) from `start`, with the
/// curve's scale `k` held fixed; `fixed[i]` keeps weight `i` as it is.
///
/// `ridge` adds `ridge · Σ ((w − start) / 100)²` to the error: features
/// that move together (rooks and queens, say, which leave the board in
/// the same exchanges) otherwise let a fit trade huge weights against
/// each other for a sliver of error, and such weights lose games.
pub fn fit(
    samples: &[Sample],
    start: &[f64; N],
    k: f64,
    epochs: u32,
    fixed: &[bool; N],
    ridge: f64,
) -> [f64; N] {
    const RATE: f64 = 1.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let mut w = *start;
    let mut m = [0.0; N];
    let mut v = [0.0; N];
    let n = samples.len().max(1) as f64;
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = [0.0; N];
        for s in samples {
            let p = sigmoid(k, dot(&w, &s.features));
            let g = 2.0 * (p - s.result) * p * (1.0 - p) * scale / n;
            for (gi, xi) in grad.iter_mut().zip(&s.features) {
                *gi += g * xi;
            }
        }
        for i in (0..N).filter(|&i| !fixed[i]) {
            grad[i] += 2.0 * ridge * (w[i] - start[i]) / (RIDGE_UNIT * RIDGE_UNIT);
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
    use crate::chess::antichess_weights::{ANTICHESS_2002, apply};

    #[test]
    fn every_fitted_name_is_a_weight() {
        for i in 0..N {
            assert!(ANTICHESS_2002.weight(&name(i)).is_some(), "{}", name(i));
        }
        assert_eq!(name(0), "opening.burden.pawn");
        assert_eq!(name(N - 1), "ending.tempo");
    }

    #[test]
    fn features_weighed_are_the_evaluation() {
        let mut w = ANTICHESS_2002;
        apply(
            &mut w,
            "opening.tempo=300,ending.mobility=7,ending.legal_moves_cap=3",
        )
        .unwrap();
        let fens = [
            "rnbqkbnr/pppppp2/6p1/7p/8/1P6/PBPPPPPP/RN1QKBNR w - - 0 3",
            "b2k4/8/4p1p1/8/2n5/4P3/7K/8 b - - 0 1",
            "8/8/3k4/8/8/2P5/1K6/7r w - - 0 1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen, Rules::Antichess).unwrap();
            let terms = antichess_terms(&pos, || pos.count_legal());
            let linear = dot(&to_vector(&w), &features(&terms, &w));
            // The evaluation blends its tables in integers.
            assert!((linear - f64::from(w.score(&terms))).abs() <= 1.0, "{fen}");
            assert_eq!(from_vector(&to_vector(&w), &w), w);
        }
    }

    #[test]
    fn fit_learns_a_planted_weight() {
        // Results drawn from a curve where only the tempo weight matters.
        let mut samples = Vec::new();
        for i in 0..400 {
            let mut features = [0.0; N];
            features[N - 1] = 1.0;
            features[8] = f64::from(i % 21 - 10);
            let p = sigmoid(1.0, 100.0 + 30.0 * features[8]);
            samples.push(Sample {
                features,
                result: p,
                position: Position::startpos(Rules::Antichess),
            });
        }
        let fitted = fit(&samples, &[0.0; N], 1.0, 3000, &[false; N], 0.0);
        assert!((fitted[N - 1] - 100.0).abs() < 5.0, "{fitted:?}");
        assert!((fitted[8] - 30.0).abs() < 2.0, "{fitted:?}");
        assert!(error(&samples, &fitted, 1.0) < 1e-4);
        // A ridge holds the weights near the start: the planted 100 and
        // 30 cost far more in penalty than they save in error.
        let held = fit(&samples, &[0.0; N], 1.0, 3000, &[false; N], 10.0);
        assert!(held[N - 1].abs() < 10.0 && held[8].abs() < 5.0, "{held:?}");
        assert!(held[N - 1] > 0.0 && held[8] > 0.0, "{held:?}");
    }
}
