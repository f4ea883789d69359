//! Labels from search: each position's label blends the game's result with
//! what a short search of our own thinks of it, through the same logistic
//! curve the fit uses. A game's result says who won, not whether this
//! position had anything to do with it; a search's score is about the
//! position itself, so the blend is a less noisy target for a static
//! evaluation whose job is to foresee what the search would find.

use super::texel::{Sample, sigmoid};
use crate::search::{Limits, Searcher, is_decisive};
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
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks_mut(chunk)
            .map(|part| scope.spawn(move || label_part(part, nodes, weight, k)))
            .collect();
        workers.into_iter().try_for_each(|w| {
            w.join()
                .unwrap_or_else(|_| Err("a labelling thread failed".into()))
        })
    })
}

fn label_part(samples: &mut [Sample], nodes: u64, weight: f64, k: f64) -> Result<(), String> {
    let mut searcher = Searcher::new(HASH_MIB).map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(nodes);
    let total = samples.len();
    for (i, sample) in samples.iter_mut().enumerate() {
        let found = searcher.search(&sample.position, &[], &limits, &stop, |_| {});
        let search = if is_decisive(found.score) {
            if found.score > 0 { 1.0 } else { 0.0 }
        } else {
            sigmoid(k, f64::from(found.score))
        };
        sample.result = (1.0 - weight) * sample.result + weight * search;
        if i % 5000 == 4999 {
            log::info!("labelled {} of {total} positions", i + 1);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, Rules};
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
