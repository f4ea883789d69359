//! The referee's opening book readers (what `read_book` does with a file's
//! text: one position a line, FEN, EPD or game file; or PGN games) under
//! every chess-board rule set, and the checkers book reader (move lists
//! a line, or PDN games).
#![no_main]

use antichess::chess::Rules;
use antichess::referee::checkers_book::parse_book;
use antichess::referee::openings::{parse_lines, parse_pgn_book};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in Rules::ALL {
        for read in [parse_lines, parse_pgn_book] {
            match read(text, "fuzz", rules) {
                Ok(openings) => assert!(!openings.is_empty()),
                Err(e) => assert!(!e.is_empty()),
            }
        }
    }
    match parse_book(text, "fuzz") {
        Ok(openings) => assert!(!openings.is_empty()),
        Err(e) => assert!(!e.is_empty()),
    }
});
