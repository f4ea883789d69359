//! `antichess play` fed lines on stdin (no terminal, so no screen
//! clearing): the chess extras of the CS 246 project — two people at one
//! keyboard, setup mode that refuses invalid positions and says why,
//! promotion choice, unlimited undo, and the score at the end.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_antichess");

fn play(args: &[&str], lines: &[&str]) -> String {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    for line in lines {
        writeln!(input, "{line}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn setup_refuses_invalid_positions_and_says_why() {
    let out = play(
        &["--rules", "chess"],
        &[
            "game human human",
            "setup",
            "clear",
            "done",
            "+ K e1",
            "+ k e8",
            "+ P a8",
            "done",
            "- a8",
            "+ R e2",
            "done",
            "= black",
            "done",
            "- e2",
            "+ P b7",
            "+ p h7",
            "+ Q z9",
            "= white",
            "done",
            "b7-b8",
            "n",
            "e8-d8",
            "undo",
            "undo",
            "undo",
            "quit",
        ],
    );
    for expected in [
        "cannot leave setup: white must have exactly one king, not 0",
        "cannot leave setup: a pawn cannot stand on a8, a first or last rank",
        "cannot leave setup: the side not to move is in check",
        "cannot leave setup: black's king is in check",
        "'z9' is not a square (a1 to h8)",
        "New chess game: white human, black human",
        "Which piece should the pawn become? q, r, b or n",
        "white moved b7-b8n",
        "black moved e8-d8",
        "took back 1 move\n",
        "there is no move to take back",
        "Final score:\nWhite 0\nBlack 0",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
    // The knight stood on b8, and the undos put the pawn back on b7.
    assert!(out.contains("  8  . [N] .  .  k  .  .  .  8"), "{out}");
    assert!(!out.contains("Game over"), "{out}");
    let last_board = out.rsplit("     a  b  c").nth(1).unwrap();
    assert!(
        last_board.contains("  7  .  P  .  .  .  .  .  p  7"),
        "{out}"
    );
}

#[test]
fn resigning_and_new_games_keep_a_running_score() {
    let out = play(
        &["--rules", "chess", "--opponent", "random:3"],
        &[
            "game human human",
            "resign",
            "new black 2 antichess",
            "end",
            "e2-e4",
            "quit",
        ],
    );
    assert!(out.contains("black wins: white resigned"), "{out}");
    assert!(
        out.contains("New antichess game: white computer, level 2, black human"),
        "{out}"
    );
    assert!(out.contains("game ended without a result"), "{out}");
    assert!(
        out.contains("the game is over: type new for another game, or quit"),
        "{out}"
    );
    assert!(out.ends_with("Final score:\nWhite 0\nBlack 1\n"), "{out}");
}

#[test]
fn a_set_up_bare_king_has_won_and_takes_no_move() {
    let out = play(
        &[],
        &[
            "game human human",
            "setup",
            "clear",
            "+ K e1",
            "+ k e8",
            "+ p e5",
            "done",
            "e1-e2",
        ],
    );
    assert!(
        out.contains("Game over, white wins: only the king is left"),
        "{out}"
    );
    assert!(
        out.contains("the game is over: type new for another game, or quit"),
        "{out}"
    );
    assert!(out.contains("White 1"), "{out}");
}
