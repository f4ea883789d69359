//! Reading and writing positions: FEN, and the 6.170 game files of 2002
//! (`white` / `black`, clocks in milliseconds) and 1994 (`W` / `B`, clocks
//! in seconds as reals), each as a multi-line file or as one line with the
//! file's lines separated by spaces.
//!
//! Errors say what is wrong and where: a line number in a multi-line file,
//! a field number in the one-line form.

use super::position::{Castling, Position, Setup, SetupError};
use super::rules::Rules;
use super::types::{Color, Piece, Square};
use std::fmt;

/// Where in the input something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Line of a multi-line game file, from 1.
    Line(usize),
    /// Whitespace-separated field of a one-line board or FEN, from 1.
    Field(usize),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Loc::Line(n) => write!(f, "line {n}"),
            Loc::Field(n) => write!(f, "field {n}"),
        }
    }
}

/// Why a board or FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Nothing to read.
    Empty,
    /// The first field is not a colour.
    BadColor {
        /// Where.
        at: Loc,
        /// What was there (truncated).
        found: String,
    },
    /// A clock is not a number of the right kind.
    BadTime {
        /// Where.
        at: Loc,
        /// Whose clock.
        color: Color,
        /// What was there (truncated).
        found: String,
    },
    /// A clock is missing.
    MissingTime(Color),
    /// Not 8 rows of squares.
    RowCount {
        /// How many rows were found.
        found: usize,
    },
    /// A row does not have 8 squares.
    RowLength {
        /// Where.
        at: Loc,
        /// How many squares it has.
        found: usize,
    },
    /// A character that is not a piece or an empty square.
    BadSquare {
        /// Where.
        at: Loc,
        /// Column within the row or field, from 1.
        column: usize,
        /// The character.
        found: char,
    },
    /// A FEN field other than the board is malformed.
    BadFenField {
        /// Which field, by name.
        field: &'static str,
        /// What was there (truncated).
        found: String,
    },
    /// The pieces do not make a legal position.
    Setup(SetupError),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FormatError::Empty => write!(f, "the board is empty"),
            FormatError::BadColor { at, found } => {
                write!(
                    f,
                    "{at}: expected the colour to move (white, black, W or B), found '{found}'"
                )
            }
            FormatError::BadTime { at, color, found } => {
                write!(
                    f,
                    "{at}: {color}'s time must be a non-negative number, found '{found}'"
                )
            }
            FormatError::MissingTime(color) => write!(f, "{color}'s time is missing"),
            FormatError::RowCount { found } => {
                write!(f, "expected 8 rows of squares, found {found}")
            }
            FormatError::RowLength { at, found } => {
                write!(f, "{at}: a row must have 8 squares, this one has {found}")
            }
            FormatError::BadSquare { at, column, found } => write!(
                f,
                "{at}, column {column}: '{}' is not a piece (PNBRQK, pnbrqk) or an empty square",
                found.escape_debug()
            ),
            FormatError::BadFenField { field, found } => write!(f, "bad FEN {field}: '{found}'"),
            FormatError::Setup(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FormatError {}

impl From<SetupError> for FormatError {
    fn from(e: SetupError) -> FormatError {
        FormatError::Setup(e)
    }
}

fn shown(s: &str) -> String {
    s.chars().take(24).collect()
}

/// Which handout's game-file layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FileStyle {
    /// 2002: `white`, white's ms, black's ms, 8 rows.
    #[default]
    Y2002,
    /// 1994: `W`, both times in seconds as reals on one line, 8 rows.
    Y1994,
}

/// A position with both players' clocks, as a game file holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameFile {
    /// The position.
    pub position: Position,
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The layout it was read in, or is to be written in.
    pub style: FileStyle,
}

/// Parses one row of 8 squares into rank `rank` of `board`.
fn parse_row(
    row: &str,
    rank: u8,
    at: Loc,
    empty: char,
    board: &mut [Option<Piece>; 64],
) -> Result<(), FormatError> {
    let chars: Vec<char> = row.chars().take(9).collect();
    for (i, &c) in chars.iter().enumerate().take(8) {
        let column = i + 1;
        let piece = if c == empty {
            None
        } else {
            Some(Piece::from_letter(c).ok_or(FormatError::BadSquare {
                at,
                column,
                found: c,
            })?)
        };
        board[rank as usize * 8 + i] = piece;
    }
    if chars.len() != 8 {
        return Err(FormatError::RowLength {
            at,
            found: row.chars().count(),
        });
    }
    Ok(())
}

impl GameFile {
    /// Reads a game file of either handout, multi-line or on one line.
    pub fn parse(text: &str, rules: Rules) -> Result<GameFile, FormatError> {
        let multiline = text.trim().contains('\n');
        let mut fields = Vec::new();
        for (line_no, line) in text.lines().enumerate() {
            for (i, tok) in line.split_whitespace().enumerate() {
                let at = if multiline {
                    Loc::Line(line_no + 1)
                } else {
                    Loc::Field(i + 1)
                };
                fields.push((at, tok));
            }
        }
        let mut it = fields.into_iter();
        let (at, color_tok) = it.next().ok_or(FormatError::Empty)?;
        let (side, style) = match color_tok {
            t if t.eq_ignore_ascii_case("white") => (Color::White, FileStyle::Y2002),
            t if t.eq_ignore_ascii_case("black") => (Color::Black, FileStyle::Y2002),
            "W" | "w" => (Color::White, FileStyle::Y1994),
            "B" | "b" => (Color::Black, FileStyle::Y1994),
            other => {
                return Err(FormatError::BadColor {
                    at,
                    found: shown(other),
                });
            }
        };
        let mut times = [0u64; 2];
        for color in Color::ALL {
            let (at, tok) = it.next().ok_or(FormatError::MissingTime(color))?;
            let bad = || FormatError::BadTime {
                at,
                color,
                found: shown(tok),
            };
            times[color.index()] = match style {
                FileStyle::Y2002 => tok.parse::<u64>().map_err(|_| bad())?,
                FileStyle::Y1994 => {
                    let secs: f64 = tok.parse().map_err(|_| bad())?;
                    if !secs.is_finite() || !(0.0..=1e12).contains(&secs) {
                        return Err(bad());
                    }
                    (secs * 1000.0).round() as u64
                }
            };
        }
        let rows: Vec<(Loc, &str)> = it.collect();
        if rows.len() != 8 {
            return Err(FormatError::RowCount { found: rows.len() });
        }
        let mut board = [None; 64];
        for (i, &(at, row)) in rows.iter().enumerate() {
            parse_row(row, 7 - i as u8, at, '-', &mut board)?;
        }
        let setup = Setup::new(board, side);
        let position = Position::from_setup(&setup, rules)?;
        Ok(GameFile {
            position,
            white_ms: times[0],
            black_ms: times[1],
            style,
        })
    }

    /// Writes the game file; `separator` is `"\n"` for a file (a final
    /// newline is added) or `" "` for the one-line form.
    pub fn write(&self, separator: &str) -> String {
        let pos = &self.position;
        let mut parts = Vec::with_capacity(11);
        match self.style {
            FileStyle::Y2002 => {
                parts.push(pos.side_to_move().name().to_string());
                parts.push(self.white_ms.to_string());
                parts.push(self.black_ms.to_string());
            }
            FileStyle::Y1994 => {
                parts.push(
                    if pos.side_to_move() == Color::White {
                        "W"
                    } else {
                        "B"
                    }
                    .to_string(),
                );
                // Seconds with as many decimals as the milliseconds need,
                // but at least one, as the handout writes `300.0`.
                let secs = |ms: u64| {
                    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
                    let trimmed = text.trim_end_matches('0');
                    if trimmed.ends_with('.') {
                        format!("{trimmed}0")
                    } else {
                        trimmed.to_string()
                    }
                };
                parts.push(format!("{} {}", secs(self.white_ms), secs(self.black_ms)));
            }
        }
        let board = pos.board();
        for rank in (0..8).rev() {
            parts.push(
                (0..8)
                    .map(|file| board[rank * 8 + file].map_or('-', Piece::letter))
                    .collect(),
            );
        }
        let mut out = parts.join(separator);
        if separator == "\n" {
            out.push('\n');
        }
        out
    }
}

impl Position {
    /// Reads a FEN. The move counters may be left out.
    ///
    /// ```
    /// use antichess::chess::{Color, Position, Rules};
    /// let pos = Position::from_fen("8/8/8/4k3/8/8/3PK3/8 b - -", Rules::Antichess1994)?;
    /// assert_eq!(pos.side_to_move(), Color::Black);
    /// assert!(Position::from_fen("8/8/8 w - -", Rules::Chess).is_err());
    /// # Ok::<(), antichess::chess::FormatError>(())
    /// ```
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Position, FormatError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let Some(&placement) = fields.first() else {
            return Err(FormatError::Empty);
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 8 {
            return Err(FormatError::RowCount { found: rows.len() });
        }
        let mut board = [None; 64];
        for (i, row) in rows.iter().enumerate() {
            // Expand digit runs into one '1' per empty square: every '1'
            // left afterwards came from a run, so a stray '-' or '0' is
            // still reported as itself.
            let mut expanded = String::with_capacity(8);
            for c in row.chars().take(16) {
                match c.to_digit(10) {
                    Some(n @ 1..=8) => expanded.extend(std::iter::repeat_n('1', n as usize)),
                    _ => expanded.push(c),
                }
            }
            parse_row(&expanded, 7 - i as u8, Loc::Field(1), '1', &mut board)?;
        }
        let side = match fields.get(1).copied().unwrap_or("w") {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(FormatError::BadFenField {
                    field: "side to move",
                    found: shown(other),
                });
            }
        };
        let mut castling = Castling(0);
        let rights = fields.get(2).copied().unwrap_or("-");
        if rights != "-" {
            for c in rights.chars() {
                castling.0 |= match c {
                    'K' => Castling::WHITE_SHORT,
                    'Q' => Castling::WHITE_LONG,
                    'k' => Castling::BLACK_SHORT,
                    'q' => Castling::BLACK_LONG,
                    _ => {
                        return Err(FormatError::BadFenField {
                            field: "castling rights",
                            found: shown(rights),
                        });
                    }
                };
            }
        }
        let ep_field = fields.get(3).copied().unwrap_or("-");
        let ep = match ep_field {
            "-" => None,
            s => Some(Square::parse(s).ok_or(FormatError::BadFenField {
                field: "en-passant square",
                found: shown(s),
            })?),
        };
        let counter = |i: usize, field: &'static str, default: u16| -> Result<u16, FormatError> {
            match fields.get(i) {
                None => Ok(default),
                Some(s) => s.parse().map_err(|_| FormatError::BadFenField {
                    field,
                    found: shown(s),
                }),
            }
        };
        let halfmove = counter(4, "halfmove clock", 0)?;
        let fullmove = counter(5, "move number", 1)?;
        if fields.len() > 6 {
            return Err(FormatError::BadFenField {
                field: "end",
                found: shown(fields[6]),
            });
        }
        let setup = Setup {
            board,
            side,
            castling,
            ep,
            halfmove,
            fullmove,
        };
        Ok(Position::from_setup(&setup, rules)?)
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        let board = self.board();
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side_to_move() == Color::White {
            " w "
        } else {
            " b "
        });
        let c = self.castling();
        let rights: String = [
            (Castling::WHITE_SHORT, 'K'),
            (Castling::WHITE_LONG, 'Q'),
            (Castling::BLACK_SHORT, 'k'),
            (Castling::BLACK_LONG, 'q'),
        ]
        .iter()
        .filter(|(r, _)| c.has(*r))
        .map(|&(_, ch)| ch)
        .collect();
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        match self.ep_square() {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }
}
