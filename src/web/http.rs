//! HTTP/1.1 on a TCP connection, with every size bounded: a request's
//! head (request line and headers) is at most [`HEAD_LIMIT`] bytes and
//! [`MAX_HEADERS`] lines, its body at most the limit the caller gives and
//! always announced by `Content-Length`; an idle connection is closed.
//! Whatever a client sends, a connection holds at most a few tens of
//! kilobytes and one thread.
//!
//! Only what the board's pages and scripts use is spoken: keep-alive,
//! `Expect: 100-continue`, no chunked request bodies (refused with 411),
//! and every answer written whole with its `Content-Length`.

use std::io::{BufRead, Read, Write};

/// Longest request head accepted, bytes.
pub const HEAD_LIMIT: usize = 16 * 1024;

/// Most header lines accepted.
pub const MAX_HEADERS: usize = 64;

/// A request's head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// The method, as sent (`GET`).
    pub method: String,
    /// The request target (`/api/chess/games?after=3`).
    pub target: String,
    /// Whether the client speaks HTTP/1.1 (else 1.0).
    pub http11: bool,
    /// The headers in order, names as sent.
    pub headers: Vec<(String, String)>,
}

impl Head {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the header's comma-separated value lists `token`.
    pub fn lists(&self, name: &str, token: &str) -> bool {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .flat_map(|(_, v)| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    }

    /// Whether the connection stays open after the answer.
    pub fn keep_alive(&self) -> bool {
        if self.http11 {
            !self.lists("Connection", "close")
        } else {
            self.lists("Connection", "keep-alive")
        }
    }
}

/// Why a request could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The head is over [`HEAD_LIMIT`] or has too many lines: 431.
    HeadTooLarge,
    /// Not HTTP: 400, with the reason.
    Malformed(&'static str),
    /// The connection closed or timed out mid-request: no answer.
    Gone,
}

/// Reads one line of at most `left` bytes, counting them off.
fn line(reader: &mut impl BufRead, left: &mut usize) -> Result<Vec<u8>, ReadError> {
    let mut buf = Vec::new();
    let read = reader
        .take(*left as u64)
        .read_until(b'\n', &mut buf)
        .map_err(|_| ReadError::Gone)?;
    *left -= read;
    if buf.last() != Some(&b'\n') {
        return Err(if *left == 0 {
            ReadError::HeadTooLarge
        } else {
            ReadError::Gone
        });
    }
    buf.pop();
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(buf)
}

/// Reads a request head; `None` if the connection closed (or went idle)
/// before a request began.
pub fn read_head(reader: &mut impl BufRead) -> Result<Option<Head>, ReadError> {
    let mut left = HEAD_LIMIT;
    let first = loop {
        match reader.fill_buf() {
            Ok([]) | Err(_) => return Ok(None),
            Ok(_) => {}
        }
        let text = line(reader, &mut left)?;
        // Empty lines before a request are to be ignored (RFC 9112 2.2).
        if !text.is_empty() {
            break text;
        }
    };
    let first = std::str::from_utf8(&first).map_err(|_| ReadError::Malformed("not text"))?;
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(ReadError::Malformed(
            "the request line is not METHOD TARGET VERSION",
        ));
    };
    let http11 = match version {
        "HTTP/1.1" => true,
        "HTTP/1.0" => false,
        _ => return Err(ReadError::Malformed("only HTTP/1.0 and 1.1 are spoken")),
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ReadError::Malformed("bad method"));
    }
    if !target.starts_with('/') {
        return Err(ReadError::Malformed("the target must be a path"));
    }
    let mut headers = Vec::new();
    loop {
        let text = line(reader, &mut left)?;
        if text.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(ReadError::HeadTooLarge);
        }
        let text = std::str::from_utf8(&text).map_err(|_| ReadError::Malformed("not text"))?;
        let (name, value) = text
            .split_once(':')
            .ok_or(ReadError::Malformed("a header line without ':'"))?;
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            return Err(ReadError::Malformed("bad header name"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    Ok(Some(Head {
        method: method.to_string(),
        target: target.to_string(),
        http11,
        headers,
    }))
}

/// How long the body announced by a head is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyLength {
    /// This many bytes, within the limit.
    Bytes(usize),
    /// More than the limit: 413.
    TooLarge,
    /// A chunked or otherwise unannounced body: 411.
    Unannounced,
    /// A `Content-Length` that is not a number: 400.
    Bad,
}

/// The body length the head announces, against `limit`.
pub fn body_length(head: &Head, limit: usize) -> BodyLength {
    if head.header("Transfer-Encoding").is_some() {
        return BodyLength::Unannounced;
    }
    let mut lengths = head
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Content-Length"));
    let Some((_, value)) = lengths.next() else {
        return BodyLength::Bytes(0);
    };
    if lengths.next().is_some() || value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return BodyLength::Bad;
    }
    match value.parse::<usize>() {
        Ok(n) if n <= limit => BodyLength::Bytes(n),
        _ => BodyLength::TooLarge,
    }
}

/// The reason phrase of a status.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        303 => "See Other",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Writes a whole answer in one piece (head and body together, so no
/// part waits on another's acknowledgement).
pub fn write_answer(
    out: &mut impl Write,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    send_body: bool,
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut text = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        // Values are ours, but a stray line break must never split a header.
        if !value.contains(['\r', '\n']) {
            text.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    if !keep_alive {
        text.push_str("Connection: close\r\n");
    }
    text.push_str("\r\n");
    let mut bytes = text.into_bytes();
    if send_body {
        bytes.extend_from_slice(body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn head(text: &str) -> Result<Option<Head>, ReadError> {
        read_head(&mut BufReader::new(text.as_bytes()))
    }

    #[test]
    fn reads_a_request() {
        let h = head("\r\nPOST /api/x?after=3 HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\nConnection: keep-alive, close\r\n\r\nbody")
            .unwrap()
            .unwrap();
        assert_eq!(h.method, "POST");
        assert_eq!(h.target, "/api/x?after=3");
        assert_eq!(h.header("content-length"), Some("12"));
        assert!(!h.keep_alive());
        assert_eq!(body_length(&h, 100), BodyLength::Bytes(12));
        assert_eq!(body_length(&h, 5), BodyLength::TooLarge);
        let old = head("GET / HTTP/1.0\nConnection: Keep-Alive\n\n")
            .unwrap()
            .unwrap();
        assert!(!old.http11 && old.keep_alive());
        assert_eq!(head(""), Ok(None));
    }

    #[test]
    fn refuses_what_is_not_http_or_too_big() {
        assert_eq!(
            head("GET /\r\n\r\n"),
            Err(ReadError::Malformed(
                "the request line is not METHOD TARGET VERSION"
            ))
        );
        assert!(matches!(
            head("GET / HTTP/2\r\n\r\n"),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(
            head("GET x HTTP/1.1\r\n\r\n"),
            Err(ReadError::Malformed(_))
        ));
        assert!(matches!(
            head("GET / HTTP/1.1\r\nNo colon\r\n\r\n"),
            Err(ReadError::Malformed(_))
        ));
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(HEAD_LIMIT));
        assert_eq!(head(&long), Err(ReadError::HeadTooLarge));
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "A: b\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(head(&many), Err(ReadError::HeadTooLarge));
        assert_eq!(head("GET / HTTP/1.1\r\nHost: a"), Err(ReadError::Gone));
        let chunked = head("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(body_length(&chunked, 10), BodyLength::Unannounced);
        let bad = head("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(body_length(&bad, 10), BodyLength::Bad);
        let twice = head("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(body_length(&twice, 10), BodyLength::Bad);
        let huge = head("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(body_length(&huge, 10), BodyLength::TooLarge);
    }

    /// Whatever the bytes, reading never panics and never reads past the
    /// head limit.
    #[test]
    fn any_bytes_are_read_or_refused() {
        let mut rng = crate::rng::SplitMix::new(11);
        let alphabet = b"GET POST/ HTTP/1.1\r\n:aZ\x00\xff-";
        for _ in 0..20_000 {
            let len = rng.below(200);
            let bytes: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            let _ = read_head(&mut BufReader::new(bytes.as_slice()));
        }
    }

    #[test]
    fn answers_are_whole() {
        let mut out = Vec::new();
        write_answer(
            &mut out,
            404,
            &[("Content-Type", "application/json"), ("X", "a\r\nb")],
            b"{}",
            true,
            false,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
        );
    }
}
