//! The web board's ChessForge API on a real server: `chessforge play
//! --display` and `antichess serve` run on port 0 and the tests talk HTTP
//! to the address they print. A seeded game is struck to its end and
//! scored, and it is the game `chessforge play` deals for the same seed
//! and strikes; hints name a legal strike; every refusal answers 4xx with
//! the game unchanged.

mod common;

use common::web::{Server, id};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

const CHESSFORGE: &str = env!("CARGO_BIN_EXE_chessforge");

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
    let server = Server::serve("chessforge");
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
        "chessforge",
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
    let server = Server::serve("chessforge");
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
    let server = Server::serve("chessforge");
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
