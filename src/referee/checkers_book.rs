//! Checkers opening books for `antichess match --rules checkers
//! --openings FILE`: one opening a line, its moves from the start
//! position (`11-15 23-19`, move numbers allowed), each checked by our
//! rules. Blank lines and lines starting with `#` are skipped; a broken
//! line is refused with the file and its number.
//!
//! (A stand-in with the reader's interface until the full book reader
//! lands.)

use crate::checkers::{Action, Move, Record};
use std::path::Path;

/// Reads the book at `path`: each opening as its moves from the start.
pub fn read_book(path: &Path) -> Result<Vec<Vec<Move>>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut book = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| format!("{shown} line {}: {why}", i + 1);
        let mut record = Record::new();
        let mut moves = Vec::new();
        for word in line.split_whitespace() {
            if word.ends_with('.') && word[..word.len() - 1].parse::<u32>().is_ok() {
                continue;
            }
            let mv = record
                .position()
                .parse_move(word)
                .map_err(|e| at(format!("{word}: {e}")))?;
            record
                .apply(Action::Move(mv))
                .map_err(|e| at(format!("{word}: {e}")))?;
            moves.push(mv);
        }
        if record.result().is_some() || !record.position().has_moves() {
            return Err(at("the game is already over here".into()));
        }
        book.push(moves);
    }
    Ok(book)
}
