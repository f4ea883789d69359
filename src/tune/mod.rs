//! `antichess tune`: fits the antichess evaluation's weights to the results
//! of played games (Texel tuning). The games come from `antichess match
//! --pgn` (against Fairy-Stockfish, or self-play); the fitted weights come
//! out in the `ANTICHESS_EVAL` form, so that a match can check them against
//! the weights in force before they are written into
//! `src/chess/weights.rs`. README.md ("Strength") has the whole loop.

pub mod pgn_read;
pub mod texel;

use crate::chess::Rules;
use crate::chess::weights;
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
}

/// Reads the games, fits, and prints the fitted weights on stdout.
pub fn run(options: &TuneOptions) -> Result<(), String> {
    if !options.rules.is_antichess() {
        return Err(
            "only the antichess evaluation can be tuned (--rules antichess or antichess1994)"
                .into(),
        );
    }
    let mut fixed = [false; 12];
    for name in &options.fixed {
        let index = texel::NAMES.iter().position(|n| n == name).ok_or_else(|| {
            format!(
                "unknown weight '{name}' (one of {})",
                texel::NAMES.join(", ")
            )
        })?;
        fixed[index] = true;
    }
    let base = *weights::antichess(options.rules);
    let mut games = Vec::new();
    for path in &options.pgn {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let read = pgn_read::read_games(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(read);
    }
    let samples = texel::samples(&games, options.rules, base.legal_moves_cap);
    if samples.is_empty() {
        return Err(format!(
            "no quiet positions of finished {} games in the files",
            options.rules
        ));
    }
    let start = texel::to_vector(&base);
    let k = texel::fit_k(&samples, &start);
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
    for (name, (old, new)) in texel::NAMES.iter().zip(start.iter().zip(&rounded)) {
        eprintln!("  {name:<14} {old:>6} -> {new:>6}");
    }
    let spec: Vec<String> = texel::NAMES
        .iter()
        .zip(rounded)
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    println!("{}", spec.join(","));
    Ok(())
}
