//! Antichess endings where one side is stuck: it has nothing but its king
//! and immobile pawns, locked head to head against the other side's pawns
//! or standing behind such a pawn of their own.
//!
//! Such a side can move only its king, and a locked pawn can leave the
//! board only by being taken by a king. When both sides are stuck neither
//! king will step next to an enemy pawn it would then have to take, and
//! the game goes on until a clock falls: a draw for the search. When only
//! one side is stuck, the other wins by feeding its men to the stuck king,
//! which must take them, each one dragging it a square, until it stands
//! next to an immobile pawn of the last man's side with nothing else to take.
//! The hand-made evaluation reads these endings badly: its legal-move term
//! rewards the converting side for keeping its pieces, which is how games
//! against the anchor ran to a thousand plies and a flag. This evaluation
//! replaces it there: fewer men, the stuck king nearer the immobile pawns.
//! Its weights are [`LockedWeights`], with the others in `antichess_weights.rs`.

use super::antichess_weights::{self, LockedWeights};
use super::attacks;
use super::position::Position;
use super::types::{Bitboard, Color, PieceKind};
use crate::search::Score;

/// The pawns of `color` that can never move while only kings take: those
/// with an enemy pawn on the square in front, then, over and over, those
/// behind a pawn of their own that cannot move; none with a capture.
fn immobile_pawns(pos: &Position, color: Color) -> Bitboard {
    let enemy = color.flip();
    let pawns = pos.pieces(color, PieceKind::Pawn);
    let enemy_pawns = pos.pieces(enemy, PieceKind::Pawn);
    // The squares from which a pawn of ours would take a man of theirs.
    let behind = pos.men(enemy).forward(enemy);
    let capturing = pawns & (behind.west() | behind.east());
    let mut fixed = pawns & enemy_pawns.forward(enemy) & !capturing;
    loop {
        // A pawn is behind `fixed` if `fixed` is on the square in front.
        let grown = fixed | (pawns & fixed.forward(enemy) & !capturing);
        if grown == fixed {
            return fixed;
        }
        fixed = grown;
    }
}

/// Whether the king of `color`'s opponent stands next to one of
/// `color`'s `immobile` pawns that `color`'s king does not guard: it must
/// take it.
fn king_must_take(pos: &Position, color: Color, immobile: Bitboard) -> bool {
    let near = attacks::king(pos.king(color.flip())) & !attacks::king(pos.king(color));
    (near & immobile).any()
}

/// The evaluation for the side to move when a side is stuck, `None`
/// otherwise (and with a bare king, which ends the game).
pub fn evaluate(pos: &Position) -> Option<Score> {
    let us = pos.side_to_move();
    // The cheap test first: a side with a piece is not stuck, and most
    // positions have pieces on both sides.
    let men = Color::ALL.map(|color| pos.men(color));
    if Color::ALL
        .iter()
        .all(|&c| men[c.index()] != pos.pieces(c, PieceKind::Pawn))
    {
        return None;
    }
    let immobile = Color::ALL.map(|color| immobile_pawns(pos, color));
    let stuck = Color::ALL.map(|c| men[c.index()].any() && men[c.index()] == immobile[c.index()]);
    let converting = match stuck {
        [false, false] => return None,
        // Both stuck: dead, unless a king already stands next to a pawn
        // it will have to take.
        [true, true] => match Color::ALL.map(|c| king_must_take(pos, c, immobile[c.index()])) {
            [true, false] => Color::White,
            [false, true] => Color::Black,
            _ => return Some(0),
        },
        [true, false] => Color::Black,
        [false, true] => Color::White,
    };
    let side = converting.index();
    let weights = &antichess_weights::antichess(pos.rules()).locked;
    let score = converting_score(
        pos,
        converting,
        men[side] & !immobile[side],
        immobile[side],
        weights,
    );
    Some(if converting == us { score } else { -score })
}

/// How far `converting` is from winning, with its men `to_feed` still to
/// give away and its `immobile` pawns to be taken last.
fn converting_score(
    pos: &Position,
    converting: Color,
    to_feed: Bitboard,
    immobile: Bitboard,
    w: &LockedWeights,
) -> Score {
    let king = pos.king(converting.flip());
    let reach = immobile
        .into_iter()
        .map(|sq| i32::from(king.distance(sq)))
        .min()
        .unwrap_or(0);
    let feed: i32 = to_feed
        .into_iter()
        .map(|sq| i32::from(king.distance(sq)))
        .sum();
    w.base
        - w.man * to_feed.count() as i32
        - w.king_steps * (reach - 1).max(0)
        - w.feed_steps * feed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::Piece;
    use crate::chess::{Rules, Setup};

    fn eval(fen: &str) -> Option<Score> {
        evaluate(&Position::from_fen(fen, Rules::Antichess).unwrap())
    }

    #[test]
    fn both_stuck_is_a_draw() {
        // Locked a4/a5, the kings apart.
        assert_eq!(eval("7K/8/5k2/p7/P7/8/8/8 w - - 0 1"), Some(0));
        assert_eq!(eval("7K/8/5k2/p7/P7/8/8/8 b - - 0 1"), Some(0));
        // White's a4 pawn is behind its own locked a5: it cannot move
        // either, and Black's king will not come for it.
        assert_eq!(eval("8/8/p7/P7/P4k2/3K4/8/8 w - - 0 1"), Some(0));
        // With Black's king next to a4 and a5 it must take them.
        let taking = eval("8/8/p7/P7/Pk6/5K2/8/8 w - - 0 1").unwrap();
        assert!(taking > 1000, "{taking}");
        // White's king next to a6 has to take it: Black wins.
        let taken = eval("8/8/pK6/P7/1k6/8/8/8 w - - 0 1").unwrap();
        assert!(taken < -1000, "{taken}");
        // Unless a capture is on.
        assert_eq!(eval("8/8/p7/Pp6/P4k2/3K4/8/8 w - - 0 1"), None);
    }

    #[test]
    fn a_free_man_on_either_side_is_not_stuck() {
        // White's c5 pawn can still run.
        let with_free = eval("6k1/8/p4K2/P1P5/8/8/8/8 w - - 0 1").unwrap();
        assert!(with_free > 0, "{with_free}");
        assert_eq!(eval("6k1/8/p4K2/P1P5/8/8/8/8 b - - 0 1"), Some(-with_free));
        // Nobody stuck: the start, and unlocked pawns.
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
            None
        );
        assert_eq!(eval("7K/8/5k2/p7/1P6/8/8/8 w - - 0 1"), None);
    }

    #[test]
    fn fewer_men_and_a_nearer_king_are_better() {
        // Black converts: queen, bishop and pawns against White's king and
        // locked h5 pawn.
        let both = eval("8/8/4p2p/4b2P/1p6/k7/5q2/1K6 b - - 0 1").unwrap();
        let no_queen = eval("8/8/4p2p/4b2P/1p6/k7/8/1K6 b - - 0 1").unwrap();
        assert!(no_queen > both && both > 0, "{no_queen} {both}");
        let near = eval("8/8/4p2p/4b2P/1p4K1/k7/8/8 b - - 0 1").unwrap();
        assert!(near > no_queen, "{near} {no_queen}");
    }

    /// What `immobile_pawns` calls immobile the generator (perft-proven)
    /// never moves, in random positions of kings and pawns, by either side
    /// to move; and positions with such pawns are common enough to tell.
    #[test]
    fn immobile_pawns_have_no_moves() {
        let mut rng = crate::rng::Xoshiro::new(41);
        let (mut checked, mut immobile) = (0, 0);
        while checked < 4000 {
            let mut board = [None; 64];
            for man in ['K', 'k', 'P', 'P', 'P', 'p', 'p', 'p'] {
                let range = if man.eq_ignore_ascii_case(&'p') {
                    8..56
                } else {
                    0..64
                };
                board[range.start + rng.below(range.len())] = Piece::from_letter(man);
            }
            let side = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let Ok(pos) = Position::from_setup(&Setup::new(board, side), Rules::Antichess) else {
                continue;
            };
            checked += 1;
            let fixed = immobile_pawns(&pos, pos.side_to_move());
            immobile += fixed.count();
            let mut moves = crate::search::MoveList::new();
            pos.legal_moves(&mut moves);
            for mv in moves.iter() {
                assert!(!fixed.has(mv.from()), "{} moves {mv}", pos.fen());
            }
        }
        assert!(immobile > 300, "{immobile} immobile pawns");
    }
}
