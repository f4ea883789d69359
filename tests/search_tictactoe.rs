//! The search on tic-tac-toe, against a brute-force solver: every reachable
//! position gets its game-theoretic value and a move that keeps it. Also
//! the searcher's contracts: node limits, determinism, a fixed table size,
//! iteration reports, and a move even when time is already up.

use antichess::search::{
    Game, Limits, MATE, MoveList, Outcome, Score, SearchParams, SearchResult, Searcher,
    is_decisive, params,
};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Board {
    /// 0 empty, 1 for the side that moved first, 2 for the other.
    cells: [u8; 9],
    to_move: u8,
    /// Search with singular extensions, eager ones (off by default).
    singular: bool,
}

impl Board {
    fn start() -> Self {
        Board {
            cells: [0; 9],
            to_move: 1,
            singular: false,
        }
    }

    fn someone_won(&self) -> bool {
        LINES
            .iter()
            .any(|l| self.cells[l[0]] != 0 && l.iter().all(|&c| self.cells[c] == self.cells[l[0]]))
    }

    fn completes_line(&self, square: u8) -> bool {
        let mut after = self.cells;
        after[square as usize] = self.to_move;
        LINES
            .iter()
            .any(|l| l.contains(&(square as usize)) && l.iter().all(|&c| after[c] == self.to_move))
    }
}

impl Game for Board {
    type Move = u8;

    fn key(&self) -> u64 {
        let code = self
            .cells
            .iter()
            .fold(u64::from(self.to_move), |acc, &c| acc * 3 + u64::from(c));
        code.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29) ^ 0x5555
    }
    fn generate(&self, moves: &mut MoveList<u8>) {
        if !self.someone_won() {
            moves.extend((0..9).filter(|&sq| self.cells[sq as usize] == 0));
        }
    }
    fn play(&self, square: u8) -> Self {
        let mut next = *self;
        next.cells[square as usize] = self.to_move;
        next.to_move = 3 - self.to_move;
        next
    }
    fn outcome(&self, moves: &[u8]) -> Option<Outcome> {
        if self.someone_won() {
            Some(Outcome::Loss)
        } else if moves.is_empty() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
    fn evaluate(&self) -> Score {
        // Lines still open to one side, weighted by how full they are.
        LINES
            .iter()
            .map(|l| {
                let mine = l.iter().filter(|&&c| self.cells[c] == self.to_move).count() as Score;
                let theirs = l
                    .iter()
                    .filter(|&&c| self.cells[c] == 3 - self.to_move)
                    .count();
                match (mine, theirs) {
                    (m, 0) => 10 * m * m,
                    (0, t) => -10 * (t * t) as Score,
                    _ => 0,
                }
            })
            .sum()
    }
    fn in_check(&self) -> bool {
        false
    }
    fn is_tactical(&self, square: u8) -> bool {
        self.completes_line(square)
    }
    fn tactical_order(&self, _: u8) -> i32 {
        0
    }
    fn history_index(&self, square: u8) -> usize {
        square as usize
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn pack(square: u8) -> u16 {
        u16::from(square)
    }
    fn search_params(&self) -> SearchParams {
        let mut params = *params();
        if self.singular {
            // From depth 2 and with no margin, so that nearly every node
            // with a table move runs the search without it.
            (params.se_depth, params.se_margin) = (2, 0);
        }
        params
    }
}

/// Exact value for the side to move: 1 win, 0 draw, -1 loss.
fn solve(board: &Board, memo: &mut HashMap<Board, i32>) -> i32 {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let mut moves = MoveList::new();
    board.generate(&mut moves);
    let value = match board.outcome(&moves) {
        Some(Outcome::Win) => 1,
        Some(Outcome::Loss) => -1,
        Some(Outcome::Draw) => 0,
        None => moves
            .iter()
            .map(|&m| -solve(&board.play(m), memo))
            .max()
            .unwrap_or(0),
    };
    memo.insert(*board, value);
    value
}

fn reachable(board: Board, seen: &mut HashMap<Board, ()>) {
    if seen.insert(board, ()).is_some() {
        return;
    }
    let mut moves = MoveList::new();
    board.generate(&mut moves);
    for m in moves {
        reachable(board.play(m), seen);
    }
}

/// Every reachable position where the game goes on, in a fixed order, with
/// its number of empty cells.
fn open_positions() -> Vec<(Board, u32)> {
    let mut seen = HashMap::new();
    reachable(Board::start(), &mut seen);
    let mut positions: Vec<(Board, u32)> = seen
        .into_keys()
        .map(|b| (b, b.cells.iter().filter(|&&c| c == 0).count() as u32))
        .filter(|&(b, empties)| !b.someone_won() && empties > 0)
        .collect();
    positions.sort_by_key(|(b, _)| b.cells);
    positions
}

fn search(searcher: &mut Searcher<Board>, board: &Board, limits: Limits) -> SearchResult<u8> {
    searcher.search(board, &[], &limits, &AtomicBool::new(false), |_| {})
}

#[test]
fn every_position_gets_its_exact_value_and_a_move_that_keeps_it() {
    every_position_exactly(false);
}

/// Singular extensions search a node again without its table move, and
/// cut the node when that search alone holds beta (some 4,000 times here):
/// a cut where it does not (tried: a bound 30 too low) shows as a wrong
/// value.
#[test]
fn singular_extensions_keep_every_value_exact() {
    every_position_exactly(true);
}

fn every_position_exactly(singular: bool) {
    let mut memo = HashMap::new();
    let positions = open_positions();
    // One searcher for all, as in a game: stale entries must not mislead.
    let mut searcher = Searcher::new(1).unwrap();
    let mut checked = 0;
    for (mut board, empties) in positions {
        board.singular = singular;
        let value = solve(&board, &mut memo);
        let result = search(&mut searcher, &board, Limits::depth(empties + 1));
        let what = format!("{board:?} value {value}: {result:?}");
        match value {
            1 => assert!(result.score > MATE / 2, "{what}"),
            -1 => assert!(result.score < -MATE / 2, "{what}"),
            _ => assert!(!is_decisive(result.score), "{what}"),
        }
        let mut child = board.play(result.best_move.expect("a move"));
        child.singular = false;
        assert_eq!(-solve(&child, &mut memo), value, "{what}");
        checked += 1;
    }
    assert!(checked > 4000, "{checked}");
}

#[test]
fn an_immediate_win_beats_a_fork() {
    // X to move: X X . / O O . / . . . — c1 wins now; a fork would too,
    // later.
    let board = Board {
        cells: [1, 1, 0, 2, 2, 0, 0, 0, 0],
        to_move: 1,
        singular: false,
    };
    let result = search(&mut Searcher::new(1).unwrap(), &board, Limits::depth(6));
    assert_eq!((result.best_move, result.score), (Some(2), MATE - 1));
}

#[test]
fn node_limit_is_never_exceeded() {
    let mut searcher = Searcher::new(1).unwrap();
    for limit in [1, 10, 100, 1000] {
        searcher.clear();
        let result = search(&mut searcher, &Board::start(), Limits::nodes(limit));
        assert!(result.nodes <= limit, "{limit}: {}", result.nodes);
        assert!(result.best_move.is_some());
    }
}

#[test]
fn cleared_searches_are_reproducible() {
    let mut searcher = Searcher::new(1).unwrap();
    let mut runs = Vec::new();
    for _ in 0..3 {
        searcher.clear();
        let result = search(&mut searcher, &Board::start(), Limits::depth(9));
        runs.push((result.nodes, result.best_move, result.score, result.pv));
    }
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[1], runs[2]);
    // Node-limited searches too.
    let mut counts = Vec::new();
    for _ in 0..2 {
        searcher.clear();
        let result = search(&mut searcher, &Board::start(), Limits::nodes(777));
        counts.push((result.nodes, result.best_move, result.depth));
    }
    assert_eq!(counts[0], counts[1]);
}

#[test]
fn the_table_keeps_its_size() {
    let mut searcher = Searcher::<Board>::new(1).unwrap();
    let bytes = searcher.tt().size_bytes();
    assert_eq!(bytes, 1 << 20);
    search(&mut searcher, &Board::start(), Limits::depth(9));
    assert_eq!(searcher.tt().size_bytes(), bytes);
    searcher.resize_hash(2).unwrap();
    assert_eq!(searcher.tt().size_bytes(), 2 << 20);
}

#[test]
fn each_iteration_is_reported() {
    let mut searcher = Searcher::new(1).unwrap();
    let mut reports = Vec::new();
    let limits = Limits::depth(5);
    let result = searcher.search(
        &Board::start(),
        &[],
        &limits,
        &AtomicBool::new(false),
        |info| {
            reports.push((info.depth, info.nodes, info.pv.to_vec()));
        },
    );
    let depths: Vec<u32> = reports.iter().map(|r| r.0).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert!(reports.windows(2).all(|w| w[0].1 <= w[1].1));
    let last = reports.last().unwrap();
    assert_eq!(last.2, result.pv);
    assert_eq!(result.pv.first().copied(), result.best_move);
}

#[test]
fn time_already_up_still_gives_a_move() {
    let mut searcher = Searcher::new(1).unwrap();
    let past = Instant::now();
    let limits = Limits {
        deadline: Some(past),
        start: Some(past),
        ..Limits::clock(Duration::ZERO, Duration::ZERO, None)
    };
    let result = search(&mut searcher, &Board::start(), limits);
    assert!(result.best_move.is_some());
    // The clock is polled every 1024 nodes; this tiny first iteration
    // completes before the first poll, and no second one starts.
    assert!(result.depth <= 1, "{result:?}");
}

#[test]
fn helper_threads_do_not_change_the_value() {
    let mut memo = HashMap::new();
    let positions = open_positions();
    let mut searcher = Searcher::new(1).unwrap();
    searcher.set_threads(3);
    assert_eq!(searcher.threads(), 3);
    for &(board, empties) in positions.iter().step_by(37) {
        let value = solve(&board, &mut memo);
        let result = search(&mut searcher, &board, Limits::depth(empties + 1));
        let child = board.play(result.best_move.expect("a move"));
        assert_eq!(-solve(&child, &mut memo), value, "{board:?}: {result:?}");
    }
}
