//! Reading command lines from a byte stream that nobody vouches for.
//!
//! A referee or GUI sends text, but a broken one may send anything: lines
//! of megabytes, invalid UTF-8, NUL bytes, no final newline. The reader
//! keeps at most [`MAX_LINE`] bytes of a line and reports a longer one as
//! such instead of buffering it, decodes bytes lossily, and treats the end
//! of input as the end of the last line.

use std::io::{self, BufRead};

/// Longest line kept, in bytes. The longest legitimate command, a UCI
/// `position` with a few hundred moves, fits several times over.
pub const MAX_LINE: usize = 16 * 1024;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its terminator (`\n` or `\r\n`); invalid UTF-8 has
    /// been replaced by U+FFFD.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, skipped; this many bytes.
    TooLong(usize),
}

/// Splits a byte stream into lines with bounded memory.
pub struct LineReader<R> {
    input: R,
    line: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `input`.
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            line: Vec::with_capacity(256),
        }
    }

    /// The next line; `None` at the end of input. An I/O error other than
    /// an interruption ends the input too, after being logged: there is no
    /// one to answer it to.
    pub fn next_line(&mut self) -> Option<Line> {
        self.line.clear();
        let mut length = 0usize;
        let mut seen_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("cannot read input: {e}");
                    &[]
                }
            };
            if chunk.is_empty() {
                // End of input: a last line without a newline still counts.
                return seen_any.then(|| self.finish(length));
            }
            seen_any = true;
            let (part, found_newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], true),
                None => (chunk, false),
            };
            let room = MAX_LINE.saturating_sub(self.line.len());
            self.line.extend_from_slice(&part[..part.len().min(room)]);
            length = length.saturating_add(part.len());
            let used = part.len() + usize::from(found_newline);
            self.input.consume(used);
            if found_newline {
                return Some(self.finish(length));
            }
        }
    }

    fn finish(&mut self, length: usize) -> Line {
        if length > MAX_LINE {
            return Line::TooLong(length);
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Line::Text(String::from_utf8_lossy(&self.line).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(7, bytes));
        std::iter::from_fn(|| reader.next_line()).collect()
    }

    fn text(s: &str) -> Line {
        Line::Text(s.to_string())
    }

    #[test]
    fn splits_lines_across_buffer_refills() {
        assert_eq!(
            lines(b"isready\r\nname\n\nlast without newline"),
            vec![
                text("isready"),
                text("name"),
                text(""),
                text("last without newline")
            ]
        );
        assert_eq!(lines(b""), vec![]);
    }

    #[test]
    fn skips_overlong_lines_and_goes_on() {
        let mut input = vec![b'x'; MAX_LINE + 1];
        input.extend_from_slice(b"\nname\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE));
        assert_eq!(
            lines(&input),
            vec![
                Line::TooLong(MAX_LINE + 1),
                text("name"),
                text(&"y".repeat(MAX_LINE))
            ]
        );
    }

    #[test]
    fn replaces_invalid_utf8() {
        assert_eq!(
            lines(b"na\xffme\n\0\n"),
            vec![text("na\u{fffd}me"), text("\0")]
        );
    }
}
