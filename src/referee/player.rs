//! Who plays a side: the [`Player`] trait the referee asks for moves, the
//! faults that lose a game outside the rules, and the player specs of the
//! command line (`level:3`, `random`, `human`, `proto:CMD`, `uci:CMD`).
//!
//! A player only proposes move text; the referee checks it against our
//! rules, so one bad engine cannot corrupt the game it plays.

use super::external::{LineEngine, UciEngine};
use crate::chess::{Color, GameRecord, Position};
use crate::rng::SplitMix;
use crate::search::MoveList;
use std::fmt;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

/// How a player lost a game by the referee's verdict rather than the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FaultKind {
    /// It answered a move our rules do not allow.
    Illegal,
    /// Its answer was not a move at all.
    Malformed,
    /// It exited, or could not be started or written to.
    Crash,
    /// It gave no answer, even after its time ran out.
    Hang,
    /// It answered, but after its time ran out.
    Flag,
}

impl FaultKind {
    /// Every kind, in the order the faults table lists them.
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Illegal,
        FaultKind::Malformed,
        FaultKind::Crash,
        FaultKind::Hang,
        FaultKind::Flag,
    ];

    /// The name used in results and tables.
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal move",
            FaultKind::Malformed => "malformed answer",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::Flag => "flag",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault and what exactly happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which kind.
    pub kind: FaultKind,
    /// Details for people: the answer, the reason it is illegal, the exit
    /// status.
    pub detail: String,
}

impl Fault {
    /// The flag of a player whose answer took `elapsed` with only `left`
    /// on its clock.
    pub fn late(elapsed: std::time::Duration, left: std::time::Duration) -> Fault {
        Fault::new(
            FaultKind::Flag,
            format!(
                "answered after {} ms with {} ms left",
                elapsed.as_millis(),
                left.as_millis()
            ),
        )
    }

    /// A fault of `kind` with details.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

impl std::error::Error for Fault {}

/// What a player is told when it is to move.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game so far; the player is the side to move.
    pub game: &'a GameRecord,
    /// Its own time left, ms.
    pub my_ms: u64,
    /// The opponent's time left, ms.
    pub their_ms: u64,
    /// Increment per move, ms.
    pub increment_ms: u64,
    /// When the referee stops waiting and calls it a hang.
    pub deadline: Instant,
}

impl Turn<'_> {
    /// The colour to move.
    pub fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// White's and black's time left, ms.
    pub fn times(&self) -> (u64, u64) {
        match self.side() {
            Color::White => (self.my_ms, self.their_ms),
            Color::Black => (self.their_ms, self.my_ms),
        }
    }
}

/// One side of a game.
pub trait Player: Send {
    /// The name shown in results and PGN.
    fn name(&self) -> &str;

    /// Prepares for a game from `start` in which it plays `color`.
    fn new_game(&mut self, start: &Position, color: Color) -> Result<(), Fault>;

    /// Its move as text, to be checked by the referee.
    fn choose(&mut self, turn: &Turn) -> Result<String, Fault>;
}

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// Our own engine at a level, run as a child process speaking the
    /// line protocol (`level:N`).
    Builtin {
        /// Its level (0 is full strength on the clock).
        level: u32,
    },
    /// Random legal moves, in-process (`random` or `random:SEED`).
    Random {
        /// The seed.
        seed: u64,
    },
    /// A person typing moves on the terminal (`human`).
    Human,
    /// An external program speaking our line protocol
    /// (`proto:CMD ARGS[;level=N][;NAME=VALUE]...`).
    Line {
        /// Program and arguments.
        argv: Vec<String>,
        /// The level sent in `new`.
        level: u32,
        /// `set NAME VALUE` lines sent before each game.
        options: Vec<(String, String)>,
    },
    /// An external UCI program (`uci:CMD ARGS[;NAME=VALUE]...`).
    Uci {
        /// Program and arguments.
        argv: Vec<String>,
        /// `setoption` values.
        options: Vec<(String, String)>,
    },
}

/// Why a player spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} (expected level:N, random[:SEED], human, proto:COMMAND[;level=N] or uci:COMMAND[;NAME=VALUE]...)",
            self.0
        )
    }
}

impl std::error::Error for SpecError {}

impl std::str::FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let text = text.trim();
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let number = |what: &str, s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| SpecError(format!("{what} must be a whole number, not '{s}'")))
        };
        match kind {
            "level" | "builtin" => Ok(PlayerSpec::Builtin {
                level: u32::try_from(number("the level", rest)?)
                    .map_err(|_| SpecError(format!("level {rest} is too large")))?,
            }),
            "random" if rest.is_empty() => Ok(PlayerSpec::Random { seed: 1 }),
            "random" => Ok(PlayerSpec::Random {
                seed: number("the seed", rest)?,
            }),
            "human" => Ok(PlayerSpec::Human),
            "proto" | "uci" => {
                let mut parts = rest.split(';');
                let argv: Vec<String> = parts
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                if argv.is_empty() {
                    return Err(SpecError(format!("'{kind}:' needs a command to run")));
                }
                let mut options = Vec::new();
                for part in parts.filter(|p| !p.trim().is_empty()) {
                    let (name, value) = part.split_once('=').ok_or_else(|| {
                        SpecError(format!("option '{part}' must be written NAME=VALUE"))
                    })?;
                    options.push((name.trim().to_string(), value.trim().to_string()));
                }
                if kind == "uci" {
                    return Ok(PlayerSpec::Uci { argv, options });
                }
                let mut level = 0;
                if let Some(i) = options.iter().position(|(n, _)| n == "level") {
                    let (_, value) = options.remove(i);
                    level = u32::try_from(number("the level", &value)?)
                        .map_err(|_| SpecError(format!("level {value} is too large")))?;
                }
                Ok(PlayerSpec::Line {
                    argv,
                    level,
                    options,
                })
            }
            _ => Err(SpecError(format!("unknown player '{text}'"))),
        }
    }
}

impl PlayerSpec {
    /// A short name for tables and PGN.
    pub fn label(&self) -> String {
        let program = |argv: &[String]| {
            argv.first()
                .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
                .unwrap_or_default()
        };
        match self {
            PlayerSpec::Builtin { level } => format!("antichess level {level}"),
            PlayerSpec::Random { seed } => format!("random {seed}"),
            PlayerSpec::Human => "human".to_string(),
            PlayerSpec::Line { argv, level, .. } => format!("{} level {level}", program(argv)),
            PlayerSpec::Uci { argv, .. } => program(argv),
        }
    }

    /// Starts the player. `engine` is our own binary, for the built-in
    /// levels.
    pub fn build(&self, name: &str, engine: &EngineBinary) -> Result<Box<dyn Player>, Fault> {
        Ok(match self {
            PlayerSpec::Builtin { level } => {
                Box::new(LineEngine::start(name, &[engine.path()?], *level, &[])?)
            }
            PlayerSpec::Random { seed } => Box::new(RandomPlayer::new(name, *seed)),
            PlayerSpec::Human => Box::new(HumanPlayer {
                name: name.to_string(),
            }),
            PlayerSpec::Line {
                argv,
                level,
                options,
            } => Box::new(LineEngine::start(name, argv, *level, options)?),
            PlayerSpec::Uci { argv, options } => Box::new(UciEngine::start(name, argv, options)?),
        })
    }
}

/// Where our own engine binary is: the running program unless told
/// otherwise (tests and the `play` front end run the real binary).
#[derive(Clone, Debug, Default)]
pub struct EngineBinary(pub Option<PathBuf>);

impl EngineBinary {
    /// The path to run.
    pub fn path(&self) -> Result<String, Fault> {
        let path = match &self.0 {
            Some(p) => p.clone(),
            None => std::env::current_exe().map_err(|e| {
                Fault::new(
                    FaultKind::Crash,
                    format!("cannot find our own program: {e}"),
                )
            })?,
        };
        Ok(path.to_string_lossy().into_owned())
    }
}

/// Uniformly random legal moves: a baseline and a quick opponent for tests.
pub struct RandomPlayer {
    name: String,
    rng: SplitMix,
}

impl RandomPlayer {
    /// A random player with a seed, so that games can be replayed.
    pub fn new(name: &str, seed: u64) -> RandomPlayer {
        RandomPlayer {
            name: name.to_string(),
            rng: SplitMix(seed),
        }
    }
}

/// A uniformly chosen legal move of `pos`, if it has one.
pub fn random_move(pos: &Position, rng: &mut SplitMix) -> Option<crate::chess::Move> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let i = ((u128::from(rng.next_u64()) * moves.len() as u128) >> 64) as usize;
    moves.get(i).copied()
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &Position, _color: Color) -> Result<(), Fault> {
        Ok(())
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        random_move(turn.game.position(), &mut self.rng)
            .map(|m| m.to_string())
            .ok_or_else(|| Fault::new(FaultKind::Malformed, "asked to move with no legal move"))
    }
}

/// A person at the terminal for `match`: prompts on stderr, reads stdin,
/// and asks again until the move is legal (only the clock can make a
/// person lose a game here).
pub struct HumanPlayer {
    name: String,
}

impl Player for HumanPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _start: &Position, color: Color) -> Result<(), Fault> {
        eprintln!("{}: you play {color}", self.name);
        Ok(())
    }

    fn choose(&mut self, turn: &Turn) -> Result<String, Fault> {
        let pos = turn.game.position();
        let stdin = std::io::stdin();
        loop {
            eprint!(
                "{}\n{} to move ({} ms left), your move: ",
                pos.fen(),
                turn.side(),
                turn.my_ms
            );
            let _ = std::io::stderr().flush();
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    return Err(Fault::new(FaultKind::Crash, "the keyboard input ended"));
                }
                Ok(_) => {}
            }
            match pos.parse_move(&line) {
                Ok(m) => return Ok(m.to_string()),
                Err(e) => eprintln!("{e}"),
            }
        }
    }
}
