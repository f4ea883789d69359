//! Moves: a packed 16-bit value, and the groups the generator hands out
//! (one piece, one from-square, a bitboard of destinations).

use super::types::{Bitboard, PieceKind, Square};
use std::fmt;

/// A move: from-square, to-square and the promotion piece if any.
///
/// Castling is the king's two-square move and en passant the pawn's move
/// to the en-passant square; the position tells them apart, so the move
/// does not need flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`, promoting to `promotion`.
    #[inline]
    pub const fn new(from: Square, to: Square, promotion: Option<PieceKind>) -> Move {
        let promo = match promotion {
            Some(kind) => kind as u16,
            None => 0,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | promo << 12)
    }

    /// Where the piece starts.
    #[inline]
    pub const fn from(self) -> Square {
        match Square::new((self.0 & 63) as u8) {
            Some(sq) => sq,
            None => unreachable!(),
        }
    }

    /// Where the piece lands.
    #[inline]
    pub const fn to(self) -> Square {
        match Square::new((self.0 >> 6 & 63) as u8) {
            Some(sq) => sq,
            None => unreachable!(),
        }
    }

    /// The piece a pawn becomes, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        match self.0 >> 12 {
            0 => None,
            k => PieceKind::from_index(k as usize),
        }
    }

    /// The raw 16 bits, for the transposition table.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The 6.170 handout's form, `e2-e4`; a promotion to anything but a
    /// queen (chess only) gets its letter appended, `e7-e8n`.
    pub fn handout(self) -> HandoutMove {
        HandoutMove(self)
    }
}

/// Displays a move in the handout's `e2-e4` form.
pub struct HandoutMove(Move);

impl fmt::Display for HandoutMove {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}-{}", self.0.from(), self.0.to())?;
        match self.0.promotion() {
            Some(kind) if kind != PieceKind::Queen => write!(f, "{}", kind.letter()),
            _ => Ok(()),
        }
    }
}

/// UCI form: `e2e4`, `e7e8q`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion() {
            write!(f, "{}", kind.letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The legal moves of one piece: every square of `to` is a destination.
/// A pawn destination on the last rank stands for one move per promotion
/// piece the rules allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// What moves.
    pub kind: PieceKind,
    /// From where.
    pub from: Square,
    /// To where.
    pub to: Bitboard,
}

impl PieceMoves {
    /// Number of moves in the group, given the promotion choices.
    #[inline]
    pub fn len(&self, promotions: &[PieceKind]) -> usize {
        if self.kind == PieceKind::Pawn {
            let promo = (self.to & Bitboard::BACK_RANKS).count() as usize;
            self.to.count() as usize + promo * (promotions.len().saturating_sub(1))
        } else {
            self.to.count() as usize
        }
    }

    /// Whether the group is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// Calls `f` with every move of the group.
    #[inline]
    pub fn for_each(&self, promotions: &[PieceKind], mut f: impl FnMut(Move)) {
        for to in self.to {
            if self.kind == PieceKind::Pawn && Bitboard::BACK_RANKS.has(to) {
                for &p in promotions {
                    f(Move::new(self.from, to, Some(p)));
                }
            } else {
                f(Move::new(self.from, to, None));
            }
        }
    }
}
