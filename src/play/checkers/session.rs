//! One game between two seats (the person at the terminal, a machine
//! player, or a remote program), refereed by a [`Record`] and shown on a
//! [`Console`].

use std::io::{self, BufRead, Write};

use super::ui::Console;
use crate::checkers::board::Color;
use crate::checkers::net::Peer;
use crate::checkers::notation::Action;
use crate::checkers::player::Machine;
use crate::checkers::record::Record;

/// Who plays one side, in play: the person, a machine player with its
/// search, or a remote program's connection.
pub enum Player {
    /// The person at the terminal, through the console.
    Person,
    /// A machine player in this program.
    Machine(Machine),
    /// Another program over the network.
    Remote(Peer),
}

/// Plays `record` to its end with `seats` (Black's first), showing it on
/// `console` and telling a remote seat about the other side's entries.
/// Returns when the game is over; the result is in `record`.
pub fn play<R: BufRead, W: Write>(
    record: &mut Record,
    seats: &mut [Player; 2],
    console: &mut Console<R, W>,
) -> io::Result<()> {
    while record.result().is_none() {
        let side = record.side_to_act();
        let seat = &mut seats[side.index()];
        let is_person = matches!(seat, Player::Person);
        let is_remote = matches!(seat, Player::Remote(_));
        let chosen = match seat {
            Player::Person => console.ask(record)?,
            Player::Machine(m) => Some(m.act(record)),
            Player::Remote(peer) => peer
                .receive_action(record)
                .inspect_err(|e| {
                    log::warn!("the other program ({}) forfeits: {e}", side.name());
                })
                .ok(),
        };
        match chosen.filter(|&a| record.check(a).is_ok()) {
            Some(action) => {
                if !is_person {
                    console.show(record, action)?;
                }
                record.apply(action).map_err(io::Error::other)?;
                tell_remote(seats, side.opponent(), action);
            }
            None => {
                log::info!("{} forfeits", side.name());
                // Recorded as a resignation unless it owed an answer to a
                // draw offer; then only the score tells.
                let resigns = !record.draw_offered();
                if resigns {
                    console.show(record, Action::Resign)?;
                }
                record.forfeit();
                // A remote program that forfeited is not told its own
                // resignation; it learns the score.
                if resigns && !is_remote {
                    tell_remote(seats, side.opponent(), Action::Resign);
                }
            }
        }
    }
    console.show_result(record)?;
    if let Some(score) = record.result() {
        for seat in seats.iter_mut() {
            if let Player::Remote(peer) = seat {
                peer.finish(score);
            }
        }
    }
    Ok(())
}

/// Passes `action` to the seat of `to` if that is a remote program.
fn tell_remote(seats: &mut [Player; 2], to: Color, action: Action) {
    if let Player::Remote(peer) = &mut seats[to.index()] {
        peer.send_action(action);
    }
}
