//! Pawn structure as sets of squares: which pawns have no enemy pawn left
//! to stop them. The antichess evaluation counts them (`eval.rs`); a
//! dozen shifts, so no cache is kept. (Pawns doubled on a file, and pawns
//! with no neighbour, were fitted too, and foretold nothing of self-play
//! games on held-out openings: docs/strength-log.md, forty-fourth
//! session.)

use super::types::{Bitboard, Color};

/// Every square ahead of a man of `set` on its file, from `color`'s side
/// (the men's own squares left out).
#[inline]
fn ahead(set: Bitboard, color: Color) -> Bitboard {
    let b = set.0;
    Bitboard(match color {
        Color::White => {
            let fill = b << 8;
            let fill = fill | fill << 8;
            let fill = fill | fill << 16;
            fill | fill << 32
        }
        Color::Black => {
            let fill = b >> 8;
            let fill = fill | fill >> 8;
            let fill = fill | fill >> 16;
            fill | fill >> 32
        }
    })
}

/// `color`'s pawns (`pawns`) with no enemy pawn (`enemies`) ahead of them
/// on their file or a neighbouring one: nothing but pieces can stop them
/// from promoting.
#[inline]
pub fn passed(pawns: Bitboard, enemies: Bitboard, color: Color) -> Bitboard {
    let front = ahead(enemies, color.flip());
    pawns & !(front | front.west() | front.east())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::types::Square;

    fn set(squares: &[&str]) -> Bitboard {
        squares.iter().fold(Bitboard::EMPTY, |b, s| {
            b | Square::parse(s).map_or(Bitboard::EMPTY, Square::bb)
        })
    }

    /// Whether a man of `set` makes `test` hold.
    fn some(set: Bitboard, test: impl Fn(Square) -> bool) -> bool {
        // `Bitboard::any` (is the set non-empty) hides the iterator's.
        let mut squares = set;
        Iterator::any(&mut squares, test)
    }

    /// The men of `set` for which `keep` holds.
    fn only(set: Bitboard, keep: impl Fn(Square) -> bool) -> Bitboard {
        set.filter(|&sq| keep(sq))
            .fold(Bitboard::EMPTY, |b, sq| b | sq.bb())
    }

    /// Passed pawns against a slow reference, square by square along the
    /// files, on random boards.
    #[test]
    fn sets_match_a_square_by_square_reference() {
        let mut rng = crate::rng::Xoshiro::new(11);
        for _ in 0..2000 {
            let ranks = 0x00FF_FFFF_FFFF_FF00;
            let white = Bitboard(rng.next_u64() & rng.next_u64() & ranks);
            let black = Bitboard(rng.next_u64() & rng.next_u64() & ranks & !white.0);
            for (color, ours, theirs) in
                [(Color::White, white, black), (Color::Black, black, white)]
            {
                let up = |a: Square, b: Square| match color {
                    Color::White => b.rank() > a.rank(),
                    Color::Black => b.rank() < a.rank(),
                };
                let slow_passed = only(ours, |p| {
                    !some(theirs, |q| q.file().abs_diff(p.file()) <= 1 && up(p, q))
                });
                assert_eq!(
                    passed(ours, theirs, color),
                    slow_passed,
                    "{ours:?} {theirs:?}"
                );
            }
        }
    }

    #[test]
    fn a_position_counted_by_hand() {
        let white = set(&["a2", "a4", "c3", "e4", "h5"]);
        let black = set(&["b5", "e5", "g4"]);
        // h5 is past g4, which is past every White pawn of its files.
        assert_eq!(passed(white, black, Color::White), set(&["h5"]));
        assert_eq!(passed(black, white, Color::Black), set(&["g4"]));
    }
}
