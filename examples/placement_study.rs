//! Does piece placement say who wins an antichess game beyond what our
//! evaluation says? A study for a learned evaluation (docs/strength-log.md,
//! 2026-11-26, 4599387), not part of the engine.
//!
//! ```sh
//! antichess tune GAMES.pgn --positions POS.tsv     # once per match
//! antichess tune GAMES.pgn --positions POS.tsv --search-nodes 15000
//! cargo run --release --example placement_study -- [--fold] POS.tsv...
//! ```
//!
//! Fits two logistic models of each position's result for the side to
//! move by full-batch gradient descent (Adam): our evaluation alone
//! (slope and offset), and our evaluation plus a placement table (each
//! kind of man on each square, the side to move's men counted plus and the
//! opponent's minus, mirrored for Black; a table for the full board and
//! one for a bare board, blended by the men left as the evaluation blends
//! its own), at several ridge penalties. A fifth of the openings (both
//! games of each, chosen by a hash of the start position) is
//! held out in turn (five-fold cross-validation), and the fits are scored
//! on the held-out positions by men on the board. Positions written with
//! `--search-nodes` are labelled by that search's score instead of the
//! game's result (through the evaluation's curve). `--fold`
//! folds files e-h onto d-a (384 weights instead of 768).

use antichess::chess::eval::evaluate;
use antichess::chess::{Color, PieceKind, Position, Rules};
use antichess::tune::fnv;
use antichess::tune::label::search_label;

/// Placement weights: kind × square, for the full board and a bare one.
const TABLE: usize = 6 * 64;
const WEIGHTS: usize = 2 * TABLE;
const ITERATIONS: i32 = 800;
/// Each fifth of the openings is held out in turn.
const FOLDS: u64 = 5;

/// One held-in or held-out position.
struct Sample {
    men: u32,
    /// Our evaluation in units of 400 centipawns, clamped to ±7.5.
    eval: f64,
    /// Placement features: (weight, value), a few dozen of them.
    placement: Vec<(usize, f64)>,
    /// The game's result for the side to move: 1, ½ or 0.
    result: f64,
    /// Which fifth of the openings the position's game is in.
    fold: u64,
}

fn placement(pos: &Position, fold: bool) -> Vec<(usize, f64)> {
    let share = (f64::from(pos.occupied().count()) / 32.0).min(1.0);
    let mut features = Vec::with_capacity(64);
    for color in Color::ALL {
        let sign = if color == pos.side_to_move() {
            1.0
        } else {
            -1.0
        };
        for (k, kind) in PieceKind::ALL.into_iter().enumerate() {
            for sq in pos.pieces(color, kind) {
                let mut i = sq.index() ^ if color == Color::Black { 56 } else { 0 };
                if fold && i % 8 > 3 {
                    i ^= 7;
                }
                features.push((k * 64 + i, sign * share));
                features.push((TABLE + k * 64 + i, sign * (1.0 - share)));
            }
        }
    }
    features
}

/// The positions of `antichess tune --positions` files: FEN, result, start.
fn read(paths: &[String], fold: bool) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let bad = |why: &str| format!("{path}:{}: {why}", n + 1);
            let fields: Vec<&str> = line.split('\t').collect();
            let (fen, result, start, score) = match fields[..] {
                [fen, result, start] => (fen, result, start, None),
                [fen, result, start, score] => (fen, result, start, Some(score)),
                _ => return Err(bad("not three or four tab-separated columns")),
            };
            let pos = Position::from_fen(fen, Rules::Antichess).map_err(|e| bad(&e.to_string()))?;
            let result = match score {
                None => result
                    .parse()
                    .map_err(|_| bad("the result is not a number"))?,
                // The evaluation's curve, 400 centipawns a unit: e to the
                // score / 400 is 10 to the score · log10(e) / 400.
                Some(score) => search_label(
                    score
                        .parse()
                        .map_err(|_| bad("the search score is not a number"))?,
                    std::f64::consts::LOG10_E,
                ),
            };
            samples.push(Sample {
                men: pos.occupied().count(),
                eval: f64::from(evaluate(&pos)).clamp(-3000.0, 3000.0) / 400.0,
                placement: placement(&pos, fold),
                result,
                // By the start alone: a control and a variant played on
                // the same openings share them, and an opening in two
                // folds would leak its results into the held-out score.
                fold: fnv(start) % FOLDS,
            });
        }
    }
    Ok(samples)
}

/// A fitted model: slope and offset on the evaluation, placement weights.
struct Model {
    slope: f64,
    offset: f64,
    weights: Vec<f64>,
}

impl Model {
    fn logit(&self, s: &Sample) -> f64 {
        let placed: f64 = s.placement.iter().map(|&(i, x)| self.weights[i] * x).sum();
        self.slope * s.eval + self.offset + placed
    }

    fn predict(&self, s: &Sample) -> f64 {
        1.0 / (1.0 + (-self.logit(s)).exp())
    }
}

/// Minimises the mean log loss over the held-in samples plus
/// `ridge · 50 · Σw² / samples` (placement weights only; none when `ridge`
/// is `None`).
fn fit(samples: &[Sample], held_out: u64, ridge: Option<f64>) -> Model {
    let train: Vec<&Sample> = samples.iter().filter(|s| s.fold != held_out).collect();
    let m = train.len() as f64;
    let mut model = Model {
        slope: 1.0,
        offset: 0.0,
        weights: vec![0.0; WEIGHTS],
    };
    let params = WEIGHTS + 2;
    let (mut first, mut second) = (vec![0.0; params], vec![0.0; params]);
    for t in 1..=ITERATIONS {
        let mut grad = vec![0.0; params];
        for s in &train {
            let d = (model.predict(s) - s.result) / m;
            grad[WEIGHTS] += d * s.eval;
            grad[WEIGHTS + 1] += d;
            if ridge.is_some() {
                for &(i, x) in &s.placement {
                    grad[i] += d * x;
                }
            }
        }
        if let Some(r) = ridge {
            for (g, w) in grad.iter_mut().zip(&model.weights) {
                *g += r * w * 100.0 / m;
            }
        }
        for (i, g) in grad.into_iter().enumerate() {
            first[i] = 0.9 * first[i] + 0.1 * g;
            second[i] = 0.999 * second[i] + 0.001 * g * g;
            let step = 0.01 * first[i]
                / (1.0 - 0.9f64.powi(t))
                / ((second[i] / (1.0 - 0.999f64.powi(t))).sqrt() + 1e-8);
            match i {
                i if i < WEIGHTS => model.weights[i] -= step,
                i if i == WEIGHTS => model.slope -= step,
                _ => model.offset -= step,
            }
        }
    }
    model
}

/// Log loss, squared error, decisive results whose winner the model
/// favours, and positions: sums over the held-out samples with `men` men.
#[derive(Clone, Copy, Default)]
struct Tally([f64; 4]);

impl Tally {
    fn add(
        &mut self,
        model: &Model,
        samples: &[Sample],
        held_out: u64,
        men: &std::ops::Range<u32>,
    ) {
        for s in samples
            .iter()
            .filter(|s| s.fold == held_out && men.contains(&s.men))
        {
            let p = model.predict(s).clamp(1e-6, 1.0 - 1e-6);
            let right = s.result != 0.5 && (p > 0.5) == (s.result > 0.5);
            self.0[0] -= s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln();
            self.0[1] += (p - s.result).powi(2);
            self.0[2] += f64::from(u8::from(right));
            self.0[3] += 1.0;
        }
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let [loss, squared, right, n] = self.0;
        write!(
            f,
            "{n:>6} positions: log loss {:.3}, squared error {:.3}, sign right {:.1}%",
            loss / n,
            squared / n,
            100.0 * right / n
        )
    }
}

/// Fits on every sample (none held out) with `ridge` and prints the
/// placement table in centipawns of our evaluation: each logistic weight
/// divided by the fitted slope, times the 400 centipawns a unit of the
/// evaluation stands for; by table (full board, bare board) and kind, a
/// board each, from White's side, rank 1 first.
fn write(samples: &[Sample], ridge: f64, fold: bool) {
    let model = fit(samples, FOLDS, Some(ridge));
    println!("# slope {:.4}, offset {:.4}", model.slope, model.offset);
    for (t, table) in model.weights.chunks(TABLE).enumerate() {
        for (kind, row) in PieceKind::ALL.into_iter().zip(table.chunks(64)) {
            println!("# {}, {}", ["full board", "bare board"][t], kind.word());
            for rank in 0..8 {
                let cp: Vec<String> = (0..8)
                    .map(|file| {
                        let i = rank * 8 + if fold && file > 3 { file ^ 7 } else { file };
                        format!("{:>6}", (row[i] / model.slope * 400.0).round() as i32)
                    })
                    .collect();
                println!("{}", cp.join(" "));
            }
        }
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fold = args.iter().any(|a| a == "--fold");
    let ridge: Option<f64> = args
        .iter()
        .find_map(|a| a.strip_prefix("--write="))
        .map(|r| r.parse().map_err(|_| format!("'{r}' is not a ridge")))
        .transpose()?;
    let ridges: Vec<Option<f64>> = match args.iter().find_map(|a| a.strip_prefix("--ridges=")) {
        None => vec![None, Some(0.1), Some(1.0)],
        Some(list) => list
            .split(',')
            .map(|r| {
                r.parse()
                    .map(Some)
                    .map_err(|_| format!("'{r}' is not a ridge"))
            })
            .collect::<Result<_, _>>()?,
    };
    let paths: Vec<String> = args
        .into_iter()
        .filter(|a| a != "--fold" && !a.starts_with("--write=") && !a.starts_with("--ridges="))
        .collect();
    if paths.is_empty() {
        return Err(
            "usage: placement_study [--fold] [--write=RIDGE | --ridges=R,...] POS.tsv...".into(),
        );
    }
    let samples = read(&paths, fold)?;
    if let Some(ridge) = ridge {
        write(&samples, ridge, fold);
        return Ok(());
    }
    println!(
        "{} positions, each fifth of the openings held out in turn",
        samples.len()
    );
    let bands = [("all", 0..33), ("18+ men", 18..33), ("<18 men", 0..18)];
    for ridge in ridges {
        let mut tallies = [Tally::default(); 3];
        for held_out in 0..FOLDS {
            let model = fit(&samples, held_out, ridge);
            for (tally, (_, men)) in tallies.iter_mut().zip(&bands) {
                tally.add(&model, &samples, held_out, men);
            }
        }
        match ridge {
            None => println!("our evaluation alone"),
            Some(r) => println!("with placement, ridge {r}"),
        }
        for (tally, (band, _)) in tallies.iter().zip(&bands) {
            println!("  {band:8} {tally}");
        }
    }
    Ok(())
}
