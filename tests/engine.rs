//! The engine run in-process on byte streams: one answer per command
//! whatever the input, no panic and no hang on junk, and the end of input
//! ending even a search only `stop` could end.

mod common;

use antichess::engine;
use common::output::Shared;

/// Runs the engine on `input` and returns its answer lines.
fn answers(input: &[u8]) -> Vec<String> {
    let out = Shared::default();
    engine::run(input, out.clone()).expect("the engine runs and ends cleanly");
    let bytes = out.bytes();
    String::from_utf8(bytes)
        .expect("answers are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// A tiny deterministic generator for the junk.
struct Junk(u64);

impl Junk {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

#[test]
fn one_answer_per_command_line() {
    let lines = [
        "name",
        "board",
        "perft 2",
        "play e2-e4",
        "play e2-e4",
        "frobnicate",
        "moves",
        "set level 1",
        "move - 1000 1000",
        "move e2-e4 1000 1000",
        "set seed x",
        "go depth 2",
        "new black 2",
        "move e2-e3 500 500",
        "board",
    ];
    let input = lines.join("\n");
    let got = answers(input.as_bytes());
    assert_eq!(got.len(), lines.len(), "{got:#?}");
    assert!(
        got[4].starts_with("error illegal move 'e2-e4'"),
        "{}",
        got[4]
    );
    assert!(got[13].starts_with("move "), "{}", got[13]);
}

/// Sends `prelude` and then 400 lines of junk made of `words` and raw
/// bytes; every line must get one answer, and `isready` the last.
fn survives_junk(seed: u64, prelude: &[u8], words: &[&[u8]]) {
    let mut junk = Junk(seed);
    let mut input = prelude.to_vec();
    let mut commands = prelude.iter().filter(|&&b| b == b'\n').count();
    for _ in 0..400 {
        let mut line = Vec::new();
        for _ in 0..junk.next() % 6 {
            if junk.next().is_multiple_of(3) {
                // Raw bytes, newlines excluded, so the line count is known.
                line.extend(
                    (0..junk.next() % 8)
                        .map(|_| (junk.next() % 256) as u8)
                        .filter(|&b| b != b'\n'),
                );
            } else {
                line.extend_from_slice(words[(junk.next() % words.len() as u64) as usize]);
            }
            line.push(b' ');
        }
        // Keep clear of perft depths and searches that would take long.
        let text = String::from_utf8_lossy(&line);
        let first = text.split_whitespace().next().unwrap_or("");
        if first.is_empty() || first.starts_with('#') || first == "go" || first == "perft" {
            continue;
        }
        commands += 1;
        input.extend_from_slice(&line);
        input.push(b'\n');
    }
    input.extend_from_slice(b"isready");
    let got = answers(&input);
    assert_eq!(got.len(), commands + 1);
    assert_eq!(got.last().map(String::as_str), Some("readyok"));
}

#[test]
fn junk_never_stops_the_engine() {
    // Level 1 keeps the `move` lines that happen to be valid instant.
    survives_junk(
        2024,
        b"set level 1\n",
        &[
            b"new", b"move", b"play", b"go", b"set", b"perft", b"board", b"-", b"e2-e4", b"white",
            b"1000", b"fen",
        ],
    );
}

#[test]
fn junk_never_stops_the_engine_at_checkers() {
    survives_junk(
        61,
        b"set rules checkers\nset level 1\n",
        &[
            b"new",
            b"move",
            b"play",
            b"set",
            b"rules",
            b"checkers",
            b"board",
            b"-",
            b"11-15",
            b"18-11-4",
            b"black",
            b"1000",
            b"fen",
            b"W:WK1,K6,17:B11,12,20,K27,K29",
            b"bbbbbbbbbbbb........wwwwwwwwwwww",
            b"b",
        ],
    );
}

#[test]
fn end_of_input_stops_an_infinite_search() {
    let got = answers(b"uci\nposition startpos\ngo infinite\n");
    assert!(
        got.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{got:?}"
    );
}

#[test]
fn quit_ends_at_once_and_ignores_the_rest() {
    let got = answers(b"go movetime 600000\nquit\nname\n");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].starts_with("bestmove "), "{got:?}");
}

#[test]
fn stop_ends_only_the_searches_before_it() {
    // The second search is sent after `stop` and must run to its depth.
    let got = answers(b"uci\ngo infinite\nstop\ngo depth 2\n");
    let bestmoves = got.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 2, "{got:?}");
    let last_depth = got.iter().rev().find(|l| l.starts_with("info depth"));
    assert!(
        last_depth.is_some_and(|l| l.starts_with("info depth 2 ")),
        "{got:?}"
    );
}
