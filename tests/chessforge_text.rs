//! ChessForge board text form (round trip, typed parse errors), the
//! engine protocol and the terminal session.

use std::io::Cursor;

use antichess::chessforge::engine::{Engine, Reply, serve};
use antichess::chessforge::play::session;
use antichess::chessforge::policy::new_game;
use antichess::chessforge::solver::Budget;
use antichess::chessforge::{
    Board, BoardError, ParseBoardError, ParseSquareError, RuleSet, Square, Xoshiro,
};

const START: &str =
    "Q343B333R313/R3N3Q3B32333/R3N333232313/334313N323R3/23N3N313N323/13B3R3R3B313 -";

fn parse(text: &str) -> Result<Board, ParseBoardError> {
    text.parse()
}

#[test]
fn every_position_of_random_games_round_trips() {
    for rules in [RuleSet::Standard, RuleSet::Extra] {
        for seed in 0..100 {
            let (mut board, mut deal) = new_game(seed, rules);
            let mut choose = Xoshiro::new(seed);
            loop {
                let text = board.to_string();
                assert!(!text.contains('\n') && text.len() < 100, "{text}");
                assert_eq!(parse(&text), Ok(board), "{text}");
                let targets = board.targets();
                let Some(target) = targets.nth(choose.below(targets.len())) else {
                    break;
                };
                board = board.strike(target, &mut deal).unwrap();
            }
        }
    }
}

#[test]
fn the_text_form_reads_as_documented() {
    let board = parse(START).unwrap();
    assert_eq!(board.to_string(), START);
    let a6: Square = "a6".parse().unwrap();
    let tile = board.tile(a6).unwrap();
    assert_eq!((tile.symbol().letter(), tile.hits()), ('Q', 3));
    let with_last =
        parse("............/............/....W1....../............/........N2../............ c3B")
            .unwrap();
    assert_eq!(with_last.occupied().len(), 2);
    assert_eq!(with_last.last().map(|l| l.rule.letter()), Some('B'));
    assert_eq!(with_last.strikes_made(), 105);
}

#[test]
fn parse_errors_are_typed_and_explained() {
    let row = "131313131313";
    let rows5 = [row; 5].join("/");
    let cases: Vec<(String, ParseBoardError)> = vec![
        ("".into(), ParseBoardError::Empty),
        (format!("{rows5} -"), ParseBoardError::RowCount(5)),
        (
            format!("{rows5}/1313 -"),
            ParseBoardError::RowLength { rank: 1, found: 4 },
        ),
        (
            format!("Z3{}/{rows5} -", &row[2..]),
            ParseBoardError::Symbol {
                square: "a6".parse().unwrap(),
                found: 'Z',
            },
        ),
        (
            format!("{rows5}/13131313131 -"),
            ParseBoardError::RowLength { rank: 1, found: 11 },
        ),
        (
            format!("{rows5}/1313131313Q4 -"),
            ParseBoardError::Hits {
                square: "f1".parse().unwrap(),
                found: '4',
            },
        ),
        (
            format!("{rows5}/1313131313Q0 -"),
            ParseBoardError::Hits {
                square: "f1".parse().unwrap(),
                found: '0',
            },
        ),
        (
            format!("{rows5}/.31313131313 -"),
            ParseBoardError::HalfEmpty("a1".parse().unwrap()),
        ),
        (format!("{rows5}/{row}"), ParseBoardError::MissingLastStrike),
        (
            format!("{rows5}/{row} c3"),
            ParseBoardError::LastStrike("c3".into()),
        ),
        (
            format!("{rows5}/{row} z3N"),
            ParseBoardError::LastSquare(ParseSquareError::File('z')),
        ),
        (
            format!("{rows5}/{row} c3?"),
            ParseBoardError::LastStrike("c3?".into()),
        ),
        (
            format!("{rows5}/{row} - fancy"),
            ParseBoardError::Rules("fancy".into()),
        ),
        (
            format!("{rows5}/{row} - extra more"),
            ParseBoardError::Trailing("more".into()),
        ),
        (
            format!("{row}/{row}/{row}/1313X3131313/{row}/{row} -"),
            ParseBoardError::Board(BoardError::SymbolNotInRules {
                square: "c3".parse().unwrap(),
                symbol: antichess::chessforge::Symbol::Skull,
                rules: RuleSet::Standard,
            }),
        ),
        (
            format!("{row}/{row}/{row}/131343131313/{row}/{row} -"),
            ParseBoardError::Board(BoardError::FourInCentre("c3".parse().unwrap())),
        ),
        (
            format!("{rows5}/{row} c3L extra"),
            ParseBoardError::Board(BoardError::LambdaRule("c3".parse().unwrap())),
        ),
    ];
    for (text, expected) in cases {
        let got = parse(&text);
        assert_eq!(got, Err(expected.clone()), "{text}");
        assert!(!expected.to_string().is_empty());
    }
    // Non-ASCII input is an error, never a panic.
    assert!(parse("ééééééééééé/ - ").is_err());
    assert!(parse(&format!("{rows5}/1313131313é3 -")).is_err());
}

#[test]
fn square_names_parse_with_reasons() {
    assert_eq!("c3".parse::<Square>().map(|s| s.index()), Ok(14));
    assert_eq!(
        "C3".parse::<Square>().map(|s| s.to_string()),
        Ok("c3".into())
    );
    assert_eq!("".parse::<Square>(), Err(ParseSquareError::Empty));
    assert_eq!("g1".parse::<Square>(), Err(ParseSquareError::File('g')));
    assert_eq!("a7".parse::<Square>(), Err(ParseSquareError::Rank('7')));
    assert_eq!("a0".parse::<Square>(), Err(ParseSquareError::Rank('0')));
    assert!(matches!(
        "c33".parse::<Square>(),
        Err(ParseSquareError::Malformed(_))
    ));
    assert!(matches!(
        "3c".parse::<Square>(),
        Err(ParseSquareError::Malformed(_))
    ));
}

fn line(reply: Reply) -> String {
    match reply {
        Reply::Line(l) => l,
        other => panic!("expected a line, got {other:?}"),
    }
}

#[test]
fn engine_answers_and_malformed_lines_change_nothing() {
    let mut engine = Engine::new(3, Budget::Playouts(50));
    assert_eq!(line(engine.handle(&format!("board {START}"))), "ok");
    let before = *engine.board();
    for bad in [
        "strike",
        "strike z9",
        "strike a1 Z",
        "strike a1 Q extra",
        "board nonsense",
        "go lots",
        "new seven",
        "dance",
    ] {
        let reply = line(engine.handle(bad));
        assert!(reply.starts_with("error "), "{bad} -> {reply}");
        assert_eq!(*engine.board(), before, "{bad} changed the board");
    }
    assert_eq!(
        line(engine.handle("strike a1 4")),
        format!("board {}", engine.board())
    );
    assert!(line(engine.handle("strike a1")).starts_with("error a1 cannot be struck"));
    let go = line(engine.handle("go"));
    let target: Square = go.trim_start_matches("strike ").parse().unwrap();
    assert!(engine.board().targets().contains(target));
    assert!(line(engine.handle("targets")).starts_with("targets "));
    assert_eq!(engine.handle(""), Reply::Silent);
    assert_eq!(engine.handle("# a comment"), Reply::Silent);
    assert!(line(engine.handle("new 4 EXTRA")).ends_with(" extra"));
    assert_eq!(engine.handle("quit"), Reply::Quit);
}

#[test]
fn engine_serves_a_stream_and_deals_reproducibly() {
    let input = "new 9\nstrike c3\nshow\nquit\nshow\n";
    let run = || {
        let mut out = Vec::new();
        serve(Cursor::new(input), &mut out, 1, Budget::Playouts(10)).unwrap();
        String::from_utf8(out).unwrap()
    };
    let first = run();
    assert_eq!(first, run());
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 3, "{first}");
    assert_eq!(lines[1], lines[2]);
    assert_eq!(
        lines[0],
        format!("board {}", new_game(9, RuleSet::Standard).0)
    );
}

#[test]
fn terminal_session_explains_refusals() {
    let input = "hello\nc3\nc3\nhint\nboard\nquit\n";
    let mut out = Vec::new();
    session(
        Cursor::new(input),
        &mut out,
        5,
        RuleSet::Standard,
        Budget::Playouts(20),
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("Not understood: 'hello' is not a square"),
        "{text}"
    );
    assert!(text.contains("Refused: c3 cannot be struck"), "{text}");
    assert!(text.contains("Solver suggests"), "{text}");
    assert!(
        text.contains("[") && text.contains("Strikes 1/108"),
        "{text}"
    );
}

/// A line that is not UTF-8 gets an error and the session goes on.
#[test]
fn engine_answers_junk_bytes_and_carries_on() {
    use antichess::chessforge::engine::serve;
    use antichess::chessforge::solver::Budget;
    let input: &[u8] = b"hello\xff\xfe\nno-such-command\nquit\n";
    let mut out = Vec::new();
    serve(input, &mut out, 1, Budget::Playouts(10)).unwrap();
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines.iter().all(|l| l.starts_with("error ")), "{out}");
}
