//! The engine's command parser, both protocols, one line at a time: no
//! panic, and every refusal has a message.
#![no_main]

use antichess::engine::command::{Protocol, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As the reader hands lines over: lossily decoded, split at newlines.
    let text = String::from_utf8_lossy(data);
    for line in text.split('\n') {
        for protocol in [Protocol::Line, Protocol::Uci] {
            match parse(line, protocol) {
                Ok(command) => {
                    let _ = format!("{command:?}");
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
});
