//! Opening books for `antichess match`: EPD and PGN read, each opening
//! played with both colours, a shuffled order by seed, and a broken line
//! refused with its number.

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_antichess");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-books-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a match of two random movers on `book`; (success, stdout, stderr, pgn).
fn play(book: &PathBuf, extra: &[&str]) -> (bool, String, String, String) {
    let pgn = book.with_extension("out.pgn");
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine1",
            "random:1",
            "--engine2",
            "random:2",
            "--max-plies",
            "20",
            "--rules",
            "chess",
            "--openings",
        ])
        .arg(book)
        .arg("--pgn")
        .arg(&pgn)
        .args(extra)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        text,
    )
}

/// The FEN tags of a PGN, in order.
fn fens(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter_map(|l| l.strip_prefix("[FEN \""))
        .map(|l| l.trim_end_matches("\"]").to_string())
        .collect()
}

// The en passant square is written only where a capture could use it.
const SICILIAN: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const AFTER_NF3: &str = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
const FRENCH: &str = "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

#[test]
fn an_epd_book_is_read_with_its_operations() {
    let dir = scratch("epd");
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "# EPD: four fields and operations\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 id \"sicilian\"; hmvc 0; fmvn 2;\n\
         rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm d4; fmvn 2;\n",
    )
    .unwrap();
    let (ok, out, err, pgn) = play(&book, &["--games", "4"]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("4 games"), "{out}");
    // Each opening twice, in the book's order, once with each colour.
    assert_eq!(fens(&pgn), [SICILIAN, SICILIAN, FRENCH, FRENCH], "{pgn}");
    assert!(pgn.contains("[Round \"1\"]\n[White \"random 1\"]\n[Black \"random 2\"]"));
    assert!(pgn.contains("[Round \"2\"]\n[White \"random 2\"]\n[Black \"random 1\"]"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pgn_book_gives_each_games_last_position() {
    let dir = scratch("pgn");
    let book = dir.join("book.pgn");
    std::fs::write(
        &book,
        "[Event \"book\"]\n[Site \"?\"]\n\n1. e4 {the king's pawn} c5 (1... e6 2. d4) 2. Nf3 $1 *\n\n\
         [Event \"book\"]\n\n1. e4 e6 1/2-1/2\n",
    )
    .unwrap();
    let (ok, out, err, pgn) = play(&book, &["--games", "4"]);
    assert!(ok, "{out}\n{err}");
    assert_eq!(fens(&pgn), [AFTER_NF3, AFTER_NF3, FRENCH, FRENCH], "{pgn}");
    // Shuffled by seed: the same openings, each still twice in a row, in
    // an order that the seed alone decides.
    let shuffled = |seed: &str| {
        let (ok, _, err, pgn) = play(&book, &["--games", "4", "--shuffle", "--seed", seed]);
        assert!(ok, "{err}");
        fens(&pgn)
    };
    let orders: Vec<Vec<String>> = (1..=6).map(|s| shuffled(&s.to_string())).collect();
    for order in &orders {
        assert_eq!(order[0], order[1]);
        assert_eq!(order[2], order[3]);
        assert_ne!(order[0], order[2]);
    }
    assert_eq!(orders[0], shuffled("1"));
    assert!(orders.iter().any(|o| o[0] == FRENCH), "{orders:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_lines_are_refused_with_their_numbers() {
    let dir = scratch("broken");
    let cases = [
        (
            "bad.epd",
            "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm d4;\n\
             rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP w KQkq - bm d4;\n",
            "line 2: ",
        ),
        (
            "bad.pgn",
            "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5\n2. Nf3 Ke7 Qh5 *\n",
            "line 8: 'Qh5' is not a legal move here",
        ),
        (
            "tag.pgn",
            "[Event \"a\"]\n[Site\n\n1. e4 *\n",
            "line 2: bad tag",
        ),
    ];
    for (name, text, message) in cases {
        let book = dir.join(name);
        std::fs::write(&book, text).unwrap();
        let (ok, out, err, _) = play(&book, &[]);
        assert!(!ok, "{name}: {out}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
