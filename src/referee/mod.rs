//! The referee: it owns the clocks and the rules, and asks players for
//! moves. Players are the built-in engine, any external engine process
//! (our line protocol or UCI), a random mover, or a person; the same
//! machinery runs single games ([`game`]), matches ([`series`], the
//! `antichess match` command, for the chess-board rule sets in [`match_`]
//! and for checkers in [`checkers_match`]), and the games of the front ends
//! ([`table`]: the terminal's [`crate::play`] and the web's [`crate::web`]).

pub mod book;
pub mod checkers_book;
pub mod checkers_match;
mod checkers_play;
pub mod clock;
mod external;
pub mod game;
pub mod match_;
pub mod openings;
pub mod pgn;
pub mod player;
mod process;
pub mod report;
pub mod series;
pub mod sprt;
pub mod state;
pub mod stats;
pub mod table;

pub use external::{LineEngine, UciEngine};

use std::io::Write;
use std::path::Path;

/// Writes `text` to `path` by way of a temporary file in the same
/// directory and a rename, so that a failed or interrupted write never
/// destroys an earlier file.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| format!("'{}' is not a file name", path.display()))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".tmp{}", std::process::id()));
    let temp = path.with_file_name(temp_name);
    let written = std::fs::File::create(&temp)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("cannot write {}: {e}", path.display())
    })
}

/// The rule set of a match or a book: a chess-board one, or checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameRules {
    /// Antichess, antichess1994 or chess.
    Board(crate::chess::Rules),
    /// American checkers.
    Checkers,
}

impl std::str::FromStr for GameRules {
    type Err = String;

    fn from_str(s: &str) -> Result<GameRules, String> {
        if s.eq_ignore_ascii_case("checkers") {
            return Ok(GameRules::Checkers);
        }
        s.parse()
            .map(GameRules::Board)
            .map_err(|_: crate::chess::UnknownRules| {
                let shown: String = s.chars().take(40).collect();
                format!(
                    "unknown rules '{shown}' (expected antichess, antichess1994, chess or checkers)"
                )
            })
    }
}
