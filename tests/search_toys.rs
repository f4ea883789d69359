//! The search on toy games whose values are known: take-away Nim (normal
//! and misère, the latter winning like antichess by running out of moves),
//! a hand-built tree for mate distance and forced-capture quiescence, and
//! a stand-off that only repetition can settle.

use antichess::search::{Game, Limits, MATE, MoveList, Outcome, Score, SearchResult, Searcher};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn run<G: Game>(pos: &G, history: &[u64], limits: Limits) -> SearchResult<G::Move> {
    let mut searcher = Searcher::<G>::new(1).unwrap();
    searcher.search(pos, history, &limits, &AtomicBool::new(false), |_| {})
}

// ---------------------------------------------------------------- Nim

/// Take 1 to 3 from a heap. Normal play: taking the last one wins.
/// Misère: whoever cannot move has won.
#[derive(Clone, Copy, Debug)]
struct Nim {
    heap: u32,
    misere: bool,
    white: bool,
}

impl Game for Nim {
    type Move = u32;

    fn key(&self) -> u64 {
        mix(u64::from(self.heap) * 4 + u64::from(self.misere) * 2 + u64::from(self.white))
    }
    fn generate(&self, moves: &mut MoveList<u32>) {
        moves.extend((1..=3).filter(|&take| take <= self.heap));
    }
    fn play(&self, take: u32) -> Self {
        Nim {
            heap: self.heap - take,
            white: !self.white,
            ..*self
        }
    }
    fn outcome(&self, moves: &[u32]) -> Option<Outcome> {
        match (moves.is_empty(), self.misere) {
            (false, _) => None,
            (true, false) => Some(Outcome::Loss),
            (true, true) => Some(Outcome::Win),
        }
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn in_check(&self) -> bool {
        false
    }
    fn is_tactical(&self, _: u32) -> bool {
        false
    }
    fn tactical_order(&self, _: u32) -> i32 {
        0
    }
    fn history_index(&self, take: u32) -> usize {
        take as usize
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn pack(take: u32) -> u16 {
        take as u16
    }
}

#[test]
fn nim_values_and_winning_moves() {
    for misere in [false, true] {
        for heap in 1..=21 {
            let pos = Nim {
                heap,
                misere,
                white: true,
            };
            let result = run(&pos, &[], Limits::depth(heap + 1));
            let losing = if misere { heap % 4 == 1 } else { heap % 4 == 0 };
            let what = format!("heap {heap} misere {misere}: {result:?}");
            if losing {
                assert!(result.score < -MATE / 2, "{what}");
            } else {
                assert!(result.score > MATE / 2, "{what}");
                let take = result.best_move.unwrap();
                let rest = heap - take;
                assert!(if misere { rest % 4 == 1 } else { rest % 4 == 0 }, "{what}");
            }
        }
    }
}

#[test]
fn wins_score_by_their_distance() {
    // Heap 3, normal play: taking all three wins at once, 1 ply away.
    let pos = Nim {
        heap: 3,
        misere: false,
        white: true,
    };
    let result = run(&pos, &[], Limits::depth(6));
    assert_eq!((result.best_move, result.score), (Some(3), MATE - 1));
    let pos = Nim {
        heap: 4,
        misere: true,
        white: true,
    };
    let result = run(&pos, &[], Limits::depth(6));
    // Misère heap 4: leave 1; the opponent must take it, and we, out of
    // moves, have won 2 plies from the root.
    assert_eq!((result.best_move, result.score), (Some(3), MATE - 2));
}

#[test]
fn forced_move_under_a_clock_is_played_at_once() {
    let pos = Nim {
        heap: 1,
        misere: false,
        white: true,
    };
    let clock = Limits::clock(Duration::from_secs(60), Duration::ZERO, None);
    let result = run(&pos, &[], clock);
    assert_eq!(
        (result.best_move, result.nodes, result.depth),
        (Some(1), 0, 0)
    );
    // Without a clock it is searched, so a score comes back.
    let result = run(&pos, &[], Limits::depth(3));
    assert_eq!((result.best_move, result.score), (Some(1), MATE - 1));
}

#[test]
fn a_finished_game_has_no_move() {
    for (misere, score) in [(false, -MATE), (true, MATE)] {
        let pos = Nim {
            heap: 0,
            misere,
            white: true,
        };
        let result = run(&pos, &[], Limits::depth(3));
        assert_eq!((result.best_move, result.score), (None, score));
    }
}

#[test]
fn a_raised_stop_flag_still_yields_a_legal_move() {
    let pos = Nim {
        heap: 30,
        misere: false,
        white: true,
    };
    let mut searcher = Searcher::<Nim>::new(1).unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    let result = searcher.search(&pos, &[], &Limits::default(), &stop, |_| {});
    assert!(matches!(result.best_move, Some(1..=3)));
    assert_eq!(result.depth, 0);
}

// ---------------------------------------------------------- explicit trees

/// A node of a hand-built game tree.
#[derive(Debug)]
struct Node {
    /// Children, with whether the move there is tactical.
    children: Vec<(usize, bool)>,
    outcome: Option<Outcome>,
    eval: Score,
}

fn node(children: &[(usize, bool)], eval: Score) -> Node {
    Node {
        children: children.to_vec(),
        outcome: None,
        eval,
    }
}

fn end(outcome: Outcome) -> Node {
    Node {
        children: Vec::new(),
        outcome: Some(outcome),
        eval: 0,
    }
}

#[derive(Clone, Debug)]
struct TreeGame {
    nodes: Arc<Vec<Node>>,
    at: usize,
}

impl TreeGame {
    fn new(nodes: Vec<Node>) -> Self {
        TreeGame {
            nodes: Arc::new(nodes),
            at: 0,
        }
    }
    fn here(&self) -> &Node {
        &self.nodes[self.at]
    }
}

impl Game for TreeGame {
    type Move = usize;

    fn key(&self) -> u64 {
        mix(self.at as u64)
    }
    fn generate(&self, moves: &mut MoveList<usize>) {
        moves.extend(self.here().children.iter().map(|&(child, _)| child));
    }
    fn play(&self, child: usize) -> Self {
        TreeGame {
            nodes: Arc::clone(&self.nodes),
            at: child,
        }
    }
    fn outcome(&self, moves: &[usize]) -> Option<Outcome> {
        self.here()
            .outcome
            .or(moves.is_empty().then_some(Outcome::Draw))
    }
    fn evaluate(&self) -> Score {
        self.here().eval
    }
    fn in_check(&self) -> bool {
        false
    }
    fn is_tactical(&self, child: usize) -> bool {
        self.here().children.iter().any(|&(c, t)| c == child && t)
    }
    fn tactical_order(&self, _: usize) -> i32 {
        0
    }
    fn history_index(&self, child: usize) -> usize {
        child
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn pack(child: usize) -> u16 {
        child as u16
    }
}

#[test]
fn a_win_further_down_the_first_line_loses_to_a_quicker_one() {
    // 0 -> 1 (opponent's only move) -> 2 (opponent's only move) -> 3 (win)
    // 0 -> 4 where the opponent has lost at once.
    let game = TreeGame::new(vec![
        node(&[(1, false), (4, false)], 0),
        node(&[(2, false)], 0),
        node(&[(3, false)], 0),
        end(Outcome::Loss),
        end(Outcome::Loss),
    ]);
    let result = run(&game, &[], Limits::depth(5));
    assert_eq!((result.best_move, result.score), (Some(4), MATE - 1));
    assert_eq!(result.pv, vec![4]);
}

#[test]
fn quiescence_searches_every_move_when_all_are_tactical() {
    // Node 1 looks great for the opponent (+500 for it), but its only move
    // is a capture into node 3, worth +300 to us (taking on into node 4
    // would be worse for us: +1000 for the opponent there). Node 2 is quiet
    // and even. A one-ply search must see through node 1: standing pat
    // there would be declining a compulsory capture.
    let tree = |quiet_escape: bool| {
        let mut one = vec![(3, true)];
        if quiet_escape {
            one.push((5, false));
        }
        TreeGame::new(vec![
            node(&[(2, false), (1, false)], 0),
            node(&one, 500),
            node(&[(5, false)], 0),
            node(&[(5, false), (4, true)], 300),
            node(&[(5, false)], 1000),
            end(Outcome::Draw),
        ])
    };
    let result = run(&tree(false), &[], Limits::depth(1));
    assert_eq!((result.best_move, result.score), (Some(1), 300));
    // With a quiet move in node 1 the opponent may stand pat on its +500.
    let result = run(&tree(true), &[], Limits::depth(1));
    assert_eq!((result.best_move, result.score), (Some(2), 0));
}

// ------------------------------------------------------------- stand-off

/// Both sides may wait forever; firing loses at once. The static
/// evaluation favours White, so only repetition reveals the draw.
#[derive(Clone, Copy, Debug)]
struct StandOff {
    white: bool,
    waits: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Act {
    #[default]
    Wait,
    Fire,
}

impl StandOff {
    fn key_of(white: bool) -> u64 {
        mix(u64::from(white))
    }
}

impl Game for StandOff {
    type Move = Act;

    fn key(&self) -> u64 {
        if self.waits == u32::MAX {
            return mix(99);
        }
        Self::key_of(self.white)
    }
    fn generate(&self, moves: &mut MoveList<Act>) {
        if self.waits != u32::MAX {
            moves.extend([Act::Wait, Act::Fire]);
        }
    }
    fn play(&self, act: Act) -> Self {
        let waits = match act {
            Act::Wait => self.waits + 1,
            Act::Fire => u32::MAX,
        };
        StandOff {
            white: !self.white,
            waits,
        }
    }
    fn outcome(&self, moves: &[Act]) -> Option<Outcome> {
        // After a shot: the shooter's opponent has won.
        moves.is_empty().then_some(Outcome::Win)
    }
    fn evaluate(&self) -> Score {
        if self.white { 100 } else { -100 }
    }
    fn in_check(&self) -> bool {
        false
    }
    fn is_tactical(&self, _: Act) -> bool {
        false
    }
    fn tactical_order(&self, _: Act) -> i32 {
        0
    }
    fn history_index(&self, act: Act) -> usize {
        act as usize
    }
    fn reversible_plies(&self) -> u32 {
        if self.waits == u32::MAX {
            0
        } else {
            self.waits
        }
    }
    fn pack(act: Act) -> u16 {
        act as u16
    }
}

#[test]
fn repetition_along_the_path_is_a_draw() {
    let pos = StandOff {
        white: true,
        waits: 0,
    };
    // Too shallow to see a repetition: White's static edge shows.
    assert_eq!(run(&pos, &[], Limits::depth(2)).score, 100);
    let result = run(&pos, &[], Limits::depth(6));
    assert_eq!((result.best_move, result.score), (Some(Act::Wait), 0));
}

#[test]
fn repetition_of_the_game_history_is_a_draw() {
    let pos = StandOff {
        white: true,
        waits: 2,
    };
    let history = [StandOff::key_of(true), StandOff::key_of(false)];
    assert_eq!(run(&pos, &[], Limits::depth(2)).score, 100);
    assert_eq!(run(&pos, &history, Limits::depth(2)).score, 0);
    // The root's own key may end the history.
    let with_root = [history[0], history[1], pos.key()];
    assert_eq!(run(&pos, &with_root, Limits::depth(2)).score, 0);
    // Beyond the last irreversible move nothing repeats.
    let fresh = StandOff { waits: 0, ..pos };
    assert_eq!(run(&fresh, &history, Limits::depth(2)).score, 100);
}

// ------------------------------------------------------------ endless

/// A game that never ends and never repeats: each move appends a bit.
#[derive(Clone, Copy, Debug)]
struct Endless {
    path: u64,
    len: u32,
}

impl Game for Endless {
    type Move = u8;

    fn key(&self) -> u64 {
        mix(self.path ^ u64::from(self.len) << 58)
    }
    fn generate(&self, moves: &mut MoveList<u8>) {
        moves.extend([0, 1]);
    }
    fn play(&self, bit: u8) -> Self {
        Endless {
            path: self.path.rotate_left(1) ^ u64::from(bit),
            len: self.len + 1,
        }
    }
    fn outcome(&self, _: &[u8]) -> Option<Outcome> {
        None
    }
    fn evaluate(&self) -> Score {
        (self.key() % 200) as Score - 100
    }
    fn in_check(&self) -> bool {
        false
    }
    fn is_tactical(&self, _: u8) -> bool {
        false
    }
    fn tactical_order(&self, _: u8) -> i32 {
        0
    }
    fn history_index(&self, bit: u8) -> usize {
        usize::from(bit)
    }
    fn reversible_plies(&self) -> u32 {
        0
    }
    fn pack(bit: u8) -> u16 {
        u16::from(bit)
    }
}

#[test]
fn another_thread_can_stop_an_endless_search() {
    // Unlimited, this search would take 2^64 nodes: only the flag ends it.
    let stop = Arc::new(AtomicBool::new(false));
    let raiser = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        })
    };
    let mut searcher = Searcher::new(1).unwrap();
    searcher.set_threads(2);
    let result = searcher.search(
        &Endless { path: 0, len: 0 },
        &[],
        &Limits::default(),
        &stop,
        |_| {},
    );
    raiser.join().unwrap();
    // Returning at all is the point; how deep it got depends on the clock.
    assert!(matches!(result.best_move, Some(0 | 1)));
}

#[test]
fn a_movetime_ends_an_endless_search() {
    let limits = Limits {
        move_overhead: Duration::ZERO,
        ..Limits::movetime(Duration::from_millis(30))
    };
    let result = run(&Endless { path: 0, len: 0 }, &[], limits);
    assert!(matches!(result.best_move, Some(0 | 1)));
}
