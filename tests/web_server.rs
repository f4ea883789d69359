//! The web server as a whole, on a real server on port 0: games survive a
//! `kill -9` and a restart on the same database, another site cannot
//! change a game, bodies over the limit, junk and a head that never ends
//! are refused while others play on, a database of the first schema is
//! migrated, the games list pages, and the replay, PGN, game file and
//! event stream say what the game is.

mod common;

use common::web::{ANTICHESS, Server, essence, id, version};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

/// A fresh folder for one test's database.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("antichess-web-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn serve_on(db: &str, family: &str, extra: &[&str]) -> Server {
    let mut args = vec!["serve", "--port", "0", "--db", db];
    args.extend_from_slice(extra);
    Server::start(ANTICHESS, &args, family)
}

fn clock(state: &Value, side: &str) -> u64 {
    state["players"][side]["clock_ms"].as_u64().unwrap()
}

/// A chess game's PGN, which must come as a download.
fn download_pgn(server: &Server, game: &str) -> String {
    let path = format!("/api/chess/games/{game}/pgn");
    let (status, head, pgn) = server.send_with_head("GET", &path, "text/plain", b"");
    assert_eq!(status, 200, "{pgn}");
    assert!(head.to_ascii_lowercase().contains("attachment"), "{head}");
    pgn
}

/// Waits (long polls) until a person is to act in a checkers game.
fn checkers_settle(server: &Server, mut state: Value) -> Value {
    for _ in 0..1000 {
        let actor = state["to_act"].as_str();
        if actor.is_none_or(|side| state["players"][side]["player"] == "human") {
            return state;
        }
        let path = format!(
            "/api/checkers/games/{}?after={}",
            id(&state),
            version(&state)
        );
        state = server.get(&path).1;
    }
    panic!("the machine did not move: {state}");
}

#[test]
fn games_survive_kill_9_and_a_restart() {
    let dir = scratch("restart");
    let db = dir.join("games.sqlite3");
    let db = db.to_str().unwrap();
    let (chess, chess_before, checkers, checkers_before);
    {
        let server = serve_on(db, "chess", &[]);
        let state = server.new_game(json!({
            "white": "human", "black": "human", "time_ms": 600_000,
            "white_name": "Ada", "seed": 17
        }));
        chess = id(&state);
        for mv in ["e2-e3", "b7-b6", "f1-a6"] {
            std::thread::sleep(Duration::from_millis(30));
            let (status, body) = server.act(&chess, "move", json!({"move": mv}));
            assert_eq!(status, 200, "{body}");
        }
        chess_before = server.state(&chess);
        let (status, state) = server.post(
            "/api/checkers/games",
            &json!({"white": "level:1", "seed": 3}),
        );
        assert_eq!(status, 201, "{state}");
        checkers = id(&state);
        let (status, state) = server.post(
            &format!("/api/checkers/games/{checkers}/move"),
            &json!({"move": "11-15"}),
        );
        assert_eq!(status, 200, "{state}");
        let state = checkers_settle(&server, state);
        assert_eq!(
            state["transcript"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .count(),
            3
        );
        checkers_before = state;
        // Dropping the server kills it with SIGKILL: no chance to tidy up.
    }
    let server = serve_on(db, "chess", &[]);
    let after = server.state(&chess);
    assert_eq!(after["history"], chess_before["history"]);
    assert_eq!(after["board"], chess_before["board"]);
    assert_eq!(after["players"]["white"]["name"], "Ada");
    assert_eq!(after["seed"], 17);
    // White moved last: its clock stopped then and is exactly as it was;
    // Black's resumes from what it showed at the last write.
    assert_eq!(clock(&after, "white"), clock(&chess_before, "white"));
    let replay = server.get(&format!("/api/chess/games/{chess}/replay")).1;
    let positions = replay["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 4);
    let written = positions[3]["clock_ms"]["black"].as_u64().unwrap();
    assert!(clock(&after, "black") <= written, "{after}");
    assert!(
        written - clock(&after, "black") < 5_000,
        "downtime is not charged: {after}"
    );
    assert!(written >= clock(&chess_before, "black"));
    assert!(positions[1]["clock_ms"]["white"].as_u64().unwrap() < 600_000);
    assert_eq!(positions[1]["clock_ms"]["black"], 600_000);

    let back = server.get(&format!("/api/checkers/games/{checkers}")).1;
    assert_eq!(back["transcript"], checkers_before["transcript"]);
    assert_eq!(back["squares"], checkers_before["squares"]);
    assert_eq!(back["players"]["white"]["player"], "level:1");
    // The game goes on after the restart.
    let legal = back["moves"][0]["move"].as_str().unwrap().to_string();
    let (status, moved) = server.post(
        &format!("/api/checkers/games/{checkers}/move"),
        &json!({"move": legal}),
    );
    assert_eq!(status, 200, "{moved}");

    let (status, list) = server.get("/api/games");
    assert_eq!(status, 200);
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&chess.as_str()) && ids.contains(&checkers.as_str()),
        "{list}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_site_cannot_change_a_game() {
    let server = serve_on(":memory:", "chess", &[]);
    let state = server.new_game(json!({"white": "human", "black": "human"}));
    let game = id(&state);
    let before = essence(&server.state(&game));
    let body = br#"{"move": "e2-e3"}"#;
    let path = format!("/api/chess/games/{game}/move");
    let cases: [(&str, &str); 4] = [
        ("Origin: http://evil.example\r\n", "application/json"),
        ("Origin: null\r\n", "application/json"),
        ("Sec-Fetch-Site: cross-site\r\n", "application/json"),
        (
            "Origin: http://evil.example\r\nSec-Fetch-Site: cross-site\r\n",
            "text/plain",
        ),
    ];
    for (headers, content_type) in cases {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\n{headers}Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            server.addr,
            body.len()
        );
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body);
        let (status, _, answer) = server.raw(&bytes);
        assert_eq!(status, 403, "{headers}: {answer}");
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(answer["code"], "forbidden_origin");
    }
    assert_eq!(essence(&server.state(&game)), before);
    // The "simple" request of the issue: text/plain, empty, no Origin.
    let (status, answer) = server.send("POST", "/api/chess/games", "text/plain", b"");
    assert_eq!(status, 415, "{answer}");
    let (_, list) = server.get("/api/games");
    assert_eq!(
        list["games"].as_array().unwrap().len(),
        1,
        "no game was made"
    );
    // The page's own request passes.
    let own = format!(
        "POST {path} HTTP/1.1\r\nHost: {a}\r\nOrigin: http://{a}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        body.len(),
        String::from_utf8_lossy(body),
        a = server.addr,
    );
    assert_eq!(server.raw(own.as_bytes()).0, 200);
    // One spelling per id.
    let upper = server.get(&format!("/api/chess/games/{}", game.to_uppercase()));
    assert!(game == game.to_uppercase() || upper.0 == 404, "{upper:?}");
    let plus = server.get(&format!("/api/chess/games/+{}", &game[1..]));
    assert_eq!(plus.0, 404);
}

#[test]
fn oversized_bodies_junk_and_endless_heads_are_refused_while_others_play() {
    let server = serve_on(":memory:", "chess", &["--header-timeout-ms", "1500"]);
    let game = id(&server.new_game(json!({"white": "human", "black": "human"})));
    // A head that never ends, and one request line with nothing after.
    let mut endless = TcpStream::connect(&server.addr).unwrap();
    endless
        .write_all(format!("GET /chess HTTP/1.1\r\nHost: {}\r\nX-Slow: a", server.addr).as_bytes())
        .unwrap();
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    // Meanwhile the game is played.
    let (status, _) = server.act(&game, "move", json!({"move": "e2-e3"}));
    assert_eq!(status, 200);
    // Bodies over 64 KiB, declared or not.
    let big = vec![b' '; 70 * 1024];
    let (status, answer) = server.send(
        "POST",
        &format!("/api/chess/games/{game}/move"),
        "application/json",
        &big,
    );
    assert_eq!(status, 413, "{answer}");
    // Junk.
    let (status, _, _) = server.raw(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03junk\r\n\r\n");
    assert_eq!(status, 400);
    let (status, _, _) = server.raw(b"\x00\x01\x02\x03\xff\xfe\r\n\r\n");
    assert_eq!(status, 400);
    // The endless head is cut off within the timeout (a read ends).
    endless
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut rest = Vec::new();
    let _ = endless.read_to_end(&mut rest);
    half.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let _ = half.read_to_end(&mut rest);
    let state = server.state(&game);
    assert_eq!(state["history"], json!(["e2-e3"]));
}

/// The first schema, as a database written then holds it.
const SCHEMA_V1: &str = "CREATE TABLE games (
    id TEXT PRIMARY KEY, family TEXT NOT NULL, created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL, version INTEGER NOT NULL,
    summary TEXT NOT NULL, record TEXT NOT NULL);
PRAGMA user_version = 1;";

#[test]
fn a_database_of_the_first_schema_is_migrated() {
    let dir = scratch("migrate");
    let path = dir.join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(SCHEMA_V1).unwrap();
        let record = json!({
            "rules": "antichess",
            "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "start_ms": [300000, 300000],
            "moves": [["e2e3", 299000, 300000], ["b7b6", 299000, 298000]],
            "seats": ["human", "human"],
            "names": ["Old", null],
            "seed": 9,
            "clocks_ms": [299000, 298000],
            "ending": null
        });
        let summary = json!({
            "rules": "antichess", "status": "playing", "result": null, "plies": 2,
            "white": {"name": "Old", "player": "human"},
            "black": {"name": "Black player", "player": "human"}
        });
        conn.execute(
            "INSERT INTO games VALUES ('00000000000abcde', 'chess', 1700000000000, 1700000001000, 5, ?1, ?2)",
            [summary.to_string(), record.to_string()],
        )
        .unwrap();
    }
    let server = serve_on(path.to_str().unwrap(), "chess", &[]);
    let (status, list) = server.get("/api/games?status=playing&family=chess");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["games"][0]["id"], "00000000000abcde");
    assert_eq!(list["games"][0]["created"], "2023-11-14T22:13:20Z");
    let state = server.state("00000000000abcde");
    assert_eq!(state["history"], json!(["e2-e3", "b7-b6"]));
    assert_eq!(state["players"]["white"]["name"], "Old");
    // Black's clock stands as written; White's, to move, runs on from it.
    assert_eq!(clock(&state, "black"), 298_000);
    assert!(
        (290_000..=299_000).contains(&clock(&state, "white")),
        "{state}"
    );
    drop(server);
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 2);
    // A database from a newer version is refused with a reason.
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let out = std::process::Command::new(ANTICHESS)
        .args(["serve", "--port", "0", "--db", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("newer"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_list_pages_and_a_finished_game_exports() {
    let server = serve_on(":memory:", "chess", &[]);
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(id(
            &server.new_game(json!({"white": "human", "black": "human"}))
        ));
    }
    let game = ids[2].clone();
    for mv in ["e2-e3", "b7-b6"] {
        assert_eq!(server.act(&game, "move", json!({"move": mv})).0, 200);
    }
    assert_eq!(server.act(&game, "resign", json!({"side": "white"})).0, 200);
    let (_, first) = server.get("/api/games?family=chess&limit=2");
    assert_eq!(first["games"].as_array().unwrap().len(), 2);
    let next = first["next"].as_str().unwrap();
    let (_, second) = server.get(&format!("/api/games?family=chess&limit=2&before={next}"));
    assert_eq!(second["games"].as_array().unwrap().len(), 1);
    assert_eq!(second["next"], Value::Null);
    let (_, over) = server.get("/api/games?status=over");
    let over = over["games"].as_array().unwrap();
    assert_eq!(over.len(), 1);
    assert_eq!(over[0]["id"], game.as_str());
    assert_eq!(over[0]["plies"], 2);
    assert_eq!(over[0]["result"]["reason"], "resigned");
    assert_eq!(over[0]["result"]["score"], "0-1");
    for bad in [
        "family=go",
        "status=won",
        "limit=0",
        "limit=101",
        "before=x",
    ] {
        let (status, body) = server.get(&format!("/api/games?{bad}"));
        assert_eq!(
            (status, body["code"].as_str()),
            (400, Some("bad_request")),
            "{bad}"
        );
    }
    let pgn = download_pgn(&server, &game);
    assert!(pgn.contains("[Variant \"antichess\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("1. e3 {[%clk "), "{pgn}");
    assert!(pgn.contains("resigned"), "{pgn}");
    let (status, file) = server.send(
        "GET",
        &format!("/api/chess/games/{game}/file?ply=1"),
        "text/plain",
        b"",
    );
    assert_eq!(status, 200);
    assert!(file.starts_with("black\n"), "{file}");
    assert!(file.contains("----P---"), "{file}");
    assert_eq!(
        server.get(&format!("/api/chess/games/{game}/file?ply=3")).0,
        400
    );
    // A game with no move yet: the tags, and movetext of only `*`.
    let pgn = download_pgn(&server, &ids[0]);
    assert!(pgn.contains("[Result \"*\"]\n"), "{pgn}");
    assert!(pgn.ends_with("[PlyCount \"0\"]\n\n*\n\n"), "{pgn}");
}

/// lichess's export of a game being played: the moves so far, each with
/// its clock, and PGN's result of a game in progress, `*`, with no ending.
#[test]
fn a_game_being_played_exports_its_pgn_so_far() {
    let server = serve_on(":memory:", "chess", &[]);
    let state = server.new_game(json!({
        "rules": "chess", "white": "human", "black": "human", "white_name": "Ada"
    }));
    let game = id(&state);
    for mv in ["e2-e4", "c7-c5", "g1-f3"] {
        assert_eq!(server.act(&game, "move", json!({"move": mv})).0, 200);
    }
    let pgn = download_pgn(&server, &game);
    for tag in [
        "[White \"Ada\"]",
        "[Result \"*\"]",
        "[Variant \"chess\"]",
        "[Termination \"unterminated\"]",
        "[PlyCount \"3\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    let (_, movetext) = pgn.split_once("\n\n").unwrap();
    assert_eq!(movetext.matches("{[%clk 0:").count(), 3, "{movetext}");
    let mut bare = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => bare.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = bare.split_whitespace().collect();
    assert_eq!(words, ["1.", "e4", "c5", "2.", "Nf3", "*"], "{movetext}");
    // Play goes on after the export.
    assert_eq!(server.act(&game, "move", json!({"move": "d7-d6"})).0, 200);
}

#[test]
fn events_stream_each_new_version() {
    let server = serve_on(":memory:", "chess", &[]);
    let game = id(&server.new_game(json!({"white": "human", "black": "human"})));
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "GET /api/chess/games/{game}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.addr
    )
    .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    while !head.ends_with("\r\n\r\n") {
        reader.read_line(&mut head).unwrap();
    }
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{head}"
    );
    let mut next_state = || -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            reader.read_line(&mut line).unwrap();
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data.trim()).unwrap();
            }
            // Chunk sizes, `event: state`, keep-alive comments.
        }
    };
    let first = next_state();
    assert_eq!(first["history"], json!([]));
    assert_eq!(server.act(&game, "move", json!({"move": "e2-e3"})).0, 200);
    let second = next_state();
    assert_eq!(second["history"], json!(["e2-e3"]));
    assert!(version(&second) > version(&first));
    let (status, body) = server.get("/api/chess/games/0000000000000000/events");
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_game")));
}
