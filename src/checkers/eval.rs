//! The static evaluation, and the [`Game`] implementation that lets the
//! shared search play checkers.
//!
//! The evaluation is deliberately plain: material (a king is worth about a
//! man and a third), men's progress towards the crowning row, a guarded
//! back row while the opponent still has men to crown, central squares,
//! kings kept off the edges, and a push to trade down when ahead. Captures
//! are compulsory, so the search's quiescence on jumps settles the tactics.

use super::board::{Bits, Color, Position, Square, spread};
use super::movegen::Move;
use crate::search::{Game, MoveList, Outcome, Score, SearchParams};

const MAN: Score = 100;
const KING: Score = 135;

/// Bonus per row a man has advanced (rows 1..6 from its start).
const ADVANCE: Score = 3;

/// A man still on its own back row, while the opponent has men to crown.
const BACK_GUARD: Score = 8;

/// A piece on one of the eight central squares.
const CENTER: Score = 4;

/// A king on the edge of the board.
const KING_EDGE: Score = 6;

/// Per square of distance between a king of the side ahead and its
/// nearest prey, once few pieces are left.
const HUNT: Score = 3;

/// Pieces on the board at or below which the side ahead hunts.
const HUNT_PIECES: u32 = 10;

/// Squares 10, 11, 14, 15, 18, 19, 22, 23.
const CENTER_SQUARES: u64 = spread(0x0066_6600);

/// The left and right edge squares (5, 13, 21, 29 and 4, 12, 20, 28).
const EDGES: u64 = spread(0x1010_1010 | 0x0808_0808);

/// Black's and White's back rows.
const BLACK_BACK: u64 = spread(0x0000_000F);
const WHITE_BACK: u64 = spread(0xF000_0000);

/// Ghost-layout mask of each row from the top.
const ROWS: [u64; 8] = {
    let mut rows = [0; 8];
    let mut r = 0;
    while r < 8 {
        rows[r] = spread(0xF << (4 * r));
        r += 1;
    }
    rows
};

/// Evaluation of `color`'s pieces alone (positional terms and material).
fn side_terms(p: &Position, color: Color) -> Score {
    let own = p.pieces[color.index()];
    let opp = p.pieces[color.opponent().index()];
    let men = own & !p.kings;
    let kings = own & p.kings;
    let mut score = MAN * men.count_ones() as Score + KING * kings.count_ones() as Score;
    for (r, row) in ROWS.iter().enumerate() {
        let advanced = match color {
            Color::Black => r,
            Color::White => 7 - r,
        };
        score += ADVANCE * advanced as Score * (men & row).count_ones() as Score;
    }
    let back = if color == Color::Black {
        BLACK_BACK
    } else {
        WHITE_BACK
    };
    if opp & !p.kings != 0 {
        score += BACK_GUARD * (men & back).count_ones() as Score;
    }
    score += CENTER * (own & CENTER_SQUARES).count_ones() as Score;
    score -= KING_EDGE * (kings & EDGES).count_ones() as Score;
    score
}

/// Material of one side in men-equivalents ×100.
fn material(p: &Position, color: Color) -> Score {
    let (men, kings) = p.count(color);
    MAN * men as Score + KING * kings as Score
}

/// Sum over `hunter`'s kings of the king-step distance to the nearest
/// piece of `prey`: the side ahead must close in to win, and without this
/// term kings circle at a safe distance until the game is drawn.
fn hunt_distance(p: &Position, hunter: Color) -> Score {
    let place = |b: u64| {
        let s = Square::from_bit_index(b.trailing_zeros());
        (s.row() as i32, s.column() as i32)
    };
    let prey = p.pieces[hunter.opponent().index()];
    Bits(p.pieces[hunter.index()] & p.kings)
        .map(|k| {
            let (kr, kc) = place(k);
            Bits(prey)
                .map(|t| {
                    let (tr, tc) = place(t);
                    (kr - tr).abs().max((kc - tc).abs())
                })
                .min()
                .unwrap_or(0)
        })
        .sum()
}

/// Static evaluation from the side to move's point of view.
pub fn evaluate(p: &Position) -> Score {
    let us = p.side_to_move();
    let mut score = side_terms(p, us) - side_terms(p, us.opponent());
    // Trading down when ahead brings the win closer: scale the lead by how
    // empty the board is.
    let (mine, theirs) = (material(p, us), material(p, us.opponent()));
    let total = (mine + theirs).max(1);
    score += (mine - theirs) * 2 * MAN / total;
    let pieces = (p.pieces[0] | p.pieces[1]).count_ones();
    if mine != theirs && pieces <= HUNT_PIECES {
        let ahead = if mine > theirs { us } else { us.opponent() };
        let hunt = HUNT * hunt_distance(p, ahead);
        score += if ahead == us { -hunt } else { hunt };
    }
    score
}

impl Game for Position {
    type Move = Move;

    fn key(&self) -> u64 {
        self.key
    }

    fn generate(&self, moves: &mut MoveList<Move>) {
        Position::generate(self, moves);
    }

    fn play(&self, mv: Move) -> Self {
        Position::play(self, mv)
    }

    fn outcome(&self, moves: &[Move]) -> Option<Outcome> {
        // No draw rule in the handout's game: only running out of moves
        // ends it on the board.
        moves.is_empty().then_some(Outcome::Loss)
    }

    fn evaluate(&self) -> Score {
        evaluate(self)
    }

    fn in_check(&self) -> bool {
        false
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        // More pieces first, then more kings among them.
        let kings = (spread(mv.taken_mask()) & self.kings).count_ones() as i32;
        16 * mv.captures() as i32 + kings
    }

    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * 32 + mv.to().index()
    }

    fn reversible_plies(&self) -> u32 {
        self.quiet_plies()
    }

    /// Checkers keeps the search it was measured with: none of the
    /// static-evaluation cuts, whose margins fit the chess-board scores,
    /// and no internal iterative reduction (measured on chess boards only).
    fn search_params(&self) -> SearchParams {
        SearchParams {
            rfp_depth: 0,
            lmp_depth: 0,
            iir_depth: 0,
            ..*crate::search::params()
        }
    }

    fn pack(mv: Move) -> u16 {
        let ends = mv.from().index() as u32 | (mv.to().index() as u32) << 5;
        (ends | (mv.route_hash() & 0x3F) << 10) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_balanced_and_symmetric() {
        assert_eq!(evaluate(&Position::initial()), 0);
        // Mirror a position through the centre, swapping colours: the
        // score for the side to move must not change.
        let p = Position::from_pdn("B:W18,23,K30:B6,K10,12").unwrap();
        let q = Position::from_pdn("W:W21,K23,27:BK3,10,15").unwrap();
        assert_eq!(evaluate(&p), evaluate(&q));
    }

    #[test]
    fn material_dominates() {
        let up = Position::from_pdn("B:W30,31:B1,2,3").unwrap();
        assert!(evaluate(&up) > 80);
        assert!(evaluate(&Position::from_pdn("W:W30,31:B1,2,3").unwrap()) < -80);
    }

    #[test]
    fn the_side_ahead_closes_in() {
        let far = Position::from_pdn("W:WK26,K30:BK4").unwrap();
        let near = Position::from_pdn("W:WK7,K30:BK4").unwrap();
        assert!(evaluate(&near) > evaluate(&far));
    }

    #[test]
    fn packed_codes_differ_for_the_two_routes() {
        let p = Position::from_pdn("W:WK15:B9,10,17,18").unwrap();
        let moves = p.legal_moves();
        let codes: Vec<u16> = moves.iter().map(|&m| <Position as Game>::pack(m)).collect();
        for (i, a) in codes.iter().enumerate() {
            assert!(!codes[i + 1..].contains(a), "{moves:?} {codes:?}");
        }
    }
}
