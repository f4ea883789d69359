//! The server: the listening socket, a thread per connection (under a
//! cap), the body limit, the checks that keep other web sites out, and
//! the answer types every handler returns. Routing to the pages and the
//! game families' APIs is in [`route`]; the HTTP itself is [`http`].
//!
//! Requests are read into a [`Request`] (method, path, query, body) before
//! any handler sees them, so handlers never touch the socket; whatever a
//! handler returns, including a refusal, becomes a [`Response`] here.

use super::http::{self, BodyLength, Head, ReadError};
use super::{App, assets};
use serde_json::{Value, json};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Largest request body accepted; a game file is a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Most connections open at once (each with its thread, long polls
/// included); past it a new one is answered 503 and closed.
const MAX_CONNECTIONS: usize = 256;

/// A connection silent this long, between requests or within one, is
/// closed.
const IDLE: Duration = Duration::from_secs(60);

/// Most bytes read and dropped after a refused request before closing.
const DRAIN_LIMIT: u64 = 1 << 20;

/// Stack of a connection thread: handlers are shallow (JSON nesting is
/// limited by the parser).
const CONNECTION_STACK: usize = 512 * 1024;

/// An HTTP method the handlers tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// GET (and HEAD).
    Get,
    /// POST.
    Post,
    /// Anything else, refused with 405.
    Other,
}

/// A request as the handlers see it.
#[derive(Clone, Debug)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The path, without the query.
    pub path: String,
    /// The query string, without `?`.
    pub query: String,
    /// The body, at most [`BODY_LIMIT`] bytes.
    pub body: Vec<u8>,
    /// Whether the body was declared as JSON.
    pub json: bool,
}

impl Request {
    /// The path's segments, without empty ones.
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('/').filter(|s| !s.is_empty()).collect()
    }

    /// The value of `name` in the query (no percent-decoding: the API's
    /// query values are numbers).
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value)
    }

    /// The body as a JSON object; an empty body is an empty object.
    pub fn json_body(&self) -> Result<serde_json::Map<String, Value>, ApiError> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            return Ok(serde_json::Map::new());
        }
        if !self.json {
            return Err(ApiError::new(
                415,
                "unsupported_media_type",
                "send the body as Content-Type: application/json",
            ));
        }
        match serde_json::from_slice::<Value>(&self.body) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(ApiError::bad_json("the body must be a JSON object")),
            Err(e) => Err(ApiError::bad_json(&format!("the body is not JSON: {e}"))),
        }
    }
}

/// A refused request: the status and a JSON body `{"error", "code"}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status, 4xx (or 503).
    pub status: u16,
    /// A stable word for scripts: `illegal_move`, `unknown_game`, ...
    pub code: &'static str,
    /// The reason, for people.
    pub message: String,
}

impl ApiError {
    /// A refusal with `status`, `code` and `message`.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 404: no such page or API.
    pub fn not_found(path: &str) -> ApiError {
        let shown: String = path.chars().take(80).collect();
        ApiError::new(404, "not_found", format!("there is nothing at {shown}"))
    }

    /// 404: a game id that is not (or no longer) held.
    pub fn unknown_game(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(
            404,
            "unknown_game",
            format!("there is no game '{shown}' (it may have been dropped after a long idle time)"),
        )
    }

    /// 405.
    pub fn method() -> ApiError {
        ApiError::new(
            405,
            "method_not_allowed",
            "this address does not take that method",
        )
    }

    /// 400: the body is not the JSON expected.
    pub fn bad_json(message: &str) -> ApiError {
        ApiError::new(400, "bad_json", message)
    }

    /// 400: a field is missing or has the wrong type or value.
    pub fn bad_field(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "bad_request", message)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

/// An answer.
#[derive(Clone, Debug)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// 200 with a JSON body.
    pub fn json(value: &Value) -> Response {
        Response::json_status(200, value)
    }

    /// A JSON body with `status`.
    pub fn json_status(status: u16, value: &Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            headers: vec![("Cache-Control", "no-store".to_string())],
        }
    }

    /// 200 with `body` of `content_type`.
    pub fn bytes(content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status: 200,
            content_type,
            body: body.into(),
            headers: Vec::new(),
        }
    }

    /// A download: `body` as a file called `name`.
    pub fn download(content_type: &'static str, name: &str, body: impl Into<Vec<u8>>) -> Response {
        let mut response = Response::bytes(content_type, body);
        response.headers.push((
            "Content-Disposition",
            format!("attachment; filename=\"{name}\""),
        ));
        response
            .headers
            .push(("Cache-Control", "no-store".to_string()));
        response
    }

    /// 303 to `location`.
    pub fn redirect(location: &str) -> Response {
        Response {
            status: 303,
            content_type: "text/plain",
            body: Vec::new(),
            headers: vec![("Location", location.to_string())],
        }
    }
}

impl From<ApiError> for Response {
    fn from(e: ApiError) -> Response {
        Response::json_status(e.status, &json!({"error": e.message, "code": e.code}))
    }
}

/// Binds `addr`; the address actually bound (a real port for port 0).
pub fn bind(addr: &str) -> Result<(TcpListener, SocketAddr), String> {
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    Ok((listener, bound))
}

/// Answers connections until the process ends, one thread each.
pub fn run(listener: TcpListener, bound: SocketAddr, app: Arc<App>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let mut stream = match stream {
            Ok(stream) => stream,
            Err(e) => {
                // Out of descriptors, say: wait for some to close.
                log::warn!("cannot accept a connection: {e}");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::AcqRel);
            let busy = ApiError::new(503, "busy", "too many connections at once; try again");
            let _ = send(&mut stream, busy.into(), true, false);
            continue;
        }
        let (app, count) = (Arc::clone(&app), Arc::clone(&open));
        let spawned = std::thread::Builder::new()
            .name("web connection".into())
            .stack_size(CONNECTION_STACK)
            .spawn(move || {
                connection(stream, bound, &app);
                count.fetch_sub(1, Ordering::AcqRel);
            });
        if let Err(e) = spawned {
            open.fetch_sub(1, Ordering::AcqRel);
            log::error!("cannot start a connection thread: {e}");
        }
    }
}

/// Whether the Host header names this server: a page of another site
/// that resolves its own name to 127.0.0.1 (DNS rebinding) is refused.
fn host_allowed(host: Option<&str>, bound: SocketAddr) -> bool {
    if !bound.ip().is_loopback() {
        return true;
    }
    let Some(host) = host else {
        return true;
    };
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    matches!(name, "localhost" | "[::1]")
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Requests on one connection, answered in order, until it closes.
fn connection(stream: TcpStream, bound: SocketAddr, app: &App) {
    // Answers are written whole; nothing is gained by waiting to merge.
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IDLE));
    let Ok(input) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(input);
    let mut out = stream;
    loop {
        let head = match http::read_head(&mut reader) {
            Ok(Some(head)) => head,
            Ok(None) | Err(ReadError::Gone) => return,
            Err(ReadError::HeadTooLarge) => {
                let e = ApiError::new(431, "head_too_large", "the request's headers are too large");
                let _ = send(&mut out, e.into(), true, false);
                return close(&out, &mut reader);
            }
            Err(ReadError::Malformed(why)) => {
                let e = ApiError::new(400, "bad_request", format!("not an HTTP request: {why}"));
                let _ = send(&mut out, e.into(), true, false);
                return close(&out, &mut reader);
            }
        };
        let mut keep_alive = head.keep_alive();
        let response = match read(&head, &mut reader, &mut out, bound) {
            Ok(req) => {
                log::debug!("{:?} {}", req.method, req.path);
                route(app, &req).unwrap_or_else(Response::from)
            }
            Err((e, body_unread)) => {
                // A body left unread would be taken for the next request.
                keep_alive &= !body_unread;
                e.into()
            }
        };
        let with_body = !head.method.eq_ignore_ascii_case("HEAD");
        if send(&mut out, response, with_body, keep_alive).is_err() {
            return;
        }
        if !keep_alive {
            return close(&out, &mut reader);
        }
    }
}

/// Closes a connection after its last answer. Closing with unread bytes
/// would reset it and could lose the answer, so a bounded amount of what
/// is left is read first.
fn close(out: &TcpStream, reader: &mut impl Read) {
    let _ = out.shutdown(std::net::Shutdown::Write);
    let _ = out.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = std::io::copy(&mut reader.take(DRAIN_LIMIT), &mut std::io::sink());
}

/// Reads the body after `head` and makes the [`Request`]; a refusal says
/// whether the body was left unread.
fn read(
    head: &Head,
    reader: &mut impl BufRead,
    out: &mut impl Write,
    bound: SocketAddr,
) -> Result<Request, (ApiError, bool)> {
    let length = match http::body_length(head, BODY_LIMIT) {
        BodyLength::Bytes(n) => n,
        BodyLength::TooLarge => {
            let e = ApiError::new(
                413,
                "too_large",
                format!("the body is over the limit of {BODY_LIMIT} bytes"),
            );
            return Err((e, true));
        }
        BodyLength::Unannounced => {
            let e = ApiError::new(
                411,
                "length_required",
                "send the body with a Content-Length",
            );
            return Err((e, true));
        }
        BodyLength::Bad => {
            let e = ApiError::new(400, "bad_request", "the Content-Length is not a number");
            return Err((e, true));
        }
    };
    if length > 0 && head.lists("Expect", "100-continue") {
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| (ApiError::bad_field("the connection closed"), true))?;
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).map_err(|_| {
        (
            ApiError::bad_field("the body ended before its Content-Length"),
            true,
        )
    })?;
    if !host_allowed(head.header("Host"), bound) {
        return Err((
            ApiError::new(403, "forbidden_host", "unknown Host header"),
            false,
        ));
    }
    let method = match head.method.as_str() {
        "GET" | "HEAD" => Method::Get,
        "POST" => Method::Post,
        _ => Method::Other,
    };
    let json = head.header("Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    let (path, query) = head.target.split_once('?').unwrap_or((&head.target, ""));
    Ok(Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        body,
        json,
    })
}

/// Writes an answer.
fn send(
    out: &mut impl Write,
    response: Response,
    with_body: bool,
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut headers: Vec<(&str, &str)> = vec![
        ("Content-Type", response.content_type),
        ("X-Content-Type-Options", "nosniff"),
    ];
    headers.extend(response.headers.iter().map(|(n, v)| (*n, v.as_str())));
    http::write_answer(
        out,
        response.status,
        &headers,
        &response.body,
        with_body,
        keep_alive,
    )
}

/// Sends a request to the page or API it names.
pub fn route(app: &App, req: &Request) -> Result<Response, ApiError> {
    let segments = req.segments();
    let get = |response: Response| match req.method {
        Method::Get => Ok(response),
        _ => Err(ApiError::method()),
    };
    match segments.as_slice() {
        [] => get(Response::redirect("/chess")),
        ["static", name] => match assets::find(name) {
            Some((content_type, body)) => get(Response::bytes(content_type, body)),
            None => Err(ApiError::not_found(&req.path)),
        },
        ["chess"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::CHESS_PAGE,
        )),
        ["api", "chess", "analysis"] => match req.method {
            Method::Post => {
                let body = super::body::Body(req.json_body()?);
                let job = super::analysis::Analyst::job_from(&body)?;
                Ok(Response::json(&app.analyst.analyse(job)?))
            }
            _ => Err(ApiError::method()),
        },
        ["api", "chess", rest @ ..] => super::chess::api(&app.chess, req, rest),
        ["checkers"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::CHECKERS_PAGE,
        )),
        ["chessforge"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::CHESSFORGE_PAGE,
        )),
        ["games"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::GAMES_PAGE,
        )),
        ["api", "checkers", rest @ ..] => super::checkers::api(&app.checkers, req, rest),
        ["api", "chessforge", rest @ ..] => super::chessforge::api(&app.chessforge, req, rest),
        _ => Err(ApiError::not_found(&req.path)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let bound: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert!(host_allowed(Some("127.0.0.1:8080"), bound));
        assert!(host_allowed(Some("localhost:8080"), bound));
        assert!(host_allowed(Some("[::1]:8080"), bound));
        assert!(!host_allowed(Some("evil.example:8080"), bound));
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        assert!(host_allowed(Some("box.example:8080"), any));
    }

    #[test]
    fn query_values() {
        let req = Request {
            method: Method::Get,
            path: "/api".into(),
            query: "a=1&after=17".into(),
            body: Vec::new(),
            json: false,
        };
        assert_eq!(req.query_value("after"), Some("17"));
        assert_eq!(req.query_value("b"), None);
    }
}
