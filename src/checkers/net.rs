//! Two-program play over TCP, in place of the handout's RMI mailboxes.
//!
//! The wire format (documented in `protocol.md`, section Checkers) is one
//! UTF-8 line per message: the guest greets with `checkers NAME`, the host
//! sends its `--init` entries and then the guest's colour (`white` or
//! `black`), then the side to act sends each entry, and both finish with
//! the score. Everything read from the peer is untrusted: a message is
//! read into a fixed-size buffer against a deadline, so that an endless
//! line, a trickle of bytes or silence cost bounded memory and time; and
//! anything unreadable, illegal, late or cut off counts as the peer's
//! resignation once the game is on.

use std::fmt;
use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use super::board::Color;
use super::notation::{Action, Score};
use super::record::{PlayError, Record};

/// The port games are hosted on unless told otherwise.
pub const DEFAULT_PORT: u16 = 6161;

/// Longest message accepted, newline included; the longest legal message
/// (a 12-jump move) is under 40 bytes.
pub const MAX_LINE: usize = 256;

/// Most opening entries a guest takes from a host: far more than any real
/// game, and a bound on what a host can make it store.
const MAX_SETUP_ENTRIES: usize = 10_000;

/// How long each wait on the other program may last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// Joining: opening the TCP connection.
    pub connect: Duration,
    /// Hosting: a guest's greeting, from its connecting.
    pub greeting: Duration,
    /// Joining: the host's opening entries and the colour, from the
    /// greeting (the host may first be busy turning another guest away).
    pub setup: Duration,
    /// Either side: the other program's entry, from the start of its turn.
    pub turn: Duration,
    /// After the game: the other program's score.
    pub score: Duration,
    /// Any message sent: how long the other program may leave it unread.
    pub send: Duration,
}

impl Default for Timeouts {
    /// The documented limits (`protocol.md`, section Checkers).
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(10),
            greeting: Duration::from_secs(10),
            setup: Duration::from_secs(30),
            turn: Duration::from_secs(600),
            score: Duration::from_secs(5),
            send: Duration::from_secs(10),
        }
    }
}

impl Timeouts {
    /// Every limit set to `limit`: for tests and the hidden
    /// `--net-timeout` option, so that misbehaving peers are found out
    /// quickly.
    pub fn uniform(limit: Duration) -> Timeouts {
        Timeouts {
            connect: limit,
            greeting: limit,
            setup: limit,
            turn: limit,
            score: limit,
            send: limit,
        }
    }
}

/// Seconds as people read them: `600 s`, `0.25 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// What went wrong with the other program or the connection to it.
#[derive(Debug)]
pub enum PeerError {
    /// It closed the connection (possibly in the middle of a message).
    Closed,
    /// No whole message came within this time.
    TimedOut(Duration),
    /// A message longer than [`MAX_LINE`] bytes.
    TooLong,
    /// Bytes that are not UTF-8 text, or control characters.
    NotText,
    /// An entry that may not be played now.
    NotAllowed(String, PlayError),
    /// More opening entries than `MAX_SETUP_ENTRIES`.
    TooManyEntries,
    /// The host turned this guest away (`error …`).
    Refused(String),
    /// Sending to it failed, so it never learnt this program's last entry.
    Send(io::Error),
    /// The connection failed otherwise.
    Io(io::Error),
}

impl fmt::Display for PeerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerError::Closed => f.write_str("it closed the connection"),
            PeerError::TimedOut(d) => {
                write!(f, "it sent no complete message within {}", seconds(*d))
            }
            PeerError::TooLong => write!(f, "it sent a message over {} bytes", MAX_LINE - 1),
            PeerError::NotText => f.write_str("it sent bytes that are not UTF-8 text"),
            PeerError::NotAllowed(line, why) => write!(f, "it sent `{line}`: {why}"),
            PeerError::TooManyEntries => {
                write!(f, "it sent more than {MAX_SETUP_ENTRIES} opening entries")
            }
            PeerError::Refused(line) => write!(f, "it turned this program away: `{line}`"),
            PeerError::Send(e) => write!(f, "sending to it failed: {e}"),
            PeerError::Io(e) => write!(f, "the connection failed: {e}"),
        }
    }
}

impl std::error::Error for PeerError {}

/// Why a network game could not be set up.
#[derive(Debug)]
pub enum NetError {
    /// Hosting: the address could not be listened on, or accepting failed.
    Listen(String, io::Error),
    /// Joining: no connection could be made.
    Connect(String, io::Error),
    /// Joining: the host misbehaved before the game began.
    Setup(String, PeerError),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Listen(addr, e) => write!(f, "cannot host on {addr}: {e}"),
            NetError::Connect(addr, e) => write!(f, "cannot connect to {addr}: {e}"),
            NetError::Setup(addr, e) => {
                write!(f, "the host at {addr} failed before the game began: {e}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// The other program, at the far end of a TCP connection.
pub struct Peer {
    stream: TcpStream,
    /// Bytes received and not yet taken as messages: at most [`MAX_LINE`].
    pending: Vec<u8>,
    timeouts: Timeouts,
    /// Why sending last failed: the peer then forfeits at its turn.
    send_failed: Option<io::Error>,
    /// False once the peer's side of the connection has ended or failed.
    can_receive: bool,
}

impl Peer {
    fn new(stream: TcpStream, timeouts: Timeouts) -> io::Result<Peer> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(nonzero(timeouts.send)))?;
        Ok(Peer {
            stream,
            pending: Vec::with_capacity(MAX_LINE),
            timeouts,
            send_failed: None,
            can_receive: true,
        })
    }

    /// [`Peer::host_with`] with the default timeouts.
    pub fn host(listener: &TcpListener, name: &str) -> Result<Peer, NetError> {
        Peer::host_with(listener, name, Timeouts::default())
    }

    /// Waits on `listener` for a guest asking for game `name`, as long as
    /// it takes. A guest that asks for another game is told so; one that
    /// does not greet properly within `timeouts.greeting` is turned away.
    pub fn host_with(
        listener: &TcpListener,
        name: &str,
        timeouts: Timeouts,
    ) -> Result<Peer, NetError> {
        let hello = format!("checkers {name}");
        let listen_error = |e| {
            let addr = listener
                .local_addr()
                .map_or_else(|_| "the listening socket".into(), |a| a.to_string());
            NetError::Listen(addr, e)
        };
        loop {
            let (stream, addr) = match listener.accept() {
                Ok(accepted) => accepted,
                // A guest that gave up while queued: wait for the next.
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ConnectionAborted | ErrorKind::Interrupted
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(listen_error(e)),
            };
            let mut peer = match Peer::new(stream, timeouts) {
                Ok(peer) => peer,
                Err(e) => {
                    log::warn!("guest at {addr}: {e}; still waiting");
                    continue;
                }
            };
            match peer.receive_line(timeouts.greeting) {
                Ok(line) if line == hello => {
                    log::info!("{addr} joined game {name}");
                    return Ok(peer);
                }
                Ok(line) => {
                    log::warn!(
                        "guest at {addr} asked for `{line}`, not game {name}; still waiting"
                    );
                    let _ = peer.send_line(&format!("error no game {name} here"));
                }
                Err(e) => log::warn!("guest at {addr} did not greet: {e}; still waiting"),
            }
            peer.close();
        }
    }

    /// [`Peer::join_with`] with the default timeouts.
    pub fn join(name: &str, addr: &str) -> Result<Peer, NetError> {
        Peer::join_with(name, addr, Timeouts::default())
    }

    /// Connects to game `name` hosted at `addr` (`HOST` or `HOST:PORT`)
    /// and greets the host.
    pub fn join_with(name: &str, addr: &str, timeouts: Timeouts) -> Result<Peer, NetError> {
        let target = if addr.contains(':') && !addr.ends_with(']') {
            addr.to_string()
        } else {
            format!("{addr}:{DEFAULT_PORT}")
        };
        let addrs: Vec<SocketAddr> = target
            .to_socket_addrs()
            .map_err(|e| NetError::Connect(target.clone(), e))?
            .collect();
        let mut last = io::Error::new(ErrorKind::NotFound, "the name has no address");
        for sock in addrs {
            match TcpStream::connect_timeout(&sock, nonzero(timeouts.connect)) {
                Ok(stream) => {
                    let mut peer = Peer::new(stream, timeouts)
                        .map_err(|e| NetError::Connect(target.clone(), e))?;
                    peer.send_line(&format!("checkers {name}"))
                        .map_err(|e| NetError::Setup(target.clone(), PeerError::Send(e)))?;
                    return Ok(peer);
                }
                Err(e) => last = e,
            }
        }
        Err(NetError::Connect(target, last))
    }

    /// The other program's address, for messages.
    pub fn address(&self) -> String {
        self.stream
            .peer_addr()
            .map_or_else(|_| "an unknown address".into(), |a| a.to_string())
    }

    fn send_line(&mut self, line: &str) -> io::Result<()> {
        // One write per message, so that a message is never split by a
        // half-finished earlier write.
        self.stream.write_all(format!("{line}\n").as_bytes())
    }

    /// The next message without its line ending, waiting at most `limit`
    /// for all of it.
    fn receive_line(&mut self, limit: Duration) -> Result<String, PeerError> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let bytes: Vec<u8> = self.pending.drain(..=end).collect();
                return decode(&bytes);
            }
            if self.pending.len() >= MAX_LINE {
                return Err(PeerError::TooLong);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(PeerError::TimedOut(limit));
            }
            self.stream
                .set_read_timeout(Some(left))
                .map_err(PeerError::Io)?;
            let mut chunk = [0u8; MAX_LINE];
            let room = MAX_LINE - self.pending.len();
            match self.stream.read(&mut chunk[..room]) {
                Ok(0) => return Err(PeerError::Closed),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                    ) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted
                    ) =>
                {
                    return Err(PeerError::Closed);
                }
                Err(e) => return Err(PeerError::Io(e)),
            }
        }
    }

    /// Host side: sends the entries already played (from `--init`) and the
    /// colour the guest is to play. A failure is remembered, as for
    /// [`Peer::send_action`]: the guest then forfeits at its first turn.
    pub fn send_setup(&mut self, record: &Record, guest: Color) -> Result<(), PeerError> {
        let mut lines: Vec<String> = record.actions().iter().map(|a| a.to_string()).collect();
        lines.push(guest.name().to_string());
        for line in lines {
            if let Err(e) = self.send_line(&line) {
                log::warn!("sending the opening to the other program failed: {e}");
                let err = PeerError::Send(io::Error::new(e.kind(), e.to_string()));
                self.send_failed = Some(e);
                return Err(err);
            }
        }
        Ok(())
    }

    /// Guest side: replays the host's opening entries and learns which
    /// colour this program plays, all within `timeouts.setup`.
    pub fn receive_setup(&mut self) -> Result<(Record, Color), PeerError> {
        let deadline = Instant::now() + self.timeouts.setup;
        let mut record = Record::new();
        for _ in 0..=MAX_SETUP_ENTRIES {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.receive_line(left).map_err(|e| match e {
                PeerError::TimedOut(_) => PeerError::TimedOut(self.timeouts.setup),
                e => e,
            })?;
            match line.as_str() {
                "white" => return Ok((record, Color::White)),
                "black" => return Ok((record, Color::Black)),
                _ if line.starts_with("error") => return Err(PeerError::Refused(line)),
                _ => {
                    let played = record.parse_action(&line).and_then(|a| record.apply(a));
                    if let Err(why) = played {
                        return Err(PeerError::NotAllowed(line, why));
                    }
                }
            }
        }
        Err(PeerError::TooManyEntries)
    }

    /// The peer's entry for its turn in `record`, checked, within
    /// `timeouts.turn`. An error means it forfeits: a lost connection,
    /// silence, an unreadable or illegal entry, or a failure to send it
    /// this program's last entry.
    pub fn receive_action(&mut self, record: &Record) -> Result<Action, PeerError> {
        if let Some(e) = self.send_failed.take() {
            self.can_receive = false;
            return Err(PeerError::Send(e));
        }
        if !self.can_receive {
            return Err(PeerError::Closed);
        }
        let line = self.receive_line(self.timeouts.turn).inspect_err(|e| {
            // After a broken message nothing more from it can be trusted.
            if !matches!(e, PeerError::NotAllowed(..)) {
                self.can_receive = false;
            }
        })?;
        record
            .parse_allowed(&line)
            .map_err(|why| PeerError::NotAllowed(line, why))
    }

    /// Sends this program's entry. A failure is remembered: the peer then
    /// forfeits at its turn.
    pub fn send_action(&mut self, action: Action) {
        if self.send_failed.is_none()
            && let Err(e) = self.send_line(&action.to_string())
        {
            log::warn!("lost the connection to the other program: {e}");
            self.send_failed = Some(e);
        }
    }

    /// Ends the game: sends the score and waits `timeouts.score` at most
    /// for the peer's. Problems here are only logged; the game is over
    /// either way.
    pub fn finish(&mut self, score: Score) {
        if self.send_failed.is_none() {
            if let Err(e) = self.send_line(&score.to_string()) {
                log::debug!("sending the score: {e}");
            } else if self.can_receive {
                match self.receive_line(self.timeouts.score) {
                    Ok(theirs) if theirs == score.to_string() => {}
                    Ok(theirs) => log::warn!("the other program scores the game `{theirs}`"),
                    Err(e) => log::debug!("waiting for the other program's score: {e}"),
                }
            }
        }
        self.close();
    }

    fn close(&mut self) {
        self.can_receive = false;
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

/// A message's text, if it is printable UTF-8; the line end goes.
fn decode(bytes: &[u8]) -> Result<String, PeerError> {
    let text = std::str::from_utf8(bytes).map_err(|_| PeerError::NotText)?;
    let text = text.trim_end_matches('\n').trim_end_matches('\r');
    // Control characters would reach the terminal in messages and logs.
    if text.chars().any(char::is_control) {
        return Err(PeerError::NotText);
    }
    Ok(text.to_string())
}

/// Socket timeouts must not be zero (that would mean "never").
fn nonzero(d: Duration) -> Duration {
    d.max(Duration::from_millis(1))
}
