//! The ChessForge engine protocol (`Engine::handle`), fed arbitrary text
//! line by line: no panic, and every non-blank, non-comment line answered
//! with one line. `go` is held to a small budget so one input stays quick.
#![no_main]

use antichess::chessforge::engine::{Engine, Reply};
use antichess::chessforge::solver::Budget;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut engine = Engine::new(u64::from(seed), Budget::Playouts(16));
    for line in text.lines().take(64) {
        let first = line.split_whitespace().next().unwrap_or("");
        let line = if first == "go" { "go 16" } else { line };
        match engine.handle(line) {
            Reply::Line(answer) => {
                assert!(!answer.is_empty());
                assert!(!answer.contains('\n'), "{answer:?}");
            }
            Reply::Silent => {
                assert!(first.is_empty() || first.starts_with('#'), "{line:?}");
            }
            Reply::Quit => break,
        }
    }
});
