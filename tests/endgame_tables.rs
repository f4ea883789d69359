//! The antichess endgame tables against the search, which knows nothing of
//! them until they are installed: on random positions its forced results
//! must agree with the table's, and once installed the search must read
//! the table's exact result through a move. Its own process, since the
//! installed tables are the process's.

use antichess::chess::endgame::{self, Material, Men, Tables, Value};
use antichess::chess::{Move, Position, Rules, Square};
use antichess::rng::SplitMix;
use antichess::search::{Limits, MATE, MATE_BOUND, SearchResult, Searcher};
use std::sync::atomic::AtomicBool;

fn search(pos: &Position, depth: u32) -> SearchResult<Move> {
    let mut searcher = Searcher::new(16).unwrap();
    searcher.search(
        pos,
        &[],
        &Limits::depth(depth),
        &AtomicBool::new(false),
        |_| {},
    )
}

/// Random positions of `material`, with their numbers.
fn random_positions(material: Material, count: usize, seed: u64) -> Vec<(Position, Men)> {
    let mut rng = SplitMix::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut sq = || Square::new(rng.below(64) as u8).unwrap();
        let men = Men {
            kings: [sq(), sq()],
            men: [sq(), sq()],
        };
        if let Some(pos) = endgame::position(material, men, Rules::Antichess) {
            found.push((pos, men));
        }
    }
    found
}

#[test]
fn tables_agree_with_the_search_and_are_read_by_it() {
    let dir = std::env::temp_dir().join(format!("antichess-egtb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let material: Material = "KNvKB".parse().unwrap();
    let tables = endgame::generate(Rules::Antichess, &[material], |t| {
        endgame::save(t, &dir).unwrap();
    })
    .unwrap();
    let table = tables.iter().find(|t| t.material() == material).unwrap();

    // Without the tables, every forced result the search finds is the
    // table's: a win no faster, a loss no slower than best play allows,
    // and the short ones exactly.
    let mut decided = 0;
    for (pos, men) in random_positions(material, 150, 1) {
        let value = table.value_of(men);
        let score = search(&pos, 6).score;
        let found = MATE - score.abs();
        match value {
            Value::Win(d) if d <= 3 => assert_eq!(score, MATE - i32::from(d), "{}", pos.fen()),
            Value::Loss(d) if d <= 2 => assert_eq!(score, -MATE + i32::from(d), "{}", pos.fen()),
            Value::Win(d) if score >= MATE_BOUND => assert!(found >= i32::from(d), "{}", pos.fen()),
            Value::Loss(d) if score <= -MATE_BOUND => {
                assert!(found <= i32::from(d), "{}", pos.fen())
            }
            _ => assert!(score.abs() < MATE_BOUND, "{} {value:?} {score}", pos.fen()),
        }
        decided += usize::from(score.abs() >= MATE_BOUND);
    }
    assert!(decided > 50, "only {decided} forced results found");

    // Installed, the tables give the search every position's exact result
    // one ply down.
    endgame::install(Some(Tables::open(&dir).unwrap()));
    for (pos, men) in random_positions(material, 100, 2) {
        let expected = match table.value_of(men) {
            Value::Win(d) => MATE - i32::from(d),
            Value::Loss(d) => -MATE + i32::from(d),
            Value::Draw => 0,
        };
        assert_eq!(search(&pos, 1).score, expected, "{}", pos.fen());
        assert_eq!(endgame::probe(&pos), Some(table.value_of(men)));
    }
    endgame::install(None);
    std::fs::remove_dir_all(&dir).unwrap();
}
