//! Text forms of a position: PDN FEN (`W:WK1,K6,17:B11,12,20,K27,K29`),
//! the one-line board of the engine protocol, and the handout's printed
//! board (the `b` command).

use std::fmt;

use super::board::{Color, Piece, Position, SetupError, Square};

/// Why a PDN FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The side to move is not `B` or `W`.
    BadSide(String),
    /// A piece list does not start with `B` or `W`, or one colour is given
    /// twice.
    BadField(String),
    /// A square is not a number 1–32 (or a range of them).
    BadSquare(String),
    /// A square appears twice.
    Duplicate(Square),
    /// The pieces do not make a playable position.
    Setup(SetupError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::BadSide(s) => write!(f, "side to move must be B or W, not `{s}`"),
            FenError::BadField(s) => {
                write!(f, "piece list `{s}` must start with B or W, once each")
            }
            FenError::BadSquare(s) => write!(f, "`{s}` is not a square 1-32"),
            FenError::Duplicate(s) => write!(f, "square {s} is given twice"),
            FenError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Why a one-line board could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError(pub String);

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one-line board: {}", self.0)
    }
}

impl std::error::Error for LineError {}

fn parse_side(s: &str) -> Option<Color> {
    match s {
        "B" | "b" => Some(Color::Black),
        "W" | "w" => Some(Color::White),
        _ => None,
    }
}

fn parse_square(s: &str) -> Result<Square, FenError> {
    s.parse::<u32>()
        .ok()
        .and_then(Square::from_number)
        .ok_or_else(|| FenError::BadSquare(s.into()))
}

/// Reads one comma-separated item: `17`, `K6`, or a range `1-12` / `K1-4`.
fn parse_item(item: &str, color: Color, out: &mut Vec<(Square, Piece)>) -> Result<(), FenError> {
    let (king, squares) = match item.strip_prefix(['K', 'k']) {
        Some(rest) => (true, rest),
        None => (false, item),
    };
    let piece = Piece { color, king };
    match squares.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (parse_square(a)?, parse_square(b)?);
            if a > b {
                return Err(FenError::BadSquare(item.into()));
            }
            for n in a.number()..=b.number() {
                out.extend(Square::from_number(n).map(|s| (s, piece)));
            }
        }
        None => out.push((parse_square(squares)?, piece)),
    }
    Ok(())
}

impl Position {
    /// Reads a PDN FEN: side to move, then the white and black piece lists
    /// in either order, kings marked `K`, ranges allowed, e.g.
    /// `W:WK1,K6,17:B11,12,20,K27,K29` or `B:W21-32:B1-12`. A trailing `.`
    /// is accepted. The quiet-ply count starts at 0.
    pub fn from_pdn(text: &str) -> Result<Position, FenError> {
        let text = text.trim();
        let text = text.strip_suffix('.').unwrap_or(text);
        let mut fields = text.split(':');
        let side_field = fields.next().unwrap_or("").trim();
        let side = parse_side(side_field).ok_or_else(|| FenError::BadSide(side_field.into()))?;
        let mut pieces = Vec::new();
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            // The colour letter is ASCII, so byte 1 starts the list.
            let color = field
                .get(..1)
                .and_then(parse_side)
                .filter(|c| !seen[c.index()])
                .ok_or_else(|| FenError::BadField(field.into()))?;
            seen[color.index()] = true;
            let list = field.get(1..).unwrap_or("").trim();
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                parse_item(item, color, &mut pieces)?;
            }
        }
        let mut used = [false; 32];
        for (s, _) in &pieces {
            if std::mem::replace(&mut used[s.index()], true) {
                return Err(FenError::Duplicate(*s));
            }
        }
        Position::from_pieces(side, pieces).map_err(FenError::Setup)
    }

    /// The PDN FEN of this position: `B:W21,…,32:B1,…,12`, white list
    /// first, kings marked `K`, squares in increasing order, no ranges.
    pub fn to_pdn(&self) -> String {
        let side = if self.side_to_move() == Color::Black {
            'B'
        } else {
            'W'
        };
        let mut out = format!("{side}");
        for color in [Color::White, Color::Black] {
            out.push(':');
            out.push(if color == Color::Black { 'B' } else { 'W' });
            let items: Vec<String> = self
                .pieces()
                .filter(|(_, p)| p.color == color)
                .map(|(s, p)| {
                    if p.king {
                        format!("K{s}")
                    } else {
                        s.to_string()
                    }
                })
                .collect();
            out.push_str(&items.join(","));
        }
        out
    }

    /// The one-line board: the contents of squares 1 to 32 (`b`, `w`, `B`,
    /// `W`, or `.` for empty), a space, and the side to move (`b` or `w`).
    /// The start position is
    /// `bbbbbbbbbbbb........wwwwwwwwwwww b`.
    pub fn to_line(&self) -> String {
        let mut out: String = Square::all()
            .map(|s| self.piece_at(s).map_or('.', Piece::to_char))
            .collect();
        out.push(' ');
        out.push(if self.side_to_move() == Color::Black {
            'b'
        } else {
            'w'
        });
        out
    }

    /// Reads the one-line board written by [`Position::to_line`].
    pub fn from_line(text: &str) -> Result<Position, LineError> {
        let mut parts = text.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(LineError("expected 32 squares, a space and b or w".into()));
        };
        let side = match side {
            "b" => Color::Black,
            "w" => Color::White,
            _ => {
                return Err(LineError(format!(
                    "side to move must be b or w, not `{side}`"
                )));
            }
        };
        if board.chars().count() != 32 {
            return Err(LineError(format!(
                "{} squares given, 32 needed",
                board.chars().count()
            )));
        }
        let mut pieces = Vec::new();
        for (s, c) in Square::all().zip(board.chars()) {
            match (c, Piece::from_char(c)) {
                ('.', _) => {}
                (_, Some(p)) => pieces.push((s, p)),
                (_, None) => return Err(LineError(format!("`{c}` on square {s}"))),
            }
        }
        Position::from_pieces(side, pieces).map_err(|e| LineError(e.to_string()))
    }

    /// The board as the handout's `b` command prints it: Black's side at
    /// the top, `b`/`w` men and `B`/`W` kings on the dark squares, one line
    /// per row between `+-+…+` rules.
    pub fn to_picture(&self) -> String {
        const RULE: &str = "+-+-+-+-+-+-+-+-+\n";
        let mut cells = [[' '; 8]; 8];
        for (s, p) in self.pieces() {
            cells[s.row()][s.column()] = p.to_char();
        }
        let mut out = String::from(RULE);
        for row in cells {
            for c in row {
                out.push('|');
                out.push(c);
            }
            out.push_str("|\n");
            out.push_str(RULE);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip() {
        let p = Position::from_pdn("W:WK1,K6,17:B11,12,20,K27,K29").unwrap();
        assert_eq!(p.to_pdn(), "W:WK1,K6,17:B11,12,20,K27,K29");
        assert_eq!(Position::from_pdn(&p.to_pdn()).unwrap(), p);
        let start = Position::from_pdn("B:W21-32:B1-12.").unwrap();
        assert_eq!(start, Position::initial());
    }

    #[test]
    fn fen_errors() {
        let err = |s| Position::from_pdn(s).unwrap_err();
        assert_eq!(err("X:W1:B2"), FenError::BadSide("X".into()));
        assert_eq!(err("B:W33:B2"), FenError::BadSquare("33".into()));
        assert_eq!(err("B:W3:W2"), FenError::BadField("W2".into()));
        assert!(matches!(err("B:W3:B3"), FenError::Duplicate(_)));
        assert!(matches!(err("B:W2:B30"), FenError::Setup(_)));
        assert!(matches!(err("B:W1-13:B30"), FenError::Setup(_)));
        assert!(matches!(err(""), FenError::BadSide(_)));
        assert!(matches!(err("B:Wx-:B"), FenError::BadSquare(_)));
    }

    #[test]
    fn one_line_round_trip() {
        let p = Position::initial();
        assert_eq!(p.to_line(), "bbbbbbbbbbbb........wwwwwwwwwwww b");
        assert_eq!(Position::from_line(&p.to_line()).unwrap(), p);
        assert!(Position::from_line("bbb b").is_err());
        assert!(Position::from_line("bbbbbbbbbbbb........wwwwwwwwwwwx b").is_err());
    }

    #[test]
    fn picture_of_start() {
        let pic = Position::initial().to_picture();
        let lines: Vec<&str> = pic.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[1], "| |b| |b| |b| |b|");
        assert_eq!(lines[3], "|b| |b| |b| |b| |");
        assert_eq!(lines[7], "| | | | | | | | |");
        assert_eq!(lines[15], "|w| |w| |w| |w| |");
    }
}
