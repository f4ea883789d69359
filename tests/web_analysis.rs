//! The engine's analysis on request, on a real server
//! (`POST /api/chess/analysis`): positions whose answer the rules decide
//! (a chess mate in one, an antichess queen that must be taken), a game
//! already over, the node cap honoured, and every bad request refused
//! with a 4xx and its reason.

mod common;

use common::web::Server;
use serde_json::{Value, json};

const ANALYSIS: &str = "/api/chess/analysis";

/// A 2002 game file: the side to move, both clocks, the rows from rank 8.
fn file(side: &str, rows: [&str; 8]) -> String {
    format!("{side}\n60000\n60000\n{}\n", rows.join("\n"))
}

fn analyse(server: &Server, body: Value) -> Value {
    let (status, answer) = server.post(ANALYSIS, &body);
    assert_eq!(status, 200, "{answer}");
    answer
}

#[test]
fn a_chess_mate_in_one_is_found_and_named() {
    let server = Server::serve("chess");
    // The rook to the back rank mates: the king is walled in by its pawns.
    let rows = [
        "------k-", "-----ppp", "--------", "--------", "--------", "--------", "-----PPP",
        "---R--K-",
    ];
    let answer = analyse(
        &server,
        json!({"rules": "chess", "file": file("white", rows)}),
    );
    assert_eq!(answer["score"], json!({"win_in": 1}), "{answer}");
    assert_eq!(answer["pv"], json!(["d1-d8"]), "{answer}");
    assert_eq!(answer["to_move"], "white");
    assert!(answer["over"].is_null(), "{answer}");
}

#[test]
fn an_antichess_queen_given_away_wins_where_chess_would_lose_it() {
    let server = Server::serve("chess");
    // The queen steps onto the pawn's diagonal; the pawn must take it and
    // White is left with a bare king: a win in one move of each side.
    let rows = [
        "----k---", "--------", "--------", "--p-----", "--------", "--------", "--------",
        "Q---K---",
    ];
    let body = |rules| json!({"rules": rules, "file": file("white", rows)});
    let answer = analyse(&server, body("antichess"));
    assert_eq!(answer["score"], json!({"win_in": 1}), "{answer}");
    assert_eq!(answer["pv"], json!(["a1-d4", "c5-d4"]), "{answer}");
    // In chess the same position is a queen up, nowhere near giving it.
    let chess = analyse(&server, body("chess"));
    assert!(chess["score"]["cp"].as_i64().unwrap() > 300, "{chess}");
    assert_ne!(chess["pv"][0], "a1-d4", "{chess}");
}

#[test]
fn a_finished_game_says_who_won_and_has_no_line() {
    let server = Server::serve("chess");
    // Black is mated.
    let rows = [
        "---R--k-", "-----ppp", "--------", "--------", "--------", "--------", "-----PPP",
        "------K-",
    ];
    let answer = analyse(
        &server,
        json!({"rules": "chess", "file": file("black", rows)}),
    );
    assert_eq!(answer["over"]["winner"], "white", "{answer}");
    assert_eq!(answer["pv"], json!([]), "{answer}");
    assert!(answer["score"]["lose_in"].is_number(), "{answer}");
}

#[test]
fn the_node_cap_is_honoured() {
    let server = Server::serve("chess");
    let start = file(
        "white",
        [
            "rnbqkbnr", "pppppppp", "--------", "--------", "--------", "--------", "PPPPPPPP",
            "RNBQKBNR",
        ],
    );
    let answer = analyse(
        &server,
        json!({"rules": "antichess", "file": start, "nodes": 5000}),
    );
    let nodes = answer["nodes"].as_u64().unwrap();
    assert!(nodes > 0 && nodes <= 5000, "{answer}");
    assert!(!answer["pv"].as_array().unwrap().is_empty(), "{answer}");
}

#[test]
fn bad_requests_are_refused_with_their_reason() {
    let server = Server::serve("chess");
    let good = file(
        "white",
        [
            "----k---", "--------", "--------", "--------", "--------", "--------", "--------",
            "----K---",
        ],
    );
    let long = format!("{good}{}", " ".repeat(4000));
    for (body, code, words) in [
        (json!({"file": good}), "bad_request", "'rules' is missing"),
        (json!({"rules": "go", "file": good}), "bad_request", "rules"),
        (
            json!({"rules": "chess"}),
            "bad_request",
            "'file' is missing",
        ),
        (
            json!({"rules": "chess", "file": "white\n1\n"}),
            "bad_request",
            "not a game file",
        ),
        (
            json!({"rules": "chess", "file": long}),
            "bad_request",
            "at most",
        ),
        (
            json!({"rules": "chess", "file": good, "ms": 60000}),
            "bad_request",
            "'ms'",
        ),
        (
            json!({"rules": "chess", "file": good, "nodes": -1}),
            "bad_request",
            "'nodes'",
        ),
    ] {
        let (status, answer) = server.post(ANALYSIS, &body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(words), "{body}: {error}");
    }
    let (status, answer) = server.get(ANALYSIS);
    assert_eq!(status, 405, "{answer}");
}
