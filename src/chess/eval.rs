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

/// The antichess evaluation; the weights and what each means are in
/// [`antichess_weights::AntichessWeights`]. Measured by games, see README.md.
fn antichess(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    antichess_weights::antichess(pos.rules()).score(&antichess_terms(pos, legal_moves))
}

/// The terms the antichess evaluation weighs, for the side to move.
pub fn antichess_terms(pos: &Position, legal_moves: impl FnOnce() -> usize) -> AntichessTerms {
    let occ = pos.occupied();
    let mut terms = [AntichessTerms::default(); 2];
    let maps = Color::ALL.map(|color| pos.attack_map(color));
    // The opponent's moves as if it were to move: its captures, and its
    // quiet moves (which count only if it has no capture).
    let (mut their_captures, mut their_quiets) = (0, 0);
    let opponent = pos.side_to_move().flip();
    for color in Color::ALL {
        let t = &mut terms[color.index()];
        let threatened = maps[color.flip().index()];
        // Empty squares a man can step to: where it could be offered.
        let mut reach = pos.pieces(color, PieceKind::Pawn).forward(color) & !occ;
        for kind in PieceKind::ALL {
            let men = pos.pieces(color, kind);
            t.men[kind.index()] = men.count() as i32;
            // Men the opponent attacks are on their way out.
            if kind != PieceKind::King {
                t.threatened += (men & threatened).count() as i32;
            }
        }
        for sq in pos.pieces(color, PieceKind::Pawn) {
            // A pawn that cannot step forward can only leave by capturing;
            // one far advanced will soon be a queen.
            if (sq.bb().forward(color) & occ).any() {
                t.blocked_pawns += 1;
            }
            t.pawn_ranks += sq.relative_rank(color) as i32;
        }
        // Quiet squares for the pieces that can be offered anywhere: the
        // side with more ways to give material away can wait until the
        // opponent runs out of safe moves and must capture.
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            for sq in pos.pieces(color, kind) {
                let attacked = attacks::piece(kind, sq, occ);
                let quiet = attacked & !occ;
                t.mobility += quiet.count() as i32;
                reach |= quiet;
                if color == opponent {
                    their_captures += (attacked & pos.color_bb(color.flip())).count() as i32;
                }
            }
        }
        t.offers = (reach & threatened).count() as i32;
        if color == opponent {
            their_quiets = t.mobility;
        }
    }
    let (captures, quiets) = pawn_and_king_moves(pos, opponent, maps[pos.side_to_move().index()]);
    their_captures += captures;
    their_quiets += quiets;
    let their_moves = if their_captures > 0 {
        their_captures
    } else {
        their_quiets
    };
    let us = pos.side_to_move().index();
    let [ours, theirs] = [terms[us], terms[1 - us]];
    // In check the opponent's moves cannot be counted by passing.
    let legal_moves = (!pos.in_check()).then(|| legal_moves() as i32 - their_moves);
    AntichessTerms {
        men: std::array::from_fn(|k| ours.men[k] - theirs.men[k]),
        threatened: ours.threatened - theirs.threatened,
        blocked_pawns: ours.blocked_pawns - theirs.blocked_pawns,
        pawn_ranks: ours.pawn_ranks - theirs.pawn_ranks,
        mobility: ours.mobility - theirs.mobility,
        offers: ours.offers - theirs.offers,
        men_on_board: occ.count() as i32,
        legal_moves,
    }
}

/// The captures and quiet moves of `color`'s pawns and king, `guarded`
/// being the squares the other side attacks (where the king cannot go).
///
/// With the pieces' moves counted in [`antichess_terms`] this is the
/// number of moves `color` would have if it were to move, counted from
/// attack sets rather than generated: a pinned man's moves count as if it
/// were free. That is the price of a count five times cheaper than a
/// generator pass after a null move (the evaluation runs at most nodes).
fn pawn_and_king_moves(pos: &Position, color: Color, guarded: Bitboard) -> (i32, i32) {
    let occ = pos.occupied();
    let enemies = pos.color_bb(color.flip());
    let ahead = pos.pieces(color, PieceKind::Pawn).forward(color);
    let mut captures = (ahead.west() & enemies).count() + (ahead.east() & enemies).count();
    let single = ahead & !occ;
    let mut quiets = single.count();
    if pos.rules().double_step() {
        let fourth = Bitboard::rank(match color {
            Color::White => 3,
            Color::Black => 4,
        });
        quiets += (single.forward(color) & !occ & fourth).count();
    }
    let king = attacks::king(pos.king(color)) & !guarded;
    captures += (king & enemies).count();
    quiets += (king & !occ).count();
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
