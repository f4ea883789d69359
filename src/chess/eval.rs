//! Static evaluation for the chess-board rule sets, from the side to move's
//! point of view, in centipawns.
//!
//! Chess and antichess want opposite things. In chess material is good and
//! the terms are the usual ones (material, piece placement tapered between
//! middlegame and endgame, passed pawns, the bishop pair). In antichess the
//! goal is to be rid of every man, so each man is a liability; how much of
//! one depends on how hard it is to give away: sliders and knights can be
//! offered almost anywhere, a blocked pawn cannot move at all, and a pawn
//! near promotion is about to become an easily sacrificed queen. Above
//! material, though, antichess is a game of moves: games are decided by
//! who runs out of safe moves first and must capture into a chain of
//! forced replies, so legal moves and the move itself weigh the most.

use super::attacks;
use super::position::Position;
use super::rules::Rules;
use super::types::{Bitboard, Color, PieceKind, Square};
use super::weights::{self, AntichessTerms, CHESS};
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
        Rules::Chess => chess(pos),
        Rules::Antichess | Rules::Antichess1994 => antichess(pos, legal_moves),
    }
}

/// Distance of a square from the centre, 0 (d4..e5) to 3 (corners).
fn center_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df.max(dr)
}

/// Placement bonus (middlegame, endgame) of a piece of `color` on `sq`.
fn placement(kind: PieceKind, color: Color, sq: Square) -> (Score, Score) {
    let rank = sq.relative_rank(color) as i32;
    let center = center_distance(sq);
    let file_edge = (sq.file() as i32).min(7 - sq.file() as i32);
    match kind {
        PieceKind::Pawn => {
            let central = if (2..=5).contains(&sq.file()) {
                4 * rank
            } else {
                2 * rank
            };
            (central, 10 * (rank - 1).max(0))
        }
        PieceKind::Knight => (-12 * center, -10 * center),
        PieceKind::Bishop => (-5 * center, -5 * center),
        PieceKind::Rook => (if rank == 6 { 20 } else { 0 }, 0),
        PieceKind::Queen => (-3 * center, -6 * center),
        PieceKind::King => {
            let shelter = if rank == 0 && file_edge <= 2 {
                20
            } else {
                -15 * rank
            };
            (shelter, -12 * center)
        }
    }
}

fn chess(pos: &Position) -> Score {
    let mut mg = [0; 2];
    let mut eg = [0; 2];
    let mut phase = 0;
    let occ = pos.occupied();
    for color in Color::ALL {
        let c = color.index();
        for kind in PieceKind::ALL {
            for sq in pos.pieces(color, kind) {
                let (m, e) = CHESS.material[kind.index()];
                let (pm, pe) = placement(kind, color, sq);
                mg[c] += m + pm;
                eg[c] += e + pe;
                phase += CHESS.phase[kind.index()];
                // The king's squares are safety, not mobility.
                let mobility = match kind {
                    PieceKind::King => Bitboard::EMPTY,
                    _ => attacks::piece(kind, sq, occ),
                };
                let mob = (mobility & !pos.color_bb(color)).count() as Score;
                mg[c] += CHESS.mobility.0 * mob;
                eg[c] += CHESS.mobility.1 * mob;
            }
        }
        if pos.pieces(color, PieceKind::Bishop).several() {
            mg[c] += CHESS.bishop_pair.0;
            eg[c] += CHESS.bishop_pair.1;
        }
        for sq in pos.pieces(color, PieceKind::Pawn) {
            if is_passed(pos, color, sq) {
                let r = sq.relative_rank(color) as Score;
                mg[c] += 5 * r;
                eg[c] += 8 * r * r / 2 + 10;
            }
        }
    }
    let us = pos.side_to_move().index();
    let them = 1 - us;
    let phase = phase.min(24);
    let mg_score = mg[us] - mg[them];
    let eg_score = eg[us] - eg[them];
    (mg_score * phase + eg_score * (24 - phase)) / 24 + CHESS.tempo
}

/// Squares in front of a pawn on its file and the two next to it, per
/// colour and square: where an enemy pawn would stop it.
static PASSED_SPAN: [[u64; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let files = (0x0101_0101_0101_0101u64 << file)
            | if file > 0 {
                0x0101_0101_0101_0101u64 << (file - 1)
            } else {
                0
            }
            | if file < 7 {
                0x0101_0101_0101_0101u64 << (file + 1)
            } else {
                0
            };
        let above = if rank < 7 {
            !0u64 << (8 * (rank + 1))
        } else {
            0
        };
        let below = if rank > 0 {
            !0u64 >> (8 * (8 - rank))
        } else {
            0
        };
        table[0][sq] = files & above;
        table[1][sq] = files & below;
        sq += 1;
    }
    table
};

/// Whether no enemy pawn can stop or capture the pawn on its way.
fn is_passed(pos: &Position, color: Color, sq: Square) -> bool {
    let span = Bitboard(PASSED_SPAN[color.index()][sq.index()]);
    (span & pos.pieces(color.flip(), PieceKind::Pawn)).is_empty()
}

/// The antichess evaluation; the weights and what each means are in
/// [`weights::AntichessWeights`]. Measured by games, see README.md.
fn antichess(pos: &Position, legal_moves: impl FnOnce() -> usize) -> Score {
    antichess_terms(pos, legal_moves).score(weights::antichess(pos.rules()))
}

/// The terms the antichess evaluation weighs, for the side to move.
pub fn antichess_terms(pos: &Position, legal_moves: impl FnOnce() -> usize) -> AntichessTerms {
    let occ = pos.occupied();
    let mut terms = [AntichessTerms::default(); 2];
    for color in Color::ALL {
        let t = &mut terms[color.index()];
        let threatened = pos.attack_map(color.flip());
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
                let quiet = attacks::piece(kind, sq, occ) & !occ;
                t.mobility += quiet.count() as i32;
                reach |= quiet;
            }
        }
        t.offers = (reach & threatened).count() as i32;
    }
    let us = pos.side_to_move().index();
    let [ours, theirs] = [terms[us], terms[1 - us]];
    // In check the opponent's moves cannot be counted by passing.
    let legal_moves = pos
        .play_null()
        .map(|passed| legal_moves() as i32 - passed.count_legal() as i32);
    AntichessTerms {
        men: std::array::from_fn(|k| ours.men[k] - theirs.men[k]),
        threatened: ours.threatened - theirs.threatened,
        blocked_pawns: ours.blocked_pawns - theirs.blocked_pawns,
        pawn_ranks: ours.pawn_ranks - theirs.pawn_ranks,
        mobility: ours.mobility - theirs.mobility,
        offers: ours.offers - theirs.offers,
        legal_moves,
    }
}
