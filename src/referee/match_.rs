//! A series of refereed games of the chess-board rule sets: two players,
//! or a gauntlet (the first against each of the others) or a round robin
//! of many. Openings come from a book or from seeded random plies, each
//! played twice with the colours swapped; games run one at a time by
//! default (fair timings on a small machine) or in parallel; fresh
//! players each game, or (for long-run tests) the same engine processes
//! as long as they commit no fault. An SPRT may stop a two-player match
//! early, and a state file lets a stopped run continue. A progress line
//! per game goes to stderr; at the end come the results ([`MatchReport`])
//! and optionally the PGN. The series itself is [`super::series`]'s; this
//! module is the chess-board family it runs.

use super::game::{Adjudication, Ending, GameResult, GameSetup, play_game};
use super::pgn::{self, Header};
use super::player::{EngineBinary, Fault, Player, PlayerSpec};
use super::series::{self, Family, Outcome, Series};
use super::sprt::Sprt;
use crate::chess::{Color, GameRecord, Position, Rules};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub use super::openings::{MAX_RANDOM_PLIES, random_opening};
pub use super::series::{Format, MatchError, PairingReport};

/// The outcome of a chess-board match.
pub type MatchReport = series::MatchReport<GameResult>;

/// One finished game of a chess-board match.
pub type MatchGame = series::MatchGame<GameResult>;

/// Where the games start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// The rule set's start position.
    Start,
    /// A book, in order or shuffled: for the chess-board rule sets FEN,
    /// EPD, PGN or game-file lines; for checkers a book of moves.
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

impl Outcome for GameResult {
    fn first_mover_won(&self) -> Option<bool> {
        self.winner.map(|w| w == Color::White)
    }

    fn fault(&self) -> Option<(bool, &Fault)> {
        match &self.ending {
            Ending::Fault { side, fault } => Some((*side == Color::White, fault)),
            _ => None,
        }
    }

    fn adjudicated(&self) -> bool {
        matches!(self.ending, Ending::Adjudicated(_))
    }

    fn plies(&self) -> usize {
        self.record.moves().len()
    }

    fn progress(&self) -> String {
        format!("{} ({self}, {} plies)", self.score(), self.plies())
    }

    fn encode(&self) -> Value {
        super::state::chess_fields(self)
    }
}

impl Family for MatchConfig {
    type Opening = Position;
    type Result = GameResult;
    type Seat = Box<dyn Player>;

    fn openings(&self, pairs: u32) -> Result<Vec<Position>, MatchError> {
        use super::openings::{ordered, random_openings, read_book};
        Ok(match &self.openings {
            Openings::Start => vec![Position::startpos(self.rules)],
            Openings::File { path, shuffle } => {
                let book = read_book(path, self.rules).map_err(MatchError::Openings)?;
                ordered(book, shuffle.is_some(), shuffle.unwrap_or(0))
            }
            Openings::RandomPlies { plies, seed } => {
                random_openings(self.rules, *plies, *seed, pairs).map_err(MatchError::Openings)?
            }
        })
    }

    fn seat(&self, index: usize, name: &str) -> Result<Box<dyn Player>, Fault> {
        self.players[index].build(name, &self.engine)
    }

    fn play(
        &self,
        white: &mut Box<dyn Player>,
        black: &mut Box<dyn Player>,
        start: &Position,
    ) -> GameResult {
        let setup = GameSetup {
            start: *start,
            white_ms: self.time_ms,
            black_ms: self.time_ms,
            increment_ms: self.increment_ms,
            grace_ms: self.grace_ms,
            adjudication: self.adjudication,
        };
        play_game(white.as_mut(), black.as_mut(), &setup)
    }

    fn forfeit(&self, start: &Position, white: bool, fault: Fault) -> GameResult {
        let side = if white { Color::White } else { Color::Black };
        GameResult {
            winner: Some(side.flip()),
            ending: Ending::Fault { side, fault },
            record: GameRecord::new(*start),
            clocks: Vec::new(),
        }
    }

    fn write_record(
        &self,
        path: &Path,
        games: &[&MatchGame],
        names: &[String],
        pairs: &[(usize, usize)],
    ) -> Result<(), String> {
        let event = format!("{} match", self.rules);
        let mut text = String::new();
        for game in games {
            let (a, b) = pairs[game.pairing];
            let (white, black) = if game.first_moves_first {
                (a, b)
            } else {
                (b, a)
            };
            let header = Header {
                event: &event,
                round: game.number,
                white: &names[white],
                black: &names[black],
                tables: self.adjudication.tables,
            };
            text.push_str(&pgn::write(&header, &game.result));
        }
        crate::referee::write_atomically(path, &text)
    }

    fn decode(&self, line: &Value) -> Result<GameResult, String> {
        super::state::chess_result(line, self.rules)
    }

    fn fingerprint(&self) -> String {
        let a = &self.adjudication;
        format!(
            "rules={} players={:?} format={:?} alternate={} games={} time={} inc={} openings={:?} \
             adjudication={:?},{:?},{} sprt={:?}",
            self.rules,
            self.players,
            self.format,
            self.alternate,
            self.games,
            self.time_ms,
            self.increment_ms,
            self.openings,
            a.max_plies,
            a.repetitions,
            a.tables,
            self.sprt
        )
    }
}

/// Runs the match, printing a progress line per game on stderr.
pub fn run(config: &MatchConfig) -> Result<MatchReport, MatchError> {
    let series = Series {
        players: &config.players,
        format: config.format,
        alternate: config.alternate,
        games: config.games,
        concurrency: config.concurrency,
        keep_players: config.keep_players,
        sprt: config.sprt,
        state: config.state.as_deref(),
        record: config.pgn.as_deref(),
        adjudication: config.adjudication,
    };
    series::run(config, &series)
}
