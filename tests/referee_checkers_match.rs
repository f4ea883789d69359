//! `antichess match --rules checkers` through the real binary: a match of
//! two built-in levels over the line protocol with its summary, pairs and
//! PDN (each game replayed by our checkers rules), faults of bad engines,
//! and a gauntlet's crosstable.

use antichess::checkers::{Action, Record, Score};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_antichess");
const BAD_ENGINE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/bad_engine.sh");

fn run_match(args: &[&str]) -> (String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(BIN)
        .args(["match", "--rules", "checkers"])
        .args(args)
        .output()
        .unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    );
    assert!(status.success(), "match failed:\n{out}\n{err}");
    (out, err)
}

/// The counts of a faults-table row: illegal move, malformed answer,
/// crash, hang, flag.
fn faults(summary: &str, player: &str) -> Vec<u32> {
    let row = summary
        .lines()
        .skip_while(|l| *l != "Faults:")
        .find(|l| l.trim_start().starts_with(player))
        .unwrap_or_else(|| panic!("no faults row for {player} in\n{summary}"));
    let words: Vec<&str> = row.split_whitespace().collect();
    words[words.len() - 5..]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect()
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
    let (out, err) = run_match(&[
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
        let (out, err) = run_match(&[
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
    let (out, err) = run_match(&[
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
