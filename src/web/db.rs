//! The web board's database: every game of every family, one row each,
//! in an embedded SQLite file (rusqlite with its bundled SQLite), so that
//! nothing is lost when the server stops, crashes or drops a game from
//! memory.
//!
//! A row holds the game's `record` (JSON: everything needed to rebuild
//! it, as each family's [`Kept`](super::store::Kept) writes it) and its
//! `summary` (JSON: the games list's entry), written together in one
//! transaction on every change. The schema is versioned by `PRAGMA
//! user_version`: an older file is migrated when opened, a newer one is
//! refused with a message saying so.

use crate::seat::Seat;
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The schema this build writes.
pub const SCHEMA_VERSION: i64 = 2;

/// Most games a list answer holds.
pub const LIST_LIMIT: usize = 100;

/// A game family's word in URLs and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Antichess and chess.
    Chess,
    /// The CS61B checkers.
    Checkers,
    /// The CS71 puzzle.
    Chessforge,
}

impl Family {
    /// The word.
    pub fn name(self) -> &'static str {
        match self {
            Family::Chess => "chess",
            Family::Checkers => "checkers",
            Family::Chessforge => "chessforge",
        }
    }

    /// The family a word names.
    pub fn parse(word: &str) -> Option<Family> {
        match word {
            "chess" => Some(Family::Chess),
            "checkers" => Some(Family::Checkers),
            "chessforge" => Some(Family::Chessforge),
            _ => None,
        }
    }
}

/// What the database keeps of a game at one moment.
#[derive(Clone, Debug)]
pub struct Saved {
    /// The list's entry: `rules`, `white`, `black`, `status`, `result`,
    /// `plies` (see protocol.md, "Web", the games list).
    pub summary: Value,
    /// Everything the family needs to rebuild the game.
    pub record: Value,
}

/// A stored game as read back.
#[derive(Clone, Debug)]
pub struct Row {
    /// The record.
    pub record: Value,
    /// The game's version when it was written.
    pub version: u64,
}

/// A query of the games list.
#[derive(Clone, Debug, Default)]
pub struct ListQuery {
    /// Only this family.
    pub family: Option<Family>,
    /// Only games being played (`Some(true)`) or not (`Some(false)`).
    pub playing: Option<bool>,
    /// At most this many, at most [`LIST_LIMIT`].
    pub limit: usize,
    /// Only games created before this cursor (from an earlier answer).
    pub before: Option<(i64, String)>,
}

/// Why the database cannot be used.
#[derive(Debug)]
pub struct DbError(pub String);

impl std::fmt::Display for DbError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DbError {}

fn sql(e: rusqlite::Error) -> DbError {
    DbError(format!("database: {e}"))
}

/// The games database.
pub struct Db {
    conn: Mutex<Connection>,
    /// Where it is, for messages (`:memory:` for none).
    pub path: String,
}

/// The store when `--db` is not given: `$XDG_DATA_HOME/antichess/
/// games.sqlite3`, or `~/.local/share/antichess/games.sqlite3`.
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local/share"))
        })?;
    Some(base.join("antichess").join("games.sqlite3"))
}

/// A seat as every family saves it: `human`, or `level:N` for a machine.
pub fn seat_word(seat: Seat) -> String {
    match seat {
        Seat::Human => "human".to_string(),
        Seat::Machine(level) => format!("level:{level}"),
    }
}

/// A saved seat read back.
pub fn read_seat(value: &Value) -> Result<Seat, String> {
    let text = value.as_str().ok_or("a seat is not text")?;
    if text == "human" {
        return Ok(Seat::Human);
    }
    text.strip_prefix("level:")
        .and_then(|n| n.parse().ok())
        .map(Seat::Machine)
        .ok_or_else(|| format!("'{text}' is not a seat"))
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `ms` since 1970 as RFC 3339 UTC: `2026-12-01T23:30:05Z`.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = crate::referee::pgn::civil_date(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The first schema: a row per game, its record and list entry.
const V1: &str = "CREATE TABLE games (
    id TEXT PRIMARY KEY,
    family TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    version INTEGER NOT NULL,
    summary TEXT NOT NULL,
    record TEXT NOT NULL
);";

/// The second: the status in a column of its own, and an index, so the
/// list of games of one family and status is read in order without a
/// scan of every record.
const V2: &str = "ALTER TABLE games ADD COLUMN status TEXT NOT NULL DEFAULT 'playing';
UPDATE games SET status = coalesce(json_extract(summary, '$.status'), 'playing');
CREATE INDEX games_list ON games (family, created_ms DESC, id DESC);
CREATE INDEX games_status ON games (status, created_ms DESC, id DESC);";

/// Each step from version N-1 to N, N from 1.
const MIGRATIONS: [&str; 2] = [V1, V2];

impl Db {
    /// Opens (or makes) the database at `path`; `:memory:` keeps nothing
    /// past the process. An older schema is migrated, a newer refused.
    pub fn open(path: &str) -> Result<Db, DbError> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory().map_err(sql)?
        } else {
            if let Some(dir) = Path::new(path).parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir).map_err(|e| {
                    DbError(format!("cannot make the folder {}: {e}", dir.display()))
                })?;
            }
            Connection::open(path).map_err(|e| DbError(format!("cannot open {path}: {e}")))?
        };
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(sql)?;
        // WAL: a write is one append and a crash never leaves half of it;
        // FULL: a write is on disk before its answer goes out.
        if path != ":memory:" {
            conn.pragma_update(None, "journal_mode", "WAL")
                .map_err(|e| DbError(format!("{path} is not a database we can use: {e}")))?;
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        let db = Db {
            conn: Mutex::new(conn),
            path: path.to_string(),
        };
        db.migrate()?;
        Ok(db)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Brings the schema to [`SCHEMA_VERSION`], one transaction a step.
    fn migrate(&self) -> Result<(), DbError> {
        let mut conn = self.lock();
        let found: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| DbError(format!("{} is not a database we can use: {e}", self.path)))?;
        if found > SCHEMA_VERSION {
            return Err(DbError(format!(
                "{} was written by a newer antichess (schema {found}; this one reads up to \
                 {SCHEMA_VERSION}): use that version, or another --db",
                self.path
            )));
        }
        if found < 0 {
            return Err(DbError(format!(
                "{} has an unknown schema version {found}",
                self.path
            )));
        }
        if found == 0 {
            let tables: i64 = conn
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
                .map_err(|e| DbError(format!("{} is not a database we can use: {e}", self.path)))?;
            if tables > 0 {
                return Err(DbError(format!(
                    "{} holds tables but no schema version: it is not a games database",
                    self.path
                )));
            }
        }
        for version in found..SCHEMA_VERSION {
            let tx = conn.transaction().map_err(sql)?;
            tx.execute_batch(MIGRATIONS[version as usize])
                .map_err(|e| DbError(format!("migrating to schema {}: {e}", version + 1)))?;
            tx.pragma_update(None, "user_version", version + 1)
                .map_err(sql)?;
            tx.commit().map_err(sql)?;
            if found > 0 {
                log::info!(
                    "{}: schema migrated from {found} to {}",
                    self.path,
                    version + 1
                );
            }
        }
        Ok(())
    }

    /// Writes a game as it is now, in one transaction.
    pub fn save(
        &self,
        family: Family,
        id: &str,
        version: u64,
        saved: &Saved,
    ) -> Result<(), DbError> {
        let now = now_ms();
        let status = saved.summary["status"].as_str().unwrap_or("playing");
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(sql)?;
        tx.execute(
            "INSERT INTO games (id, family, created_ms, updated_ms, version, summary, record, status)
             VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (id) DO UPDATE SET updated_ms = excluded.updated_ms,
                 version = excluded.version, summary = excluded.summary,
                 record = excluded.record, status = excluded.status",
            params![
                id,
                family.name(),
                now,
                i64::try_from(version).unwrap_or(i64::MAX),
                saved.summary.to_string(),
                saved.record.to_string(),
                status
            ],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)
    }

    /// The stored game `id` of `family`, if any.
    pub fn load(&self, family: Family, id: &str) -> Result<Option<Row>, DbError> {
        let conn = self.lock();
        let row = conn
            .query_row(
                "SELECT record, version FROM games WHERE id = ?1 AND family = ?2",
                params![id, family.name()],
                |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
            )
            .optional()
            .map_err(sql)?;
        let Some((record, version)) = row else {
            return Ok(None);
        };
        let record = serde_json::from_str(&record)
            .map_err(|e| DbError(format!("game {id}'s record does not read: {e}")))?;
        Ok(Some(Row {
            record,
            version: u64::try_from(version).unwrap_or(0),
        }))
    }

    /// The games list, newest first, and the cursor of the next page.
    pub fn list(&self, query: &ListQuery) -> Result<(Vec<Value>, Option<String>), DbError> {
        let limit = query.limit.clamp(1, LIST_LIMIT);
        let mut clauses = Vec::new();
        let mut values: Vec<rusqlite::types::Value> = Vec::new();
        if let Some(family) = query.family {
            values.push(family.name().to_string().into());
            clauses.push(format!("family = ?{}", values.len()));
        }
        match query.playing {
            Some(true) => clauses.push("status = 'playing'".to_string()),
            Some(false) => clauses.push("status <> 'playing'".to_string()),
            None => {}
        }
        if let Some((created, id)) = &query.before {
            values.push((*created).into());
            values.push(id.clone().into());
            clauses.push(format!(
                "(created_ms < ?{a} OR (created_ms = ?{a} AND id < ?{b}))",
                a = values.len() - 1,
                b = values.len()
            ));
        }
        let filter = if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        };
        let text = format!(
            "SELECT id, family, created_ms, updated_ms, summary FROM games {filter}
             ORDER BY created_ms DESC, id DESC LIMIT {}",
            limit + 1
        );
        let conn = self.lock();
        let mut statement = conn.prepare(&text).map_err(sql)?;
        let rows = statement
            .query_map(rusqlite::params_from_iter(values), |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                ))
            })
            .map_err(sql)?;
        let mut games = Vec::new();
        let mut next = None;
        for row in rows {
            let (id, family, created, updated, summary) = row.map_err(sql)?;
            if games.len() == limit {
                next = games
                    .last()
                    .map(|g: &(i64, String, Value)| format!("{}-{}", g.0, g.1));
                break;
            }
            let summary: Value = serde_json::from_str(&summary).unwrap_or(Value::Null);
            let entry = json!({
                "id": id,
                "family": family,
                "rules": summary["rules"],
                "white": summary["white"],
                "black": summary["black"],
                "status": summary["status"],
                "result": summary["result"],
                "plies": summary["plies"],
                "created": rfc3339(created),
                "updated": rfc3339(updated),
            });
            games.push((created, id, entry));
        }
        Ok((games.into_iter().map(|g| g.2).collect(), next))
    }
}

/// Reads a list cursor, `CREATED-ID`, as [`Db::list`] gives it.
pub fn parse_cursor(text: &str) -> Option<(i64, String)> {
    let (created, id) = text.split_once('-')?;
    if created.is_empty() || !created.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    super::store::GameId::parse(id)?;
    Some((created.parse().ok()?, id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        // `date -u -d @0`, `@951782400` (2000-02-29), `@1796168405`.
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_168_405_999), "2026-12-01T23:40:05Z");
        assert_eq!(rfc3339(4_107_542_399_000), "2100-02-28T23:59:59Z");
    }

    fn saved(status: &str) -> Saved {
        Saved {
            summary: json!({"rules": "antichess", "status": status, "plies": 3}),
            record: json!({"moves": ["e2e3"]}),
        }
    }

    #[test]
    fn rows_round_trip_and_list_in_pages() {
        let db = Db::open(":memory:").unwrap();
        let ids = ["00000000000000a1", "00000000000000a2", "00000000000000a3"];
        for (i, id) in ids.iter().enumerate() {
            let status = if i == 1 { "over" } else { "playing" };
            db.save(Family::Chess, id, i as u64, &saved(status))
                .unwrap();
        }
        db.save(Family::Checkers, "00000000000000b1", 0, &saved("playing"))
            .unwrap();
        let row = db.load(Family::Chess, ids[2]).unwrap().unwrap();
        assert_eq!(row.version, 2);
        assert_eq!(row.record["moves"][0], "e2e3");
        assert!(db.load(Family::Checkers, ids[0]).unwrap().is_none());
        let query = ListQuery {
            family: Some(Family::Chess),
            limit: 2,
            ..ListQuery::default()
        };
        let (first, next) = db.list(&query).unwrap();
        assert_eq!(first.len(), 2);
        let next = next.expect("a second page");
        let (second, last) = db
            .list(&ListQuery {
                before: parse_cursor(&next),
                ..query.clone()
            })
            .unwrap();
        assert_eq!(second.len(), 1);
        assert_eq!(last, None);
        let mut seen: Vec<&str> = first
            .iter()
            .chain(&second)
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, ids);
        let over = ListQuery {
            playing: Some(false),
            limit: 10,
            ..ListQuery::default()
        };
        let (games, _) = db.list(&over).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0]["id"], ids[1]);
    }

    #[test]
    fn a_newer_schema_is_refused() {
        let dir = std::env::temp_dir().join(format!("antichess-db-{}", std::process::id()));
        let path = dir.join("newer.sqlite3");
        let _ = std::fs::remove_file(&path);
        std::fs::create_dir_all(&dir).unwrap();
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
                .unwrap();
        }
        let e = Db::open(path.to_str().unwrap()).err().unwrap();
        assert!(e.0.contains("newer"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
