//! Squares of the 6x6 board and sets of squares.
//!
//! A square is named like a chess square, file `a`–`f` then rank `1`–`6`,
//! with rank 1 at the bottom. Sets of squares are 36-bit masks so that
//! move generation is a table lookup and an `and`.

use std::fmt;
use std::ops::{BitAnd, BitOr};
use std::str::FromStr;

/// Number of files and of ranks.
pub const SIZE: u8 = 6;

/// Number of squares on the board.
pub const SQUARES: usize = 36;

/// One of the 36 squares; always valid by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `row` (0 = rank 1) and `col` (0 = file a), if both are
    /// on the board.
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < SIZE && col < SIZE {
            Some(Square(row * SIZE + col))
        } else {
            None
        }
    }

    /// The square with this index (`row * 6 + col`), if below 36.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Index `row * 6 + col`, below 36.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 0 for rank 1.
    pub const fn row(self) -> u8 {
        self.0 / SIZE
    }

    /// Column, 0 for file a.
    pub const fn col(self) -> u8 {
        self.0 % SIZE
    }

    /// One of c3, d3, c4, d4: the squares that never get a 4, because a 4
    /// there would reach nothing.
    pub const fn is_centre(self) -> bool {
        let (r, c) = (self.row(), self.col());
        (r == 2 || r == 3) && (c == 2 || c == 3)
    }

    /// On the outer ring, where bishops, rooks and queens must land.
    pub const fn is_edge(self) -> bool {
        let (r, c) = (self.row(), self.col());
        r == 0 || c == 0 || r == SIZE - 1 || c == SIZE - 1
    }

    /// The square reflected through the centre of the board.
    pub const fn mirror(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// All squares, a1, b1, … f6.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// This square as a one-element set.
    pub const fn bit(self) -> SquareSet {
        SquareSet(1 << self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Nothing was given.
    Empty,
    /// The name is not a file letter followed by a rank digit.
    Malformed(String),
    /// The file letter is not one of a–f.
    File(char),
    /// The rank is not one of 1–6.
    Rank(char),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "no square given (squares look like c3)"),
            Self::Malformed(s) => {
                write!(
                    f,
                    "'{s}' is not a square (squares look like c3: file a-f, rank 1-6)"
                )
            }
            Self::File(c) => write!(f, "file '{c}' is off the board (files are a-f)"),
            Self::Rank(c) => write!(f, "rank '{c}' is off the board (ranks are 1-6)"),
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `c3`; the file letter may be upper case, as people type it.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(if s.is_empty() {
                ParseSquareError::Empty
            } else {
                ParseSquareError::Malformed(s.to_string())
            });
        };
        let file_lower = file.to_ascii_lowercase();
        if !file_lower.is_ascii_lowercase() || !rank.is_ascii_digit() {
            return Err(ParseSquareError::Malformed(s.to_string()));
        }
        let col = file_lower as u8 - b'a';
        let row = (rank as u8 - b'0').wrapping_sub(1);
        if col >= SIZE {
            return Err(ParseSquareError::File(file));
        }
        Square::new(row, col).ok_or(ParseSquareError::Rank(rank))
    }
}

/// A set of squares as a 36-bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    /// No squares.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Every square.
    pub const ALL: SquareSet = SquareSet((1 << SQUARES) - 1);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> SquareSet {
        SquareSet(self.0 | 1 << sq.0)
    }

    /// The set with `sq` taken out.
    pub const fn without(self, sq: Square) -> SquareSet {
        SquareSet(self.0 & !(1 << sq.0))
    }

    /// Number of squares in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set has no squares.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The `n`th square of the set in index order, if there are that many.
    pub fn nth(self, n: usize) -> Option<Square> {
        self.iter().nth(n)
    }

    /// The squares in index order (a1, b1, … f6).
    pub fn iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        self.iter()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        iter.into_iter().fold(SquareSet::EMPTY, SquareSet::with)
    }
}

impl fmt::Display for SquareSet {
    /// Space-separated square names, as the protocol and the prompt use.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, sq) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// Iterator over a [`SquareSet`], lowest index first.
#[derive(Clone, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareIter {}
