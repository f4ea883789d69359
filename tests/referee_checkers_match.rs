//! `antichess match --rules checkers` through the real binary: a match of
//! two built-in levels over the line protocol with its summary, pairs and
//! PDN (each game replayed by our checkers rules), faults of bad engines,
//! a gauntlet's crosstable, a stopped run resumed from its state file,
//! parallel games, kept engines, and book openings.

mod common;

use antichess::checkers::{Action, Record, Score};
use common::referee::{BAD_ENGINE, BIN, COUNTING_ENGINE, faults, run_match, without_clocks};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `antichess match --rules checkers ARGS`, which must succeed.
fn run_checkers(args: &[&str]) -> (String, String) {
    let mut all = vec!["--rules", "checkers"];
    all.extend_from_slice(args);
    run_match(&all)
}

/// A game of a PDN file: its tags, and its moves and result as text.
type PdnGame = (Vec<(String, String)>, Vec<String>);

/// The games of a PDN file.
fn pdn_games(text: &str) -> Vec<PdnGame> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut words = Vec::new();
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            if !words.is_empty() {
                games.push((std::mem::take(&mut tags), std::mem::take(&mut words)));
            }
            let (name, value) = tag.trim_end_matches(']').split_once(' ').unwrap();
            tags.push((name.to_string(), value.trim_matches('"').to_string()));
        } else {
            // Drop the clock comments and the move numbers.
            let mut in_comment = false;
            for word in line.split_whitespace() {
                if word.starts_with('{') {
                    in_comment = true;
                }
                if !in_comment && !word.ends_with('.') {
                    words.push(word.to_string());
                }
                if word.ends_with('}') {
                    in_comment = false;
                }
            }
        }
    }
    if !words.is_empty() {
        games.push((tags, words));
    }
    games
}

#[test]
fn a_checkers_match_of_two_levels_is_refereed_and_written_as_pdn() {
    let pdn = std::env::temp_dir().join(format!("checkers-match-{}.pdn", std::process::id()));
    let (out, err) = run_checkers(&[
        "--engine1",
        "level:1",
        "--engine2",
        "level:3",
        "--games",
        "4",
        "--time",
        "5",
        "--random-plies",
        "4",
        "--seed",
        "3",
        "--pgn",
        pdn.to_str().unwrap(),
    ]);
    // Four games, the colours alternating: Black (who moves first) is
    // named first.
    assert_eq!(err.matches("game ").count(), 4, "{err}");
    assert!(
        err.contains("game 1/4: antichess level 1 - antichess level 3"),
        "{err}"
    );
    assert!(
        err.contains("game 2/4: antichess level 3 - antichess level 1"),
        "{err}"
    );
    assert!(
        out.contains("Score of antichess level 1 vs antichess level 3: "),
        "{out}"
    );
    assert!(out.contains("4 games"), "{out}");
    // Two pairs of games on two openings.
    let pairs = out
        .lines()
        .find_map(|l| l.strip_prefix("Pairs (Ptnml 0-2): "))
        .unwrap_or_else(|| panic!("no pairs in\n{out}"));
    let counts: Vec<u32> = pairs
        .trim_matches(['[', ']'])
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{out}");
    for name in ["antichess level 1", "antichess level 3"] {
        assert_eq!(faults(&out, name), vec![0; 5], "{out}");
    }
    // The PDN: four games whose moves our rules replay to their result.
    let text = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    let games = pdn_games(&text);
    assert_eq!(games.len(), 4, "{text}");
    let mut openings = Vec::new();
    for (i, (tags, words)) in games.iter().enumerate() {
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("no {name} tag in\n{text}"))
        };
        assert_eq!(tag("GameType"), "21");
        assert_eq!(tag("Round"), (i + 1).to_string());
        assert_eq!(tag("Opening"), "4 random plies");
        let (result, moves) = words.split_last().unwrap();
        assert_eq!(*result, tag("Result"), "{text}");
        let mut record = Record::new();
        for mv in moves {
            let action = record.parse_allowed(mv).unwrap();
            assert!(matches!(action, Action::Move(_)));
            record.apply(action).unwrap();
        }
        let score = Score::parse(result).unwrap();
        match record.result() {
            // The side to move had no move: the game's result is that.
            Some(rules) => assert_eq!(rules, score, "game {}", i + 1),
            // Otherwise only the referee's draw rules end a game of two
            // faultless engines.
            None => assert_eq!(score, Score::Draw, "game {}", i + 1),
        }
        openings.push(moves[..4].to_vec());
    }
    // Each opening is played by both colours; the two pairs differ.
    assert_eq!(openings[0], openings[1]);
    assert_eq!(openings[2], openings[3]);
    assert_ne!(openings[0], openings[2]);
}

#[test]
fn bad_checkers_engines_lose_with_the_fault_named() {
    for (mode, column, message) in [
        ("garbage", 1, "malformed answer: expected 'move <squares>'"),
        ("illegal", 1, "a1-h8"),
        (
            "checkers-illegal",
            0,
            "illegal move: `1-32` is not a legal move here",
        ),
        ("crash", 2, "crash: exited"),
    ] {
        let bad = format!("proto:sh {BAD_ENGINE} {mode}");
        let (out, err) = run_checkers(&[
            "--engine1",
            &bad,
            "--engine2",
            "random:5",
            "--games",
            "2",
            "--time",
            "1",
            "--grace-ms",
            "100",
        ]);
        assert!(
            out.contains("Score of sh level 0 vs random 5: 0 - 2 - 0"),
            "{mode}: {out}"
        );
        let mut expected = vec![0; 5];
        expected[column] = 2;
        assert_eq!(faults(&out, "sh level 0"), expected, "{mode}: {out}");
        assert_eq!(faults(&out, "random 5"), vec![0; 5]);
        // As Black the engine moves first and loses at once; as White it
        // loses at its first move.
        assert!(
            err.contains("game 1/2: sh level 0 - random 5 0-1 (black: "),
            "{err}"
        );
        assert!(
            err.contains("game 2/2: random 5 - sh level 0 1-0 (white: "),
            "{err}"
        );
        assert!(err.contains(message), "{mode}: {err}");
    }
}

#[test]
fn a_checkers_gauntlet_prints_its_crosstable() {
    let (out, err) = run_checkers(&[
        "--gauntlet",
        "level:2",
        "random:1",
        "random:2",
        "--games",
        "2",
        "--time",
        "5",
    ]);
    assert_eq!(err.matches("game ").count(), 4, "{err}");
    assert!(out.contains("Crosstable"), "{out}");
    assert!(out.contains("antichess level 2 vs random 1: "), "{out}");
    assert!(out.contains("antichess level 2 vs random 2: "), "{out}");
    assert!(!out.contains("random 1 vs random 2"), "{out}");
}

/// A scratch folder of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("checkers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The games of a PDN file, without their clocks (wall time).
fn pdn_file(path: &Path) -> Vec<PdnGame> {
    pdn_games(&std::fs::read_to_string(path).unwrap())
}

/// The value of a PDN game's tag.
fn tag<'a>(game: &'a PdnGame, name: &str) -> &'a str {
    let (tags, _) = game;
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {name} tag in {game:?}"))
}

/// The state file's lines without their clocks.
fn state_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(without_clocks).collect()
}

#[test]
fn a_stopped_checkers_run_resumed_equals_an_uninterrupted_one() {
    let dir = scratch("state");
    let args = |name: &str, seed: &str| -> Vec<String> {
        let state = dir.join(format!("{name}.jsonl"));
        let pdn = dir.join(format!("{name}.pdn"));
        [
            "--engine1",
            "random:1",
            "--engine2",
            "random:2",
            "--games",
            "8",
            "--random-plies",
            "4",
            "--seed",
            seed,
            "--max-plies",
            "150",
            "--state",
            state.to_str().unwrap(),
            "--pgn",
            pdn.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |args: &[String]| run_checkers(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let (reference, err) = run(&args("whole", "7"));
    assert_eq!(err.matches("game ").count(), 8, "{err}");
    assert!(!err.contains("resumed"), "{err}");
    let whole = std::fs::read_to_string(dir.join("whole.jsonl")).unwrap();
    let lines: Vec<&str> = whole.lines().collect();
    assert_eq!(lines.len(), 9, "{whole}");

    // A run stopped after three games, in the middle of writing the fourth.
    let mut cut = lines[..4].join("\n");
    cut.push('\n');
    cut.push_str(&lines[4][..lines[4].len() / 2]);
    std::fs::write(dir.join("torn.jsonl"), cut).unwrap();
    let (resumed, err) = run(&args("torn", "7"));
    assert!(err.contains("resumed 3 finished games"), "{err}");
    assert_eq!(err.matches("game ").count(), 5, "{err}");
    assert!(!err.contains("game 3/8"), "{err}");
    assert!(err.contains("game 4/8"), "{err}");
    assert_eq!(resumed, reference);
    // The resumed run's PDN holds all eight games, the three read back
    // from the state file among them, as the uninterrupted run's does.
    let games = pdn_file(&dir.join("whole.pdn"));
    assert_eq!(games.len(), 8);
    assert_eq!(pdn_file(&dir.join("torn.pdn")), games);
    assert_eq!(
        state_lines(&dir.join("torn.jsonl")),
        state_lines(&dir.join("whole.jsonl"))
    );

    // A finished run plays nothing more.
    let (again, err) = run(&args("whole", "7"));
    assert!(err.contains("resumed 8 finished games"), "{err}");
    assert_eq!(err.matches("game ").count(), 0, "{err}");
    assert_eq!(again, reference);

    // The state of another match (other openings) is refused as it is.
    let mut other = args("whole", "8");
    other.splice(0..0, ["match", "--rules", "checkers"].map(String::from));
    let out = Command::new(BIN).args(&other).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("another match"));
    assert_eq!(
        std::fs::read_to_string(dir.join("whole.jsonl")).unwrap(),
        whole
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parallel_checkers_games_are_counted_as_one_at_a_time() {
    let dir = scratch("parallel");
    let play = |concurrency: &str| {
        let pdn = dir.join(format!("{concurrency}.pdn"));
        let (out, err) = run_checkers(&[
            "--gauntlet",
            "random:1",
            "random:2",
            "random:3",
            "--games",
            "4",
            "--random-plies",
            "3",
            "--seed",
            "5",
            "--max-plies",
            "150",
            "--concurrency",
            concurrency,
            "--pgn",
            pdn.to_str().unwrap(),
        ]);
        assert_eq!(err.matches("game ").count(), 8, "{err}");
        (out, pdn_file(&pdn))
    };
    let (one, one_games) = play("1");
    let (two, two_games) = play("2");
    assert!(one.contains("random 1 vs random 2: "), "{one}");
    assert!(one.contains("random 1 vs random 3: "), "{one}");
    assert_eq!(two, one);
    assert_eq!(two_games, one_games);
    // Each pairing's pair of games shares its opening: games 1 and 2
    // (the first pairing) and 3 and 4 (the second) start alike.
    let first_plies = |g: &PdnGame| g.1[..3].to_vec();
    assert_eq!(first_plies(&one_games[0]), first_plies(&one_games[1]));
    assert_eq!(first_plies(&one_games[0]), first_plies(&one_games[2]));
    assert_eq!(tag(&one_games[0], "Black"), "random 1");
    assert_eq!(tag(&one_games[1], "Black"), "random 2");
    assert_eq!(tag(&one_games[2], "Black"), "random 1");
    assert_eq!(tag(&one_games[3], "Black"), "random 3");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kept_checkers_engines_are_started_once() {
    let dir = scratch("keep");
    let starts = |name: &str, keep: bool| {
        let log = dir.join(name);
        let spec = format!("proto:sh {COUNTING_ENGINE} {} {BIN};level=1", log.display());
        let mut args = vec![
            "--engine1",
            &spec,
            "--engine2",
            "random:3",
            "--games",
            "4",
            "--time",
            "5",
            "--max-plies",
            "40",
        ];
        if keep {
            args.push("--keep-engines");
        }
        let (out, _) = run_checkers(&args);
        assert_eq!(faults(&out, "sh level 1"), vec![0; 5], "{out}");
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        text.lines().count()
    };
    assert_eq!(starts("kept", true), 1);
    assert_eq!(starts("fresh", false), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_checkers_book_opening_starts_both_games_of_its_pair() {
    let dir = scratch("book");
    let book = dir.join("book.txt");
    std::fs::write(&book, "# two openings\n1. 11-15 23-19\n9-13 22-18\n").unwrap();
    let play = |extra: &[&str]| {
        let pdn = dir.join("games.pdn");
        let mut args = vec![
            "--engine1",
            "random:1",
            "--engine2",
            "random:2",
            "--max-plies",
            "150",
            "--openings",
            book.to_str().unwrap(),
            "--pgn",
            pdn.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run_checkers(&args);
        pdn_file(&pdn)
    };
    let games = play(&["--games", "4"]);
    assert_eq!(games.len(), 4);
    let opening = |g: &PdnGame| g.1[..2].join(" ");
    for (i, expected) in ["11-15 23-19", "11-15 23-19", "9-13 22-18", "9-13 22-18"]
        .iter()
        .enumerate()
    {
        assert_eq!(opening(&games[i]), *expected, "game {}", i + 1);
        assert_eq!(tag(&games[i], "Opening"), "2 plies of book.txt");
        let black = ["random 1", "random 2"][i % 2];
        assert_eq!(tag(&games[i], "Black"), black, "game {}", i + 1);
    }
    // Shuffled, the pairs still share their openings, and both are used.
    let games = play(&["--games", "8", "--shuffle", "--seed", "4"]);
    assert_eq!(games.len(), 8);
    let openings: Vec<String> = games.iter().map(opening).collect();
    for pair in openings.chunks(2) {
        assert_eq!(pair[0], pair[1], "{openings:?}");
    }
    assert!(openings.contains(&"11-15 23-19".to_string()));
    assert!(openings.contains(&"9-13 22-18".to_string()));

    // A book with an illegal move is refused, naming the file.
    std::fs::write(&book, "11-15 23-19\n11-19\n").unwrap();
    let out = Command::new(BIN)
        .args(["match", "--rules", "checkers", "--engine1", "random:1"])
        .args([
            "--engine2",
            "random:2",
            "--openings",
            book.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("book.txt") && err.contains('2'), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_refuses_the_antichess_tables_and_takes_a_repetition_count() {
    let out = Command::new(BIN)
        .args(["match", "--rules", "checkers", "--engine1", "random:1"])
        .args(["--engine2", "random:2", "--tb-adjudicate", "/nonexistent"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tb-adjudicate") && err.contains("antichess"),
        "{err}"
    );
    let (out, _) = run_checkers(&[
        "--engine1",
        "random:1",
        "--engine2",
        "random:2",
        "--repetitions",
        "2",
    ]);
    assert!(
        out.contains("Adjudication ON (draw at 2-fold repetition)"),
        "{out}"
    );
}
