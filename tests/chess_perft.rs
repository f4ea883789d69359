//! Perft against published numbers: the standard chess suite (start
//! position, Kiwipete and the other positions of the Chess Programming
//! Wiki's perft page) and the antichess start position as Fairy-Stockfish
//! counts it with the 6.170 configuration.

use antichess::chess::{Position, Rules, perft};

fn check(rules: Rules, fen: &str, expected: &[u64]) {
    let pos = Position::from_fen(fen, rules).expect("test FEN is valid");
    for (i, &want) in expected.iter().enumerate() {
        let depth = i as u32 + 1;
        assert_eq!(perft(&pos, depth), want, "{rules} perft {depth} of {fen}");
    }
}

macro_rules! perft_tests {
    ($($name:ident: $rules:expr, $fen:expr, [$($n:expr),* $(,)?];)*) => {$(
        #[test]
        fn $name() {
            check($rules, $fen, &[$($n),*]);
        }
    )*};
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

perft_tests! {
    chess_start: Rules::Chess, START, [20, 400, 8902, 197_281, 4_865_609];
    kiwipete: Rules::Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2039, 97_862, 4_085_603];
    position3: Rules::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        [14, 191, 2812, 43_238, 674_624];
    position4: Rules::Chess, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        [6, 264, 9467, 422_333, 15_833_292];
    position4_mirrored: Rules::Chess, "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        [6, 264, 9467, 422_333];
    position5: Rules::Chess, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        [44, 1486, 62_379, 2_103_487];
    position6: Rules::Chess, "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        [46, 2079, 89_890, 3_894_594];
    // Depths 1-4 from pyffish with scripts/antichess_variants.ini; the
    // deepest figure of each is the one the core issue publishes.
    antichess_start: Rules::Antichess, START, [20, 400, 8067, 152_955];
    antichess1994_start: Rules::Antichess1994, START, [12, 144, 2042, 27_700];
}

#[test]
fn antichess_start_depth_6() {
    let pos = Position::startpos(Rules::Antichess);
    assert_eq!(perft(&pos, 6), 46_157_327);
}

#[test]
fn antichess1994_start_depth_7() {
    let pos = Position::startpos(Rules::Antichess1994);
    assert_eq!(perft(&pos, 7), 63_358_526);
}
