//! The web board's checkers API on a real server: `checkers --display`
//! and `antichess serve` run on port 0 and the tests talk HTTP to the
//! address they print. A game against the machine is played to its end
//! and its transcript downloaded and read back; draw offers are made,
//! rejected and accepted, a game resigned; the command line's seed, level
//! and transcript are honoured (the web game between two machines is the
//! terminal's game, move for move); and every refusal answers 4xx with
//! the game unchanged. Waits are for answers, never for a length of time.

mod common;

use common::web::{Server, id};
use serde_json::{Value, json};
use std::process::{Command, Stdio};

const CHECKERS: &str = env!("CARGO_BIN_EXE_checkers");

/// Plays `entry` (a move or a special move), which must be taken.
fn play(server: &Server, id: &str, entry: &str) -> Value {
    let (status, state) = server.act(id, "move", json!({ "move": entry }));
    assert_eq!(status, 200, "{entry}: {state}");
    state
}

/// Waits (by long polls) until the game is over or a person is to act.
fn settle(server: &Server, mut state: Value) -> Value {
    for _ in 0..10_000 {
        let to_act = state["to_act"].as_str();
        let human = to_act.is_some_and(|c| state["players"][c]["player"] == "human");
        if state["status"] != "playing" || human {
            return state;
        }
        state = server.next(&id(&state), state["version"].as_u64().unwrap());
    }
    panic!("the game did not settle: {state}");
}

/// What must not change when a request is refused.
fn essence(state: &Value) -> Value {
    json!([
        state["version"],
        state["squares"],
        state["transcript"],
        state["to_act"],
        state["status"],
        state["draw_offered"],
    ])
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("web_checkers_{}_{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_game_against_the_machine_to_its_end_and_its_transcript() {
    let server = Server::serve("checkers");
    let mut state = server.new_game(json!({"black": "human", "white": "level:1", "seed": 3}));
    assert_eq!(state["seed"], 3);
    assert_eq!(state["players"]["white"]["player"], "level:1");
    let game = id(&state);
    let mut turns = 0;
    while turns < 400 {
        state = settle(&server, state);
        if state["status"] != "playing" {
            break;
        }
        turns += 1;
        if state["draw_offered"] == true {
            state = play(&server, &game, "reject");
            continue;
        }
        let moves = state["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "a person to move has moves: {state}");
        let chosen = &moves[turns % moves.len()];
        let path = chosen["path"].as_array().unwrap();
        let text: Vec<String> = path.iter().map(|n| n.to_string()).collect();
        assert_eq!(chosen["move"].as_str().unwrap(), text.join("-"));
        let before = state["transcript"].as_str().unwrap().len();
        state = play(&server, &game, chosen["move"].as_str().unwrap());
        assert_eq!(state["last_move"]["move"], chosen["move"]);
        assert_eq!(state["last_move"]["side"], "black");
        assert!(state["transcript"].as_str().unwrap().len() > before);
    }
    if state["status"] == "playing" {
        state = play(&server, &game, "resign");
    }
    assert_eq!(state["status"], "over", "{state}");
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["to_act"], Value::Null);
    let result = &state["result"];
    assert!(
        ["no-moves", "resigned", "agreed"].contains(&result["reason"].as_str().unwrap()),
        "{result}"
    );
    let transcript = state["transcript"].as_str().unwrap().to_string();
    assert!(transcript.starts_with("1. "), "{transcript}");
    assert_eq!(
        transcript.lines().last(),
        result["score"].as_str(),
        "the score ends the transcript"
    );

    // The download is the transcript, and it reads back as the same game.
    let (status, head, body) = server.send_with_head(
        "GET",
        &format!("/api/checkers/games/{game}/transcript"),
        "text/plain",
        b"",
    );
    assert_eq!(status, 200);
    assert!(head.contains("attachment"), "{head}");
    assert_eq!(body, transcript);
    let again = server.new_game(json!({"init": transcript, "black": "human", "white": "human"}));
    assert_eq!(again["transcript"], state["transcript"]);
    assert_eq!(again["result"]["score"], result["score"]);
    assert_eq!(again["squares"], state["squares"]);
    let (status, refused) = server.act(&game, "move", json!({"move": "11-15"}));
    assert_eq!((status, refused["code"].as_str()), (409, Some("game_over")));
}

#[test]
fn draw_offers_rejected_and_accepted_between_two_people() {
    let server = Server::serve("checkers");
    let state = server.new_game(json!({"black": "human", "white": "human"}));
    let game = id(&state);
    assert_eq!(state["may_offer_draw"], true);
    play(&server, &game, "11-15");
    let offered = play(&server, &game, "draw");
    assert_eq!(offered["draw_offered"], true);
    assert_eq!(offered["to_act"], "black", "the other side answers");
    assert_eq!(
        offered["moves"],
        json!([]),
        "no move while a draw is on offer"
    );
    assert_eq!(offered["last_action"]["text"], "white offers a draw");
    // Only accept or reject may answer.
    for (entry, code) in [("9-13", "draw_pending"), ("resign", "draw_pending")] {
        let (status, refused) = server.act(&game, "move", json!({ "move": entry }));
        assert_eq!(
            (status, refused["code"].as_str()),
            (409, Some(code)),
            "{entry}"
        );
        assert_eq!(essence(&server.state(&game)), essence(&offered));
    }
    let (status, rejected) = server.act(&game, "reject", json!({}));
    assert_eq!(status, 200, "{rejected}");
    assert_eq!(rejected["draw_offered"], false);
    assert_eq!(
        rejected["to_act"], "white",
        "the offerer moves after a rejection"
    );
    assert_eq!(rejected["may_offer_draw"], false);
    let (status, refused) = server.act(&game, "draw", json!({}));
    assert_eq!(
        (status, refused["code"].as_str()),
        (409, Some("offer_after_reject"))
    );
    assert_eq!(essence(&server.state(&game)), essence(&rejected));
    play(&server, &game, "24-20");
    play(&server, &game, "draw");
    let (status, over) = server.act(&game, "accept", json!({}));
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["status"], "over");
    assert_eq!(over["result"]["score"], "1/2-1/2");
    assert_eq!(over["result"]["reason"], "agreed");
    assert_eq!(
        over["transcript"],
        "1. 11-15 draw\n1. reject 24-20\n2. draw accept\n1/2-1/2\n"
    );
}

#[test]
fn resigning_and_offering_the_machine_a_draw() {
    let server = Server::serve("checkers");
    let state = server.new_game(json!({"black": "human", "white": "level:2"}));
    let game = id(&state);
    let (status, over) = server.act(&game, "resign", json!({}));
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["result"]["score"], "0-1");
    assert_eq!(over["result"]["reason"], "resigned");
    assert_eq!(over["result"]["winner"], "white");
    assert_eq!(over["transcript"], "1. resign\n0-1\n");

    // The machine answers an offer by itself, one way or the other.
    let state = server.new_game(json!({"black": "human", "white": "level:2"}));
    let game = id(&state);
    let offered = play(&server, &game, "draw");
    let answered = settle(&server, offered);
    let answer = answered["last_action"]["action"].as_str().unwrap();
    assert!(["accept", "reject"].contains(&answer), "{answered}");
    assert_eq!(answered["last_action"]["side"], "white");
    if answer == "reject" {
        assert_eq!(answered["to_act"], "black");
        assert_eq!(answered["may_offer_draw"], false);
    } else {
        assert_eq!(answered["result"]["score"], "1/2-1/2");
    }
}

#[test]
fn display_plays_the_command_lines_game() {
    let dir = scratch("display");
    let web_file = dir.join("web.txt");
    let terminal_file = dir.join("terminal.txt");
    let common = ["--player1=auto", "--white", "--seed=42", "--level=2"];

    let terminal = Command::new(CHECKERS)
        .args(common)
        .arg(format!("--transcript={}", terminal_file.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(terminal.status.success(), "{terminal:?}");

    let mut args: Vec<String> = common.iter().map(|s| s.to_string()).collect();
    args.extend([
        "--display".into(),
        "--listen=127.0.0.1:0".into(),
        format!("--transcript={}", web_file.display()),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let server = Server::start(CHECKERS, &args, "checkers");
    let game = server
        .page
        .strip_prefix("/checkers?game=")
        .unwrap_or_else(|| panic!("page {}", server.page))
        .to_string();
    let (status, _, page) = server.send_with_head("GET", &server.page, "text/plain", b"");
    assert_eq!(status, 200);
    assert!(page.contains("checkers.js"));
    let state = server.state(&game);
    assert_eq!(state["seed"], 42);
    assert_eq!(state["players"]["white"]["player"], "level:2");
    assert_eq!(state["players"]["black"]["player"], "level:2");
    let over = settle(&server, state);
    assert_eq!(over["status"], "over");
    let expected = std::fs::read_to_string(&terminal_file).unwrap();
    assert_eq!(
        over["transcript"], expected,
        "the terminal's game, move for move"
    );
    assert_eq!(std::fs::read_to_string(&web_file).unwrap(), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn display_puts_the_person_on_the_chosen_side() {
    let server = Server::start(
        CHECKERS,
        &[
            "--display",
            "--listen=127.0.0.1:0",
            "--white",
            "--level=1",
            "--seed=9",
        ],
        "checkers",
    );
    let game = server
        .page
        .strip_prefix("/checkers?game=")
        .unwrap()
        .to_string();
    let state = settle(&server, server.state(&game));
    assert_eq!(state["players"]["white"]["player"], "human");
    assert_eq!(state["players"]["black"]["player"], "level:1");
    assert_eq!(state["to_act"], "white", "the machine, Black, has moved");
    assert_eq!(state["last_move"]["side"], "black");
    assert!(
        state["last_move"]["text"]
            .as_str()
            .unwrap()
            .starts_with("black ")
    );

    let refused = Command::new(CHECKERS)
        .args(["--display", "--player2=game"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--player2"));
}

#[test]
fn refusals_answer_4xx_and_change_nothing() {
    let server = Server::serve("checkers");
    let state = server.new_game(json!({"black": "human", "white": "human"}));
    let game = id(&state);
    let base = format!("/api/checkers/games/{game}");
    let before = essence(&state);
    let check = |status: u16, answer: &Value, want: u16, code: &str| {
        assert_eq!(status, want, "{answer}");
        assert_eq!(answer["code"], code, "{answer}");
        assert!(!answer["error"].as_str().unwrap().is_empty());
        assert_eq!(essence(&server.state(&game)), before, "after {code}");
    };

    let (s, a) = server.act(&game, "move", json!({"move": "11-14"}));
    check(s, &a, 422, "illegal_move");
    assert!(a["error"].as_str().unwrap().contains("11-15"), "{a}");
    let (s, a) = server.act(&game, "move", json!({"move": "22-18"}));
    check(s, &a, 422, "illegal_move");
    assert!(
        a["error"]
            .as_str()
            .unwrap()
            .contains("no black piece on 22"),
        "{a}"
    );
    let (s, a) = server.act(&game, "move", json!({"move": "e2-e4"}));
    check(s, &a, 422, "unreadable_move");
    let (s, a) = server.act(&game, "move", json!({}));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.act(&game, "move", json!({"move": 1115}));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.act(&game, "accept", json!({}));
    check(s, &a, 409, "no_draw_offered");
    let (s, a) = server.act(&game, "castle", json!({}));
    check(s, &a, 404, "not_found");
    let (s, _, body) = server.send_with_head(
        "POST",
        &format!("{base}/move"),
        "application/json",
        b"{\"move\":",
    );
    check(s, &serde_json::from_str(&body).unwrap(), 400, "bad_json");
    let (s, _, body) =
        server.send_with_head("POST", &format!("{base}/move"), "text/plain", b"11-15");
    check(
        s,
        &serde_json::from_str(&body).unwrap(),
        415,
        "unsupported_media_type",
    );
    let big = vec![b' '; 70 * 1024];
    let (s, _, body) =
        server.send_with_head("POST", &format!("{base}/move"), "application/json", &big);
    check(s, &serde_json::from_str(&body).unwrap(), 413, "too_large");
    let (s, _, body) = server.send_with_head("GET", &format!("{base}/move"), "text/plain", b"");
    check(
        s,
        &serde_json::from_str(&body).unwrap(),
        405,
        "method_not_allowed",
    );
    let (s, a) = server.get(&format!("{base}?after=soon"));
    check(s, &a, 400, "bad_request");
    let (s, a) = server.get("/api/checkers/games/0123456789abcdef");
    check(s, &a, 404, "unknown_game");
    let (s, a) = server.act("nonsense", "move", json!({"move": "11-15"}));
    check(s, &a, 404, "unknown_game");

    // New games with bad options are refused and make nothing.
    for (options, code) in [
        (json!({"black": "robot"}), "bad_request"),
        (json!({"white": "level:99"}), "bad_request"),
        (json!({"seed": -1}), "bad_request"),
        (json!({"seed": "7"}), "bad_request"),
        (
            json!({"init": "1. 11-15 24-20\n2. 8-11 24-19\n"}),
            "bad_transcript",
        ),
    ] {
        let (status, answer) = server.post("/api/checkers/games", &options);
        assert!((400..500).contains(&status), "{options}: {answer}");
        assert_eq!(answer["code"], code, "{options}: {answer}");
    }
    let (_, answer) = server.post(
        "/api/checkers/games",
        &json!({"init": "1. 11-15 24-20\n2. 8-11 24-19"}),
    );
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("line 2, at `24-19`"),
        "{answer}"
    );

    // A person cannot act for the machine.
    let machines = server.new_game(json!({"black": "level:0", "white": "level:0"}));
    let (status, answer) = server.act(&id(&machines), "resign", json!({}));
    assert_eq!(
        (status, answer["code"].as_str()),
        (409, Some("not_your_turn"))
    );
}
