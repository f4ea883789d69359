//! Games as PGN for other tools: the seven-tag roster, a `Variant` tag
//! naming our rule set, `SetUp`/`FEN` for games from an opening position,
//! a `Termination` tag, and the moves in SAN with the ending as a comment.

use super::game::{Ending, GameResult};
use super::player::FaultKind;
use crate::chess::{GameRecord, Move, PieceKind, Position};
use crate::search::MoveList;
use std::time::{SystemTime, UNIX_EPOCH};

/// The tags a game's PGN gets besides the result and moves.
#[derive(Clone, Debug)]
pub struct Header<'a> {
    /// The event.
    pub event: &'a str,
    /// Round number.
    pub round: u32,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// Whether the endgame tables could adjudicate the game (a tag says so).
    pub tables: bool,
}

/// The move in standard algebraic notation, played from `pos`.
pub fn san(pos: &Position, mv: Move) -> String {
    let Some(kind) = pos.kind_at(mv.from()) else {
        return mv.to_string();
    };
    let (from, to) = (mv.from(), mv.to());
    let mut out = String::with_capacity(8);
    if kind == PieceKind::King && from.file().abs_diff(to.file()) == 2 {
        out.push_str(if to.file() > from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
    } else {
        let capture =
            pos.occupied().has(to) || (kind == PieceKind::Pawn && Some(to) == pos.ep_square());
        if kind == PieceKind::Pawn {
            if capture {
                out.push(char::from(b'a' + from.file()));
            }
        } else {
            out.push(kind.letter().to_ascii_uppercase());
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let rivals: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.to() == to && m.from() != from && pos.kind_at(m.from()) == Some(kind))
                .collect();
            if !rivals.is_empty() {
                let file = char::from(b'a' + from.file());
                let rank = char::from(b'1' + from.rank());
                if rivals.iter().all(|m| m.from().file() != from.file()) {
                    out.push(file);
                } else if rivals.iter().all(|m| m.from().rank() != from.rank()) {
                    out.push(rank);
                } else {
                    out.push(file);
                    out.push(rank);
                }
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&to.to_string());
        if let Some(p) = mv.promotion() {
            out.push('=');
            out.push(p.letter().to_ascii_uppercase());
        }
    }
    let after = pos.play(mv);
    if after.in_check() {
        out.push(if after.has_legal_move() { '+' } else { '#' });
    }
    out
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let Ok(since) = SystemTime::now().duration_since(UNIX_EPOCH) else {
        return "????.??.??".to_string();
    };
    let (year, month, day) = civil_date((since.as_secs() / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Days since 1970-01-01 as a civil date (year, month, day) of the
/// proleptic Gregorian calendar, by counting 400-year eras from
/// 0000-03-01 so that leap days fall last.
pub(crate) fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// PGN's `Termination` value for an ending.
fn termination(ending: &Ending) -> &'static str {
    match ending {
        Ending::Rules(_) | Ending::Resigned(_) => "normal",
        Ending::Adjudicated(_) => "adjudication",
        Ending::Fault { fault, .. } => match fault.kind {
            FaultKind::Flag | FaultKind::Hang => "time forfeit",
            FaultKind::Illegal | FaultKind::Malformed => "rules infraction",
            FaultKind::Crash => "abandoned",
        },
    }
}

/// The mover's time left as a `%clk` comment (lichess's and python-chess's
/// reading), to the tenth of a second: `{[%clk 0:00:07.5]}`.
pub(super) fn clock_comment(ms: u64) -> String {
    let tenths = ms / 100;
    let (h, m, s, t) = (
        tenths / 36_000,
        tenths / 600 % 60,
        tenths / 10 % 60,
        tenths % 10,
    );
    format!("{{[%clk {h}:{m:02}:{s:02}.{t}]}}")
}

/// Escapes a tag value.
fn quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One game as PGN, ending with a blank line.
pub fn write(header: &Header, result: &GameResult) -> String {
    write_record(header, &result.record, &result.clocks, Some(result))
}

/// A game still being played as PGN: the moves so far and the result `*`,
/// which the PGN standard gives a game in progress, with the
/// `Termination` it names for one, `unterminated`.
pub fn write_unfinished(header: &Header, record: &GameRecord, clocks: &[u64]) -> String {
    write_record(header, record, clocks, None)
}

fn write_record(
    header: &Header,
    record: &GameRecord,
    clocks: &[u64],
    result: Option<&GameResult>,
) -> String {
    let start = record.start();
    let rules = start.rules();
    let score = result.map_or("*", GameResult::score);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", quoted(value)));
    };
    tag("Event", header.event);
    tag("Site", "?");
    tag("Date", &today());
    tag("Round", &header.round.to_string());
    tag("White", header.white);
    tag("Black", header.black);
    tag("Result", score);
    tag("Variant", rules.name());
    if *start != Position::startpos(rules) {
        tag("SetUp", "1");
        tag("FEN", &start.fen());
    }
    tag(
        "Termination",
        result.map_or("unterminated", |r| termination(&r.ending)),
    );
    if header.tables {
        tag("Adjudication", "endgame tables");
    }
    tag("PlyCount", &record.moves().len().to_string());
    out.push('\n');

    let mut words = Vec::new();
    let mut pos = *start;
    for (i, &mv) in record.moves().iter().enumerate() {
        let number = pos.fullmove_number();
        if pos.side_to_move() == crate::chess::Color::White {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(san(&pos, mv));
        if let Some(&ms) = clocks.get(i) {
            words.push(clock_comment(ms));
        }
        pos = pos.play(mv);
    }
    if let Some(result) = result {
        words.push(format!("{{{}}}", result.to_string().replace('}', ")")));
    }
    words.push(score.to_string());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn play(record: &mut GameRecord, moves: &[&str]) -> Vec<String> {
        moves
            .iter()
            .map(|text| {
                let pos = *record.position();
                let mv = pos.parse_move(text).unwrap();
                record.play(mv);
                san(&pos, mv)
            })
            .collect()
    }

    #[test]
    fn san_with_captures_checks_and_mate() {
        let mut r = GameRecord::new(Position::startpos(Rules::Chess));
        let sans = play(&mut r, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
        let mut r = GameRecord::new(Position::startpos(Rules::Chess));
        let sans = play(&mut r, &["e2e4", "d7d5", "e4d5", "g8f6", "b1c3", "f6d5"]);
        assert_eq!(sans, ["e4", "d5", "exd5", "Nf6", "Nc3", "Nxd5"]);
        assert!(today().starts_with("20"));
        assert_eq!(clock_comment(7_512), "{[%clk 0:00:07.5]}");
        assert_eq!(clock_comment(3_723_999), "{[%clk 1:02:03.9]}");
    }

    #[test]
    fn a_game_in_progress_ends_in_a_star() {
        let mut r = GameRecord::new(Position::startpos(Rules::Chess));
        play(&mut r, &["e2e4", "c7c5", "g1f3"]);
        let header = Header {
            event: "e",
            round: 1,
            white: "w",
            black: "b",
            tables: false,
        };
        let text = write_unfinished(&header, &r, &[299_000, 298_500]);
        assert!(text.contains("[Result \"*\"]\n"), "{text}");
        assert!(text.contains("[Termination \"unterminated\"]\n"), "{text}");
        assert!(
            text.ends_with("\n\n1. e4 {[%clk 0:04:59.0]} c5 {[%clk 0:04:58.5]} 2. Nf3 *\n\n"),
            "{text}"
        );
    }

    #[test]
    fn disambiguates_by_file() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", Rules::Chess).unwrap();
        let mv = pos.parse_move("a1d1").unwrap();
        assert_eq!(san(&pos, mv), "Rad1");
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", Rules::Chess).unwrap();
        let castle = pos.parse_move("e1g1").unwrap();
        assert_eq!(san(&pos, castle), "O-O");
    }
}
