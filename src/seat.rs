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

impl Seat {
    /// A seat as the web API writes one: `human`, or `level:N` with N at
    /// most `max`; `None` for anything else.
    pub fn parse(text: &str, max: u32) -> Option<Seat> {
        match text.split_once(':') {
            None if text.eq_ignore_ascii_case("human") => Some(Seat::Human),
            Some(("level", n)) => n.parse().ok().filter(|&l| l <= max).map(Seat::Machine),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Seat;

    #[test]
    fn seats_read_as_the_api_writes_them() {
        assert_eq!(Seat::parse("HUMAN", 4), Some(Seat::Human));
        assert_eq!(Seat::parse("level:4", 4), Some(Seat::Machine(4)));
        for bad in ["level:5", "level:-1", "level:", "machine:1", "human:1", ""] {
            assert_eq!(Seat::parse(bad, 4), None, "{bad}");
        }
    }
}
