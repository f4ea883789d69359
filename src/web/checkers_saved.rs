//! A checkers game as the database keeps it, and its replay: the seats,
//! the seed, the machine's time per move and every action in the
//! handout's notation, with the score when the actions alone do not say
//! it (a forfeit). A game comes back by playing the actions again; its
//! machines are dealt again from the same seeds.

use super::checkers::{CheckersGame, Setup};
use super::checkers_view as view;
use super::db::{self, Family, Saved};
use super::store::{GameId, Guard, Kept, Shown};
use crate::checkers::{Action, Color, Record, Score};
use serde_json::{Value, json};
use std::time::Duration;

fn read_score(text: &str) -> Option<Score> {
    match text {
        "1-0" => Some(Score::BlackWins),
        "0-1" => Some(Score::WhiteWins),
        "1/2-1/2" => Some(Score::Draw),
        _ => None,
    }
}

/// The side that played the action at `index` (Black first).
fn actor(index: usize) -> Color {
    if index.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

impl CheckersGame {
    fn summary(&self) -> Value {
        let seat = |side: Color| json!({"name": view::name(self, side), "player": db::seat_word(self.seat(side))});
        let moves = self
            .record
            .actions()
            .iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .count();
        json!({
            "rules": "checkers",
            "white": seat(Color::White),
            "black": seat(Color::Black),
            "status": if self.record.result().is_some() { "over" } else { "playing" },
            "result": self.record.result().map(|s| view::result_json(&self.record, s)),
            "plies": moves,
        })
    }
}

impl Shown for CheckersGame {
    fn state(game: &mut Guard<'_, CheckersGame>) -> Value {
        view::state(game)
    }

    /// Every position from the start, one per move (draw offers and their
    /// answers change no position): `GET .../replay`.
    fn replay(&self, id: GameId) -> Value {
        let mut record = Record::new();
        let mut positions = vec![json!({
            "ply": 0,
            "board": view::squares(record.position()),
            "to_move": record.position().side_to_move().name(),
            "last_move": null,
            "check": null,
            "clock_ms": null,
        })];
        for (i, &action) in self.record.actions().iter().enumerate() {
            if record.apply(action).is_err() {
                break;
            }
            if let Action::Move(m) = action {
                let over = record.result().is_some();
                positions.push(json!({
                    "ply": positions.len(),
                    "board": view::squares(record.position()),
                    "to_move": (!over).then(|| record.position().side_to_move().name()),
                    "last_move": view::last_move_json(actor(i), m),
                    "check": null,
                    "clock_ms": null,
                }));
            }
        }
        json!({
            "id": id.to_string(),
            "family": "checkers",
            "rules": "checkers",
            "positions": positions,
            "result": self.summary()["result"],
        })
    }
}

impl Kept for CheckersGame {
    const FAMILY: Family = Family::Checkers;

    fn retire(&mut self) {
        self.retire_game();
    }

    fn saved(&mut self) -> Saved {
        let actions: Vec<String> = self
            .record
            .actions()
            .iter()
            .map(ToString::to_string)
            .collect();
        let record = json!({
            "seats": [db::seat_word(self.seat(Color::Black)), db::seat_word(self.seat(Color::White))],
            "seed": self.seed,
            "move_time_ms": u64::try_from(self.move_time.as_millis()).unwrap_or(u64::MAX),
            "actions": actions,
            "score": self.record.result().map(|s| s.to_string()),
        });
        Saved {
            summary: self.summary(),
            record,
        }
    }

    fn restore(_id: GameId, saved: &Value) -> Result<CheckersGame, String> {
        let seats = [
            db::read_seat(&saved["seats"][0])?,
            db::read_seat(&saved["seats"][1])?,
        ];
        let seed = saved["seed"].as_u64().ok_or("no seed")?;
        let mut record = Record::new();
        for action in saved["actions"].as_array().ok_or("no actions")? {
            let text = action.as_str().ok_or("an action is not text")?;
            let action = record
                .parse_action(text)
                .map_err(|e| format!("`{text}`: {e}"))?;
            record.apply(action).map_err(|e| format!("`{text}`: {e}"))?;
        }
        if let Some(score) = saved["score"].as_str() {
            record.end_with(read_score(score).ok_or_else(|| format!("score {score}"))?);
        }
        let mut setup = Setup::new(seats, seed);
        setup.record = record;
        if let Some(ms) = saved["move_time_ms"].as_u64() {
            setup.move_time = Duration::from_millis(ms);
        }
        Ok(CheckersGame::new(setup))
    }
}
