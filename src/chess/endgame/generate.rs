//! Solving a table by retrograde analysis.
//!
//! A table and its partner (the same men, the other side to move) are
//! solved together, since every quiet move leads from one to the other.
//! Every capture leaves a side with its king alone, which ends the game,
//! and a promotion leads into a queen's table solved before; so the only
//! unknowns are the quiet moves within the pair.
//!
//! Each position's moves are found by the real move generator, once; the
//! positions are then settled in order of distance to the end, each newly
//! settled one telling its predecessors (found by moving the man that has
//! just moved back): a predecessor with a losing child wins one ply later,
//! one whose children all win loses one ply after the last of them.
//! What is never settled is a draw. The distances are exact: the fastest
//! win and the slowest loss.

use super::index::{Material, Men};
use super::{Table, Value};
use crate::chess::{Bitboard, Color, Piece};
use crate::chess::{Move, PieceKind, Position, Rules, Setup, Square, attacks};
use crate::search::MoveList;
use std::collections::BTreeMap;
use std::fmt;

/// Why a table could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A promotion leads into a table that has not been solved first.
    Missing(Material),
    /// A distance beyond what a table entry can hold.
    TooLong(Material),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SolveError::Missing(m) => write!(f, "the table {m} must be solved first"),
            SolveError::TooLong(m) => {
                write!(
                    f,
                    "{m} has a result more than {} plies away",
                    Value::MAX_PLIES
                )
            }
        }
    }
}

impl std::error::Error for SolveError {}

/// Marks a position decided, or no position at all, in the open counts.
const SETTLED: u8 = u8::MAX;

/// What becomes known at one distance from the end.
#[derive(Default)]
struct Layer {
    /// Positions settled at this distance: (table, index).
    settled: Vec<(usize, u32)>,
    /// Results of moves leaving the pair, learnt at this distance:
    /// (table, index, whether the child's side to move wins).
    reports: Vec<(usize, u32, bool)>,
}

/// A pair of tables being solved.
struct Solver<'a> {
    rules: Rules,
    /// The pair; one table when both sides have the same man.
    materials: Vec<Material>,
    values: Vec<Vec<Value>>,
    /// Per position, the children not yet known to win for their side to
    /// move, or [`SETTLED`].
    open: Vec<Vec<u8>>,
    layers: Vec<Layer>,
    solved: &'a BTreeMap<Material, Table>,
}

/// Solves `material`'s table and its partner's, given the tables solved
/// before (those promotions lead into).
pub fn solve(
    material: Material,
    rules: Rules,
    solved: &BTreeMap<Material, Table>,
) -> Result<Vec<Table>, SolveError> {
    let mut materials = vec![material];
    if material.flipped() != material {
        materials.push(material.flipped());
    }
    let mut solver = Solver {
        rules,
        values: materials
            .iter()
            .map(|m| vec![Value::Draw; m.size()])
            .collect(),
        open: materials.iter().map(|m| vec![SETTLED; m.size()]).collect(),
        materials,
        layers: Vec::new(),
        solved,
    };
    for table in 0..solver.materials.len() {
        for (index, pos) in super::positions(solver.materials[table], rules) {
            solver.setup(table, index as u32, &pos)?;
        }
    }
    solver.settle_all()?;
    let Solver {
        materials, values, ..
    } = solver;
    Ok(materials
        .into_iter()
        .zip(values)
        .map(|(material, values)| Table::new(material, rules, values))
        .collect())
}

/// The position of `men` with the side to move as White, if it is one.
pub fn position(material: Material, men: Men, rules: Rules) -> Option<Position> {
    if !men.apart() {
        return None;
    }
    let mut board = [None; 64];
    let mut put = |sq: Square, color, kind| board[sq.index()] = Some(Piece { color, kind });
    put(men.kings[0], Color::White, PieceKind::King);
    put(men.kings[1], Color::Black, PieceKind::King);
    put(men.men[0], Color::White, material.mover);
    put(men.men[1], Color::Black, material.other);
    Position::from_setup(&Setup::new(board, Color::White), rules).ok()
}

impl Solver<'_> {
    /// The table the children of `table`'s positions are in.
    fn partner(&self, table: usize) -> usize {
        (table + 1) % self.materials.len()
    }

    /// Looks at one position's moves: settles it if it has none, counts
    /// the children in the pair, and reports the results of the others.
    fn setup(&mut self, table: usize, index: u32, pos: &Position) -> Result<(), SolveError> {
        let mut moves = MoveList::<Move>::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            // Checkmated wins; stalemate is a draw, settled as one.
            let value = Value::at_end(pos);
            if value != Value::Draw {
                self.values[table][index as usize] = value;
                self.layer(0).settled.push((table, index));
            }
            return Ok(());
        }
        let partner = self.materials[self.partner(table)];
        let mut inside = MoveList::<u32>::new();
        let mut open = 0usize;
        for &mv in &moves {
            let child = pos.play(mv);
            match Men::of(&child) {
                Some((m, child_men)) if m == partner => {
                    inside.push(child_men.index(m) as u32);
                    continue;
                }
                Some((m, child_men)) => {
                    let other = self.solved.get(&m).ok_or(SolveError::Missing(m))?;
                    self.report(table, index, other.value(child_men.index(m)));
                }
                // A capture: the side left with its king alone has won.
                None => self.report(table, index, Value::at_end(&child)),
            }
            open += 1;
        }
        inside.sort_unstable();
        let mut distinct = inside.len();
        distinct -= inside.windows(2).filter(|w| w[0] == w[1]).count();
        // At most 218 moves, so the count fits below SETTLED.
        self.open[table][index as usize] = (open + distinct).min(usize::from(SETTLED - 1)) as u8;
        Ok(())
    }

    /// Queues what a child outside the pair is worth to `(table, index)`.
    fn report(&mut self, table: usize, index: u32, child: Value) {
        let (distance, child_wins) = match child {
            Value::Win(d) => (d, true),
            Value::Loss(d) => (d, false),
            // A drawn child is never reported: its parent cannot lose.
            Value::Draw => return,
        };
        self.layer(usize::from(distance))
            .reports
            .push((table, index, child_wins));
    }

    fn layer(&mut self, distance: usize) -> &mut Layer {
        if self.layers.len() <= distance {
            self.layers.resize_with(distance + 1, Layer::default);
        }
        &mut self.layers[distance]
    }

    /// Settles positions in order of distance until nothing changes.
    fn settle_all(&mut self) -> Result<(), SolveError> {
        let mut distance = 0;
        while distance < self.layers.len() {
            let layer = std::mem::take(&mut self.layers[distance]);
            for (table, index, child_wins) in layer.reports {
                self.learn(table, index, child_wins, distance)?;
            }
            for (table, index) in layer.settled {
                let child_wins = matches!(self.values[table][index as usize], Value::Win(_));
                for (parent_table, parent) in self.predecessors(table, index) {
                    self.learn(parent_table, parent, child_wins, distance)?;
                }
            }
            distance += 1;
        }
        Ok(())
    }

    /// A child of `(table, index)` settled `distance` plies from the end.
    fn learn(
        &mut self,
        table: usize,
        index: u32,
        child_wins: bool,
        distance: usize,
    ) -> Result<(), SolveError> {
        let open = &mut self.open[table][index as usize];
        if *open == SETTLED {
            return Ok(());
        }
        let plies = u8::try_from(distance + 1)
            .ok()
            .filter(|&p| p <= Value::MAX_PLIES)
            .ok_or(SolveError::TooLong(self.materials[table]))?;
        let value = if !child_wins {
            Value::Win(plies)
        } else {
            *open -= 1;
            if *open > 0 {
                return Ok(());
            }
            Value::Loss(plies)
        };
        *open = SETTLED;
        self.values[table][index as usize] = value;
        self.layer(usize::from(plies)).settled.push((table, index));
        Ok(())
    }

    /// The positions of the partner table with a quiet move to `(table,
    /// index)`, each once. The side that has just moved is the opponent
    /// here, playing down the board; only its men can have moved.
    fn predecessors(&self, table: usize, index: u32) -> Vec<(usize, u32)> {
        let material = self.materials[table];
        let Some(men) = Men::from_index(material, index as usize) else {
            return Vec::new();
        };
        let occupied = [men.kings[0], men.kings[1], men.men[0], men.men[1]]
            .into_iter()
            .fold(Bitboard::EMPTY, |bb, sq| bb | sq.bb());
        let parent_table = self.partner(table);
        let parent_material = self.materials[parent_table];
        let mut parents = Vec::new();
        let mut add = |before: Men| {
            let index = before.turned().index(parent_material);
            parents.push((parent_table, index as u32));
        };
        for from in attacks::king(men.kings[1]) & !occupied {
            add(Men {
                kings: [men.kings[0], from],
                ..men
            });
        }
        for from in self.origins(material.other, men.men[1], occupied) {
            add(Men {
                men: [men.men[0], from],
                ..men
            });
        }
        parents.sort_unstable();
        parents.dedup();
        parents
    }

    /// Where a man of `kind` of the side playing down the board can have
    /// come from to `to` by a quiet move.
    fn origins(&self, kind: PieceKind, to: Square, occupied: Bitboard) -> Bitboard {
        if kind != PieceKind::Pawn {
            return attacks::piece(kind, to, occupied) & !occupied;
        }
        let mut from = Bitboard::EMPTY;
        // A pawn playing down came from the rank above; from its start
        // rank (the seventh) two ranks above, if double steps exist.
        let one = to
            .shifted(8)
            .filter(|sq| sq.rank() <= 6 && !occupied.has(*sq));
        if let Some(one) = one {
            from |= one.bb();
            let two = one
                .shifted(8)
                .filter(|sq| sq.rank() == 6 && !occupied.has(*sq));
            if let Some(two) = two.filter(|_| self.rules.double_step()) {
                from |= two.bb();
            }
        }
        from
    }
}
