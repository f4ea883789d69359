//! Reads back the PGN that `antichess match --pgn` writes (and any PGN of
//! our rule sets in the same form): tags, an optional `FEN` start, moves in
//! SAN, the result. Each SAN move is matched against the legal moves'
//! SAN, so the reader accepts exactly what the writer produces, checks
//! included or not.

use crate::chess::{Move, Position, Rules};
use crate::referee::pgn::san;
use crate::search::MoveList;
use std::fmt;

/// One game read from PGN.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The rule set (the `Variant` tag; antichess when absent).
    pub rules: Rules,
    /// The position the moves start from.
    pub start: Position,
    /// The moves, legal in turn.
    pub moves: Vec<Move>,
    /// White's score (1, ½ or 0), or `None` for an unfinished game (`*`).
    pub white_score: Option<f64>,
}

/// Why a PGN text could not be read; `line` is 1-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for PgnError {}

/// A game being read: its tags so far, then its moves.
#[derive(Default)]
struct Draft {
    rules: Option<Rules>,
    fen: Option<String>,
    result: Option<Option<f64>>,
    pos: Option<Position>,
    start: Option<Position>,
    moves: Vec<Move>,
}

impl Draft {
    fn tag(&mut self, line: &str) -> Result<(), String> {
        let inner = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .ok_or("a tag must be [Name \"value\"]")?;
        let (name, value) = inner.split_once(' ').ok_or("a tag needs a value")?;
        let value = value.trim().trim_matches('"');
        match name {
            "Variant" => self.rules = Some(value.parse().map_err(|e| format!("{e}"))?),
            "FEN" => self.fen = Some(value.to_string()),
            "Result" => self.result = Some(parse_result(value)?),
            _ => {}
        }
        Ok(())
    }

    /// The position moves are played on, set up at the first move.
    fn position(&mut self) -> Result<&mut Position, String> {
        if self.pos.is_none() {
            let rules = self.rules.unwrap_or(Rules::Antichess);
            let start = match &self.fen {
                Some(fen) => Position::from_fen(fen, rules).map_err(|e| format!("{e}"))?,
                None => Position::startpos(rules),
            };
            self.start = Some(start);
            self.pos = Some(start);
        }
        self.pos.as_mut().ok_or_else(|| "no position".to_string())
    }

    fn san_move(&mut self, token: &str) -> Result<(), String> {
        let pos = self.position()?;
        let wanted = token.trim_end_matches(['+', '#', '!', '?']);
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let mv = legal
            .iter()
            .copied()
            .find(|&mv| san(pos, mv).trim_end_matches(['+', '#']) == wanted)
            .ok_or_else(|| format!("'{token}' is not a legal move here"))?;
        *pos = pos.play(mv);
        self.moves.push(mv);
        Ok(())
    }

    fn finish(mut self) -> Result<PgnGame, String> {
        self.position()?;
        Ok(PgnGame {
            rules: self.rules.unwrap_or(Rules::Antichess),
            start: self.start.ok_or("no position")?,
            moves: self.moves,
            white_score: self.result.flatten(),
        })
    }
}

fn parse_result(text: &str) -> Result<Option<f64>, String> {
    match text {
        "1-0" => Ok(Some(1.0)),
        "0-1" => Ok(Some(0.0)),
        "1/2-1/2" => Ok(Some(0.5)),
        "*" => Ok(None),
        other => Err(format!("'{other}' is not a result")),
    }
}

/// Reads every game of `text`.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut draft: Option<Draft> = None;
    let mut in_moves = false;
    let mut in_comment = false;
    for (index, line) in text.lines().enumerate() {
        let fail = |reason: String| PgnError {
            line: index + 1,
            reason,
        };
        let line = line.trim();
        if line.starts_with('[') && !in_comment {
            if in_moves {
                if let Some(done) = draft.take() {
                    games.push(done.finish().map_err(fail)?);
                }
                in_moves = false;
            }
            draft
                .get_or_insert_with(Draft::default)
                .tag(line)
                .map_err(fail)?;
            continue;
        }
        if line.is_empty() {
            continue;
        }
        in_moves = true;
        let game = draft.get_or_insert_with(Draft::default);
        for token in line.split_whitespace() {
            if in_comment {
                in_comment = !token.ends_with('}');
                continue;
            }
            if token.starts_with('{') {
                in_comment = !token.ends_with('}');
                continue;
            }
            if parse_result(token).is_ok() {
                continue;
            }
            // Move numbers: "12." or "12...", possibly glued to the move.
            let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            if !token.is_empty() {
                game.san_move(token).map_err(fail)?;
            }
        }
    }
    if let Some(done) = draft {
        let lines = text.lines().count();
        games.push(done.finish().map_err(|reason| PgnError {
            line: lines,
            reason,
        })?);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::pgn::san;

    #[test]
    fn reads_what_the_writer_writes() {
        let text = r#"[Event "antichess match"]
[Result "0-1"]
[Variant "antichess"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppp2/6p1/7p/8/1P6/PBPPPPPP/RN1QKBNR w - - 0 3"]

3. Bxh8 e5 4. Bxe5 Ba3 5. Nxa3 b5 6. Bxc7 Qxc7 7. Nxb5 Qxh2 8. Rxh2 h4 9. Rxh4
g5 10. Nxa7 gxh4 11. Nxc8 Rxa2 12. Rxa2 d6 13. Nxd6+ Kd7 14. Nxf7 Nh6 15. Nxh6
Na6 16. Rxa6 h3 17. Nxh3 {black wins: only the king is left} 0-1

[Event "x"]
[Result "1/2-1/2"]
[Variant "chess"]

1. e4 e5 2. Nf3 {a quiet
move} Nc6 1/2-1/2

[Event "clocks"]
[Result "1-0"]
[Variant "antichess"]

1. e3 {[%clk 0:00:09.9]} b5 {[%clk 0:00:09.7]} 2. Bxb5
{[%clk 0:00:09.5]} c6 {[%clk 0:00:09.2]} {white wins} 1-0
"#;
        let games = read_games(text).unwrap();
        assert_eq!(games.len(), 3);
        // The referee's clock comments are read past, even across lines.
        assert_eq!(games[2].moves.len(), 4);
        assert_eq!(games[2].white_score, Some(1.0));
        assert_eq!(games[0].moves.len(), 29);
        assert_eq!(games[0].white_score, Some(0.0));
        assert_eq!(games[0].rules, Rules::Antichess);
        assert_eq!(games[1].rules, Rules::Chess);
        assert_eq!(games[1].white_score, Some(0.5));
        let mut pos = games[1].start;
        let sans: Vec<String> = games[1]
            .moves
            .iter()
            .map(|&mv| {
                let s = san(&pos, mv);
                pos = pos.play(mv);
                s
            })
            .collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    }

    #[test]
    fn an_illegal_move_names_its_line() {
        let text = "[Variant \"antichess\"]\n\n1. e4 d5 2. e5 *\n";
        let err = read_games(text).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("'e5'"), "{err}");
        assert!(read_games("[Variant \"go\"]\n1. e4 *\n").is_err());
    }
}
