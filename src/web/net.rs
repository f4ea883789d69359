//! The HTTP server: hyper (HTTP/1.1) on tokio, axum for the handlers'
//! plumbing and server-sent events, tower and tower-http for the limits.
//!
//! Every bound is here. A connection costs a task and a few kilobytes, not
//! a thread, so thousands of idle or half-open connections stop nobody: a
//! request head must arrive whole within the header-read timeout, its body
//! within the body timeout, and what is capped is the requests being
//! answered at once (past the cap a request is answered 503 at once),
//! never the connections. A game's handlers stay synchronous (they lock a
//! game for microseconds and write it to the database); they run on
//! tokio's blocking threads. Waits for a game's next version (the long
//! poll and the event streams) hold no thread.
//!
//! Before any handler runs, `guard` refuses what another site could
//! send: a `Host` that names another site (DNS rebinding), and any POST
//! whose `Origin` is not this server's or whose `Sec-Fetch-Site` says it
//! comes from another site, or that is not declared as JSON (so that no
//! HTML form or "simple" cross-origin request can change a game).

use super::App;
use super::db::Family;
use super::server::{self, ApiError, BODY_LIMIT, Method, Request, Response};
use super::store;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tower::ServiceBuilder;

/// The server's bounds.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// A request's head (request line and headers) must arrive within
    /// this; so must the next request on an idle keep-alive connection.
    pub header_read: Duration,
    /// A request's body must arrive within this.
    pub body_read: Duration,
    /// Longest a request may take to answer (a long poll takes 25 s).
    pub answer: Duration,
    /// Most requests answered at once; past it, 503 `busy`.
    pub requests: usize,
    /// Most event streams open at once; past it, 503 `busy`.
    pub streams: usize,
    /// Most connections open at once; past it a new one is closed.
    pub connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(10),
            answer: Duration::from_secs(40),
            requests: 1024,
            streams: 4096,
            connections: 20_000,
        }
    }
}

/// Largest request head, bytes (hyper's read buffer; past it, 431).
const HEAD_LIMIT: usize = 16 * 1024;

/// Most header lines.
const MAX_HEADERS: usize = 64;

/// Descriptors wanted: the connections held under the load the server is
/// sized for, and some for the database and the rest.
const DESCRIPTORS_WANTED: u64 = 8192;

/// What the handlers share.
#[derive(Clone)]
struct Shared {
    app: Arc<App>,
    bound: SocketAddr,
    streams: Arc<AtomicUsize>,
    limits: Limits,
}

/// Raises the soft limit on open descriptors to the hard limit; says on
/// stderr when that is below what `DESCRIPTORS_WANTED` asks. Returns
/// the limit in force.
pub fn raise_descriptor_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    let now: u64 = limit.rlim_cur;
    if now < DESCRIPTORS_WANTED {
        eprintln!(
            "antichess serve: at most {now} open files (connections) are allowed here, fewer \
             than the {DESCRIPTORS_WANTED} the server is sized for; raise it with `ulimit -n`"
        );
    }
    now
}

/// Serves `listener` until the process ends.
pub fn run(listener: TcpListener, bound: SocketAddr, app: Arc<App>) -> Result<(), String> {
    let mut limits = app.limits;
    let descriptors = raise_descriptor_limit();
    limits.connections = limits
        .connections
        .min(usize::try_from(descriptors.saturating_sub(64)).unwrap_or(usize::MAX))
        .max(16);
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen: {e}"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("web")
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    runtime.block_on(accept(listener, bound, app, limits))
}

async fn accept(
    listener: TcpListener,
    bound: SocketAddr,
    app: Arc<App>,
    limits: Limits,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::from_std(listener)
        .map_err(|e| format!("cannot listen on {bound}: {e}"))?;
    let shared = Shared {
        app,
        bound,
        streams: Arc::new(AtomicUsize::new(0)),
        limits,
    };
    let service = service(shared);
    let open = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors, say: wait for some to close.
                log::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if open.fetch_add(1, Ordering::AcqRel) >= limits.connections {
            open.fetch_sub(1, Ordering::AcqRel);
            drop(stream);
            continue;
        }
        // Answers are written whole; nothing is gained by waiting to merge.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(service.clone());
        let count = Arc::clone(&open);
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(limits.header_read)
                .max_buf_size(HEAD_LIMIT)
                .max_headers(MAX_HEADERS);
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
            count.fetch_sub(1, Ordering::AcqRel);
        });
    }
}

/// The handlers under their limits.
fn service(
    shared: Shared,
) -> impl tower::Service<
    axum::http::Request<hyper::body::Incoming>,
    Response = axum::response::Response,
    Error = Infallible,
    Future: Send,
> + Clone
+ Send
+ 'static {
    let limits = shared.limits;
    let router = axum::Router::new()
        .fallback(answer)
        .with_state(shared.clone())
        .layer(
            ServiceBuilder::new()
                .layer(axum::error_handling::HandleErrorLayer::new(overloaded))
                .load_shed()
                .layer(tower::limit::GlobalConcurrencyLimitLayer::new(
                    limits.requests,
                ))
                .layer(tower_http::timeout::TimeoutLayer::with_status_code(
                    StatusCode::SERVICE_UNAVAILABLE,
                    limits.answer,
                ))
                .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
                    limits.body_read,
                ))
                .layer(tower_http::limit::RequestBodyLimitLayer::new(BODY_LIMIT)),
        )
        .layer(axum::middleware::from_fn_with_state(shared, guard));
    router.into_service()
}

async fn overloaded(_: tower::BoxError) -> axum::response::Response {
    into_axum(ApiError::new(503, "busy", "too many requests at once; try again").into())
}

/// Whether the Host header names this server: a page of another site
/// that resolves its own name to 127.0.0.1 (DNS rebinding) is refused.
pub fn host_allowed(host: Option<&str>, bound: SocketAddr) -> bool {
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

/// Whether a request that changes something may come from where its
/// headers say it comes from: the same origin, or no browser at all.
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(site) = headers.get("sec-fetch-site") {
        // `none`: typed by the person; `same-origin`: our own page.
        if !matches!(site.as_bytes(), b"same-origin" | b"none") {
            return false;
        }
    }
    match headers.get(header::ORIGIN) {
        None => true,
        Some(origin) => {
            let (Ok(origin), Some(host)) = (origin.to_str(), text(header::HOST)) else {
                return false;
            };
            origin
                .strip_prefix("http://")
                .is_some_and(|authority| authority.eq_ignore_ascii_case(host))
        }
    }
}

/// Whether a content type is JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// The checks before any handler: the host, and for anything but a read,
/// the origin, the content type and the body's length.
async fn guard(
    State(shared): State<Shared>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let refusal = if !host_allowed(host, shared.bound) {
        Some(ApiError::new(
            403,
            "forbidden_host",
            "this server answers only to its own address (localhost or 127.0.0.1)",
        ))
    } else if !matches!(
        *request.method(),
        axum::http::Method::GET | axum::http::Method::HEAD
    ) {
        post_refusal(headers)
    } else {
        None
    };
    match refusal {
        Some(e) => into_axum(e.into()),
        None => next.run(request).await,
    }
}

fn post_refusal(headers: &HeaderMap) -> Option<ApiError> {
    if !origin_allowed(headers) {
        return Some(ApiError::new(
            403,
            "forbidden_origin",
            "a request from another site may not change a game",
        ));
    }
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return Some(ApiError::new(
            411,
            "length_required",
            "send the body with a Content-Length",
        ));
    }
    let length = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if length.is_some_and(|n| n > BODY_LIMIT as u64) {
        return Some(too_large());
    }
    if !is_json(headers) {
        return Some(ApiError::new(
            415,
            "unsupported_media_type",
            "send a POST as Content-Type: application/json, even with an empty body",
        ));
    }
    None
}

fn too_large() -> ApiError {
    ApiError::new(
        413,
        "too_large",
        format!("the body is over {} KiB", BODY_LIMIT / 1024),
    )
}

/// A handler's answer as HTTP.
fn into_axum(response: Response) -> axum::response::Response {
    let mut answer = axum::response::Response::new(Body::from(response.body));
    *answer.status_mut() =
        StatusCode::from_u16(response.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = answer.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(response.content_type),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    for (name, value) in response.headers {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    answer
}

/// The game a path names under `/api/FAMILY/games/ID[/TAIL]`.
fn game_path(path: &str) -> Option<(Family, &str, Option<&str>)> {
    let mut parts = path.split('/').filter(|s| !s.is_empty());
    let (api, family, games, id) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let tail = parts.next();
    if api != "api" || games != "games" || parts.next().is_some() {
        return None;
    }
    Some((Family::parse(family)?, id, tail))
}

/// What a wait on the game's next version watches, and for how long.
fn waiting(
    app: &App,
    family: Family,
    id: &str,
) -> Option<(tokio::sync::watch::Receiver<u64>, Duration)> {
    match family {
        Family::Chess => app.chess.waiting(id),
        Family::Checkers => app.checkers.waiting(id),
        Family::Chessforge => app.chessforge.waiting(id),
    }
}

/// Every request: read in full (within its limits), then the long poll's
/// wait if asked, then the handler on a blocking thread.
async fn answer(
    State(shared): State<Shared>,
    request: axum::extract::Request,
) -> axum::response::Response {
    let (parts, body) = request.into_parts();
    let method = match parts.method {
        axum::http::Method::GET | axum::http::Method::HEAD => Method::Get,
        axum::http::Method::POST => Method::Post,
        _ => Method::Other,
    };
    let path = parts.uri.path().to_string();
    let query = parts.uri.query().unwrap_or("").to_string();
    let body = match axum::body::to_bytes(body, BODY_LIMIT).await {
        Ok(bytes) => bytes.to_vec(),
        Err(e) => {
            let mut cause: Option<&dyn std::error::Error> = Some(&e);
            let mut too_long = false;
            while let Some(error) = cause {
                too_long |= error.to_string().contains("length limit");
                cause = error.source();
            }
            let refusal = if too_long {
                too_large()
            } else {
                ApiError::new(408, "timeout", "the body did not arrive whole in time")
            };
            return into_axum(refusal.into());
        }
    };
    let mut request = Request {
        method,
        path,
        query,
        body,
        json: is_json(&parts.headers),
    };
    let named = game_path(&request.path)
        .map(|(f, id, tail)| (f, id.to_string(), tail == Some("events"), tail.is_none()));
    if method == Method::Get
        && let Some((family, id, events_wanted, state_wanted)) = named
    {
        if events_wanted {
            return events(shared, family, id).await;
        }
        if state_wanted && let Err(e) = long_poll(&shared, family, &id, &mut request).await {
            return into_axum(e.into());
        }
    }
    let app = Arc::clone(&shared.app);
    let routed = move || store::watch_saves(|| server::route(&app, &request));
    match tokio::task::spawn_blocking(routed).await {
        Ok((_, true)) => into_axum(
            ApiError::new(
                500,
                "not_saved",
                "the change was made but could not be written to the database, so it may not survive a restart",
            )
            .into(),
        ),
        Ok((Ok(response), false)) => into_axum(response),
        Ok((Err(e), false)) => into_axum(e.into()),
        Err(e) => {
            log::error!("a handler failed: {e}");
            (StatusCode::INTERNAL_SERVER_ERROR, "the server failed").into_response()
        }
    }
}

/// `?after=V`: waits until the game's version is not `V` (or a clock
/// could fall, or the long poll's time is up), and takes `after` off the
/// query for the handler.
async fn long_poll(
    shared: &Shared,
    family: Family,
    id: &str,
    request: &mut Request,
) -> Result<(), ApiError> {
    let Some(after) = request.query_value("after") else {
        return Ok(());
    };
    let seen = after.parse::<u64>().map_err(|_| {
        ApiError::bad_field("'after' must be a version number from an earlier answer")
    })?;
    request.query = request
        .query
        .split('&')
        .filter(|pair| !pair.starts_with("after="))
        .collect::<Vec<_>>()
        .join("&");
    let (app, id) = (Arc::clone(&shared.app), id.to_string());
    let found = tokio::task::spawn_blocking(move || waiting(&app, family, &id))
        .await
        .ok()
        .flatten();
    // An unknown game: the handler says so.
    if let Some((mut watch, wait)) = found {
        let _ = tokio::time::timeout(wait, watch.wait_for(|&v| v != seen)).await;
    }
    Ok(())
}

/// Counts an open event stream; the count goes down when it closes.
struct StreamTicket(Arc<AtomicUsize>);

impl Drop for StreamTicket {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The state of game `id` now, if it is there: its JSON and version.
async fn render(app: &Arc<App>, family: Family, id: &str) -> Option<(String, u64)> {
    let request = Request {
        method: Method::Get,
        path: format!("/api/{}/games/{id}", family.name()),
        query: String::new(),
        body: Vec::new(),
        json: false,
    };
    let app = Arc::clone(app);
    let response = tokio::task::spawn_blocking(move || server::route(&app, &request))
        .await
        .ok()?
        .ok()?;
    let body = String::from_utf8(response.body).ok()?;
    let version = serde_json::from_str::<serde_json::Value>(&body).ok()?["version"].as_u64()?;
    Some((body, version))
}

/// `GET /api/FAMILY/games/ID/events`: server-sent events, one named
/// `state` with the game's state at once and whenever its version changes.
async fn events(shared: Shared, family: Family, id: String) -> axum::response::Response {
    if shared.streams.fetch_add(1, Ordering::AcqRel) >= shared.limits.streams {
        shared.streams.fetch_sub(1, Ordering::AcqRel);
        return into_axum(
            ApiError::new(503, "busy", "too many event streams open; try again").into(),
        );
    }
    let ticket = StreamTicket(Arc::clone(&shared.streams));
    let Some(first) = render(&shared.app, family, &id).await else {
        return into_axum(ApiError::unknown_game(&id).into());
    };
    let start = Follow {
        app: Arc::clone(&shared.app),
        family,
        id,
        first: Some(first.0),
        sent: first.1,
        _ticket: ticket,
    };
    let stream: std::pin::Pin<Box<dyn Stream<Item = Result<Event, Infallible>> + Send>> =
        Box::pin(stream::unfold(start, next_event));
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// An event stream's progress.
struct Follow {
    app: Arc<App>,
    family: Family,
    id: String,
    first: Option<String>,
    sent: u64,
    _ticket: StreamTicket,
}

async fn next_event(mut follow: Follow) -> Option<(Result<Event, Infallible>, Follow)> {
    if let Some(body) = follow.first.take() {
        return Some((Ok(Event::default().event("state").data(body)), follow));
    }
    loop {
        let (app, id) = (Arc::clone(&follow.app), follow.id.clone());
        let family = follow.family;
        let (mut watch, wait) = tokio::task::spawn_blocking(move || waiting(&app, family, &id))
            .await
            .ok()
            .flatten()?;
        let sent = follow.sent;
        let _ = tokio::time::timeout(wait, watch.wait_for(|&v| v != sent)).await;
        // Rendering looks at the clocks too: a flag falls here.
        let (body, version) = render(&follow.app, follow.family, &follow.id).await?;
        if version != follow.sent {
            follow.sent = version;
            return Some((Ok(Event::default().event("state").data(body)), follow));
        }
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

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn origins() {
        let host = ("host", "127.0.0.1:8080");
        assert!(origin_allowed(&headers(&[host])), "a script");
        assert!(origin_allowed(&headers(&[
            host,
            ("origin", "http://127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin")
        ])));
        assert!(!origin_allowed(&headers(&[
            host,
            ("origin", "http://evil.example")
        ])));
        assert!(!origin_allowed(&headers(&[host, ("origin", "null")])));
        assert!(!origin_allowed(&headers(&[
            host,
            ("origin", "http://127.0.0.1:8081")
        ])));
        assert!(!origin_allowed(&headers(&[
            host,
            ("sec-fetch-site", "cross-site")
        ])));
        assert!(!origin_allowed(&headers(&[
            host,
            ("sec-fetch-site", "same-site")
        ])));
    }

    #[test]
    fn game_paths() {
        assert_eq!(
            game_path("/api/chess/games/0123456789abcdef/events"),
            Some((Family::Chess, "0123456789abcdef", Some("events")))
        );
        assert_eq!(
            game_path("/api/checkers/games/x"),
            Some((Family::Checkers, "x", None))
        );
        assert_eq!(game_path("/api/chess/games"), None);
        assert_eq!(game_path("/api/go/games/x"), None);
        assert_eq!(game_path("/api/chess/games/x/move/more"), None);
    }
}
