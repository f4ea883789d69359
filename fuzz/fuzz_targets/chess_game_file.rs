//! `GameFile::parse` under every rule set: no panic, and whatever it
//! accepts writes back, multi-line and on one line, to a file that reads
//! as the same game file.
#![no_main]

use antichess::chess::{GameFile, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for rules in Rules::ALL {
        match GameFile::parse(text, rules) {
            Ok(file) => {
                for separator in ["\n", " "] {
                    let written = file.write(separator);
                    let again = GameFile::parse(&written, rules)
                        .unwrap_or_else(|e| panic!("{written:?} written from {text:?} fails: {e}"));
                    assert_eq!(file, again, "{text:?} -> {written:?}");
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
