//! HTTP: the listening socket, one short-lived thread per request (under a
//! cap), the body limit, the checks that keep other web sites out, and
//! the answer types every handler returns. Routing to the pages and the
//! game families' APIs is in [`route`].
//!
//! Requests are read into a [`Request`] (method, path, query, body) before
//! any handler sees them, so handlers never touch the socket; whatever a
//! handler returns, including a refusal, becomes a [`Response`] here.

use super::{App, assets};
use serde_json::{Value, json};
use socket2::{Domain, Protocol, Socket, Type};
use std::fmt;
use std::io::Read;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest request body accepted; a game file is a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Most requests handled at once (long polls included); past it the
/// server answers 503 at once rather than starting more threads.
const MAX_IN_FLIGHT: usize = 256;

/// Stack of a request thread: handlers are shallow.
const REQUEST_STACK: usize = 256 * 1024;

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
///
/// The listening socket is made here rather than by tiny_http so that it
/// has TCP_NODELAY, which Linux hands on to every accepted connection:
/// tiny_http writes an answer's head and body separately, and without it
/// Nagle's algorithm holds the body back until the client's delayed ACK,
/// some 40 ms on every request.
pub fn bind(addr: &str) -> Result<(tiny_http::Server, SocketAddr), String> {
    let cannot = |e: &dyn fmt::Display| format!("cannot listen on {addr}: {e}");
    let target = addr
        .to_socket_addrs()
        .map_err(|e| cannot(&e))?
        .next()
        .ok_or_else(|| cannot(&"the name has no address"))?;
    let socket = Socket::new(
        Domain::for_address(target),
        Type::STREAM,
        Some(Protocol::TCP),
    )
    .map_err(|e| cannot(&e))?;
    socket
        .set_reuse_address(true)
        .and_then(|()| socket.set_tcp_nodelay(true))
        .and_then(|()| socket.bind(&target.into()))
        .and_then(|()| socket.listen(128))
        .map_err(|e| cannot(&e))?;
    let listener: TcpListener = socket.into();
    let bound = listener.local_addr().map_err(|e| cannot(&e))?;
    let server = tiny_http::Server::from_listener(listener, None).map_err(|e| cannot(&e))?;
    Ok((server, bound))
}

/// Answers requests until the process ends.
pub fn run(server: tiny_http::Server, bound: SocketAddr, app: Arc<App>) {
    let in_flight = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if in_flight.fetch_add(1, Ordering::AcqRel) >= MAX_IN_FLIGHT {
            in_flight.fetch_sub(1, Ordering::AcqRel);
            let busy = ApiError::new(503, "busy", "too many requests at once; try again");
            respond(request, busy.into());
            continue;
        }
        let (app, count) = (Arc::clone(&app), Arc::clone(&in_flight));
        let spawned = std::thread::Builder::new()
            .name("web request".into())
            .stack_size(REQUEST_STACK)
            .spawn(move || {
                handle(request, bound, &app);
                count.fetch_sub(1, Ordering::AcqRel);
            });
        if let Err(e) = spawned {
            in_flight.fetch_sub(1, Ordering::AcqRel);
            log::error!("cannot start a request thread: {e}");
        }
    }
}

fn header<'a>(request: &'a tiny_http::Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
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

fn handle(mut request: tiny_http::Request, bound: SocketAddr, app: &App) {
    let response = read(&mut request, bound).and_then(|req| {
        log::debug!("{:?} {}", req.method, req.path);
        route(app, &req)
    });
    respond(request, response.unwrap_or_else(Response::from));
}

/// Reads the request line, headers and body into a [`Request`].
fn read(request: &mut tiny_http::Request, bound: SocketAddr) -> Result<Request, ApiError> {
    if !host_allowed(header(request, "Host"), bound) {
        return Err(ApiError::new(403, "forbidden_host", "unknown Host header"));
    }
    let method = match request.method() {
        tiny_http::Method::Get | tiny_http::Method::Head => Method::Get,
        tiny_http::Method::Post => Method::Post,
        _ => Method::Other,
    };
    let too_large = || {
        ApiError::new(
            413,
            "too_large",
            format!("the body is over the limit of {BODY_LIMIT} bytes"),
        )
    };
    if request.body_length().is_some_and(|n| n > BODY_LIMIT) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(BODY_LIMIT as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::new(400, "bad_request", format!("cannot read the body: {e}")))?;
    if body.len() > BODY_LIMIT {
        return Err(too_large());
    }
    let json = header(request, "Content-Type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    });
    let (path, query) = request.url().split_once('?').unwrap_or((request.url(), ""));
    Ok(Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        body,
        json,
    })
}

fn respond(request: tiny_http::Request, response: Response) {
    // Always a Content-Length, never chunked: simpler for scripts.
    let mut out = tiny_http::Response::from_data(response.body)
        .with_status_code(response.status)
        .with_chunked_threshold(usize::MAX);
    let mut add = |name: &str, value: &str| match tiny_http::Header::from_bytes(name, value) {
        Ok(h) => out.add_header(h),
        Err(()) => log::warn!("bad header {name}"),
    };
    add("Content-Type", response.content_type);
    add("X-Content-Type-Options", "nosniff");
    for (name, value) in &response.headers {
        add(name, value);
    }
    if let Err(e) = request.respond(out) {
        // The browser went away; nothing to do.
        log::debug!("cannot answer: {e}");
    }
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
        ["api", "chess", rest @ ..] => super::chess::api(&app.chess, req, rest),
        ["checkers"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::CHECKERS_PAGE,
        )),
        ["chessforge"] => get(Response::bytes(
            "text/html; charset=utf-8",
            assets::CHESSFORGE_PAGE,
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
