//! The engine answers in order: each command's answer comes before the
//! answer to any later command, so `readyok` follows the error of a
//! refused command. The one exception, a search that has begun (its
//! `move` or `bestmove` may follow `readyok`), is the only reordering
//! allowed here. Also `help`, and `perft` in checkers: published counts,
//! and `stop` and `quit` ending a count that would take hours.

mod common;

use antichess::engine;
use common::output::Shared;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The answers to `input`, without UCI's `info depth` lines.
fn answers(input: &str) -> Vec<String> {
    let out = Shared::default();
    engine::run(input.as_bytes(), out.clone()).expect("the engine runs and ends cleanly");
    let bytes = out.bytes();
    String::from_utf8(bytes)
        .expect("answers are UTF-8")
        .lines()
        .filter(|l| !l.starts_with("info depth"))
        .map(str::to_string)
        .collect()
}

fn is_search_answer(line: &str) -> bool {
    line.starts_with("move ") || line.starts_with("bestmove ")
}

/// Sends each command followed by `isready`, and checks that the answers
/// come exactly in order: the answer starting with the expected prefix
/// (`None`: the command has no answer), then `readyok`. Only a search's
/// answer may come after its `readyok`.
fn check_order(protocol_prelude: &[&str], script: &[(&str, Option<&str>)]) {
    let mut input = String::new();
    for line in protocol_prelude {
        input.push_str(line);
        input.push('\n');
    }
    let mut expected = Vec::new();
    for &(command, answer) in script {
        input.push_str(command);
        input.push_str("\nisready\n");
        expected.extend(answer);
        expected.push("readyok");
    }
    // Races show only now and then: run the stream several times.
    for round in 0..10 {
        let mut got = answers(&input);
        got.drain(..got.len().saturating_sub(expected.len()));
        assert_eq!(got.len(), expected.len(), "round {round}: {got:#?}");
        let fits = |i: usize, j: usize| got[i].starts_with(expected[j]);
        let mut i = 0;
        while i < got.len() {
            // A search may answer after the `readyok` that follows it.
            let swapped = is_search_answer(expected[i])
                && got[i] == "readyok"
                && i + 1 < got.len()
                && fits(i + 1, i);
            if swapped {
                i += 2;
                continue;
            }
            assert!(
                fits(i, i),
                "round {round}: expected '{}...', got '{}' in {got:#?}",
                expected[i],
                got[i]
            );
            i += 1;
        }
    }
}

#[test]
fn line_protocol_answers_keep_their_order() {
    check_order(
        &[],
        &[
            ("move e2-e5 200 200", Some("error illegal move 'e2-e5'")),
            ("move <junk> 200 200", Some("error illegal move '<junk>'")),
            ("name", Some("name antichess ")),
            ("frobnicate", Some("error unknown command 'frobnicate'")),
            ("new white 1", Some("ok")),
            ("move e7-e5 1000 1000", Some("error it is white's turn")),
            ("move - 1000 1000", Some("move ")),
            ("play e2-e4", Some("error")),
            ("set level 99", Some("error the level must be")),
            ("set level 4", Some("ok")),
            ("go depth 2", Some("bestmove ")),
            ("perft 2", Some("perft 2 ")),
            ("perft 99", Some("error the perft depth must be")),
            ("new black 0 fen nonsense", Some("error bad FEN")),
            ("moves", Some("moves ")),
            ("help", Some("help name isready")),
            ("board", Some("board black ")),
            ("# a comment", None),
            ("set rules checkers", Some("ok")),
            ("play 11-14", Some("error illegal move '11-14'")),
            ("move 9-13 1000 1000", Some("move ")),
            ("perft 3", Some("perft 3 ")),
        ],
    );
}

#[test]
fn uci_answers_keep_their_order() {
    check_order(
        &["uci"],
        &[
            (
                "position startpos moves e2e4 zz",
                Some("info string error: "),
            ),
            ("position startpos moves e2e4 d7d5", None),
            ("setoption name Hash value 0", Some("info string error: ")),
            ("go perft 3", Some("perft 3 29")),
            ("go depth 3", Some("bestmove ")),
            (
                "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                Some("info string error: "),
            ),
            ("go depth 2", Some("bestmove e4d5")),
            ("help", Some("info string commands: uci isready")),
            ("ucinewgame", None),
        ],
    );
}

#[test]
fn help_lists_the_commands_on_one_line() {
    let got = answers("help\nhelp me\nuci\nhelp\n");
    assert_eq!(
        got[0],
        "help name isready new move play board moves perft go set stop uci help quit"
    );
    assert_eq!(got[1], "error help expects: help");
    assert!(
        got.last()
            .is_some_and(|l| l.starts_with("info string commands: ")),
        "{got:?}"
    );
}

#[test]
fn a_finished_game_lists_no_moves_in_the_protocol() {
    // Issue 10: after a1-h1 White has nothing but the king and has won.
    let got = answers(
        "new black 0 fen k7/p7/8/8/8/8/8/r3K2N w - - 0 1\nmove e1-e2 1000 1000\n\
         moves\nperft 3\nplay e2-d2\nmove e2-d2 1000 1000\ngo depth 3\n\
         uci\nposition fen k7/p7/8/8/8/8/4K3/r6N b - - 1 1 moves a1h1\nmoves\ngo perft 2\ngo depth 3\n",
    );
    let expected = [
        "ok",
        "move a1-h1",
        "moves",
        "perft 3 0",
        "error the game is over: 1-0 bare-king",
        "result 1-0 bare-king",
        "result 1-0 bare-king",
    ];
    assert_eq!(got[..expected.len()], expected, "{got:#?}");
    let uci = &got[got.len() - 3..];
    assert_eq!(uci, ["moves", "perft 2 0", "bestmove 0000"], "{got:#?}");
}

#[test]
fn checkers_perft_goes_past_depth_7() {
    // The published count (Aart Bik's table), which `checkers --perft`
    // checks too.
    // `isready` holds the reader back until the count is done, so that
    // the `stop` meant for the second count cannot end the first.
    let got = answers("set rules checkers\nperft 9\nisready\nperft 64\nstop\nperft 65\n");
    assert_eq!(got[1..3], ["perft 9 3963680", "readyok"]);
    // 64 plies is accepted (and stopped: it would never finish), 65 not.
    assert_eq!(got[3], "error perft 64 stopped before it finished");
    assert!(
        got[4].starts_with("error the perft depth must be a whole number in 0..=64"),
        "{got:?}"
    );
}

#[test]
fn stop_ends_a_perft_sent_before_it_even_if_queued() {
    let got = answers("set rules checkers\nperft 30\nstop\nisready\nperft 2\n");
    assert_eq!(
        got,
        [
            "ok",
            "error perft 30 stopped before it finished",
            "readyok",
            "perft 2 49"
        ]
    );
}

/// The engine as a process, with its answers read on a thread, so that a
/// hang fails the test instead of stalling it.
struct Process {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Process {
    fn start() -> Process {
        let mut child = Command::new(env!("CARGO_BIN_EXE_antichess"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Process {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("the engine reads");
        self.stdin.flush().expect("the engine reads");
    }

    /// The next answer; a generous guard against a hang, not a speed test.
    fn answer(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer, not a hang")
    }
}

#[test]
fn stop_and_quit_end_a_running_checkers_perft() {
    let mut engine = Process::start();
    engine.send("set rules checkers");
    assert_eq!(engine.answer(), "ok");
    // Thousands of years of counting, begun before `stop` comes.
    engine.send("perft 40");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    engine.send("isready");
    assert_eq!(engine.answer(), "error perft 40 stopped before it finished");
    assert_eq!(engine.answer(), "readyok");
    engine.send("perft 5");
    assert_eq!(engine.answer(), "perft 5 7361");
    engine.send("perft 40");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("quit");
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(engine.child.wait());
    });
    let status = finished
        .recv_timeout(Duration::from_secs(120))
        .expect("quit ends the engine")
        .expect("the engine is waited for");
    assert!(status.success(), "{status}");
}
