//! The learned correction's weights file: no panic on any text, and every
//! file it accepts reads back the same after writing.
#![no_main]

use antichess::chess::net::Net;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Net::parse(text) {
        Ok(net) => assert_eq!(Net::parse(&net.to_text()).as_ref(), Ok(&net)),
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
