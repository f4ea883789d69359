//! `antichess tune`: fits the antichess evaluation's weights to the results
//! of played games (Texel tuning). The games come from `antichess match
//! --pgn` (against Fairy-Stockfish, or self-play); the fitted weights come
//! out in the `ANTICHESS_EVAL` form, so that a match can check them against
//! the weights in force before they are written into
//! `src/chess/antichess_weights.rs`. README.md ("Strength") has the whole loop.

pub mod label;
pub mod pgn_read;
pub mod texel;

use crate::chess::Rules;
use crate::chess::antichess_weights as weights;
use std::path::PathBuf;

/// What `antichess tune` was asked to do.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// PGN files to learn from.
    pub pgn: Vec<PathBuf>,
    /// Only games of this rule set (antichess or antichess1994).
    pub rules: Rules,
    /// Passes of gradient descent.
    pub epochs: u32,
    /// Weights kept as they are (names as in `ANTICHESS_EVAL`).
    pub fixed: Vec<String>,
    /// Nodes of the search that also labels each position (0: none).
    pub search_nodes: u64,
    /// The search label's share of each label, from 0 to 1.
    pub search_weight: f64,
}

/// Reads the games, fits, and prints the fitted weights on stdout.
pub fn run(options: &TuneOptions) -> Result<(), String> {
    if !options.rules.is_antichess() {
        return Err(
            "only the antichess evaluation can be tuned (--rules antichess or antichess1994)"
                .into(),
        );
    }
    let mut fixed = [false; texel::N];
    for name in &options.fixed {
        for full in weights::qualified(name) {
            let Some(i) = (0..texel::N).find(|&i| texel::name(i) == full) else {
                return Err(format!(
                    "unknown weight '{name}' (one of {}, each alone or after opening. or ending.)",
                    texel::TERMS.join(", ")
                ));
            };
            fixed[i] = true;
        }
    }
    let base = *weights::antichess(options.rules);
    let mut games = Vec::new();
    for path in &options.pgn {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read = pgn_read::read_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(read);
    }
    let mut samples = texel::samples(&games, options.rules, &base);
    if samples.is_empty() {
        return Err(format!(
            "no quiet positions of finished {} games in the files",
            options.rules
        ));
    }
    let start = texel::to_vector(&base);
    // The curve that maps the weights in force to results maps search
    // scores to labels as well, so the fit stays in the search's units.
    let k = texel::fit_k(&samples, &start);
    if options.search_nodes > 0 {
        label::by_search(&mut samples, options.search_nodes, options.search_weight, k)?;
    }
    let before = texel::error(&samples, &start, k);
    let fitted = texel::fit(&samples, &start, k, options.epochs, &fixed);
    let after = texel::error(&samples, &fitted, k);
    let tuned = texel::from_vector(&fitted, &base);
    eprintln!(
        "tune: {} games, {} quiet positions, curve scale {k:.3}; mean squared error {before:.5} -> {after:.5}",
        games.len(),
        samples.len()
    );
    let rounded = texel::to_vector(&tuned);
    for (i, (old, new)) in start.iter().zip(&rounded).enumerate() {
        eprintln!("  {:<28} {old:>6} -> {new:>6}", texel::name(i));
    }
    let spec: Vec<String> = rounded
        .iter()
        .enumerate()
        .map(|(i, value)| format!("{}={value}", texel::name(i)))
        .collect();
    println!("{}", spec.join(","));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(fixed: &[&str]) -> TuneOptions {
        TuneOptions {
            pgn: vec![PathBuf::from("/nonexistent/games.pgn")],
            rules: Rules::Antichess,
            epochs: 1,
            fixed: fixed.iter().map(|s| s.to_string()).collect(),
            search_nodes: 0,
            search_weight: 0.0,
        }
    }

    #[test]
    fn fixed_names_are_checked_before_the_games_are_read() {
        let err = run(&options(&["tempo", "opening.speed"])).unwrap_err();
        assert!(err.contains("unknown weight 'opening.speed'"), "{err}");
        // Known names, plain or with a table, get as far as the file.
        let err = run(&options(&["tempo", "ending.burden.pawn"])).unwrap_err();
        assert!(err.contains("cannot read /nonexistent/games.pgn"), "{err}");
    }
}
