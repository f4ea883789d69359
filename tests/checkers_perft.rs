//! Perft against the published tables: from the start position, and from a
//! position full of kings (white to move).

use antichess::checkers::{Position, perft};

#[test]
fn perft_start_position() {
    let expected = [
        7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128,
    ];
    let start = Position::initial();
    // Depth 11 takes a few seconds unoptimised; debug runs stop at 8.
    let deepest = if cfg!(debug_assertions) { 8 } else { 11 };
    for (depth, &nodes) in (1..=deepest).zip(expected.iter()) {
        assert_eq!(perft(&start, depth), nodes, "depth {depth}");
    }
}

#[test]
fn perft_kings_position() {
    let expected = [6, 54, 362, 2918, 16940, 137178, 810498];
    let p = Position::from_pdn("W:WK1,K6,17:B11,12,20,K27,K29").unwrap();
    for (depth, &nodes) in (1..).zip(expected.iter()) {
        assert_eq!(perft(&p, depth), nodes, "depth {depth}");
    }
}
