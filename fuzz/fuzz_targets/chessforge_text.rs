//! The ChessForge board text form (`Board::from_str`): no panic, and
//! whatever it accepts writes back (`Display`) to text that reads as the
//! same board.
#![no_main]

use antichess::chessforge::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Board>() {
        Ok(board) => {
            let written = board.to_string();
            let again = written
                .parse::<Board>()
                .unwrap_or_else(|e| panic!("{written:?} written from {text:?} fails: {e}"));
            assert_eq!(board, again, "{text:?} -> {written:?}");
            assert_eq!(written, again.to_string());
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
