//! Reading and writing game transcripts in the handout's notation:
//!
//! ```text
//! 1. 11-15 24-20
//! 2. 8-11 28-24
//! 3. draw reject
//! 3. 9-13 22-18
//! 4. 15-22 25-18
//! 5. resign
//! 0-1
//! ```
//!
//! Each line holds a move number, Black's entry and White's; the score
//! ends the game on a line of its own. Special moves do not advance the
//! number (see [`Record::move_number`]). Reading replays every entry
//! through a [`Record`], so an error names the line and token where the
//! transcript stops making sense, whether in form or in play. The format
//! is free, so the reader only needs whitespace between tokens; a file
//! may stop without a score (a game to be continued, as `--init` files do).

use std::fmt;

use super::notation::{Action, Score};
use super::record::{PlayError, Record};

/// What is wrong at one place in a transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// A move number `N.` was expected.
    ExpectedNumber,
    /// The move number is not the next one.
    WrongNumber {
        /// The number that should stand here.
        expected: u32,
    },
    /// A move number with no move after it.
    MissingMove,
    /// White's entry or the score was expected, not a new move number.
    ExpectedWhite,
    /// The entry is not allowed here.
    Play(PlayError),
    /// The score contradicts how the game ended.
    WrongScore {
        /// The score the game's end calls for.
        actual: Score,
    },
    /// Something follows the score.
    AfterScore,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::ExpectedNumber => f.write_str("expected a move number such as `1.`"),
            ReadError::WrongNumber { expected } => write!(f, "expected move number `{expected}.`"),
            ReadError::MissingMove => f.write_str("expected a move after the move number"),
            ReadError::ExpectedWhite => f.write_str("expected White's move or the score"),
            ReadError::Play(e) => write!(f, "{e}"),
            ReadError::WrongScore { actual } => write!(f, "the game ended {actual}"),
            ReadError::AfterScore => f.write_str("nothing may follow the score"),
        }
    }
}

/// A transcript error with its place: 1-based line and the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptError {
    /// 1-based line number.
    pub line: usize,
    /// The offending token, or `end of file`.
    pub token: String,
    /// What is wrong.
    pub kind: ReadError,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, at `{}`: {}", self.line, self.token, self.kind)
    }
}

impl std::error::Error for TranscriptError {}

/// Where the reader is within the grammar.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    Number,
    Black,
    White,
    Done,
}

/// Reads a move number token `N.`.
fn parse_number(token: &str) -> Option<u32> {
    let digits = token.strip_suffix('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Replays a transcript from the start position.
pub fn read_transcript(text: &str) -> Result<Record, TranscriptError> {
    let mut record = Record::new();
    let mut expect = Expect::Number;
    let mut last_line = 1;
    let tokens = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t)));
    for (line, token) in tokens {
        last_line = line;
        let fail = |kind| {
            Err(TranscriptError {
                line,
                token: token.into(),
                kind,
            })
        };
        if let (Some(score), Expect::Number | Expect::White) = (Score::parse(token), expect) {
            match record.result() {
                Some(actual) if actual != score => return fail(ReadError::WrongScore { actual }),
                _ => record.end_with(score),
            }
            expect = Expect::Done;
            continue;
        }
        match expect {
            Expect::Number => {
                let Some(n) = parse_number(token) else {
                    return fail(ReadError::ExpectedNumber);
                };
                if record.result().is_some() {
                    return fail(ReadError::Play(PlayError::GameOver));
                }
                if n != record.move_number() {
                    return fail(ReadError::WrongNumber {
                        expected: record.move_number(),
                    });
                }
                expect = Expect::Black;
            }
            Expect::Black | Expect::White => {
                if Score::parse(token).is_some() {
                    return fail(ReadError::MissingMove);
                }
                if parse_number(token).is_some() {
                    let kind = if expect == Expect::Black {
                        ReadError::MissingMove
                    } else {
                        ReadError::ExpectedWhite
                    };
                    return fail(kind);
                }
                let played = record.parse_action(token).and_then(|a| record.apply(a));
                if let Err(e) = played {
                    return fail(ReadError::Play(e));
                }
                expect = if expect == Expect::Black {
                    Expect::White
                } else {
                    Expect::Number
                };
            }
            Expect::Done => return fail(ReadError::AfterScore),
        }
    }
    if expect == Expect::Black {
        return Err(TranscriptError {
            line: last_line,
            token: "end of file".into(),
            kind: ReadError::MissingMove,
        });
    }
    Ok(record)
}

/// One transcript line: the number and one or two entries.
pub fn format_line(number: u32, black: Action, white: Option<Action>) -> String {
    match white {
        Some(w) => format!("{number}. {black} {w}"),
        None => format!("{number}. {black}"),
    }
}

/// Writes the transcript of `record`, one line per move pair and the score
/// (if the game is over) on the last line; every line ends in a newline.
pub fn write_transcript(record: &Record) -> String {
    let mut out = String::new();
    let mut number = 1;
    for pair in record.actions().chunks(2) {
        let white = pair.get(1).copied();
        out.push_str(&format_line(number, pair[0], white));
        out.push('\n');
        if white.is_some_and(Action::is_move) {
            number += 1;
        }
    }
    if let Some(score) = record.result() {
        out.push_str(&format!("{score}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HANDOUT: &str = "1. 11-15 24-20\n2. 8-11 28-24\n3. draw reject\n3. 9-13 22-18\n\
                           4. 15-22 25-18\n5. resign\n0-1\n";

    #[test]
    fn handout_transcript_round_trips() {
        let r = read_transcript(HANDOUT).unwrap();
        assert_eq!(r.result(), Some(Score::WhiteWins));
        assert_eq!(write_transcript(&r), HANDOUT);
    }

    #[test]
    fn free_format_is_accepted() {
        let r = read_transcript("1.  11-15\t24-20 2. 8-11\r\n").unwrap();
        assert_eq!(write_transcript(&r), "1. 11-15 24-20\n2. 8-11\n");
    }

    fn error(text: &str) -> (usize, String, ReadError) {
        let e = read_transcript(text).unwrap_err();
        (e.line, e.token, e.kind)
    }

    #[test]
    fn errors_name_line_and_token() {
        assert_eq!(
            error("1. 11-15 24-20\n3. 8-11"),
            (2, "3.".into(), ReadError::WrongNumber { expected: 2 })
        );
        assert_eq!(
            error("1. 11-15 24-20\n2. 8-11 24-19"),
            (
                2,
                "24-19".into(),
                ReadError::Play(PlayError::Illegal("24-19".into()))
            )
        );
        assert_eq!(
            error("11-15"),
            (1, "11-15".into(), ReadError::ExpectedNumber)
        );
        assert_eq!(
            error("1. 11-15 24-20\n2."),
            (2, "end of file".into(), ReadError::MissingMove)
        );
        assert_eq!(
            error("1. resign\n1-0"),
            (
                2,
                "1-0".into(),
                ReadError::WrongScore {
                    actual: Score::WhiteWins
                }
            )
        );
        assert_eq!(
            error("1. resign\n0-1\n2."),
            (3, "2.".into(), ReadError::AfterScore)
        );
        assert_eq!(
            error("1. 11-15 2."),
            (1, "2.".into(), ReadError::ExpectedWhite)
        );
        assert_eq!(
            error("1. draw 11-15"),
            (1, "11-15".into(), ReadError::Play(PlayError::DrawPending))
        );
        assert_eq!(error("1. 1-0"), (1, "1-0".into(), ReadError::MissingMove));
    }

    #[test]
    fn error_message_reads_well() {
        let e = read_transcript("1. 11-15 24-20\n2. 8-11 24-19").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, at `24-19`: `24-19` is not a legal move here"
        );
    }
}
