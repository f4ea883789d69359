//! The terminal front end's command parsers: the game commands, the setup
//! commands and the time format. No panic; refusals have a message.
#![no_main]

use antichess::play::commands::{parse, parse_setup, parse_time};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Err(e) = parse(line) {
            assert!(!e.to_string().is_empty());
        }
        if let Err(e) = parse_setup(line) {
            assert!(!e.to_string().is_empty());
        }
        for word in line.split_whitespace() {
            if let Some(ms) = parse_time(word) {
                assert!(ms <= 1_000_000_000_000, "{word:?} -> {ms}");
            }
        }
    }
});
