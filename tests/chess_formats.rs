//! Game files, FEN and move text: round trips, the errors users see, and
//! a seeded fuzz of every parser (no input may panic).

use antichess::chess::{Color, FileStyle, FormatError, GameFile, Loc, Position, Rules, SetupError};
use antichess::rng::SplitMix;
use antichess::search::MoveList;

const START_2002: &str = "white\n300000\n300000\nrnbqkbnr\npppppppp\n--------\n--------\n--------\n--------\nPPPPPPPP\nRNBQKBNR\n";
const START_1994: &str = "W\n300.0 300.0\nrnbqkbnr\npppppppp\n--------\n--------\n--------\n--------\nPPPPPPPP\nRNBQKBNR\n";

#[test]
fn game_files_round_trip_in_both_styles_and_layouts() {
    let g = GameFile::parse(START_2002, Rules::Antichess).unwrap();
    assert_eq!(g.position, Position::startpos(Rules::Antichess));
    assert_eq!(
        (g.white_ms, g.black_ms, g.style),
        (300_000, 300_000, FileStyle::Y2002)
    );
    assert_eq!(g.write("\n"), START_2002);
    let one_line = g.write(" ");
    assert_eq!(one_line, START_2002.trim_end().replace('\n', " "));
    assert_eq!(GameFile::parse(&one_line, Rules::Antichess).unwrap(), g);

    let old = GameFile::parse(START_1994, Rules::Antichess1994).unwrap();
    assert_eq!(old.style, FileStyle::Y1994);
    assert_eq!(old.white_ms, 300_000);
    assert_eq!(old.write("\n"), START_1994);
    let odd = GameFile::parse(
        "B 61.5 2.25 rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR",
        Rules::Antichess,
    );
    let odd = odd.unwrap();
    assert_eq!((odd.white_ms, odd.black_ms), (61_500, 2_250));
    assert!(odd.write(" ").starts_with("B 61.5 2.25 "));
}

#[test]
fn game_file_keeps_castling_for_chess_when_pieces_are_home() {
    let g = GameFile::parse(START_2002, Rules::Chess).unwrap();
    assert_eq!(
        g.position.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
}

fn err(text: &str) -> FormatError {
    GameFile::parse(text, Rules::Antichess).unwrap_err()
}

#[test]
fn game_file_errors_say_what_and_where() {
    assert_eq!(err(""), FormatError::Empty);
    assert!(matches!(
        err("purple 1 2"),
        FormatError::BadColor {
            at: Loc::Field(1),
            ..
        }
    ));
    assert!(matches!(
        err(&START_2002.replace("300000\nrnb", "-5\nrnb")),
        FormatError::BadTime {
            at: Loc::Line(3),
            color: Color::Black,
            ..
        }
    ));
    assert!(matches!(
        err(&START_1994.replace("300.0 300.0", "300.0 NaN")),
        FormatError::BadTime { .. }
    ));
    assert_eq!(
        err(&START_2002.replace("--------\n--------\n--------\n", "")),
        FormatError::RowCount { found: 5 }
    );
    assert_eq!(
        err(&START_2002.replace("PPPPPPPP", "PPPPPPP")),
        FormatError::RowLength {
            at: Loc::Line(10),
            found: 7
        }
    );
    let e = err(&START_2002.replace("RNBQKBNR", "RNBQKBXR"));
    assert_eq!(
        e,
        FormatError::BadSquare {
            at: Loc::Line(11),
            column: 7,
            found: 'X'
        }
    );
    assert_eq!(
        e.to_string(),
        "line 11, column 7: 'X' is not a piece (PNBRQK, pnbrqk) or an empty square"
    );
    assert!(matches!(
        err(&START_2002.replace("RNBQKBNR", "RNBQQBNR")),
        FormatError::Setup(SetupError::KingCount {
            color: Color::White,
            count: 0
        })
    ));
    assert!(matches!(
        err(&START_2002.replace("RNBQKBNR", "RNBQKBNP")),
        FormatError::Setup(SetupError::PawnOnBackRank(_))
    ));
    // White to move while black's king stands in check from the rook.
    let checked =
        "white 1000 1000 ----k--- -------- -------- -------- -------- -------- -------- R---K---";
    assert!(GameFile::parse(checked, Rules::Antichess).is_ok());
    let checked =
        "white 1000 1000 ----k--- -------- -------- -------- -------- -------- -------- ----R-K-";
    assert_eq!(
        err(checked),
        FormatError::Setup(SetupError::OpponentInCheck)
    );
}

#[test]
fn fen_round_trips_along_random_games() {
    let mut rng = SplitMix(7);
    for rules in Rules::ALL {
        for _game in 0..20 {
            let mut pos = Position::startpos(rules);
            for _ply in 0..200 {
                assert_eq!(
                    Position::from_fen(&pos.fen(), rules).unwrap(),
                    pos,
                    "{}",
                    pos.fen()
                );
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.status().is_over() {
                    break;
                }
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                // Every generated move reads back as itself in both forms.
                assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
                if mv.promotion().is_none_or(|k| k.letter() == 'q') {
                    assert_eq!(pos.parse_move(&mv.handout().to_string()), Ok(mv));
                }
                pos = pos.play(mv);
            }
        }
    }
}

/// Mutates valid inputs byte by byte and feeds them to every parser.
#[test]
fn parsers_never_panic() {
    let seeds = [
        START_2002.to_string(),
        START_1994.to_string(),
        START_2002.replace('\n', " "),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".to_string(),
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - e3 0 1".to_string(),
    ];
    let alphabet = b"-/ \n0123456789kKqQrRbBnNpPwWhite.\xff\x00e2e4-=";
    let mut rng = SplitMix(99);
    let pos = Position::startpos(Rules::Chess);
    for i in 0..20_000 {
        let mut bytes = seeds[i % seeds.len()].clone().into_bytes();
        for _ in 0..(1 + rng.next_u64() % 4) {
            let at = (rng.next_u64() % (bytes.len() as u64 + 1)) as usize;
            let c = alphabet[(rng.next_u64() % alphabet.len() as u64) as usize];
            match rng.next_u64() % 3 {
                0 if at < bytes.len() => bytes[at] = c,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, c),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        for rules in Rules::ALL {
            let _ = GameFile::parse(&text, rules);
            let _ = Position::from_fen(&text, rules);
        }
        let _ = pos.parse_move(&text.chars().take(12).collect::<String>());
    }
}

/// A game-file dash inside a FEN is reported as the dash the user typed.
#[test]
fn fen_errors_show_the_character_typed() {
    let err = Position::from_fen(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN- w - - 0 1",
        Rules::Chess,
    );
    assert!(
        matches!(err, Err(FormatError::BadSquare { found: '-', .. })),
        "{err:?}"
    );
}
