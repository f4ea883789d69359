//! The checkers position: squares, colours, pieces and the bitboards.
//!
//! Squares are numbered 1–32 as in the handout's figure: Black starts on
//! 1–12 at the top, White on 21–32 at the bottom, and row `r` (from the top)
//! holds squares `4r+1 ..= 4r+4`. Internally a square lives at bit
//! `s + s/8` of a `u64` (`s` = number − 1): one unused "ghost" bit after every
//! two rows makes each diagonal direction a single constant shift (+4
//! down-left, +5 down-right, −4 up-right, −5 up-left), and a step off the
//! board lands on a ghost bit or outside `BOARD`, where masking drops it.

use std::fmt;

/// All 32 playable squares in the ghost layout.
pub(crate) const BOARD: u64 = spread(0xFFFF_FFFF);

/// Squares where a black man is crowned (29–32).
pub(crate) const BLACK_CROWN: u64 = spread(0xF000_0000);

/// Squares where a white man is crowned (1–4).
pub(crate) const WHITE_CROWN: u64 = spread(0x0000_000F);

/// One of the 32 playable squares; `index()` is the number minus one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// The square with the handout's number `n` (1–32), if there is one.
    pub fn from_number(n: u32) -> Option<Square> {
        (1..=32).contains(&n).then(|| Square((n - 1) as u8))
    }

    /// The handout's number of this square, 1–32.
    pub fn number(self) -> u32 {
        u32::from(self.0) + 1
    }

    /// 0-based index, 0–31.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Row from the top (Black's side), 0–7.
    pub fn row(self) -> usize {
        self.index() / 4
    }

    /// Column from the left as printed, 0–7.
    pub fn column(self) -> usize {
        let c = 2 * (self.index() % 4);
        if self.row().is_multiple_of(2) {
            c + 1
        } else {
            c
        }
    }

    /// All squares, 1 to 32.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..32).map(Square)
    }

    /// The square at the given ghost-layout bit index, which must be one.
    pub(crate) fn from_bit_index(i: u32) -> Square {
        Square((i - i / 9) as u8)
    }

    /// This square's bit in the ghost layout.
    pub(crate) fn bit(self) -> u64 {
        1u64 << (self.0 + self.0 / 8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// Spreads a 32-square mask (bit `s` = square `s+1`) into the ghost layout.
pub(crate) const fn spread(squares: u32) -> u64 {
    let s = squares as u64;
    (s & 0xFF) | ((s & 0xFF00) << 1) | ((s & 0xFF_0000) << 2) | ((s & 0xFF00_0000) << 3)
}

/// Inverse of [`spread`]; ghost bits are dropped.
pub(crate) const fn compress(bits: u64) -> u32 {
    ((bits & 0xFF)
        | ((bits >> 1) & 0xFF00)
        | ((bits >> 2) & 0xFF_0000)
        | ((bits >> 3) & 0xFF00_0000)) as u32
}

/// Shifts a bitboard one step in direction `d` (±4 or ±5).
#[inline(always)]
pub(crate) const fn shift(b: u64, d: i32) -> u64 {
    if d > 0 { b << d } else { b >> -d }
}

/// Iterates over the set bits of a bitboard, lowest first.
pub(crate) struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0 & self.0.wrapping_neg();
        self.0 ^= b;
        Some(b)
    }
}

/// The two sides. Black moves first, down the board (towards 32).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Starts on 1–12 and moves first.
    Black,
    /// Starts on 21–32.
    White,
}

impl Color {
    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The lower-case name the handout and the wire protocol use.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Where this colour's men are crowned.
    pub(crate) fn crown_row(self) -> u64 {
        match self {
            Color::Black => BLACK_CROWN,
            Color::White => WHITE_CROWN,
        }
    }
}

/// A piece: a man or a king of one colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Whether it has been crowned.
    pub king: bool,
}

impl Piece {
    /// The board character of the handout: `b`, `w`, `B`, `W`.
    pub fn to_char(self) -> char {
        match (self.color, self.king) {
            (Color::Black, false) => 'b',
            (Color::White, false) => 'w',
            (Color::Black, true) => 'B',
            (Color::White, true) => 'W',
        }
    }

    /// Inverse of [`Piece::to_char`].
    pub fn from_char(c: char) -> Option<Piece> {
        let (color, king) = match c {
            'b' => (Color::Black, false),
            'w' => (Color::White, false),
            'B' => (Color::Black, true),
            'W' => (Color::White, true),
            _ => return None,
        };
        Some(Piece { color, king })
    }

    /// Index into the Zobrist table.
    fn zobrist_index(self) -> usize {
        self.color.index() + 2 * usize::from(self.king)
    }
}

/// Zobrist keys by piece kind and ghost-layout bit, from a fixed splitmix64
/// stream so keys are the same in every run.
const ZOBRIST: [[u64; 36]; 4] = {
    let mut table = [[0u64; 36]; 4];
    let mut state = 0x5EED_C4EC_4E25_u64;
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 36 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            table[kind][bit] = crate::rng::mix(state);
            bit += 1;
        }
        kind += 1;
    }
    table
};

/// Zobrist key of "white to move".
const ZOBRIST_WHITE: u64 = crate::rng::mix(0x0123_4567_89AB_CDEF);

/// Zobrist key of one piece on one ghost-layout bit.
#[inline(always)]
pub(crate) fn zobrist(piece: Piece, bit: u64) -> u64 {
    ZOBRIST[piece.zobrist_index()][bit.trailing_zeros() as usize % 36]
}

/// Why a set of pieces is not a checkers position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// More than twelve pieces of one colour.
    TooManyPieces(Color),
    /// A man on the row where it would already have been crowned.
    ManOnCrownRow(Square),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManyPieces(c) => write!(f, "{} has more than 12 pieces", c.name()),
            SetupError::ManOnCrownRow(s) => {
                write!(f, "a man on {s} stands where it would have been crowned")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// A checkers position: pieces, side to move, and the plies since the last
/// irreversible move (a man's move or a capture).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces by colour ([`Color::index`]), ghost layout.
    pub(crate) pieces: [u64; 2],
    /// Kings of both colours.
    pub(crate) kings: u64,
    pub(crate) side: Color,
    /// Plies since the last man move or capture.
    pub(crate) quiet: u16,
    pub(crate) key: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::initial()
    }
}

impl Position {
    /// The starting position: Black on 1–12, White on 21–32, Black to move.
    pub fn initial() -> Position {
        let mut p = Position::empty(Color::Black);
        p.pieces = [spread(0x0000_0FFF), spread(0xFFF0_0000)];
        p.key = p.compute_key();
        p
    }

    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Position {
        let mut p = Position {
            pieces: [0; 2],
            kings: 0,
            side,
            quiet: 0,
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// Builds a position from pieces, checking that it could arise in a game
    /// as far as move generation cares (at most twelve pieces a side, no
    /// uncrowned man on its crowning row).
    pub fn from_pieces(
        side: Color,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<Position, SetupError> {
        let mut p = Position::empty(side);
        for (sq, piece) in pieces {
            let b = sq.bit();
            p.pieces[0] &= !b;
            p.pieces[1] &= !b;
            p.kings &= !b;
            p.pieces[piece.color.index()] |= b;
            if piece.king {
                p.kings |= b;
            } else if b & piece.color.crown_row() != 0 {
                return Err(SetupError::ManOnCrownRow(sq));
            }
        }
        for c in [Color::Black, Color::White] {
            if p.pieces[c.index()].count_ones() > 12 {
                return Err(SetupError::TooManyPieces(c));
            }
        }
        p.key = p.compute_key();
        Ok(p)
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let color = if self.pieces[0] & b != 0 {
            Color::Black
        } else if self.pieces[1] & b != 0 {
            Color::White
        } else {
            return None;
        };
        Some(Piece {
            color,
            king: self.kings & b != 0,
        })
    }

    /// All pieces, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// Number of men and kings of `color`.
    pub fn count(&self, color: Color) -> (u32, u32) {
        let all = self.pieces[color.index()];
        (
            (all & !self.kings).count_ones(),
            (all & self.kings).count_ones(),
        )
    }

    /// Plies since the last man move or capture.
    pub fn quiet_plies(&self) -> u32 {
        u32::from(self.quiet)
    }

    /// The Zobrist key, side to move included.
    pub fn zobrist_key(&self) -> u64 {
        self.key
    }

    /// Empty playable squares.
    #[inline(always)]
    pub(crate) fn empty_squares(&self) -> u64 {
        BOARD & !(self.pieces[0] | self.pieces[1])
    }

    fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::White {
            ZOBRIST_WHITE
        } else {
            0
        };
        for color in [Color::Black, Color::White] {
            for b in Bits(self.pieces[color.index()]) {
                key ^= zobrist(
                    Piece {
                        color,
                        king: self.kings & b != 0,
                    },
                    b,
                );
            }
        }
        key
    }

    /// Flips the side to move, keeping the key in step.
    #[inline(always)]
    pub(crate) fn flip_side(&mut self) {
        self.side = self.side.opponent();
        self.key ^= ZOBRIST_WHITE;
    }

    /// Debug check that the incremental key matches a fresh computation.
    #[cfg(test)]
    pub(crate) fn key_is_consistent(&self) -> bool {
        self.key == self.compute_key()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_pdn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_and_compress_are_inverse() {
        for s in Square::all() {
            assert_eq!(spread(1 << s.index()), s.bit());
            assert_eq!(compress(s.bit()), 1 << s.index());
            assert_eq!(Square::from_bit_index(s.bit().trailing_zeros()), s);
        }
        assert_eq!(BOARD.count_ones(), 32);
    }

    #[test]
    fn shifts_follow_the_diagonals() {
        // 1 touches 5 and 6; 8 touches 11 and 12 below and 3 and 4 above.
        let sq = |n| Square::from_number(n).unwrap().bit();
        assert_eq!(shift(sq(1), 4), sq(5));
        assert_eq!(shift(sq(1), 5), sq(6));
        assert_eq!(shift(sq(8), 4), sq(11));
        assert_eq!(shift(sq(8), 5), sq(12));
        assert_eq!(shift(sq(8), -4), sq(4));
        assert_eq!(shift(sq(8), -5), sq(3));
        // Off the edge: 5 has no down-left neighbour, 4 no down-right one.
        assert_eq!(shift(sq(5), 4) & BOARD, 0);
        assert_eq!(shift(sq(4), 5) & BOARD, 0);
    }

    #[test]
    fn columns_match_the_printed_board() {
        let col = |n| Square::from_number(n).unwrap().column();
        assert_eq!((col(1), col(4), col(5), col(8), col(32)), (1, 7, 0, 6, 6));
    }
}
