//! An engine running as a child process: its stdin for our commands, a
//! reader thread turning its stdout into lines on a channel (so that the
//! referee can wait with a deadline and notice a hang or a crash), and its
//! stderr forwarded to the log. Dropping it asks the engine to quit and
//! kills it if it does not.

use super::player::{Fault, FaultKind};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest answer line kept; the rest of a longer line is dropped, so a
/// runaway engine cannot fill the referee's memory.
const MAX_LINE: u64 = 16 * 1024;

/// How long a quitting engine is given before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

/// A running engine process.
pub struct Process {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoLine {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output: it has exited or crashed.
    Closed,
}

impl Process {
    /// Starts `argv` (program and arguments, no shell involved).
    pub fn spawn(name: &str, argv: &[String]) -> Result<Process, Fault> {
        let Some((program, args)) = argv.split_first() else {
            return Err(Fault::new(FaultKind::Crash, "no command to run"));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start {program}: {e}")))?;
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            let spawned = std::thread::Builder::new()
                .name(format!("{name} stdout"))
                .spawn(move || {
                    let mut reader = BufReader::new(stdout);
                    while let Some(line) = read_line(&mut reader) {
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                log::warn!("cannot read {name}'s output: {e}");
            }
        }
        if let Some(stderr) = child.stderr.take() {
            let label = name.to_string();
            // The engine's own diagnostics: worth keeping for debugging,
            // never mixed into the referee's screen.
            let _ = std::thread::Builder::new()
                .name(format!("{name} stderr"))
                .spawn(move || {
                    let mut reader = BufReader::new(stderr);
                    while let Some(line) = read_line(&mut reader) {
                        log::debug!("{label} stderr: {line}");
                    }
                });
        }
        Ok(Process {
            name: name.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("to {}: {line}", self.name);
        let Some(stdin) = &mut self.stdin else {
            return Err(Fault::new(FaultKind::Crash, "its input is closed"));
        };
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| Fault::new(FaultKind::Crash, format!("it stopped reading: {e}")))
    }

    /// The next output line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, NoLine> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::debug!("from {}: {line}", self.name);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(NoLine::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(NoLine::Closed),
        }
    }

    /// The fault for a missing line: a hang, or a crash with the exit
    /// status when the process has gone.
    pub fn fault(&mut self, why: NoLine, waiting_for: &str) -> Fault {
        match why {
            NoLine::Timeout => {
                Fault::new(FaultKind::Hang, format!("it sent no {waiting_for} in time"))
            }
            NoLine::Closed => {
                // Give the exit status a moment to arrive after the pipe closed.
                let deadline = Instant::now() + QUIT_GRACE;
                let status = loop {
                    match self.child.try_wait() {
                        Ok(Some(status)) => break Some(status),
                        Ok(None) if Instant::now() < deadline => {
                            std::thread::sleep(Duration::from_millis(5))
                        }
                        _ => break None,
                    }
                };
                let how =
                    status.map_or("closed its output".to_string(), |s| format!("exited ({s})"));
                Fault::new(
                    FaultKind::Crash,
                    format!("{how} while the referee waited for its {waiting_for}"),
                )
            }
        }
    }
}

/// One line of at most `MAX_LINE` bytes, without its line end; `None` at
/// the end of the stream or on a read error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE)
        .read_until(b'\n', &mut buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        let _ = reader.read_until(b'\n', &mut rest);
    }
    let text = String::from_utf8_lossy(&buf);
    Some(text.trim_end_matches(['\n', '\r']).to_string())
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|()| stdin.flush());
        }
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
