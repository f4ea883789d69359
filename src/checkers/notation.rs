//! The words of the handout's notation: moves written as their squares
//! (`11-15`, `18-11-4`), the special moves (`draw`, `accept`, `reject`,
//! `resign`) and the scores (`1-0`, `0-1`, `1/2-1/2`).
//!
//! Moves are always written in full: every landing square of a multiple
//! jump, as the handout asks. Reading is strict about that too, so a
//! written move names exactly one legal move.

use std::fmt;

use arrayvec::ArrayVec;

use super::board::{Color, Position, Square};
use super::movegen::{MAX_PATH, Move};

/// Why a move text was not accepted in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `N-N` or `N-N-…-N` with squares 1–32.
    Syntax(String),
    /// Well-formed, but not a legal move here.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "`{s}` is not a move (write e.g. 11-15 or 18-11-4)"),
            MoveError::Illegal(s) => write!(f, "`{s}` is not a legal move here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a step was refused while a capture is due, naming the captures:
/// `a capture is compulsory: 15-22 18-11-4`. Every front end says it in
/// these words.
pub fn capture_compulsory<M: fmt::Display>(captures: impl IntoIterator<Item = M>) -> String {
    let moves: Vec<String> = captures.into_iter().map(|m| m.to_string()).collect();
    format!("a capture is compulsory: {}", moves.join(" "))
}

/// The squares of a written move, before it is checked against a position.
pub fn parse_path(text: &str) -> Result<ArrayVec<Square, MAX_PATH>, MoveError> {
    let syntax = || MoveError::Syntax(text.into());
    let mut path = ArrayVec::new();
    for part in text.split('-') {
        // `parse` would take a leading `+`; the notation has digits only.
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let sq = part
            .parse()
            .ok()
            .and_then(Square::from_number)
            .ok_or_else(syntax)?;
        path.try_push(sq).map_err(|_| syntax())?;
    }
    if path.len() < 2 {
        return Err(syntax());
    }
    Ok(path)
}

impl Position {
    /// The legal move written as `text` (`11-15`, `18-11-4`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let path = parse_path(text)?;
        self.legal_moves()
            .into_iter()
            .find(|m| m.squares() == path)
            .ok_or_else(|| MoveError::Illegal(text.into()))
    }
}

/// How a game ended, as the transcript writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `1-0`
    BlackWins,
    /// `0-1`
    WhiteWins,
    /// `1/2-1/2`
    Draw,
}

impl Score {
    /// The score of a game `winner` won.
    pub fn win_for(winner: Color) -> Score {
        match winner {
            Color::Black => Score::BlackWins,
            Color::White => Score::WhiteWins,
        }
    }

    /// Reads `1-0`, `0-1` or `1/2-1/2`.
    pub fn parse(text: &str) -> Option<Score> {
        match text {
            "1-0" => Some(Score::BlackWins),
            "0-1" => Some(Score::WhiteWins),
            "1/2-1/2" => Some(Score::Draw),
            _ => None,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Score::BlackWins => Some(Color::Black),
            Score::WhiteWins => Some(Color::White),
            Score::Draw => None,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Score::BlackWins => "1-0",
            Score::WhiteWins => "0-1",
            Score::Draw => "1/2-1/2",
        })
    }
}

/// One turn's entry in a game: a move or one of the special moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move on the board.
    Move(Move),
    /// Offer a draw.
    Draw,
    /// Accept the draw just offered.
    Accept,
    /// Reject the draw just offered.
    Reject,
    /// Give up.
    Resign,
}

impl Action {
    /// The special move spelled `word`, if it is one.
    pub fn special(word: &str) -> Option<Action> {
        match word {
            "draw" => Some(Action::Draw),
            "accept" => Some(Action::Accept),
            "reject" => Some(Action::Reject),
            "resign" => Some(Action::Resign),
            _ => None,
        }
    }

    /// Whether this is a move on the board (special moves do not advance
    /// the move count).
    pub fn is_move(self) -> bool {
        matches!(self, Action::Move(_))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(m) => write!(f, "{m}"),
            Action::Draw => f.write_str("draw"),
            Action::Accept => f.write_str("accept"),
            Action::Reject => f.write_str("reject"),
            Action::Resign => f.write_str("resign"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts() {
        let p = Position::initial();
        assert_eq!(p.parse_move("11-15").unwrap().to_string(), "11-15");
        assert_eq!(
            p.parse_move("11-14"),
            Err(MoveError::Illegal("11-14".into()))
        );
        for bad in [
            "",
            "11",
            "11-",
            "-15",
            "11--15",
            "+11-15",
            "11-15x",
            "0-4",
            "33-1",
            "1-2-3-4-5-6-7-8-9-10-11-12-13-14",
        ] {
            assert!(
                matches!(p.parse_move(bad), Err(MoveError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn full_jump_path_required() {
        let p = Position::from_pdn("W:W18,K30:B15,K7,8,6,25,26,27").unwrap();
        assert!(p.parse_move("18-11-4").is_ok());
        assert!(p.parse_move("18-4").is_err());
        assert!(p.parse_move("30-23-32").is_ok());
    }

    #[test]
    fn scores() {
        for s in [Score::BlackWins, Score::WhiteWins, Score::Draw] {
            assert_eq!(Score::parse(&s.to_string()), Some(s));
        }
        assert_eq!(Score::win_for(Color::White).to_string(), "0-1");
    }
}
