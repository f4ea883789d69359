//! The tuner's PGN reader: no panic on any text, and every game it accepts
//! replays legally from its start.
#![no_main]

use antichess::search::{Game, MoveList};
use antichess::tune::pgn_read::read_games;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match read_games(text) {
        Ok(games) => {
            for game in games {
                let mut pos = game.start;
                for mv in game.moves {
                    let mut legal = MoveList::new();
                    pos.generate(&mut legal);
                    assert!(legal.contains(&mv), "{mv:?} is not legal in {}", pos.fen());
                    pos = pos.play(mv);
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
