//! `Position::parse_move` on valid positions: the first byte picks a
//! position and rule set, the rest is whitespace-separated moves played in
//! turn. Every move accepted must be legal; every refusal must explain
//! itself without panicking; and the FEN of each position reached must
//! read back as that position.
#![no_main]

use antichess::chess::{Position, Rules};
use antichess::search::MoveList;
use libfuzzer_sys::fuzz_target;

/// Positions with castling, en passant, promotions and checks at hand.
const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/1P4k1/8/8/8/8/1p4K1/8 w - - 0 1",
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = Rules::ALL[usize::from(choice) % Rules::ALL.len()];
    let fen = FENS[usize::from(choice / 4) % FENS.len()];
    let Ok(mut pos) = Position::from_fen(fen, rules) else {
        // Not every position suits every rule set.
        return;
    };
    // The whole input as one move, as a protocol would pass a word.
    let _ = pos.parse_move(text).map_err(|e| e.to_string());
    for word in text.split_whitespace().take(64) {
        match pos.parse_move(word) {
            Ok(mv) => {
                let mut legal = MoveList::new();
                pos.legal_moves(&mut legal);
                assert!(legal.contains(&mv), "{word:?} accepted in {}", pos.fen());
                pos = pos.play(mv);
                let written = pos.fen();
                let again = Position::from_fen(&written, rules)
                    .unwrap_or_else(|e| panic!("{written:?} fails: {e}"));
                assert_eq!(pos, again, "{written:?}");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
