//! Who sits at one side of a board: a person, or the machine at a level.
//! Every game family and front end speaks of seats the same way, so the
//! type lives beside [`crate::rng`] rather than in any one of them; what a
//! seat means to a family (checkers' first player, say) is that family's.

use std::fmt;

/// Who plays one side of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person.
    Human,
    /// The machine player at a level (0: the strongest, on its clock).
    Machine(u32),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Machine(level) => write!(f, "computer, level {level}"),
        }
    }
}
