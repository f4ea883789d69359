//! The search on the chess board, through a minimal test-only `Game`
//! adapter (material only; the real adapter and evaluation belong to the
//! chess module): mates in chess, forced wins in antichess where the
//! winner is the one left with a bare king, and a measurement harness.

use antichess::chess::{Color, Move, PieceKind, Position, Rules, Status};
use antichess::search::{Game, Limits, MATE, MoveList, Outcome, Score, SearchResult, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(Clone, Copy, Debug)]
struct Board(Position);

const VALUES: [Score; 6] = [100, 300, 300, 500, 900, 0];

impl Board {
    fn fen(fen: &str, rules: Rules) -> Board {
        Board(Position::from_fen(fen, rules).expect("test FEN is valid"))
    }

    fn material(&self, color: Color) -> Score {
        PieceKind::ALL
            .iter()
            .map(|&k| self.0.pieces(color, k).count() as Score * VALUES[k.index()])
            .sum()
    }
}

impl Game for Board {
    type Move = Move;

    fn key(&self) -> u64 {
        self.0.key()
    }
    fn generate(&self, moves: &mut MoveList<Move>) {
        self.0.legal_moves(moves);
    }
    fn play(&self, mv: Move) -> Self {
        Board(self.0.play(mv))
    }
    fn outcome(&self, _moves: &[Move]) -> Option<Outcome> {
        let us = self.0.side_to_move();
        match self.0.status() {
            Status::Ongoing => None,
            Status::Won { winner, .. } if winner == us => Some(Outcome::Win),
            Status::Won { .. } => Some(Outcome::Loss),
            Status::Drawn(_) => Some(Outcome::Draw),
        }
    }
    fn evaluate(&self) -> Score {
        let us = self.0.side_to_move();
        let balance = self.material(us) - self.material(us.flip());
        if self.0.rules().is_antichess() {
            -balance
        } else {
            balance
        }
    }
    fn in_check(&self) -> bool {
        self.0.in_check()
    }
    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion().is_some() || self.0.kind_at(mv.to()).is_some()
    }
    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = self.0.kind_at(mv.to()).map_or(0, |k| VALUES[k.index()]);
        let attacker = self.0.kind_at(mv.from()).map_or(0, |k| VALUES[k.index()]);
        victim * 8 - attacker / 100
    }
    fn history_index(&self, mv: Move) -> usize {
        mv.from().index() * 64 + mv.to().index()
    }
    fn reversible_plies(&self) -> u32 {
        u32::from(self.0.halfmove_clock())
    }
    fn pack(mv: Move) -> u16 {
        mv.bits()
    }
}

fn search(board: &Board, limits: Limits) -> SearchResult<Move> {
    let mut searcher = Searcher::new(16).unwrap();
    searcher.search(board, &[], &limits, &AtomicBool::new(false), |_| {})
}

/// Plays out `pv` and returns the final status.
fn play_out(board: &Board, pv: &[Move]) -> Status {
    pv.iter().fold(*board, |b, &m| b.play(m)).0.status()
}

#[test]
fn chess_back_rank_mate_in_one() {
    let board = Board::fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", Rules::Chess);
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
    let board = Board::fen("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", Rules::Chess);
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
    let board = Board::fen("4k3/8/8/2p5/8/8/8/Q3K3 w - - 0 1", Rules::Antichess);
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
        let board = Board::fen(fen, rules);
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
    let board = Board::fen(
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
