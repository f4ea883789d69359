//! `antichess book`: makes a small opening book for a rule set from
//! positions both sides reach often and the engine judges not lost at
//! once. Seeded random walks of a few plies from the start (in antichess
//! most plies are compulsory captures, so the walks meet again and again
//! in the same positions) are counted by position; the most frequent are
//! searched to a fixed node budget and kept while the side to move is
//! within a margin of even. The book is written as EPD, the most frequent
//! first, each line with its count and score as operations. Checkers books
//! are made the same way by [`super::checkers_book`], as lines of moves.

use super::openings::random_opening;
use crate::chess::{Position, Rules, UnknownRules};
use crate::rng::SplitMix;
use crate::search::{Limits, Searcher, is_decisive};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// What `antichess book` was asked to do.
#[derive(Clone, Debug, clap::Args)]
pub struct BookOptions {
    /// Where to write the book (EPD; for checkers, one line of moves an
    /// opening).
    #[arg(long)]
    pub out: PathBuf,
    /// Rule set: antichess, antichess1994, chess or checkers.
    #[arg(long, default_value = "antichess")]
    pub rules: BookRules,
    /// Openings to keep.
    #[arg(long, default_value_t = 50)]
    pub count: usize,
    /// Plies of each walk from the start (default 4; 3 for checkers, the
    /// three-move ballots of tournament checkers).
    #[arg(long)]
    pub plies: Option<u32>,
    /// Random walks to count positions over.
    #[arg(long, default_value_t = 20_000)]
    pub walks: u32,
    /// Nodes of the search that judges each candidate.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Keep a position only if the search's score for the side to move
    /// is within this many centipawns of even (default 150; for checkers
    /// 50 hundredths of a man).
    #[arg(long)]
    pub margin: Option<i32>,
    /// Seed of the walks.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The rule set of a book: a chess-board one, or checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookRules {
    /// Antichess, antichess1994 or chess.
    Board(Rules),
    /// American checkers.
    Checkers,
}

impl std::str::FromStr for BookRules {
    type Err = String;

    fn from_str(s: &str) -> Result<BookRules, String> {
        if s.eq_ignore_ascii_case("checkers") {
            return Ok(BookRules::Checkers);
        }
        s.parse().map(BookRules::Board).map_err(|_: UnknownRules| {
            let shown: String = s.chars().take(40).collect();
            format!(
                "unknown rules '{shown}' (expected antichess, antichess1994, chess or checkers)"
            )
        })
    }
}

/// Makes the book and writes it; prints how many positions were kept.
pub fn run(options: &BookOptions) -> Result<(), String> {
    if options.count == 0 || options.walks == 0 {
        return Err("--count and --walks must be at least 1".into());
    }
    let rules = match options.rules {
        BookRules::Board(rules) => rules,
        BookRules::Checkers => {
            let (plies, margin) = (options.plies.unwrap_or(3), options.margin.unwrap_or(50));
            return super::checkers_book::make(options, plies, margin);
        }
    };
    let (plies, margin) = (options.plies.unwrap_or(4), options.margin.unwrap_or(150));
    let mut seen: HashMap<String, (u32, Position)> = HashMap::new();
    let mut seeds = SplitMix::new(options.seed);
    for _ in 0..options.walks {
        let Some(pos) = random_opening(rules, plies, seeds.next_u64()) else {
            continue;
        };
        // Positions are told apart without their move counters.
        let fen = pos.fen();
        let key: String = fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        seen.entry(key).or_insert((0, pos)).0 += 1;
    }
    let mut candidates: Vec<(String, u32, Position)> =
        seen.into_iter().map(|(k, (n, p))| (k, n, p)).collect();
    // Most frequent first; ties in the FEN's order, so that the book
    // depends on the seed alone.
    candidates.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut searcher =
        Searcher::<Position>::new(16).map_err(|e| format!("cannot make the search: {e}"))?;
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(options.nodes);
    let mut text = format!(
        "# antichess book --rules {} --plies {} --walks {} --nodes {} --margin {} --seed {} --count {}\n",
        rules, plies, options.walks, options.nodes, margin, options.seed, options.count
    );
    let (mut kept, mut judged) = (0, 0);
    for (key, count, pos) in candidates {
        if kept == options.count {
            break;
        }
        judged += 1;
        searcher.clear();
        let found = searcher.search(&pos, &[pos.key()], &limits, &stop, |_| {});
        if found.best_move.is_none() || is_decisive(found.score) || found.score.abs() > margin {
            continue;
        }
        text.push_str(&format!(
            "{key} c0 \"seen {count} times in {} walks\"; ce {};\n",
            options.walks, found.score
        ));
        kept += 1;
    }
    super::write_atomically(&options.out, &text)?;
    println!(
        "{}: {kept} openings kept of {judged} judged",
        options.out.display()
    );
    Ok(())
}
