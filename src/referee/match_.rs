//! A series of refereed games: two players, or a gauntlet (the first
//! against each of the others) or a round robin of many. Openings come
//! from a book or from seeded random plies, each played twice with the
//! colours swapped; games run one at a time by default (fair timings on a
//! small machine) or in parallel; fresh players each game, or (for
//! long-run tests) the same engine processes as long as they commit no
//! fault. An SPRT may stop a two-player match early, and a state file
//! lets a stopped run continue. A progress line per game goes to stderr;
//! at the end come the results ([`MatchReport`]) and optionally the PGN.

use super::game::{Adjudication, Ending, GameResult, GameSetup, play_game};
use super::pgn::{self, Header};
use super::player::{EngineBinary, Fault, FaultKind, Player, PlayerSpec};
use super::sprt::{Pentanomial, Sprt, Verdict};
use super::state::{StateFile, Stored};
use super::stats::{Flags, Tally};
use crate::chess::{Color, GameRecord, Position, Rules};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

pub use super::openings::{MAX_RANDOM_PLIES, random_opening};

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// The rule set's start position.
    Start,
    /// A book (FEN, EPD, PGN or game-file lines), in order or shuffled.
    File {
        /// The book.
        path: PathBuf,
        /// Shuffled with this seed; in the book's order if `None`.
        shuffle: Option<u64>,
    },
    /// This many random plies from the start position, seeded.
    RandomPlies {
        /// How many plies.
        plies: u32,
        /// The seed.
        seed: u64,
    },
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every player after the first plays the first.
    Gauntlet,
    /// Every player plays every other.
    RoundRobin,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The players: two for a match, or more for a gauntlet or round robin.
    pub players: Vec<PlayerSpec>,
    /// How more than two players are paired (two always play each other).
    pub format: Format,
    /// Whether the players change colours every game (`--engine1/2`) or
    /// the first always plays white (`--white/--black`).
    pub alternate: bool,
    /// The rule set.
    pub rules: Rules,
    /// Games of each pairing (with an SPRT, at most this many).
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
    /// Stop a two-player match when this test decides.
    pub sprt: Option<Sprt>,
    /// Record every finished game here, and continue from what it holds.
    pub state: Option<PathBuf>,
}

/// Why a match could not be run.
#[derive(Debug)]
pub enum MatchError {
    /// The openings file could not be read or has a bad line.
    Openings(String),
    /// The PGN could not be written.
    Pgn(String),
    /// The players or options do not make a match.
    Setup(String),
    /// The state file could not be read or written.
    State(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MatchError::Openings(why) => write!(f, "openings: {why}"),
            MatchError::Pgn(why) => write!(f, "cannot write the PGN: {why}"),
            MatchError::Setup(why) => f.write_str(why),
            MatchError::State(why) => write!(f, "state file: {why}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// From 1.
    pub number: u32,
    /// Which pairing played it (an index into [`MatchReport::pairings`]).
    pub pairing: usize,
    /// Whether the pairing's first player had white.
    pub first_is_white: bool,
    /// The game.
    pub result: GameResult,
}

impl MatchGame {
    /// Points of the pairing's first player.
    pub fn first_points(&self) -> f64 {
        match self.result.winner {
            None => 0.5,
            Some(Color::White) if self.first_is_white => 1.0,
            Some(Color::Black) if !self.first_is_white => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The results of one pairing, from its first player's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingReport {
    /// The two players (indices into [`MatchReport::names`]).
    pub players: (usize, usize),
    /// W/D/L.
    pub tally: Tally,
    /// Wins on time, and the tally with long ones as draws.
    pub flags: Flags,
    /// Complete pairs of games on one opening, by points.
    pub penta: Pentanomial,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The players' names, in the order given.
    pub names: Vec<String>,
    /// Each pairing's results; a two-player match has one.
    pub pairings: Vec<PairingReport>,
    /// Faults per player (index into `names`) and kind.
    pub faults: BTreeMap<(usize, FaultKind), u32>,
    /// Games decided by adjudication.
    pub adjudicated: u32,
    /// The adjudication in force.
    pub adjudication: Adjudication,
    /// The SPRT in force, if any, and its verdict on the counted pairs.
    pub sprt: Option<(Sprt, Verdict)>,
    /// Games that finished after the SPRT had decided: in the PGN and the
    /// state file, but not counted.
    pub uncounted: u32,
    /// Games read back from the state file.
    pub resumed: u32,
    /// Every counted game, in order.
    pub games: Vec<MatchGame>,
}

/// The pairings of `n` players.
pub(super) fn pairings(n: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        _ if n == 2 => vec![(0, 1)],
        Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Format::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Names for the players, told apart by their place when labels agree.
pub(super) fn names(players: &[PlayerSpec]) -> Vec<String> {
    let labels: Vec<String> = players.iter().map(PlayerSpec::label).collect();
    labels
        .iter()
        .enumerate()
        .map(|(i, label)| {
            if labels.iter().filter(|l| *l == label).count() > 1 {
                format!("{label} ({})", i + 1)
            } else {
                label.clone()
            }
        })
        .collect()
}

/// The start positions, one per pair of games (used in turn).
fn openings(config: &MatchConfig, pairs: u32) -> Result<Vec<Position>, MatchError> {
    use super::openings::{ordered, random_openings, read_book};
    Ok(match &config.openings {
        Openings::Start => vec![Position::startpos(config.rules)],
        Openings::File { path, shuffle } => {
            let book = read_book(path, config.rules).map_err(MatchError::Openings)?;
            ordered(book, shuffle.is_some(), shuffle.unwrap_or(0))
        }
        Openings::RandomPlies { plies, seed } => {
            random_openings(config.rules, *plies, *seed, pairs).map_err(MatchError::Openings)?
        }
    })
}

/// One game to play: its number, pairing, start, and colours.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u32,
    pair: u32,
    pairing: usize,
    start: Position,
    first_is_white: bool,
}

/// The games in the order they are played: pair by pair of games, every
/// pairing's pair before the next opening, so that a stopped gauntlet has
/// played its pairings evenly.
fn jobs(config: &MatchConfig, pairings: usize, openings: &[Position]) -> Vec<Job> {
    let games = config.games.max(1);
    let mut jobs = Vec::new();
    for pair in 0..games.div_ceil(2) {
        let start = openings[pair as usize % openings.len()];
        for pairing in 0..pairings {
            for game in [2 * pair, 2 * pair + 1] {
                if game < games {
                    jobs.push(Job {
                        number: jobs.len() as u32 + 1,
                        pair,
                        pairing,
                        start,
                        first_is_white: !config.alternate || game % 2 == 0,
                    });
                }
            }
        }
    }
    jobs
}

/// What must not change between a run and its continuation.
fn fingerprint(config: &MatchConfig) -> String {
    let a = &config.adjudication;
    format!(
        "rules={} players={:?} format={:?} alternate={} games={} time={} inc={} openings={:?} \
         adjudication={:?},{:?},{} sprt={:?}",
        config.rules,
        config.players,
        config.format,
        config.alternate,
        config.games,
        config.time_ms,
        config.increment_ms,
        config.openings,
        a.max_plies,
        a.repetitions,
        a.tables,
        config.sprt
    )
}

/// The players of a match (by index), between games of one thread.
type Seats = Vec<Option<Box<dyn Player>>>;

/// Plays one game with the players in `seats`, starting any that are
/// missing. Afterwards a player is kept for the next game only with
/// `keep_players` and no fault of its own but a flag, so that a crash or
/// hang cannot carry over into the next game.
fn play_one(
    config: &MatchConfig,
    names: &[String],
    seats: &mut Seats,
    (first, second): (usize, usize),
    start: Position,
    first_is_white: bool,
) -> GameResult {
    let (w, b) = if first_is_white {
        (first, second)
    } else {
        (second, first)
    };
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

/// Checks that the options make a match.
fn check(config: &MatchConfig) -> Result<(), MatchError> {
    let n = config.players.len();
    if n < 2 {
        return Err(MatchError::Setup(
            "a match needs two players or more".into(),
        ));
    }
    if config.sprt.is_some() && n != 2 {
        return Err(MatchError::Setup(
            "the SPRT compares two players: give two, not a gauntlet or round robin".into(),
        ));
    }
    if config.sprt.is_some() && !config.alternate {
        return Err(MatchError::Setup(
            "the SPRT needs pairs of games with the colours swapped (--engine1/--engine2)".into(),
        ));
    }
    if n > 2 && config.players.contains(&PlayerSpec::Human) {
        return Err(MatchError::Setup(
            "a person cannot sit at several games of a tournament".into(),
        ));
    }
    Ok(())
}

/// Runs the match, printing a progress line per game on stderr.
pub fn run(config: &MatchConfig) -> Result<MatchReport, MatchError> {
    check(config)?;
    let pairs = pairings(config.players.len(), config.format);
    let openings = openings(config, config.games.max(1).div_ceil(2))?;
    let names = names(&config.players);
    let jobs = jobs(config, pairs.len(), &openings);
    let total = jobs.len() as u32;
    let mut tally = Referee::new(config, names.clone(), &pairs, &jobs);
    let mut state = match &config.state {
        Some(path) => {
            let (file, stored) = StateFile::open(path, &fingerprint(config), config.rules)
                .map_err(MatchError::State)?;
            for game in stored {
                if game.number == 0 || game.number > total || game.pairing >= pairs.len() {
                    return Err(MatchError::State(format!(
                        "game {} does not belong to this match",
                        game.number
                    )));
                }
                tally.resumed += 1;
                tally.add(to_game(game), total, false);
            }
            if tally.resumed > 0 {
                eprintln!(
                    "resumed {} finished games from {}",
                    tally.resumed,
                    path.display()
                );
            }
            Some(file)
        }
        None => None,
    };
    let todo: Vec<Job> = jobs
        .into_iter()
        .filter(|j| !tally.done.contains_key(&j.number))
        .collect();
    // The main thread hands out the games, one more as each one ends, so
    // that no game starts after the one that decided an SPRT has been
    // counted: one game at a time, nothing is played past the verdict.
    let mut stop = tally.stopped();
    let (job_sender, job_receiver) = mpsc::channel::<Job>();
    let job_receiver = Mutex::new(job_receiver);
    let (sender, receiver) = mpsc::channel::<MatchGame>();
    let mut failure = None;
    std::thread::scope(|scope| {
        let workers = config.concurrency.clamp(1, todo.len().max(1));
        for _ in 0..workers {
            let sender = sender.clone();
            let (jobs, names, pairs) = (&job_receiver, &names, &pairs);
            scope.spawn(move || {
                let mut seats: Seats = (0..config.players.len()).map(|_| None).collect();
                loop {
                    let job = match jobs.lock() {
                        Ok(jobs) => jobs.recv(),
                        Err(_) => break,
                    };
                    let Ok(job) = job else { break };
                    let result = play_one(
                        config,
                        names,
                        &mut seats,
                        pairs[job.pairing],
                        job.start,
                        job.first_is_white,
                    );
                    let game = MatchGame {
                        number: job.number,
                        pairing: job.pairing,
                        first_is_white: job.first_is_white,
                        result,
                    };
                    if sender.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut queue = todo.iter();
        let mut in_flight = 0;
        let mut hand_out = |stop: bool, in_flight: &mut usize| {
            if !stop && let Some(job) = queue.next() {
                // The workers outlive the sender: this cannot fail.
                let _ = job_sender.send(*job);
                *in_flight += 1;
            }
        };
        for _ in 0..workers {
            hand_out(stop, &mut in_flight);
        }
        while in_flight > 0 {
            let Ok(game) = receiver.recv() else { break };
            in_flight -= 1;
            if let Some(file) = &mut state {
                let stored = Stored {
                    number: game.number,
                    pairing: game.pairing,
                    first_is_white: game.first_is_white,
                    result: game.result.clone(),
                };
                if let Err(why) = file.record(&stored) {
                    // Without its record a resumed run would differ: stop.
                    failure.get_or_insert(MatchError::State(why));
                    stop = true;
                }
            }
            tally.add(game, total, true);
            stop |= tally.stopped();
            // The games so far, rewritten after each one: a long run that
            // is stopped keeps what it played.
            if let Some(path) = &config.pgn
                && let Err(error) = write_pgn(path, &tally.all_games(), &names, &pairs, config)
            {
                log::warn!("{error}");
            }
            hand_out(stop, &mut in_flight);
        }
        drop(job_sender);
    });
    if let Some(failure) = failure {
        return Err(failure);
    }
    if let Some(path) = &config.pgn {
        write_pgn(path, &tally.all_games(), &names, &pairs, config).map_err(MatchError::Pgn)?;
    }
    Ok(tally.report())
}

fn to_game(stored: Stored) -> MatchGame {
    MatchGame {
        number: stored.number,
        pairing: stored.pairing,
        first_is_white: stored.first_is_white,
        result: stored.result,
    }
}

/// The running count of a match: every finished game by number, and the
/// SPRT's verdict on the longest run of complete pairs from the first,
/// so that the verdict (and what is counted) depends on the games alone,
/// not on the order parallel games happen to finish in.
struct Referee<'a> {
    config: &'a MatchConfig,
    names: Vec<String>,
    pairs: Vec<(usize, usize)>,
    done: BTreeMap<u32, MatchGame>,
    /// The opening pair of each game, by number less one.
    pair_index: Vec<u32>,
    /// Pairs of games (of the single pairing) counted by the SPRT.
    sprt_pairs: u32,
    penta: Pentanomial,
    verdict: Verdict,
    resumed: u32,
}

impl<'a> Referee<'a> {
    fn new(
        config: &'a MatchConfig,
        names: Vec<String>,
        pairs: &[(usize, usize)],
        jobs: &[Job],
    ) -> Referee<'a> {
        Referee {
            config,
            pair_index: jobs.iter().map(|j| j.pair).collect(),
            names,
            pairs: pairs.to_vec(),
            done: BTreeMap::new(),
            sprt_pairs: 0,
            penta: Pentanomial::default(),
            verdict: Verdict::Continue,
            resumed: 0,
        }
    }

    fn stopped(&self) -> bool {
        self.verdict != Verdict::Continue
    }

    /// Counts a finished game, printing its progress line if `show`.
    fn add(&mut self, game: MatchGame, total: u32, show: bool) {
        if show {
            let (a, b) = self.pairs[game.pairing];
            let (white, black) = if game.first_is_white { (a, b) } else { (b, a) };
            let plies = game.result.record.moves().len();
            eprintln!(
                "game {}/{total}: {} - {} {} ({}, {plies} plies)",
                game.number,
                self.names[white],
                self.names[black],
                game.result.score(),
                game.result,
            );
        }
        self.done.insert(game.number, game);
        let Some(sprt) = self.config.sprt else { return };
        // Pair k is games 2k+1 and 2k+2 of the single pairing.
        while self.verdict == Verdict::Continue {
            let n = 2 * self.sprt_pairs + 1;
            let (Some(g1), Some(g2)) = (self.done.get(&n), self.done.get(&(n + 1))) else {
                break;
            };
            let half_points = ((g1.first_points() + g2.first_points()) * 2.0).round();
            self.penta.add(half_points as usize);
            self.sprt_pairs += 1;
            self.verdict = sprt.verdict(sprt.llr(&self.penta));
            if show || self.verdict != Verdict::Continue {
                eprintln!("{}", super::report::sprt_status(&sprt, &self.penta));
            }
        }
    }

    /// Every finished game, counted or not, in order.
    fn all_games(&self) -> Vec<&MatchGame> {
        self.done.values().collect()
    }

    /// The results: with a decided SPRT, of the pairs it counted.
    fn report(&self) -> MatchReport {
        let counted = |n: u32| !self.stopped() || n <= 2 * self.sprt_pairs;
        let mut report = MatchReport {
            names: self.names.clone(),
            pairings: self
                .pairs
                .iter()
                .map(|&players| PairingReport {
                    players,
                    ..Default::default()
                })
                .collect(),
            faults: BTreeMap::new(),
            adjudicated: 0,
            adjudication: self.config.adjudication,
            sprt: self.config.sprt.map(|s| (s, self.verdict)),
            uncounted: 0,
            resumed: self.resumed,
            games: Vec::new(),
        };
        for game in self.done.values() {
            if counted(game.number) {
                report.count(game.clone());
            } else {
                report.uncounted += 1;
            }
        }
        if self.config.sprt.is_none() {
            // Without an SPRT, the pairs are counted as they complete.
            let mut by_pair: BTreeMap<(usize, u32), Vec<f64>> = BTreeMap::new();
            for game in &report.games {
                let pair = self.pair_index[game.number as usize - 1];
                let key = (game.pairing, pair);
                by_pair.entry(key).or_default().push(game.first_points());
            }
            for ((pairing, _), points) in by_pair {
                if points.len() == 2 && self.config.alternate {
                    let half = ((points[0] + points[1]) * 2.0).round() as usize;
                    report.pairings[pairing].penta.add(half);
                }
            }
        } else {
            report.pairings[0].penta = self.penta;
        }
        report
    }
}

impl MatchReport {
    /// Counts a finished game.
    fn count(&mut self, game: MatchGame) {
        let pairing = &mut self.pairings[game.pairing];
        let (first, second) = pairing.players;
        pairing.tally.add(game.first_points());
        let mut won_on_time_by = None;
        match &game.result.ending {
            Ending::Fault { side, fault } => {
                let is_first = (*side == Color::White) == game.first_is_white;
                let player = if is_first { first } else { second };
                *self.faults.entry((player, fault.kind)).or_default() += 1;
                if fault.kind == FaultKind::Flag {
                    won_on_time_by = Some(usize::from(is_first));
                }
            }
            Ending::Adjudicated(_) => self.adjudicated += 1,
            _ => {}
        }
        let plies = game.result.record.moves().len();
        pairing
            .flags
            .add(game.first_points(), won_on_time_by, plies);
        self.games.push(game);
    }
}

/// Writes every game to `path` through a temporary file, so that a failed
/// write leaves any earlier file whole.
fn write_pgn(
    path: &Path,
    games: &[&MatchGame],
    names: &[String],
    pairs: &[(usize, usize)],
    config: &MatchConfig,
) -> Result<(), String> {
    let event = format!("{} match", config.rules);
    let mut text = String::new();
    for game in games {
        let (a, b) = pairs[game.pairing];
        let (white, black) = if game.first_is_white { (a, b) } else { (b, a) };
        let header = Header {
            event: &event,
            round: game.number,
            white: &names[white],
            black: &names[black],
            tables: config.adjudication.tables,
        };
        text.push_str(&pgn::write(&header, &game.result));
    }
    crate::referee::write_atomically(path, &text)
}
