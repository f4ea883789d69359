//! Labels from search: each position's label blends the game's result with
//! what a short search of our own thinks of it, through the same logistic
//! curve the fit uses. A game's result says who won, not whether this
//! position had anything to do with it; a search's score is about the
//! position itself, so the blend is a less noisy target for a static
//! evaluation whose job is to foresee what the search would find.

use super::texel::{Sample, sigmoid};
use crate::chess::Position;
use crate::search::{Limits, Score, Searcher, is_decisive};
use std::sync::atomic::AtomicBool;

/// The table each labelling thread's searches share, in MiB. It is never
/// cleared: a thread's positions come in game order, so neighbours share
/// lines, and a stale entry only costs a re-search.
const HASH_MIB: usize = 16;

/// Replaces each sample's label by `(1 - weight) * result + weight *
/// search`, the search label being a `nodes`-node search's score through
/// the curve of scale `k` (a found mate is 0 or 1), on as many threads as
/// the machine has.
pub fn by_search(samples: &mut [Sample], nodes: u64, weight: f64, k: f64) -> Result<(), String> {
    if !(0.0..=1.0).contains(&weight) {
        return Err(format!(
            "the search label's share must be from 0 to 1, not {weight}"
        ));
    }
    let positions: Vec<Position> = samples.iter().map(|s| s.position).collect();
    for (sample, score) in samples.iter_mut().zip(scores(&positions, nodes)?) {
        sample.result = (1.0 - weight) * sample.result + weight * search_label(score, k);
    }
    Ok(())
}

/// A search's score as a label: through the curve of scale `k`, a found
/// win or loss 1 or 0.
pub fn search_label(score: Score, k: f64) -> f64 {
    if is_decisive(score) {
        f64::from(u8::from(score > 0))
    } else {
        sigmoid(k, f64::from(score))
    }
}

/// Each position's score for its side to move by a `nodes`-node search,
/// on as many threads as the machine has.
pub fn scores(positions: &[Position], nodes: u64) -> Result<Vec<Score>, String> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = positions.len().div_ceil(threads).max(1);
    let total = positions.len();
    std::thread::scope(|scope| {
        let workers: Vec<_> = positions
            .chunks(chunk)
            .map(|part| scope.spawn(move || score_part(part, nodes, total)))
            .collect();
        let mut out = Vec::with_capacity(total);
        for worker in workers {
            out.extend(
                worker
                    .join()
                    .unwrap_or_else(|_| Err("a labelling thread failed".into()))?,
            );
        }
        Ok(out)
    })
}

fn score_part(positions: &[Position], nodes: u64, total: usize) -> Result<Vec<Score>, String> {
    let mut searcher = Searcher::new(HASH_MIB).map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(nodes);
    let mut out = Vec::with_capacity(positions.len());
    for (i, position) in positions.iter().enumerate() {
        out.push(searcher.search(position, &[], &limits, &stop, |_| {}).score);
        if i % 5000 == 4999 {
            log::info!(
                "labelled {} of this thread's share of {total} positions",
                i + 1
            );
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::tune::texel::N;

    fn sample(fen: &str, result: f64) -> Sample {
        Sample {
            features: [0.0; N],
            result,
            position: Position::from_fen(fen, Rules::Antichess).unwrap(),
        }
    }

    #[test]
    fn a_won_position_is_labelled_won() {
        // Rb2 forces Rxb2 and leaves White's king alone: White wins, though
        // the game (say) was lost.
        let won = "1r5k/8/8/8/8/8/R7/K7 w - - 0 1";
        let mut samples = [sample(won, 0.0), sample(won, 0.0)];
        by_search(&mut samples[..1], 2000, 0.5, 0.2).unwrap();
        by_search(&mut samples[1..], 2000, 1.0, 0.2).unwrap();
        assert_eq!((samples[0].result, samples[1].result), (0.5, 1.0));
    }

    #[test]
    fn the_share_must_be_a_fraction() {
        let mut samples = [sample("1r5k/8/8/8/8/8/R7/K7 w - - 0 1", 1.0)];
        assert!(by_search(&mut samples, 100, 1.5, 0.2).is_err());
        assert!(by_search(&mut samples, 100, -0.1, 0.2).is_err());
        assert_eq!(samples[0].result, 1.0);
    }
}
