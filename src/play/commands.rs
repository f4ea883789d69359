//! What the person can type in `antichess play`: moves, and the commands
//! of the 6.170 handouts and the CS 246 project, parsed into typed values
//! with messages that say what was expected.

use crate::chess::{Color, Piece, Rules, Square};
pub use crate::referee::table::Seat;
use std::fmt;

/// A line typed during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Anything that is not a command: tried as a move.
    Move(String),
    /// List the commands.
    Help,
    /// Redraw with the clocks as they are now.
    Show,
    /// A new game; unset parts keep their current values.
    New {
        /// The person's colour.
        color: Option<Color>,
        /// The machine's level.
        level: Option<u32>,
        /// The rule set.
        rules: Option<Rules>,
    },
    /// A new game with both seats given (`game human computer3`).
    Game {
        /// White's seat.
        white: Seat,
        /// Black's seat.
        black: Seat,
    },
    /// Save to a file; the game goes on.
    Save(String),
    /// Load a saved game, the person playing `side` if given.
    Load {
        /// The file.
        path: String,
        /// The person's side.
        side: Option<Color>,
    },
    /// Set a side's time left.
    Time {
        /// Whose clock.
        side: Color,
        /// Milliseconds.
        ms: u64,
    },
    /// Set a side's name.
    Name {
        /// Whose.
        side: Color,
        /// The name.
        name: String,
    },
    /// Take back moves until it is a person's turn again.
    Undo,
    /// Enter setup mode.
    Setup,
    /// Give up the game.
    Resign,
    /// End the game without a result.
    End,
    /// Leave the program.
    Quit,
}

/// The command list `help` prints.
pub const HELP: &str = "\
Type a move as e2-e4 (or e2e4); in chess e7-e8n promotes to a knight.
Commands:
  help                          this list
  show                          redraw the board with the clocks as they are now
  new [white|black] [LEVEL] [RULES]
                                new game: your colour, the machine's level (0-4,
                                0 is strongest), rules antichess|antichess1994|chess
  game WHITE BLACK              new game, each side human or computerN (e.g. computer2)
  save FILE                     save the game in the game-file format; play goes on
  load FILE [white|black]       load a saved game and play the given side
  time white|black SECONDS      set the time left for a side (also M:SS)
  name white|black NAME         set a player's name
  undo                          take back moves until it is your turn again
  setup                         place pieces and choose who moves (then type help)
  resign                        give up this game
  end                           end this game without a result
  quit                          leave, printing the score of the session";

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CommandError {}

fn error<T>(text: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(text.into()))
}

/// `white`/`black` (or `w`/`b`).
pub fn parse_color(word: &str) -> Option<Color> {
    match word.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Color::White),
        "black" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Seconds as `90`, `1.5` or `M:SS`, to milliseconds.
pub fn parse_time(text: &str) -> Option<u64> {
    let seconds = match text.split_once(':') {
        Some((m, s)) => {
            let (m, s) = (m.parse::<u64>().ok()?, s.parse::<f64>().ok()?);
            if !(0.0..60.0).contains(&s) {
                return None;
            }
            m as f64 * 60.0 + s
        }
        None => text.parse::<f64>().ok()?,
    };
    (seconds.is_finite() && (0.0..=1e9).contains(&seconds))
        .then(|| (seconds * 1000.0).round() as u64)
}

fn parse_seat(word: &str) -> Result<Seat, CommandError> {
    let lower = word.to_ascii_lowercase();
    if lower == "human" {
        return Ok(Seat::Human);
    }
    match lower.strip_prefix("computer") {
        Some("") => Ok(Seat::Machine(3)),
        Some(n) => match n.parse() {
            Ok(level) if level <= 40 => Ok(Seat::Machine(level)),
            _ => error(format!(
                "'{word}': a computer's level is a number, as in computer2"
            )),
        },
        None => error(format!(
            "'{word}' is not a player: type human or computer0..computer4"
        )),
    }
}

/// Parses one line typed during a game.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(Command::Show);
    };
    let args: Vec<&str> = words.collect();
    let side = |word: Option<&&str>, usage: &str| match word.and_then(|w| parse_color(w)) {
        Some(c) => Ok(c),
        None => error(format!("usage: {usage}")),
    };
    Ok(match first.to_ascii_lowercase().as_str() {
        "help" | "?" => Command::Help,
        "show" | "refresh" => Command::Show,
        "quit" | "exit" => Command::Quit,
        "undo" => Command::Undo,
        "setup" => Command::Setup,
        "resign" => Command::Resign,
        "end" => Command::End,
        "new" => {
            let (mut color, mut level, mut rules) = (None, None, None);
            for word in args {
                if let Some(c) = parse_color(word) {
                    color = Some(c);
                } else if let Ok(n) = word.parse::<u32>() {
                    if n > 40 {
                        return error(format!("level {n} is too high (0-4, or up to 40)"));
                    }
                    level = Some(n);
                } else if let Ok(r) = word.parse::<Rules>() {
                    rules = Some(r);
                } else {
                    return error(format!(
                        "'{word}' is not a colour, a level or a rule set (usage: new [white|black] [LEVEL] [RULES])"
                    ));
                }
            }
            Command::New {
                color,
                level,
                rules,
            }
        }
        "game" => match args.as_slice() {
            [w, b] => Command::Game {
                white: parse_seat(w)?,
                black: parse_seat(b)?,
            },
            _ => return error("usage: game WHITE BLACK, each human or computerN"),
        },
        "save" => match args.as_slice() {
            [] => return error("usage: save FILE"),
            _ => Command::Save(args.join(" ")),
        },
        "load" => match args.as_slice() {
            [] => return error("usage: load FILE [white|black]"),
            [path @ .., last] if parse_color(last).is_some() && !path.is_empty() => Command::Load {
                path: path.join(" "),
                side: parse_color(last),
            },
            path => Command::Load {
                path: path.join(" "),
                side: None,
            },
        },
        "time" => {
            let usage = "time white|black SECONDS (or M:SS)";
            let side = side(args.first(), usage)?;
            match args.get(1).and_then(|t| parse_time(t)) {
                Some(ms) if args.len() == 2 => Command::Time { side, ms },
                _ => return error(format!("usage: {usage}")),
            }
        }
        "name" => {
            let side = side(args.first(), "name white|black NAME")?;
            let name = args.get(1..).unwrap_or_default().join(" ");
            if name.is_empty() {
                return error("usage: name white|black NAME");
            }
            Command::Name {
                side,
                name: name.chars().take(40).collect(),
            }
        }
        _ => Command::Move(line.to_string()),
    })
}

/// A line typed in setup mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupCommand {
    /// `+ K e1`: put a piece on a square (upper case white, lower black).
    Place(Piece, Square),
    /// `- e1`: empty a square.
    Remove(Square),
    /// `= white`: who moves first.
    Side(Color),
    /// `clear`: empty the board.
    Clear,
    /// `start`: the usual start position.
    Start,
    /// `done`: leave setup, if the position is valid.
    Done,
    /// `help`.
    Help,
    /// Redraw.
    Show,
}

/// What `help` prints in setup mode.
pub const SETUP_HELP: &str = "\
Setup mode:
  + K e1      put a piece on a square (KQRBNP white, kqrbnp black)
  - e1        empty a square
  = white     choose who moves first (white or black)
  clear       empty the board
  start       the usual start position
  done        leave setup (only once the position is valid)";

/// Parses one line typed in setup mode.
pub fn parse_setup(line: &str) -> Result<SetupCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let square = |w: &str| {
        Square::parse(&w.to_ascii_lowercase())
            .ok_or_else(|| CommandError(format!("'{w}' is not a square (a1 to h8)")))
    };
    match words.as_slice() {
        [] => Ok(SetupCommand::Show),
        ["+", piece, sq] => {
            let mut letters = piece.chars();
            let piece = match (letters.next(), letters.next()) {
                (Some(c), None) => Piece::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| {
                CommandError(format!(
                    "'{piece}' is not a piece (KQRBNP white, kqrbnp black)"
                ))
            })?;
            Ok(SetupCommand::Place(piece, square(sq)?))
        }
        ["-", sq] => Ok(SetupCommand::Remove(square(sq)?)),
        ["=", color] => parse_color(color)
            .map(SetupCommand::Side)
            .ok_or_else(|| CommandError(format!("'{color}' is not a colour (white or black)"))),
        [word] => match word.to_ascii_lowercase().as_str() {
            "clear" => Ok(SetupCommand::Clear),
            "start" => Ok(SetupCommand::Start),
            "done" => Ok(SetupCommand::Done),
            "help" | "?" => Ok(SetupCommand::Help),
            "show" => Ok(SetupCommand::Show),
            _ => error(format!("'{word}' is not a setup command (type help)")),
        },
        _ => error(format!(
            "'{}' is not a setup command (type help)",
            line.trim()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(parse("e2-e4"), Ok(Command::Move("e2-e4".into())));
        assert_eq!(
            parse("new black 2 chess"),
            Ok(Command::New {
                color: Some(Color::Black),
                level: Some(2),
                rules: Some(Rules::Chess)
            })
        );
        assert_eq!(
            parse("time black 1:30"),
            Ok(Command::Time {
                side: Color::Black,
                ms: 90_000
            })
        );
        assert_eq!(
            parse("load my game.txt black"),
            Ok(Command::Load {
                path: "my game.txt".into(),
                side: Some(Color::Black)
            })
        );
        assert_eq!(
            parse("game human computer4"),
            Ok(Command::Game {
                white: Seat::Human,
                black: Seat::Machine(4)
            })
        );
        assert!(parse("time purple 3").is_err());
        assert!(parse("new 99").is_err());
        assert!(parse("game human robot").is_err());
    }

    #[test]
    fn setup_commands() {
        let e1 = Square::parse("e1").unwrap();
        assert_eq!(
            parse_setup("+ K e1"),
            Ok(SetupCommand::Place(Piece::from_letter('K').unwrap(), e1))
        );
        assert_eq!(parse_setup("- e1"), Ok(SetupCommand::Remove(e1)));
        assert_eq!(parse_setup("= black"), Ok(SetupCommand::Side(Color::Black)));
        assert!(parse_setup("+ X e1").is_err());
        assert!(parse_setup("+ K z9").is_err());
    }
}
