//! `antichess tune`: fits the antichess evaluation's weights to the results
//! of played games (Texel tuning). The games come from `antichess match
//! --pgn` (against Fairy-Stockfish, or self-play); the fitted weights come
//! out in the `ANTICHESS_EVAL` form, so that a match can check them against
//! the weights in force before they are written into
//! `src/chess/antichess_weights.rs`. docs/strength.md has the whole loop.

pub mod label;
pub mod net_fit;
pub mod pgn_read;
pub mod selfplay;
pub mod texel;

use crate::chess::Rules;
use crate::chess::antichess_weights as weights;
use std::path::PathBuf;

/// FNV-1a of `text`: which openings a fit holds out must not depend on
/// the run (the standard library's hashers are seeded).
pub fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether the opening that starts from `start` (a FEN) is one of those a
/// fit holding out one opening in `every` keeps apart: the same openings
/// for every fit and every file order, both colours' games together.
pub fn is_held_out(start: &str, every: u64) -> bool {
    fnv(start).is_multiple_of(every)
}

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
    /// Write the quiet positions here instead of fitting.
    pub positions: Option<PathBuf>,
    /// With `positions`: random walks off each game position whose quiet
    /// ends are written too.
    pub scatter: usize,
    /// With `positions`: every position not in check, not only the quiet
    /// ones.
    pub every_position: bool,
    /// The ridge penalty on moving a weight from the table in force, in
    /// error per pawn's worth squared (0: none).
    pub ridge: f64,
    /// Hold out one opening in this many from the fit, and report the
    /// error on them (0: none held out).
    pub hold_out: u64,
}

impl TuneOptions {
    /// Which positions `--positions` writes.
    fn keep(&self) -> texel::Keep {
        if self.every_position {
            texel::Keep::Playable
        } else {
            texel::Keep::Quiet
        }
    }
}

/// Reads the games, fits, and prints the fitted weights on stdout.
pub fn run(options: &TuneOptions) -> Result<(), String> {
    if !options.rules.is_antichess() {
        return Err(
            "only the antichess evaluation can be tuned (--rules antichess or antichess1994)"
                .into(),
        );
    }
    // A negative ridge would push every weight away from the table.
    if !(options.ridge.is_finite() && options.ridge >= 0.0) {
        return Err(format!(
            "the ridge must be a number from 0 up, not {}",
            options.ridge
        ));
    }
    // One opening in one held out would leave nothing to fit.
    if options.hold_out == 1 {
        return Err("--hold-out must be 0 (none held out) or 2 and up".into());
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
    let none_quiet = || {
        format!(
            "no quiet positions of finished {} games in the files",
            options.rules
        )
    };
    if let Some(path) = &options.positions {
        let (text, count) = positions_file(&games, options, &base)?;
        if count == 0 {
            return Err(none_quiet());
        }
        crate::referee::write_atomically(path, &text)?;
        eprintln!(
            "tune: {count} {} positions written to {}",
            options.keep().name(),
            path.display()
        );
        return Ok(());
    }
    let (games, held_out) = hold_out(games, options.hold_out);
    let unseen = held_out_samples(&held_out, options, &base)?;
    let mut samples = texel::samples(&games, options.rules, &base);
    if samples.is_empty() {
        return Err(none_quiet());
    }
    let start = texel::to_vector(&base);
    // The curve that maps the weights in force to results maps search
    // scores to labels as well, so the fit stays in the search's units.
    let k = texel::fit_k(&samples, &start);
    if options.search_nodes > 0 {
        label::by_search(&mut samples, options.search_nodes, options.search_weight, k)?;
    }
    let before = texel::error(&samples, &start, k);
    let fitted = texel::fit(&samples, &start, k, options.epochs, &fixed, options.ridge);
    let after = texel::error(&samples, &fitted, k);
    let tuned = texel::from_vector(&fitted, &base);
    eprintln!(
        "tune: {} games, {} quiet positions, curve scale {k:.3}; mean squared error {before:.5} -> {after:.5}",
        games.len(),
        samples.len()
    );
    if !unseen.is_empty() {
        eprintln!(
            "tune: held out {} games, {} quiet positions; mean squared error {:.5} -> {:.5}",
            held_out.len(),
            unseen.len(),
            texel::error(&unseen, &start, k),
            texel::error(&unseen, &fitted, k)
        );
    }
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

/// `games` split into those to fit on and those held out: one opening in
/// `every` ([`is_held_out`]), none when `every` is 0.
fn hold_out(
    games: Vec<pgn_read::PgnGame>,
    every: u64,
) -> (Vec<pgn_read::PgnGame>, Vec<pgn_read::PgnGame>) {
    if every == 0 {
        return (games, Vec::new());
    }
    games
        .into_iter()
        .partition(|game| !is_held_out(&game.start.fen(), every))
}

/// The quiet positions of the `held_out` games, to score the fit on: an
/// error where `--hold-out` asks for some and there are none (too few
/// openings for one in K to fall out, or no quiet position in them),
/// rather than a fit that silently scores nothing.
fn held_out_samples(
    held_out: &[pgn_read::PgnGame],
    options: &TuneOptions,
    base: &weights::AntichessEval,
) -> Result<Vec<texel::Sample>, String> {
    if options.hold_out == 0 {
        return Ok(Vec::new());
    }
    let unseen = texel::samples(held_out, options.rules, base);
    if unseen.is_empty() {
        return Err(format!(
            "no quiet position in the held-out openings ({} games, one opening in {}): \
             give more games or a smaller --hold-out",
            held_out.len(),
            options.hold_out
        ));
    }
    Ok(unseen)
}

/// The quiet positions of `games` as `antichess tune --positions` writes
/// them: FEN, the game's result for the side to move, the game's start
/// position (which tells a position's opening, so that a check can keep
/// whole openings apart) and, when `nodes` is not 0, the score of a
/// `nodes`-node search of ours for the side to move; tab-separated, one a
/// line; and how many.
fn positions_file(
    games: &[pgn_read::PgnGame],
    options: &TuneOptions,
    base: &weights::AntichessEval,
) -> Result<(String, usize), String> {
    let (rules, nodes, keep) = (options.rules, options.search_nodes, options.keep());
    let starts: Vec<String> = games.iter().map(|g| g.start.fen()).collect();
    let mut rows = Vec::new();
    for (game, start) in games.iter().zip(&starts) {
        for sample in texel::samples_kept(std::slice::from_ref(game), rules, base, keep) {
            rows.push((sample, start));
        }
    }
    if options.scatter > 0 {
        let walks = (options.scatter, 1);
        for (sample, game) in texel::scattered(games, rules, base, walks, keep) {
            rows.push((sample, &starts[game]));
        }
    }
    let scores = if nodes > 0 {
        let positions: Vec<_> = rows.iter().map(|(s, _)| s.position).collect();
        label::scores(&positions, nodes)?
    } else {
        Vec::new()
    };
    let mut text = String::new();
    for (i, (sample, start)) in rows.iter().enumerate() {
        let fen = sample.position.fen();
        text += &format!("{fen}\t{}\t{start}", sample.result);
        if let Some(score) = scores.get(i) {
            text += &format!("\t{score}");
        }
        text.push('\n');
    }
    Ok((text, rows.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;

    fn options(fixed: &[&str]) -> TuneOptions {
        TuneOptions {
            pgn: vec![PathBuf::from("/nonexistent/games.pgn")],
            rules: Rules::Antichess,
            epochs: 1,
            fixed: fixed.iter().map(|s| s.to_string()).collect(),
            search_nodes: 0,
            search_weight: 0.0,
            positions: None,
            scatter: 0,
            every_position: false,
            ridge: 0.0,
            hold_out: 0,
        }
    }

    /// The positions file of one antichess game, searched `nodes` nodes
    /// a position.
    fn positions_of(result: &str, moves: &str, nodes: u64, scatter: usize) -> (String, usize) {
        let text = format!("[Variant \"antichess\"]\n[Result \"{result}\"]\n\n{moves} {result}\n");
        let games = pgn_read::read_games(&text).unwrap();
        let base = *weights::antichess(Rules::Antichess);
        let options = TuneOptions {
            search_nodes: nodes,
            scatter,
            ..options(&[])
        };
        positions_file(&games, &options, &base).unwrap()
    }

    #[test]
    fn positions_are_written_with_result_and_start() {
        // No capture is ever due in this game.
        let (file, count) = positions_of("0-1", "1. b4 e5 2. b5", 0, 0);
        let lines: Vec<Vec<&str>> = file.lines().map(|l| l.split('\t').collect()).collect();
        let start = Position::startpos(Rules::Antichess).fen();
        // One line a position, the result for its side to move.
        assert_eq!(lines.len(), 3, "{file}");
        assert_eq!(count, 3);
        assert_eq!(lines[0], [start.as_str(), "0", start.as_str()]);
        assert_eq!(lines[1][1], "1");
        assert_eq!(lines[2][1], "0");
        assert!(lines.iter().all(|l| l[2] == start));
    }

    #[test]
    fn positions_can_carry_a_search_score() {
        // After 1. e3 b5 White must capture: only the start and the
        // position after 1. e3 are quiet.
        let (file, count) = positions_of("1-0", "1. e3 b5 2. Bxb5", 500, 0);
        assert_eq!(count, 2, "{file}");
        for line in file.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            assert!(fields[3].parse::<i32>().is_ok(), "{line}");
        }
    }

    #[test]
    fn every_position_keeps_those_with_a_capture_due() {
        // After 1. e3 b5 White must capture; after 2. Bxb5 Black need not.
        let text = "[Variant \"antichess\"]\n[Result \"1-0\"]\n\n1. e3 b5 2. Bxb5 1-0\n";
        let games = pgn_read::read_games(text).unwrap();
        let base = *weights::antichess(Rules::Antichess);
        let options = TuneOptions {
            every_position: true,
            ..options(&[])
        };
        let (file, count) = positions_file(&games, &options, &base).unwrap();
        assert_eq!(count, 3, "{file}");
    }

    #[test]
    fn scattered_positions_are_quiet_and_off_the_path() {
        let (plain, count) = positions_of("0-1", "1. b4 e5 2. b5", 0, 0);
        let (file, more) = positions_of("0-1", "1. b4 e5 2. b5", 0, 8);
        assert!(file.starts_with(&plain));
        // Of 24 walks most end quiet, and each line keeps the game's start.
        assert!(more > count + 8, "{more}");
        let start = Position::startpos(Rules::Antichess).fen();
        for line in file.lines().skip(count) {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields[2], start);
            let pos = Position::from_fen(fields[0], Rules::Antichess).unwrap();
            let mut moves = crate::search::MoveList::new();
            pos.legal_moves(&mut moves);
            assert!(
                moves
                    .iter()
                    .all(|&mv| !crate::search::Game::is_tactical(&pos, mv)),
                "{line}"
            );
        }
    }

    #[test]
    fn held_out_openings_keep_both_games_together() {
        // Eight openings, each played twice (the colours' order does not
        // matter to the split: the start position does).
        let mut text = String::new();
        for first in ["a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4"] {
            for _ in 0..2 {
                text += "[Variant \"antichess\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n";
                let start = Position::startpos(Rules::Antichess);
                let pos = start.play(
                    start
                        .parse_move(&format!("{}2{first}", &first[..1]))
                        .unwrap(),
                );
                text += &format!("[FEN \"{}\"]\n\n1... e6 1-0\n\n", pos.fen());
            }
        }
        let games = pgn_read::read_games(&text).unwrap();
        assert_eq!(games.len(), 16);
        let (kept, held) = hold_out(games.clone(), 0);
        assert_eq!((kept.len(), held.len()), (16, 0));
        let (kept, held) = hold_out(games, 3);
        assert!(!held.is_empty() && !kept.is_empty(), "{} held", held.len());
        assert_eq!(held.len() % 2, 0);
        for game in &held {
            assert!(kept.iter().all(|k| k.start.fen() != game.start.fen()));
        }
        // Asked for, the held-out share must hold something to score on.
        let base = *weights::antichess(Rules::Antichess);
        let asked = |hold_out| TuneOptions {
            hold_out,
            ..options(&[])
        };
        let err = held_out_samples(&[], &asked(1000), &base).unwrap_err();
        assert!(
            err.contains("give more games or a smaller --hold-out"),
            "{err}"
        );
        assert!(held_out_samples(&[], &asked(0), &base).unwrap().is_empty());
        assert!(
            !held_out_samples(&held, &asked(3), &base)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn the_ridge_is_checked_before_the_games_are_read() {
        for ridge in [-0.001, f64::NAN, f64::INFINITY] {
            let err = run(&TuneOptions {
                ridge,
                ..options(&[])
            })
            .unwrap_err();
            assert!(err.contains("the ridge must be"), "{err}");
        }
        let err = run(&TuneOptions {
            ridge: 0.001,
            ..options(&[])
        })
        .unwrap_err();
        assert!(err.contains("cannot read /nonexistent/games.pgn"), "{err}");
    }

    #[test]
    fn holding_out_every_opening_is_refused_before_the_games_are_read() {
        let err = run(&TuneOptions {
            hold_out: 1,
            ..options(&[])
        })
        .unwrap_err();
        assert!(err.contains("--hold-out must be"), "{err}");
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
