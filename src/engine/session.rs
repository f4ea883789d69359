//! The worker's state and its answers: the game in progress (position,
//! history, clocks, the engine's colour, the board style it was loaded
//! in), the options, and the thinker.
//!
//! Every command is checked in full before anything changes, so a refused
//! command leaves the session exactly as it was: the referee can resend.

use super::command::{Command, Go, ParseError, Protocol, Setting, Start};
use super::levels::Level;
use super::think::{Job, Thinker};
use super::{NAME, Out, uci};
use crate::chess::{
    Color, FileStyle, FormatError, GameFile, GameRecord, Move, MoveError, Position, Rules, Status,
    perft,
};
use crate::search::{MoveList, TtError};
use std::fmt;
use std::sync::atomic::AtomicBool;
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
    /// A game file that cannot be read.
    Board(FormatError),
    /// A FEN that cannot be read.
    Fen(FormatError),
    /// A move that cannot be played here.
    Move {
        /// The move as sent (shortened, escaped).
        text: String,
        /// Why not.
        why: MoveError,
    },
    /// The game is over; no move can be played.
    GameOver(Status),
    /// `move <m>` when it is the engine's turn.
    MyTurn(Color),
    /// `move -` when it is the opponent's turn.
    NotMyTurn(Color),
    /// The game so far cannot be replayed under other rules.
    Rules {
        /// The rules asked for.
        rules: Rules,
        /// What fails.
        why: Box<EngineError>,
    },
    /// The hash table cannot be made as asked.
    Hash(TtError),
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
            EngineError::Move { text, why } => write!(f, "illegal move '{text}': {why}"),
            EngineError::GameOver(status) => write!(
                f,
                "the game is over: {} {}",
                status.score(),
                status.reason().map_or("", |r| r.name())
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

/// A game in progress.
#[derive(Clone, Debug)]
struct Game {
    /// How it started, kept to replay it under other rules.
    origin: Start,
    record: GameRecord,
    /// The colour the engine plays; `None` until `new` says or the first
    /// `move` shows.
    engine: Option<Color>,
    /// White's and black's time left, ms, as last given.
    clocks: [u64; 2],
    /// The board style `board` answers in.
    style: FileStyle,
}

impl Game {
    /// A game from `origin` under `rules`.
    fn load(origin: Start, rules: Rules, engine: Option<Color>) -> Result<Game, EngineError> {
        let default_clocks = [DEFAULT_CLOCK_MS; 2];
        let (position, clocks, style) = match &origin {
            Start::Initial => (Position::startpos(rules), default_clocks, FileStyle::Y2002),
            Start::Fen(fen) => (
                Position::from_fen(fen, rules).map_err(EngineError::Fen)?,
                default_clocks,
                FileStyle::Y2002,
            ),
            Start::Board(text) => {
                let file = GameFile::parse(text, rules).map_err(EngineError::Board)?;
                (file.position, [file.white_ms, file.black_ms], file.style)
            }
        };
        Ok(Game {
            origin,
            record: GameRecord::new(position),
            engine,
            clocks,
            style,
        })
    }

    fn position(&self) -> &Position {
        self.record.position()
    }

    /// Reads `text` as a move of the side to move and plays it.
    fn play_text(&mut self, text: &str) -> Result<Move, EngineError> {
        let status = self.record.status();
        if status.is_over() {
            return Err(EngineError::GameOver(status));
        }
        let mv = self
            .position()
            .parse_move(text)
            .map_err(|why| EngineError::Move {
                text: super::command::shown(text),
                why,
            })?;
        self.record.play(mv);
        Ok(mv)
    }

    /// The same game under `rules`: its start read again and its moves
    /// replayed, which fails if one of them is not legal there.
    fn under(&self, rules: Rules) -> Result<Game, EngineError> {
        let wrap = |why| EngineError::Rules {
            rules,
            why: Box::new(why),
        };
        let mut game = Game::load(self.origin.clone(), rules, self.engine).map_err(wrap)?;
        for mv in self.record.moves() {
            game.play_text(&mv.to_string()).map_err(wrap)?;
        }
        game.clocks = self.clocks;
        Ok(game)
    }

    fn file(&self) -> GameFile {
        GameFile {
            position: *self.position(),
            white_ms: self.clocks[Color::White.index()],
            black_ms: self.clocks[Color::Black.index()],
            style: self.style,
        }
    }
}

/// The `result` answer for a finished game.
fn result_line(status: Status) -> String {
    let reason = status.reason().map_or("-", |r| r.name());
    format!("result {} {reason}", status.score())
}

/// The worker's whole state.
pub struct Session {
    out: Out,
    protocol: Protocol,
    rules: Rules,
    level: Level,
    seed: u64,
    game: Game,
    thinker: Thinker,
}

impl Session {
    /// A session in the line protocol, antichess, level 0, a game from
    /// the start position; the hash table is allocated now.
    pub fn new(out: Out) -> Result<Session, EngineError> {
        let rules = Rules::default();
        Ok(Session {
            out,
            protocol: Protocol::Line,
            rules,
            level: Level(0),
            seed: 0,
            game: Game::load(Start::Initial, rules, None)?,
            thinker: Thinker::new(DEFAULT_HASH_MIB)?,
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
    /// command was read (time limits count from then); `stop` is the flag
    /// that ends a search.
    pub fn handle(&mut self, command: Command, arrived: Instant, stop: &AtomicBool) -> Flow {
        let answer = match command {
            Command::Quit => return Flow::Quit,
            Command::Ignored | Command::Stop => Ok(None),
            Command::Name => Ok(Some(format!("name {NAME}"))),
            Command::IsReady => Ok(Some("readyok".to_string())),
            Command::Uci => {
                self.protocol = Protocol::Uci;
                for line in uci::hello(self.rules) {
                    self.out.line(&line);
                }
                Ok(Some("uciok".to_string()))
            }
            Command::New {
                color,
                level,
                start,
            } => self.new_game(start, Some(color)).map(|()| {
                self.level = level;
                self.ok()
            }),
            Command::UciNewGame => self.new_game(Start::Initial, None).map(|()| None),
            Command::Position { start, moves } => self.set_position(start, &moves).map(|()| None),
            Command::Move {
                opponent,
                my_ms,
                their_ms,
            } => self
                .play_turn(opponent.as_deref(), my_ms, their_ms, arrived, stop)
                .map(Some),
            Command::Play(text) => self.game.play_text(&text).map(|_| self.ok()),
            Command::Board => Ok(Some(format!("board {}", self.game.file().write(" ")))),
            Command::Moves => Ok(Some(self.moves_line())),
            Command::Perft(depth) => Ok(Some(format!(
                "perft {depth} {}",
                perft(self.game.position(), depth)
            ))),
            Command::Go(go) => Ok(Some(self.go(go, arrived, stop))),
            Command::Set(setting) => self.set(setting).map(|()| self.ok()),
        };
        match answer {
            Ok(Some(line)) => self.out.line(&line),
            Ok(None) => {}
            Err(error) => self.answer_error(&error),
        }
        Flow::Continue
    }

    fn new_game(&mut self, start: Start, engine: Option<Color>) -> Result<(), EngineError> {
        self.game = Game::load(start, self.rules, engine)?;
        self.thinker.new_game();
        Ok(())
    }

    /// UCI `position`: the new game is built aside and kept only if every
    /// move is legal.
    fn set_position(&mut self, start: Start, moves: &[String]) -> Result<(), EngineError> {
        let mut game = Game::load(start, self.rules, None)?;
        for text in moves {
            game.play_text(text)?;
        }
        self.game = game;
        Ok(())
    }

    fn moves_line(&self) -> String {
        let mut moves = MoveList::new();
        self.game.position().legal_moves(&mut moves);
        let mut words: Vec<String> = moves.iter().map(|m| self.move_text(*m)).collect();
        words.sort();
        let mut line = "moves".to_string();
        for word in words {
            line.push(' ');
            line.push_str(&word);
        }
        line
    }

    /// A move as this protocol writes it.
    fn move_text(&self, mv: Move) -> String {
        match self.protocol {
            Protocol::Line => mv.handout().to_string(),
            Protocol::Uci => mv.to_string(),
        }
    }

    /// `move`: the opponent's move (if any) and the clocks, then the
    /// engine's reply; all or nothing.
    fn play_turn(
        &mut self,
        opponent: Option<&str>,
        my_ms: u64,
        their_ms: u64,
        arrived: Instant,
        stop: &AtomicBool,
    ) -> Result<String, EngineError> {
        let status = self.game.record.status();
        if status.is_over() {
            return Ok(result_line(status));
        }
        let mut game = self.game.clone();
        let to_move = game.position().side_to_move();
        match (opponent, game.engine) {
            (Some(_), Some(me)) if me == to_move => return Err(EngineError::MyTurn(me)),
            (None, Some(me)) if me != to_move => return Err(EngineError::NotMyTurn(to_move)),
            _ => {}
        }
        if let Some(text) = opponent {
            game.play_text(text)?;
        }
        let me = game.position().side_to_move();
        game.engine = Some(me);
        game.clocks[me.index()] = my_ms;
        game.clocks[me.flip().index()] = their_ms;
        let status = game.record.status();
        if status.is_over() {
            self.game = game;
            return Ok(result_line(status));
        }
        let go = Go {
            wtime: Some(game.clocks[Color::White.index()]),
            btime: Some(game.clocks[Color::Black.index()]),
            ..Go::default()
        };
        let chosen = self.think(&game, go, arrived, stop);
        let Some(mv) = chosen else {
            // Unreachable while status and move generation agree; answer
            // with the status rather than a move that does not exist.
            return Ok(result_line(game.record.status()));
        };
        game.record.play(mv);
        self.game = game;
        Ok(format!("move {}", mv.handout()))
    }

    fn think(&mut self, game: &Game, go: Go, arrived: Instant, stop: &AtomicBool) -> Option<Move> {
        let job = Job {
            position: game.position(),
            history: game.record.history(),
            go,
            level: self.level,
            seed: self.seed,
            arrived,
            stop,
        };
        let out = &self.out;
        let uci = self.protocol == Protocol::Uci;
        self.thinker.think(&job, &mut |info| {
            // The line protocol answers each command with one line.
            if uci {
                out.line(&uci::info_line(info));
            }
        })
    }

    /// `go`: search without moving. A finished game answers `result` in
    /// the line protocol and the null move in UCI.
    fn go(&mut self, go: Go, arrived: Instant, stop: &AtomicBool) -> String {
        let game = self.game.clone();
        let status = game.record.status();
        let chosen = if status.is_over() {
            None
        } else {
            self.think(&game, go, arrived, stop)
        };
        match (chosen, self.protocol) {
            (Some(mv), _) => format!("bestmove {}", self.move_text(mv)),
            (None, Protocol::Line) => result_line(status),
            (None, Protocol::Uci) => "bestmove 0000".to_string(),
        }
    }

    fn set(&mut self, setting: Setting) -> Result<(), EngineError> {
        match setting {
            Setting::Rules(rules) => {
                self.game = match self.game.under(rules) {
                    Ok(game) => game,
                    // Referees and GUIs set the rules and then send the
                    // game (`new`, `position`): the old one does not matter.
                    Err(e) => {
                        log::info!("{e}; starting from the start position");
                        Game::load(Start::Initial, rules, self.game.engine)?
                    }
                };
                self.rules = rules;
            }
            Setting::Level(level) => self.level = level,
            Setting::Hash(mib) => self.thinker.resize_hash(mib)?,
            Setting::Threads(threads) => self.thinker.set_threads(threads),
            Setting::Seed(seed) => self.seed = seed,
        }
        Ok(())
    }
}
