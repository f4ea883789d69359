//! `antichess fit-net`: fits the learned correction of `src/chess/net.rs`
//! to positions labelled by searches of ours (`antichess tune --positions
//! POS.tsv --search-nodes N` writes them).
//!
//! The network is fitted to what the search found beyond the hand-made
//! evaluation: each position's prediction is the hand-made score plus
//! the network's, through the same logistic curve as the label, so the
//! network learns the residual in the evaluation's own units. A tenth of
//! the openings are held out; the weights written are those of the epoch
//! that predicted them best, less their mean correction (see `centre`).

use super::label::search_label;
use super::texel::{best_scale, sigmoid};
use crate::chess::eval::antichess_hand_made;
use crate::chess::net::{self, HIDDEN, INPUTS, Inputs, Net, OUTPUT_SCALE};
use crate::chess::{Position, Rules};
use crate::rng::Xoshiro;
use crate::search::{Game, MoveList, Score};
use std::path::PathBuf;

/// What `antichess fit-net` was asked to do (its command line).
#[derive(Clone, Debug, clap::Args)]
pub struct NetFitOptions {
    /// The labelled positions (FEN, result, start, search score: four
    /// tab-separated columns a line).
    pub positions: PathBuf,
    /// Where to write the weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Rule set of the positions: antichess or antichess1994.
    #[arg(long, default_value = "antichess")]
    pub rules: Rules,
    /// Passes over the positions (the best held-out one is kept).
    #[arg(long, default_value_t = 25)]
    pub epochs: u32,
    /// The search label's share of each label, from 0 to 1 (the game's
    /// result has the rest).
    #[arg(long, default_value_t = 1.0)]
    pub search_weight: f64,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    pub rate: f32,
    /// The epoch from which the step size is a tenth of `--rate`, so that
    /// the last passes settle where the large steps only circle (none:
    /// the rate never falls).
    #[arg(long)]
    pub rate_drop: Option<u32>,
    /// Weight decay per step, in parts of the step size (0.1 held out
    /// best of 0.0001, 0.1 and 1 on 210,000 positions).
    #[arg(long, default_value_t = 0.1)]
    pub decay: f32,
    /// Seed of the initial weights and of the positions' order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Only the positions with no capture or promotion to make: where
    /// quiescence stands pat on the evaluation alone (`gen-data` writes
    /// every position not in check).
    #[arg(long)]
    pub quiet: bool,
}

/// One labelled position, ready for the fit.
struct Row {
    inputs: Inputs,
    /// The hand-made evaluation, centipawns.
    base: f32,
    /// The search's score and the game's result, for the side to move.
    score: Score,
    result: f64,
    /// The label, a probability of winning (set once the curve is known).
    target: f32,
    /// Held out for validation.
    held_out: bool,
}

/// Reads the positions, fits, writes the weights.
pub fn run(options: &NetFitOptions) -> Result<(), String> {
    if !options.rules.is_antichess() {
        return Err("the network corrects the antichess evaluation only".into());
    }
    if !(0.0..=1.0).contains(&options.search_weight) {
        return Err(format!(
            "the search label's share must be from 0 to 1, not {}",
            options.search_weight
        ));
    }
    if let Some(from) = options
        .rate_drop
        .filter(|&from| from == 0 || from > options.epochs)
    {
        return Err(format!(
            "--rate-drop {from} would never lower the rate: it must be an epoch from 1 to --epochs ({})",
            options.epochs
        ));
    }
    let text = std::fs::read_to_string(&options.positions)
        .map_err(|e| format!("cannot read {}: {e}", options.positions.display()))?;
    let mut rows = read_rows(&text, options)?;
    let k = fit_k(&rows);
    label(&mut rows, k, options.search_weight);
    let (train, held): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|r| !r.held_out);
    if train.is_empty() || held.is_empty() {
        return Err("too few openings to hold a tenth of them out".into());
    }
    eprintln!(
        "fit-net: {} positions to fit, {} held out; curve scale {k:.3}; the hand-made evaluation alone: {:.5} held out",
        train.len(),
        held.len(),
        loss(&Net::zero(), &held, k)
    );
    let mut fit = Fit::new(options, k);
    let mut best = (loss(&fit.net, &held, k), fit.net.clone());
    let mut rng = Xoshiro::new(options.seed ^ 0x5EED);
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 1..=options.epochs {
        if options.rate_drop.is_some_and(|from| epoch >= from) {
            fit.rate = options.rate / 10.0;
        }
        rng.shuffle(&mut order);
        for batch in order.chunks(BATCH) {
            fit.step(batch.iter().map(|&i| train[i]));
        }
        let held_loss = loss(&fit.net, &held, k);
        eprintln!(
            "fit-net: epoch {epoch}: {:.5} fitted, {held_loss:.5} held out",
            loss(&fit.net, &train, k)
        );
        if held_loss < best.0 {
            best = (held_loss, fit.net.clone());
        }
    }
    let (fitted_loss, mut net) = best;
    let shift = centre(&mut net, &train);
    crate::referee::write_atomically(&options.out, &net.to_text())?;
    eprintln!(
        "fit-net: wrote {} ({fitted_loss:.5} held out as fitted; its mean correction, {:.0} centipawns, taken off: {:.5})",
        options.out.display(),
        shift * OUTPUT_SCALE,
        loss(&net, &held, k)
    );
    Ok(())
}

/// Takes the network's mean correction over `rows` off its output bias,
/// and returns it. The search's scores of a position run well under the
/// evaluation's (it counts 400 for having the move), and a constant
/// added for the side to move at every node changes what the move is
/// worth, which games set: three fits that kept it (about -370) lost
/// 5.5 points in 200 games and 8 in about 50 (docs/strength-log.md,
/// 2026-11-28, 4d0a8a8).
fn centre(net: &mut Net, rows: &[&Row]) -> f32 {
    let sum: f64 = rows
        .iter()
        .map(|row| f64::from(net.output(&net.hidden(&row.inputs))))
        .sum();
    let mean = (sum / rows.len().max(1) as f64) as f32;
    net.output_bias -= mean;
    mean
}

/// Positions a step of the fit averages over.
const BATCH: usize = 256;

/// The curve's scale that best maps the search's scores to the games'
/// results; the label and the prediction share it, so that the network's
/// centipawns are the search's.
fn fit_k(rows: &[Row]) -> f64 {
    best_scale(|k| {
        rows.iter()
            .map(|r| (search_label(r.score, k) - r.result).powi(2))
            .sum()
    })
}

/// Sets each row's label: the search's share `w` through the curve of
/// scale `k`, the game's result the rest.
fn label(rows: &mut [Row], k: f64, w: f64) {
    for row in rows {
        row.target = (w * search_label(row.score, k) + (1.0 - w) * row.result) as f32;
    }
}

fn read_rows(text: &str, options: &NetFitOptions) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |why: String| format!("{} line {}: {why}", options.positions.display(), n + 1);
        let cols: Vec<&str> = line.split('\t').collect();
        let [fen, result, start, score] = cols[..] else {
            return Err(at(format!(
                "{} columns where four are wanted (FEN, result, start, search score)",
                cols.len()
            )));
        };
        let pos = Position::from_fen(fen, options.rules).map_err(|e| at(e.to_string()))?;
        if options.quiet && has_tactical_move(&pos) {
            continue;
        }
        let result: f64 = result
            .parse()
            .ok()
            .filter(|r| (0.0..=1.0).contains(r))
            .ok_or_else(|| at(format!("'{result}' is not a result from 0 to 1")))?;
        let score: Score = score
            .parse()
            .map_err(|_| at(format!("'{score}' is not a search score")))?;
        let base = antichess_hand_made(&pos, || pos.count_legal());
        rows.push(Row {
            inputs: net::inputs(&pos),
            base: base as f32,
            score,
            result,
            target: 0.0,
            held_out: super::is_held_out(start, 10),
        });
    }
    Ok(rows)
}

/// Whether the side to move has a capture or a promotion to make.
fn has_tactical_move(pos: &Position) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&mv| pos.is_tactical(mv))
}

/// The prediction for `row` and the hidden sums it came from.
fn predict(net: &Net, row: &Row, k: f64) -> (f32, [f32; HIDDEN]) {
    let sums = net.hidden(&row.inputs);
    let eval = row.base + net.output(&sums) * OUTPUT_SCALE;
    (sigmoid(k, f64::from(eval)) as f32, sums)
}

/// Mean squared error of the predictions.
fn loss(net: &Net, rows: &[&Row], k: f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|row| f64::from(predict(net, row, k).0 - row.target).powi(2))
        .sum();
    sum / rows.len().max(1) as f64
}

/// The network being fitted and Adam's state over every weight: the
/// hidden weights, the hidden biases, the output weights, the output bias,
/// in that order (the file's).
struct Fit {
    net: Net,
    grad: Vec<f32>,
    mean: Vec<f32>,
    square: Vec<f32>,
    steps: i32,
    rate: f32,
    decay: f32,
    k: f64,
}

const PARAMS: usize = INPUTS * HIDDEN + 2 * HIDDEN + 1;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;

impl Fit {
    fn new(options: &NetFitOptions, k: f64) -> Fit {
        let mut net = Net::zero();
        // Small random hidden weights break the units' symmetry; the
        // output starts at 0, so the fit starts from the hand-made
        // evaluation alone.
        let mut rng = Xoshiro::new(options.seed);
        for w in &mut net.hidden_weights {
            *w = (rng.below(2001) as f32 - 1000.0) / 1000.0 * 0.1;
        }
        for b in &mut net.hidden_bias {
            *b = 0.5;
        }
        Fit {
            net,
            grad: vec![0.0; PARAMS],
            mean: vec![0.0; PARAMS],
            square: vec![0.0; PARAMS],
            steps: 0,
            rate: options.rate,
            decay: options.decay,
            k,
        }
    }

    /// One step of Adam over `batch`.
    fn step<'a>(&mut self, batch: impl Iterator<Item = &'a Row>) {
        self.grad.fill(0.0);
        let (hb, ow, ob) = (INPUTS * HIDDEN, INPUTS * HIDDEN + HIDDEN, PARAMS - 1);
        let mut count = 0;
        // d(eval)/d(sigmoid input) in the curve's units.
        let slope = (self.k * std::f64::consts::LN_10 / 400.0) as f32 * OUTPUT_SCALE;
        for row in batch {
            count += 1;
            let (p, sums) = predict(&self.net, row, self.k);
            let d_out = 2.0 * (p - row.target) * p * (1.0 - p) * slope;
            self.grad[ob] += d_out;
            for (j, &s) in sums.iter().enumerate() {
                self.grad[ow + j] += d_out * net::activation(s);
                if s <= 0.0 || s >= 1.0 {
                    continue;
                }
                let d_hidden = d_out * self.net.output_weights[j];
                self.grad[hb + j] += d_hidden;
                for &i in &row.inputs {
                    self.grad[usize::from(i) * HIDDEN + j] += d_hidden;
                }
            }
        }
        self.steps += 1;
        let scale = 1.0 / count.max(1) as f32;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        let (rate, decay) = (self.rate, self.decay);
        let (mean, square, grad) = (&mut self.mean, &mut self.square, &self.grad);
        let mut update = |i: usize, w: &mut f32| {
            let g = grad[i] * scale;
            mean[i] = BETA1 * mean[i] + (1.0 - BETA1) * g;
            square[i] = BETA2 * square[i] + (1.0 - BETA2) * g * g;
            *w -= rate * ((mean[i] / c1) / ((square[i] / c2).sqrt() + 1e-8) + decay * *w);
        };
        for (i, w) in self.net.hidden_weights.iter_mut().enumerate() {
            update(i, w);
        }
        for (j, w) in self.net.hidden_bias.iter_mut().enumerate() {
            update(hb + j, w);
        }
        for (j, w) in self.net.output_weights.iter_mut().enumerate() {
            update(ow + j, w);
        }
        update(ob, &mut self.net.output_bias);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(path: PathBuf, out: PathBuf) -> NetFitOptions {
        NetFitOptions {
            positions: path,
            out,
            rules: Rules::Antichess,
            epochs: 30,
            search_weight: 1.0,
            rate: 0.01,
            rate_drop: Some(25),
            decay: 0.0,
            seed: 1,
            quiet: false,
        }
    }

    /// Positions where a man on one square makes the search's score 300
    /// centipawns higher than the hand-made evaluation says: the network
    /// must learn that, and held-out openings must show it.
    #[test]
    fn the_fit_learns_what_the_evaluation_misses() {
        let dir = std::env::temp_dir().join(format!("net-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut text = String::new();
        let mut rng = Xoshiro::new(3);
        for game in 0..120 {
            let mut pos = Position::startpos(Rules::Antichess);
            for _ in 0..12 {
                let mut moves = crate::search::MoveList::new();
                pos.legal_moves(&mut moves);
                let Some(mv) = rng.pick(&moves) else { break };
                pos = pos.play(mv);
                let base = antichess_hand_made(&pos, || pos.count_legal());
                let us = pos.side_to_move();
                // Our knight on its own c3 (from our seat) is worth 3 pawns.
                let c3 = if us == crate::chess::Color::White {
                    18
                } else {
                    42
                };
                let knight = pos.pieces(us, crate::chess::PieceKind::Knight);
                let bonus = if knight.0 >> c3 & 1 == 1 { 300 } else { 0 };
                text += &format!("{}\t0.5\tgame{game}\t{}\n", pos.fen(), base + bonus);
            }
        }
        let path = dir.join("pos.tsv");
        std::fs::write(&path, text).unwrap();
        let out = dir.join("net.txt");
        run(&options(path.clone(), out.clone())).unwrap();
        let net = Net::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let mut rows = read_rows(
            &std::fs::read_to_string(&path).unwrap(),
            &options(path, out),
        )
        .unwrap();
        let k = fit_k(&rows);
        label(&mut rows, k, 1.0);
        let held: Vec<&Row> = rows.iter().filter(|r| r.held_out).collect();
        assert!(loss(&net, &held, k) < 0.5 * loss(&Net::zero(), &held, k));
        // The fit's mean correction was taken off: near 0 over all rows.
        let all: Vec<&Row> = rows.iter().collect();
        let mean = centre(&mut net.clone(), &all) * OUTPUT_SCALE;
        assert!(mean.abs() < 20.0, "{mean}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rate_drop_that_never_comes_is_refused() {
        let path = PathBuf::from("no-such-positions.tsv");
        for drop in [0, 31] {
            let opts = NetFitOptions {
                rate_drop: Some(drop),
                ..options(path.clone(), PathBuf::from("out"))
            };
            let err = run(&opts).err().unwrap();
            assert!(err.contains("--rate-drop"), "{err}");
        }
    }

    #[test]
    fn quiet_leaves_out_the_positions_with_a_capture_due() {
        let opts = NetFitOptions {
            quiet: true,
            ..options(PathBuf::from("pos.tsv"), PathBuf::from("out"))
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
        let capture = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2";
        let text = format!("{start}\t1\tx\t0\n{capture}\t1\tx\t0\n");
        assert_eq!(read_rows(&text, &opts).unwrap().len(), 1);
    }

    #[test]
    fn bad_rows_are_named() {
        let path = PathBuf::from("pos.tsv");
        let opts = options(path, PathBuf::from("out"));
        let err = |text: &str| read_rows(text, &opts).err().unwrap();
        assert!(err("8/8 w\t1\tx\t0\n").contains("line 1"));
        assert!(err("a\tb\n").contains("2 columns"));
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
        assert!(err(&format!("{start}\t2\tx\t0\n")).contains("not a result"));
        assert!(err(&format!("{start}\t1\tx\tten\n")).contains("not a search score"));
    }
}
