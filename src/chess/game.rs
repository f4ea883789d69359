//! The chess-board rule sets as a [`Game`] for the generic search.

use super::endgame;
use super::eval;
use super::moves::Move;
use super::position::Position;
use super::quiet_order;
use super::types::{Color, PieceKind};
use crate::search::{CorrectionKeys, Game, MoveList, Outcome, Score, SearchParams, mix_key};

/// Value of each kind for ordering captures (most valuable victim first).
const ORDER_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

impl Game for Position {
    type Move = Move;

    #[inline]
    fn key(&self) -> u64 {
        Position::key(self)
    }

    #[inline]
    fn generate(&self, moves: &mut MoveList<Move>) {
        self.legal_moves(moves);
    }

    #[inline]
    fn play(&self, mv: Move) -> Position {
        Position::play(self, mv)
    }

    #[inline]
    fn key_after(&self, mv: Move) -> Option<u64> {
        Some(Position::key_after(self, mv))
    }

    fn outcome(&self, moves: &[Move]) -> Option<Outcome> {
        self.status_with(|| !moves.is_empty())
            .outcome_for(self.side_to_move())
    }

    #[inline]
    fn evaluate(&self) -> Score {
        eval::evaluate(self)
    }

    #[inline]
    fn evaluate_with(&self, moves: &[Move]) -> Score {
        eval::evaluate_with(self, || moves.len())
    }

    /// The pawns of each side, and the count of each side's men by kind,
    /// each with the side to move, mixed so that the low bits pick slots.
    #[inline]
    fn correction_keys(&self) -> CorrectionKeys {
        let side = self.side_to_move().index() as u64;
        let pawns = self.pieces(Color::White, PieceKind::Pawn).0
            ^ self.pieces(Color::Black, PieceKind::Pawn).0.rotate_left(29)
            ^ side;
        let mut material = side;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                material = (material << 4) | u64::from(self.pieces(color, kind).count().min(15));
            }
        }
        [mix_key(pawns), mix_key(material)]
    }

    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    /// Promotions and captures; in chess only the captures that do not
    /// lose material in the exchange they start: the others are searched
    /// among the quiet moves (after the winning captures and the killers,
    /// open to late-move reductions) and not at all in quiescence.
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        if mv.promotion().is_some() {
            return true;
        }
        let capture = self.color_bb(self.side_to_move().flip()).has(mv.to())
            || (Some(mv.to()) == self.ep_square()
                && self
                    .pieces(self.side_to_move(), PieceKind::Pawn)
                    .has(mv.from()));
        capture && (self.rules().is_antichess() || !self.is_losing_capture(mv))
    }

    /// In antichess, a move to a square the opponent attacks: the opponent
    /// must then capture (here or elsewhere: pins and other captures are
    /// not looked at, this only exempts a move from pruning).
    #[inline]
    fn compels_reply(&self, mv: Move) -> bool {
        if !self.rules().is_antichess() {
            return false;
        }
        let occupied = (self.occupied() & !mv.from().bb()) | mv.to().bb();
        self.is_attacked(mv.to(), self.side_to_move().flip(), occupied)
    }

    #[inline]
    fn quiet_order(&self, mv: Move) -> i32 {
        if !self.rules().is_antichess() {
            return 0;
        }
        let Some(order) = quiet_order::antichess() else {
            return 0;
        };
        let Some(kind) = self.kind_at(mv.from()) else {
            return 0;
        };
        let double = kind == PieceKind::Pawn && mv.from().index().abs_diff(mv.to().index()) == 16;
        let safe = order.safe != 0 && !self.compels_reply(mv);
        order.kind[kind.index()] + order.double * i32::from(double) + order.safe * i32::from(safe)
    }

    #[inline]
    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = self
            .kind_at(mv.to())
            .map_or(ORDER_VALUE[0], |k| ORDER_VALUE[k.index()]);
        let attacker = self
            .kind_at(mv.from())
            .map_or(0, |k| ORDER_VALUE[k.index()]);
        let promo = mv.promotion().map_or(0, |k| ORDER_VALUE[k.index()]);
        if self.rules().is_antichess() {
            // Giving away the most valuable attacker to the cheapest victim
            // is no sin here; order by what the capture leaves the opponent.
            victim * 8 + attacker + promo
        } else {
            victim * 8 - attacker + promo * 8
        }
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * 64 + mv.to().index()
    }

    /// In chess, the fifty-move rule ends the game at 100 reversible
    /// plies, which the key does not record.
    #[inline]
    fn end_is_positional(&self) -> bool {
        self.halfmove_clock() < 100
    }

    #[inline]
    fn reversible_plies(&self) -> u32 {
        self.halfmove_clock() as u32
    }

    /// Only in chess: with compulsory captures, passing is too often the
    /// best move there is not, and zugzwang is the rule rather than the
    /// exception. Pawn-only endings are left to the full search too.
    fn play_null(&self) -> Option<Position> {
        let us = self.side_to_move();
        let pieces = self.men(us) & !self.pieces(us, PieceKind::Pawn);
        if self.rules().is_antichess() {
            let min = crate::search::antichess_params().null_antichess;
            let them = self.color_bb(us.flip());
            // Over-approximated (pins ignored, any en-passant square
            // counts): passing must never dodge a compulsory capture.
            let capture_due =
                !(self.attack_map(us) & them).is_empty() || self.ep_square().is_some();
            if min == 0 || capture_due || (pieces.count() as i32) < min {
                return None;
            }
        } else if pieces.is_empty() {
            return None;
        }
        Position::play_null(self)
    }

    /// Antichess has a table of its own.
    fn search_params(&self) -> SearchParams {
        if self.rules().is_antichess() {
            *crate::search::antichess_params()
        } else {
            *crate::search::params()
        }
    }

    /// The antichess endgame tables, where installed.
    #[inline]
    fn table_result(&self) -> Option<(Outcome, usize)> {
        endgame::probe(self).map(|value| match value {
            endgame::Value::Win(plies) => (Outcome::Win, usize::from(plies)),
            endgame::Value::Loss(plies) => (Outcome::Loss, usize::from(plies)),
            endgame::Value::Draw => (Outcome::Draw, 0),
        })
    }

    #[inline]
    fn pack(mv: Move) -> u16 {
        mv.bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The early key is the key `play` gives, for every move of positions
    /// from random games, except where en passant or castling rights
    /// change (chess only; the early key leaves them out).
    #[test]
    fn the_key_after_a_move_is_the_played_positions() {
        let mut checked = 0;
        crate::chess::random_walks(11, 100, 60, |pos| {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for &mv in &moves {
                let child = pos.play(mv);
                let special = child.castling() != pos.castling()
                    || child.ep_square().is_some()
                    || (pos.ep_square() == Some(mv.to()));
                if !special {
                    assert_eq!(Game::key_after(pos, mv), Some(child.key()), "{mv}");
                    checked += 1;
                }
            }
        });
        assert!(checked > 10_000, "{checked}");
    }

    /// Correction keys: the pawn key sees the pawns and the side to move
    /// alone, the material key the count of men by kind and the side.
    #[test]
    fn correction_keys_follow_their_feature() {
        let rules = crate::chess::Rules::Antichess;
        let keys = |fen: &str| Game::correction_keys(&Position::from_fen(fen, rules).unwrap());
        let start = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        // A knight moved: same pawns, same material.
        let knight = keys("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w - - 0 1");
        assert_eq!(start, knight);
        // A pawn moved: other pawns, same material.
        let pawn = keys("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 1");
        assert_ne!(start[0], pawn[0]);
        assert_eq!(start[1], pawn[1]);
        // A knight gone: same pawns, other material.
        let fewer = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R w - - 0 1");
        assert_eq!(start[0], fewer[0]);
        assert_ne!(start[1], fewer[1]);
        // The other side to move: both differ.
        let black = keys("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
        for (a, b) in start.iter().zip(&black) {
            assert_ne!(a, b);
        }
    }
}
