//! The worker's state and its answers: the options, and the game family
//! in play with its game and thinker ([`Desk`]). The game commands are
//! written once in [`desk`](super::desk) and reached through `Board`,
//! the one place that tells the families apart.
//!
//! Every command is checked in full before anything changes, so a refused
//! command leaves the session exactly as it was: the referee can resend.

use super::command::{Command, ParseError, Protocol, Setting, Start};
use super::desk::{Context, Desk};
use super::family::{CheckersGame, ChessGame, MoveWhy, RuleSet, Verdict};
use super::levels::Level;
use super::{Control, NAME, Out, uci};
use crate::chess::{Color, FormatError, Rules, endgame};
use crate::search::TtError;
use std::fmt;
use std::time::Instant;

/// Each side's clock when a game starts without a board: five minutes,
/// as in both handouts' examples.
pub const DEFAULT_CLOCK_MS: u64 = 300_000;

/// Transposition table size until `set hash`, in MiB.
pub const DEFAULT_HASH_MIB: usize = 64;

/// Whether the worker goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Wait for the next command.
    Continue,
    /// `quit`: stop.
    Quit,
}

/// Why a command was refused (or the engine could not start).
#[derive(Debug)]
pub enum EngineError {
    /// The line is not a command.
    Parse(ParseError),
    /// A chess game file that cannot be read.
    Board(FormatError),
    /// A chess FEN that cannot be read.
    Fen(FormatError),
    /// A checkers one-line board that cannot be read.
    CheckersBoard(crate::checkers::pdn::LineError),
    /// A checkers PDN FEN that cannot be read.
    CheckersFen(crate::checkers::FenError),
    /// `stop` or `quit` ended a perft count before it finished.
    PerftStopped(u32),
    /// A move that cannot be played here.
    Move {
        /// The move as sent (shortened, escaped).
        text: String,
        /// Why not.
        why: MoveWhy,
    },
    /// The game is over; no move can be played.
    GameOver(Verdict),
    /// `move <m>` when it is the engine's turn.
    MyTurn(Color),
    /// `move -` when it is the opponent's turn.
    NotMyTurn(Color),
    /// Checkers asked for in UCI mode, which plays chess only.
    UciChessOnly,
    /// The game so far cannot be replayed under other rules.
    Rules {
        /// The rules asked for.
        rules: RuleSet,
        /// What fails.
        why: Box<EngineError>,
    },
    /// The hash table cannot be made as asked.
    Hash(TtError),
    /// The endgame tables' folder cannot be used.
    Tables(endgame::TableError),
    /// The worker thread cannot be started.
    Thread(std::io::Error),
    /// The worker thread panicked: a bug.
    Crashed,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            EngineError::Parse(e) => e.fmt(f),
            EngineError::Board(e) => write!(f, "bad board: {e}"),
            // A field error names the FEN already.
            EngineError::Fen(e @ FormatError::BadFenField { .. }) => e.fmt(f),
            EngineError::Fen(e) => write!(f, "bad FEN: {e}"),
            EngineError::CheckersBoard(e) => write!(
                f,
                "bad board: {} (a checkers board is 32 squares of b w B W . and the side to move, b or w)",
                e.0
            ),
            EngineError::CheckersFen(e) => write!(f, "bad PDN FEN: {e}"),
            EngineError::Move { text, why } => write!(f, "illegal move '{text}': {why}"),
            EngineError::PerftStopped(depth) => {
                write!(f, "perft {depth} stopped before it finished")
            }
            EngineError::GameOver(verdict) => write!(f, "the game is over: {verdict}"),
            EngineError::UciChessOnly => write!(
                f,
                "UCI mode plays the chess rule sets only; checkers needs the line protocol"
            ),
            EngineError::MyTurn(color) => write!(
                f,
                "it is {color}'s turn and I play {color}: send 'move - <my-ms> <opponent-ms>'"
            ),
            EngineError::NotMyTurn(color) => write!(
                f,
                "it is {color}'s turn, not mine: send the opponent's move first"
            ),
            EngineError::Rules { rules, why } => {
                write!(f, "cannot switch this game to {rules}: {why}")
            }
            EngineError::Hash(e) => e.fmt(f),
            EngineError::Tables(e) => write!(f, "cannot use the endgame tables: {e}"),
            EngineError::Thread(e) => write!(f, "cannot start the engine thread: {e}"),
            EngineError::Crashed => write!(f, "the engine thread crashed"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<TtError> for EngineError {
    fn from(e: TtError) -> EngineError {
        EngineError::Hash(e)
    }
}

/// The game family in play, with its game and thinker. Only one table
/// exists at a time: switching families allocates the other family's.
enum Board {
    /// Antichess, antichess 1994 or chess.
    Chess(Desk<ChessGame>),
    /// Checkers.
    Checkers(Desk<CheckersGame>),
}

/// Runs `$body` with `$desk` bound to the desk of whichever family is in
/// play: the body is generic code, written once.
macro_rules! on_desk {
    ($board:expr, $desk:ident => $body:expr) => {
        match $board {
            Board::Chess($desk) => $body,
            Board::Checkers($desk) => $body,
        }
    };
}

impl Board {
    /// A board for `rules` with a game from their start position and a
    /// fresh table.
    fn new(
        rules: RuleSet,
        engine: Option<Color>,
        hash_mib: usize,
        threads: usize,
    ) -> Result<Board, EngineError> {
        Ok(match rules {
            RuleSet::Chess(rules) => Board::Chess(Desk::new(rules, engine, hash_mib, threads)?),
            RuleSet::Checkers => Board::Checkers(Desk::new((), engine, hash_mib, threads)?),
        })
    }

    fn rules(&self) -> RuleSet {
        match self {
            Board::Chess(desk) => RuleSet::Chess(desk.rules()),
            Board::Checkers(_) => RuleSet::Checkers,
        }
    }
}

/// The worker's whole state.
pub struct Session {
    out: Out,
    protocol: Protocol,
    level: Level,
    seed: u64,
    /// The table size, for the next family's table.
    hash_mib: usize,
    /// Search threads, for the next family's thinker.
    threads: usize,
    board: Board,
}

impl Session {
    /// A session in the line protocol, antichess, level 0, a game from
    /// the start position; the hash table is allocated now.
    pub fn new(out: Out) -> Result<Session, EngineError> {
        Session::with_hash(out, DEFAULT_HASH_MIB)
    }

    /// As [`Session::new`], with a table of `hash_mib` MiB (as if `set
    /// hash` had been sent first).
    pub fn with_hash(out: Out, hash_mib: usize) -> Result<Session, EngineError> {
        Ok(Session {
            out,
            protocol: Protocol::Line,
            level: Level(0),
            seed: 0,
            hash_mib,
            threads: 1,
            board: Board::new(RuleSet::Chess(Rules::default()), None, hash_mib, 1)?,
        })
    }

    /// Answers a line that could not be parsed.
    pub fn refuse(&self, error: &ParseError) {
        self.answer_error(&EngineError::Parse(error.clone()));
    }

    fn answer_error(&self, error: &EngineError) {
        log::info!("refused: {error}");
        match self.protocol {
            Protocol::Line => self.out.line(&format!("error {error}")),
            // UCI has no error answer; GUIs show `info string`.
            Protocol::Uci => self.out.line(&format!("info string error: {error}")),
        }
    }

    /// The answer of a command that only says it was done: `ok` in the
    /// line protocol, nothing in UCI.
    fn ok(&self) -> Option<String> {
        (self.protocol == Protocol::Line).then(|| "ok".to_string())
    }

    /// Carries out one command and answers it. `arrived` is when the
    /// command was read (time limits count from then); `control` holds
    /// the flag that ends a search or a count, and is told when one
    /// begins.
    pub fn handle(&mut self, command: Command, arrived: Instant, control: &Control<'_>) -> Flow {
        let ctx = Context {
            out: &self.out,
            protocol: self.protocol,
            level: self.level,
            seed: self.seed,
            arrived,
            control,
        };
        let answer = match command {
            Command::Quit => return Flow::Quit,
            Command::Ignored | Command::Stop => Ok(None),
            Command::Name => Ok(Some(format!("name {NAME}"))),
            Command::Help => Ok(Some(match self.protocol {
                Protocol::Line => format!("help {}", Protocol::Line.commands()),
                Protocol::Uci => format!("info string commands: {}", Protocol::Uci.commands()),
            })),
            Command::IsReady => Ok(Some("readyok".to_string())),
            Command::Uci => self.enter_uci().map(|()| Some("uciok".to_string())),
            Command::New {
                color,
                level,
                start,
            } => on_desk!(&mut self.board, desk => desk.new_game(start, Some(color))).map(|()| {
                self.level = level;
                self.ok()
            }),
            Command::UciNewGame => {
                on_desk!(&mut self.board, desk => desk.new_game(Start::Initial, None))
                    .map(|()| None)
            }
            Command::Position { start, moves } => {
                on_desk!(&mut self.board, desk => desk.set_position(start, &moves)).map(|()| None)
            }
            Command::Move {
                opponent,
                my_ms,
                their_ms,
            } => on_desk!(&mut self.board, desk => {
                desk.play_turn(opponent.as_deref(), my_ms, their_ms, &ctx)
            })
            .map(Some),
            Command::Play(text) => {
                on_desk!(&mut self.board, desk => desk.play(&text)).map(|()| self.ok())
            }
            Command::Board => Ok(Some(on_desk!(&self.board, desk => desk.board()))),
            Command::Moves => Ok(Some(
                on_desk!(&self.board, desk => desk.moves(self.protocol)),
            )),
            Command::Perft(depth) => {
                on_desk!(&self.board, desk => desk.perft(depth, &ctx)).map(Some)
            }
            Command::Go(go) => Ok(Some(on_desk!(&mut self.board, desk => desk.go(go, &ctx)))),
            Command::Set(setting) => self.set(setting).map(|()| self.ok()),
        };
        match answer {
            Ok(Some(line)) => self.out.line(&line),
            Ok(None) => {}
            Err(error) => self.answer_error(&error),
        }
        Flow::Continue
    }

    /// `uci`: the identification and options; a checkers session goes
    /// back to the default chess rules, since UCI plays chess only.
    fn enter_uci(&mut self) -> Result<(), EngineError> {
        self.protocol = Protocol::Uci;
        if self.board.rules() == RuleSet::Checkers {
            self.set_rules(RuleSet::Chess(Rules::default()))?;
        }
        let rules = match self.board.rules() {
            RuleSet::Chess(rules) => rules,
            RuleSet::Checkers => Rules::default(),
        };
        for line in uci::hello(rules) {
            self.out.line(&line);
        }
        Ok(())
    }

    /// `set rules`: within a family the game is replayed under the new
    /// rules; another family gets its own table and a new game.
    fn set_rules(&mut self, rules: RuleSet) -> Result<(), EngineError> {
        match (&mut self.board, rules) {
            (_, RuleSet::Checkers) if self.protocol == Protocol::Uci => {
                Err(EngineError::UciChessOnly)
            }
            (Board::Chess(desk), RuleSet::Chess(rules)) => desk.switch_rules(rules),
            (Board::Checkers(_), RuleSet::Checkers) => Ok(()),
            (board, _) => {
                let engine = on_desk!(&*board, desk => desk.engine());
                // Built before the old one goes, so a failure changes nothing.
                *board = Board::new(rules, engine, self.hash_mib, self.threads)?;
                Ok(())
            }
        }
    }

    fn set(&mut self, setting: Setting) -> Result<(), EngineError> {
        match setting {
            Setting::Rules(rules) => self.set_rules(rules)?,
            Setting::Level(level) => self.level = level,
            Setting::Hash(mib) => {
                on_desk!(&mut self.board, desk => desk.resize_hash(mib))?;
                self.hash_mib = mib;
            }
            Setting::Threads(threads) => {
                on_desk!(&mut self.board, desk => desk.set_threads(threads));
                self.threads = threads;
            }
            Setting::Seed(seed) => self.seed = seed,
            Setting::Tables(None) => endgame::install(None),
            Setting::Tables(Some(dir)) => endgame::install(Some(
                endgame::Tables::open(&dir).map_err(EngineError::Tables)?,
            )),
        }
        Ok(())
    }
}
