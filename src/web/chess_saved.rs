//! A chess game as the database keeps it, and what is made from that: the
//! game rebuilt after a restart, its replay position by position, its PGN
//! and the game file of any position.
//!
//! The record is the game's start (FEN and both clocks), its moves each
//! with both clocks just after it, the seats, names and seed, the time
//! left now, and how it ended when the rules did not end it (a
//! resignation, a fault, or ended without a result). Endings by the rules
//! come back by playing the moves again.
//!
//! Clocks across a restart: the game comes back with each side's time as
//! it was at the last write, and the clock of the side to move starts
//! again when the game is first asked for; the time the server was down
//! is not charged to anyone.

use super::chess::ChessGame;
use super::db::{self, Family, Saved};
use super::store::{GameId, Guard, Kept, Shown};
use super::view;
use crate::chess::{Color, FileStyle, GameFile, Move, Position, Rules};
use crate::referee::game::{Ending, GameResult};
use crate::referee::pgn;
use crate::referee::player::{Fault, FaultKind};
use crate::referee::table::{Phase, Table};
use serde_json::{Value, json};

/// Both clocks, ms, white first.
pub type ClockPair = [u64; 2];

fn side_word(side: Color) -> &'static str {
    side.name()
}

fn read_side(value: &Value) -> Result<Color, String> {
    match value.as_str() {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        _ => Err(format!("{value} is not a side")),
    }
}

fn clocks_now(table: &Table) -> ClockPair {
    let clocks = table.clocks();
    [clocks.left_ms(Color::White), clocks.left_ms(Color::Black)]
}

/// How a game ended that its moves do not say.
fn ending_json(phase: &Phase) -> Value {
    match phase {
        Phase::Playing => Value::Null,
        Phase::Ended => json!({"how": "ended"}),
        Phase::Over(result) => match &result.ending {
            Ending::Resigned(side) => json!({"how": "resigned", "side": side_word(*side)}),
            Ending::Fault { side, fault } => json!({
                "how": "fault",
                "side": side_word(*side),
                "flag": fault.kind == FaultKind::Flag,
                "detail": fault.detail,
            }),
            // The rules: playing the moves again ends it the same way.
            _ => Value::Null,
        },
    }
}

impl ChessGame {
    /// Brings the clocks after each move up to date with the moves: a new
    /// move gets the clocks as they are now, a taken back one loses its.
    pub(super) fn sync_clock_log(&mut self) {
        let plies = self.table.record().moves().len();
        let now = clocks_now(&self.table);
        self.clock_log.truncate(plies);
        while self.clock_log.len() < plies {
            self.clock_log.push(now);
        }
    }

    /// The games list's entry.
    fn summary(&self) -> Value {
        let state_status = match self.table.phase() {
            Phase::Playing => "playing",
            Phase::Over(_) => "over",
            Phase::Ended => "ended",
        };
        let seat = |side: Color| json!({"name": self.name(side), "player": db::seat_word(self.table.seat(side))});
        json!({
            "rules": self.table.rules().name(),
            "white": seat(Color::White),
            "black": seat(Color::Black),
            "status": state_status,
            "result": match self.table.phase() {
                Phase::Over(result) => view::result_json(result),
                _ => Value::Null,
            },
            "plies": self.table.record().moves().len(),
        })
    }

    /// The clocks at the start and after each move, white first.
    fn clocks_by_ply(&self) -> Vec<ClockPair> {
        let mut all = Vec::with_capacity(self.clock_log.len() + 1);
        all.push(self.start_clocks);
        all.extend_from_slice(&self.clock_log);
        all
    }

    /// The game as `antichess match --pgn` writes one; while it is
    /// played, the moves so far with the result `*`.
    pub(super) fn pgn(&self) -> String {
        // The mover's time left after each move: PGN's `%clk`.
        let record = self.table.record();
        let mut side = record.start().side_to_move();
        let clocks: Vec<u64> = self
            .clock_log
            .iter()
            .map(|pair| {
                let ms = pair[side.index()];
                side = side.flip();
                ms
            })
            .collect();
        let (white, black) = (self.name(Color::White), self.name(Color::Black));
        let header = pgn::Header {
            event: "antichess web board",
            round: 1,
            white: &white,
            black: &black,
            tables: false,
        };
        let Phase::Over(result) = self.table.phase() else {
            return pgn::write_unfinished(&header, record, &clocks);
        };
        let mut result: GameResult = (**result).clone();
        result.record = record.clone();
        result.clocks = clocks;
        pgn::write(&header, &result)
    }

    /// The 2002 game file of the position after `ply` moves, with the
    /// clocks then; `None` past the last move.
    pub(super) fn file_at(&self, ply: usize) -> Option<String> {
        let record = self.table.record();
        if ply > record.moves().len() {
            return None;
        }
        let mut pos = *record.start();
        for &mv in &record.moves()[..ply] {
            pos = pos.play(mv);
        }
        let pair = if ply == record.moves().len() {
            clocks_now(&self.table)
        } else {
            self.clocks_by_ply()[ply]
        };
        let file = GameFile {
            position: pos,
            white_ms: pair[0],
            black_ms: pair[1],
            style: FileStyle::Y2002,
        };
        Some(file.write("\n"))
    }
}

impl Shown for ChessGame {
    fn state(game: &mut Guard<'_, ChessGame>) -> Value {
        super::chess::flag(game);
        view::state(game)
    }

    /// Every position from the start: `GET .../replay`.
    fn replay(&self, id: GameId) -> Value {
        let record = self.table.record();
        let clocks = self.clocks_by_ply();
        let mut pos = *record.start();
        let mut positions = Vec::with_capacity(record.moves().len() + 1);
        let mut last: Option<(Color, Move)> = None;
        for ply in 0..=record.moves().len() {
            let pair = clocks
                .get(ply)
                .copied()
                .unwrap_or_else(|| clocks_now(&self.table));
            let over = ply == record.moves().len() && !self.table.is_playing();
            positions.push(json!({
                "ply": ply,
                "board": view::rows(&pos),
                "to_move": (!over).then(|| pos.side_to_move().name()),
                "last_move": last.map(|(side, m)| view::last_move_json(side, m)),
                "check": view::check_square(&pos),
                "clock_ms": {"white": pair[0], "black": pair[1]},
            }));
            if let Some(&mv) = record.moves().get(ply) {
                last = Some((pos.side_to_move(), mv));
                pos = pos.play(mv);
            }
        }
        json!({
            "id": id.to_string(),
            "family": "chess",
            "rules": self.table.rules().name(),
            "positions": positions,
            "result": self.summary()["result"],
        })
    }
}

impl Kept for ChessGame {
    const FAMILY: Family = Family::Chess;

    fn retire(&mut self) {
        self.retire_game();
    }

    fn saved(&mut self) -> Saved {
        self.sync_clock_log();
        let record = self.table.record();
        let moves: Vec<Value> = record
            .moves()
            .iter()
            .zip(&self.clock_log)
            .map(|(m, pair)| json!([m.to_string(), pair[0], pair[1]]))
            .collect();
        let saved = json!({
            "rules": self.table.rules().name(),
            "start": record.start().fen(),
            "start_ms": self.start_clocks,
            "moves": moves,
            "seats": [db::seat_word(self.table.seat(Color::White)), db::seat_word(self.table.seat(Color::Black))],
            "names": self.names,
            "seed": self.seed,
            "clocks_ms": clocks_now(&self.table),
            "ending": ending_json(self.table.phase()),
        });
        Saved {
            summary: self.summary(),
            record: saved,
        }
    }

    fn restore(_id: GameId, record: &Value) -> Result<ChessGame, String> {
        let rules: Rules = record["rules"]
            .as_str()
            .ok_or("no rules")?
            .parse()
            .map_err(|e| format!("{e}"))?;
        let start = Position::from_fen(record["start"].as_str().ok_or("no start")?, rules)
            .map_err(|e| format!("the start does not read: {e}"))?;
        let pair = |v: &Value| -> Result<ClockPair, String> {
            Ok([
                v[0].as_u64().ok_or("a clock is not a number")?,
                v[1].as_u64().ok_or("a clock is not a number")?,
            ])
        };
        let start_ms = pair(&record["start_ms"])?;
        let seats = [
            db::read_seat(&record["seats"][0])?,
            db::read_seat(&record["seats"][1])?,
        ];
        let mut table = Table::new(start, start_ms[0], start_ms[1], seats);
        let mut clock_log = Vec::new();
        for entry in record["moves"].as_array().ok_or("no moves")? {
            let text = entry[0].as_str().ok_or("a move is not text")?;
            let mv = table
                .position()
                .parse_move(text)
                .map_err(|e| format!("move {text}: {e}"))?;
            table.play(mv).map_err(|e| format!("move {text}: {e}"))?;
            clock_log.push([
                entry[1].as_u64().ok_or("a clock is not a number")?,
                entry[2].as_u64().ok_or("a clock is not a number")?,
            ]);
        }
        let now = pair(&record["clocks_ms"])?;
        table.set_time(Color::White, now[0]);
        table.set_time(Color::Black, now[1]);
        let ending = &record["ending"];
        match ending["how"].as_str() {
            None => {}
            Some("ended") => {
                table.end();
            }
            Some("resigned") => {
                let _ = table.resign(read_side(&ending["side"])?);
            }
            Some("fault") => {
                let kind = if ending["flag"].as_bool() == Some(true) {
                    FaultKind::Flag
                } else {
                    FaultKind::Crash
                };
                let detail = ending["detail"].as_str().unwrap_or("").to_string();
                table.lose(read_side(&ending["side"])?, Fault::new(kind, detail));
            }
            Some(other) => return Err(format!("unknown ending '{other}'")),
        }
        let name = |i: usize| record["names"][i].as_str().map(str::to_string);
        let seed = record["seed"].as_u64().ok_or("no seed")?;
        let mut game = ChessGame::new(table, seed);
        game.names = [name(0), name(1)];
        game.start_clocks = start_ms;
        game.clock_log = clock_log;
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::seat::Seat;

    fn id() -> GameId {
        GameId::parse("00000000000000aa").unwrap()
    }

    #[test]
    fn a_record_rebuilds_the_same_game() {
        let mut table = Table::new(
            Position::startpos(Rules::Antichess),
            60_000,
            50_000,
            [Seat::Human, Seat::Machine(2)],
        );
        for text in ["e2e3", "b7b6"] {
            let mv = table.position().parse_move(text).unwrap();
            table.play(mv).unwrap();
        }
        table.resign(Color::White).unwrap();
        let mut game = ChessGame::new(table, 42);
        game.names[1] = Some("Deep".into());
        let saved = game.saved();
        let mut back = ChessGame::restore(id(), &saved.record).unwrap();
        assert_eq!(back.saved().record, saved.record);
        assert_eq!(saved.summary["result"]["reason"], "resigned");
        assert_eq!(saved.summary["plies"], 2);
        assert!(back.pgn().contains("[Black \"Deep\"]"));
    }

    #[test]
    fn damaged_records_are_refused() {
        let mut game = ChessGame::new(
            Table::new(
                Position::startpos(Rules::Chess),
                1000,
                1000,
                [Seat::Human; 2],
            ),
            1,
        );
        let good = game.saved().record;
        let mut cases = vec![json!(null), json!([]), json!({"rules": 3})];
        for (field, value) in [
            ("rules", json!("go")),
            ("start", json!("8/8/8/8/8/8/8/8 w - - 0 1 x")),
            ("moves", json!([["e2e5", 1, 1]])),
            ("moves", json!([[7, 1, 1]])),
            ("seats", json!(["robot", "human"])),
            ("ending", json!({"how": "aliens"})),
            ("clocks_ms", json!([-1, 0])),
        ] {
            let mut bad = good.clone();
            bad[field] = value;
            cases.push(bad);
        }
        for bad in cases {
            assert!(ChessGame::restore(id(), &bad).is_err(), "{bad}");
        }
    }
}
