//! A whole engine session in-process, fed arbitrary bytes line by line as
//! `engine::run` reads them: no panic, and in the line protocol every
//! command is answered with exactly one line (`stop` with none).
//!
//! The session is driven on this thread, as the engine's worker drives it,
//! so that a run is deterministic; `isready`, `stop` and `quit` are handed
//! to the session instead of being answered by the reader thread. Search
//! and perft limits are clamped so that one input stays quick.
#![no_main]

use antichess::engine::command::{Command, ParseError, Protocol, Setting, parse};
use antichess::engine::reader::{Line, LineReader};
use antichess::engine::session::{Flow, Session};
use antichess::engine::{Control, Out};
use libfuzzer_sys::fuzz_target;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The answers, readable after each command.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    /// Takes the answers written so far.
    fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes).expect("answers are UTF-8")
    }
}

/// Keeps a command's work small without changing what kind of answer it
/// gets.
fn clamp(command: Command) -> Command {
    match command {
        Command::Go(mut go) => {
            go.depth = go.depth.map(|d| d.min(3));
            go.nodes = go.nodes.map(|n| n.min(2_000));
            go.movetime = go.movetime.map(|t| t.min(5));
            go.wtime = go.wtime.map(|t| t.min(50));
            go.btime = go.btime.map(|t| t.min(50));
            go.winc = go.winc.map(|t| t.min(5));
            go.binc = go.binc.map(|t| t.min(5));
            if go.is_unbounded() {
                // Only `stop` would end it, and nobody sends one here.
                go.infinite = false;
                go.depth = Some(2);
            }
            Command::Go(go)
        }
        Command::Perft(depth) => Command::Perft(depth.min(2)),
        Command::Move {
            opponent,
            my_ms,
            their_ms,
        } => Command::Move {
            opponent,
            my_ms: my_ms.min(20),
            their_ms,
        },
        Command::Set(Setting::Hash(mib)) => Command::Set(Setting::Hash(mib.min(1))),
        Command::Set(Setting::Threads(n)) => Command::Set(Setting::Threads(n.min(2))),
        other => other,
    }
}

fuzz_target!(|data: &[u8]| {
    let sink = Sink::default();
    let mut session = Session::with_hash(Out::new(sink.clone()), 1).expect("the session starts");
    let stop = AtomicBool::new(false);
    let mut protocol = Protocol::Line;
    let mut lines = LineReader::new(data);
    let mut commands = 0;
    while let Some(line) = lines.next_line() {
        commands += 1;
        if commands > 64 {
            break;
        }
        let before = protocol;
        let expected = match line {
            Line::TooLong(n) => {
                session.refuse(&ParseError::LineTooLong(n));
                Some(1)
            }
            Line::Text(text) => match parse(&text, protocol) {
                Ok(None) => Some(0),
                Err(error) => {
                    session.refuse(&error);
                    Some(1)
                }
                Ok(Some(Command::Quit)) => break,
                Ok(Some(command)) => {
                    let expected = match &command {
                        Command::Stop | Command::Ignored => Some(0),
                        Command::Uci => {
                            protocol = Protocol::Uci;
                            None
                        }
                        _ if protocol == Protocol::Line => Some(1),
                        _ => None,
                    };
                    let searches = matches!(command, Command::Go(_));
                    let flow =
                        session.handle(clamp(command), Instant::now(), &Control::detached(&stop));
                    assert_eq!(flow, Flow::Continue);
                    if searches && protocol == Protocol::Uci {
                        let answers = sink.take();
                        let last = answers.lines().last().unwrap_or("");
                        assert!(
                            last.starts_with("bestmove ") || last.starts_with("info string error"),
                            "{answers:?}"
                        );
                        continue;
                    }
                    expected
                }
            },
        };
        let answers = sink.take();
        assert!(answers.is_empty() || answers.ends_with('\n'), "{answers:?}");
        assert!(
            !answers.contains('\r'),
            "an answer line holds a carriage return: {answers:?}"
        );
        if let Some(n) = expected {
            assert_eq!(
                answers.lines().count(),
                n,
                "{before:?} protocol answers {answers:?}"
            );
        }
    }
});
