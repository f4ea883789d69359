//! The search on the chess board through the chess module's `Game`
//! implementation: mates in chess, forced wins in antichess where the
//! winner is the one left with a bare king, and measurement harnesses.

use antichess::chess::{Color, Move, Position, Rules, Status};
use antichess::search::{Limits, MATE, SearchResult, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn board(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).expect("test FEN is valid")
}

fn search(board: &Position, limits: Limits) -> SearchResult<Move> {
    let mut searcher = Searcher::new(16).unwrap();
    searcher.search(board, &[], &limits, &AtomicBool::new(false), |_| {})
}

/// Plays out `pv` and returns the final status.
fn play_out(board: &Position, pv: &[Move]) -> Status {
    pv.iter().fold(*board, |b, &m| b.play(m)).status()
}

#[test]
fn chess_back_rank_mate_in_one() {
    let board = board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Rules::Chess);
    let result = search(&board, Limits::depth(3));
    assert_eq!(result.score, MATE - 1, "{result:?}");
    assert!(matches!(
        play_out(&board, &result.pv),
        Status::Won {
            winner: Color::White,
            ..
        }
    ));
}

#[test]
fn chess_mate_in_two_is_played_out() {
    // Two rooks roll the king up the board.
    let board = board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", Rules::Chess);
    let result = search(&board, Limits::depth(5));
    assert_eq!(result.score, MATE - 3, "{result:?}");
    assert_eq!(result.pv.len(), 3, "{result:?}");
    assert!(matches!(
        play_out(&board, &result.pv),
        Status::Won {
            winner: Color::White,
            ..
        }
    ));
}

#[test]
fn antichess_giving_the_queen_away_wins() {
    // Whichever square the queen picks on the pawn's diagonals, the pawn
    // must take it and White is left with a bare king: a win in 2 plies.
    let board = board("4k3/8/8/2p5/8/8/8/Q3K3 w - - 0 1", Rules::Antichess);
    let result = search(&board, Limits::depth(4));
    assert_eq!(result.score, MATE - 2, "{result:?}");
    assert!(matches!(
        play_out(&board, &result.pv),
        Status::Won {
            winner: Color::White,
            ..
        }
    ));
}

/// Nodes and speed on the start positions; run with
/// `cargo test --release --test search_chess -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a test"]
fn measure_start_positions() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const NO_CASTLING: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    let depth: u32 = std::env::var("DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(8);
    for (rules, fen) in [
        (Rules::Chess, START),
        (Rules::Antichess, NO_CASTLING),
        (Rules::Antichess1994, NO_CASTLING),
    ] {
        let board = board(fen, rules);
        let mut searcher = Searcher::new(64).unwrap();
        let started = Instant::now();
        let stop = AtomicBool::new(false);
        let result = searcher.search(&board, &[], &Limits::depth(depth), &stop, |info| {
            println!(
                "{rules} depth {} seldepth {} score {} nodes {} nps {} pv {}",
                info.depth,
                info.seldepth,
                info.score,
                info.nodes,
                info.nps(),
                info.pv
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        });
        println!("{rules}: {} nodes in {:?}", result.nodes, started.elapsed());
    }
}

/// Time actually spent under sudden-death clocks; run like
/// [`measure_start_positions`].
#[test]
#[ignore = "a measurement, not a test"]
fn measure_clock_use() {
    use std::time::Duration;
    let board = board(
        "rnbqkbnr/pppp1ppp/4p3/8/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2",
        Rules::Antichess,
    );
    let mut searcher = Searcher::new(64).unwrap();
    for remaining in [10, 100, 1_000, 10_000] {
        let limits = Limits::clock(Duration::from_millis(remaining), Duration::ZERO, None);
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let result = searcher.search(&board, &[], &limits, &stop, |_| {});
        println!(
            "{remaining} ms left: answered in {:?}, depth {}, {} nodes",
            started.elapsed(),
            result.depth,
            result.nodes
        );
    }
}

#[test]
fn antichess_offers_compel_a_reply() {
    use antichess::search::Game;
    // The d6 pawn attacks c5 and e5: a rook sent there must be taken.
    let offer = |fen: &str, rules, text: &str| {
        let pos = board(fen, rules);
        let mv = pos.parse_move(text).expect("test move is legal");
        pos.compels_reply(mv)
    };
    let fen = "4k3/8/3p4/R7/8/8/8/4K3 w - - 0 1";
    assert!(offer(fen, Rules::Antichess, "a5c5"));
    assert!(offer(fen, Rules::Antichess, "a5e5"));
    assert!(!offer(fen, Rules::Antichess, "a5b5"));
    assert!(!offer(fen, Rules::Antichess, "a5a4"));
    // Only antichess compels a capture.
    assert!(!offer(fen, Rules::Chess, "a5c5"));
}

#[test]
fn antichess_never_passes_past_a_compulsory_capture() {
    use antichess::search::Game;
    // Two minor pieces and nothing to take: the search may pass here.
    let quiet = board("4k3/p7/8/8/8/8/8/1N2KB2 w - - 0 1", Rules::Antichess);
    assert!(Game::play_null(&quiet).is_some());
    // The knight can take on a3 (and so must): no pass.
    let capture = board("4k3/8/8/8/8/p7/8/1N2KB2 w - - 0 1", Rules::Antichess);
    assert!(Game::play_null(&capture).is_none());
    // A lone minor piece is too little to trust a pass with.
    let lone = board("4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1", Rules::Antichess);
    assert!(Game::play_null(&lone).is_none());
}
