//! The referee's openings file reader (`parse_openings`, what
//! `read_openings` does with the file's text) under every rule set.
#![no_main]

use antichess::chess::Rules;
use antichess::referee::match_::parse_openings;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in Rules::ALL {
        match parse_openings(text, "fuzz", rules) {
            Ok(openings) => assert!(!openings.is_empty()),
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
