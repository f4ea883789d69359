//! The `checkers` command line of the handout (section 4), and what each
//! combination of options sets up: seats, console, network and transcript.
//! Hidden extras serve tools: `--list-moves` (the clatsop cross-check),
//! `--perft` (the speed benchmark), `--listen`, `--move-time` and
//! `--net-timeout` (quick network tests).

// The options' doc comments are clap's help texts, written for the
// terminal (`random[:SEED]`), not for rustdoc's links.
#![allow(rustdoc::broken_intra_doc_links)]

use std::fmt;
use std::io::{self, BufRead, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Parser;

use super::session::{Player, play};
use super::ui::Console;
use crate::checkers::board::{Color, Position};
use crate::checkers::movegen::perft;
use crate::checkers::net::{DEFAULT_PORT, NetError, Peer, Timeouts};
use crate::checkers::player::{DEFAULT_MOVE_TIME, Machine, Seat, machine_seeds};
use crate::checkers::record::Record;
use crate::checkers::transcript::{TranscriptError, read_transcript, write_transcript};

/// Command-line options, spelled as in the handout.
#[derive(Parser, Debug)]
#[command(
    name = "checkers",
    version,
    about = "Play checkers (CS61B rules) at the terminal, against the machine or another program"
)]
pub struct Options {
    /// Write a record of the game to FILE.
    #[arg(long, value_name = "FILE")]
    pub transcript: Option<PathBuf>,
    /// Play on a board in the web browser: starts the web board's server on
    /// the checkers page and prints its address (see --listen).
    #[arg(long)]
    pub display: bool,
    /// The first player is a machine player (and prints the transcript).
    #[arg(long, value_name = "auto", value_parser = ["auto"])]
    pub player1: Option<String>,
    /// NAME: host a game called NAME for a remote program; NAME@HOST[:PORT]:
    /// join the game NAME hosted on HOST.
    #[arg(long, value_name = "NAME[@HOST]")]
    pub player2: Option<String>,
    /// The first player takes White (ignored when joining a game).
    #[arg(long)]
    pub white: bool,
    /// Play the moves of the transcript FILE before the players take over.
    #[arg(long, value_name = "FILE")]
    pub init: Option<PathBuf>,
    /// Look-ahead limit of the machine player in plies (0: strongest, timed).
    #[arg(long, value_name = "NUM", default_value_t = 0)]
    pub level: u32,
    /// Level of the second machine player (default: --level).
    #[arg(long, value_name = "NUM", hide = true)]
    pub level2: Option<u32>,
    /// Seed of the machine players' random choices, for reproducible games.
    #[arg(long, value_name = "NUM", allow_negative_numbers = true)]
    pub seed: Option<i64>,
    /// Address to host on (default 0.0.0.0:6161; port 0 picks a free one);
    /// with --display, where the web board listens (default 127.0.0.1:8080).
    #[arg(long, value_name = "ADDR", hide = true)]
    pub listen: Option<String>,
    /// Every network wait (connecting, greeting, opening, each turn, the
    /// score) at most SECS: a testing aid; the defaults are in protocol.md.
    #[arg(long, value_name = "SECS", hide = true)]
    pub net_timeout: Option<f64>,
    /// Machine thinking time per move in milliseconds.
    #[arg(long, value_name = "MS", hide = true)]
    pub move_time: Option<u64>,
    /// Read PDN FENs on standard input; print each one's moves and the
    /// positions they lead to.
    #[arg(long, hide = true)]
    pub list_moves: bool,
    /// Read PDN FENs on standard input; print the machine's move for each
    /// (`none` without a legal move).
    #[arg(long, hide = true)]
    pub best_move: bool,
    /// Count the leaves of the move tree to DEPTH and time it.
    #[arg(long, value_name = "DEPTH", hide = true)]
    pub perft: Option<u32>,
    /// Position for --perft, as a PDN FEN (default: the start).
    #[arg(long, value_name = "FEN", hide = true)]
    pub fen: Option<String>,
}

/// Why the program could not do what it was asked.
#[derive(Debug)]
pub enum CliError {
    /// `--display` was combined with an option it cannot honour, or the
    /// web board could not start.
    Display(String),
    /// A file could not be read or written.
    File(PathBuf, io::Error),
    /// The `--init` file is not a valid transcript.
    Init(PathBuf, TranscriptError),
    /// Setting up the network game failed.
    Net(NetError),
    /// A bad `--fen`.
    Fen(String),
    /// A bad `--net-timeout`.
    NetTimeout(f64),
    /// The terminal failed.
    Io(io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Display(e) => write!(f, "--display: {e}"),
            CliError::File(p, e) => write!(f, "{}: {e}", p.display()),
            CliError::Init(p, e) => write!(f, "{}: {e}", p.display()),
            CliError::Net(e) => write!(f, "{e}"),
            CliError::Fen(e) => write!(f, "--fen: {e}"),
            CliError::NetTimeout(s) => write!(
                f,
                "--net-timeout: {s} is not a number of seconds above 0 and at most {MAX_NET_TIMEOUT}"
            ),
            CliError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

impl From<NetError> for CliError {
    fn from(e: NetError) -> Self {
        CliError::Net(e)
    }
}

fn read_init(path: &Path) -> Result<Record, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::File(path.into(), e))?;
    read_transcript(&text).map_err(|e| CliError::Init(path.into(), e))
}

/// Seed from the clock when none is given: games then differ run to run.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    crate::rng::mix(nanos as u64 ^ u64::from(std::process::id()))
}

/// Prints the leaf count of `--perft` and how fast it came.
fn run_perft(opts: &Options, depth: u32, mut output: impl Write) -> Result<(), CliError> {
    let pos = match &opts.fen {
        Some(fen) => Position::from_pdn(fen).map_err(|e| CliError::Fen(e.to_string()))?,
        None => Position::initial(),
    };
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    let rate = nodes as f64 / secs.max(1e-9) / 1e6;
    writeln!(
        output,
        "perft {depth}: {nodes} leaves in {secs:.3} s ({rate:.1} M leaves/s)"
    )?;
    Ok(())
}

/// Hosts game `name`: waits for the guest and sends it the opening
/// entries of `record` and its colour.
fn host_game(opts: &Options, name: &str, record: &Record, guest: Color) -> Result<Peer, CliError> {
    let addr = opts
        .listen
        .clone()
        .unwrap_or_else(|| format!("0.0.0.0:{DEFAULT_PORT}"));
    let listener = TcpListener::bind(&addr).map_err(|e| NetError::Listen(addr.clone(), e))?;
    let port = listener
        .local_addr()
        .map_err(|e| NetError::Listen(addr.clone(), e))?
        .port();
    eprintln!("checkers: hosting game {name} on port {port}; waiting for the other player");
    let mut peer = Peer::host_with(&listener, name, net_timeouts(opts)?)?;
    // A guest gone already forfeits at its first turn.
    let _ = peer.send_setup(record, guest);
    Ok(peer)
}

/// The longest `--net-timeout`, seconds: a day. Every limit is added to
/// the present instant, so an unbounded one would overflow the clock.
pub const MAX_NET_TIMEOUT: f64 = 86_400.0;

/// The network limits: the documented ones, or all `--net-timeout`.
fn net_timeouts(opts: &Options) -> Result<Timeouts, CliError> {
    match opts.net_timeout {
        None => Ok(Timeouts::default()),
        // Written so that NaN is refused too.
        Some(secs) if secs > 0.0 && secs <= MAX_NET_TIMEOUT => {
            Ok(Timeouts::uniform(Duration::from_secs_f64(secs)))
        }
        Some(secs) => Err(CliError::NetTimeout(secs)),
    }
}

/// Runs the program as `opts` say, with the terminal on `input`/`output`.
pub fn run(opts: &Options, input: impl BufRead, mut output: impl Write) -> Result<(), CliError> {
    if opts.list_moves {
        return list_moves(input, output).map_err(CliError::Io);
    }
    if let Some(depth) = opts.perft {
        return run_perft(opts, depth, output);
    }
    let seed = opts.seed.map_or_else(clock_seed, |s| s as u64);
    let move_time = opts
        .move_time
        .map_or(DEFAULT_MOVE_TIME, Duration::from_millis);
    if opts.best_move {
        let machine = Machine::new(seed, opts.level, move_time);
        return best_moves(machine, input, output).map_err(CliError::Io);
    }
    if opts.display {
        return display(opts, seed, move_time);
    }

    let first_is_machine = opts.player1.is_some();
    // The game this program sets up itself (unless it joins one).
    let local_game = || -> Result<(Record, Color), CliError> {
        let record = opts
            .init
            .as_deref()
            .map_or_else(|| Ok(Record::new()), read_init)?;
        Ok((
            record,
            if opts.white {
                Color::White
            } else {
                Color::Black
            },
        ))
    };

    let (mut record, first_color, second) = match opts.player2.as_deref() {
        None => {
            let (record, color) = local_game()?;
            let level = opts.level2.unwrap_or(opts.level);
            let seed = machine_seeds(seed, color)[color.opponent().index()];
            let machine = Machine::new(seed, level, move_time);
            (record, color, Player::Machine(machine))
        }
        Some(spec) => match spec.split_once('@') {
            None => {
                let (record, color) = local_game()?;
                let peer = host_game(opts, spec, &record, color.opponent())?;
                (record, color, Player::Remote(peer))
            }
            Some((name, host)) => {
                if opts.white || opts.init.is_some() {
                    log::warn!(
                        "joining: the host decides colours and opening moves; --white and --init are ignored"
                    );
                }
                let mut peer = Peer::join_with(name, host, net_timeouts(opts)?)?;
                let (record, color) = peer
                    .receive_setup()
                    .map_err(|e| NetError::Setup(peer.address(), e))?;
                (record, color, Player::Remote(peer))
            }
        },
    };

    let first = if first_is_machine {
        let seed = machine_seeds(seed, first_color)[first_color.index()];
        Player::Machine(Machine::new(seed, opts.level, move_time))
    } else {
        Player::Person
    };
    let mut seats = match first_color {
        Color::Black => [first, second],
        Color::White => [second, first],
    };
    // A machine game shows its transcript unless it goes to a file.
    let visible = !first_is_machine || opts.transcript.is_none();
    let mut console = Console::new(input, &mut output, visible);
    play(&mut record, &mut seats, &mut console)?;

    if let Some(path) = &opts.transcript {
        std::fs::write(path, write_transcript(&record))
            .map_err(|e| CliError::File(path.clone(), e))?;
    }
    Ok(())
}

/// `--display`: the game the options set up, on the web board's checkers
/// page; serves until the program is stopped. The first line on stdout is
/// the page's address.
fn display(opts: &Options, seed: u64, move_time: Duration) -> Result<(), CliError> {
    use crate::web::checkers::Setup;
    if opts.player2.is_some() {
        return Err(CliError::Display(
            "the web board plays against this program's machine; leave out --player2 \
             (a game with a remote program is played at the terminal)"
                .into(),
        ));
    }
    let record = opts
        .init
        .as_deref()
        .map_or_else(|| Ok(Record::new()), read_init)?;
    let first_color = if opts.white {
        Color::White
    } else {
        Color::Black
    };
    let first = if opts.player1.is_some() {
        Seat::Machine(opts.level)
    } else {
        Seat::Human
    };
    let second = Seat::Machine(opts.level2.unwrap_or(opts.level));
    let seats = match first_color {
        Color::Black => [first, second],
        Color::White => [second, first],
    };
    let seeds = machine_seeds(seed, first_color);
    let setup = Setup {
        record,
        seats,
        seeds,
        seed,
        move_time,
        transcript: opts.transcript.clone(),
    };
    let listen = opts.listen.as_deref().unwrap_or("127.0.0.1:8080");
    let (host, port) = listen
        .rsplit_once(':')
        .and_then(|(host, port)| Some((host, port.parse::<u16>().ok()?)))
        .ok_or_else(|| {
            CliError::Display(format!(
                "--listen={listen}: give the address as HOST:PORT (port 0 picks a free one)"
            ))
        })?;
    let app = crate::web::App::new();
    let id = app.checkers.open(setup);
    let options = crate::web::ServeOptions {
        host: host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string(),
        port,
        page: format!("checkers?game={id}"),
    };
    crate::web::serve_app(&options, app).map_err(CliError::Display)
}

/// For each PDN FEN line on `input`, the machine's move, `none` if there
/// is none, or `error: …` for an unreadable FEN. The machine keeps its
/// table from one position to the next, as within a game.
fn best_moves(mut machine: Machine, input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        match Position::from_pdn(&line) {
            Ok(pos) => match machine.choose(&pos, &[]) {
                Some((mv, _)) => writeln!(output, "{mv}")?,
                None => writeln!(output, "none")?,
            },
            Err(e) => writeln!(output, "error: {e}")?,
        }
        output.flush()?;
    }
    Ok(())
}

/// For each PDN FEN line on `input`, one line of `move=successor` pairs
/// (the successor as a PDN FEN), or `error: …` for an unreadable FEN.
fn list_moves(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match Position::from_pdn(&line) {
            Ok(pos) => {
                let items: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|&m| format!("{m}={}", pos.play(m).to_pdn()))
                    .collect();
                writeln!(output, "{}", items.join(" "))?;
            }
            Err(e) => writeln!(output, "error: {e}")?,
        }
    }
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timeouts(arg: &str) -> Result<Timeouts, CliError> {
        net_timeouts(&Options::parse_from(["checkers", arg]))
    }

    #[test]
    fn net_timeout_is_bounded() {
        assert!(timeouts("--net-timeout=0.3").is_ok());
        assert!(timeouts("--net-timeout=86400").is_ok());
        // 1.8e19 s fits a Duration, but the present instant plus it does not.
        for bad in ["1.8e19", "86400.5", "0", "-1", "NaN", "inf"] {
            let err = timeouts(&format!("--net-timeout={bad}")).unwrap_err();
            assert!(err.to_string().contains("at most 86400"), "{bad}: {err}");
        }
    }
}
