//! The web board's handlers behind HTTP: any method, path, query and body
//! (as the server hands them over) answers a response or a 4xx/503
//! refusal, never a panic. Games made on the way are kept in memory only.
#![no_main]

use antichess::web::App;
use antichess::web::server::{Method, Request, route};
use libfuzzer_sys::fuzz_target;
use once_cell::sync::Lazy;

static APP: Lazy<App> = Lazy::new(App::new);

fuzz_target!(|data: &[u8]| {
    let Some((&method, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut parts = text.splitn(3, '\n');
    let path = parts.next().unwrap_or("").to_string();
    let query = parts.next().unwrap_or("").to_string();
    let body = parts.next().unwrap_or("").as_bytes().to_vec();
    let request = Request {
        method: match method % 3 {
            0 => Method::Get,
            1 => Method::Post,
            _ => Method::Other,
        },
        path,
        query,
        body,
        json: method & 4 == 0,
    };
    match route(&APP, &request) {
        Ok(response) => assert!(response.status < 400),
        Err(e) => assert!((400..600).contains(&e.status), "{e}"),
    }
});
