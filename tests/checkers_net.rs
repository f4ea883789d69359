//! The checkers network peer against misbehaving programs, over loopback.
//!
//! Each test puts a fake program written here at the other end: it plays
//! by the protocol up to a chosen point and then stays silent, sends an
//! endless line, junk bytes, a message trickled byte by byte, half a line,
//! an illegal entry, or hangs up. Our side must end the game there with
//! the fake's forfeit and a clear message (or, before the game, with a
//! clear error), and never wait longer than its (here shortened) limits.
//! Every test runs under a generous guard so that a hang fails it.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, Once};
use std::thread::{self, ThreadId};
use std::time::Duration;

use antichess::checkers::net::{NetError, Peer, PeerError, Timeouts};
use antichess::checkers::player::Machine;
use antichess::checkers::{Action, Color, Record, Score};
use antichess::play::checkers::session::{Player, play};
use antichess::play::checkers::ui::Console;

/// Every network limit in these tests.
const QUICK: Duration = Duration::from_millis(300);

/// How it reads in messages.
const QUICK_TEXT: &str = "0.3 s";

/// A test that takes this long has hung.
const GUARD: Duration = Duration::from_secs(60);

fn quick() -> Timeouts {
    Timeouts::uniform(QUICK)
}

/// Runs `f` on its own thread and fails if it does not finish in time.
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let _ = log::set_logger(&Capture);
        log::set_max_level(log::LevelFilter::Warn);
    });
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(GUARD) {
        Ok(v) => v,
        Err(RecvTimeoutError::Timeout) => panic!("hung: no result within {GUARD:?}"),
        Err(RecvTimeoutError::Disconnected) => panic!("the test thread panicked"),
    }
}

/// Warnings logged, with the thread that logged them.
static LOGGED: Mutex<Vec<(ThreadId, String)>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }

    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            let entry = (thread::current().id(), r.args().to_string());
            LOGGED.lock().unwrap_or_else(|e| e.into_inner()).push(entry);
        }
    }

    fn flush(&self) {}
}

/// The warnings this thread has logged so far (under [`within`]).
fn warnings() -> Vec<String> {
    let me = thread::current().id();
    let logged = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
    logged
        .iter()
        .filter(|(t, _)| *t == me)
        .map(|(_, m)| m.clone())
        .collect()
}

fn has_warning(warnings: &[String], part: &str) {
    assert!(
        warnings.iter().any(|w| w.contains(part)),
        "no warning with `{part}` in {warnings:#?}"
    );
}

/// What the fake program does when its moment comes.
#[derive(Clone, Copy, Debug)]
enum Misbehave {
    /// Keeps the connection open and says nothing.
    Silent,
    /// Sends one line without end.
    Endless,
    /// Sends bytes that are not UTF-8.
    Junk,
    /// Sends a line with a terminal escape sequence.
    Control,
    /// Sends a byte every 20 ms, never a whole line.
    Trickle,
    /// Sends half an entry and hangs up.
    HalfLine,
    /// Hangs up.
    HangUp,
    /// Sends `accept` with no draw on offer.
    Illegal,
}

const ALL: [Misbehave; 8] = [
    Misbehave::Silent,
    Misbehave::Endless,
    Misbehave::Junk,
    Misbehave::Control,
    Misbehave::Trickle,
    Misbehave::HalfLine,
    Misbehave::HangUp,
    Misbehave::Illegal,
];

impl Misbehave {
    /// Part of the message our side must give.
    fn message(self) -> &'static str {
        match self {
            Misbehave::Silent | Misbehave::Trickle => QUICK_TEXT,
            Misbehave::Endless => "over 255 bytes",
            Misbehave::Junk | Misbehave::Control => "not UTF-8 text",
            Misbehave::HalfLine | Misbehave::HangUp => "closed the connection",
            Misbehave::Illegal => "it sent `accept`: no draw is on offer",
        }
    }
}

/// What the fake saw: the lines it received, and whether its endless
/// line was cut off by our side closing (rather than read to the end).
#[derive(Debug, Default)]
struct Seen {
    lines: Vec<String>,
    cut_off: bool,
}

/// Does `how` on `stream`, then reads what is left (through `reader`)
/// until our side closes.
fn misbehave(
    mut reader: BufReader<TcpStream>,
    mut stream: TcpStream,
    how: Misbehave,
    seen: &mut Seen,
) {
    let result = match how {
        Misbehave::Silent | Misbehave::Illegal => {
            if matches!(how, Misbehave::Illegal) {
                let _ = stream.write_all(b"accept\n");
            }
            Ok(())
        }
        Misbehave::Endless => {
            // 64 MiB would be read in full only by an unbounded reader.
            let chunk = [b'x'; 4096];
            let mut result = Ok(());
            for _ in 0..16 * 1024 {
                result = stream.write_all(&chunk);
                if result.is_err() {
                    seen.cut_off = true;
                    break;
                }
            }
            result
        }
        Misbehave::Junk => stream.write_all(b"\xff\xfe\x00\x80junk\n"),
        Misbehave::Control => stream.write_all(b"11-15\x1b[2J\n"),
        Misbehave::Trickle => {
            let mut result = Ok(());
            // Past the length limit, unless our side stops it in time.
            for _ in 0..400 {
                result = stream.write_all(b"2");
                if result.is_err() {
                    break;
                }
                thread::sleep(Duration::from_millis(20));
            }
            result
        }
        Misbehave::HalfLine => stream
            .write_all(b"24-2")
            .and_then(|()| stream.shutdown(Shutdown::Both)),
        Misbehave::HangUp => stream.shutdown(Shutdown::Both),
    };
    if result.is_ok() {
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        seen.lines.extend(rest.lines().map(str::to_string));
    }
}

/// Plays `me` by the rules (always the first legal move) from `record`
/// for `fair` of its own turns, then misbehaves at the next; resigns
/// instead when `fair` is `None`, and then misbehaves while our side
/// waits for its score.
fn fake_player(
    mut reader: BufReader<TcpStream>,
    me: Color,
    mut record: Record,
    fair: Option<usize>,
    how: Misbehave,
    seen: &mut Seen,
) {
    let mut writer = reader.get_ref().try_clone().unwrap();
    let mut turns = 0;
    while record.result().is_none() {
        if record.side_to_act() == me {
            let action = match fair {
                Some(n) if turns == n => return misbehave(reader, writer, how, seen),
                Some(_) => Action::Move(record.position().legal_moves()[0]),
                None => Action::Resign,
            };
            writer.write_all(format!("{action}\n").as_bytes()).unwrap();
            record.apply(action).unwrap();
            turns += 1;
        } else {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 {
                return;
            }
            let line = line.trim_end().to_string();
            seen.lines.push(line.clone());
            match record.parse_allowed(&line) {
                Ok(action) => record.apply(action).unwrap(),
                Err(_) => return, // our side ended the game
            }
        }
    }
    // The game is over: our side now sends the score and waits for ours.
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    seen.lines.push(line.trim_end().to_string());
    misbehave(reader, writer, how, seen);
}

/// A quick machine player for our side.
fn machine() -> Player {
    Player::Machine(Machine::new(7, 2, Duration::from_millis(20)))
}

/// Plays `record` with our machine as `ours` and `peer` as the other side;
/// returns the finished record.
fn play_against(peer: Peer, mut record: Record, ours: Color) -> Record {
    let mut seats = match ours {
        Color::Black => [machine(), Player::Remote(peer)],
        Color::White => [Player::Remote(peer), machine()],
    };
    let mut console = Console::new(io::empty(), io::sink(), false);
    play(&mut record, &mut seats, &mut console).unwrap();
    record
}

/// What happened in one game.
struct Outcome {
    record: Record,
    warnings: Vec<String>,
    seen: Seen,
}

/// Our side hosts (as Black, so moving first) a fake guest that plays
/// `fair` turns and then does `how`.
fn host_against(fair: Option<usize>, how: Misbehave) -> Outcome {
    within(move || {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let fake = thread::spawn(move || {
            let mut seen = Seen::default();
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            stream.write_all(b"checkers g\n").unwrap();
            let mut reader = BufReader::new(stream);
            let mut colour = String::new();
            reader.read_line(&mut colour).unwrap();
            assert_eq!(colour, "white\n");
            fake_player(reader, Color::White, Record::new(), fair, how, &mut seen);
            seen
        });
        let mut peer = Peer::host_with(&listener, "g", quick()).unwrap();
        let record = Record::new();
        peer.send_setup(&record, Color::White).unwrap();
        let record = play_against(peer, record, Color::Black);
        let seen = fake.join().unwrap();
        Outcome {
            record,
            warnings: warnings(),
            seen,
        }
    })
}

/// Our side joins a fake host that gives it Black (moving first) and then
/// plays White for `fair` turns before doing `how`.
fn join_against(fair: Option<usize>, how: Misbehave) -> Outcome {
    within(move || {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let fake = thread::spawn(move || {
            let mut seen = Seen::default();
            let (mut stream, _) = listener.accept().unwrap();
            stream.write_all(b"black\n").unwrap();
            let mut reader = BufReader::new(stream);
            let mut hello = String::new();
            reader.read_line(&mut hello).unwrap();
            assert_eq!(hello, "checkers g\n");
            fake_player(reader, Color::White, Record::new(), fair, how, &mut seen);
            seen
        });
        let mut peer = Peer::join_with("g", &addr, quick()).unwrap();
        let (record, colour) = peer.receive_setup().unwrap();
        assert_eq!(colour, Color::Black);
        let record = play_against(peer, record, Color::Black);
        let seen = fake.join().unwrap();
        Outcome {
            record,
            warnings: warnings(),
            seen,
        }
    })
}

/// The fake (White) lost by forfeit, we said why, and it was told the score.
fn check_forfeit(outcome: &Outcome, how: Misbehave) {
    let black_wins = Score::win_for(Color::Black);
    assert_eq!(outcome.record.result(), Some(black_wins), "{how:?}");
    assert_eq!(outcome.record.actions().last(), Some(&Action::Resign));
    has_warning(&outcome.warnings, "the other program (white) forfeits");
    has_warning(&outcome.warnings, how.message());
    if matches!(how, Misbehave::Endless) {
        assert!(outcome.seen.cut_off, "the endless line was read to its end");
    }
    // Whoever can still hear is told the score.
    if matches!(how, Misbehave::Silent | Misbehave::Illegal) {
        assert_eq!(outcome.seen.lines.last(), Some(&black_wins.to_string()));
    }
}

#[test]
fn a_guest_misbehaving_at_its_first_turn_forfeits() {
    for how in ALL {
        check_forfeit(&host_against(Some(0), how), how);
    }
}

#[test]
fn a_guest_misbehaving_mid_game_forfeits() {
    for how in ALL {
        check_forfeit(&host_against(Some(5), how), how);
    }
}

#[test]
fn a_host_misbehaving_at_its_first_turn_forfeits() {
    for how in ALL {
        check_forfeit(&join_against(Some(0), how), how);
    }
}

#[test]
fn a_host_misbehaving_mid_game_forfeits() {
    for how in ALL {
        check_forfeit(&join_against(Some(4), how), how);
    }
}

#[test]
fn misbehaving_after_the_game_changes_nothing() {
    for how in ALL {
        for outcome in [host_against(None, how), join_against(None, how)] {
            // The fake resigned: the game stands as played.
            let black_wins = Score::win_for(Color::Black);
            assert_eq!(outcome.record.result(), Some(black_wins), "{how:?}");
            assert!(outcome.seen.lines.contains(&black_wins.to_string()));
            assert!(
                !outcome.warnings.iter().any(|w| w.contains("forfeits")),
                "{how:?}: {:?}",
                outcome.warnings
            );
        }
    }
}

#[test]
fn a_guest_gone_before_the_opening_forfeits() {
    let outcome = within(|| {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let fake = thread::spawn(move || {
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            stream.write_all(b"checkers g\n").unwrap();
            stream.shutdown(Shutdown::Both).unwrap();
        });
        let mut peer = Peer::host_with(&listener, "g", quick()).unwrap();
        fake.join().unwrap();
        let record = Record::new();
        // Sending may or may not notice; the guest's turn does.
        let _ = peer.send_setup(&record, Color::White);
        let record = play_against(peer, record, Color::Black);
        (record, warnings())
    });
    assert_eq!(outcome.0.result(), Some(Score::win_for(Color::Black)));
    has_warning(&outcome.1, "the other program (white) forfeits");
}

/// Connects to `port`, does `how` in place of a greeting; returns what
/// it was told.
fn bad_guest(port: u16, how: Misbehave) -> thread::JoinHandle<Seen> {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    thread::spawn(move || {
        let mut seen = Seen::default();
        let reader = BufReader::new(stream.try_clone().unwrap());
        misbehave(reader, stream, how, &mut seen);
        seen
    })
}

#[test]
fn a_host_turns_bad_guests_away_and_waits_for_a_good_one() {
    let (warned, seen, wrong_name) = within(|| {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // Connections are accepted in the order they were made.
        let bad: Vec<_> = ALL.iter().map(|&how| (how, bad_guest(port, how))).collect();
        let mut wrong = TcpStream::connect(("127.0.0.1", port)).unwrap();
        wrong.write_all(b"checkers other\n").unwrap();
        let mut good = TcpStream::connect(("127.0.0.1", port)).unwrap();
        good.write_all(b"checkers g\n").unwrap();
        let mut peer = Peer::host_with(&listener, "g", quick()).unwrap();
        peer.send_setup(&Record::new(), Color::Black).unwrap();
        let mut colour = String::new();
        BufReader::new(&good).read_line(&mut colour).unwrap();
        assert_eq!(colour, "black\n");
        let mut answer = String::new();
        wrong.read_to_string(&mut answer).unwrap();
        let seen: Vec<_> = bad
            .into_iter()
            .map(|(how, h)| (how, h.join().unwrap()))
            .collect();
        (warnings(), seen, answer)
    });
    assert_eq!(wrong_name, "error no game g here\n");
    has_warning(
        &warned,
        "asked for `checkers other`, not game g; still waiting",
    );
    for (how, seen) in seen {
        let expected = match how {
            Misbehave::Illegal => "asked for `accept`",
            how => how.message(),
        };
        has_warning(&warned, expected);
        if matches!(how, Misbehave::Endless) {
            assert!(seen.cut_off, "the endless greeting was read to its end");
        }
    }
}

/// What a fake host does with the connection (after reading the
/// greeting, unless it never accepts).
#[derive(Clone, Copy, Debug)]
enum BadHost {
    NeverAccepts,
    Then(&'static [u8], Misbehave),
}

fn join_bad_host(host: BadHost) -> Result<(Record, Color), NetError> {
    within(move || {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let fake = thread::spawn(move || {
            let BadHost::Then(opening, how) = host else {
                thread::sleep(QUICK * 3);
                return;
            };
            let (mut stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut hello = String::new();
            reader.read_line(&mut hello).unwrap();
            stream.write_all(opening).unwrap();
            misbehave(reader, stream, how, &mut Seen::default());
        });
        let result = Peer::join_with("g", &addr, quick())
            .and_then(|mut p| p.receive_setup().map_err(|e| NetError::Setup(addr, e)));
        fake.join().unwrap();
        result
    })
}

fn setup_error(host: BadHost) -> PeerError {
    match join_bad_host(host) {
        Err(NetError::Setup(_, e)) => e,
        other => panic!("{host:?}: expected a setup error, got {other:?}"),
    }
}

#[test]
fn a_guest_reports_a_host_misbehaving_before_the_game() {
    for how in ALL {
        for opening in [&b""[..], b"11-15\n24-20\n"] {
            let e = setup_error(BadHost::Then(opening, how));
            let text = e.to_string();
            match how {
                // `accept` with no offer, where an entry or colour belongs.
                Misbehave::Illegal => assert!(text.contains("no draw is on offer"), "{text}"),
                how => assert!(text.contains(how.message()), "{how:?}: {text}"),
            }
        }
    }
    let e = setup_error(BadHost::Then(b"error no game g here\n", Misbehave::Silent));
    assert!(matches!(e, PeerError::Refused(_)), "{e}");
    let e = setup_error(BadHost::Then(b"24-20\n", Misbehave::Silent));
    assert_eq!(
        e.to_string(),
        "it sent `24-20`: `24-20` is not a legal move here"
    );
    let e = setup_error(BadHost::NeverAccepts);
    assert!(matches!(e, PeerError::TimedOut(_)), "{e}");
}

#[test]
fn joining_nobody_is_a_clear_error() {
    let addr = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().to_string()
    };
    let e = within(move || Peer::join_with("g", &addr, quick()).err());
    let e = e.expect("joined a closed port");
    assert!(matches!(e, NetError::Connect(..)), "{e}");
    assert!(
        e.to_string().starts_with("cannot connect to 127.0.0.1:"),
        "{e}"
    );
}

/// Runs the `checkers` program with `args`; `other` plays the far end,
/// given the port the program hosts on (from its standard error) or
/// `None` when it joins. Returns the exit success, stdout and stderr.
fn run_checkers(
    args: &[String],
    hosts: bool,
    other: impl FnOnce(u16) + Send + 'static,
) -> (bool, String, String) {
    let args = args.to_vec();
    within(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        if hosts {
            stderr.read_line(&mut first).unwrap();
            let port = first
                .split("on port ")
                .nth(1)
                .and_then(|r| r.split(';').next())
                .and_then(|p| p.parse().ok())
                .unwrap_or_else(|| panic!("no port in {first:?}"));
            other(port);
        }
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let mut err = first;
        stderr.read_to_string(&mut err).unwrap();
        (child.wait().unwrap().success(), out, err)
    })
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_program_hosting_a_silent_guest_wins_by_forfeit() {
    let args = words(
        "--player1=auto --player2=g --listen=127.0.0.1:0 --net-timeout=0.3 --level=2 --move-time=20",
    );
    let (ok, out, err) = run_checkers(&args, true, |port| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(b"checkers g\n").unwrap();
        let mut rest = String::new();
        let _ = s.read_to_string(&mut rest);
    });
    assert!(ok, "{err}");
    // The machine (Black) moves, White never answers.
    assert!(out.ends_with(" resign\n1-0\n"), "{out}");
    assert!(
        err.contains(
            "the other program (white) forfeits: it sent no complete message within 0.3 s"
        ),
        "{err}"
    );
}

#[test]
fn the_program_joining_a_silent_host_says_why_it_gives_up() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let args = words(&format!(
        "--player1=auto --player2=g@{addr} --net-timeout=0.3"
    ));
    let holder = thread::spawn(move || {
        let (mut s, _) = listener.accept().unwrap();
        let mut rest = String::new();
        let _ = s.read_to_string(&mut rest);
    });
    let (ok, out, err) = run_checkers(&args, false, |_| {});
    holder.join().unwrap();
    assert!(!ok);
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "checkers: the host at {addr} failed before the game began: it sent no complete message within 0.3 s\n"
        )
    );
}
