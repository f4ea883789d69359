//! Checkers matches (`antichess match --rules checkers`): the series of
//! [`super::series`] — jobs in pairs with the colours swapped, parallel
//! games, kept engines, the state file, W/D/L, pentanomial pairs, the
//! SPRT, the crosstable and the faults table — around the checkers rules
//! of [`crate::checkers`], with the games written as PDN.
//!
//! Players are engines speaking the line protocol with
//! `set rules checkers` (`level:N` is our own binary, `proto:COMMAND` any
//! other) or seeded random movers (`random:SEED`). Every opening is played
//! twice with the colours swapped: the start position, seeded random
//! plies from it (`--random-plies N --seed S`), or a book's line of moves
//! (`--openings FILE`, shuffled by `--seed` with `--shuffle`), shared by
//! the two games of a pair and recorded as the first moves of both. The
//! checkers rules have no draw rule, so the referee applies its own: a
//! draw at the third occurrence of a position (or the `--repetitions`
//! asked for), after [`QUIET_PLIES`] plies in which no man moved and
//! nothing was taken, or at a ply cap if one is asked for.

use super::checkers_play::{self, CheckersPlayer};
use super::game::Adjudication;
use super::match_::{Format, MatchError, Openings};
use super::player::{EngineBinary, Fault, FaultKind, PlayerSpec};
use super::series::{self, Family, Outcome, Series};
use super::sprt::Sprt;
use crate::checkers::{Action, Color as Side, Move, Record, Score};
use serde_json::{Value, json};
use std::fmt;
use std::path::{Path, PathBuf};

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
    /// Where the games start: the start position, random plies from it,
    /// or a book of moves.
    pub openings: Openings,
    /// Draw after this many plies.
    pub max_plies: Option<u32>,
    /// Draw when a position occurs this many times (3 by default).
    pub repetitions: u32,
    /// Where to write the games as PDN.
    pub pdn: Option<PathBuf>,
    /// Games at once.
    pub concurrency: usize,
    /// Keep each engine from game to game until it commits a fault other
    /// than a flag.
    pub keep_players: bool,
    /// Stop a two-player match when this test decides.
    pub sprt: Option<Sprt>,
    /// Record every finished game here, and continue from what it holds.
    pub state: Option<PathBuf>,
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
    /// A position occurred this many times.
    Repetition(u32),
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
            CheckersEnding::Repetition(_) | CheckersEnding::Quiet | CheckersEnding::PlyCap(_)
        )
    }
}

/// A finished game of a checkers match.
#[derive(Clone, Debug)]
pub struct CheckersResult {
    /// The moves, the opening's first.
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

/// One finished game of a checkers match, with its place in the match.
pub type CheckersGame = series::MatchGame<CheckersResult>;

/// The results of a checkers match: scores, pairs, SPRT, crosstable and
/// faults, and every counted game.
pub type CheckersReport = series::MatchReport<CheckersResult>;

impl CheckersResult {
    /// The score as the project writes it: `1-0` is Black's win.
    pub fn score(&self) -> Score {
        match self.winner {
            Some(side) => Score::win_for(side),
            None => Score::Draw,
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
            CheckersEnding::Repetition(3) => f.write_str("the same position three times"),
            CheckersEnding::Repetition(n) => write!(f, "the same position {n} times"),
            CheckersEnding::Quiet => {
                write!(f, "{QUIET_PLIES} plies without a man's move or a capture")
            }
            CheckersEnding::PlyCap(n) => write!(f, "adjudicated after {n} plies"),
        }
    }
}

impl Outcome for CheckersResult {
    fn first_mover_won(&self) -> Option<bool> {
        self.winner.map(|w| w == Side::Black)
    }

    fn fault(&self) -> Option<(bool, &Fault)> {
        match &self.ending {
            CheckersEnding::Fault { side, fault } => Some((*side == Side::Black, fault)),
            _ => None,
        }
    }

    fn adjudicated(&self) -> bool {
        self.ending.adjudicated()
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn progress(&self) -> String {
        format!("{} ({}, {} plies)", self.score(), self.ending, self.plies())
    }

    fn encode(&self) -> Value {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        json!({
            "moves": moves,
            "opening_plies": self.opening_plies,
            "clocks": self.clocks,
            "winner": self.winner.map(Side::name),
            "ending": ending_json(&self.ending),
        })
    }
}

fn ending_json(ending: &CheckersEnding) -> Value {
    match ending {
        CheckersEnding::NoMoves => json!({ "rules": "no moves" }),
        CheckersEnding::Fault { side, fault } => json!({
            "fault": fault.kind.name(), "side": side.name(), "detail": fault.detail,
        }),
        CheckersEnding::Repetition(n) => json!({ "repetitions": n }),
        CheckersEnding::Quiet => json!({ "quiet": QUIET_PLIES }),
        CheckersEnding::PlyCap(n) => json!({ "plies": n }),
    }
}

fn side_of(v: &Value) -> Result<Option<Side>, String> {
    match v.as_str() {
        None if v.is_null() => Ok(None),
        Some(name) if name == Side::Black.name() => Ok(Some(Side::Black)),
        Some(name) if name == Side::White.name() => Ok(Some(Side::White)),
        _ => Err(format!("bad side {v}")),
    }
}

fn ending_of(v: &Value) -> Result<CheckersEnding, String> {
    let bad = || format!("bad ending {v}");
    let number = |key: &str| {
        v[key]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)
    };
    if v.get("rules").is_some() {
        return Ok(CheckersEnding::NoMoves);
    }
    if let Some(name) = v.get("fault").and_then(Value::as_str) {
        let kind = FaultKind::ALL.into_iter().find(|k| k.name() == name);
        let detail = v["detail"].as_str().ok_or_else(bad)?;
        return Ok(CheckersEnding::Fault {
            side: side_of(&v["side"])?.ok_or_else(bad)?,
            fault: Fault::new(kind.ok_or_else(bad)?, detail),
        });
    }
    if v.get("repetitions").is_some() {
        return Ok(CheckersEnding::Repetition(number("repetitions")?));
    }
    if v.get("quiet").is_some() {
        return Ok(CheckersEnding::Quiet);
    }
    if v.get("plies").is_some() {
        return Ok(CheckersEnding::PlyCap(number("plies")?));
    }
    Err(bad())
}

/// A game from its state-file line; the moves are replayed by the rules.
fn decode(v: &Value) -> Result<CheckersResult, String> {
    let field = |key: &str| v.get(key).ok_or_else(|| format!("no '{key}'"));
    let mut record = Record::new();
    let mut moves = Vec::new();
    for m in field("moves")?.as_array().ok_or("bad moves")? {
        let text = m.as_str().ok_or("bad move")?;
        let mv = record
            .position()
            .parse_move(text)
            .map_err(|e| format!("move {text}: {e}"))?;
        record
            .apply(Action::Move(mv))
            .map_err(|e| format!("move {text}: {e}"))?;
        moves.push(mv);
    }
    let opening_plies = field("opening_plies")?
        .as_u64()
        .filter(|&n| n as usize <= moves.len())
        .ok_or("bad opening_plies")? as usize;
    Ok(CheckersResult {
        moves,
        opening_plies,
        winner: side_of(field("winner")?)?,
        ending: ending_of(field("ending")?)?,
        clocks: super::state::clocks_of(field("clocks")?)?,
    })
}

impl Family for CheckersConfig {
    type Opening = Vec<Move>;
    type Result = CheckersResult;
    type Seat = Box<dyn CheckersPlayer>;

    fn openings(&self, pairs: u32) -> Result<Vec<Vec<Move>>, MatchError> {
        Ok(match &self.openings {
            Openings::Start => vec![Vec::new()],
            Openings::File { path, shuffle } => {
                let mut book =
                    super::checkers_book::read_book(path).map_err(MatchError::Openings)?;
                if let Some(seed) = shuffle {
                    crate::rng::Xoshiro::new(*seed).shuffle(&mut book);
                }
                book
            }
            Openings::RandomPlies { plies, seed } => (0..pairs)
                .map(|pair| checkers_play::random_opening(*plies, *seed, pair))
                .collect(),
        })
    }

    fn seat(&self, index: usize, name: &str) -> Result<Box<dyn CheckersPlayer>, Fault> {
        checkers_play::build(&self.players[index], name, &self.engine)
    }

    fn play(
        &self,
        black: &mut Box<dyn CheckersPlayer>,
        white: &mut Box<dyn CheckersPlayer>,
        opening: &Vec<Move>,
    ) -> CheckersResult {
        checkers_play::play_game(self, black.as_mut(), white.as_mut(), opening)
    }

    fn forfeit(&self, opening: &Vec<Move>, black: bool, fault: Fault) -> CheckersResult {
        let side = if black { Side::Black } else { Side::White };
        CheckersResult {
            moves: opening.clone(),
            opening_plies: opening.len(),
            winner: Some(side.opponent()),
            ending: CheckersEnding::Fault { side, fault },
            clocks: Vec::new(),
        }
    }

    fn write_record(
        &self,
        path: &Path,
        games: &[&CheckersGame],
        names: &[String],
        pairs: &[(usize, usize)],
    ) -> Result<(), String> {
        let source = match &self.openings {
            Openings::File { path, .. } => match path.file_name() {
                Some(name) => format!("plies of {}", name.to_string_lossy()),
                None => "book plies".to_string(),
            },
            _ => "random plies".to_string(),
        };
        let mut text = String::new();
        for game in games {
            let (a, b) = pairs[game.pairing];
            let (black, white) = if game.first_moves_first {
                (a, b)
            } else {
                (b, a)
            };
            let players = (names[black].as_str(), names[white].as_str());
            text.push_str(&pdn(game, "checkers match", players, &source));
        }
        super::write_atomically(path, &text)
    }

    fn decode(&self, line: &Value) -> Result<CheckersResult, String> {
        decode(line)
    }

    fn fingerprint(&self) -> String {
        format!(
            "rules=checkers players={:?} format={:?} alternate={} games={} time={} inc={} \
             openings={:?} adjudication={:?},{},{QUIET_PLIES} sprt={:?}",
            self.players,
            self.format,
            self.alternate,
            self.games,
            self.time_ms,
            self.increment_ms,
            self.openings,
            self.max_plies,
            self.repetitions,
            self.sprt
        )
    }
}

/// Checks the players and options only checkers asks about.
fn check(config: &CheckersConfig) -> Result<(), MatchError> {
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
    if config.repetitions < 2 {
        return Err(MatchError::Setup(format!(
            "--repetitions: a position occurs at least twice to repeat, not {}",
            config.repetitions
        )));
    }
    Ok(())
}

/// Runs the match, printing a progress line per game on stderr.
pub fn run(config: &CheckersConfig) -> Result<CheckersReport, MatchError> {
    check(config)?;
    let series = Series {
        players: &config.players,
        format: config.format,
        alternate: config.alternate,
        games: config.games,
        concurrency: config.concurrency,
        keep_players: config.keep_players,
        sprt: config.sprt,
        state: config.state.as_deref(),
        record: config.pdn.as_deref(),
        adjudication: Adjudication {
            max_plies: config.max_plies,
            repetitions: Some(config.repetitions),
            tables: false,
        },
    };
    series::run(config, &series)
}

/// A PDN tag value, quoted.
fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// One game as PDN: American checkers (`GameType "21"`), Black first,
/// `1-0` Black's win; the players' moves carry `%clk` comments. The
/// opening's plies are named `N {source}` (`4 random plies`).
pub fn pdn(game: &CheckersGame, event: &str, (black, white): (&str, &str), source: &str) -> String {
    let mut text = String::new();
    let number = game.number;
    let game = &game.result;
    text.push_str(&tag("Event", event));
    text.push_str(&tag("Round", &number.to_string()));
    text.push_str(&tag("Black", black));
    text.push_str(&tag("White", white));
    text.push_str(&tag("Result", &game.score().to_string()));
    text.push_str(&tag("GameType", "21"));
    if game.opening_plies > 0 {
        text.push_str(&tag("Opening", &format!("{} {source}", game.opening_plies)));
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
