//! The checkers one-line board `Position::from_line`: no panic, and
//! whatever it accepts writes back (`to_line`, `to_pdn`) to text that
//! reads as the same position.
#![no_main]

use antichess::checkers::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Position::from_line(text) {
        Ok(pos) => {
            let line = pos.to_line();
            let again = Position::from_line(&line)
                .unwrap_or_else(|e| panic!("{line:?} written from {text:?} fails: {e}"));
            assert!(pos == again, "{text:?} -> {line:?}");
            assert_eq!(line, again.to_line());
            let pdn = pos.to_pdn();
            let again = Position::from_pdn(&pdn)
                .unwrap_or_else(|e| panic!("{pdn:?} written from {text:?} fails: {e}"));
            assert!(pos == again, "{text:?} -> {pdn:?}");
            let _ = pos.to_picture();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
