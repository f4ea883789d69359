//! The one-line text form of a board, for saving, loading, the engine
//! protocol and the command line.
//!
//! ```text
//! Q3N2..1321R2W1/...4 more rows.../B3B3....1322 c3N [extra]
//! ```
//!
//! Six rows from rank 6 down to rank 1, separated by `/`; each square is
//! two characters, a symbol letter and the hits left, or `..` when empty.
//! Then the last strike, `-` before the first or the struck square and the
//! letter of the rule the next strike follows (`c3N`). The word `extra`
//! at the end selects the extra-credit rules.

use std::fmt;
use std::str::FromStr;

use super::board::{Board, BoardError, Strike};
use super::square::{ParseSquareError, SIZE, SQUARES, Square};
use super::tile::{RuleSet, Symbol, Tile};

/// Why a board text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// Nothing was given.
    Empty,
    /// The squares are not six `/`-separated rows.
    RowCount(usize),
    /// A row is not six two-character squares.
    RowLength {
        /// Rank of the row, 1–6.
        rank: u8,
        /// Characters found.
        found: usize,
    },
    /// A square's first character is not a symbol letter.
    Symbol {
        /// The square.
        square: Square,
        /// The character found.
        found: char,
    },
    /// A square's second character is not a hit count 1–3.
    Hits {
        /// The square.
        square: Square,
        /// The character found.
        found: char,
    },
    /// Only one of the two characters of an empty square is a dot.
    HalfEmpty(Square),
    /// The last-strike field is missing.
    MissingLastStrike,
    /// The last strike is not `-` or a square followed by a rule letter.
    LastStrike(String),
    /// The last strike's square is not a square.
    LastSquare(ParseSquareError),
    /// The word after the last strike is not a rule set.
    Rules(String),
    /// Something follows the rule set.
    Trailing(String),
    /// The squares read fine but do not make a position the rules allow.
    Board(BoardError),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "no board given"),
            Self::RowCount(n) => write!(f, "a board has 6 rows separated by '/', found {n}"),
            Self::RowLength { rank, found } => write!(
                f,
                "rank {rank} has {found} characters; a row is 6 squares of 2 (like Q3 or ..)"
            ),
            Self::Symbol { square, found } => write!(
                f,
                "{square}: '{found}' is not a symbol (1 2 3 4 N B R Q W, or L S X with extra rules)"
            ),
            Self::Hits { square, found } => {
                write!(f, "{square}: '{found}' is not a hit count (1, 2 or 3)")
            }
            Self::HalfEmpty(sq) => write!(f, "{sq}: an empty square is written '..'"),
            Self::MissingLastStrike => write!(
                f,
                "the last strike is missing after the rows ('-' before the first strike)"
            ),
            Self::LastStrike(s) => write!(
                f,
                "'{s}' is not a last strike: write '-' or a square and a rule letter, like c3N"
            ),
            Self::LastSquare(e) => write!(f, "last strike: {e}"),
            Self::Rules(s) => write!(f, "'{s}' is not a rule set (standard or extra)"),
            Self::Trailing(s) => write!(f, "unexpected '{s}' after the board"),
            Self::Board(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseBoardError {}

impl From<BoardError> for ParseBoardError {
    fn from(e: BoardError) -> Self {
        ParseBoardError::Board(e)
    }
}

/// Reads one two-character square.
fn parse_square(sq: Square, symbol: char, hits: char) -> Result<Option<Tile>, ParseBoardError> {
    match (symbol, hits) {
        ('.', '.') => return Ok(None),
        ('.', _) | (_, '.') => return Err(ParseBoardError::HalfEmpty(sq)),
        _ => {}
    }
    let symbol = Symbol::from_letter(symbol).ok_or(ParseBoardError::Symbol {
        square: sq,
        found: symbol,
    })?;
    let hit_count = hits.to_digit(10).and_then(|h| u8::try_from(h).ok());
    hit_count
        .and_then(|h| Tile::new(symbol, h))
        .map(Some)
        .ok_or(ParseBoardError::Hits {
            square: sq,
            found: hits,
        })
}

/// Reads the last-strike field.
fn parse_last(field: &str) -> Result<Option<Strike>, ParseBoardError> {
    if field == "-" {
        return Ok(None);
    }
    let mut chars = field.chars();
    let (Some(file), Some(rank), Some(rule), None) =
        (chars.next(), chars.next(), chars.next(), chars.next())
    else {
        return Err(ParseBoardError::LastStrike(field.to_string()));
    };
    let square: Square = format!("{file}{rank}")
        .parse()
        .map_err(ParseBoardError::LastSquare)?;
    let rule =
        Symbol::from_letter(rule).ok_or_else(|| ParseBoardError::LastStrike(field.to_string()))?;
    Ok(Some(Strike { square, rule }))
}

impl FromStr for Board {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let mut fields = s.split_whitespace();
        let squares = fields.next().ok_or(ParseBoardError::Empty)?;
        let rows: Vec<&str> = squares.split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(ParseBoardError::RowCount(rows.len()));
        }
        let mut tiles = [None; SQUARES];
        for (top_down, row_text) in rows.iter().enumerate() {
            let row = SIZE - 1 - top_down as u8;
            let chars: Vec<char> = row_text.chars().collect();
            if chars.len() != 2 * SIZE as usize {
                return Err(ParseBoardError::RowLength {
                    rank: row + 1,
                    found: chars.len(),
                });
            }
            for (col, pair) in chars.chunks_exact(2).enumerate() {
                let Some(sq) = Square::new(row, col as u8) else {
                    continue;
                };
                if let [symbol, hits] = *pair {
                    tiles[sq.index()] = parse_square(sq, symbol, hits)?;
                }
            }
        }
        let last = parse_last(fields.next().ok_or(ParseBoardError::MissingLastStrike)?)?;
        let rules = match fields.next() {
            None | Some("standard") => RuleSet::Standard,
            Some("extra") => RuleSet::Extra,
            Some(other) => return Err(ParseBoardError::Rules(other.to_string())),
        };
        if let Some(extra) = fields.next() {
            return Err(ParseBoardError::Trailing(extra.to_string()));
        }
        Ok(Board::from_parts(tiles, last, rules)?)
    }
}

impl fmt::Display for Board {
    /// The text form; standard rules are left implicit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIZE).rev() {
            for col in 0..SIZE {
                match Square::new(row, col).and_then(|sq| self.tile(sq)) {
                    Some(tile) => write!(f, "{}{}", tile.symbol().letter(), tile.hits())?,
                    None => f.write_str("..")?,
                }
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        match self.last() {
            None => f.write_str(" -")?,
            Some(last) => write!(f, " {}{}", last.square, last.rule.letter())?,
        }
        if self.rules() == RuleSet::Extra {
            f.write_str(" extra")?;
        }
        Ok(())
    }
}
