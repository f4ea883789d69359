//! What the handlers see and answer, apart from HTTP: a [`Request`]
//! (method, path, query, body) read in full before any handler runs, a
//! [`Response`], and an [`ApiError`] that becomes a 4xx answer with a JSON
//! body. [`route`] sends a request to the page or game family it names;
//! the HTTP server itself (axum on hyper and tokio, with the limits and
//! the checks that keep other sites out) is [`super::net`].

use super::db::{Family, ListQuery, parse_cursor};
use super::store::{Guard, Shown, Slot};
use super::{App, assets};
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;

/// Largest request body accepted; a game file is a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

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
        [page] => match assets::page(page) {
            Some(html) => get(Response::bytes("text/html; charset=utf-8", html)),
            None => Err(ApiError::not_found(&req.path)),
        },
        ["api", "chess", "analysis"] => match req.method {
            Method::Post => {
                let body = super::body::Body(req.json_body()?);
                let job = super::analysis::Analyst::job_from(&body)?;
                Ok(Response::json(&app.analyst.analyse(job)?))
            }
            _ => Err(ApiError::method()),
        },
        ["api", "chess", rest @ ..] => super::chess::api(&app.chess, req, rest),
        ["api", "checkers", rest @ ..] => super::checkers::api(&app.checkers, req, rest),
        ["api", "chessforge", rest @ ..] => super::chessforge::api(&app.chessforge, req, rest),
        ["api", "games"] => match req.method {
            Method::Get => games_list(app, req),
            _ => Err(ApiError::method()),
        },
        _ => Err(ApiError::not_found(&req.path)),
    }
}

/// A POSTed action: `act` changes the game under its lock (or refuses),
/// the game gets a new version, `then` starts what follows (a machine to
/// move), and the answer is the state.
pub fn acted<G: Shown>(
    slot: &Arc<Slot<G>>,
    act: impl FnOnce(&mut Guard<'_, G>) -> Result<(), ApiError>,
    then: impl FnOnce(&Arc<Slot<G>>, &mut Guard<'_, G>),
) -> Result<Response, ApiError> {
    let mut game = slot.lock();
    act(&mut game)?;
    game.changed();
    then(slot, &mut game);
    Ok(Response::json(&G::state(&mut game)))
}

/// The answers every game family's API gives alike, after its own:
/// `GET games/ID` (the state), `GET games/ID/replay`, 405 for a method an
/// address does not take and 404 for an address there is not. `find`
/// gives the game an id names.
pub fn game_route<G: Shown>(
    req: &Request,
    rest: &[&str],
    find: impl FnOnce(&str) -> Result<Arc<Slot<G>>, ApiError>,
) -> Result<Response, ApiError> {
    match (req.method, rest) {
        (Method::Get, ["games", id]) => Ok(Response::json(&G::state(&mut find(id)?.lock()))),
        (Method::Get, ["games", id, "replay"]) => {
            let slot = find(id)?;
            let game = slot.lock();
            Ok(Response::json(&game.replay(slot.id())))
        }
        (_, ["games"] | ["games", _] | ["games", _, _]) => Err(ApiError::method()),
        _ => Err(ApiError::not_found(&req.path)),
    }
}

/// `GET /api/games`: stored games of every family, newest first, a page
/// at a time.
fn games_list(app: &App, req: &Request) -> Result<Response, ApiError> {
    let family = match req.query_value("family") {
        None => None,
        Some(word) => Some(Family::parse(word).ok_or_else(|| {
            ApiError::bad_field("'family' must be chess, checkers or chessforge")
        })?),
    };
    let playing = match req.query_value("status") {
        None => None,
        Some("playing") => Some(true),
        Some("over") => Some(false),
        Some(_) => return Err(ApiError::bad_field("'status' must be playing or over")),
    };
    let most = super::db::LIST_LIMIT;
    let limit = match req.query_value("limit") {
        None => 50,
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=most).contains(n))
            .ok_or_else(|| {
                ApiError::bad_field(format!("'limit' must be a number from 1 to {most}"))
            })?,
    };
    let before = match req.query_value("before") {
        None => None,
        Some(v) => Some(parse_cursor(v).ok_or_else(|| {
            ApiError::bad_field("'before' must be the 'next' of an earlier answer")
        })?),
    };
    let query = ListQuery {
        family,
        playing,
        limit,
        before,
    };
    let (games, next) = app.db.list(&query).map_err(|e| {
        log::error!("{e}");
        ApiError::new(503, "database", "the games cannot be read just now")
    })?;
    Ok(Response::json(&json!({"games": games, "next": next})))
}

#[cfg(test)]
mod tests {
    use super::*;

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
