//! The web board's ChessForge API on a real server: `chessforge play
//! --display` and `antichess serve` run on port 0 and the tests talk HTTP
//! to the address they print. A seeded game is struck to its end and
//! scored, and it is the game `chessforge play` deals for the same seed
//! and strikes; hints name a legal strike; every refusal answers 4xx with
//! the game unchanged.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

const ANTICHESS: &str = env!("CARGO_BIN_EXE_antichess");
const CHESSFORGE: &str = env!("CARGO_BIN_EXE_chessforge");

/// A server of our own, killed on drop.
struct Server {
    child: Child,
    addr: String,
    /// The page the server named in its first line, without the address.
    page: String,
}

impl Server {
    fn start(program: &str, args: &[&str]) -> Server {
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
        }
    }

    fn serve() -> Server {
        Server::start(ANTICHESS, &["serve", "--port", "0"])
    }

    /// Sends a request; the status and the body.
    fn send(&self, method: &str, path: &str, content_type: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A refused body may be left unread: the answer still comes.
        let _ = stream.write_all(body);
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        let text = String::from_utf8_lossy(&answer).into_owned();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, body.to_string())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, body) = self.send("GET", path, "text/plain", b"");
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, body) = self.send(
            "POST",
            path,
            "application/json",
            body.to_string().as_bytes(),
        );
        (status, serde_json::from_str(&body).unwrap_or(Value::Null))
    }

    fn new_game(&self, options: Value) -> Value {
        let (status, state) = self.post("/api/chessforge/games", &options);
        assert_eq!(status, 201, "{state}");
        state
    }

    fn state(&self, id: &str) -> Value {
        let (status, state) = self.get(&format!("/api/chessforge/games/{id}"));
        assert_eq!(status, 200, "{state}");
        state
    }

    fn act(&self, id: &str, action: &str, body: Value) -> (u16, Value) {
        self.post(&format!("/api/chessforge/games/{id}/{action}"), &body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn id(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

fn targets(state: &Value) -> Vec<String> {
    state["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// `chessforge play` with `input` typed; its output.
fn terminal(args: &[&str], input: &str) -> String {
    let mut child = Command::new(CHESSFORGE)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_seeded_game_struck_to_its_score_is_the_terminals_game() {
    let server = Server::serve();
    let mut state = server.new_game(json!({"seed": 5}));
    let game = id(&state);
    assert_eq!(
        (state["seed"].as_u64(), state["rules"].as_str()),
        (Some(5), Some("standard"))
    );
    assert_eq!(state["tiles"].as_array().unwrap().len(), 36);
    assert_eq!(
        state["tiles"][0]["square"], "a6",
        "screen order, rank 6 first"
    );
    assert_eq!(
        targets(&state).len(),
        36,
        "the first strike may go anywhere"
    );
    assert_eq!(state["first_strike"], true);
    let mut struck = Vec::new();
    while state["status"] == "playing" {
        let all = targets(&state);
        assert!(!all.is_empty());
        let square = all[struck.len() % all.len()].clone();
        let before = state["strikes"].as_u64().unwrap();
        let (status, after) = server.act(&game, "strike", json!({ "square": square }));
        assert_eq!(status, 200, "{after}");
        assert_eq!(after["strikes"].as_u64().unwrap(), before + 1);
        assert_eq!(after["last"]["square"], json!(square));
        let last = after["history"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(last["square"], json!(square));
        assert_eq!(last["number"].as_u64().unwrap(), before + 1);
        struck.push(square);
        state = after;
    }
    let score = &state["score"];
    assert_eq!(score["strikes"], state["strikes"]);
    assert_eq!(score["strikes"].as_u64().unwrap() as usize, struck.len());
    assert_eq!(score["of"], 108);
    assert_eq!(score["tiles_removed"], state["tiles_removed"]);
    assert!(
        score["text"]
            .as_str()
            .unwrap()
            .contains(&struck.len().to_string())
    );
    assert_eq!(state["targets"], json!([]));
    let gone = state["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["hits"] == 0)
        .count();
    assert_eq!(gone as u64, state["tiles_removed"].as_u64().unwrap());

    let (status, refused) = server.act(&game, "strike", json!({"square": "a1"}));
    assert_eq!((status, refused["code"].as_str()), (409, Some("game_over")));
    let (status, refused) = server.act(&game, "hint", json!({}));
    assert_eq!((status, refused["code"].as_str()), (409, Some("game_over")));

    // The terminal deals the same tiles for the same seed and strikes.
    let typed = struck.join("\n") + "\n";
    let out = terminal(&["--seed", "5"], &typed);
    assert!(!out.contains("Refused"), "{out}");
    assert!(
        out.contains(&format!("Game over after {} of 108 strikes", struck.len())),
        "{out}"
    );
}

#[test]
fn display_opens_the_command_lines_game() {
    let server = Server::start(
        CHESSFORGE,
        &[
            "play",
            "--display",
            "--port",
            "0",
            "--seed",
            "11",
            "--rules",
            "extra",
        ],
    );
    let game = server
        .page
        .strip_prefix("/chessforge?game=")
        .unwrap_or_else(|| panic!("page {}", server.page))
        .to_string();
    let (status, page) = server.send("GET", &server.page, "text/plain", b"");
    assert_eq!(status, 200);
    assert!(page.contains("chessforge.js"));
    let state = server.state(&game);
    assert_eq!(state["seed"], 11);
    assert_eq!(state["rules"], "extra");
    let board = state["board"].as_str().unwrap();
    let out = terminal(&["--seed", "11", "--rules", "extra"], "board\nquit\n");
    assert!(out.contains(board), "{board} in {out}");
}

#[test]
fn a_hint_names_a_legal_strike_and_a_strike_clears_it() {
    let server = Server::serve();
    let state = server.new_game(json!({"seed": 8, "rules": "extra"}));
    let game = id(&state);
    assert_eq!(state["hint"], Value::Null);
    let (status, first) = server.act(&game, "strike", json!({"square": "c3"}));
    assert_eq!(status, 200, "{first}");
    let (status, hinted) = server.act(&game, "hint", json!({}));
    assert_eq!(status, 200, "{hinted}");
    let hint = &hinted["hint"];
    let square = hint["square"].as_str().unwrap();
    assert!(targets(&hinted).contains(&square.to_string()), "{hinted}");
    assert!(hint["text"].as_str().unwrap().contains(square));
    let candidates = hint["candidates"].as_array().unwrap();
    assert!(!candidates.is_empty() && candidates.len() <= 3);
    assert_eq!(candidates[0]["square"], hint["square"]);
    assert_eq!(hinted["board"], first["board"], "a hint changes no tile");
    let (_, again) = server.act(&game, "hint", json!({}));
    assert_eq!(
        again["hint"], hinted["hint"],
        "asked again, the same advice"
    );
    let (status, after) = server.act(&game, "strike", json!({ "square": square }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["hint"], Value::Null);
}

#[test]
fn refusals_answer_4xx_and_change_nothing() {
    let server = Server::serve();
    let state = server.new_game(json!({"seed": 3}));
    let game = id(&state);
    let (_, state) = server.act(&game, "strike", json!({"square": "e1"}));
    let base = format!("/api/chessforge/games/{game}");
    let before = server.state(&game);
    let check = |status: u16, answer: &Value, want: u16, code: &str| {
        assert_eq!(status, want, "{answer}");
        assert_eq!(answer["code"], code, "{answer}");
        assert!(!answer["error"].as_str().unwrap().is_empty());
        assert_eq!(server.state(&game), before, "after {code}");
    };
    let unreachable = ["a1", "b2", "c3", "d4", "e5", "f6", "a6", "c4"]
        .into_iter()
        .find(|sq| !targets(&state).contains(&sq.to_string()))
        .unwrap();
    let (s, a) = server.act(&game, "strike", json!({ "square": unreachable }));
    check(s, &a, 422, "illegal_strike");
    assert!(
        a["error"].as_str().unwrap().contains("cannot be struck"),
        "{a}"
    );
    let (s, a) = server.act(&game, "strike", json!({"square": "z9"}));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.act(&game, "strike", json!({}));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.act(&game, "strike", json!({"square": 3}));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.act(&game, "undo", json!({}));
    check(s, &a, 404, "not_found");
    let (s, body) = server.send(
        "POST",
        &format!("{base}/strike"),
        "application/json",
        b"[1,",
    );
    check(s, &serde_json::from_str(&body).unwrap(), 400, "bad_json");
    let (s, body) = server.send("POST", &format!("{base}/strike"), "text/plain", b"c3");
    check(
        s,
        &serde_json::from_str(&body).unwrap(),
        415,
        "unsupported_media_type",
    );
    let big = vec![b' '; 70 * 1024];
    let (s, body) = server.send("POST", &format!("{base}/strike"), "application/json", &big);
    check(s, &serde_json::from_str(&body).unwrap(), 413, "too_large");
    let (s, body) = server.send("GET", &format!("{base}/strike"), "text/plain", b"");
    check(
        s,
        &serde_json::from_str(&body).unwrap(),
        405,
        "method_not_allowed",
    );
    let (s, a) = server.get("/api/chessforge/games/fedcba9876543210");
    check(s, &a, 404, "unknown_game");
    let (s, a) = server.act("x", "hint", json!({}));
    check(s, &a, 404, "unknown_game");

    for options in [
        json!({"rules": "chess"}),
        json!({"rules": 1}),
        json!({"seed": -3}),
        json!({"seed": 1.5}),
        json!({"seed": 9_007_199_254_740_992u64}),
    ] {
        let (status, answer) = server.post("/api/chessforge/games", &options);
        assert_eq!(status, 400, "{options}: {answer}");
        assert_eq!(answer["code"], "bad_request", "{options}: {answer}");
    }
}
