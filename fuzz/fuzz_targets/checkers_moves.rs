//! Checkers `Position::parse_move` and `Record::parse_action` on valid
//! positions: the first byte picks a start, the rest is whitespace-
//! separated entries played in turn. Whatever is accepted must be legal.
#![no_main]

use antichess::checkers::{Action, Position, Record};
use libfuzzer_sys::fuzz_target;

/// Starts with kings, multiple jumps and crowning at hand.
const PDNS: [&str; 4] = [
    "B:W21-32:B1-12",
    "W:WK1,K6,17:B11,12,20,K27,K29",
    "B:W6,7,14,15,22,23:B1,K10",
    "W:W5,9,K30:B14,22,23,26",
];

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // Moves on a position alone.
    let pdn = PDNS[usize::from(choice) % PDNS.len()];
    let mut pos = Position::from_pdn(pdn).expect("a valid start");
    let _ = pos.parse_move(text).map_err(|e| e.to_string());
    for word in text.split_whitespace().take(64) {
        match pos.parse_move(word) {
            Ok(mv) => {
                assert!(pos.legal_moves().contains(&mv), "{word:?}");
                pos = pos.play(mv);
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    // Entries, special moves included, in a game record.
    let mut record = Record::new();
    for word in text.split_whitespace().take(64) {
        match record.parse_allowed(word) {
            Ok(action) => {
                if let Action::Move(mv) = action {
                    assert!(record.position().legal_moves().contains(&mv), "{word:?}");
                }
                record.apply(action).expect("an allowed action applies");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
