//! The chess evaluation, from the side to move's point of view, in
//! centipawns: material and hand-drawn piece-square tables, tapered between
//! middlegame and endgame by the material left; mobility over the squares
//! enemy pawns do not guard; pawn structure (doubled, isolated, backward,
//! connected); passed pawns with their path and the kings' distances; rooks
//! on open files; outposts; pieces attacked by cheaper ones; king safety
//! (pawn shield, open files, pieces bearing on the king's zone); and a
//! scale that keeps the endgames material cannot win from looking won.
//! Every number is in [`weights::CHESS`](super::weights::CHESS).

use super::attacks;
use super::position::Position;
use super::types::{Bitboard, Color, PieceKind, Square};
use super::weights::{CHESS, ChessWeights, Phased};
use crate::search::Score;

/// Middlegame and endgame sums of one side.
#[derive(Clone, Copy, Default)]
struct Sum {
    mg: Score,
    eg: Score,
}

impl Sum {
    #[inline]
    fn add(&mut self, (mg, eg): Phased) {
        self.mg += mg;
        self.eg += eg;
    }

    #[inline]
    fn add_times(&mut self, (mg, eg): Phased, n: Score) {
        self.mg += mg * n;
        self.eg += eg * n;
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;

#[inline]
fn file_bb(file: u8) -> Bitboard {
    Bitboard(FILE_A << file)
}

/// The files beside `file`.
#[inline]
fn adjacent_files(file: u8) -> Bitboard {
    let bb = file_bb(file);
    bb.west() | bb.east()
}

/// Evaluates a chess position for the side to move.
pub(super) fn evaluate(pos: &Position) -> Score {
    let w = &CHESS;
    let mut sums = [Sum::default(); 2];
    let pawn_attacks = [Color::White, Color::Black].map(|c| pawn_attacks(pos, c));
    let mut phase = 0;
    for color in Color::ALL {
        let c = color.index();
        let sum = &mut sums[c];
        for kind in PieceKind::ALL {
            for sq in pos.pieces(color, kind) {
                sum.add(w.material[kind.index()]);
                sum.add(placement(w, kind, color, sq));
                phase += w.phase[kind.index()];
            }
        }
        if pos.pieces(color, PieceKind::Bishop).several() {
            sum.add(w.bishop_pair);
        }
        pieces(pos, color, &pawn_attacks, sum);
        pawns(pos, color, pawn_attacks[c], sum);
        king_shelter(pos, color, sum);
    }
    let us = pos.side_to_move();
    let (ours, theirs) = (sums[us.index()], sums[us.flip().index()]);
    let phase = phase.min(24);
    let mg = ours.mg - theirs.mg;
    let mut eg = ours.eg - theirs.eg;
    let stronger = if eg >= 0 { us } else { us.flip() };
    eg = eg * endgame_scale(pos, stronger) / 16;
    (mg * phase + eg * (24 - phase)) / 24 + w.tempo
}

/// The piece-square tables' values for a piece of `color` on `sq`.
#[inline]
fn placement(w: &ChessWeights, kind: PieceKind, color: Color, sq: Square) -> Phased {
    // The tables are drawn rank 8 first from White's side: White's a1 is
    // entry 56; Black reads them mirrored, so its a8 (56) is entry 56 too.
    let index = match color {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    };
    (w.pst_mg[kind.index()][index], w.pst_eg[kind.index()][index])
}

/// Squares the pawns of `color` attack.
#[inline]
fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    let ahead = pos.pieces(color, PieceKind::Pawn).forward(color);
    ahead.west() | ahead.east()
}

/// The squares around `color`'s king and the three before those: where
/// enemy pieces do the most harm.
#[inline]
fn king_zone(pos: &Position, color: Color) -> Bitboard {
    let ksq = pos.king(color);
    let around = attacks::king(ksq) | ksq.bb();
    around | around.forward(color)
}

/// Mobility, rooks on open files, outposts, and the attack on the enemy
/// king by `color`'s pieces.
fn pieces(pos: &Position, color: Color, pawn_attacks: &[Bitboard; 2], sum: &mut Sum) {
    let w = &CHESS;
    let them = color.flip();
    let occ = pos.occupied();
    let safe = !pos.color_bb(color) & !pawn_attacks[them.index()];
    let zone = king_zone(pos, them);
    let our_pawns = pos.pieces(color, PieceKind::Pawn);
    let their_pawns = pos.pieces(them, PieceKind::Pawn);
    let mut attackers = 0;
    let mut units = 0;
    let mut by_minor = Bitboard::EMPTY;
    let mut by_rook = Bitboard::EMPTY;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in pos.pieces(color, kind) {
            let reach = attacks::piece(kind, sq, occ);
            match kind {
                PieceKind::Knight | PieceKind::Bishop => by_minor |= reach,
                PieceKind::Rook => by_rook |= reach,
                _ => {}
            }
            let mobility = (reach & safe).count() as Score - w.mobility_par[k];
            sum.add_times(w.mobility[k], mobility);
            let hits = (reach & zone).count() as Score;
            if hits > 0 {
                attackers += 1;
                units += w.king_attack[k] * hits;
            }
            match kind {
                PieceKind::Rook => {
                    let file = file_bb(sq.file());
                    if (file & (our_pawns | their_pawns)).is_empty() {
                        sum.add(w.rook_open);
                    } else if (file & our_pawns).is_empty() {
                        sum.add(w.rook_half_open);
                    }
                }
                PieceKind::Knight | PieceKind::Bishop => {
                    let rank = sq.relative_rank(color);
                    let ahead = Bitboard(PASSED_SPAN[color.index()][sq.index()])
                        & adjacent_files(sq.file());
                    if (3..=5).contains(&rank)
                        && pawn_attacks[color.index()].has(sq)
                        && (ahead & their_pawns).is_empty()
                    {
                        sum.add(w.outpost[usize::from(kind == PieceKind::Bishop)]);
                    }
                }
                _ => {}
            }
        }
    }
    // Pieces attacked by cheaper ones must move: the side to move saves
    // its own in quiescence, but two at once, or one with the other side
    // to move, cost material.
    let their = |kind| pos.pieces(them, kind);
    let majors = their(PieceKind::Rook) | their(PieceKind::Queen);
    let targets = their(PieceKind::Knight) | their(PieceKind::Bishop) | majors;
    let count = |bb: Bitboard| bb.count() as Score;
    sum.add_times(
        w.threat_by_pawn,
        count(pawn_attacks[color.index()] & targets),
    );
    sum.add_times(w.threat_by_minor, count(by_minor & majors));
    sum.add_times(w.threat_by_rook, count(by_rook & their(PieceKind::Queen)));
    if attackers >= 2 {
        // Counted against the defender: taken off ours as a bonus here.
        let danger = (units * units * w.king_danger_num / 16).min(w.king_danger_cap);
        sum.mg += danger;
    }
}

/// Pawn structure and passed pawns of `color`.
fn pawns(pos: &Position, color: Color, our_attacks: Bitboard, sum: &mut Sum) {
    let w = &CHESS;
    let them = color.flip();
    let ours = pos.pieces(color, PieceKind::Pawn);
    let theirs = pos.pieces(them, PieceKind::Pawn);
    let their_attacks = pawn_attacks(pos, them);
    for sq in ours {
        let file = sq.file();
        let rank = sq.relative_rank(color) as usize;
        let span = Bitboard(PASSED_SPAN[color.index()][sq.index()]);
        let front = span & file_bb(file);
        let beside = adjacent_files(file);
        if (front & ours).any() {
            sum.add(w.doubled);
        }
        let phalanx = (sq.bb().west() | sq.bb().east()) & ours;
        if our_attacks.has(sq) || phalanx.any() {
            sum.add(w.connected[rank]);
        }
        if (beside & ours).is_empty() {
            sum.add(w.isolated);
        } else if (beside & !span & ours).is_empty() && their_attacks.has(stop(sq, color)) {
            // Every neighbour has gone past it, and it cannot advance.
            sum.add(w.backward);
        }
        if (span & theirs).is_empty() && (front & ours).is_empty() {
            passed(pos, color, sq, front, sum);
        }
    }
}

/// The square in front of a pawn (it never stands on the last rank).
#[inline]
fn stop(sq: Square, color: Color) -> Square {
    sq.bb().forward(color).first().unwrap_or(sq)
}

/// A passed pawn of `color` on `sq`, with `front` the squares ahead of it.
fn passed(pos: &Position, color: Color, sq: Square, front: Bitboard, sum: &mut Sum) {
    let w = &CHESS;
    let rank = sq.relative_rank(color) as usize;
    sum.add(w.passed[rank]);
    // Past the fourth rank the race to promote is what matters.
    let weight = rank.saturating_sub(2) as Score;
    if weight == 0 {
        return;
    }
    let stop = stop(sq, color);
    let (theirs, ours) = w.passed_king_distance;
    sum.eg += weight
        * (theirs * Score::from(pos.king(color.flip()).distance(stop)).min(5)
            - ours * Score::from(pos.king(color).distance(stop)));
    if (front & pos.occupied()).is_empty() {
        sum.eg += weight * w.passed_free;
    }
}

/// The pawn shield before `color`'s king and the open files beside it;
/// middlegame only.
fn king_shelter(pos: &Position, color: Color, sum: &mut Sum) {
    let w = &CHESS;
    let ksq = pos.king(color);
    let ours = pos.pieces(color, PieceKind::Pawn);
    let one = ksq.bb().forward(color);
    let one = one | one.west() | one.east();
    let two = one.forward(color);
    sum.mg += w.shield[0] * (one & ours).count() as Score;
    sum.mg += w.shield[1] * (two & ours).count() as Score;
    for file in ksq.file().saturating_sub(1)..=(ksq.file() + 1).min(7) {
        if (file_bb(file) & ours).is_empty() {
            sum.mg += w.king_open_file;
        }
    }
}

/// Sixteenths of the endgame score the `stronger` side keeps: material
/// that cannot mate does not win, and bishops of opposite colours alone
/// draw often.
fn endgame_scale(pos: &Position, stronger: Color) -> Score {
    let weaker = stronger.flip();
    if pos.pieces(stronger, PieceKind::Pawn).is_empty() {
        let value = |color: Color| -> Score {
            [
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Queen,
            ]
            .iter()
            .map(|&k| CHESS.material[k.index()].1 * pos.pieces(color, k).count() as Score)
            .sum()
        };
        if value(stronger) - value(weaker) <= CHESS.material[PieceKind::Bishop.index()].1 {
            return 2;
        }
    }
    let minors_and_majors = |color: Color| pos.men(color) & !pos.pieces(color, PieceKind::Pawn);
    let bishops = [stronger, weaker].map(|c| pos.pieces(c, PieceKind::Bishop));
    let lone_bishops = bishops
        .iter()
        .zip([stronger, weaker])
        .all(|(&b, c)| b.count() == 1 && minors_and_majors(c) == b);
    if lone_bishops && is_light(bishops[0]) != is_light(bishops[1]) {
        return 8;
    }
    16
}

/// Whether the (one) square of `bb` is a light square.
#[inline]
fn is_light(bb: Bitboard) -> bool {
    const LIGHT: u64 = 0x55AA_55AA_55AA_55AA;
    bb.0 & LIGHT != 0
}

/// Squares in front of a pawn on its file and the two next to it, per
/// colour and square: where an enemy pawn would stop it.
static PASSED_SPAN: [[u64; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let files = (FILE_A << file)
            | if file > 0 { FILE_A << (file - 1) } else { 0 }
            | if file < 7 { FILE_A << (file + 1) } else { 0 };
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

#[cfg(test)]
mod tests {
    use super::super::rules::Rules;
    use super::*;

    fn eval(fen: &str) -> Score {
        evaluate(&Position::from_fen(fen, Rules::Chess).expect("valid FEN"))
    }

    /// Mirroring the board and the colours must give the same score.
    #[test]
    fn symmetric() {
        let fens = [
            (
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
                "r2qkb1r/pp3ppp/2n1pn2/2pp4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1 b kq - 0 8",
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "8/4p1p1/8/1r3P1K/kp5R/3P4/2P5/8 b - - 0 1",
            ),
        ];
        for (fen, mirrored) in fens {
            assert_eq!(eval(fen), eval(mirrored), "{fen}");
        }
    }

    #[test]
    fn terms_point_the_right_way() {
        // A pawn on the seventh, passed and free, beats one held back.
        assert!(eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") > eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1"));
        // A king behind its pawns beats one in front of them.
        assert!(
            eval("rnbq1rk1/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w - - 0 1")
                > eval("rnbq1rk1/pppppppp/8/8/8/6K1/PPPPPPPP/RNBQ1R2 w - - 0 1")
        );
        // A bare knight cannot win: nearly even.
        assert!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").abs() < 100);
    }
}
