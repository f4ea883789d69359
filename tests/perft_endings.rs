//! Perft near the end of games, against pyffish's counts: a game that is
//! over has no moves, so nothing is counted below a bare king (antichess)
//! or a checkmate or stalemate, while chess's draw rules do not stop the
//! count. The positions and counts are in tests/fixtures/perft_endings.txt,
//! written by scripts/gen_perft_endings.py.

use antichess::chess::{Position, Rules, perft};

const SUITE: &str = include_str!("fixtures/perft_endings.txt");

struct Case {
    rules: Rules,
    fen: &'static str,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    SUITE
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(';').collect();
            let [rules, fen, counts] = fields[..] else {
                panic!("bad suite line: {line}");
            };
            Case {
                rules: rules.parse().expect("suite rules"),
                fen,
                counts: counts
                    .split(',')
                    .map(|n| n.parse().expect("suite count"))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn the_suite_covers_every_rule_set() {
    let cases = cases();
    for rules in Rules::ALL {
        let n = cases.iter().filter(|c| c.rules == rules).count();
        assert!(n >= 30, "only {n} {rules} positions");
    }
    // Most antichess trees end inside the count: the deepest figure is
    // then below what the shallower ones would let one expect.
    let ending = cases
        .iter()
        .filter(|c| c.rules.is_antichess() && c.counts.contains(&0))
        .count();
    assert!(ending >= 10, "only {ending} antichess trees reach 0");
}

#[test]
fn perft_near_the_end_matches_pyffish() {
    let mut failures = Vec::new();
    for case in cases() {
        let pos = Position::from_fen(case.fen, case.rules).expect("suite FEN is valid");
        for (i, &want) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let got = perft(&pos, depth);
            if got != want {
                failures.push(format!(
                    "{} perft {depth} of {}: {got}, pyffish {want}",
                    case.rules, case.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bare_king_has_no_moves_and_has_won() {
    // Issue 10: Black's only move leaves White bare; White has won and
    // there is nothing left to play.
    let pos = Position::from_fen("b2k4/8/4p1p1/8/2n5/4P3/7K/8 b - - 0 1", Rules::Antichess)
        .expect("valid FEN");
    assert_eq!(perft(&pos, 3), 0);
    let mv = pos.parse_move("c4-e3").expect("the only move");
    let end = pos.play(mv);
    assert!(end.bare_king_ends());
    assert!(!end.has_legal_move());
    assert_eq!(end.count_legal(), 0);
    assert_eq!(end.status().score(), "1-0");
    let refused = end.parse_move("h2-g1").expect_err("the game is over");
    assert!(
        refused.to_string().contains("the game is over"),
        "{refused}"
    );
    // Standard chess has no such ending: the bare king moves on.
    let chess =
        Position::from_fen("b2k4/8/4p1p1/8/8/4n3/7K/8 w - - 0 2", Rules::Chess).expect("valid FEN");
    assert_eq!(chess.count_legal(), 3);
}
