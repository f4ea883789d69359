//! Reading moves typed by people and sent by programs: the handout's
//! `e2-e4` (promotion implicit: a queen), UCI `e7e8q`, and the forms in
//! between (`e2e4`, `e7-e8q`, `e7-e8=Q`). An illegal move is refused with
//! the reason, in words a player understands.

use super::moves::Move;
use super::position::Position;
use super::types::{Bitboard, PieceKind, Square};
use crate::search::MoveList;
use std::fmt;

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move at all.
    Syntax(String),
    /// Antichess: a side has nothing left but its king, so the game is
    /// over and no move can be played.
    GameOver,
    /// No piece on the from-square.
    NoPiece(Square),
    /// The piece on the from-square belongs to the opponent.
    NotYours(Square),
    /// Antichess: a capture was available and this move is not one.
    CaptureCompulsory(Vec<Move>),
    /// The move would leave (or keep) one's own king in check.
    KingInCheck,
    /// A promotion letter where none fits, or one the rules forbid.
    BadPromotion(String),
    /// The piece cannot go there.
    CannotReach {
        /// The piece's kind.
        kind: PieceKind,
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "'{s}' is not a move (type it like e2-e4)"),
            MoveError::GameOver => {
                write!(f, "the game is over: a side has nothing left but its king")
            }
            MoveError::NoPiece(sq) => write!(f, "there is no piece on {sq}"),
            MoveError::NotYours(sq) => write!(f, "the piece on {sq} is not yours"),
            MoveError::CaptureCompulsory(moves) => {
                let list: Vec<String> = moves.iter().map(|m| m.handout().to_string()).collect();
                write!(f, "a capture is compulsory: {}", list.join(", "))
            }
            MoveError::KingInCheck => write!(f, "that would leave your king in check"),
            MoveError::BadPromotion(why) => f.write_str(why),
            MoveError::CannotReach { kind, from, to } => {
                write!(f, "the {} on {from} cannot move to {to}", kind.word())
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// The squares and optional promotion letter of a move, before it is
/// checked against a position.
fn split(text: &str) -> Option<(Square, Square, Option<char>)> {
    let t = text.trim();
    if !t.is_ascii() || t.len() > 7 {
        return None;
    }
    let from = Square::parse(t.get(0..2)?)?;
    let rest = t.get(2..)?;
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let to = Square::parse(rest.get(0..2)?)?;
    let promo = rest.get(2..)?;
    let promo = promo.strip_prefix('=').unwrap_or(promo);
    let mut chars = promo.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Some((from, to, None)),
        (Some(c), None) => Some((from, to, Some(c.to_ascii_lowercase()))),
        _ => None,
    }
}

impl Position {
    /// Reads a move in any accepted form and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let shown: String = text.trim().chars().take(16).collect();
        let (from, to, promo) = split(text).ok_or_else(|| MoveError::Syntax(shown.clone()))?;
        if self.bare_king_ends() {
            return Err(MoveError::GameOver);
        }
        let piece = self.piece_at(from).ok_or(MoveError::NoPiece(from))?;
        if piece.color != self.side_to_move() {
            return Err(MoveError::NotYours(from));
        }
        let last_rank = to.relative_rank(self.side_to_move()) == 7;
        let promotion = match (piece.kind, last_rank, promo) {
            (PieceKind::Pawn, true, None) => Some(PieceKind::Queen),
            (PieceKind::Pawn, true, Some(c)) => {
                let kind = PieceKind::from_letter(c)
                    .filter(|k| self.rules().promotions().contains(k))
                    .ok_or_else(|| {
                        let allowed: String = self
                            .rules()
                            .promotions()
                            .iter()
                            .map(|k| k.letter())
                            .collect();
                        MoveError::BadPromotion(format!("a pawn can only become one of: {allowed}"))
                    })?;
                Some(kind)
            }
            (_, _, Some(_)) => {
                return Err(MoveError::BadPromotion(
                    "only a pawn reaching the last rank promotes".into(),
                ));
            }
            (_, _, None) => None,
        };
        let mv = Move::new(from, to, promotion);
        if self.is_legal(mv) {
            return Ok(mv);
        }
        Err(self.why_illegal(piece.kind, from, to))
    }

    /// Explains why a move from `from` to `to` is not legal.
    fn why_illegal(&self, kind: PieceKind, from: Square, to: Square) -> MoveError {
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        let them = self.color_bb(self.side_to_move().flip());
        let captures: Vec<Move> = legal.iter().copied().filter(|m| them.has(m.to())).collect();
        if self.rules().is_antichess() && !captures.is_empty() && self.could_move_safely(from, to) {
            return MoveError::CaptureCompulsory(captures);
        }
        if self.reaches(kind, from, to) {
            return MoveError::KingInCheck;
        }
        MoveError::CannotReach { kind, from, to }
    }

    /// Whether the move is king-safe, capture rule aside.
    fn could_move_safely(&self, from: Square, to: Square) -> bool {
        let mut found = false;
        self.for_each_king_safe(|pm| {
            found |= pm.from == from && pm.to.has(to);
            found
        });
        found
    }

    /// Whether the piece could go there on an empty-enough board, king
    /// safety aside (pseudo-legal geometry).
    fn reaches(&self, kind: PieceKind, from: Square, to: Square) -> bool {
        use super::attacks;
        let side = self.side_to_move();
        let occ = self.occupied();
        if self.color_bb(side).has(to) {
            return false;
        }
        let reach = match kind {
            PieceKind::Pawn => {
                let push = from.bb().forward(side) & !occ;
                let double = if self.rules().double_step() && from.relative_rank(side) == 1 {
                    push.forward(side) & !occ
                } else {
                    Bitboard::EMPTY
                };
                let ep = self.ep_square().map_or(Bitboard::EMPTY, Square::bb);
                push | double | (attacks::pawn(side, from) & (self.color_bb(side.flip()) | ep))
            }
            _ => attacks::piece(kind, from, occ),
        };
        reach.has(to)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Rules;
    use super::*;

    #[test]
    fn accepts_every_form() {
        let pos = Position::startpos(Rules::Chess);
        for text in ["e2-e4", "e2e4", " e2e4 "] {
            assert_eq!(
                pos.parse_move(text).map(|m| m.to_string()),
                Ok("e2e4".to_string())
            );
        }
        assert!(matches!(
            pos.parse_move("e2-e5"),
            Err(MoveError::CannotReach { .. })
        ));
        assert!(matches!(
            pos.parse_move("e3-e4"),
            Err(MoveError::NoPiece(_))
        ));
        assert!(matches!(
            pos.parse_move("e7-e5"),
            Err(MoveError::NotYours(_))
        ));
        assert!(matches!(pos.parse_move("zz"), Err(MoveError::Syntax(_))));
        assert!(matches!(pos.parse_move("é2-e4"), Err(MoveError::Syntax(_))));
    }

    #[test]
    fn names_the_compulsory_captures() {
        let pos = Position::startpos(Rules::Antichess);
        let pos = pos.play(pos.parse_move("e2-e4").unwrap());
        let pos = pos.play(pos.parse_move("d7-d5").unwrap());
        let err = pos.parse_move("a2-a3").unwrap_err();
        assert_eq!(err.to_string(), "a capture is compulsory: e4-d5");
    }

    #[test]
    fn promotion_is_implicit_and_checked() {
        let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", Rules::Chess).unwrap();
        assert_eq!(pos.parse_move("b7-b8").unwrap().to_string(), "b7b8q");
        assert_eq!(pos.parse_move("b7b8n").unwrap().to_string(), "b7b8n");
        // Black keeps a pawn: with a bare king the game would be over.
        let anti =
            Position::from_fen("4k3/1P6/8/8/8/8/p7/4K3 w - - 0 1", Rules::Antichess).unwrap();
        assert!(matches!(
            anti.parse_move("b7b8n"),
            Err(MoveError::BadPromotion(_))
        ));
    }
}
