//! The `checkers` binary end to end: machine self-play with seeds, `--init`
//! and `--transcript`, `--display`, and a host and a guest process playing
//! a whole game over loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};

use antichess::checkers::read_transcript;

const BIN: &str = env!("CARGO_BIN_EXE_checkers");

/// Shallow levels keep these games quick and, finishing far inside the
/// time budget, reproducible.
const LEVEL: &str = "--level=3";

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The transcript must read back as a finished game.
fn assert_finished(transcript: &str) {
    let record = read_transcript(transcript).unwrap_or_else(|e| panic!("{e}\n{transcript}"));
    assert!(record.result().is_some(), "{transcript}");
}

#[test]
fn same_seed_same_game() {
    let a = stdout(&run(&["--player1=auto", "--seed=4242421", LEVEL]));
    let b = stdout(&run(&["--player1=auto", "--seed=4242421", LEVEL]));
    assert_eq!(a, b);
    assert_finished(&a);
    let others: Vec<String> = (1..4)
        .map(|s| stdout(&run(&["--player1=auto", &format!("--seed={s}"), LEVEL])))
        .collect();
    assert!(others.iter().any(|o| *o != a), "seeds do not vary the game");
}

#[test]
fn init_then_transcript_file() {
    let dir = std::env::temp_dir().join(format!("checkers-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let init = dir.join("init.txt");
    let out = dir.join("out.txt");
    std::fs::write(&init, "1. 11-15 24-20\n2. 8-11 draw\n2. reject 28-24\n").unwrap();
    let args = [
        "--player1=auto".to_string(),
        format!("--init={}", init.display()),
        format!("--transcript={}", out.display()),
        "--seed=3".into(),
        LEVEL.into(),
    ];
    let printed = stdout(
        &Command::new(BIN)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap(),
    );
    assert_eq!(printed, "", "with --transcript nothing is printed");
    let transcript = std::fs::read_to_string(&out).unwrap();
    assert!(
        transcript.starts_with("1. 11-15 24-20\n2. 8-11 draw\n2. reject 28-24\n3. "),
        "{transcript}"
    );
    assert_finished(&transcript);

    std::fs::write(&init, "1. 11-15 24-20\n2. 8-11 21-16\n").unwrap();
    let bad = Command::new(BIN)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("line 2, at `21-16`"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn display_with_a_remote_player_is_refused_clearly() {
    // `--display` alone serves the web board (tests/web_checkers.rs); a
    // game against a remote program stays at the terminal.
    let out = run(&["--display", "--player2=ourgame"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("leave out --player2"));
}

#[test]
fn level_must_be_a_number() {
    assert!(!run(&["--level=-1"]).status.success());
    assert!(!run(&["--player1=robot"]).status.success());
}

#[test]
fn host_and_guest_play_a_whole_game() {
    let mut host = Command::new(BIN)
        .args([
            "--player1=auto",
            "--player2=loop",
            "--listen=127.0.0.1:0",
            "--white",
            "--seed=11",
            LEVEL,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut host_err = BufReader::new(host.stderr.take().unwrap());
    let mut banner = String::new();
    host_err.read_line(&mut banner).unwrap();
    let port = banner
        .split_whitespace()
        .skip_while(|w| *w != "port")
        .nth(1)
        .and_then(|p| p.trim_end_matches(';').parse::<u16>().ok())
        .unwrap_or_else(|| panic!("no port in {banner:?}"));
    // Keep draining the host's log so it can never block on a full pipe.
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = host_err.read_to_string(&mut rest);
        rest
    });
    let guest = Command::new(BIN)
        .args([
            "--player1=auto",
            &format!("--player2=loop@127.0.0.1:{port}"),
            "--seed=12",
            LEVEL,
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let host_out = host.wait_with_output().unwrap();
    let _ = drain.join();
    let guest_transcript = stdout(&guest);
    let host_transcript = stdout(&host_out);
    assert_eq!(host_transcript, guest_transcript);
    assert_finished(&host_transcript);
}

#[test]
fn list_moves_for_the_oracle() {
    let mut child = Command::new(BIN)
        .arg("--list-moves")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"W:W18,K30:B15,K7,8,6,25,26,27\nnonsense\nB:W5:B\n")
        .unwrap();
    drop(stdin);
    let out = stdout(&child.wait_with_output().unwrap());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[0].contains("18-11-4=B:WK4,K30:B6,K7,25,26,27"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("error:"));
    assert_eq!(lines[2], "");
}
