//! The forward check of a solved table: every position's value must be the
//! one its children's values give, by the real move generator. A table
//! that passes is the game's exact solution: wins and losses by induction
//! on their distance, and draws because from each one the side to move
//! has a drawn child and never a lost one, so neither side can force
//! anything else.

use super::index::{Material, Men};
use super::{Table, Value};
use crate::chess::{Move, Position};
use crate::search::MoveList;

/// The value of `pos` (four men) from its children's, read through
/// `lookup`; `None` if a child's table is missing.
pub fn backed_up<'t>(
    pos: &Position,
    lookup: &impl Fn(Material) -> Option<&'t Table>,
) -> Option<Value> {
    let mut moves = MoveList::<Move>::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        // Checkmated wins; stalemate is a draw.
        return Some(Value::at_end(pos));
    }
    let mut fastest_win = None;
    let mut slowest_loss = Some(0);
    for &mv in &moves {
        let child = pos.play(mv);
        let value = match Men::of(&child) {
            Some((material, men)) => lookup(material)?.value_of(men),
            // A capture: the side left with its king alone has won.
            None => Value::at_end(&child),
        };
        match value {
            Value::Loss(d) => fastest_win = Some(fastest_win.map_or(d + 1, |w: u8| w.min(d + 1))),
            Value::Win(d) => slowest_loss = slowest_loss.map(|s: u8| s.max(d + 1)),
            Value::Draw => slowest_loss = None,
        }
    }
    Some(match (fastest_win, slowest_loss) {
        (Some(d), _) => Value::Win(d),
        (None, Some(d)) => Value::Loss(d),
        (None, None) => Value::Draw,
    })
}

/// Checks every position of `table` against its children; the first
/// position that disagrees, as a FEN with both values, is the error.
pub fn check<'t>(
    table: &Table,
    lookup: &impl Fn(Material) -> Option<&'t Table>,
) -> Result<(), String> {
    let material = table.material();
    for (index, pos) in super::positions(material, table.rules) {
        let stored = table.value(index);
        let backed = backed_up(&pos, lookup)
            .ok_or_else(|| format!("{material}: a table its moves lead into is missing"))?;
        if stored != backed {
            return Err(format!(
                "{material}: {} is stored as {stored:?}, its moves give {backed:?}",
                pos.fen()
            ));
        }
    }
    Ok(())
}
