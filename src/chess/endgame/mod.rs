//! Endgame tables for the antichess rules: every position where each side
//! has its king and one other man, solved exactly (win, loss or draw for
//! the side to move, and how many plies to the end with best play).
//!
//! No public tablebase covers these rules (a royal king, a bare king wins,
//! the checkmated side wins), so the binary generates them
//! (`antichess tables`); the search reads them when four men are left.
//! With four men every capture ends the game (the side captured from is
//! left with its king alone), so a table depends only on itself, its
//! partner with the other side to move, and the queen tables promotions
//! lead into.

mod check;
mod file;
mod generate;
mod index;

pub use check::{backed_up, check};
pub use file::TableError;
pub use generate::{SolveError, position};
pub use index::{BadMaterial, MEN, Material, Men};

use crate::chess::{Position, Rules};
use crate::search::Outcome;
use once_cell::sync::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

/// What a table says of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins, this many plies from the end at best.
    Win(u8),
    /// The side to move loses, this many plies from the end at worst.
    Loss(u8),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The longest distance an entry holds.
    pub const MAX_PLIES: u8 = 127;

    /// One byte: 0 a draw, else the distance doubled, plus one for a win.
    fn encode(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => d << 1 | 1,
            Value::Loss(d) => d << 1,
        }
    }

    /// The value, for the side to move, of a position where the game is
    /// over (a side has only its king left, or there is no move): the
    /// game's own verdict at distance 0.
    fn at_end(pos: &Position) -> Value {
        match pos.status().outcome_for(pos.side_to_move()) {
            Some(Outcome::Win) => Value::Win(0),
            Some(Outcome::Loss) => Value::Loss(0),
            _ => Value::Draw,
        }
    }

    fn decode(byte: u8) -> Value {
        match (byte, byte & 1) {
            (0, _) => Value::Draw,
            (_, 1) => Value::Win(byte >> 1),
            _ => Value::Loss(byte >> 1),
        }
    }
}

/// One material's solved positions.
pub struct Table {
    material: Material,
    rules: Rules,
    data: Box<[u8]>,
}

/// How a table's positions split (each position counted once, whatever
/// its symmetries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions the side to move wins.
    pub wins: u64,
    /// Positions neither side wins.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
    /// The longest win, in plies.
    pub longest: u8,
}

impl Table {
    fn new(material: Material, rules: Rules, values: Vec<Value>) -> Table {
        let data = values.into_iter().map(Value::encode).collect();
        Table {
            material,
            rules: table_rules(material, rules),
            data,
        }
    }

    /// The men this table is of.
    pub fn material(&self) -> Material {
        self.material
    }

    /// The value of the position numbered `index` (see [`Men::index`]).
    pub fn value(&self, index: usize) -> Value {
        self.data
            .get(index)
            .copied()
            .map_or(Value::Draw, Value::decode)
    }

    /// The value of `men` in this table.
    pub fn value_of(&self, men: Men) -> Value {
        self.value(men.index(self.material))
    }

    /// How the positions split into wins, draws and losses; walks the
    /// whole table, building each position.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for (index, _) in positions(self.material, self.rules) {
            match self.value(index) {
                Value::Win(d) => {
                    counts.wins += 1;
                    counts.longest = counts.longest.max(d);
                }
                Value::Loss(_) => counts.losses += 1,
                Value::Draw => counts.draws += 1,
            }
        }
        counts
    }
}

/// Every position of `material`'s table under `rules` with its number,
/// each once (numbers that are not a position, or not the one its
/// symmetries are stored under, are left out).
fn positions(material: Material, rules: Rules) -> impl Iterator<Item = (usize, Position)> {
    (0..material.size()).filter_map(move |index| {
        let men = Men::from_index(material, index)?;
        if men.index(material) != index {
            return None;
        }
        Some((index, position(material, men, rules)?))
    })
}

/// Pawnless tables are the same under both rule sets (they differ only in
/// double steps): they are kept once, under the 2002 rules.
fn table_rules(material: Material, rules: Rules) -> Rules {
    if material.pawns() == 0 {
        Rules::Antichess
    } else {
        rules
    }
}

/// Solves the tables of `wanted` under `rules`, their partners and every
/// table their promotions need, in order; `done` hears of each table as it
/// is finished.
pub fn generate(
    rules: Rules,
    wanted: &[Material],
    mut done: impl FnMut(&Table),
) -> Result<Vec<Table>, SolveError> {
    let mut order = Vec::new();
    for &m in wanted {
        needs(m, &mut order);
    }
    let mut solved = BTreeMap::new();
    for material in order {
        if solved.contains_key(&material) {
            continue;
        }
        for table in generate::solve(material, rules, &solved)? {
            done(&table);
            solved.insert(table.material, table);
        }
    }
    Ok(solved.into_values().collect())
}

/// Appends `material` to `order` after the tables its promotions lead
/// into: a pawn of the side to move becomes a queen with the opponent to
/// move, in the table of (the opponent's man, a queen).
fn needs(material: Material, order: &mut Vec<Material>) {
    for side in [material, material.flipped()] {
        if side.mover == crate::chess::PieceKind::Pawn {
            let promoted = Material {
                mover: side.other,
                other: crate::chess::PieceKind::Queen,
            };
            if promoted != material && promoted != material.flipped() {
                needs(promoted, order);
            }
        }
    }
    order.push(material);
}

/// The tables in a folder, read from disk the first time a position of
/// their material is looked up.
pub struct Tables {
    dir: PathBuf,
    loaded: HashMap<(Rules, Material), OnceCell<Option<Table>>>,
}

impl Tables {
    /// The tables in `dir`; fails if it is not a folder.
    pub fn open(dir: &Path) -> Result<Tables, TableError> {
        if !dir.is_dir() {
            return Err(TableError::NotAFolder(dir.to_path_buf()));
        }
        let mut loaded = HashMap::new();
        for rules in [Rules::Antichess, Rules::Antichess1994] {
            for material in Material::all() {
                loaded.insert((table_rules(material, rules), material), OnceCell::new());
            }
        }
        Ok(Tables {
            dir: dir.to_path_buf(),
            loaded,
        })
    }

    /// What the tables say of `pos`, if it has four men and its table is
    /// in the folder (and readable: a damaged file is logged and skipped).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if !pos.rules().is_antichess() {
            return None;
        }
        let (material, men) = Men::of(pos)?;
        let rules = table_rules(material, pos.rules());
        let cell = self.loaded.get(&(rules, material))?;
        let table = cell.get_or_init(|| match file::read(&self.dir, rules, material) {
            Ok(table) => table,
            Err(why) => {
                log::warn!("endgame table {material} not used: {why}");
                None
            }
        });
        table.as_ref().map(|t| t.value_of(men))
    }
}

/// The tables the search reads, if any have been installed.
static INSTALLED: RwLock<Option<Tables>> = RwLock::new(None);

/// Makes `tables` the ones the search reads (`None`: none).
pub fn install(tables: Option<Tables>) {
    if let Ok(mut slot) = INSTALLED.write() {
        *slot = tables;
    }
}

/// Installs the tables of the folder `ANTICHESS_TABLES` names, if it is
/// set; a folder that cannot be used is logged and left out.
pub fn install_from_env() {
    let Some(dir) = std::env::var_os("ANTICHESS_TABLES") else {
        return;
    };
    match Tables::open(Path::new(&dir)) {
        Ok(tables) => {
            log::info!("endgame tables from {}", Path::new(&dir).display());
            install(Some(tables));
        }
        Err(why) => log::error!("ANTICHESS_TABLES ignored: {why}"),
    }
}

/// What the installed tables say of `pos`.
#[inline]
pub fn probe(pos: &Position) -> Option<Value> {
    if pos.occupied().count() != 4 {
        return None;
    }
    INSTALLED.read().ok()?.as_ref()?.probe(pos)
}

/// Writes `table` into `dir` (atomically: a reader sees the old file or
/// the whole new one).
pub fn save(table: &Table, dir: &Path) -> Result<PathBuf, TableError> {
    file::write(table, dir)
}

#[cfg(test)]
mod tests;
