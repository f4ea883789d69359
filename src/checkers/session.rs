//! One game between two seats (the person at the terminal, a machine
//! player, or a remote program), refereed by a [`Record`] and shown on a
//! [`Console`].

use std::io::{self, BufRead, Write};

use super::board::Color;
use super::net::Peer;
use super::notation::Action;
use super::player::Machine;
use super::record::Record;
use super::ui::Console;

/// Who plays one side.
pub enum Seat {
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
    seats: &mut [Seat; 2],
    console: &mut Console<R, W>,
) -> io::Result<()> {
    while record.result().is_none() {
        let side = record.side_to_act();
        let before = record.clone();
        let chosen = match &mut seats[side.index()] {
            Seat::Person => console.ask(record)?,
            Seat::Machine(m) => Some(m.act(record)),
            Seat::Remote(peer) => peer.receive_action(record),
        };
        let applied = chosen.is_some_and(|a| record.apply(a).is_ok());
        if !applied {
            log::info!("{} forfeits", side.name());
            record.forfeit();
        }
        // Show what was recorded for this turn (nothing for a forfeit owed
        // as an answer to a draw offer, where only the score tells).
        let entry = record.actions().get(before.actions().len()).copied();
        if let Some(action) = entry {
            let typed = matches!(seats[side.index()], Seat::Person) && applied;
            if !typed {
                console.show(&before, action)?;
            }
            // A remote program that forfeited is not told its own
            // resignation; it learns the score.
            let forfeiting_remote = !applied && matches!(seats[side.index()], Seat::Remote(_));
            if !forfeiting_remote {
                tell_remote(seats, side.opponent(), action);
            }
        }
    }
    console.show_result(record)?;
    if let Some(score) = record.result() {
        for seat in seats.iter_mut() {
            if let Seat::Remote(peer) = seat {
                peer.finish(score);
            }
        }
    }
    Ok(())
}

/// Passes `action` to the seat of `to` if that is a remote program.
fn tell_remote(seats: &mut [Seat; 2], to: Color, action: Action) {
    if let Seat::Remote(peer) = &mut seats[to.index()] {
        peer.send_action(action);
    }
}
