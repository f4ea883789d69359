//! The series of games behind `antichess match`, for any game family:
//! the jobs in order (pair by pair, every pairing's pair before the next
//! opening), worker threads fed one game at a time, seats kept from game
//! to game (`--keep-engines`), the state file that lets a stopped run
//! continue, and the count — W/D/L, pentanomial pairs, the SPRT on the
//! longest run of complete pairs, the crosstable and the faults — that
//! does not depend on the order parallel games finish in.
//!
//! A family ([`Family`]: the chess-board rule sets, checkers) supplies the
//! openings, plays one game, writes the record file and names the match;
//! its results ([`Outcome`]) say who won, by what, and how to store it.

use super::game::Adjudication;
use super::player::{Fault, FaultKind, PlayerSpec};
use super::sprt::{Pentanomial, Sprt, Verdict};
use super::state::{StateFile, Stored};
use super::stats::{Flags, Tally};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, mpsc};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every player after the first plays the first.
    Gauntlet,
    /// Every player plays every other.
    RoundRobin,
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

/// What the series needs to know of a finished game.
pub trait Outcome: Clone + Send {
    /// `Some(true)` if the side that moved first won, `Some(false)` if the
    /// other did, `None` for a draw.
    fn first_mover_won(&self) -> Option<bool>;
    /// The fault that ended the game: whether the side that moved first
    /// committed it, and the fault.
    fn fault(&self) -> Option<(bool, &Fault)>;
    /// Whether an adjudication (not the rules, not a fault) ended it.
    fn adjudicated(&self) -> bool;
    /// Its length in plies, the opening's included.
    fn plies(&self) -> usize;
    /// The end of its progress line: score, how it ended, plies.
    fn progress(&self) -> String;
    /// Its fields in the state file (a JSON object).
    fn encode(&self) -> Value;
}

/// A game family: what a series of its games needs beyond the players.
pub trait Family: Sync {
    /// Where a pair of games starts.
    type Opening: Send + Sync;
    /// A finished game.
    type Result: Outcome;
    /// A started player, kept between games of one thread.
    type Seat: Send;
    /// The openings, used in turn, one per pair of games; `pairs` is how
    /// many pairs there are.
    fn openings(&self, pairs: u32) -> Result<Vec<Self::Opening>, MatchError>;
    /// Starts player `index`, named `name`.
    fn seat(&self, index: usize, name: &str) -> Result<Self::Seat, Fault>;
    /// Plays a game from `opening`; `first` moves first.
    fn play(
        &self,
        first: &mut Self::Seat,
        second: &mut Self::Seat,
        opening: &Self::Opening,
    ) -> Self::Result;
    /// The game lost before a move by a player that could not start
    /// (the first mover's if `first`).
    fn forfeit(&self, opening: &Self::Opening, first: bool, fault: Fault) -> Self::Result;
    /// Writes the games to the record file (PGN, PDN), replacing it whole.
    fn write_record(
        &self,
        path: &Path,
        games: &[&MatchGame<Self::Result>],
        names: &[String],
        pairs: &[(usize, usize)],
    ) -> Result<(), String>;
    /// A game's result from its state-file line.
    fn decode(&self, line: &Value) -> Result<Self::Result, String>;
    /// What must not change between a run and its continuation.
    fn fingerprint(&self) -> String;
}

/// The family-independent settings of a series.
#[derive(Clone, Debug)]
pub struct Series<'a> {
    /// The players.
    pub players: &'a [PlayerSpec],
    /// How more than two players are paired.
    pub format: Format,
    /// Whether the players change colours every game; otherwise the first
    /// player always moves first.
    pub alternate: bool,
    /// Games of each pairing.
    pub games: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Keep players from game to game while they commit no fault but a flag.
    pub keep_players: bool,
    /// Stop a two-player match when this test decides.
    pub sprt: Option<Sprt>,
    /// The state file.
    pub state: Option<&'a Path>,
    /// The record file.
    pub record: Option<&'a Path>,
    /// The adjudication in force, for the report.
    pub adjudication: Adjudication,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame<R> {
    /// From 1.
    pub number: u32,
    /// Which pairing played it (an index into [`MatchReport::pairings`]).
    pub pairing: usize,
    /// Whether the pairing's first player had the side that moves first
    /// (White in chess, Black in checkers).
    pub first_moves_first: bool,
    /// The game.
    pub result: R,
}

impl<R: Outcome> MatchGame<R> {
    /// Points of the pairing's first player.
    pub fn first_points(&self) -> f64 {
        match self.result.first_mover_won() {
            None => 0.5,
            Some(won) if won == self.first_moves_first => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The players (indices into the names) who moved first and second.
    fn movers(&self, pairs: &[(usize, usize)]) -> (usize, usize) {
        let (a, b) = pairs[self.pairing];
        if self.first_moves_first {
            (a, b)
        } else {
            (b, a)
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
pub struct MatchReport<R> {
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
    pub games: Vec<MatchGame<R>>,
}

impl<R: Outcome> MatchReport<R> {
    /// Counts a finished game.
    fn count(&mut self, game: MatchGame<R>) {
        let pairing = &mut self.pairings[game.pairing];
        let (first, second) = pairing.players;
        pairing.tally.add(game.first_points());
        let mut won_on_time_by = None;
        if let Some((by_first_mover, fault)) = game.result.fault() {
            let is_first = by_first_mover == game.first_moves_first;
            let player = if is_first { first } else { second };
            *self.faults.entry((player, fault.kind)).or_default() += 1;
            if fault.kind == FaultKind::Flag {
                won_on_time_by = Some(usize::from(is_first));
            }
        } else if game.result.adjudicated() {
            self.adjudicated += 1;
        }
        let plies = game.result.plies();
        pairing
            .flags
            .add(game.first_points(), won_on_time_by, plies);
        self.games.push(game);
    }
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

/// One game to play: its number, pair, pairing, opening, and colours.
#[derive(Clone, Copy, Debug)]
struct Job {
    number: u32,
    pair: u32,
    pairing: usize,
    opening: usize,
    first_moves_first: bool,
}

/// The games in the order they are played: pair by pair of games, every
/// pairing's pair before the next opening, so that a stopped gauntlet has
/// played its pairings evenly.
fn jobs(series: &Series, pairings: usize, openings: usize) -> Vec<Job> {
    let games = series.games.max(1);
    let mut jobs = Vec::new();
    for pair in 0..games.div_ceil(2) {
        for pairing in 0..pairings {
            for game in [2 * pair, 2 * pair + 1] {
                if game < games {
                    jobs.push(Job {
                        number: jobs.len() as u32 + 1,
                        pair,
                        pairing,
                        opening: pair as usize % openings.max(1),
                        first_moves_first: !series.alternate || game % 2 == 0,
                    });
                }
            }
        }
    }
    jobs
}

/// Checks that the options make a match.
fn check(series: &Series) -> Result<(), MatchError> {
    let n = series.players.len();
    if n < 2 {
        return Err(MatchError::Setup(
            "a match needs two players or more".into(),
        ));
    }
    if series.sprt.is_some() && n != 2 {
        return Err(MatchError::Setup(
            "the SPRT compares two players: give two, not a gauntlet or round robin".into(),
        ));
    }
    if series.sprt.is_some() && !series.alternate {
        return Err(MatchError::Setup(
            "the SPRT needs pairs of games with the colours swapped (--engine1/--engine2)".into(),
        ));
    }
    if n > 2 && series.players.contains(&PlayerSpec::Human) {
        return Err(MatchError::Setup(
            "a person cannot sit at several games of a tournament".into(),
        ));
    }
    Ok(())
}

/// Plays one game with the players in `seats`, starting any that are
/// missing. Afterwards a player is kept for the next game only with
/// `keep` and no fault of its own but a flag, so that a crash or hang
/// cannot carry over into the next game.
fn play_one<F: Family>(
    family: &F,
    names: &[String],
    seats: &mut [Option<F::Seat>],
    keep: bool,
    (a, b): (usize, usize),
    opening: &F::Opening,
) -> F::Result {
    let mut start = |i: usize| match seats[i].take() {
        Some(seat) => Ok(seat),
        None => family.seat(i, &names[i]),
    };
    let mut first = match start(a) {
        Ok(seat) => seat,
        Err(fault) => return family.forfeit(opening, true, fault),
    };
    let mut second = match start(b) {
        Ok(seat) => seat,
        Err(fault) => {
            if keep {
                seats[a] = Some(first);
            }
            return family.forfeit(opening, false, fault);
        }
    };
    let result = family.play(&mut first, &mut second, opening);
    for (i, moved_first, seat) in [(a, true, first), (b, false, second)] {
        // A late answer is still an answer: only a player that broke the
        // protocol or the rules, crashed or hung may be in a bad state.
        let broken = matches!(result.fault(),
            Some((by, fault)) if by == moved_first && fault.kind != FaultKind::Flag);
        if keep && !broken {
            seats[i] = Some(seat);
        }
    }
    result
}

/// Runs the series, printing a progress line per game on stderr.
pub fn run<F: Family>(family: &F, series: &Series) -> Result<MatchReport<F::Result>, MatchError> {
    check(series)?;
    let pairs = pairings(series.players.len(), series.format);
    let openings = family.openings(series.games.max(1).div_ceil(2))?;
    let names = names(series.players);
    let jobs = jobs(series, pairs.len(), openings.len());
    let total = jobs.len() as u32;
    let mut tally = Referee::new(series, names.clone(), &pairs, &jobs);
    let mut state = match series.state {
        Some(path) => Some(resume(family, path, &mut tally, total)?),
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
    let (sender, receiver) = mpsc::channel::<MatchGame<F::Result>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        let workers = series.concurrency.clamp(1, todo.len().max(1));
        for _ in 0..workers {
            let sender = sender.clone();
            let (jobs, names, pairs, openings) = (&job_receiver, &names, &pairs, &openings);
            scope.spawn(move || work(family, series, names, pairs, openings, jobs, sender));
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
                    first_moves_first: game.first_moves_first,
                    fields: game.result.encode(),
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
            if let Some(path) = series.record
                && let Err(error) = family.write_record(path, &tally.all_games(), &names, &pairs)
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
    if let Some(path) = series.record {
        family
            .write_record(path, &tally.all_games(), &names, &pairs)
            .map_err(MatchError::Pgn)?;
    }
    Ok(tally.report())
}

/// A worker thread: plays the jobs it is handed with its own seats, and
/// sends back each finished game, until the jobs run out.
fn work<F: Family>(
    family: &F,
    series: &Series,
    names: &[String],
    pairs: &[(usize, usize)],
    openings: &[F::Opening],
    jobs: &Mutex<mpsc::Receiver<Job>>,
    sender: mpsc::Sender<MatchGame<F::Result>>,
) {
    let mut seats: Vec<Option<F::Seat>> = (0..series.players.len()).map(|_| None).collect();
    loop {
        let job = match jobs.lock() {
            Ok(jobs) => jobs.recv(),
            Err(_) => break,
        };
        let Ok(job) = job else { break };
        let (a, b) = pairs[job.pairing];
        let movers = if job.first_moves_first {
            (a, b)
        } else {
            (b, a)
        };
        let result = play_one(
            family,
            names,
            &mut seats,
            series.keep_players,
            movers,
            &openings[job.opening],
        );
        let game = MatchGame {
            number: job.number,
            pairing: job.pairing,
            first_moves_first: job.first_moves_first,
            result,
        };
        if sender.send(game).is_err() {
            break;
        }
    }
}

/// Opens the state file and counts the games it holds.
fn resume<F: Family>(
    family: &F,
    path: &Path,
    tally: &mut Referee<F::Result>,
    total: u32,
) -> Result<StateFile, MatchError> {
    let (file, stored) = StateFile::open(path, &family.fingerprint(), &|line| family.decode(line))
        .map_err(MatchError::State)?;
    for (game, result) in stored {
        if game.number == 0 || game.number > total || game.pairing >= tally.pairs.len() {
            return Err(MatchError::State(format!(
                "game {} does not belong to this match",
                game.number
            )));
        }
        tally.resumed += 1;
        let game = MatchGame {
            number: game.number,
            pairing: game.pairing,
            first_moves_first: game.first_moves_first,
            result,
        };
        tally.add(game, total, false);
    }
    if tally.resumed > 0 {
        eprintln!(
            "resumed {} finished games from {}",
            tally.resumed,
            path.display()
        );
    }
    Ok(file)
}

/// The running count of a match: every finished game by number, and the
/// SPRT's verdict on the longest run of complete pairs from the first,
/// so that the verdict (and what is counted) depends on the games alone,
/// not on the order parallel games happen to finish in.
struct Referee<R> {
    sprt: Option<Sprt>,
    alternate: bool,
    adjudication: Adjudication,
    names: Vec<String>,
    pairs: Vec<(usize, usize)>,
    done: BTreeMap<u32, MatchGame<R>>,
    /// The opening pair of each game, by number less one.
    pair_index: Vec<u32>,
    /// Pairs of games (of the single pairing) counted by the SPRT.
    sprt_pairs: u32,
    penta: Pentanomial,
    verdict: Verdict,
    resumed: u32,
}

impl<R: Outcome> Referee<R> {
    fn new(
        series: &Series,
        names: Vec<String>,
        pairs: &[(usize, usize)],
        jobs: &[Job],
    ) -> Referee<R> {
        Referee {
            sprt: series.sprt,
            alternate: series.alternate,
            adjudication: series.adjudication,
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
    fn add(&mut self, game: MatchGame<R>, total: u32, show: bool) {
        if show {
            let (first, second) = game.movers(&self.pairs);
            eprintln!(
                "game {}/{total}: {} - {} {}",
                game.number,
                self.names[first],
                self.names[second],
                game.result.progress(),
            );
        }
        self.done.insert(game.number, game);
        let Some(sprt) = self.sprt else { return };
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
    fn all_games(&self) -> Vec<&MatchGame<R>> {
        self.done.values().collect()
    }

    /// The results: with a decided SPRT, of the pairs it counted.
    fn report(&self) -> MatchReport<R> {
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
            adjudication: self.adjudication,
            sprt: self.sprt.map(|s| (s, self.verdict)),
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
        if self.sprt.is_none() {
            // Without an SPRT, the pairs are counted as they complete.
            let mut by_pair: BTreeMap<(usize, u32), Vec<f64>> = BTreeMap::new();
            for game in &report.games {
                let pair = self.pair_index[game.number as usize - 1];
                let key = (game.pairing, pair);
                by_pair.entry(key).or_default().push(game.first_points());
            }
            for ((pairing, _), points) in by_pair {
                if points.len() == 2 && self.alternate {
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
