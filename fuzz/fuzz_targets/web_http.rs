//! The web server's request reader: any bytes are read as a request head
//! or refused, never panicking, and an accepted head's body length is
//! within the limit asked for.
#![no_main]

use antichess::web::http::{BodyLength, HEAD_LIMIT, body_length, read_head};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut reader = std::io::BufReader::new(data);
    if let Ok(Some(head)) = read_head(&mut reader) {
        assert!(head.target.len() < HEAD_LIMIT);
        if let BodyLength::Bytes(n) = body_length(&head, 1000) {
            assert!(n <= 1000);
        }
        let _ = head.keep_alive();
    }
});
