//! The headless engine: what `antichess` runs with no subcommand.
//!
//! It speaks the line protocol of `protocol.md` (the 6.170 MachinePlayer
//! as a process) and, after `uci`, standard UCI. Two threads share the
//! work, as in the Carp engine: the reader (the calling thread) reads and
//! parses lines and forwards them in order to the worker, which owns the
//! game and runs the searches and perft counts. The reader itself answers
//! `isready` and raises the stop flag for `stop` and `quit`, so a search
//! never keeps a GUI waiting. Everything else is answered by the worker,
//! in the order the commands arrived, one line each, flushed at once.
//!
//! `readyok` keeps that order too: it waits until every earlier command
//! is answered, except that a search, once its command has been checked
//! and its position taken in (the worker says so through [`Control`]),
//! may answer after it, as UCI requires.

pub mod bench;
pub mod command;
pub mod desk;
pub mod family;
pub mod levels;
pub mod reader;
pub mod session;
pub mod think;
mod uci;

use command::{Command, ParseError, Protocol};
use reader::{Line, LineReader};
use session::{Flow, Session};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// The engine's name and version, as `name` and UCI `id name` give it.
pub const NAME: &str = concat!("antichess ", env!("CARGO_PKG_VERSION"));

/// Stack of the worker thread: the search keeps a few kilobytes per ply.
const WORKER_STACK: usize = 32 << 20;

/// Where answers go: one line at a time, whole and flushed, whichever
/// thread writes it.
#[derive(Clone)]
pub struct Out {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Out {
    /// Answers written to `sink`.
    pub fn new(sink: impl Write + Send + 'static) -> Out {
        Out {
            sink: Arc::new(Mutex::new(Box::new(sink))),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes one answer line and flushes it.
    pub fn line(&self, text: &str) {
        log::debug!("sent: {text}");
        let mut sink = lock(&self.sink);
        if let Err(e) = writeln!(sink, "{text}").and_then(|()| sink.flush()) {
            // Whoever reads us has gone; say so once and carry on quietly.
            if !self.broken.swap(true, Ordering::Relaxed) {
                log::warn!("cannot write answers: {e}");
            }
        }
    }
}

/// A mutex whose data stays usable even if a holder panicked.
fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What the reader hands the worker.
enum Message {
    /// A parsed command and when it arrived.
    Command { command: Command, arrived: Instant },
    /// A line that could not be parsed: answered with an error, in order.
    Malformed(ParseError),
}

/// What a long command tells the reader once it has begun.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Begun {
    /// A search, its command checked and its position taken in: `isready`
    /// may now be answered before the search's own answer. `unbounded`:
    /// only `stop` ends it.
    Search {
        /// Whether nothing but `stop` ends it.
        unbounded: bool,
    },
    /// A perft count: `stop` ends it, but `isready` waits for its answer.
    Count,
}

/// The worker's link to the reader while it carries out one command.
pub struct Control<'a> {
    /// Raised by the reader to end the search or count.
    pub stop: &'a AtomicBool,
    begin: &'a dyn Fn(Begun),
}

impl<'a> Control<'a> {
    /// A control that tells nobody: for running a session without a
    /// reader (tests, tools).
    pub fn detached(stop: &'a AtomicBool) -> Control<'a> {
        Control {
            stop,
            begin: &|_| {},
        }
    }

    /// Says that a search or a count begins now, and lowers or raises the
    /// stop flag for it (a `stop` may have come while it was queued).
    pub fn begin(&self, what: Begun) {
        (self.begin)(what);
    }
}

/// A search or count the worker is in.
#[derive(Clone, Copy)]
struct Running {
    /// Its message number.
    id: u64,
    what: Begun,
}

/// Progress of the worker, as the reader needs it. Messages are numbered
/// from 1 as the reader forwards them.
#[derive(Default)]
struct Progress {
    /// Every search or count numbered up to this is to stop.
    stopped_through: u64,
    /// The last message the worker has handled.
    finished: u64,
    /// The search or count the worker is in now, if any.
    running: Option<Running>,
}

/// What the reader and the worker share.
struct Shared {
    /// The flag the running search polls.
    stop: AtomicBool,
    /// Guarded together, so that raising the stop flag and a new search
    /// lowering it cannot interleave.
    progress: Mutex<Progress>,
    /// Signalled whenever `progress` changes.
    changed: Condvar,
}

impl Shared {
    /// Stops every search and count up to message `last`.
    fn stop_through(&self, last: u64) {
        let mut progress = lock(&self.progress);
        progress.stopped_through = progress.stopped_through.max(last);
        // A later search may be running already: it must go on.
        if progress.running.is_some_and(|r| r.id <= last) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Message `id` has begun a search or a count.
    fn begin(&self, id: u64, what: Begun) {
        let mut progress = lock(&self.progress);
        progress.running = Some(Running { id, what });
        self.stop
            .store(progress.stopped_through >= id, Ordering::Relaxed);
        self.changed.notify_all();
    }

    /// The worker has answered message `id`.
    fn finish(&self, id: u64) {
        let mut progress = lock(&self.progress);
        progress.finished = id;
        progress.running = None;
        self.changed.notify_all();
    }

    /// Waits until every message up to `sent` is answered, or the worker
    /// is in the search of message `sent` (its command taken in, only its
    /// answer to come): then `readyok` comes in order. A search only
    /// `stop` ends counts as the last, or `readyok` would never come.
    fn wait_ready(&self, sent: u64) {
        let ready = |p: &Progress| {
            p.finished >= sent
                || p.running.is_some_and(|r| match r.what {
                    Begun::Search { unbounded } => r.id == sent || unbounded,
                    Begun::Count => false,
                })
        };
        let mut progress = lock(&self.progress);
        while !ready(&progress) {
            progress = self
                .changed
                .wait(progress)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Whether message `id` is still to be handled.
    fn pending(&self, id: u64) -> bool {
        lock(&self.progress).finished < id
    }
}

/// Marks every message handled when the worker ends, however it ends, so
/// that the reader never waits for it in vain.
struct Farewell<'a>(&'a Shared);

impl Drop for Farewell<'_> {
    fn drop(&mut self) {
        self.0.finish(u64::MAX);
    }
}

/// Runs the engine on the process's standard input and output. A person
/// at a terminal is greeted first, on stderr: stdout belongs to the
/// protocol, and a program driving the engine through pipes sees nothing.
pub fn run_stdio() -> Result<(), session::EngineError> {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprintln!("{NAME}, the engine's line protocol (protocol.md): type help for the commands");
    }
    run(stdin.lock(), std::io::stdout())
}

/// Runs the engine until `quit` or the end of `input`, answering on
/// `output`. Fails if the engine cannot start (the hash table cannot be
/// allocated, or the worker thread cannot be created), or if it crashed.
pub fn run(
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<(), session::EngineError> {
    let out = Out::new(output);
    // Paid here, before the first command: the table allocation.
    let mut session = Session::new(out.clone())?;
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        progress: Mutex::new(Progress::default()),
        changed: Condvar::new(),
    });
    let (sender, receiver) = mpsc::channel::<Message>();
    let worker = {
        let shared = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("engine".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let _farewell = Farewell(&shared);
                for (id, message) in (1..).zip(receiver) {
                    let flow = match message {
                        Message::Command { command, arrived } => {
                            let control = Control {
                                stop: &shared.stop,
                                begin: &|what| shared.begin(id, what),
                            };
                            session.handle(command, arrived, &control)
                        }
                        Message::Malformed(error) => {
                            session.refuse(&error);
                            Flow::Continue
                        }
                    };
                    shared.finish(id);
                    if flow == Flow::Quit {
                        break;
                    }
                }
            })
            .map_err(session::EngineError::Thread)?
    };
    read_commands(input, &out, &shared, sender);
    worker.join().map_err(|_| session::EngineError::Crashed)
}

/// The reader's end of the channel, numbering what it forwards.
struct Link {
    sender: mpsc::Sender<Message>,
    /// Messages forwarded so far.
    sent: u64,
}

impl Link {
    /// Forwards `message`; returns its number.
    fn forward(&mut self, message: Message) -> u64 {
        self.sent += 1;
        if self.sender.send(message).is_err() {
            log::warn!("the engine thread has gone");
        }
        self.sent
    }
}

/// The reader's loop: parses lines and forwards them until `quit` or the
/// end of input.
fn read_commands(input: impl BufRead, out: &Out, shared: &Shared, sender: mpsc::Sender<Message>) {
    let mut lines = LineReader::new(input);
    let mut protocol = Protocol::Line;
    let mut link = Link { sender, sent: 0 };
    // The last message that only `stop` ends.
    let mut last_unbounded = 0u64;
    loop {
        let text = match lines.next_line() {
            None => break,
            Some(Line::TooLong(n)) => {
                link.forward(Message::Malformed(ParseError::LineTooLong(n)));
                continue;
            }
            Some(Line::Text(text)) => text,
        };
        log::debug!("received: {}", command::shown(&text));
        let arrived = Instant::now();
        let command = match command::parse(&text, protocol) {
            Ok(None) => continue,
            Ok(Some(command)) => command,
            Err(error) => {
                link.forward(Message::Malformed(error));
                continue;
            }
        };
        match command {
            Command::IsReady => {
                shared.wait_ready(link.sent);
                out.line("readyok");
            }
            Command::Stop => shared.stop_through(link.sent),
            Command::Quit => {
                let id = link.forward(Message::Command { command, arrived });
                shared.stop_through(id);
                return;
            }
            _ => {
                if command == Command::Uci {
                    protocol = Protocol::Uci;
                }
                let unbounded = command.is_unbounded_search();
                let id = link.forward(Message::Command { command, arrived });
                if unbounded {
                    last_unbounded = id;
                }
            }
        }
    }
    // End of input: queued commands are still answered, but a search only
    // `stop` could end would never finish (nor, then, those before it).
    if shared.pending(last_unbounded) {
        shared.stop_through(last_unbounded);
    }
}
