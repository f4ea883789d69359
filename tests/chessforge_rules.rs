//! ChessForge rules: every movement rule at the edges, corners and centre,
//! empty squares, the replacement rules, and reproducibility by seed.

use antichess::chessforge::policy::{Policy, new_game, play_game};
use antichess::chessforge::rules::reach;
use antichess::chessforge::{
    Board, Replacement, Rng, RuleSet, Square, SquareSet, Strike, StrikeError, Symbol, Tile,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn set(names: &str) -> SquareSet {
    names.split_whitespace().map(sq).collect()
}

/// A board whose squares all hold `fill` with `hits`, except `tiles`
/// (`None` = removed), with the last strike on `from` following `rule`.
fn board_with(
    fill: Option<(Symbol, u8)>,
    tiles: &[(&str, Option<(Symbol, u8)>)],
    last: Option<(&str, Symbol)>,
    rules: RuleSet,
) -> Board {
    let mut all = [fill.and_then(|(s, h)| Tile::new(s, h)); 36];
    for &(name, tile) in tiles {
        all[sq(name).index()] = tile.and_then(|(s, h)| Tile::new(s, h));
    }
    let last = last.map(|(name, rule)| Strike {
        square: sq(name),
        rule,
    });
    Board::from_parts(all, last, rules).unwrap()
}

/// Checks each `(rule, from, expected targets)` on a full board.
fn check_reach(cases: &[(Symbol, &str, &str)]) {
    for &(rule, from, expected) in cases {
        assert_eq!(
            targets_on_full_board(rule, from),
            set(expected),
            "{rule} from {from}"
        );
    }
}

/// Where the next strike may go from `from` under `rule` on a full board.
fn targets_on_full_board(rule: Symbol, from: &str) -> SquareSet {
    let fill = Some((Symbol::One, 3));
    board_with(fill, &[], Some((from, rule)), RuleSet::Extra).targets()
}

#[test]
fn numerals_at_corners_edges_and_centre() {
    let cases = [
        (Symbol::One, "a1", "b1 a2 b2"),
        (Symbol::One, "f6", "e5 f5 e6"),
        (Symbol::One, "c1", "b1 d1 b2 c2 d2"),
        (Symbol::One, "c3", "b2 c2 d2 b3 d3 b4 c4 d4"),
        (Symbol::Two, "a1", "c1 a3 c3"),
        (Symbol::Two, "f1", "d1 d3 f3"),
        (Symbol::Two, "c3", "a1 c1 e1 a3 e3 a5 c5 e5"),
        (Symbol::Three, "a1", "d1 a4 d4"),
        (Symbol::Three, "a6", "a3 d3 d6"),
        (Symbol::Three, "c3", "c6 f6 f3"),
        (Symbol::Four, "a1", "e1 a5 e5"),
        (Symbol::Four, "f6", "b6 f2 b2"),
        (Symbol::Four, "c1", "c5"),
    ];
    check_reach(&cases);
}

#[test]
fn a_four_reaches_nothing_only_from_the_centre() {
    for square in Square::all() {
        assert_eq!(
            reach(Symbol::Four, square).is_empty(),
            square.is_centre(),
            "four from {square}"
        );
    }
}

#[test]
fn knight_moves_stay_on_the_board() {
    check_reach(&[
        (Symbol::Knight, "a1", "b3 c2"),
        (Symbol::Knight, "f6", "e4 d5"),
        (Symbol::Knight, "b1", "a3 c3 d2"),
        (Symbol::Knight, "b2", "a4 c4 d3 d1"),
        (Symbol::Knight, "c3", "b1 d1 a2 e2 a4 e4 b5 d5"),
    ]);
}

#[test]
fn bishops_rooks_and_queens_land_on_the_edge() {
    let cases = [
        (Symbol::Bishop, "a1", "f6"),
        (Symbol::Bishop, "b1", "a2 f5"),
        (Symbol::Bishop, "c3", "a1 e1 a5 f6"),
        (Symbol::Bishop, "f3", "d1 c6"),
        (Symbol::Rook, "a1", "b1 c1 d1 e1 f1 a2 a3 a4 a5 a6"),
        (Symbol::Rook, "c3", "c1 c6 a3 f3"),
        (Symbol::Rook, "b2", "b1 b6 a2 f2"),
        (Symbol::Queen, "c3", "a1 e1 a5 f6 c1 c6 a3 f3"),
        (Symbol::Queen, "d4", "a1 f6 b6 f2 d1 d6 a4 f4"),
    ];
    check_reach(&cases);
}

#[test]
fn wild_reaches_every_tile_but_the_one_just_struck() {
    for from in ["a1", "c3", "f6"] {
        let targets = targets_on_full_board(Symbol::Wild, from);
        assert_eq!(targets.len(), 35);
        assert!(!targets.contains(sq(from)));
    }
}

#[test]
fn lines_pass_over_empty_squares_and_empty_squares_are_not_targets() {
    let gone = None;
    let b = board_with(
        Some((Symbol::One, 2)),
        &[("b1", gone), ("b2", gone), ("c2", gone), ("e1", gone)],
        Some(("a1", Symbol::Two)),
        RuleSet::Standard,
    );
    assert_eq!(b.targets(), set("c1 a3 c3"));
    let b = board_with(
        Some((Symbol::One, 2)),
        &[("c2", gone), ("c1", gone)],
        Some(("c3", Symbol::Rook)),
        RuleSet::Standard,
    );
    assert_eq!(b.targets(), set("c6 a3 f3"));
    assert_eq!(b.check_strike(sq("c1")), Err(StrikeError::Empty(sq("c1"))));
    assert!(matches!(
        b.check_strike(sq("d4")),
        Err(StrikeError::Unreachable { .. })
    ));
}

#[test]
fn first_strike_may_be_any_tile_but_never_an_empty_square() {
    let b = board_with(
        Some((Symbol::Queen, 3)),
        &[("d4", None)],
        None,
        RuleSet::Standard,
    );
    assert_eq!(b.targets().len(), 35);
    assert_eq!(b.check_strike(sq("d4")), Err(StrikeError::Empty(sq("d4"))));
    assert_eq!(b.check_strike(sq("a6")), Ok(()));
}

#[test]
fn next_strike_follows_the_old_symbol() {
    let b = board_with(
        Some((Symbol::One, 3)),
        &[("c3", Some((Symbol::Knight, 3)))],
        None,
        RuleSet::Standard,
    );
    let after = b.strike_as(sq("c3"), Some(Symbol::Rook)).unwrap();
    assert_eq!(after.tile(sq("c3")), Tile::new(Symbol::Rook, 2));
    assert_eq!(after.targets(), set("b1 d1 a2 e2 a4 e4 b5 d5"));
}

#[test]
fn a_tile_struck_at_one_hit_is_removed_and_cannot_be_struck_again() {
    let b = board_with(
        Some((Symbol::Wild, 2)),
        &[("a1", Some((Symbol::Wild, 1)))],
        None,
        RuleSet::Standard,
    );
    assert_eq!(b.replacement(sq("a1")), Some(Replacement::Removed));
    let after = b.strike_as(sq("a1"), None).unwrap();
    assert_eq!(after.tile(sq("a1")), None);
    assert_eq!(after.tiles_removed(), 1);
    assert_eq!(after.strikes_made(), 108 - 35 * 2);
    let next = after.strike_as(sq("b1"), Some(Symbol::One)).unwrap();
    assert_eq!(
        next.check_strike(sq("a1")),
        Err(StrikeError::Empty(sq("a1")))
    );
}

#[test]
fn the_unique_fullest_tile_turns_wild() {
    // One tile of 3 among tiles of 2: it goes wild, keeping 2 hits.
    let b = board_with(
        Some((Symbol::One, 2)),
        &[("e5", Some((Symbol::Knight, 3)))],
        None,
        RuleSet::Standard,
    );
    assert_eq!(b.replacement(sq("e5")), Some(Replacement::Wild));
    let after = b.strike(sq("e5"), &mut Rng::new(1)).unwrap();
    assert_eq!(after.tile(sq("e5")), Tile::new(Symbol::Wild, 2));
    // Its move still follows the knight it was.
    assert_eq!(after.last().map(|s| s.rule), Some(Symbol::Knight));
    // A wild must be wild: any other symbol is refused.
    assert!(matches!(
        b.strike_as(sq("e5"), Some(Symbol::Queen)),
        Err(StrikeError::WrongReplacement { .. })
    ));
}

#[test]
fn a_tie_for_the_most_hits_never_turns_wild() {
    let b = board_with(
        Some((Symbol::One, 1)),
        &[
            ("a1", Some((Symbol::Two, 3))),
            ("f6", Some((Symbol::Two, 3))),
        ],
        None,
        RuleSet::Standard,
    );
    assert!(matches!(
        b.replacement(sq("a1")),
        Some(Replacement::Drawn(_))
    ));
    for seed in 0..200 {
        let after = b.strike(sq("a1"), &mut Rng::new(seed)).unwrap();
        assert_ne!(after.tile(sq("a1")).map(|t| t.symbol()), Some(Symbol::Wild));
    }
    // With f6 down to 2 the tie is broken and a1 goes wild.
    let b = board_with(
        Some((Symbol::One, 1)),
        &[
            ("a1", Some((Symbol::Two, 3))),
            ("f6", Some((Symbol::Two, 2))),
        ],
        None,
        RuleSet::Standard,
    );
    assert_eq!(b.replacement(sq("a1")), Some(Replacement::Wild));
}

#[test]
fn the_last_tile_standing_turns_wild_and_then_nothing_is_legal() {
    let b = board_with(
        None,
        &[("c3", Some((Symbol::Two, 2)))],
        None,
        RuleSet::Standard,
    );
    let after = b.strike_as(sq("c3"), None).unwrap();
    assert_eq!(after.tile(sq("c3")), Tile::new(Symbol::Wild, 1));
    assert!(after.is_over());
    assert_eq!(after.strike_as(sq("c3"), None), Err(StrikeError::GameOver));
}

#[test]
fn centre_squares_never_get_a_four() {
    let b = board_with(Some((Symbol::One, 3)), &[], None, RuleSet::Standard);
    for centre in ["c3", "d3", "c4", "d4"] {
        let Some(Replacement::Drawn(pool)) = b.replacement(sq(centre)) else {
            panic!("{centre} should draw a symbol");
        };
        assert!(!pool.contains(&Symbol::Four));
        assert_eq!(pool.len(), 7);
        assert!(matches!(
            b.strike_as(sq(centre), Some(Symbol::Four)),
            Err(StrikeError::WrongReplacement { .. })
        ));
    }
    assert!(b.strike_as(sq("b3"), Some(Symbol::Four)).is_ok());
}

#[test]
fn random_play_never_draws_a_wild_nor_a_centre_four() {
    let mut seen = [false; Symbol::COUNT];
    for seed in 0..300 {
        let (mut board, mut deal) = new_game(seed, RuleSet::Standard);
        let mut choose = Rng::new(seed + 1000);
        loop {
            for square in Square::all() {
                if let Some(tile) = board.tile(square) {
                    seen[tile.symbol().index()] = true;
                    assert!(!(square.is_centre() && tile.symbol() == Symbol::Four));
                }
            }
            let targets = board.targets();
            let Some(target) = targets.nth(choose.below(targets.len())) else {
                break;
            };
            let expected = board.replacement(target);
            board = board.strike(target, &mut deal).unwrap();
            let became = board.tile(target).map(|t| t.symbol());
            assert_eq!(
                became == Some(Symbol::Wild),
                expected == Some(Replacement::Wild),
                "seed {seed}, strike {target}"
            );
        }
    }
    // Every standard symbol turns up, wild included (through the rule).
    for symbol in Symbol::ALL {
        let extra = matches!(symbol, Symbol::Lambda | Symbol::Shamrock | Symbol::Skull);
        assert_eq!(seen[symbol.index()], !extra, "{symbol}");
    }
}

#[test]
fn fresh_boards_have_three_hits_no_wilds_and_no_centre_fours() {
    for seed in 0..200 {
        let (board, _) = new_game(seed, RuleSet::Standard);
        assert_eq!(board.strikes_made(), 0);
        assert_eq!(board.last(), None);
        for square in Square::all() {
            let tile = board.tile(square).unwrap();
            assert_eq!(tile.hits(), 3);
            assert_ne!(tile.symbol(), Symbol::Wild);
            assert!(!(square.is_centre() && tile.symbol() == Symbol::Four));
        }
    }
}

#[test]
fn games_are_reproducible_by_seed() {
    assert_eq!(
        new_game(42, RuleSet::Standard),
        new_game(42, RuleSet::Standard)
    );
    assert_ne!(
        new_game(42, RuleSet::Standard).0,
        new_game(43, RuleSet::Standard).0
    );
    for policy in [Policy::Random, Policy::Greedy, Policy::Heuristic] {
        for seed in 0..20 {
            let a = play_game(seed, RuleSet::Standard, policy);
            let b = play_game(seed, RuleSet::Standard, policy);
            assert_eq!((a.strikes, a.tiles_removed), (b.strikes, b.tiles_removed));
        }
    }
    let solver = Policy::Solver(antichess::chessforge::solver::Budget::Playouts(20));
    let a = play_game(7, RuleSet::Standard, solver);
    let b = play_game(7, RuleSet::Standard, solver);
    assert_eq!(a.strikes, b.strikes);
}

#[test]
fn extra_rules_lambda_shamrock_and_skull() {
    let fill = Some((Symbol::One, 3));
    assert_eq!(targets_on_full_board(Symbol::Skull, "a1"), set("f6"));
    assert_eq!(targets_on_full_board(Symbol::Skull, "c3"), set("d4"));
    let shamrock = targets_on_full_board(Symbol::Shamrock, "a1");
    assert_eq!(shamrock, set("b1 c1 a2 b2 c2 a3 b3 c3"));
    assert_eq!(targets_on_full_board(Symbol::Shamrock, "c3").len(), 24);
    // A lambda hands on the rule that led to it, from its own square.
    let b = board_with(
        fill,
        &[("c3", Some((Symbol::Lambda, 3)))],
        Some(("a2", Symbol::Knight)),
        RuleSet::Extra,
    );
    let after = b.strike_as(sq("c3"), Some(Symbol::Skull)).unwrap();
    assert_eq!(after.last().map(|s| s.rule), Some(Symbol::Knight));
    assert_eq!(after.targets(), targets_on_full_board(Symbol::Knight, "c3"));
    // A lambda struck first acts as a wild.
    let b = board_with(
        fill,
        &[("c3", Some((Symbol::Lambda, 3)))],
        None,
        RuleSet::Extra,
    );
    let after = b.strike_as(sq("c3"), Some(Symbol::One)).unwrap();
    assert_eq!(after.last().map(|s| s.rule), Some(Symbol::Wild));
    // Standard rules neither have nor draw the extra symbols.
    assert!(Board::from_parts([Tile::new(Symbol::Skull, 3); 36], None, RuleSet::Standard).is_err());
    let b = board_with(fill, &[], None, RuleSet::Standard);
    assert!(b.strike_as(sq("a1"), Some(Symbol::Lambda)).is_err());
}

#[test]
fn the_solver_finds_the_clearing_order() {
    // Two tiles left: striking a1 (knight) first reaches b3 and clears
    // the board; striking b3 (queen) first reaches nothing.
    let b = board_with(
        None,
        &[
            ("a1", Some((Symbol::Knight, 1))),
            ("b3", Some((Symbol::Queen, 1))),
        ],
        None,
        RuleSet::Standard,
    );
    let solver = antichess::chessforge::solver::Solver::new(Default::default());
    let advice = solver.analyse(&b, &mut Rng::new(1));
    assert_eq!(
        advice.first().map(|c| (c.square, c.mean)),
        Some((sq("a1"), 2.0))
    );
}
