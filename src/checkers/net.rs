//! Two-program play over TCP, in place of the handout's RMI mailboxes.
//!
//! The wire format (documented in `protocol.md`, section Checkers) is one
//! UTF-8 line per message: the guest greets with `checkers NAME`, the host
//! sends its `--init` entries and then the guest's colour (`white` or
//! `black`), then the side to act sends each entry, and both finish with
//! the score. Everything read from the peer is untrusted: lines are
//! length-capped, and anything unreadable or illegal counts as the peer's
//! resignation, as does a dropped connection before the game is over.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::board::Color;
use super::notation::{Action, Score};
use super::record::Record;

/// The port games are hosted on unless told otherwise.
pub const DEFAULT_PORT: u16 = 6161;

/// Longest message accepted, newline included; the longest legal message
/// (a 12-jump move) is under 40 bytes.
const MAX_LINE: u64 = 256;

/// How long to wait for the peer's closing score.
const SCORE_WAIT: Duration = Duration::from_secs(5);

/// Why a game could not be set up with the peer.
#[derive(Debug)]
pub enum NetError {
    /// The connection failed or broke.
    Io(io::Error),
    /// The peer said something that does not fit the protocol.
    Protocol(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "connection: {e}"),
            NetError::Protocol(s) => write!(f, "the other program broke the protocol: {s}"),
        }
    }
}

impl std::error::Error for NetError {}

impl From<io::Error> for NetError {
    fn from(e: io::Error) -> Self {
        NetError::Io(e)
    }
}

/// The other program, at the far end of a TCP connection.
pub struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// False once sending has failed: the peer then forfeits its next turn.
    can_send: bool,
    /// False once the peer's side of the connection has ended or failed.
    can_receive: bool,
}

impl Peer {
    fn new(stream: TcpStream) -> io::Result<Peer> {
        stream.set_nodelay(true)?;
        Ok(Peer {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
            can_send: true,
            can_receive: true,
        })
    }

    /// Waits on `listener` for a guest asking for game `name`; guests
    /// asking for another game are told so and turned away.
    pub fn host(listener: &TcpListener, name: &str) -> io::Result<Peer> {
        loop {
            let (stream, addr) = listener.accept()?;
            let mut peer = Peer::new(stream)?;
            match peer.receive_line() {
                Ok(Some(hello)) if hello == format!("checkers {name}") => {
                    log::info!("{addr} joined game {name}");
                    return Ok(peer);
                }
                Ok(hello) => {
                    log::warn!("{addr} asked for {hello:?}, not game {name}");
                    let _ = peer.send_line(&format!("error no game {name} here"));
                }
                Err(e) => log::warn!("{addr} failed to greet: {e}"),
            }
        }
    }

    /// Connects to game `name` hosted at `addr` (`HOST` or `HOST:PORT`).
    pub fn join(name: &str, addr: &str) -> io::Result<Peer> {
        let target = if addr.contains(':') && !addr.ends_with(']') {
            addr.to_string()
        } else {
            format!("{addr}:{DEFAULT_PORT}")
        };
        let mut last = io::Error::new(io::ErrorKind::NotFound, format!("no address for {addr}"));
        for sock in target.to_socket_addrs()? {
            match TcpStream::connect(sock) {
                Ok(stream) => {
                    let mut peer = Peer::new(stream)?;
                    peer.send_line(&format!("checkers {name}"))?;
                    return Ok(peer);
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn send_line(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.writer, "{line}")?;
        self.writer.flush()
    }

    /// The next message without its line ending; `None` at a clean end of
    /// the connection.
    fn receive_line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = Vec::new();
        let n = self
            .reader
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(None);
        }
        if bytes.last() != Some(&b'\n') && n as u64 == MAX_LINE {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "message too long",
            ));
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "message is not UTF-8"))?;
        Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
    }

    /// Host side: sends the entries already played (from `--init`) and the
    /// colour the guest is to play.
    pub fn send_setup(&mut self, record: &Record, guest: Color) -> io::Result<()> {
        for action in record.actions() {
            self.send_line(&action.to_string())?;
        }
        self.send_line(guest.name())
    }

    /// Guest side: replays the host's opening entries and learns which
    /// colour this program plays.
    pub fn receive_setup(&mut self) -> Result<(Record, Color), NetError> {
        let mut record = Record::new();
        loop {
            let Some(line) = self.receive_line()? else {
                return Err(NetError::Protocol(
                    "closed before saying white or black".into(),
                ));
            };
            match line.as_str() {
                "white" => return Ok((record, Color::White)),
                "black" => return Ok((record, Color::Black)),
                _ if line.starts_with("error") => return Err(NetError::Protocol(line)),
                _ => {
                    let action = record
                        .parse_action(&line)
                        .and_then(|a| record.apply(a))
                        .map_err(|e| NetError::Protocol(format!("opening entry `{line}`: {e}")));
                    action?;
                }
            }
        }
    }

    /// The peer's entry for its turn in `record`, checked; `None` means it
    /// forfeits (an illegal or unreadable entry, or a lost connection).
    pub fn receive_action(&mut self, record: &Record) -> Option<Action> {
        if !(self.can_send && self.can_receive) {
            return None;
        }
        let line = match self.receive_line() {
            Ok(Some(line)) => line,
            Ok(None) => {
                log::warn!("the other program closed the connection mid-game: it resigns");
                self.can_receive = false;
                return None;
            }
            Err(e) => {
                log::warn!("connection to the other program failed ({e}): it resigns");
                self.can_receive = false;
                return None;
            }
        };
        match record.parse_allowed(&line) {
            Ok(a) => Some(a),
            Err(e) => {
                log::warn!("the other program sent `{line}` ({e}): it resigns");
                None
            }
        }
    }

    /// Sends this program's entry. A failure is remembered: the peer then
    /// forfeits at its turn.
    pub fn send_action(&mut self, action: Action) {
        if self.can_send && self.send_line(&action.to_string()).is_err() {
            log::warn!("lost the connection to the other program");
            self.can_send = false;
        }
    }

    /// Ends the game: sends the score and waits briefly for the peer's.
    /// Problems here are only logged; the game is over either way.
    pub fn finish(&mut self, score: Score) {
        if !self.can_send {
            return;
        }
        if let Err(e) = self.send_line(&score.to_string()) {
            log::debug!("sending the score: {e}");
            return;
        }
        if !self.can_receive {
            let _ = self.writer.shutdown(std::net::Shutdown::Both);
            return;
        }
        let _ = self.reader.get_ref().set_read_timeout(Some(SCORE_WAIT));
        match self.receive_line() {
            Ok(Some(theirs)) if theirs == score.to_string() => {}
            Ok(Some(theirs)) => log::warn!("the other program scores the game `{theirs}`"),
            Ok(None) => log::debug!("the other program left without its score"),
            Err(e) => log::debug!("waiting for the score: {e}"),
        }
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
    }
}
