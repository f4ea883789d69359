//! The checkers transcript reader: no panic, and whatever it accepts
//! writes back to a transcript that reads as the same game.
#![no_main]

use antichess::checkers::{read_transcript, write_transcript};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match read_transcript(text) {
        Ok(record) => {
            let written = write_transcript(&record);
            let again = read_transcript(&written)
                .unwrap_or_else(|e| panic!("{written:?} written from {text:?} fails: {e}"));
            assert_eq!(record.actions(), again.actions(), "{text:?} -> {written:?}");
            assert_eq!(record.result(), again.result(), "{text:?} -> {written:?}");
            assert!(record.position() == again.position());
            assert_eq!(written, write_transcript(&again));
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
