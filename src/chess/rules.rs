//! The rule sets that share the chess board, and how a game can end.
//!
//! The three rule sets differ in a handful of switches (double steps,
//! castling, en passant, promotion choices, compulsory capture) and in how
//! the game ends; the move generator reads the switches, and
//! [`Position::status`](super::Position::status) applies the endings.

use super::types::{Color, PieceKind};
use crate::search::Outcome;
use std::fmt;
use std::str::FromStr;

/// Which game is being played on the chess board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// MIT 6.170, 2002: compulsory capture, royal king, double steps, no
    /// castling or en passant, promotion to a queen; bare king or being
    /// checkmated wins.
    #[default]
    Antichess,
    /// MIT 6.170, 1994: as [`Rules::Antichess`] but pawns never double-step.
    Antichess1994,
    /// Standard chess (the CS 246 project).
    Chess,
}

impl Rules {
    /// All rule sets, in the order they are listed to users.
    pub const ALL: [Rules; 3] = [Rules::Antichess, Rules::Antichess1994, Rules::Chess];

    /// The name used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Antichess => "antichess",
            Rules::Antichess1994 => "antichess1994",
            Rules::Chess => "chess",
        }
    }

    /// Whether captures are compulsory and losing everything wins.
    #[inline]
    pub const fn is_antichess(self) -> bool {
        !matches!(self, Rules::Chess)
    }

    /// Whether a pawn may advance two squares from its start rank.
    #[inline]
    pub const fn double_step(self) -> bool {
        !matches!(self, Rules::Antichess1994)
    }

    /// Whether castling and en passant exist.
    #[inline]
    pub const fn castling_and_en_passant(self) -> bool {
        matches!(self, Rules::Chess)
    }

    /// The pieces a pawn may become, most valuable first.
    pub const fn promotions(self) -> &'static [PieceKind] {
        match self {
            Rules::Chess => &[
                PieceKind::Queen,
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Knight,
            ],
            _ => &[PieceKind::Queen],
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule-set name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRules(pub String);

impl fmt::Display for UnknownRules {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "unknown rules '{}' (expected antichess, antichess1994 or chess)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRules {}

impl FromStr for Rules {
    type Err = UnknownRules;

    fn from_str(s: &str) -> Result<Rules, UnknownRules> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownRules(s.chars().take(40).collect()))
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Antichess: the winner has nothing left but the king.
    BareKing,
    /// The side to move is in check and has no move (in antichess the
    /// mated side wins).
    Checkmate,
    /// The side to move is not in check and has no move.
    Stalemate,
    /// Chess: fifty moves by each side without a capture or pawn move.
    FiftyMoves,
    /// Chess: the same position for the third time.
    Repetition,
    /// Chess: neither side can possibly mate.
    InsufficientMaterial,
}

impl Reason {
    /// The word used by the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::BareKing => "bare-king",
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "fifty-move",
            Reason::Repetition => "repetition",
            Reason::InsufficientMaterial => "insufficient-material",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the game goes on, and if not who won and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has at least one move and nothing has ended it.
    Ongoing,
    /// `winner` has won.
    Won {
        /// Who won.
        winner: Color,
        /// How.
        reason: Reason,
    },
    /// Nobody won.
    Drawn(Reason),
}

impl Status {
    /// Whether the game has ended.
    pub const fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }

    /// The PGN-style score: `1-0`, `0-1`, `1/2-1/2`, or `*` if ongoing.
    pub const fn score(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::Won {
                winner: Color::White,
                ..
            } => "1-0",
            Status::Won {
                winner: Color::Black,
                ..
            } => "0-1",
            Status::Drawn(_) => "1/2-1/2",
        }
    }

    /// How the game ended for `side`, if it has: the search's view.
    pub fn outcome_for(self, side: Color) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Won { winner, .. } if winner == side => Some(Outcome::Win),
            Status::Won { .. } => Some(Outcome::Loss),
            Status::Drawn(_) => Some(Outcome::Draw),
        }
    }

    /// The reason the game ended, if it has.
    pub const fn reason(self) -> Option<Reason> {
        match self {
            Status::Ongoing => None,
            Status::Won { reason, .. } | Status::Drawn(reason) => Some(reason),
        }
    }
}
