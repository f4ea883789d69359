//! Table files: one per material and rule set, a line of text saying what
//! the file holds, then one byte per position number.

use super::index::Material;
use super::{Table, table_rules};
use crate::chess::Rules;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first word of every table file, and the format's version.
const MAGIC: &str = "antichess-endgame-table 1";

/// Why tables could not be read or written.
#[derive(Debug)]
pub enum TableError {
    /// The path given for the tables is not a folder.
    NotAFolder(PathBuf),
    /// Reading or writing a file failed.
    Io(PathBuf, std::io::Error),
    /// A file is not the table its name says.
    Damaged(PathBuf, &'static str),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            TableError::NotAFolder(p) => write!(f, "{} is not a folder", p.display()),
            TableError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TableError::Damaged(p, why) => write!(f, "{}: not a usable table ({why})", p.display()),
        }
    }
}

impl std::error::Error for TableError {}

/// The file of `material`'s table under `rules` in `dir`.
pub fn path(dir: &Path, rules: Rules, material: Material) -> PathBuf {
    dir.join(format!("{}-{material}.egtb", table_rules(material, rules)))
}

fn header(rules: Rules, material: Material) -> String {
    format!("{MAGIC} {rules} {material} {}\n", material.size())
}

/// Writes `table` to its file in `dir`, through a temporary file renamed
/// into place.
pub fn write(table: &Table, dir: &Path) -> Result<PathBuf, TableError> {
    let target = path(dir, table.rules, table.material);
    let temporary = target.with_extension("egtb.partial");
    let io = |e| TableError::Io(temporary.clone(), e);
    let mut out = std::fs::File::create(&temporary).map_err(io)?;
    out.write_all(header(table.rules, table.material).as_bytes())
        .map_err(io)?;
    out.write_all(&table.data).map_err(io)?;
    out.sync_all().map_err(io)?;
    drop(out);
    std::fs::rename(&temporary, &target).map_err(|e| TableError::Io(target.clone(), e))?;
    Ok(target)
}

/// Reads `material`'s table under `rules` from `dir`: `Ok(None)` if there
/// is no such file.
pub fn read(dir: &Path, rules: Rules, material: Material) -> Result<Option<Table>, TableError> {
    let path = path(dir, rules, material);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(TableError::Io(path, e)),
    };
    let expected = header(table_rules(material, rules), material);
    let Some(data) = bytes.strip_prefix(expected.as_bytes()) else {
        return Err(TableError::Damaged(
            path,
            "its first line is not this table's",
        ));
    };
    if data.len() != material.size() {
        return Err(TableError::Damaged(path, "it has the wrong length"));
    }
    Ok(Some(Table {
        material,
        rules: table_rules(material, rules),
        data: data.into(),
    }))
}
