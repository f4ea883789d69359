//! Checkers matches (`antichess match --rules checkers`): the same
//! referee as the chess-board rule sets — wall-time clocks, faults that
//! lose the game, W/D/L, pentanomial pairs, the SPRT, the crosstable and
//! the faults table of [`MatchReport`] — around the checkers rules of
//! [`crate::checkers`], with the games written as PDN.
//!
//! Players are engines speaking the line protocol with
//! `set rules checkers` (`level:N` is our own binary, `proto:COMMAND` any
//! other) or seeded random movers (`random:SEED`). Every opening is played
//! twice with the colours swapped: the start position, or seeded random
//! plies from it (`--random-plies N --seed S`), shared by the two games of
//! a pair and recorded as the first moves of both. The checkers rules
//! have no draw rule, so the referee applies its own: a draw at the third
//! occurrence of a position, after [`QUIET_PLIES`] plies in which no man
//! moved and nothing was taken, or at a ply cap if one is asked for.
//! Games run one at a time.

use super::clock::Clocks;
use super::external::{shown, sync};
use super::match_::{Format, MatchError, MatchReport, PairingReport, names, pairings};
use super::player::{EngineBinary, Fault, FaultKind, PlayerSpec};
use super::process::Process;
use super::sprt::{Pentanomial, Sprt, Verdict};
use crate::checkers::{Action, Color as Side, Move, Record, Score};
use crate::chess::Color;
use crate::rng::SplitMix;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Plies without a man's move or a capture after which the referee
/// declares a draw (fifty moves each, as in the chess rule).
pub const QUIET_PLIES: u32 = 100;

/// Everything a checkers match needs.
#[derive(Clone, Debug)]
pub struct CheckersConfig {
    /// The players: two for a match, or more for a gauntlet or round robin.
    pub players: Vec<PlayerSpec>,
    /// How more than two players are paired.
    pub format: Format,
    /// Whether the players change colours every game; otherwise the first
    /// player always has Black (the side that moves first).
    pub alternate: bool,
    /// Games of each pairing (with an SPRT, at most this many).
    pub games: u32,
    /// Each side's time, ms.
    pub time_ms: u64,
    /// Increment per move, ms.
    pub increment_ms: u64,
    /// Wait past a flag before calling a player hung, ms.
    pub grace_ms: u64,
    /// Random plies from the start position before each pair's games.
    pub random_plies: u32,
    /// Their seed.
    pub seed: u64,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// Where to write the games as PDN.
    pub pdn: Option<PathBuf>,
    /// Stop a two-player match when this test decides.
    pub sprt: Option<Sprt>,
    /// Our own binary, for `level:N`.
    pub engine: EngineBinary,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckersEnding {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// `side` committed a fault and lost.
    Fault {
        /// Who.
        side: Side,
        /// What happened.
        fault: Fault,
    },
    /// The third occurrence of a position.
    Repetition,
    /// [`QUIET_PLIES`] plies without a man's move or a capture.
    Quiet,
    /// The ply cap.
    PlyCap(u32),
}

impl CheckersEnding {
    /// Whether the referee's draw rules ended the game.
    pub fn adjudicated(&self) -> bool {
        matches!(
            self,
            CheckersEnding::Repetition | CheckersEnding::Quiet | CheckersEnding::PlyCap(_)
        )
    }
}

/// One finished game of a checkers match.
#[derive(Clone, Debug)]
pub struct CheckersGame {
    /// From 1.
    pub number: u32,
    /// Which pairing played it (an index into [`MatchReport::pairings`]).
    pub pairing: usize,
    /// Whether the pairing's first player had Black (moved first).
    pub first_is_black: bool,
    /// The moves, the opening's random plies first.
    pub moves: Vec<Move>,
    /// How many of them were the opening's.
    pub opening_plies: usize,
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub ending: CheckersEnding,
    /// The mover's time left after each of the players' moves, ms.
    pub clocks: Vec<u64>,
}

impl CheckersGame {
    /// The score as the project writes it: `1-0` is Black's win.
    pub fn score(&self) -> Score {
        match self.winner {
            Some(side) => Score::win_for(side),
            None => Score::Draw,
        }
    }

    /// Points of the pairing's first player.
    pub fn first_points(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(side) if (side == Side::Black) == self.first_is_black => 1.0,
            Some(_) => 0.0,
        }
    }
}

impl fmt::Display for CheckersEnding {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CheckersEnding::NoMoves => f.write_str("no legal move"),
            CheckersEnding::Fault { side, fault } if fault.kind == FaultKind::Flag => {
                write!(f, "{} lost on time ({})", side.name(), fault.detail)
            }
            CheckersEnding::Fault { side, fault } => write!(f, "{}: {fault}", side.name()),
            CheckersEnding::Repetition => f.write_str("the same position three times"),
            CheckersEnding::Quiet => {
                write!(f, "{QUIET_PLIES} plies without a man's move or a capture")
            }
            CheckersEnding::PlyCap(n) => write!(f, "adjudicated after {n} plies"),
        }
    }
}

/// The results of a checkers match: the report the chess-board matches
/// print, and every counted game.
#[derive(Clone, Debug)]
pub struct CheckersReport {
    /// Scores, pairs, SPRT, crosstable and faults.
    pub report: MatchReport,
    /// Every counted game, in order.
    pub games: Vec<CheckersGame>,
}

impl fmt::Display for CheckersReport {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.report)
    }
}

/// The clock seat of a checkers side: Black moves first, as White does
/// in chess.
fn seat(side: Side) -> Color {
    match side {
        Side::Black => Color::White,
        Side::White => Color::Black,
    }
}

/// What a player is told when it is to move.
struct Turn<'a> {
    record: &'a Record,
    my_ms: u64,
    their_ms: u64,
    deadline: Instant,
}

/// One side of a checkers game.
trait CheckersPlayer {
    /// A new game: the player has `side`.
    fn new_game(&mut self, side: Side);
    /// Its move, as text.
    fn choose(&mut self, turn: &Turn) -> Result<String, Fault>;
}

/// Seeded random legal moves.
struct RandomMover(SplitMix);

impl CheckersPlayer for RandomMover {
    fn new_game(&mut self, _side: Side) {}

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let moves = turn.record.position().legal_moves();
        let mv = moves[self.0.below(moves.len())];
        Ok(mv.to_string())
    }
}

/// An engine speaking the line protocol with `set rules checkers`.
struct LineEngine {
    process: Process,
    level: u32,
    options: Vec<(String, String)>,
    side: Side,
    /// The moves the engine has been told, if it is in step.
    known: Option<Vec<Move>>,
}

impl LineEngine {
    fn start(
        name: &str,
        argv: &[String],
        level: u32,
        options: &[(String, String)],
    ) -> Result<LineEngine, Fault> {
        let mut process = Process::spawn(name, argv)?;
        sync(&mut process)?;
        Ok(LineEngine {
            process,
            level,
            options: options.to_vec(),
            side: Side::Black,
            known: None,
        })
    }

    /// Tells the engine the current position as a new game.
    fn restart(&mut self, record: &Record, moves: &[Move]) -> Result<(), Fault> {
        self.process.send("set rules checkers")?;
        for (name, value) in &self.options {
            self.process.send(&format!("set {name} {value}"))?;
        }
        let mut new = format!("new {} {}", self.side.name(), self.level);
        if !moves.is_empty() {
            new.push(' ');
            new.push_str(&record.position().to_line());
        }
        self.process.send(&new)?;
        sync(&mut self.process)?;
        self.known = Some(moves.to_vec());
        Ok(())
    }
}

/// The moves of `record` (its actions are moves only in a match).
fn moves_of(record: &Record) -> Vec<Move> {
    record
        .actions()
        .iter()
        .filter_map(|a| match a {
            Action::Move(m) => Some(*m),
            _ => None,
        })
        .collect()
}

impl CheckersPlayer for LineEngine {
    fn new_game(&mut self, side: Side) {
        self.side = side;
        self.known = None;
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let moves = moves_of(turn.record);
        let news = match &self.known {
            Some(known) if moves.starts_with(known) && moves.len() <= known.len() + 1 => {
                moves.get(known.len()).copied()
            }
            _ => {
                self.restart(turn.record, &moves)?;
                None
            }
        };
        let opponent = news.map_or("-".to_string(), |m| m.to_string());
        self.process
            .send(&format!("move {opponent} {} {}", turn.my_ms, turn.their_ms))?;
        loop {
            let line = self
                .process
                .recv(turn.deadline)
                .map_err(|why| self.process.fault(why, "move"))?;
            let mut words = line.split_whitespace();
            let answer = match (words.next(), words.next(), words.next()) {
                (None, _, _) | (Some("info"), _, _) => continue,
                (Some("move"), Some(mv), None) => mv.to_string(),
                _ => {
                    return Err(Fault::new(
                        FaultKind::Malformed,
                        format!("expected 'move <squares>', got '{}'", shown(&line)),
                    ));
                }
            };
            if let (Some(known), Ok(own)) =
                (&mut self.known, turn.record.position().parse_move(&answer))
            {
                known.extend(news);
                known.push(own);
            }
            return Ok(answer);
        }
    }
}

/// Starts the player of `spec`.
fn build(
    spec: &PlayerSpec,
    name: &str,
    engine: &EngineBinary,
) -> Result<Box<dyn CheckersPlayer>, Fault> {
    Ok(match spec {
        PlayerSpec::Builtin { level } => {
            Box::new(LineEngine::start(name, &[engine.path()?], *level, &[])?)
        }
        PlayerSpec::Line {
            argv,
            level,
            options,
        } => Box::new(LineEngine::start(name, argv, *level, options)?),
        PlayerSpec::Random { seed } => Box::new(RandomMover(SplitMix(*seed))),
        PlayerSpec::Human | PlayerSpec::Uci { .. } => {
            return Err(Fault::new(
                FaultKind::Crash,
                "checkers matches take level:N, proto:COMMAND and random:SEED players",
            ));
        }
    })
}

/// The seeded random plies of pair `pair`: none that end the game.
fn opening(plies: u32, seed: u64, pair: u32) -> Vec<Move> {
    let mut rng = SplitMix(seed ^ u64::from(pair).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for _ in 0..100 {
        let mut record = Record::new();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = record.position().legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            if record.apply(Action::Move(mv)).is_err() {
                break;
            }
            moves.push(mv);
        }
        if record.result().is_none() && moves.len() == plies as usize {
            return moves;
        }
    }
    Vec::new()
}

/// Plays one game; `black` moves first.
fn play_game(
    config: &CheckersConfig,
    black: &mut dyn CheckersPlayer,
    white: &mut dyn CheckersPlayer,
    opening: &[Move],
) -> (Vec<Move>, Option<Side>, CheckersEnding, Vec<u64>) {
    let mut record = Record::new();
    for mv in opening {
        // The opening was played from the start position: it is legal.
        let _ = record.apply(Action::Move(*mv));
    }
    black.new_game(Side::Black);
    white.new_game(Side::White);
    let mut clocks = Clocks::new(config.time_ms, config.time_ms, config.increment_ms);
    let mut left_after = Vec::new();
    let end =
        |record: &Record, winner, ending, left: Vec<u64>| (moves_of(record), winner, ending, left);
    loop {
        let pos = *record.position();
        let side = pos.side_to_move();
        if !pos.has_moves() {
            return end(
                &record,
                Some(side.opponent()),
                CheckersEnding::NoMoves,
                left_after,
            );
        }
        let key = pos.zobrist_key();
        if record.keys().iter().filter(|&&k| k == key).count() >= 3 {
            return end(&record, None, CheckersEnding::Repetition, left_after);
        }
        if pos.quiet_plies() >= QUIET_PLIES {
            return end(&record, None, CheckersEnding::Quiet, left_after);
        }
        if let Some(cap) = config.max_plies
            && record.actions().len() >= cap as usize
        {
            return end(&record, None, CheckersEnding::PlyCap(cap), left_after);
        }
        let player: &mut dyn CheckersPlayer = match side {
            Side::Black => &mut *black,
            Side::White => &mut *white,
        };
        let me = seat(side);
        let left = clocks.left(me);
        let turn = Turn {
            record: &record,
            my_ms: clocks.left_ms(me),
            their_ms: clocks.left_ms(me.flip()),
            deadline: Instant::now() + left + Duration::from_millis(config.grace_ms),
        };
        clocks.start(me);
        let answer = player.choose(&turn);
        let stopped = clocks.stop();
        let lost = |fault: Fault| CheckersEnding::Fault { side, fault };
        let text = match answer {
            Ok(text) => text,
            Err(fault) => return end(&record, Some(side.opponent()), lost(fault), left_after),
        };
        if let Some(s) = stopped
            && s.flagged
        {
            let fault = Fault::late(s.elapsed, left);
            return end(&record, Some(side.opponent()), lost(fault), left_after);
        }
        let played = pos
            .parse_move(text.trim())
            .map_err(|e| e.to_string())
            .and_then(|mv| record.apply(Action::Move(mv)).map_err(|e| e.to_string()));
        if let Err(why) = played {
            let kind = if text.trim().split('-').all(|s| s.parse::<u32>().is_ok()) {
                FaultKind::Illegal
            } else {
                FaultKind::Malformed
            };
            let text = shown(text.trim());
            let detail = if why.contains(&text) {
                why
            } else {
                format!("{text}: {why}")
            };
            let fault = Fault::new(kind, detail);
            return end(&record, Some(side.opponent()), lost(fault), left_after);
        }
        left_after.push(clocks.left_ms(me));
    }
}

/// Checks that the options make a match.
fn check(config: &CheckersConfig) -> Result<(), MatchError> {
    let n = config.players.len();
    if n < 2 {
        return Err(MatchError::Setup(
            "a match needs two players or more".into(),
        ));
    }
    if config.sprt.is_some() && (n != 2 || !config.alternate) {
        return Err(MatchError::Setup(
            "the SPRT compares two players in pairs of games with the colours swapped \
             (--engine1/--engine2)"
                .into(),
        ));
    }
    if let Some(spec) = config
        .players
        .iter()
        .find(|p| matches!(p, PlayerSpec::Human | PlayerSpec::Uci { .. }))
    {
        return Err(MatchError::Setup(format!(
            "{}: checkers matches take level:N, proto:COMMAND and random:SEED players",
            spec.label()
        )));
    }
    Ok(())
}

/// Runs the match, printing a progress line per game on stderr.
pub fn run(config: &CheckersConfig) -> Result<CheckersReport, MatchError> {
    check(config)?;
    let pairs = pairings(config.players.len(), config.format);
    let names = names(&config.players);
    let games = config.games.max(1);
    let total = games * pairs.len() as u32;
    let mut report = MatchReport {
        names: names.clone(),
        pairings: pairs
            .iter()
            .map(|&players| PairingReport {
                players,
                ..Default::default()
            })
            .collect(),
        faults: BTreeMap::new(),
        adjudicated: 0,
        adjudication: super::game::Adjudication {
            max_plies: config.max_plies,
            repetitions: Some(3),
            tables: false,
        },
        sprt: config.sprt.map(|s| (s, Verdict::Continue)),
        uncounted: 0,
        resumed: 0,
        games: Vec::new(),
    };
    let mut played: Vec<CheckersGame> = Vec::new();
    let mut verdict = Verdict::Continue;
    'pairs: for pair in 0..games.div_ceil(2) {
        let start = opening(config.random_plies, config.seed, pair);
        for (pairing, &(first, second)) in pairs.iter().enumerate() {
            let mut points = Vec::new();
            for game in [2 * pair, 2 * pair + 1] {
                if game >= games {
                    continue;
                }
                let first_is_black = !config.alternate || game % 2 == 0;
                let (b, w) = if first_is_black {
                    (first, second)
                } else {
                    (second, first)
                };
                let number = played.len() as u32 + 1;
                let (moves, winner, ending, clocks) =
                    match build(&config.players[b], &names[b], &config.engine) {
                        Err(fault) => (
                            start.clone(),
                            Some(Side::White),
                            CheckersEnding::Fault {
                                side: Side::Black,
                                fault,
                            },
                            Vec::new(),
                        ),
                        Ok(mut black) => match build(&config.players[w], &names[w], &config.engine)
                        {
                            Err(fault) => (
                                start.clone(),
                                Some(Side::Black),
                                CheckersEnding::Fault {
                                    side: Side::White,
                                    fault,
                                },
                                Vec::new(),
                            ),
                            Ok(mut white) => {
                                play_game(config, black.as_mut(), white.as_mut(), &start)
                            }
                        },
                    };
                let game = CheckersGame {
                    number,
                    pairing,
                    first_is_black,
                    moves,
                    opening_plies: start.len(),
                    winner,
                    ending,
                    clocks,
                };
                eprintln!(
                    "game {number}/{total}: {} - {} {} ({}, {} plies)",
                    names[b],
                    names[w],
                    game.score(),
                    game.ending,
                    game.moves.len()
                );
                count(&mut report, &game);
                points.push(game.first_points());
                played.push(game);
                if let Some(path) = &config.pdn
                    && let Err(error) = write_pdn(path, &played, &names, &pairs)
                {
                    log::warn!("{error}");
                }
            }
            if points.len() == 2 && config.alternate {
                let half = ((points[0] + points[1]) * 2.0).round() as usize;
                report.pairings[pairing].penta.add(half);
                if let Some(sprt) = config.sprt {
                    let penta: &Pentanomial = &report.pairings[0].penta;
                    verdict = sprt.verdict(sprt.llr(penta));
                    eprintln!("{}", super::report::sprt_status(&sprt, penta));
                    if verdict != Verdict::Continue {
                        break 'pairs;
                    }
                }
            }
        }
    }
    report.sprt = config.sprt.map(|s| (s, verdict));
    if let Some(path) = &config.pdn {
        write_pdn(path, &played, &names, &pairs).map_err(MatchError::Pgn)?;
    }
    Ok(CheckersReport {
        report,
        games: played,
    })
}

/// Counts a finished game in the report.
fn count(report: &mut MatchReport, game: &CheckersGame) {
    let pairing = &mut report.pairings[game.pairing];
    let (first, second) = pairing.players;
    pairing.tally.add(game.first_points());
    let mut won_on_time_by = None;
    match &game.ending {
        CheckersEnding::Fault { side, fault } => {
            let is_first = (*side == Side::Black) == game.first_is_black;
            let player = if is_first { first } else { second };
            *report.faults.entry((player, fault.kind)).or_default() += 1;
            if fault.kind == FaultKind::Flag {
                won_on_time_by = Some(usize::from(is_first));
            }
        }
        ending if ending.adjudicated() => report.adjudicated += 1,
        _ => {}
    }
    pairing
        .flags
        .add(game.first_points(), won_on_time_by, game.moves.len());
}

/// A PDN tag value, quoted.
fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// One game as PDN: American checkers (`GameType "21"`), Black first,
/// `1-0` Black's win; the players' moves carry `%clk` comments.
pub fn pdn(game: &CheckersGame, event: &str, black: &str, white: &str) -> String {
    let mut text = String::new();
    text.push_str(&tag("Event", event));
    text.push_str(&tag("Round", &game.number.to_string()));
    text.push_str(&tag("Black", black));
    text.push_str(&tag("White", white));
    text.push_str(&tag("Result", &game.score().to_string()));
    text.push_str(&tag("GameType", "21"));
    if game.opening_plies > 0 {
        text.push_str(&tag(
            "Opening",
            &format!("{} random plies", game.opening_plies),
        ));
    }
    let termination = match &game.ending {
        CheckersEnding::NoMoves => "normal".to_string(),
        CheckersEnding::Fault { fault, .. } if fault.kind == FaultKind::Flag => {
            "time forfeit".to_string()
        }
        CheckersEnding::Fault { fault, .. } => format!("{}: {}", fault.kind, fault.detail),
        ending => format!("adjudication: {ending}"),
    };
    text.push_str(&tag("Termination", &termination));
    text.push('\n');
    let mut body = Vec::new();
    for (i, mv) in game.moves.iter().enumerate() {
        if i % 2 == 0 {
            body.push(format!("{}.", i / 2 + 1));
        }
        body.push(mv.to_string());
        if let Some(ms) = i
            .checked_sub(game.opening_plies)
            .and_then(|k| game.clocks.get(k))
        {
            body.push(super::pgn::clock_comment(*ms));
        }
    }
    body.push(game.score().to_string());
    let mut line = String::new();
    for word in body {
        if !line.is_empty() && line.len() + word.len() >= 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    text.push_str(&line);
    text.push_str("\n\n");
    text
}

/// Writes every game to `path` through a temporary file.
fn write_pdn(
    path: &std::path::Path,
    games: &[CheckersGame],
    names: &[String],
    pairs: &[(usize, usize)],
) -> Result<(), String> {
    let mut text = String::new();
    for game in games {
        let (a, b) = pairs[game.pairing];
        let (black, white) = if game.first_is_black { (a, b) } else { (b, a) };
        text.push_str(&pdn(game, "checkers match", &names[black], &names[white]));
    }
    super::write_atomically(path, &text)
}
