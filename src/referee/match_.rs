//! A series of refereed games between two players: openings from a file
//! or from seeded random plies, each played with both colour assignments;
//! games run one at a time by default (fair timings on a small machine)
//! or in parallel; fresh players each game, or (for long-run tests) the
//! same engine processes as long as they commit no fault; a progress line
//! per game on stderr; and at the end the W/D/L, score, Elo difference and
//! faults table, and optionally the PGN.

use super::game::{Adjudication, Ending, GameResult, GameSetup, play_game};
use super::pgn::{self, Header};
use super::player::{EngineBinary, Fault, FaultKind, Player, PlayerSpec, random_move};
use super::stats::{Flags, LONG_GAME_PLIES, Tally};
use crate::chess::{Color, GameFile, GameRecord, Position, Rules};
use crate::rng::SplitMix;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// The rule set's start position.
    Start,
    /// Positions read from a file, one per line (FEN or one-line game
    /// file), used in turn.
    File(PathBuf),
    /// This many random plies from the start position, seeded.
    RandomPlies {
        /// How many plies.
        plies: u32,
        /// The seed.
        seed: u64,
    },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players.
    pub players: [PlayerSpec; 2],
    /// Whether the players change colours every game (`--engine1/2`) or
    /// the first always plays white (`--white/--black`).
    pub alternate: bool,
    /// The rule set.
    pub rules: Rules,
    /// Games to play.
    pub games: u32,
    /// Each side's time, ms.
    pub time_ms: u64,
    /// Increment per move, ms.
    pub increment_ms: u64,
    /// Wait past a flag before calling a player hung, ms.
    pub grace_ms: u64,
    /// Where the games start.
    pub openings: Openings,
    /// Optional adjudication (off by default).
    pub adjudication: Adjudication,
    /// Where to write the games as PGN.
    pub pgn: Option<PathBuf>,
    /// Games at once.
    pub concurrency: usize,
    /// Keep each player (an engine process) from one game to the next
    /// until it commits a fault other than a flag, instead of starting it
    /// afresh each game.
    pub keep_players: bool,
    /// Our own binary, for built-in players.
    pub engine: EngineBinary,
}

/// Why a match could not be run.
#[derive(Debug)]
pub enum MatchError {
    /// The openings file could not be read or has a bad line.
    Openings(String),
    /// The PGN could not be written.
    Pgn(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MatchError::Openings(why) => write!(f, "openings: {why}"),
            MatchError::Pgn(why) => write!(f, "cannot write the PGN: {why}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// From 1.
    pub number: u32,
    /// Whether the first player had white.
    pub first_is_white: bool,
    /// The game.
    pub result: GameResult,
}

impl MatchGame {
    /// Points of the first player.
    pub fn first_points(&self) -> f64 {
        match self.result.winner {
            None => 0.5,
            Some(Color::White) if self.first_is_white => 1.0,
            Some(Color::Black) if !self.first_is_white => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The players' names, first then second.
    pub names: [String; 2],
    /// W/D/L of the first player.
    pub tally: Tally,
    /// Faults per player (0 first, 1 second) and kind.
    pub faults: BTreeMap<(usize, FaultKind), u32>,
    /// Wins on time, and the tally with long ones as draws.
    pub flags: Flags,
    /// Games decided by adjudication.
    pub adjudicated: u32,
    /// The adjudication in force.
    pub adjudication: Adjudication,
    /// Every game, in order.
    pub games: Vec<MatchGame>,
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let t = &self.tally;
        let [a, b] = &self.names;
        writeln!(
            f,
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}]  {} games",
            t.wins,
            t.losses,
            t.draws,
            t.fraction().unwrap_or(0.0),
            t.games()
        )?;
        writeln!(
            f,
            "{a}: {} wins, {} draws, {} losses, {} points of {}",
            t.wins,
            t.draws,
            t.losses,
            t.points(),
            t.games()
        )?;
        if let Some(elo) = t.elo() {
            writeln!(f, "Elo difference: {elo}")?;
        }
        let flags = &self.flags;
        let d = &flags.long_drawn;
        writeln!(
            f,
            "Wins on time: {a} {} ({} over {LONG_GAME_PLIES} plies), {b} {} ({} over {LONG_GAME_PLIES} plies)",
            flags.wins[0], flags.long_wins[0], flags.wins[1], flags.long_wins[1]
        )?;
        if let Some(elo) = d.elo() {
            writeln!(
                f,
                "With wins on time over {LONG_GAME_PLIES} plies as draws: {} - {} - {}  [{:.3}]  Elo {elo}",
                d.wins,
                d.losses,
                d.draws,
                d.fraction().unwrap_or(0.0)
            )?;
        }
        let adj = &self.adjudication;
        if adj.max_plies.is_some() || adj.repetitions.is_some() {
            let mut rules = Vec::new();
            if let Some(n) = adj.max_plies {
                rules.push(format!("draw after {n} plies"));
            }
            if let Some(n) = adj.repetitions {
                rules.push(format!("draw at {n}-fold repetition"));
            }
            writeln!(
                f,
                "Adjudication ON ({}): {} games adjudicated",
                rules.join(", "),
                self.adjudicated
            )?;
        }
        writeln!(f, "Faults:")?;
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
        write!(f, "  {:width$}", "player")?;
        for kind in FaultKind::ALL {
            write!(f, "  {kind}")?;
        }
        writeln!(f)?;
        for (i, name) in self.names.iter().enumerate() {
            write!(f, "  {name:width$}")?;
            for kind in FaultKind::ALL {
                let n = self.faults.get(&(i, kind)).copied().unwrap_or(0);
                write!(f, "  {n:>w$}", w = kind.name().len())?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Reads an openings file: one position per line, FEN or a one-line game
/// file; blank lines and lines starting with `#` are skipped.
pub fn read_openings(path: &Path, rules: Rules) -> Result<Vec<Position>, MatchError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| MatchError::Openings(format!("cannot read {}: {e}", path.display())))?;
    parse_openings(&text, &path.display().to_string(), rules)
}

/// Reads the text of an openings file (see [`read_openings`]); `source`
/// names it in errors.
pub fn parse_openings(text: &str, source: &str, rules: Rules) -> Result<Vec<Position>, MatchError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = if line.contains('/') {
            Position::from_fen(line, rules)
        } else {
            GameFile::parse(line, rules).map(|g| g.position)
        };
        let pos =
            parsed.map_err(|e| MatchError::Openings(format!("{source} line {}: {e}", i + 1)))?;
        openings.push(pos);
    }
    if openings.is_empty() {
        return Err(MatchError::Openings(format!("{source} holds no positions")));
    }
    Ok(openings)
}

/// The most random plies an opening may ask for: enough to leave the
/// opening well behind, few enough that random games of that length are
/// easy to find.
pub const MAX_RANDOM_PLIES: u32 = 40;

/// `plies` random plies from the start, avoiding finished games; `None`
/// when a hundred tries all ended the game sooner.
pub fn random_opening(rules: Rules, plies: u32, seed: u64) -> Option<Position> {
    let mut rng = SplitMix(seed);
    let start = Position::startpos(rules);
    for _ in 0..100 {
        let mut record = GameRecord::new(start);
        for _ in 0..plies {
            match random_move(record.position(), &mut rng) {
                Some(m) => record.play(m),
                None => break,
            }
        }
        if record.moves().len() == plies as usize && !record.status().is_over() {
            return Some(*record.position());
        }
    }
    None
}

/// The start positions for `config.games` games, one per pair.
fn openings(config: &MatchConfig) -> Result<Vec<Position>, MatchError> {
    let pairs = config.games.div_ceil(2).max(1);
    Ok(match &config.openings {
        Openings::Start => vec![Position::startpos(config.rules)],
        Openings::File(path) => read_openings(path, config.rules)?,
        Openings::RandomPlies { plies, seed } => {
            random_openings(config.rules, *plies, *seed, pairs)?
        }
    })
}

/// The openings of `pairs` pairs of games, `plies` random plies each. Each
/// opening's seed is drawn from one generator seeded with `seed`: seeded
/// with `seed + i`, as they once were, the openings of `--seed 2` were
/// those of `--seed 1` moved along by one, and a run of matches on
/// "new" seeds replayed nearly the same hundred openings.
fn random_openings(
    rules: Rules,
    plies: u32,
    seed: u64,
    pairs: u32,
) -> Result<Vec<Position>, MatchError> {
    if plies > MAX_RANDOM_PLIES {
        return Err(MatchError::Openings(format!(
            "--random-plies {plies} is more than {MAX_RANDOM_PLIES}"
        )));
    }
    let mut seeds = SplitMix::new(seed);
    (0..pairs)
        .map(|_| {
            random_opening(rules, plies, seeds.next_u64()).ok_or_else(|| {
                MatchError::Openings(format!(
                    "no random game of {plies} plies was found in a hundred tries"
                ))
            })
        })
        .collect()
}

/// Names for the two players, told apart when their labels agree.
fn names(players: &[PlayerSpec; 2]) -> [String; 2] {
    let [a, b] = [players[0].label(), players[1].label()];
    if a == b {
        [format!("{a} (1)"), format!("{b} (2)")]
    } else {
        [a, b]
    }
}

/// The two players of a match (first, second), between games.
type Seats = [Option<Box<dyn Player>>; 2];

/// Plays one game of the match with the players in `seats`, starting any
/// that are missing. Afterwards a player is kept for the next game only
/// with `keep_players` and no fault of its own but a flag, so that a crash
/// or hang cannot carry over into the next game.
fn play_one(
    config: &MatchConfig,
    names: &[String; 2],
    seats: &mut Seats,
    start: Position,
    first_is_white: bool,
) -> GameResult {
    let (w, b) = if first_is_white { (0, 1) } else { (1, 0) };
    let forfeit = |side: Color, fault: Fault| GameResult {
        winner: Some(side.flip()),
        ending: Ending::Fault { side, fault },
        record: GameRecord::new(start),
        clocks: Vec::new(),
    };
    let mut start_player = |i: usize| match seats[i].take() {
        Some(player) => Ok(player),
        None => config.players[i].build(&names[i], &config.engine),
    };
    let mut white = match start_player(w) {
        Ok(p) => p,
        Err(fault) => return forfeit(Color::White, fault),
    };
    let mut black = match start_player(b) {
        Ok(p) => p,
        Err(fault) => {
            if config.keep_players {
                seats[w] = Some(white);
            }
            return forfeit(Color::Black, fault);
        }
    };
    let setup = GameSetup {
        start,
        white_ms: config.time_ms,
        black_ms: config.time_ms,
        increment_ms: config.increment_ms,
        grace_ms: config.grace_ms,
        adjudication: config.adjudication,
    };
    let result = play_game(white.as_mut(), black.as_mut(), &setup);
    for (i, side, player) in [(w, Color::White, white), (b, Color::Black, black)] {
        // A late answer is still an answer: only a player that broke the
        // protocol or the rules, crashed or hung may be in a bad state.
        let broken = matches!(&result.ending,
            Ending::Fault { side: s, fault } if *s == side && fault.kind != FaultKind::Flag);
        if config.keep_players && !broken {
            seats[i] = Some(player);
        }
    }
    result
}

/// Runs the match, printing a progress line per game on stderr.
pub fn run(config: &MatchConfig) -> Result<MatchReport, MatchError> {
    let openings = openings(config)?;
    let names = names(&config.players);
    let games = config.games.max(1);
    let jobs: Vec<(u32, Position, bool)> = (0..games)
        .map(|i| {
            let opening = openings[(i / 2) as usize % openings.len()];
            let first_is_white = !config.alternate || i % 2 == 0;
            (i + 1, opening, first_is_white)
        })
        .collect();
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<MatchGame>();
    let mut report = MatchReport {
        names: names.clone(),
        tally: Tally::default(),
        flags: Flags::default(),
        faults: BTreeMap::new(),
        adjudicated: 0,
        adjudication: config.adjudication,
        games: Vec::new(),
    };
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, jobs.len()) {
            let sender = sender.clone();
            let (jobs, next, names) = (&jobs, &next, &names);
            scope.spawn(move || {
                let mut seats: Seats = [None, None];
                while let Some(&(number, start, first_is_white)) =
                    jobs.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let result = play_one(config, names, &mut seats, start, first_is_white);
                    let game = MatchGame {
                        number,
                        first_is_white,
                        result,
                    };
                    if sender.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for game in receiver {
            report.add(game, games);
            // The games so far, rewritten after each one: a long run that
            // is stopped keeps what it played.
            if let Some(path) = &config.pgn {
                report.games.sort_by_key(|g| g.number);
                if let Err(error) = write_pgn(path, &report, config.rules) {
                    log::warn!("{error}");
                }
            }
        }
    });
    report.games.sort_by_key(|g| g.number);
    if let Some(path) = &config.pgn {
        write_pgn(path, &report, config.rules).map_err(MatchError::Pgn)?;
    }
    Ok(report)
}

impl MatchReport {
    /// Counts a finished game and prints its progress line.
    fn add(&mut self, game: MatchGame, total: u32) {
        self.tally.add(game.first_points());
        let mut won_on_time_by = None;
        match &game.result.ending {
            Ending::Fault { side, fault } => {
                let white_is_first = game.first_is_white;
                let player = usize::from((*side == Color::White) != white_is_first);
                *self.faults.entry((player, fault.kind)).or_default() += 1;
                if fault.kind == FaultKind::Flag {
                    won_on_time_by = Some(1 - player);
                }
            }
            Ending::Adjudicated(_) => self.adjudicated += 1,
            _ => {}
        }
        let plies = game.result.record.moves().len();
        self.flags.add(game.first_points(), won_on_time_by, plies);
        let (white, black) = if game.first_is_white {
            (&self.names[0], &self.names[1])
        } else {
            (&self.names[1], &self.names[0])
        };
        eprintln!(
            "game {}/{total}: {white} - {black} {} ({}, {plies} plies) | {} {}/{}",
            game.number,
            game.result.score(),
            game.result,
            self.names[0],
            self.tally.points(),
            self.tally.games()
        );
        self.games.push(game);
    }
}

/// Writes every game to `path` through a temporary file, so that a failed
/// write leaves any earlier file whole.
fn write_pgn(path: &Path, report: &MatchReport, rules: Rules) -> Result<(), String> {
    let event = format!("{rules} match");
    let mut text = String::new();
    for game in &report.games {
        let (white, black) = if game.first_is_white {
            (&report.names[0], &report.names[1])
        } else {
            (&report.names[1], &report.names[0])
        };
        let header = Header {
            event: &event,
            round: game.number,
            white,
            black,
        };
        text.push_str(&pgn::write(&header, &game.result));
    }
    crate::referee::write_atomically(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_seeds_share_almost_no_openings() {
        let openings = |seed| random_openings(Rules::Antichess, 4, seed, 50).unwrap();
        let (first, second) = (openings(1), openings(2));
        assert_eq!(first, openings(1));
        // Some 4-ply positions are common enough to recur by chance; a
        // shifted copy would share 49.
        let shared = second.iter().filter(|p| first.contains(p)).count();
        assert!(shared <= 5, "{shared} of 50 shared");
        let distinct = first
            .iter()
            .filter(|p| first.iter().filter(|q| q == p).count() == 1);
        assert!(distinct.count() >= 40);
    }

    #[test]
    fn more_random_plies_than_the_bound_are_refused() {
        let err = random_openings(Rules::Antichess, MAX_RANDOM_PLIES + 1, 1, 1).unwrap_err();
        assert!(err.to_string().contains("--random-plies 41"), "{err}");
        assert!(random_openings(Rules::Antichess, MAX_RANDOM_PLIES, 1, 1).is_ok());
    }
}
