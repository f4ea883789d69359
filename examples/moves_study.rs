//! Does the shape of the legal-move term matter? A study, not part of the
//! engine: the evaluation counts the difference of the two sides' legal
//! moves, capped; this fits logistic models of each position's result on
//! the evaluation plus one candidate feature of the two counts, and
//! compares them on held-out openings (five folds), separately by the men
//! on the board (a model fitted for each range), and prints each fit's
//! weights (for 400 centipawns of evaluation, the candidate, an offset).
//!
//! ```sh
//! antichess tune GAMES.pgn --positions POS.tsv     # once per match
//! cargo run --release --example moves_study -- POS.tsv...
//! ```

use antichess::chess::eval::{antichess_terms, evaluate};
use antichess::chess::{Position, Rules};
use antichess::tune::fnv;

const FOLDS: u64 = 5;
const ITERATIONS: i32 = 400;
/// Positions whose halfmove clock is past this are left out.
const STALLED: u32 = 50;

struct Sample {
    men: u32,
    /// The evaluation, the first feature, then the candidates.
    x: Vec<f64>,
    result: f64,
    fold: u64,
}

/// A feature of (ours, theirs): the legal moves of the side to move and
/// of the opponent as if to move.
type Feature = fn(f64, f64) -> f64;

/// The candidates, each tried beside the evaluation alone.
const CANDIDATES: [(&str, Feature); 6] = [
    ("ln(1+n) difference", |a, b| (1.0 + a).ln() - (1.0 + b).ln()),
    ("n <= 2, theirs minus ours", |a, b| {
        f64::from(u8::from(b <= 2.0)) - f64::from(u8::from(a <= 2.0))
    }),
    ("ours <= 1, negated", |a, _| -f64::from(u8::from(a <= 1.0))),
    ("ours <= 2, negated", |a, _| -f64::from(u8::from(a <= 2.0))),
    ("ours <= 3, negated", |a, _| -f64::from(u8::from(a <= 3.0))),
    ("ours: 1/(1+n), negated", |a, _| -1.0 / (1.0 + a)),
];

fn read(paths: &[String]) -> Vec<Sample> {
    let mut samples = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            let [fen, result, start, ..] = fields[..] else {
                continue;
            };
            // A stalled ending's hundreds of positions share one result
            // (often a flag), which would swamp the fit.
            if fen.split(' ').nth(4).and_then(|c| c.parse::<u32>().ok()) > Some(STALLED) {
                continue;
            }
            let (Ok(pos), Ok(result)) = (Position::from_fen(fen, Rules::Antichess), result.parse())
            else {
                continue;
            };
            let legal = pos.count_legal();
            let Some(diff) = antichess_terms(&pos, || legal).legal_moves else {
                continue;
            };
            let ours = legal as f64;
            let theirs = ours - f64::from(diff);
            let mut x = vec![f64::from(evaluate(&pos)).clamp(-3000.0, 3000.0) / 400.0];
            x.extend(CANDIDATES.iter().map(|(_, f)| f(ours, theirs)));
            samples.push(Sample {
                men: pos.occupied().count(),
                x,
                result,
                fold: fnv(start) % FOLDS,
            });
        }
    }
    samples
}

/// Logistic fit on the features in `used` (plus an offset) by Adam.
fn fit(samples: &[&Sample], used: &[usize]) -> Vec<f64> {
    let n = used.len() + 1;
    let mut w = vec![0.0; n];
    w[0] = 1.0;
    let (mut m1, mut m2) = (vec![0.0; n], vec![0.0; n]);
    let count = samples.len() as f64;
    for t in 1..=ITERATIONS {
        let mut grad = vec![0.0; n];
        for s in samples {
            let d = (predict(&w, used, s) - s.result) / count;
            for (g, &i) in grad.iter_mut().zip(used) {
                *g += d * s.x[i];
            }
            grad[n - 1] += d;
        }
        for i in 0..n {
            m1[i] = 0.9 * m1[i] + 0.1 * grad[i];
            m2[i] = 0.999 * m2[i] + 0.001 * grad[i] * grad[i];
            w[i] -= 0.02 * m1[i]
                / (1.0 - 0.9f64.powi(t))
                / ((m2[i] / (1.0 - 0.999f64.powi(t))).sqrt() + 1e-8);
        }
    }
    w
}

fn predict(w: &[f64], used: &[usize], s: &Sample) -> f64 {
    let z: f64 = used.iter().zip(w).map(|(&i, wi)| wi * s.x[i]).sum::<f64>() + w[w.len() - 1];
    1.0 / (1.0 + (-z).exp())
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let samples = read(&paths);
    println!("{} positions", samples.len());
    let buckets = [(2, 12), (12, 20), (20, 27), (27, 33)];
    let mut models: Vec<(String, Vec<usize>)> = vec![("evaluation alone".into(), vec![0])];
    for (i, (name, _)) in CANDIDATES.iter().enumerate() {
        models.push((format!("+ {name}"), vec![0, i + 1]));
    }
    for (name, used) in &models {
        let mut loss = [0.0; 4];
        let mut count = [0.0; 4];
        // The first fold's fit in each range of men.
        let mut weights = Vec::new();
        for (b, &(lo, hi)) in buckets.iter().enumerate() {
            let inside = |s: &&Sample| (lo..hi).contains(&s.men);
            for fold in 0..FOLDS {
                let train: Vec<&Sample> = samples
                    .iter()
                    .filter(inside)
                    .filter(|s| s.fold != fold)
                    .collect();
                let w = fit(&train, used);
                for s in samples.iter().filter(inside).filter(|s| s.fold == fold) {
                    let p = predict(&w, used, s).clamp(1e-6, 1.0 - 1e-6);
                    loss[b] -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
                    count[b] += 1.0;
                }
                if fold == 0 {
                    weights.push(w);
                }
            }
        }
        let per: Vec<String> = (0..4)
            .map(|b| format!("{:.4}", loss[b] / count[b]))
            .collect();
        let total = loss.iter().sum::<f64>() / count.iter().sum::<f64>();
        println!("{name:40} held-out log loss {total:.4}  by men {per:?}");
        for w in &weights {
            println!("    {w:.3?}");
        }
    }
}
