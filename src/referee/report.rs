//! How match statistics are shown: the SPRT's line for scripts, its
//! status for people, and the crosstable of a match of many players.

use super::sprt::{Pentanomial, Sprt};
use super::stats::PairElo;

/// The SPRT as one line of `key=value` pairs for scripts: the LLR and its
/// bounds to full precision (Rust's shortest exact form), then the
/// pentanomial Elo and nElo with their 95% intervals, the LOS, the counts
/// and the verdict. Estimates not yet defined (no pair, or every pair
/// alike) read `nan`.
pub fn sprt_line(sprt: &Sprt, penta: &Pentanomial) -> String {
    let llr = sprt.llr(penta);
    let est = PairElo::from_counts(&penta.counts);
    let nan = (f64::NAN, f64::NAN, f64::NAN);
    let (elo, nelo) = est.map_or((nan, nan), |e| (e.elo, e.nelo));
    let los = est.map_or(f64::NAN, |e| e.los);
    let c = &penta.counts;
    format!(
        "llr={llr} lower={} upper={} elo={:.6} elo_low={:.6} elo_high={:.6} \
         nelo={:.6} nelo_low={:.6} nelo_high={:.6} los={:.6} pairs={} \
         penta={},{},{},{},{} elo0={} elo1={} alpha={} beta={} model={} verdict={}",
        sprt.lower(),
        sprt.upper(),
        elo.0,
        elo.1,
        elo.2,
        nelo.0,
        nelo.1,
        nelo.2,
        los,
        penta.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.model,
        sprt.verdict(llr)
    )
}

/// The SPRT's state for people, in fastchess's words: LLR and bounds,
/// the hypotheses, the pentanomial counts, Elo and nElo, and LOS.
pub fn sprt_status(sprt: &Sprt, penta: &Pentanomial) -> String {
    let llr = sprt.llr(penta);
    let mut out = format!(
        "SPRT [{}, {}] {} alpha {} beta {}: LLR {llr:.3} ({:.3}, {:.3}) after {} pairs, Ptnml(0-2) {penta}",
        sprt.elo0,
        sprt.elo1,
        sprt.model,
        sprt.alpha,
        sprt.beta,
        sprt.lower(),
        sprt.upper(),
        penta.pairs()
    );
    if let Some(e) = PairElo::from_counts(&penta.counts) {
        out.push_str(&format!(
            "\n  Elo {} , nElo {} , LOS {:.1}%",
            interval(e.elo),
            interval(e.nelo),
            e.los * 100.0
        ));
    }
    out
}

/// `+12.3 [+1.2, +23.4]`.
pub fn interval((mid, low, high): (f64, f64, f64)) -> String {
    format!("{mid:+.1} [{low:+.1}, {high:+.1}]")
}
