//! The checkers family: the CS61B handout's rules, the one-line board
//! (`bbbbbbbbbbbb........wwwwwwwwwwww b`), PDN FEN, and moves written as
//! every square the piece stands on (`11-15`, `18-11-4`).

use super::{Family, MoveWhy, RuleSet, Verdict};
use crate::checkers::{self, Move, MoveError, Position, Score};
use crate::chess::Color;
use crate::engine::command::{Protocol, Start};
use crate::engine::session::EngineError;
use std::fmt;

/// Why a checkers move text was refused; the most helpful reason found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckersMoveError {
    /// Not squares 1-32 joined by `-`.
    Syntax,
    /// A jump stopped while the piece could go on jumping.
    Unfinished(String),
    /// A multiple jump written by its ends only.
    Abbreviated(String),
    /// A step while a capture is compulsory; the captures.
    CaptureCompulsory(Vec<String>),
    /// Any other illegal move.
    Illegal,
}

impl fmt::Display for CheckersMoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            CheckersMoveError::Syntax => f.write_str(
                "write the squares the piece stands on joined by '-', as 11-15 or 18-11-4",
            ),
            CheckersMoveError::Unfinished(m) => {
                write!(f, "the piece must go on jumping while it can: {m}")
            }
            CheckersMoveError::Abbreviated(m) => {
                write!(f, "write every square of the jump: {m}")
            }
            CheckersMoveError::CaptureCompulsory(moves) => {
                f.write_str(&checkers::notation::capture_compulsory(moves))
            }
            CheckersMoveError::Illegal => f.write_str("not a legal move here"),
        }
    }
}

/// A checkers game in progress: the position and the keys before it.
#[derive(Clone, Debug)]
pub struct CheckersGame {
    position: Position,
    history: Vec<u64>,
}

/// The protocol's colour word for a checkers colour.
fn color(c: checkers::Color) -> Color {
    match c {
        checkers::Color::Black => Color::Black,
        checkers::Color::White => Color::White,
    }
}

impl CheckersGame {
    /// The most helpful reason why the well-formed `text` is illegal.
    fn why_illegal(&self, text: &str) -> CheckersMoveError {
        let Ok(path) = checkers::notation::parse_path(text) else {
            return CheckersMoveError::Syntax;
        };
        let moves = self.position.legal_moves();
        if let Some(m) = moves.iter().find(|m| m.squares().starts_with(&path)) {
            return CheckersMoveError::Unfinished(m.to_string());
        }
        let ends = |m: &&Move| Some(&m.from()) == path.first() && Some(&m.to()) == path.last();
        if let Some(m) = moves.iter().find(ends) {
            return CheckersMoveError::Abbreviated(m.to_string());
        }
        if self.position.must_capture() {
            let mut captures = moves.to_vec();
            captures.sort_by_key(|m| m.squares());
            let texts = captures.iter().map(Move::to_string).collect();
            return CheckersMoveError::CaptureCompulsory(texts);
        }
        CheckersMoveError::Illegal
    }
}

impl Family for CheckersGame {
    type Position = Position;
    type Rules = ();

    fn load(start: &Start, (): ()) -> Result<(CheckersGame, Option<[u64; 2]>), EngineError> {
        let position = match start {
            Start::Initial => Position::initial(),
            Start::Fen(fen) => Position::from_pdn(fen).map_err(EngineError::CheckersFen)?,
            Start::Board(text) => Position::from_line(text).map_err(EngineError::CheckersBoard)?,
        };
        let game = CheckersGame {
            position,
            history: Vec::new(),
        };
        Ok((game, None))
    }

    fn rules(&self) {}

    fn rule_set((): ()) -> RuleSet {
        RuleSet::Checkers
    }

    fn position(&self) -> &Position {
        &self.position
    }

    fn history(&self) -> &[u64] {
        &self.history
    }

    fn side_to_move(&self) -> Color {
        color(self.position.side_to_move())
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveWhy> {
        self.position.parse_move(text).map_err(|e| {
            MoveWhy::Checkers(match e {
                MoveError::Syntax(_) => CheckersMoveError::Syntax,
                MoveError::Illegal(_) => self.why_illegal(text),
            })
        })
    }

    fn play(&mut self, mv: Move) {
        self.history.push(self.position.zobrist_key());
        self.position = self.position.play(mv);
    }

    /// A side with no legal move loses; the handout has no draw rule.
    /// The score is the handout's: `1-0` is a win for Black, who moves
    /// first.
    fn verdict(&self) -> Option<Verdict> {
        if self.position.has_moves() {
            return None;
        }
        let winner = self.position.side_to_move().opponent();
        Some(Verdict {
            score: Score::win_for(winner).to_string(),
            reason: "no-moves",
        })
    }

    fn move_text(mv: Move, _: Protocol) -> String {
        mv.to_string()
    }

    /// Clocks are not part of the checkers board.
    fn board_line(&self, _: [u64; 2]) -> String {
        self.position.to_line()
    }

    fn perft(position: &Position, depth: u32) -> u64 {
        checkers::perft(position, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(pdn: &str) -> CheckersGame {
        let start = Start::Fen(pdn.to_string());
        CheckersGame::load(&start, ()).expect("test PDN is valid").0
    }

    fn why(game: &CheckersGame, text: &str) -> String {
        match game.parse_move(text) {
            Err(e) => e.to_string(),
            Ok(m) => format!("legal: {m}"),
        }
    }

    #[test]
    fn illegal_moves_say_what_is_wrong() {
        let g = game("W:W18,K30:B15,K7,8,6,25,26,27");
        assert_eq!(why(&g, "18-11-4"), "legal: 18-11-4");
        assert_eq!(
            why(&g, "18-11"),
            "the piece must go on jumping while it can: 18-11-4"
        );
        assert_eq!(why(&g, "18-4"), "write every square of the jump: 18-11-4");
        assert!(why(&g, "30-26").starts_with("a capture is compulsory: "));
        assert!(why(&g, "x").starts_with("write the squares"));
        let start = game("B:W21-32:B1-12");
        assert_eq!(why(&start, "11-14"), "not a legal move here");
    }

    #[test]
    fn no_move_loses_and_black_scores_first() {
        let g = game("W:W:B1,2");
        assert_eq!(
            g.verdict().map(|v| v.to_string()),
            Some("1-0 no-moves".into())
        );
        let g = game("B:W30:BK1");
        assert_eq!(g.verdict(), None);
    }
}
