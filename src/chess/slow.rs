//! Slow, obviously-correct board geometry on raw `u64` bitboards.
//!
//! `build.rs` includes this file to generate the attack tables the move
//! generator uses, and the tests use it as the reference those tables are
//! checked against. It walks rays square by square and has no dependencies,
//! so that it can be read and trusted on its own.

/// File and rank steps of the rook's four rays.
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// File and rank steps of the bishop's four rays.
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The knight's eight jumps.
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// The king's eight steps.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square `steps` away from `sq`, if it is on the board.
pub fn offset(sq: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = (sq % 8) as i8 + df;
    let rank = (sq / 8) as i8 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// Squares a slider on `sq` attacks along `dirs`, stopping at (and
/// including) the first occupied square of each ray.
pub fn slider_attacks(sq: u8, occupied: u64, dirs: &[(i8, i8)]) -> u64 {
    let mut attacks = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, dir) {
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// Squares a leaper on `sq` reaches with the given jumps.
pub fn leaper_attacks(sq: u8, jumps: &[(i8, i8)]) -> u64 {
    jumps
        .iter()
        .filter_map(|&j| offset(sq, j))
        .fold(0, |bb, to| bb | 1 << to)
}

/// Squares a pawn of the given colour (`white`) on `sq` attacks.
pub fn pawn_attacks(sq: u8, white: bool) -> u64 {
    let dr = if white { 1 } else { -1 };
    leaper_attacks(sq, &[(-1, dr), (1, dr)])
}

/// The relevant-occupancy mask of a magic slider: the rays without the
/// board edge at their far end, since a blocker there changes nothing.
pub fn relevant_mask(sq: u8, dirs: &[(i8, i8)]) -> u64 {
    let mut mask = 0;
    for &dir in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, dir) {
            if offset(next, dir).is_none() {
                break;
            }
            mask |= 1 << next;
            cur = next;
        }
    }
    mask
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
pub fn between(a: u8, b: u8) -> u64 {
    for dir in ROOK_DIRS.iter().chain(BISHOP_DIRS.iter()) {
        let mut cur = a;
        let mut squares = 0;
        while let Some(next) = offset(cur, *dir) {
            if next == b {
                return squares;
            }
            squares |= 1 << next;
            cur = next;
        }
    }
    0
}

/// The whole line (edge to edge) through `a` and `b`, if they share one.
pub fn line(a: u8, b: u8) -> u64 {
    for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
        if slider_attacks(a, 0, dirs) & (1 << b) != 0 {
            return (slider_attacks(a, 0, dirs) & slider_attacks(b, 0, dirs)) | 1 << a | 1 << b;
        }
    }
    0
}
