//! `antichess gen-data`: self-play games at a fixed node budget from random
//! openings, every position of them written with the search's score and
//! the game's result, for the side to move. It is the body of positions a
//! learned evaluation is fitted to: `antichess fit-net` reads the same four
//! columns (FEN, result, start, search score) that `antichess tune
//! --positions --search-nodes` writes from played games, but here the
//! score is the one the game's own search found, so no second search is
//! spent, and the games are as many as the cores can play.
//!
//! Each game depends on the seed and its number alone, whatever the thread
//! that plays it: a run is reproducible and can be resumed by number.

use crate::chess::{Color, Position, Rules};
use crate::referee::match_::{MAX_RANDOM_PLIES, random_opening};
use crate::rng::{SplitMix, mix};
use crate::search::{Limits, MAX_THREADS, Score, Searcher, is_decisive};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// What `antichess gen-data` was asked to do (its command line).
#[derive(Clone, Debug, clap::Args)]
pub struct GenOptions {
    /// Where to write the positions (tab-separated: FEN, the game's result
    /// for the side to move, the game's start, the search's score). The
    /// file appears when the run ends; until then the games go to a
    /// `.part` file beside it, a whole game at a time.
    #[arg(long)]
    pub out: PathBuf,
    /// Rule set: antichess or antichess1994.
    #[arg(long, default_value = "antichess")]
    pub rules: Rules,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// The first game's number (a run resumed where another stopped).
    #[arg(long, default_value_t = 0)]
    pub first: u32,
    /// Nodes each move's search may visit.
    #[arg(long, default_value_t = 6000)]
    pub nodes: u64,
    /// Random plies before the searches take over: from this many ...
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// ... to this many, chosen per game.
    #[arg(long, default_value_t = 6)]
    pub random_plies_max: u32,
    /// A game still going after this many plies is written as drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, one searcher each (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Each searcher's table, MiB: a few thousand nodes a move fill little.
const HASH_MIB: usize = 16;

/// A game past this many plies whose searches have all given one side
/// [`ADJUDICATE_SCORE`] or more for the last [`ADJUDICATE_PLIES`] plies
/// is written as won by that side: endings a few thousand nodes a move
/// cannot convert (a stuck king to be fed men one by one) would otherwise
/// run to the ply cap and teach that a won ending is drawn.
const ADJUDICATE_FROM: usize = 200;
const ADJUDICATE_SCORE: Score = 1000;
const ADJUDICATE_PLIES: usize = 20;

/// White's result if the last plies' scores (White's view) adjudicate it.
fn adjudicated(white_scores: &[Score]) -> Option<f64> {
    if white_scores.len() < ADJUDICATE_FROM {
        return None;
    }
    let last = &white_scores[white_scores.len() - ADJUDICATE_PLIES..];
    if last.iter().all(|&s| s >= ADJUDICATE_SCORE) {
        Some(1.0)
    } else if last.iter().all(|&s| s <= -ADJUDICATE_SCORE) {
        Some(0.0)
    } else {
        None
    }
}

/// One position of a game, before its result is known.
struct Record {
    fen: String,
    score: Score,
    white_to_move: bool,
}

/// Plays the games and writes their positions.
pub fn run(options: &GenOptions) -> Result<(), String> {
    if options.random_plies > options.random_plies_max {
        return Err(format!(
            "--random-plies {} is more than --random-plies-max {}",
            options.random_plies, options.random_plies_max
        ));
    }
    if options.random_plies_max > MAX_RANDOM_PLIES {
        return Err(format!(
            "--random-plies-max {} is more than {MAX_RANDOM_PLIES}",
            options.random_plies_max
        ));
    }
    if options.nodes == 0 {
        return Err("--nodes must be at least 1".into());
    }
    if options.threads.is_some_and(|t| t > MAX_THREADS) {
        return Err(format!("--threads is at most {MAX_THREADS}"));
    }
    let part = part_path(&options.out)?;
    let file = std::fs::File::create(&part)
        .map_err(|e| format!("cannot write {}: {e}", part.display()))?;
    let sink = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicU32::new(0);
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, || play_games(options, &next, &sink))
            })
            .collect();
        for worker in workers {
            worker
                .map_err(|e| format!("cannot start a thread: {e}"))?
                .join()
                .unwrap_or_else(|_| Err("a game thread failed".into()))?;
        }
        Ok::<(), String>(())
    })?;
    let mut file = sink
        .into_inner()
        .map_err(|_| "a game thread failed while writing".to_string())?;
    file.flush()
        .and_then(|()| file.get_ref().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", part.display()))?;
    std::fs::rename(&part, &options.out)
        .map_err(|e| format!("cannot move {} into place: {e}", part.display()))
}

/// `OUT.part` beside `OUT`.
fn part_path(out: &Path) -> Result<PathBuf, String> {
    let name = out
        .file_name()
        .ok_or_else(|| format!("'{}' is not a file name", out.display()))?;
    let mut part = name.to_os_string();
    part.push(".part");
    Ok(out.with_file_name(part))
}

/// Takes game numbers until none is left, writing each game when done.
fn play_games(
    options: &GenOptions,
    next: &AtomicU32,
    sink: &Mutex<impl Write>,
) -> Result<(), String> {
    let mut searcher = Searcher::<Position>::new(HASH_MIB).map_err(|e| e.to_string())?;
    loop {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if n >= options.games {
            return Ok(());
        }
        let game = options.first.saturating_add(n);
        let text = play_game(options, game, &mut searcher);
        let mut sink = sink
            .lock()
            .map_err(|_| "a game thread failed while writing".to_string())?;
        sink.write_all(text.as_bytes())
            .and_then(|()| sink.flush())
            .map_err(|e| format!("cannot write {}.part: {e}", options.out.display()))?;
        if (n + 1).is_multiple_of(100) {
            log::info!("{} of {} games played", n + 1, options.games);
        }
    }
}

/// Plays game number `game` and returns its lines.
fn play_game(options: &GenOptions, game: u32, searcher: &mut Searcher<Position>) -> String {
    let mut rng = SplitMix::new(mix(options.seed ^ mix(u64::from(game))));
    let spread = options.random_plies_max - options.random_plies + 1;
    let plies = options.random_plies + rng.below(spread as usize) as u32;
    // Within the bound, a hundred tries all ending early is out of reach;
    // should it happen, the game starts from the start position.
    let start = random_opening(options.rules, plies, rng.next_u64())
        .unwrap_or_else(|| Position::startpos(options.rules));
    let (records, white_result) = self_play(options, start, searcher);
    let start_fen = start.fen();
    let mut text = String::new();
    for record in records {
        let result = if record.white_to_move {
            white_result
        } else {
            1.0 - white_result
        };
        text.push_str(&format!(
            "{}\t{result}\t{start_fen}\t{}\n",
            record.fen, record.score
        ));
    }
    text
}

/// The game from `start`: the positions worth learning from (not in
/// check, the score not a found win or loss) and White's result.
fn self_play(
    options: &GenOptions,
    start: Position,
    searcher: &mut Searcher<Position>,
) -> (Vec<Record>, f64) {
    // Everything forgotten, correction history too: a game depends on
    // its number alone, not on the games its thread played before.
    searcher.clear();
    let limits = Limits::nodes(options.nodes);
    let stop = AtomicBool::new(false);
    let mut position = start;
    let mut keys = vec![position.key()];
    let mut records = Vec::new();
    let mut white_scores = Vec::new();
    for _ in 0..options.max_plies {
        let white = position.side_to_move() == Color::White;
        let for_white = |won: bool| if won == white { 1.0 } else { 0.0 };
        if keys.iter().filter(|&&k| k == position.key()).count() >= 3 {
            return (records, 0.5);
        }
        let found = searcher.search(&position, &keys, &limits, &stop, |_| {});
        // A found win ends the game: the rest would teach nothing. A game
        // already over is scored by its outcome, so this ends it too,
        // unless it is drawn, and then there is no move.
        if is_decisive(found.score) {
            return (records, for_white(found.score > 0));
        }
        let Some(mv) = found.best_move else {
            return (records, 0.5);
        };
        white_scores.push(if white { found.score } else { -found.score });
        if let Some(result) = adjudicated(&white_scores) {
            return (records, result);
        }
        if !position.in_check() {
            records.push(Record {
                fen: position.fen(),
                score: found.score,
                white_to_move: white,
            });
        }
        position = position.play(mv);
        keys.push(position.key());
    }
    (records, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(out: PathBuf) -> GenOptions {
        GenOptions {
            out,
            rules: Rules::Antichess,
            games: 3,
            first: 0,
            nodes: 300,
            random_plies: 4,
            random_plies_max: 6,
            max_plies: 400,
            seed: 7,
            threads: Some(2),
        }
    }

    fn lines(path: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn games_are_written_whole_and_the_same_for_every_thread_count() {
        let dir = std::env::temp_dir().join(format!("gen-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.tsv"), dir.join("b.tsv"));
        run(&options(a.clone())).unwrap();
        run(&GenOptions {
            threads: Some(1),
            ..options(b.clone())
        })
        .unwrap();
        let (mut first, mut second) = (lines(&a), lines(&b));
        assert!(!dir.join("a.tsv.part").exists());
        assert!(first.len() > 20, "{} positions", first.len());
        for line in &first {
            let cols: Vec<&str> = line.split('\t').collect();
            let [fen, result, start, score] = cols[..] else {
                panic!("{line}");
            };
            let pos = Position::from_fen(fen, Rules::Antichess).unwrap();
            assert!(!pos.in_check());
            assert!(["0", "0.5", "1"].contains(&result));
            Position::from_fen(start, Rules::Antichess).unwrap();
            assert!(!is_decisive(score.parse().unwrap()));
        }
        // Threads finish games in any order; each game is the same.
        first.sort();
        second.sort();
        assert_eq!(first, second);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_long_game_one_side_has_held_won_for_twenty_plies_is_adjudicated() {
        let mut scores = vec![0; ADJUDICATE_FROM - ADJUDICATE_PLIES];
        scores.extend([1200; ADJUDICATE_PLIES]);
        assert_eq!(adjudicated(&scores), Some(1.0));
        scores
            .iter_mut()
            .rev()
            .take(ADJUDICATE_PLIES)
            .for_each(|s| *s = -1000);
        assert_eq!(adjudicated(&scores), Some(0.0));
        scores[ADJUDICATE_FROM - 1] = 999;
        assert_eq!(adjudicated(&scores), None);
        assert_eq!(adjudicated(&scores[1..]), None, "too early");
    }

    #[test]
    fn bad_ranges_are_refused_before_anything_is_written() {
        let out = std::env::temp_dir().join("never-written.tsv");
        let refused = run(&GenOptions {
            random_plies: 7,
            ..options(out.clone())
        });
        assert!(refused.unwrap_err().contains("--random-plies"));
        let too_long = run(&GenOptions {
            random_plies_max: u32::MAX,
            ..options(out.clone())
        });
        assert!(too_long.unwrap_err().contains("--random-plies-max"));
        let too_many = run(&GenOptions {
            threads: Some(1 << 20),
            ..options(out.clone())
        });
        assert!(too_many.unwrap_err().contains("--threads"));
        assert!(!out.exists());
    }
}
