//! Running `antichess match` and reading its summary, for the referee's
//! tests of the chess-board and checkers matches.

use std::process::{Command, Output};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_antichess");

/// An engine that misbehaves as its first argument says.
pub const BAD_ENGINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bad_engine.sh");

/// An engine wrapper that notes each start in a log.
pub const COUNTING_ENGINE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/counting_engine.sh"
);

/// Runs `antichess match ARGS`, which must succeed: its stdout and stderr.
pub fn run_match(args: &[&str]) -> (String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(BIN).arg("match").args(args).output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert!(status.success(), "match failed:\n{out}\n{err}");
    (out, err)
}

/// The counts of a faults-table row, in the order illegal move, malformed
/// answer, crash, hang, flag.
pub fn faults(summary: &str, player: &str) -> Vec<u32> {
    let row = summary
        .lines()
        .skip_while(|l| *l != "Faults:")
        .find(|l| l.trim_start().starts_with(player))
        .unwrap_or_else(|| panic!("no faults row for {player} in\n{summary}"));
    let words: Vec<&str> = row.split_whitespace().collect();
    words[words.len() - 5..]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect()
}

/// A state line without its `"clocks":[...]` field (wall time).
pub fn without_clocks(line: &str) -> String {
    match line.find("\"clocks\":[") {
        Some(at) => {
            let end = at + line[at..].find(']').unwrap() + 1;
            format!("{}{}", &line[..at], &line[end..])
        }
        None => line.to_string(),
    }
}
