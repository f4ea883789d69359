//! The handout's two sample terminal sessions (section 5), replayed through
//! the text interface. The opponent is a scripted program on the other end
//! of a loopback connection, speaking the wire protocol; the terminal
//! echoes what the person types, so the screen must equal the handout's
//! page exactly.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::rc::Rc;
use std::thread;

use antichess::checkers::net::Peer;
use antichess::checkers::{Color, Record};
use antichess::play::checkers::session::{Player, play};
use antichess::play::checkers::ui::Console;

/// What the terminal shows: the program's output and the echoed input.
#[derive(Clone, Default)]
struct Screen(Rc<RefCell<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The keyboard: typed lines, echoed to the screen as they are read.
struct Keyboard {
    lines: VecDeque<Vec<u8>>,
    screen: Screen,
}

impl Read for Keyboard {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.fill_buf()?[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Keyboard {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(self.lines.front().map_or(&[], |l| l.as_slice()))
    }

    fn consume(&mut self, n: usize) {
        if let Some(line) = self.lines.front_mut() {
            self.screen.0.borrow_mut().extend(line.drain(..n));
            if line.is_empty() {
                self.lines.pop_front();
            }
        }
    }
}

/// Plays the person (at `person`) typing `typed` against a remote program
/// that sends `remote` (its entries and then the score) and then, if
/// `hang_up`, closes its sending side; returns the screen and everything
/// the remote program received.
fn session(person: Color, typed: &[&str], remote: &[&str], hang_up: bool) -> (String, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script: String = remote.iter().map(|l| format!("{l}\n")).collect();
    let opponent = thread::spawn(move || {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(format!("checkers sample\n{script}").as_bytes())
            .unwrap();
        if hang_up {
            s.shutdown(std::net::Shutdown::Write).unwrap();
        }
        let mut received = String::new();
        s.read_to_string(&mut received).unwrap();
        received
    });
    let mut peer = Peer::host(&listener, "sample").unwrap();
    let mut record = Record::new();
    peer.send_setup(&record, person.opponent()).unwrap();
    let mut seats = match person {
        Color::Black => [Player::Person, Player::Remote(peer)],
        Color::White => [Player::Remote(peer), Player::Person],
    };
    let screen = Screen::default();
    let keyboard = Keyboard {
        lines: typed
            .iter()
            .map(|l| format!("{l}\n").into_bytes())
            .collect(),
        screen: screen.clone(),
    };
    let mut console = Console::new(keyboard, screen.clone(), true);
    play(&mut record, &mut seats, &mut console).unwrap();
    drop(seats);
    let received = opponent.join().unwrap();
    let shown = String::from_utf8(screen.0.borrow().clone()).unwrap();
    (shown, received)
}

const RULE: &str = "+-+-+-+-+-+-+-+-+";

fn board(rows: [&str; 8]) -> String {
    let mut out = format!("{RULE}\n");
    for r in rows {
        out.push_str(&format!("{r}\n{RULE}\n"));
    }
    out
}

#[test]
fn person_playing_black() {
    let typed = ["11-15", "8-11", "draw", "9-13", "b", "15-22", "resign"];
    let remote = ["24-20", "28-24", "reject", "22-18", "25-18", "0-1"];
    let (screen, received) = session(Color::Black, &typed, &remote, false);
    let expected = String::from("1. 11-15\n1. ... 24-20\n2. 8-11\n2. ... 28-24\n3. draw\n")
        + "3. ... reject\n3. 9-13\n3. ... 22-18\n4. b\n"
        + &board([
            "| |b| |b| |b| |b|",
            "|b| |b| |b| | | |",
            "| | | |b| |b| |b|",
            "|b| | | |b| | | |",
            "| | | |w| | | |w|",
            "|w| | | |w| |w| |",
            "| |w| |w| |w| | |",
            "|w| |w| |w| |w| |",
        ])
        + "4. 15-22\n4. ... 25-18\n5. resign\n0-1\n";
    assert_eq!(screen, expected);
    assert_eq!(
        received,
        "white\n11-15\n8-11\ndraw\n9-13\n15-22\nresign\n0-1\n"
    );
}

#[test]
fn person_playing_white() {
    let typed = ["24-20", "28-24", "reject", "22-18", "21-17", "b", "25-18"];
    let remote = ["11-15", "8-11", "draw", "9-13", "15-22", "resign", "0-1"];
    let (screen, received) = session(Color::White, &typed, &remote, false);
    let expected = String::from("1. 11-15 24-20\n2. 8-11 28-24\n3. draw reject\n3. 9-13 22-18\n")
        + "4. 15-22 21-17\nError: illegal move. Try again.\n4. 15-22 b\n"
        + &board([
            "| |b| |b| |b| |b|",
            "|b| |b| |b| | | |",
            "| | | |b| |b| |b|",
            "|b| | | | | | | |",
            "| | | | | | | |w|",
            "|w| |b| |w| |w| |",
            "| |w| |w| |w| | |",
            "|w| |w| |w| |w| |",
        ])
        + "4. 15-22 25-18\n5. resign\n0-1\n";
    assert_eq!(screen, expected);
    assert_eq!(received, "black\n24-20\n28-24\nreject\n22-18\n25-18\n0-1\n");
}

#[test]
fn illegal_remote_move_is_a_resignation() {
    // White's remote moves a black man: it resigns, and is told the
    // score (not its own resignation).
    let (screen, received) = session(Color::Black, &["11-15"], &["9-13", "1-0"], false);
    assert_eq!(screen, "1. 11-15\n1. ... resign\n1-0\n");
    assert_eq!(received, "white\n11-15\n1-0\n");
}

#[test]
fn dropped_connection_is_a_resignation() {
    let (screen, received) = session(Color::White, &["24-20"], &["11-15"], true);
    assert_eq!(screen, "1. 11-15 24-20\n2. resign\n0-1\n");
    assert_eq!(received, "black\n24-20\n0-1\n");
}

#[test]
fn end_of_input_resigns_for_the_person() {
    let (screen, received) = session(Color::Black, &[], &["1-0"], false);
    assert_eq!(screen, "1. \n1. resign\n0-1\n");
    assert_eq!(received, "white\nresign\n0-1\n");
}
