//! The commands of both protocols, parsed from a line into a typed enum.
//!
//! Parsing is purely syntactic: it checks words, arity and numbers, and
//! leaves boards and moves as text because only the game in progress can
//! say whether they are legal. Every refusal is a [`ParseError`] whose
//! message tells the sender what was expected.

use super::family::RuleSet;
use super::levels::Level;
use crate::chess::Color;
use std::fmt;

mod parse;
pub use parse::parse;

/// Which protocol the lines are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Protocol {
    /// The engine line protocol of `protocol.md` (the default).
    #[default]
    Line,
    /// Standard UCI, after the `uci` command.
    Uci,
}

impl Protocol {
    /// The command words, as `help` and the unknown-command error list
    /// them.
    pub const fn commands(self) -> &'static str {
        match self {
            Protocol::Line => {
                "name isready new move play board moves perft go set stop uci help quit"
            }
            Protocol::Uci => {
                "uci isready setoption ucinewgame position go stop quit (and board, moves, perft, go perft, help)"
            }
        }
    }
}

/// Deepest `perft` accepted, in every game family: beyond any count that
/// could finish (checkers' published figures go to 14 plies, chess's to
/// 15), which is harmless since `stop` and `quit` end a count.
pub const MAX_PERFT: u32 = 64;

/// Largest transposition table accepted, in MiB.
pub const MAX_HASH_MIB: usize = 1 << 16;

/// Where a new game or a UCI position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The rule set's start position.
    Initial,
    /// A one-line game file of either handout (not yet checked).
    Board(String),
    /// A FEN (not yet checked).
    Fen(String),
}

/// Search limits of `go`; all in one small `Copy` value for both protocols.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// Fixed thinking time, ms.
    pub movetime: Option<u64>,
    /// White's clock, ms (UCI).
    pub wtime: Option<u64>,
    /// Black's clock, ms (UCI).
    pub btime: Option<u64>,
    /// White's increment, ms (UCI).
    pub winc: Option<u64>,
    /// Black's increment, ms (UCI).
    pub binc: Option<u64>,
    /// Moves to the next time control (UCI).
    pub movestogo: Option<u32>,
    /// Search until `stop` (UCI).
    pub infinite: bool,
}

impl Go {
    /// Whether nothing but `stop` (or the maximum depth) ends the search.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.wtime.is_none()
                && self.btime.is_none())
    }
}

/// An option of `set` (line protocol) or `setoption` (UCI).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The rule set (`UCI_Variant`).
    Rules(RuleSet),
    /// The strength level.
    Level(Level),
    /// Transposition table size, MiB.
    Hash(usize),
    /// Search threads.
    Threads(usize),
    /// Seed of the random levels.
    Seed(u64),
    /// The folder of the antichess endgame tables; `None`: use none.
    Tables(Option<std::path::PathBuf>),
}

/// A command of either protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `name`: say who we are.
    Name,
    /// `help`: the commands of the protocol in use, on one line.
    Help,
    /// `isready`: answer `readyok`, even during a search.
    IsReady,
    /// `new <colour> <level> [board | fen FEN]`.
    New {
        /// The colour the engine plays.
        color: Color,
        /// Its strength.
        level: Level,
        /// Where the game starts.
        start: Start,
    },
    /// `move <opponent-move|-> <my-ms> <opponent-ms>`.
    Move {
        /// The opponent's move as sent; `None` for `-`.
        opponent: Option<String>,
        /// The engine's clock, ms.
        my_ms: u64,
        /// The opponent's clock, ms.
        their_ms: u64,
    },
    /// `play <m>`: apply a move without searching.
    Play(String),
    /// `board`: the position as a one-line game file.
    Board,
    /// `moves`: the legal moves.
    Moves,
    /// `perft <n>`.
    Perft(u32),
    /// `go ...` in either protocol.
    Go(Go),
    /// `set <name> <value>` / `setoption name <id> value <x>`.
    Set(Setting),
    /// `stop`: end the search in progress.
    Stop,
    /// `uci`: switch to UCI.
    Uci,
    /// UCI `ucinewgame`.
    UciNewGame,
    /// UCI `position startpos|fen ... [moves ...]`.
    Position {
        /// The position before the moves.
        start: Start,
        /// Moves in UCI form.
        moves: Vec<String>,
    },
    /// UCI `debug on|off`, `ponderhit` and `register`: accepted, ignored.
    Ignored,
    /// `quit`.
    Quit,
}

impl Command {
    /// Whether this search runs until stopped.
    pub fn is_unbounded_search(&self) -> bool {
        matches!(self, Command::Go(go) if go.is_unbounded())
    }
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is no command of the protocol.
    Unknown {
        /// The word (shortened, escaped).
        word: String,
        /// The protocol in use.
        protocol: Protocol,
    },
    /// Too few or too many words.
    Arity {
        /// The command.
        command: &'static str,
        /// Its form.
        usage: &'static str,
    },
    /// A word that should be a number in a range.
    BadNumber {
        /// What the number is.
        what: &'static str,
        /// What was sent (shortened, escaped).
        found: String,
        /// The range accepted.
        range: String,
    },
    /// A word that is not one of a few choices.
    BadWord {
        /// What the word is.
        what: &'static str,
        /// What was sent (shortened, escaped).
        found: String,
        /// The choices.
        expected: &'static str,
    },
    /// A line longer than the reader keeps.
    LineTooLong(usize),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ParseError::Unknown { word, protocol } => {
                write!(
                    f,
                    "unknown command '{word}' (known: {})",
                    protocol.commands()
                )
            }
            ParseError::Arity { command, usage } => write!(f, "{command} expects: {usage}"),
            ParseError::BadNumber { what, found, range } => {
                write!(f, "{what} must be a whole number in {range}, not '{found}'")
            }
            ParseError::BadWord {
                what,
                found,
                expected,
            } => write!(f, "{what} must be {expected}, not '{found}'"),
            ParseError::LineTooLong(n) => write!(
                f,
                "line of {n} bytes ignored: longer than {} bytes",
                super::reader::MAX_LINE
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// A word from the input, made printable and short enough to echo.
pub fn shown(word: &str) -> String {
    let mut out: String = word.chars().take(24).flat_map(char::escape_debug).collect();
    if word.chars().nth(24).is_some() {
        out.push_str("...");
    }
    out
}
