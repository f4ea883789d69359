//! `antichess book`: makes a small opening book for a rule set from
//! positions both sides reach often and the engine judges not lost at
//! once. Seeded random walks of a few plies from the start (in antichess
//! most plies are compulsory captures, so the walks meet again and again
//! in the same positions) are counted by position; the most frequent are
//! searched to a fixed node budget and kept while the side to move is
//! within a margin of even. The book is written as EPD, the most frequent
//! first, each line with its count and score as operations. Checkers books
//! are made the same way by [`super::checkers_book`], as lines of moves.

use super::GameRules;
use super::openings::random_opening;
use crate::chess::Position;
use crate::rng::SplitMix;
use crate::search::{Game, Limits, Searcher, is_decisive};
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
    pub rules: GameRules,
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

/// Makes the book and writes it; prints how many positions were kept.
pub fn run(options: &BookOptions) -> Result<(), String> {
    if options.count == 0 || options.walks == 0 {
        return Err("--count and --walks must be at least 1".into());
    }
    let rules = match options.rules {
        GameRules::Board(rules) => rules,
        GameRules::Checkers => {
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
    let candidates = seen
        .into_iter()
        .map(|(key, (count, pos))| Candidate {
            line: key.clone(),
            key,
            count,
            history: vec![pos.key()],
            pos,
        })
        .collect();
    let header = format!(
        "# antichess book --rules {} --plies {} --walks {} --nodes {} --margin {} --seed {} --count {}\n",
        rules, plies, options.walks, options.nodes, margin, options.seed, options.count
    );
    keep_judged(options, header, candidates, margin, |c, score| {
        format!(
            "{} c0 \"seen {} times in {} walks\"; ce {score};",
            c.line, c.count, options.walks
        )
    })
}

/// A position the walks reached, as a candidate for the book.
pub(super) struct Candidate<P> {
    /// What tells positions apart (and orders ties).
    pub key: String,
    /// How many walks reached it.
    pub count: u32,
    /// How the book writes it (a FEN, the moves that reached it).
    pub line: String,
    /// The positions before it that the search must know for repetitions.
    pub history: Vec<u64>,
    /// The position.
    pub pos: P,
}

/// Judges the candidates, most frequent first (ties in the key's order,
/// so that the book depends on the seed alone), by a search of
/// `options.nodes` nodes; keeps the first `options.count` whose score for
/// the side to move is within `margin` of even and not decisive, each
/// written by `write`; writes the book after `header` and says how many
/// were kept.
pub(super) fn keep_judged<P: Game>(
    options: &BookOptions,
    header: String,
    mut candidates: Vec<Candidate<P>>,
    margin: i32,
    write: impl Fn(&Candidate<P>, i32) -> String,
) -> Result<(), String> {
    candidates.sort_by(|a, b| b.count.cmp(&a.count).then(a.key.cmp(&b.key)));
    let mut searcher =
        Searcher::<P>::new(16).map_err(|e| format!("cannot make the search: {e}"))?;
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(options.nodes);
    let mut text = header;
    let (mut kept, mut judged) = (0, 0);
    for candidate in &candidates {
        if kept == options.count {
            break;
        }
        judged += 1;
        searcher.clear();
        let found = searcher.search(&candidate.pos, &candidate.history, &limits, &stop, |_| {});
        if found.best_move.is_none() || is_decisive(found.score) || found.score.abs() > margin {
            continue;
        }
        text.push_str(&write(candidate, found.score));
        text.push('\n');
        kept += 1;
    }
    super::write_atomically(&options.out, &text)?;
    println!(
        "{}: {kept} openings kept of {judged} judged",
        options.out.display()
    );
    Ok(())
}
