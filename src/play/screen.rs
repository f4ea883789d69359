//! Drawing the game as text: the board with coordinates and the last
//! move's squares in brackets, each player's name, seat and clock beside
//! their side of the board, whose turn it is, and the notes of the last
//! exchange ("black moved e7-e5").

use crate::chess::{Color, Piece, Square};

/// ANSI: cursor home and clear the screen.
pub const CLEAR: &str = "\x1b[H\x1b[2J";

/// One side's line beside the board.
#[derive(Clone, Debug)]
pub struct Side {
    /// The player's name.
    pub name: String,
    /// Who plays it: "human", "computer, level 3".
    pub seat: String,
    /// The clock, as shown.
    pub clock: String,
}

/// Everything on the screen.
#[derive(Clone, Debug)]
pub struct View<'a> {
    /// The first line: the rules and the session's score.
    pub title: String,
    /// What stands where.
    pub board: [Option<Piece>; 64],
    /// The last move's squares, marked on the board.
    pub marked: &'a [Square],
    /// White's and black's lines.
    pub sides: [Side; 2],
    /// The side to move, marked beside its line; `None` when the game is over.
    pub to_move: Option<Color>,
    /// Under the board: whose turn, or the result.
    pub status: String,
    /// Messages since the last screen.
    pub notes: &'a [String],
}

/// The screen as text (without the clearing sequence).
pub fn render(view: &View) -> String {
    let mut out = String::new();
    out.push_str(&view.title);
    out.push_str("\n\n");
    let files = "     a  b  c  d  e  f  g  h\n";
    out.push_str(files);
    for rank in (0..8u8).rev() {
        out.push_str(&format!("  {} ", rank + 1));
        for file in 0..8u8 {
            let Some(sq) = Square::from_coords(file, rank) else {
                continue;
            };
            let letter = view.board[sq.index()].map_or('.', Piece::letter);
            if view.marked.contains(&sq) {
                out.push_str(&format!("[{letter}]"));
            } else {
                out.push_str(&format!(" {letter} "));
            }
        }
        out.push_str(&format!(" {}", rank + 1));
        let side = match rank {
            7 => Some(Color::Black),
            0 => Some(Color::White),
            _ => None,
        };
        if let Some(color) = side {
            let s = &view.sides[color.index()];
            let arrow = if view.to_move == Some(color) {
                "->"
            } else {
                "  "
            };
            out.push_str(&format!(
                "   {arrow} {:5} {:>9}  {} ({})",
                color.name(),
                s.clock,
                s.name,
                s.seat
            ));
        }
        out.push('\n');
    }
    out.push_str(files);
    out.push('\n');
    for note in view.notes {
        out.push_str(note);
        out.push('\n');
    }
    out.push_str(&view.status);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, Rules};

    #[test]
    fn marks_the_last_move_and_the_side_to_move() {
        let pos = Position::startpos(Rules::Antichess);
        let e2 = Square::parse("e2").unwrap();
        let side = |name: &str| Side {
            name: name.into(),
            seat: "human".into(),
            clock: "5:00".into(),
        };
        let view = View {
            title: "antichess".into(),
            board: pos.board(),
            marked: &[e2],
            sides: [side("Ann"), side("Bob")],
            to_move: Some(Color::White),
            status: "White to move".into(),
            notes: &["black moved e7-e5".into()],
        };
        let text = render(&view);
        assert!(text.contains("  2  P  P  P  P [P] P  P  P  2"), "{text}");
        assert!(text.contains("-> white      5:00  Ann (human)"), "{text}");
        assert!(text.contains("black moved e7-e5\nWhite to move"));
    }
}
