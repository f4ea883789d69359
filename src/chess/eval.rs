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

use super::attacks;
use super::eval_chess;
use super::position::Position;
use super::rules::Rules;
use super::types::{Color, PieceKind};
use super::weights;
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
/// [`weights::AntichessWeights`]. Measured by games, see README.md.
fn antichess(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    let w = weights::antichess(pos.rules());
    let occ = pos.occupied();
    let mut burden = [0; 2];
    let mut mobility = [0; 2];
    let mut offers = [0; 2];
    for color in Color::ALL {
        let c = color.index();
        let threatened = pos.attack_map(color.flip());
        // Empty squares a man can step to: where it could be offered.
        let mut reach = pos.pieces(color, PieceKind::Pawn).forward(color) & !occ;
        for kind in PieceKind::ALL {
            let men = pos.pieces(color, kind);
            burden[c] += w.burden[kind.index()] * men.count() as Score;
            // Men the opponent attacks are on their way out.
            if kind != PieceKind::King {
                burden[c] -= w.threatened * (men & threatened).count() as Score;
            }
        }
        for sq in pos.pieces(color, PieceKind::Pawn) {
            // A pawn that cannot step forward can only leave by capturing;
            // one far advanced will soon be a queen.
            if (sq.bb().forward(color) & occ).any() {
                burden[c] += w.blocked_pawn;
            }
            burden[c] -= w.pawn_rank * sq.relative_rank(color) as Score;
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
                let quiet = attacks::piece(kind, sq, occ) & !occ;
                mobility[c] += quiet.count() as Score;
                reach |= quiet;
            }
        }
        offers[c] = (reach & threatened).count() as Score;
    }
    let us = pos.side_to_move().index();
    let mut score = burden[1 - us] - burden[us]
        + w.mobility * (mobility[us] - mobility[1 - us])
        + w.offers * (offers[us] - offers[1 - us]);
    // In check the opponent's moves cannot be counted by passing.
    if let Some(passed) = pos.play_null() {
        let ours = legal_moves() as Score;
        let theirs = passed.count_legal() as Score;
        let cap = w.legal_moves_cap;
        score += w.legal_moves * (ours - theirs).clamp(-cap, cap);
    }
    score + w.tempo
}
