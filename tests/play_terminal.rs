//! `antichess play` driven as a person would use it: the real binary in a
//! tmux terminal, keys sent with `send-keys` and the screen read back with
//! `capture-pane`. Waits poll the screen for the expected text; nothing
//! depends on how fast the machine is.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_antichess");

/// How long to wait for a screen before giving up (generous: the machine
/// may be shared with builds).
const PATIENCE: Duration = Duration::from_secs(30);

/// A tmux server of our own (its own socket), killed on drop.
struct Terminal {
    socket: String,
}

impl Terminal {
    fn start(dir: &Path, command: &str) -> Terminal {
        // Tests run in parallel: each terminal gets a server of its own.
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let socket = format!("antichess-play-test-{}-{n}", std::process::id());
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "new-session",
                "-d",
                "-s",
                "play",
                "-x",
                "110",
                "-y",
                "60",
            ])
            .arg("-c")
            .arg(dir)
            .arg(command)
            .status()
            .expect("tmux must be installed (apt-get install tmux) for the terminal test");
        assert!(status.success());
        let terminal = Terminal { socket };
        terminal.tmux(&["set-option", "-t", "play", "remain-on-exit", "on"]);
        terminal
    }

    /// Runs a tmux command on this terminal's server.
    fn run_tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap()
    }

    fn tmux(&self, args: &[&str]) -> String {
        String::from_utf8_lossy(&self.run_tmux(args).stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-t", "play"])
    }

    /// Types a line and presses Enter.
    fn type_line(&self, line: &str) {
        self.send_keys(&["-l", line]);
        self.send_keys(&["Enter"]);
    }

    /// Sends keys to the pane, again if tmux refuses: a failed `send-keys`
    /// on a loaded machine would leave a line typed and never entered.
    fn send_keys(&self, keys: &[&str]) {
        let args: Vec<&str> = ["send-keys", "-t", "play"]
            .iter()
            .chain(keys)
            .copied()
            .collect();
        let mut tries = 0;
        loop {
            let out = self.run_tmux(&args);
            if out.status.success() {
                return;
            }
            tries += 1;
            assert!(
                tries < 10,
                "tmux send-keys {keys:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until the screen shows every one of `texts`, and returns it.
    fn wait_for(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if texts.iter().all(|t| screen.contains(t)) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the screen never showed {texts:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("antichess-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_person_plays_saves_loads_and_changes_the_time() {
    let dir = temp_dir();
    // After white's e4xd5 black has only its king left, and wins.
    std::fs::write(
        dir.join("capture.txt"),
        "white\n60000\n45000\n----k---\n--------\n--------\n---p----\n----P---\n--------\n--------\n----K---\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("damaged.txt"),
        "white\n60000\n45000\nrnbqkbnr\npppppppp\n---x----\n",
    )
    .unwrap();
    let term = Terminal::start(&dir, &format!("{BIN} play --level 1"));

    let screen = term.wait_for(&["White to move", "5:00", "You (human)"]);
    assert!(
        screen.contains("  2  P  P  P  P  P  P  P  P  2"),
        "{screen}"
    );

    // An illegal move is explained and the person tries again.
    term.type_line("e2-e5");
    term.wait_for(&["the pawn on e2 cannot move to e5", "White to move"]);

    // A move; the machine's reply is announced in words and marked.
    term.type_line("e2-e4");
    let screen = term.wait_for(&["white moved e2-e4", "black moved ", "White to move"]);
    assert!(screen.contains('['), "the last move is marked:\n{screen}");

    // Set the machine's time mid-game.
    term.type_line("time black 1:30");
    let screen = term.wait_for(&["black's clock set to 1:30"]);
    let black_line = screen.lines().find(|l| l.contains("  8 ")).unwrap();
    assert!(black_line.contains("black      1:30"), "{screen}");

    // Save, and the game goes on.
    term.type_line("save saved.txt");
    term.wait_for(&["saved to saved.txt", "White to move"]);
    let saved = std::fs::read_to_string(dir.join("saved.txt")).unwrap();
    let lines: Vec<&str> = saved.lines().collect();
    assert_eq!(lines.len(), 11, "{saved}");
    assert_eq!(lines[0], "white");
    assert!(lines[2].parse::<u64>().unwrap() <= 90_000, "{saved}");
    assert_eq!(lines[9], "PPPP-PPP", "{saved}");

    // A damaged file is refused and the game is left as it was.
    term.type_line("load damaged.txt");
    let screen = term.wait_for(&["cannot load damaged.txt: expected 8 rows of squares, found 3"]);
    assert!(screen.contains("the current game is unchanged"), "{screen}");
    assert!(
        screen.contains("  2  P  P  P  P  .  P  P  P  2"),
        "{screen}"
    );

    // Load a prepared game, playing white; a capture is compulsory.
    term.type_line("load capture.txt white");
    term.wait_for(&["loaded capture.txt", "white      1:00", "black      0:45"]);
    term.type_line("e1-e2");
    term.wait_for(&["a capture is compulsory: e4-d5"]);

    // The capture leaves black a bare king: black wins.
    term.type_line("e4-d5");
    let screen = term.wait_for(&["black wins: only the king is left"]);
    assert!(screen.contains("score: white 0 - black 1"), "{screen}");
    term.type_line("d5-d6");
    term.wait_for(&["the game is over: type new for another game, or quit"]);

    term.type_line("quit");
    term.wait_for(&["Final score:", "White 0", "Black 1"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_greets_a_person_at_a_terminal_and_answers_help() {
    let term = Terminal::start(&std::env::temp_dir(), BIN);
    term.wait_for(&["antichess ", "type help for the commands"]);
    term.type_line("help");
    term.wait_for(&["help name isready new move play board moves perft go set stop uci help quit"]);
    term.type_line("quit");
}

#[test]
fn the_engine_says_nothing_through_pipes() {
    let out = Command::new(BIN)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the engine runs");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}
