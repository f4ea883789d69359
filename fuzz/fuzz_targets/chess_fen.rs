//! `Position::from_fen` under every rule set: no panic, and whatever it
//! accepts writes back (`fen`) to a FEN that reads as the same position.
#![no_main]

use antichess::chess::{Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in Rules::ALL {
        match Position::from_fen(text, rules) {
            Ok(pos) => {
                let fen = pos.fen();
                let again = Position::from_fen(&fen, rules)
                    .unwrap_or_else(|e| panic!("{fen:?} written from {text:?} fails: {e}"));
                assert_eq!(pos, again, "{text:?} -> {fen:?}");
                assert_eq!(fen, again.fen());
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
