//! The tables checked against the rules: each solved table against its
//! children by the forward check, a few positions whose result a person can
//! see, the counts by material, and the files.

use super::*;
use crate::chess::Position;

fn solved(materials: &[&str]) -> BTreeMap<Material, Table> {
    let wanted: Vec<Material> = materials.iter().map(|m| m.parse().unwrap()).collect();
    generate(Rules::Antichess, &wanted, |_| {})
        .unwrap()
        .into_iter()
        .map(|t| (t.material(), t))
        .collect()
}

fn counts(wins: u64, draws: u64, losses: u64, longest: u8) -> Counts {
    Counts {
        wins,
        draws,
        losses,
        longest,
    }
}

fn value(tables: &BTreeMap<Material, Table>, fen: &str) -> Value {
    let pos = Position::from_fen(fen, Rules::Antichess).unwrap();
    let (material, men) = Men::of(&pos).unwrap();
    tables[&material].value_of(men)
}

#[test]
fn knight_against_knight_is_the_games_solution() {
    let tables = solved(&["KNvKN"]);
    let table = &tables[&"KNvKN".parse().unwrap()];
    check(table, &|m| tables.get(&m)).unwrap();
    assert_eq!(table.counts(), counts(916_157, 65_461, 585_604, 34));
    // A capture is due: the side to move must take and leave the other
    // side its king alone.
    assert_eq!(
        value(&tables, "8/8/8/3n4/8/4N3/8/K6k w - - 0 1"),
        Value::Loss(1)
    );
    // Offering the knight on f2 or g3 forces Black to take it: White is
    // then left with its king alone, two plies on.
    assert_eq!(
        value(&tables, "7k/8/8/8/4N3/8/8/K6n w - - 0 1"),
        Value::Win(2)
    );
    // Black to move here is the same position turned round.
    assert_eq!(
        value(&tables, "k6N/8/8/4n3/8/8/8/7K b - - 0 1"),
        Value::Win(2)
    );
}

#[test]
fn pawn_against_queen_promotes_into_the_queens_table() {
    let tables = solved(&["KPvKQ"]);
    assert_eq!(tables.len(), 3, "KPvKQ, KQvKP and KQvKQ");
    for table in tables.values() {
        check(table, &|m| tables.get(&m)).unwrap();
    }
    let of = |m: &str| tables[&m.parse().unwrap()].counts();
    assert_eq!(of("KPvKQ"), counts(2_498_422, 1_504, 2_481_578, 8));
    assert_eq!(of("KQvKP"), counts(1_868_404, 35, 1_502_529, 8));
    assert_eq!(of("KQvKQ"), counts(566_386, 0, 552_830, 6));
    // Checkmated: the side to move wins at once (the queen on b2 is
    // guarded by its king; the pawn cannot take it).
    assert_eq!(
        value(&tables, "8/8/8/8/8/2k5/1q5P/K7 w - - 0 1"),
        Value::Win(0)
    );
    // Stalemate: the king has no square and the pawn is blocked.
    assert_eq!(
        value(&tables, "K7/2q4k/7P/8/8/8/8/8 w - - 0 1"),
        Value::Draw
    );
}
