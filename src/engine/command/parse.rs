//! The parser: one line of either protocol into a [`Command`], or the
//! [`ParseError`] that says what was expected. Words, arity and numbers are
//! checked here; boards and moves stay text for the game to judge.

use super::*;
use crate::engine::levels::MAX_LEVEL;
use crate::search::{MAX_DEPTH, MAX_THREADS};

/// Parses a whole number between `min` and `max`.
fn number<T>(what: &'static str, word: &str, min: T, max: T) -> Result<T, ParseError>
where
    T: std::str::FromStr + PartialOrd + fmt::Display + Copy,
{
    // `from_str` accepts a leading '+'; a protocol number is digits only.
    let digits = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit());
    match word.parse::<T>() {
        Ok(n) if digits && n >= min && n <= max => Ok(n),
        _ => Err(ParseError::BadNumber {
            what,
            found: shown(word),
            range: format!("{min}..={max}"),
        }),
    }
}

fn milliseconds(what: &'static str, word: &str) -> Result<u64, ParseError> {
    // A year is more than any clock; bounding it keeps instants computable.
    number(what, word, 0, 365 * 24 * 3_600_000)
}

fn perft_depth(word: &str) -> Result<u32, ParseError> {
    number("the perft depth", word, 0, MAX_PERFT)
}

fn color(word: &str) -> Result<Color, ParseError> {
    match word.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(ParseError::BadWord {
            what: "the colour",
            found: shown(word),
            expected: "white or black",
        }),
    }
}

fn level(word: &str) -> Result<Level, ParseError> {
    number("the level", word, 0, MAX_LEVEL).map(Level)
}

fn rules(word: &str) -> Result<RuleSet, ParseError> {
    word.parse().map_err(|()| ParseError::BadWord {
        what: "the rules",
        found: shown(word),
        expected: RuleSet::NAMES,
    })
}

const NEW_USAGE: &str = "new <white|black> <level> [<board> | fen <FEN>]";
const MOVE_USAGE: &str = "move <opponent-move|-> <my-ms> <opponent-ms>";
const GO_USAGE: &str = "go depth <n> | go nodes <n> | go movetime <ms>";
const SET_USAGE: &str = "set <rules|level|hash|threads|seed|tables> <value>";

/// Parses one line; `Ok(None)` for a line to ignore (empty, or a `#`
/// comment).
pub fn parse(line: &str, protocol: Protocol) -> Result<Option<Command>, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, args)) = words.split_first() else {
        return Ok(None);
    };
    if first.starts_with('#') {
        return Ok(None);
    }
    let command = match (first, protocol) {
        ("isready", _) => exact::<0>(args, "isready", "isready").map(|[]| Command::IsReady)?,
        ("quit", _) => exact::<0>(args, "quit", "quit").map(|[]| Command::Quit)?,
        ("stop", _) => exact::<0>(args, "stop", "stop").map(|[]| Command::Stop)?,
        ("board", _) => exact::<0>(args, "board", "board").map(|[]| Command::Board)?,
        ("moves", _) => exact::<0>(args, "moves", "moves").map(|[]| Command::Moves)?,
        ("uci", _) => exact::<0>(args, "uci", "uci").map(|[]| Command::Uci)?,
        ("help", _) => exact::<0>(args, "help", "help").map(|[]| Command::Help)?,
        ("perft", _) => {
            let [depth] = exact(args, "perft", "perft <depth>")?;
            Command::Perft(perft_depth(depth)?)
        }
        // Stockfish's form, which UCI tools send.
        ("go", Protocol::Uci) if args.first() == Some(&"perft") => {
            let [_, depth] = exact(args, "go perft", "go perft <depth>")?;
            Command::Perft(perft_depth(depth)?)
        }
        ("go", Protocol::Line) => Command::Go(parse_line_go(args)?),
        ("go", Protocol::Uci) => Command::Go(parse_uci_go(args)?),
        ("name", Protocol::Line) => exact::<0>(args, "name", "name").map(|[]| Command::Name)?,
        ("new", Protocol::Line) => parse_new(args)?,
        ("move", Protocol::Line) => {
            let [opponent, mine, theirs] = exact(args, "move", MOVE_USAGE)?;
            Command::Move {
                opponent: (opponent != "-").then(|| opponent.to_string()),
                my_ms: milliseconds("my time", mine)?,
                their_ms: milliseconds("the opponent's time", theirs)?,
            }
        }
        ("play", Protocol::Line) => {
            let [mv] = exact(args, "play", "play <move>")?;
            Command::Play(mv.to_string())
        }
        ("set", Protocol::Line) => {
            let [name, value] = exact(args, "set", SET_USAGE)?;
            Command::Set(parse_setting(name, value)?)
        }
        ("setoption", Protocol::Uci) => Command::Set(parse_setoption(args)?),
        ("ucinewgame", Protocol::Uci) => Command::UciNewGame,
        ("position", Protocol::Uci) => parse_position(args)?,
        ("debug" | "ponderhit" | "register", Protocol::Uci) => Command::Ignored,
        _ => {
            return Err(ParseError::Unknown {
                word: shown(first),
                protocol,
            });
        }
    };
    Ok(Some(command))
}

/// The arguments of a command that takes exactly `N` words.
fn exact<'a, const N: usize>(
    args: &[&'a str],
    command: &'static str,
    usage: &'static str,
) -> Result<[&'a str; N], ParseError> {
    <[&str; N]>::try_from(args).map_err(|_| ParseError::Arity { command, usage })
}

fn parse_new(args: &[&str]) -> Result<Command, ParseError> {
    let [color_word, level_word, rest @ ..] = args else {
        return Err(ParseError::Arity {
            command: "new",
            usage: NEW_USAGE,
        });
    };
    let start = match rest {
        [] => Start::Initial,
        ["fen"] => {
            return Err(ParseError::Arity {
                command: "new",
                usage: NEW_USAGE,
            });
        }
        ["fen", fen @ ..] => Start::Fen(fen.join(" ")),
        board => Start::Board(board.join(" ")),
    };
    Ok(Command::New {
        color: color(color_word)?,
        level: level(level_word)?,
        start,
    })
}

fn parse_line_go(args: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    match args {
        ["depth", n] => go.depth = Some(number("the depth", n, 1, MAX_DEPTH)?),
        ["nodes", n] => go.nodes = Some(number("the node count", n, 1, u64::MAX)?),
        ["movetime", ms] => go.movetime = Some(milliseconds("the move time", ms)?),
        _ => {
            return Err(ParseError::Arity {
                command: "go",
                usage: GO_USAGE,
            });
        }
    }
    Ok(go)
}

fn parse_uci_go(args: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        if word == "infinite" {
            go.infinite = true;
            continue;
        }
        let value = words.next().copied().ok_or(ParseError::Arity {
            command: "go",
            usage: "go [wtime|btime|winc|binc|movestogo|movetime|depth|nodes <n>]... [infinite]",
        })?;
        match word {
            "wtime" => go.wtime = Some(milliseconds("wtime", value)?),
            "btime" => go.btime = Some(milliseconds("btime", value)?),
            "winc" => go.winc = Some(milliseconds("winc", value)?),
            "binc" => go.binc = Some(milliseconds("binc", value)?),
            "movetime" => go.movetime = Some(milliseconds("movetime", value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value, 1, 10_000)?),
            "depth" => go.depth = Some(number("the depth", value, 1, MAX_DEPTH)?),
            "nodes" => go.nodes = Some(number("the node count", value, 1, u64::MAX)?),
            other => {
                return Err(ParseError::BadWord {
                    what: "a go parameter",
                    found: shown(other),
                    expected: "one of wtime btime winc binc movestogo movetime depth nodes infinite",
                });
            }
        }
    }
    Ok(go)
}

fn parse_setting(name: &str, value: &str) -> Result<Setting, ParseError> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "rules" | "uci_variant" => Setting::Rules(rules(value)?),
        "level" => Setting::Level(level(value)?),
        "hash" => Setting::Hash(number("hash (MiB)", value, 1, MAX_HASH_MIB)?),
        "threads" => Setting::Threads(number("threads", value, 1, MAX_THREADS)?),
        "seed" => Setting::Seed(number("the seed", value, 0, u64::MAX)?),
        "tables" | "tablepath" => Setting::Tables(match value {
            "none" | "<empty>" => None,
            dir => Some(dir.into()),
        }),
        _ => {
            return Err(ParseError::BadWord {
                what: "the setting",
                found: shown(name),
                expected: "rules, level, hash, threads, seed or tables",
            });
        }
    })
}

fn parse_setoption(args: &[&str]) -> Result<Setting, ParseError> {
    const USAGE: &str = "setoption name <id> value <x>";
    let arity = ParseError::Arity {
        command: "setoption",
        usage: USAGE,
    };
    let ["name", rest @ ..] = args else {
        return Err(arity);
    };
    let mut parts = rest.splitn(2, |&w| w == "value");
    let name = parts.next().unwrap_or_default().join(" ");
    let value = parts.next().ok_or(arity.clone())?.join(" ");
    if name.is_empty() || value.is_empty() {
        return Err(arity);
    }
    let name = match name.to_ascii_lowercase().as_str() {
        "uci_variant" => "rules".to_string(),
        "level" | "skill level" => "level".to_string(),
        _ => name,
    };
    parse_setting(&name, &value)
}

fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    const USAGE: &str = "position startpos|fen <FEN> [moves <m>...]";
    let mut parts = args.splitn(2, |&w| w == "moves");
    let setup = parts.next().unwrap_or_default();
    let moves = parts.next().unwrap_or_default();
    let start = match setup {
        ["startpos"] => Start::Initial,
        ["fen", fen @ ..] if !fen.is_empty() => Start::Fen(fen.join(" ")),
        _ => {
            return Err(ParseError::Arity {
                command: "position",
                usage: USAGE,
            });
        }
    };
    Ok(Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn line(text: &str) -> Result<Option<Command>, ParseError> {
        parse(text, Protocol::Line)
    }

    fn uci(text: &str) -> Result<Option<Command>, ParseError> {
        parse(text, Protocol::Uci)
    }

    #[test]
    fn ignores_blank_and_comment_lines() {
        assert_eq!(line(""), Ok(None));
        assert_eq!(line("  \t "), Ok(None));
        assert_eq!(line("# new white 0"), Ok(None));
        assert_eq!(line("#"), Ok(None));
    }

    #[test]
    fn parses_new_in_every_form() {
        assert_eq!(
            line("new black 3"),
            Ok(Some(Command::New {
                color: Color::Black,
                level: Level(3),
                start: Start::Initial
            }))
        );
        assert_eq!(
            line("new white 0 W 300.0 300.0 a b"),
            Ok(Some(Command::New {
                color: Color::White,
                level: Level(0),
                start: Start::Board("W 300.0 300.0 a b".into())
            }))
        );
        assert_eq!(
            line("new white 0 fen 8/8 w - -"),
            Ok(Some(Command::New {
                color: Color::White,
                level: Level(0),
                start: Start::Fen("8/8 w - -".into())
            }))
        );
        assert!(matches!(line("new white"), Err(ParseError::Arity { .. })));
        assert!(matches!(
            line("new white 0 fen"),
            Err(ParseError::Arity { .. })
        ));
        assert!(matches!(line("new red 0"), Err(ParseError::BadWord { .. })));
        assert!(matches!(
            line("new white -1"),
            Err(ParseError::BadNumber { .. })
        ));
    }

    #[test]
    fn parses_move_and_refuses_bad_clocks() {
        assert_eq!(
            line("move - 1000 2000"),
            Ok(Some(Command::Move {
                opponent: None,
                my_ms: 1000,
                their_ms: 2000
            }))
        );
        assert!(matches!(
            line("move e2-e4 10"),
            Err(ParseError::Arity { .. })
        ));
        for bad in ["+5", "-5", "1e3", "99999999999999999999999", ""] {
            assert!(
                matches!(
                    line(&format!("move e2-e4 {bad} 5")),
                    Err(ParseError::BadNumber { .. }) | Err(ParseError::Arity { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn go_forms_differ_by_protocol() {
        assert_eq!(
            line("go depth 3"),
            Ok(Some(Command::Go(Go {
                depth: Some(3),
                ..Go::default()
            })))
        );
        assert!(matches!(line("go"), Err(ParseError::Arity { .. })));
        assert!(matches!(
            line("go depth 0"),
            Err(ParseError::BadNumber { .. })
        ));
        let Ok(Some(Command::Go(go))) = uci("go wtime 100 btime 200 winc 1 binc 2 movestogo 5")
        else {
            panic!("uci go not parsed");
        };
        assert_eq!(
            (go.wtime, go.binc, go.movestogo),
            (Some(100), Some(2), Some(5))
        );
        assert!(!go.is_unbounded());
        assert!(matches!(uci("go"), Ok(Some(Command::Go(go))) if go.is_unbounded()));
        assert!(matches!(uci("go ponder"), Err(ParseError::Arity { .. })));
        assert!(matches!(
            uci("go depth x"),
            Err(ParseError::BadNumber { .. })
        ));
    }

    #[test]
    fn perft_and_help_in_both_protocols() {
        assert_eq!(line("perft 14"), Ok(Some(Command::Perft(14))));
        assert_eq!(uci("go perft 3"), Ok(Some(Command::Perft(3))));
        // Too deep, no depth, and UCI's form in the line protocol.
        for bad in [line("perft 65"), uci("go perft"), line("go perft 3")] {
            assert!(bad.is_err(), "{bad:?}");
        }
        assert_eq!(line("help"), Ok(Some(Command::Help)));
        assert_eq!(uci("help"), Ok(Some(Command::Help)));
    }

    #[test]
    fn parses_settings_of_both_protocols() {
        assert_eq!(
            line("set rules antichess1994"),
            Ok(Some(Command::Set(Setting::Rules(RuleSet::Chess(
                Rules::Antichess1994
            )))))
        );
        assert_eq!(
            uci("setoption name UCI_Variant value chess"),
            Ok(Some(Command::Set(Setting::Rules(RuleSet::Chess(
                Rules::Chess
            )))))
        );
        assert_eq!(
            uci("setoption name Hash value 16"),
            Ok(Some(Command::Set(Setting::Hash(16))))
        );
        assert!(matches!(
            line("set hash 0"),
            Err(ParseError::BadNumber { .. })
        ));
        assert!(matches!(
            line("set colour red"),
            Err(ParseError::BadWord { .. })
        ));
        assert!(matches!(
            uci("setoption name Hash"),
            Err(ParseError::Arity { .. })
        ));
    }

    #[test]
    fn parses_checkers_rules() {
        assert_eq!(
            line("set rules Checkers"),
            Ok(Some(Command::Set(Setting::Rules(RuleSet::Checkers))))
        );
        let err = line("set rules draughts").unwrap_err();
        assert!(err.to_string().contains("or checkers"), "{err}");
    }

    #[test]
    fn parses_uci_positions() {
        assert_eq!(
            uci("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position {
                start: Start::Initial,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert_eq!(
            uci("position fen 8/8/8/8/8/8/8/8 w - - 0 1"),
            Ok(Some(Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/8 w - - 0 1".into()),
                moves: vec![]
            }))
        );
        assert!(matches!(uci("position"), Err(ParseError::Arity { .. })));
    }

    #[test]
    fn unknown_words_are_shown_escaped_and_short() {
        let err = line("\u{1b}[2Jxyz").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown command '\\u{1b}[2Jxyz' (known: name isready new move play board moves perft go set stop uci help quit)"
        );
        let long = "a".repeat(100);
        assert!(line(&long).unwrap_err().to_string().contains("aaaa...'"));
        // Line-protocol commands are not UCI commands and vice versa.
        assert!(matches!(
            uci("new white 0"),
            Err(ParseError::Unknown { .. })
        ));
        assert!(matches!(
            line("ucinewgame"),
            Err(ParseError::Unknown { .. })
        ));
    }
}
