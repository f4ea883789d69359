//! `antichess match` through the real binary: summaries, faults of bad
//! engines, openings with both colours, PGN, and built-in levels.

mod common;

use common::referee::{BAD_ENGINE, BIN, COUNTING_ENGINE, faults, run_match, without_clocks};
use std::process::Command;

#[test]
fn bad_engines_lose_with_the_fault_named_and_the_match_goes_on() {
    let cases = [
        ("illegal", 0, "illegal move: a1-h8"),
        (
            "garbage",
            1,
            "malformed answer: expected 'move <from>-<to>', got 'hello, referee'",
        ),
        ("silent", 3, "hang: it sent no move in time"),
        ("crash", 2, "crash: exited"),
        ("slow", 4, "lost on time (answered after "),
    ];
    let threads: Vec<_> = cases
        .into_iter()
        .map(|(mode, column, message)| {
            std::thread::spawn(move || {
                let bad = format!("proto:sh {BAD_ENGINE} {mode}");
                // The slow engine answers within the grace period, the
                // silent one never does.
                let grace = if mode == "slow" { "5000" } else { "100" };
                let (out, err) = run_match(&[
                    "--engine1",
                    &bad,
                    "--engine2",
                    "random:5",
                    "--games",
                    "2",
                    "--time",
                    "0.3",
                    "--grace-ms",
                    grace,
                ]);
                assert!(
                    out.contains("Score of sh level 0 vs random 5: 0 - 2 - 0"),
                    "{out}"
                );
                let mut expected = vec![0; 5];
                expected[column] = 2;
                assert_eq!(faults(&out, "sh level 0"), expected, "{mode}: {out}");
                assert_eq!(faults(&out, "random 5"), vec![0; 5]);
                // Both games were played, one with each colour, each lost
                // to the fault.
                assert!(
                    err.contains("game 1/2: sh level 0 - random 5 0-1 (black wins: white"),
                    "{err}"
                );
                assert!(
                    err.contains("game 2/2: random 5 - sh level 0 1-0 (white wins: black"),
                    "{err}"
                );
                assert!(err.contains(message), "{mode}: {err}");
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

#[test]
fn openings_are_played_with_both_colours_and_written_as_pgn() {
    let dir = std::env::temp_dir().join(format!("referee-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &openings,
        "# two starts\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2\n\
         black 60000 60000 rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR\n",
    )
    .unwrap();
    let (out, err) = run_match(&[
        "--engine1",
        "random:1",
        "--engine2",
        "random:2",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--max-plies",
        "40",
    ]);
    assert!(out.contains("4 games"), "{out}");
    assert!(
        out.contains("Adjudication ON (draw after 40 plies)"),
        "{out}"
    );
    assert!(out.contains("Elo difference: "), "{out}");
    assert_eq!(err.matches("game ").count(), 4, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"antichess\"]").count(), 4);
    let fen1 = "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2\"]";
    let fen2 = "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1\"]";
    assert_eq!(text.matches(fen1).count(), 2, "{text}");
    assert_eq!(text.matches(fen2).count(), 2, "{text}");
    // Every move carries the mover's clock, as lichess writes it.
    let plies: usize = text
        .lines()
        .filter_map(|line| line.strip_prefix("[PlyCount \""))
        .filter_map(|rest| rest.trim_end_matches("\"]").parse::<usize>().ok())
        .sum();
    assert!(plies > 0, "{text}");
    assert_eq!(text.matches("{[%clk 0:00:").count(), plies, "{text}");
    // Each opening once with each colour assignment.
    for round in 1..=4 {
        let (white, black) = if round % 2 == 1 {
            ("random 1", "random 2")
        } else {
            ("random 2", "random 1")
        };
        let header = format!("[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]");
        assert!(text.contains(&header), "{header}\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_openings_file_is_refused_with_its_line() {
    let path = std::env::temp_dir().join(format!("referee-bad-openings-{}", std::process::id()));
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\nwhite 1 2 nonsense\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args([
            "match",
            "--engine1",
            "random",
            "--engine2",
            "random:2",
            "--openings",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 2: expected 8 rows of squares, found 1"),
        "{err}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn two_built_in_levels_play_a_short_match() {
    let (out, err) = run_match(&[
        "--engine1",
        "level:1",
        "--engine2",
        "level:4",
        "--games",
        "2",
        "--time",
        "5",
        "--random-plies",
        "2",
        "--max-plies",
        "200",
    ]);
    assert!(
        out.contains("Score of antichess level 1 vs antichess level 4: "),
        "{out}"
    );
    assert!(out.contains("2 games"), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    assert_eq!(
        faults(&out, "antichess level 1"),
        vec![0; 5],
        "{out}\n{err}"
    );
    assert_eq!(
        faults(&out, "antichess level 4"),
        vec![0; 5],
        "{out}\n{err}"
    );
    assert!(
        err.contains("game 2/2: antichess level 4 - antichess level 1 "),
        "{err}"
    );
}

#[test]
fn kept_engines_are_started_once_unless_they_break() {
    let dir = std::env::temp_dir().join(format!("referee-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let starts = |name: &str, engine: &str, keep: bool| {
        let log = dir.join(name);
        let spec = format!("proto:sh {COUNTING_ENGINE} {} {engine}", log.display());
        // The slow engine answers within the grace period, but too late.
        let (time, grace) = if engine.ends_with("slow") {
            ("0.3", "5000")
        } else {
            ("5", "100")
        };
        let mut args = vec![
            "--engine1",
            &spec,
            "--engine2",
            "random:3",
            "--games",
            "4",
            "--time",
            time,
            "--max-plies",
            "30",
            "--grace-ms",
            grace,
        ];
        if keep {
            args.push("--keep-engines");
        }
        let (out, _) = run_match(&args);
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        (text.lines().count(), out)
    };
    let good = format!("{BIN};level=1");
    assert_eq!(starts("kept", &good, true).0, 1);
    assert_eq!(starts("fresh", &good, false).0, 4);
    // A crashing engine is started again for every game even when kept.
    let (n, out) = starts("crashing", &format!("sh {BAD_ENGINE} crash"), true);
    assert_eq!(n, 4, "{out}");
    assert_eq!(faults(&out, "sh level 0"), vec![0, 0, 4, 0, 0], "{out}");
    // One that only answers late is not.
    let (n, out) = starts("slow", &format!("sh {BAD_ENGINE} slow"), true);
    assert_eq!(n, 1, "{out}");
    assert_eq!(faults(&out, "sh level 0"), vec![0, 0, 0, 0, 4], "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gauntlet_of_three_levels_prints_its_crosstable() {
    let (out, err) = run_match(&[
        "--gauntlet",
        "level:1",
        "level:3",
        "level:5",
        "--games",
        "2",
        "--time",
        "2",
        "--inc",
        "0.05",
        "--random-plies",
        "2",
        "--max-plies",
        "60",
    ]);
    // Two pairings of two games: the first level against each other.
    assert_eq!(err.matches("game ").count(), 4, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Crosstable"))
        .unwrap_or_else(|| panic!("no crosstable in\n{out}"));
    let header: Vec<&str> = lines[at + 1].split_whitespace().collect();
    assert_eq!(header, ["#", "player", "1", "2", "3", "total"], "{out}");
    let row = |i: usize| -> Vec<&str> { lines[at + 2 + i].split_whitespace().collect() };
    // Row 1 plays both others; rows 2 and 3 only the first (`-` for the
    // pairing not played and for the diagonal).
    let r1 = row(0);
    assert_eq!(r1[..4], ["1", "antichess", "level", "1"], "{out}");
    assert_eq!(r1[4], "-");
    assert!(r1[5].ends_with("/2") && r1[6].ends_with("/2"), "{out}");
    assert!(r1[7].ends_with("/4"), "{out}");
    for i in [1, 2] {
        let r = row(i);
        assert_eq!(r[3], ["3", "5"][i - 1], "{out}");
        assert!(r[4].ends_with("/2"), "{out}");
        assert_eq!(r[5..7], ["-", "-"], "{out}");
        assert!(r[7].ends_with("/2"), "{out}");
    }
    // The points of a pairing add up to its games.
    let points = |cell: &str| cell.split('/').next().unwrap().parse::<f64>().unwrap();
    assert_eq!(points(r1[5]) + points(row(1)[4]), 2.0, "{out}");
    assert_eq!(points(r1[6]) + points(row(2)[4]), 2.0, "{out}");
    assert!(
        out.contains("antichess level 1 vs antichess level 3: "),
        "{out}"
    );
    assert!(
        out.contains("antichess level 1 vs antichess level 5: "),
        "{out}"
    );
    for name in [
        "antichess level 1",
        "antichess level 3",
        "antichess level 5",
    ] {
        assert_eq!(faults(&out, name).len(), 5, "{out}");
    }
}

/// A match of two random movers with an SPRT and a state file; the
/// arguments after the common ones.
fn sprt_match(state: &std::path::Path) -> Vec<String> {
    [
        "--engine1",
        "random:1",
        "--engine2",
        "random:2",
        "--games",
        "400",
        "--random-plies",
        "3",
        "--max-plies",
        "60",
        "--sprt",
        "elo0=0,elo1=150,model=logistic",
        "--state",
        state.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_stopped_run_resumed_gives_the_statistics_of_an_uninterrupted_one() {
    let dir = std::env::temp_dir().join(format!("referee-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.jsonl");
    let whole_args = sprt_match(&whole);
    let (reference, _) = run_match(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(reference.contains("SPRT: H0 accepted"), "{reference}");
    let games = std::fs::read_to_string(&whole).unwrap().lines().count() - 1;
    assert!(games >= 6, "{reference}");

    // A run killed mid-write: the first third of the games and half a line.
    let torn = dir.join("torn.jsonl");
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let keep = 1 + games / 3;
    let mut cut = lines[..keep].join("\n");
    cut.push('\n');
    cut.push_str(&lines[keep][..lines[keep].len() / 2]);
    std::fs::write(&torn, cut).unwrap();
    let args = sprt_match(&torn);
    let (resumed, err) = run_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        err.contains(&format!("resumed {} finished games", keep - 1)),
        "{err}"
    );
    assert_eq!(resumed, reference);
    // The state holds the same games, each once, in the same order (the
    // clocks aside: they are wall time).
    let games_of = |path: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines().map(without_clocks).collect()
    };
    assert_eq!(games_of(&torn), games_of(&whole));

    // A run killed by the signal, wherever it was, then resumed.
    let killed = dir.join("killed.jsonl");
    let args = sprt_match(&killed);
    let mut child = Command::new(BIN)
        .arg("match")
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..2000 {
        let n = std::fs::read_to_string(&killed)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if n > 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let _ = child.kill();
    let _ = child.wait();
    let (resumed, _) = run_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(resumed, reference);

    // The state of another match is refused, and left as it was.
    let mut other = sprt_match(&whole);
    other[1] = "random:9".into();
    let out = Command::new(BIN)
        .arg("match")
        .args(&other)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("another match"));
    assert_eq!(std::fs::read_to_string(&whole).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_endgame_tables_adjudicate_a_four_man_position() {
    let dir = std::env::temp_dir().join(format!("referee-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = dir.join("tables");
    let made = Command::new(BIN)
        .args(["tables", tables.to_str().unwrap(), "--only", "KNvKB"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    // Black to move must take the bishop with the knight (captures are
    // compulsory, and the king has none), leaving White a bare king:
    // White wins, which the tables know before the move is played. (A
    // pawnless table, the quickest to build.)
    let openings = dir.join("four.fen");
    std::fs::write(&openings, "7k/8/8/6B1/8/5n2/8/K7 b - - 0 1\n").unwrap();
    let play = |adjudicate: bool| {
        let pgn = dir.join(format!("{adjudicate}.pgn"));
        let mut args = vec![
            "--white".to_string(),
            "random:1".into(),
            "--black".into(),
            "random:2".into(),
            "--games".into(),
            "1".into(),
            "--openings".into(),
            openings.display().to_string(),
            "--pgn".into(),
            pgn.display().to_string(),
        ];
        if adjudicate {
            args.push("--tb-adjudicate".into());
            args.push(tables.display().to_string());
        }
        let (out, _) = run_match(&args.iter().map(String::as_str).collect::<Vec<_>>());
        (out, std::fs::read_to_string(&pgn).unwrap())
    };
    let (out, pgn) = play(true);
    assert!(
        out.contains("Score of random 1 vs random 2: 1 - 0 - 0"),
        "{out}"
    );
    assert!(
        out.contains("Adjudication ON (endgame tables): 1 games adjudicated"),
        "{out}"
    );
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    assert!(pgn.contains("[Adjudication \"endgame tables\"]"), "{pgn}");
    assert!(pgn.contains("[PlyCount \"0\"]"), "{pgn}");
    assert!(pgn.contains("adjudicated by the endgame tables"), "{pgn}");
    // Played out instead, the game ends the same way a ply later.
    let (out, pgn) = play(false);
    assert!(
        out.contains("Score of random 1 vs random 2: 1 - 0 - 0"),
        "{out}"
    );
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.contains("[PlyCount \"1\"]"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}
