//! A web server of our own for the web tests: started on port 0, spoken
//! to over plain HTTP/1.1 (one connection a request), killed on drop.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

pub const ANTICHESS: &str = env!("CARGO_BIN_EXE_antichess");

/// A server, and the game family whose API the helpers speak.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The page the server named in its first line, without the address.
    pub page: String,
    /// `/api/FAMILY/games`.
    games: String,
}

impl Server {
    /// Runs `program args`, which prints the page's address on its first
    /// line; the helpers speak `family`'s API (`chess`, `checkers`, ...).
    pub fn start(program: &str, args: &[&str], family: &str) -> Server {
        let mut child = Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("cannot start the server");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let rest = line
            .trim()
            .strip_prefix("http://")
            .unwrap_or_else(|| panic!("address line: {line}"));
        let (addr, page) = rest.split_once('/').unwrap();
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        Server {
            child,
            addr: addr.to_string(),
            page: format!("/{page}"),
            games: format!("/api/{family}/games"),
        }
    }

    /// `antichess serve --port 0`, speaking `family`'s API.
    pub fn serve(family: &str) -> Server {
        Server::start(
            ANTICHESS,
            &["serve", "--port", "0", "--db", ":memory:"],
            family,
        )
    }

    /// Sends `request` as it is; the status, the head and the body.
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream.write_all(request).unwrap();
        read_answer(stream)
    }

    /// A bare GET, as a browser sends one; the status, the head and the body.
    pub fn get_raw(&self, path: &str) -> (u16, String, String) {
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        self.raw(request.as_bytes())
    }

    /// A request with a body; the status, the head and the body.
    pub fn send_with_head(
        &self,
        method: &str,
        path: &str,
        content_type: &str,
        body: &[u8],
    ) -> (u16, String, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A refused body may be left unread: the answer still comes.
        let _ = stream.write_all(body);
        read_answer(stream)
    }

    /// A request with a body; the status and the body.
    pub fn send(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
        let (status, _, body) = self.send_with_head(method, path, content_type, body);
        (status, body)
    }

    /// A GET whose answer must be JSON.
    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.send("GET", path, "text/plain", b"");
        (
            status,
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {status} {body}")),
        )
    }

    /// A POST of `body` as JSON; the answer, `null` where it is not JSON.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, body) = self.send(
            "POST",
            path,
            "application/json",
            body.to_string().as_bytes(),
        );
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    /// A new game; panics unless the server makes it.
    pub fn new_game(&self, options: Value) -> Value {
        let (status, state) = self.post(&self.games, &options);
        assert_eq!(status, 201, "{state}");
        state
    }

    /// The game's state; panics unless the server has it.
    pub fn state(&self, id: &str) -> Value {
        let (status, state) = self.get(&format!("{}/{id}", self.games));
        assert_eq!(status, 200, "{state}");
        state
    }

    /// The game once its version is past `version` (a long poll).
    pub fn next(&self, id: &str, version: u64) -> Value {
        let (status, state) = self.get(&format!("{}/{id}?after={version}", self.games));
        assert_eq!(status, 200, "{state}");
        state
    }

    /// POSTs `body` to the game's `action`.
    pub fn act(&self, id: &str, action: &str, body: Value) -> (u16, Value) {
        self.post(&format!("{}/{id}/{action}", self.games), &body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The status, head and body of the answer on `stream`.
fn read_answer(mut stream: TcpStream) -> (u16, String, String) {
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let text = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

/// The game's id.
pub fn id(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

/// The game's version.
pub fn version(state: &Value) -> u64 {
    state["version"].as_u64().unwrap()
}

/// What a refused request must leave as it was in a chess game (the
/// clocks run on).
pub fn essence(state: &Value) -> Value {
    json!([
        state["version"],
        state["board"],
        state["history"],
        state["to_move"],
        state["status"],
        state["players"]["white"]["player"],
        state["players"]["black"]["player"],
        state["players"]["white"]["name"],
        state["rules"],
    ])
}
