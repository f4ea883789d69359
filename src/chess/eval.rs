//! Static evaluation for the chess-board rule sets, from the side to move's
//! point of view, in centipawns.
//!
//! Chess and antichess want opposite things. In chess material is good and
//! the terms are the usual ones; they live in `eval_chess.rs`. In antichess the
//! goal is to be rid of every man, so each man is a liability; how much of
//! one depends on how hard it is to give away: sliders and knights can be
//! offered almost anywhere, a blocked pawn cannot move at all, and a pawn
//! near promotion is about to become an easily sacrificed queen. Above
//! material, though, antichess is a game of moves: games are decided by
//! who runs out of safe moves first and must capture into a chain of
//! forced replies, so legal moves and the move itself weigh the most.

use super::antichess_weights::{self, AntichessTerms};
use super::attacks;
use super::eval_chess;
use super::locked;
use super::movegen::double_step_rank;
use super::net;
use super::position::Position;
use super::rules::Rules;
use super::types::{Bitboard, Color, PieceKind};
use crate::search::Score;

/// Evaluates `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, || pos.count_legal())
}

/// [`evaluate`], with `legal_moves` giving the number of legal moves of
/// the side to move; it is asked only when the answer matters, so a caller
/// that has already generated the moves (the search) need not count them
/// again.
pub fn evaluate_with(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    match pos.rules() {
        Rules::Chess => eval_chess::evaluate(pos),
        Rules::Antichess | Rules::Antichess1994 => antichess(pos, legal_moves),
    }
}

/// The antichess evaluation: the hand-made terms, and the learned
/// correction ([`net`]) in force for the rule set.
fn antichess(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    if let Some(score) = locked::evaluate(pos) {
        return score;
    }
    antichess_hand_made(pos, legal_moves) + net::net(pos.rules()).map_or(0, |net| net.eval(pos))
}

/// The antichess evaluation's hand-made terms alone (what the learned
/// correction is fitted on top of); the weights and what each means are
/// in [`antichess_weights::AntichessWeights`]. Measured by games, see
/// docs/strength.md.
pub fn antichess_hand_made(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    antichess_weights::antichess(pos.rules()).score(&antichess_terms(pos, legal_moves))
}

/// The terms the antichess evaluation weighs, for the side to move.
pub fn antichess_terms(pos: &Position, legal_moves: impl FnOnce() -> usize) -> AntichessTerms {
    let occ = pos.occupied();
    let us = pos.side_to_move();
    let sides = Color::ALL.map(|color| SideMoves::new(pos, color));
    let terms = Color::ALL.map(|color| {
        let side = &sides[color.index()];
        // Men the opponent attacks are on their way out; empty squares
        // it attacks are where a man of ours could be offered.
        let threatened = sides[color.flip().index()].map;
        let pawns = pos.pieces(color, PieceKind::Pawn);
        let attacked = pos.men(color) & threatened;
        AntichessTerms {
            men: PieceKind::ALL.map(|kind| pos.pieces(color, kind).count() as i32),
            threatened: attacked.count() as i32,
            loose: (attacked & !side.map).count() as i32,
            // A pawn that cannot step forward can only leave by capturing;
            // one far advanced will soon be a queen.
            blocked_pawns: (pawns.forward(color) & occ).count() as i32,
            pawn_ranks: rank_sum(pawns, color),
            mobility: side.mobility,
            offers: (side.reach & threatened).count() as i32,
            men_on_board: 0,
            legal_moves: None,
        }
    });
    let them = &sides[us.flip().index()];
    let (king_captures, king_quiets) = king_moves(pos, us.flip(), sides[us.index()].map);
    // The opponent's moves as if it were to move: captures are compulsory.
    let their_moves = match them.captures + king_captures {
        0 => them.mobility + them.pawn_pushes + king_quiets,
        captures => captures,
    };
    let [ours, theirs] = [terms[us.index()], terms[us.flip().index()]];
    // In check the opponent's moves cannot be counted by passing.
    let legal_moves = (!pos.in_check()).then(|| legal_moves() as i32 - their_moves);
    AntichessTerms {
        men: std::array::from_fn(|k| ours.men[k] - theirs.men[k]),
        threatened: ours.threatened - theirs.threatened,
        loose: ours.loose - theirs.loose,
        blocked_pawns: ours.blocked_pawns - theirs.blocked_pawns,
        pawn_ranks: ours.pawn_ranks - theirs.pawn_ranks,
        mobility: ours.mobility - theirs.mobility,
        offers: ours.offers - theirs.offers,
        men_on_board: occ.count() as i32,
        legal_moves,
    }
}

/// What one side's men reach, each piece's attacks computed once.
struct SideMoves {
    /// Every square the side attacks.
    map: Bitboard,
    /// Empty squares a man can step to: where it could be offered.
    reach: Bitboard,
    /// Quiet squares of the pieces that can be offered anywhere (knights,
    /// bishops, rooks, queens): the side with more ways to give material
    /// away can wait until the opponent runs out of safe moves and must
    /// capture.
    mobility: i32,
    /// Captures the pieces and pawns have (the king's are apart: they
    /// depend on what the other side guards).
    captures: i32,
    /// Pawn steps, double steps included.
    pawn_pushes: i32,
}

impl SideMoves {
    fn new(pos: &Position, color: Color) -> Self {
        let occ = pos.occupied();
        let enemies = pos.color_bb(color.flip());
        let ahead = pos.pieces(color, PieceKind::Pawn).forward(color);
        let (west, east) = (ahead.west(), ahead.east());
        let single = ahead & !occ;
        let double = if pos.rules().double_step() {
            single.forward(color) & !occ & double_step_rank(color)
        } else {
            Bitboard::EMPTY
        };
        let mut side = SideMoves {
            map: west | east | attacks::king(pos.king(color)),
            reach: single,
            mobility: 0,
            captures: ((west & enemies).count() + (east & enemies).count()) as i32,
            pawn_pushes: (single.count() + double.count()) as i32,
        };
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            for sq in pos.pieces(color, kind) {
                let attacked = attacks::piece(kind, sq, occ);
                let quiet = attacked & !occ;
                side.map |= attacked;
                side.reach |= quiet;
                side.mobility += quiet.count() as i32;
                side.captures += (attacked & enemies).count() as i32;
            }
        }
        side
    }
}

/// The ranks `pawns` have advanced from `color`'s side, summed: a square's
/// rank is its index's bits 3 to 5, so the sum is three popcounts.
fn rank_sum(pawns: Bitboard, color: Color) -> i32 {
    const RANK_BITS: [u64; 3] = [
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    let sum: u32 = (0..3)
        .map(|bit| (pawns & Bitboard(RANK_BITS[bit])).count() << bit)
        .sum();
    match color {
        Color::White => sum as i32,
        Color::Black => (7 * pawns.count() - sum) as i32,
    }
}

/// The captures and quiet moves of `color`'s king, `guarded` being the
/// squares the other side attacks (where the king cannot go).
///
/// With [`SideMoves`] this is the number of moves `color` would have if
/// it were to move, counted from attack sets rather than generated: a
/// pinned man's moves count as if it were free. That is the price of a
/// count several times cheaper than a generator pass after a null move
/// (the evaluation runs at most nodes).
fn king_moves(pos: &Position, color: Color, guarded: Bitboard) -> (i32, i32) {
    let king = attacks::king(pos.king(color)) & !guarded;
    let captures = (king & pos.color_bb(color.flip())).count();
    let quiets = (king & !pos.occupied()).count();
    (captures as i32, quiets as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn antichess_terms_counted_by_hand() {
        // White: Ka1, Ra2; Black: Kh8, Rb8; White to move. Counted on a
        // board: White's rook has 13 empty squares to go to (a3-a8,
        // b2-h2), two of them (a8, b2) attacked; Black's rook 13 (b1-b7,
        // a8, c8-g8), three attacked (b1, b2, a8). White's king cannot
        // move (b1 and b2 are attacked), Black's has three squares.
        let pos = Position::from_fen("1r5k/8/8/8/8/8/R7/K7 w - - 0 1", Rules::Antichess).unwrap();
        let t = antichess_terms(&pos, || pos.count_legal());
        assert_eq!(t.men, [0, 0, 0, 0, 0, 0]);
        assert_eq!((t.threatened, t.mobility, t.offers), (0, 0, 2 - 3));
        assert_eq!(t.legal_moves, Some(13 - 16));
        assert_eq!(t.men_on_board, 4);
        // After Rb2 the rooks attack each other: each side has one capture
        // and nothing else. Black's rook has 11 quiet squares, White's 13.
        let pos = pos.play(pos.parse_move("a2b2").unwrap());
        let t = antichess_terms(&pos, || pos.count_legal());
        assert_eq!((t.threatened, t.mobility), (1 - 1, 11 - 13));
        // White's king defends its rook; nothing defends Black's.
        assert_eq!(t.loose, 1);
        assert_eq!(t.legal_moves, Some(1 - 1));
    }

    /// The opponent's moves counted from attack sets agree with the
    /// generator's count after a pass (perft-proven) wherever no man of
    /// the opponent's is pinned, in positions from random games.
    #[test]
    fn opponent_moves_counted_from_attacks_match_the_generator() {
        let mut rng = crate::rng::Xoshiro::new(7);
        let (mut compared, mut pinned) = (0, 0);
        for rules in [Rules::Antichess, Rules::Antichess1994] {
            for _ in 0..200 {
                let mut pos = Position::startpos(rules);
                for _ in 0..rng.below(80) {
                    let mut moves = crate::search::MoveList::new();
                    pos.legal_moves(&mut moves);
                    let Some(mv) = rng.pick(&moves) else { break };
                    pos = pos.play(mv);
                }
                let mut moves = crate::search::MoveList::new();
                pos.legal_moves(&mut moves);
                let Some(passed) = pos.play_null() else {
                    continue;
                };
                if moves.is_empty() || pos.bare_king_ends() {
                    continue;
                }
                if passed.pinned().any() {
                    pinned += 1;
                    continue;
                }
                let t = antichess_terms(&pos, || moves.len());
                let theirs = moves.len() as i32 - t.legal_moves.unwrap();
                assert_eq!(theirs, passed.count_legal() as i32, "{}", pos.fen());
                compared += 1;
            }
        }
        assert!(
            compared > 300 && pinned < 60,
            "{compared} compared, {pinned} pinned"
        );
    }
}
