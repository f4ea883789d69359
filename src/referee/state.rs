//! A match's state file (`--state FILE`): every finished game, so that a
//! stopped run (Ctrl-C, `kill`, a crash) continues where it stopped.
//!
//! The file is JSON lines, appended and synced one game at a time: a
//! first line naming the match (what must not change between a run and
//! its continuation), then one line per game: its number (`game`),
//! pairing (`pairing`), colours (`first_moves_first`: whether the
//! pairing's first player had the side that moves first, White in chess
//! and Black in checkers; files of earlier chess-board runs call it
//! `first_is_white`, and are read as well), and the fields of the game
//! family's result — for the chess-board rule sets `start` (FEN),
//! `moves`, `clocks`, `winner` and `ending` ([`chess_fields`]); for
//! checkers those of `checkers_match`. A process killed mid-write leaves
//! at most a torn last line, which the reader drops (and cuts off before
//! appending); a broken line elsewhere is refused with its number.

use super::game::{Adjudicated, Ending, GameResult};
use super::player::{Fault, FaultKind};
use crate::chess::{Color, GameRecord, Position, Reason, Rules};
use serde_json::{Value, json};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One finished game as the state file keeps it.
#[derive(Clone, Debug)]
pub struct Stored {
    /// Its number in the match, from 1.
    pub number: u32,
    /// Which pairing of the match played it.
    pub pairing: usize,
    /// Whether the pairing's first player had the side that moves first.
    pub first_moves_first: bool,
    /// The result's fields, a JSON object (the whole line when read).
    pub fields: Value,
}

/// How a family reads its results back from their lines.
pub type Decode<'a, R> = &'a dyn Fn(&Value) -> Result<R, String>;

/// An open state file, ready for more games.
pub struct StateFile {
    path: PathBuf,
    file: File,
}

impl StateFile {
    /// Opens `path` for the match named `fingerprint`: creates it, or
    /// reads the games of an earlier run of the same match (refusing a
    /// file of another match); `decode` reads a game's result.
    pub fn open<R>(
        path: &Path,
        fingerprint: &str,
        decode: Decode<R>,
    ) -> Result<(StateFile, Vec<(Stored, R)>), String> {
        let shown = path.display();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("cannot read {shown}: {e}")),
        };
        let mut games = Vec::new();
        let mut good_len = 0;
        let mut header_seen = false;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            let last = i + 1 == lines.len();
            let whole = line.ends_with('\n');
            let parsed = serde_json::from_str::<Value>(line.trim())
                .map_err(|e| e.to_string())
                .and_then(|v| {
                    if header_seen {
                        from_json(v, decode).map(Some)
                    } else {
                        check_header(&v, fingerprint).map(|()| None)
                    }
                });
            match parsed {
                Ok(game) => {
                    if !whole {
                        // A whole line lost its newline: keep it, and end it.
                        good_len = text.len();
                    } else {
                        good_len += line.len();
                    }
                    header_seen = true;
                    games.extend(game);
                }
                Err(_) if last && (!whole || header_seen) => {
                    log::warn!("{shown}: dropping a torn last line");
                    break;
                }
                Err(why) => return Err(format!("{shown} line {}: {why}", i + 1)),
            }
        }
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .read(true)
            .open(path)
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
        let mut cut = || -> std::io::Result<()> {
            file.set_len(good_len as u64)?;
            use std::io::Seek;
            file.seek(std::io::SeekFrom::End(0))?;
            if good_len > 0 && !text[..good_len].ends_with('\n') {
                file.write_all(b"\n")?;
            }
            if !header_seen {
                let header = json!({ "antichess_match": 1, "match": fingerprint });
                writeln!(file, "{header}")?;
            }
            file.sync_all()
        };
        cut().map_err(|e| format!("cannot write {shown}: {e}"))?;
        let state = StateFile {
            path: path.to_path_buf(),
            file,
        };
        Ok((state, games))
    }

    /// Appends a finished game and syncs it to disk.
    pub fn record(&mut self, game: &Stored) -> Result<(), String> {
        let line = to_json(game).to_string();
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

fn check_header(v: &Value, fingerprint: &str) -> Result<(), String> {
    if v.get("antichess_match").and_then(Value::as_u64) != Some(1) {
        return Err("not a match state file".into());
    }
    match v.get("match").and_then(Value::as_str) {
        Some(m) if m == fingerprint => Ok(()),
        Some(m) => Err(format!(
            "it is the state of another match ({m}), not of this one ({fingerprint})"
        )),
        None => Err("the match is not named".into()),
    }
}

const REASONS: [Reason; 6] = [
    Reason::BareKing,
    Reason::Checkmate,
    Reason::Stalemate,
    Reason::FiftyMoves,
    Reason::Repetition,
    Reason::InsufficientMaterial,
];

fn color_name(c: Option<Color>) -> Value {
    c.map_or(Value::Null, |c| Value::from(c.name()))
}

fn color_of(v: &Value) -> Result<Option<Color>, String> {
    match v.as_str() {
        None if v.is_null() => Ok(None),
        Some("white") => Ok(Some(Color::White)),
        Some("black") => Ok(Some(Color::Black)),
        _ => Err(format!("bad colour {v}")),
    }
}

fn ending_json(ending: &Ending) -> Value {
    match ending {
        Ending::Rules(reason) => json!({ "rules": reason.name() }),
        Ending::Fault { side, fault } => json!({
            "fault": fault.kind.name(), "side": side.name(), "detail": fault.detail,
        }),
        Ending::Resigned(side) => json!({ "resigned": side.name() }),
        Ending::Adjudicated(Adjudicated::PlyCap(n)) => json!({ "plies": n }),
        Ending::Adjudicated(Adjudicated::Repetition(n)) => json!({ "repetitions": n }),
        Ending::Adjudicated(Adjudicated::Tables(w)) => json!({ "tables": w }),
    }
}

fn ending_of(v: &Value) -> Result<Ending, String> {
    let bad = || format!("bad ending {v}");
    let side = |key: &str| color_of(&v[key])?.ok_or_else(bad);
    let number = |key: &str| {
        v[key]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)
    };
    if let Some(name) = v.get("rules").and_then(Value::as_str) {
        let reason = REASONS.into_iter().find(|r| r.name() == name);
        return reason.map(Ending::Rules).ok_or_else(bad);
    }
    if let Some(name) = v.get("fault").and_then(Value::as_str) {
        let kind = FaultKind::ALL.into_iter().find(|k| k.name() == name);
        let detail = v["detail"].as_str().ok_or_else(bad)?;
        return Ok(Ending::Fault {
            side: side("side")?,
            fault: Fault::new(kind.ok_or_else(bad)?, detail),
        });
    }
    if v.get("resigned").is_some() {
        return Ok(Ending::Resigned(side("resigned")?));
    }
    if v.get("plies").is_some() {
        return Ok(Ending::Adjudicated(Adjudicated::PlyCap(number("plies")?)));
    }
    if v.get("repetitions").is_some() {
        return Ok(Ending::Adjudicated(Adjudicated::Repetition(number(
            "repetitions",
        )?)));
    }
    if let Some(w) = v.get("tables") {
        return Ok(Ending::Adjudicated(Adjudicated::Tables(w.as_bool())));
    }
    Err(bad())
}

fn to_json(game: &Stored) -> Value {
    let mut line = json!({
        "game": game.number,
        "pairing": game.pairing,
        "first_moves_first": game.first_moves_first,
    });
    if let (Some(line), Some(fields)) = (line.as_object_mut(), game.fields.as_object()) {
        line.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    line
}

fn from_json<R>(v: Value, decode: Decode<R>) -> Result<(Stored, R), String> {
    let field = |key: &str| v.get(key).ok_or_else(|| format!("no '{key}'"));
    let number = field("game")?
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or("bad game number")?;
    let pairing = field("pairing")?.as_u64().ok_or("bad pairing")? as usize;
    let first_moves_first = v
        .get("first_moves_first")
        .or_else(|| v.get("first_is_white"))
        .ok_or("no 'first_moves_first'")?
        .as_bool()
        .ok_or("bad first_moves_first")?;
    let result = decode(&v)?;
    let stored = Stored {
        number,
        pairing,
        first_moves_first,
        fields: v,
    };
    Ok((stored, result))
}

/// A chess-board game's fields in the state file.
pub fn chess_fields(r: &GameResult) -> Value {
    let moves: Vec<String> = r.record.moves().iter().map(|m| m.to_string()).collect();
    json!({
        "start": r.record.start().fen(),
        "moves": moves,
        "clocks": r.clocks,
        "winner": color_name(r.winner),
        "ending": ending_json(&r.ending),
    })
}

/// A chess-board game from its state-file line.
pub fn chess_result(v: &Value, rules: Rules) -> Result<GameResult, String> {
    let field = |key: &str| v.get(key).ok_or_else(|| format!("no '{key}'"));
    let start = field("start")?.as_str().ok_or("bad start")?;
    let start = Position::from_fen(start, rules).map_err(|e| format!("bad start: {e}"))?;
    let mut record = GameRecord::new(start);
    for m in field("moves")?.as_array().ok_or("bad moves")? {
        let text = m.as_str().ok_or("bad move")?;
        let mv = record
            .position()
            .parse_move(text)
            .map_err(|e| format!("move {text}: {e}"))?;
        record.play(mv);
    }
    Ok(GameResult {
        winner: color_of(field("winner")?)?,
        ending: ending_of(field("ending")?)?,
        record,
        clocks: clocks_of(field("clocks")?)?,
    })
}

/// The clocks of a state-file line.
pub fn clocks_of(v: &Value) -> Result<Vec<u64>, String> {
    v.as_array()
        .ok_or("bad clocks")?
        .iter()
        .map(|c| c.as_u64().ok_or_else(|| "bad clock".to_string()))
        .collect()
}
