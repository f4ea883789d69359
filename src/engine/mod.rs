//! The headless engine: what `antichess` runs with no subcommand.
//!
//! It speaks the line protocol of `protocol.md` (the 6.170 MachinePlayer
//! as a process) and, after `uci`, standard UCI. Two threads share the
//! work, as in the Carp engine: the reader (the calling thread) reads and
//! parses lines and forwards them in order to the worker, which owns the
//! game and runs the searches; while a search runs, the reader itself
//! answers `isready` and raises the stop flag for `stop` and `quit`, so a
//! GUI is never kept waiting. Everything else is answered by the worker,
//! in the order the commands arrived, one line each, flushed at once.

pub mod command;
pub mod levels;
pub mod reader;
pub mod session;
pub mod think;
mod uci;

use command::{Command, ParseError, Protocol};
use reader::{Line, LineReader};
use session::{Flow, Session};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
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
    /// A parsed command, when it arrived, and its search number if it is
    /// a search.
    Command {
        command: Command,
        arrived: Instant,
        search: Option<u64>,
    },
    /// A line that could not be parsed: answered with an error, in order.
    Malformed(ParseError),
}

/// Which searches have been asked for, stopped and finished, shared by
/// the reader and the worker. Searches are numbered from 1 as the reader
/// forwards them, so a `stop` ends exactly the searches sent before it,
/// never one sent after.
struct Searches {
    /// The flag the running search polls.
    flag: AtomicBool,
    /// Every search up to this number is to stop. Guarded so that raising
    /// the flag and a new search lowering it cannot interleave.
    stopped_through: Mutex<u64>,
    /// The last search the worker has finished.
    finished: AtomicU64,
}

impl Searches {
    fn new() -> Searches {
        Searches {
            flag: AtomicBool::new(false),
            stopped_through: Mutex::new(0),
            finished: AtomicU64::new(0),
        }
    }

    /// Stops every search up to `last` (the last one forwarded).
    fn stop_through(&self, last: u64) {
        let mut stopped = lock(&self.stopped_through);
        *stopped = (*stopped).max(last);
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Sets the flag for search `id`, about to start.
    fn arm(&self, id: u64) {
        let stopped = lock(&self.stopped_through);
        self.flag.store(*stopped >= id, Ordering::Relaxed);
    }
}

/// Runs the engine until `quit` or the end of `input`, answering on
/// `output`. Fails only if the engine cannot start (the hash table cannot
/// be allocated, or the worker thread cannot be created).
pub fn run(
    input: impl BufRead,
    output: impl Write + Send + 'static,
) -> Result<(), session::EngineError> {
    let out = Out::new(output);
    // Paid here, before the first command: the table allocation.
    let mut session = Session::new(out.clone())?;
    let searches = Arc::new(Searches::new());
    let (sender, receiver) = mpsc::channel::<Message>();
    let worker = {
        let searches = Arc::clone(&searches);
        std::thread::Builder::new()
            .name("engine".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                for message in receiver {
                    let flow = match message {
                        Message::Command {
                            command,
                            arrived,
                            search,
                        } => {
                            if let Some(id) = search {
                                searches.arm(id);
                            }
                            let flow = session.handle(command, arrived, &searches.flag);
                            if let Some(id) = search {
                                searches.finished.store(id, Ordering::Release);
                            }
                            flow
                        }
                        Message::Malformed(error) => {
                            session.refuse(&error);
                            Flow::Continue
                        }
                    };
                    if flow == Flow::Quit {
                        break;
                    }
                }
            })
            .map_err(session::EngineError::Thread)?
    };
    read_commands(input, &out, &searches, &sender);
    drop(sender);
    if worker.join().is_err() {
        log::error!("the engine thread failed");
    }
    Ok(())
}

/// The reader's loop: parses lines and forwards them until `quit` or the
/// end of input.
fn read_commands(
    input: impl BufRead,
    out: &Out,
    searches: &Searches,
    sender: &mpsc::Sender<Message>,
) {
    let mut lines = LineReader::new(input);
    let mut protocol = Protocol::Line;
    let mut last_search = 0u64;
    let mut last_unbounded = 0u64;
    let pending = |last: u64| searches.finished.load(Ordering::Acquire) < last;
    let forward = |message| {
        if sender.send(message).is_err() {
            log::warn!("the engine thread has gone");
        }
    };
    loop {
        let text = match lines.next_line() {
            None => break,
            Some(Line::TooLong(n)) => {
                forward(Message::Malformed(ParseError::LineTooLong(n)));
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
                forward(Message::Malformed(error));
                continue;
            }
        };
        let mut search = None;
        match command {
            Command::IsReady if pending(last_search) => {
                out.line("readyok");
                continue;
            }
            Command::Stop => {
                searches.stop_through(last_search);
                continue;
            }
            Command::Quit => {
                searches.stop_through(last_search);
                forward(Message::Command {
                    command,
                    arrived,
                    search,
                });
                return;
            }
            Command::Uci => protocol = Protocol::Uci,
            _ if command.searches() => {
                last_search += 1;
                search = Some(last_search);
                if command.is_unbounded_search() {
                    last_unbounded = last_search;
                }
            }
            _ => {}
        }
        forward(Message::Command {
            command,
            arrived,
            search,
        });
    }
    // End of input: queued commands are still answered, but a search only
    // `stop` could end would never finish.
    if pending(last_unbounded) {
        searches.stop_through(last_search);
    }
}
