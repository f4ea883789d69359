//! The SPRT's log-likelihood ratio against values computed by another
//! method, and the `antichess sprt` line.
//!
//! The expected values below were computed by constrained maximum
//! likelihood solved as a whole: Newton's method (mpmath's `findroot`, 40
//! digits) on the Karush-Kuhn-Tucker system of the five probabilities and
//! the two Lagrange multipliers, maximising `sum q_i ln p_i` subject to
//! `sum p_i = 1` and, for the logistic model, `sum p_i a_i = L(elo)`, for
//! the normalised model `mu - 1/2 = t sigma` with `t = elo·√2·ln10/800`;
//! the counts regularised as fishtest does (an empty cell counts 0.001).
//! Our code instead bisects Van den Bergh's secular equation and, for the
//! t-value, iterates his fixed point: two routes to the same optimum.
//! The script is in docs/matches.md ("Checking the SPRT").

use antichess::referee::sprt::{Model, Pentanomial, Sprt};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_antichess");

/// (counts LL,LD,D,WD,WW; elo0; elo1; model; LLR).
const KNOWN: [([u64; 5], f64, f64, Model, f64); 8] = [
    (
        [100, 400, 1000, 420, 110],
        0.0,
        2.0,
        Model::Normalized,
        0.292848326663089,
    ),
    (
        [100, 400, 1000, 420, 110],
        0.0,
        2.0,
        Model::Logistic,
        0.398714904105274,
    ),
    (
        [12, 60, 140, 80, 25],
        -5.0,
        5.0,
        Model::Logistic,
        2.92449717337697,
    ),
    (
        [12, 60, 140, 80, 25],
        0.0,
        10.0,
        Model::Normalized,
        1.7086739653866,
    ),
    (
        [0, 3, 10, 9, 4],
        0.0,
        20.0,
        Model::Normalized,
        1.02865800646532,
    ),
    (
        [0, 3, 10, 9, 4],
        0.0,
        20.0,
        Model::Logistic,
        1.45246127442457,
    ),
    (
        [1, 20, 300, 900, 779],
        0.0,
        2.0,
        Model::Normalized,
        12.6337911000937,
    ),
    (
        [30, 25, 20, 10, 2],
        -10.0,
        0.0,
        Model::Logistic,
        -2.1377802028448,
    ),
];

#[test]
fn llr_matches_values_computed_by_another_method() {
    for (counts, elo0, elo1, model, expected) in KNOWN {
        let sprt = Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap();
        let llr = sprt.llr(&Pentanomial { counts });
        assert!(
            (llr - expected).abs() < 1e-9,
            "{counts:?} [{elo0}, {elo1}] {model}: {llr} against {expected}"
        );
    }
}

#[test]
fn the_sprt_command_prints_one_line_of_pairs() {
    let out = Command::new(BIN)
        .args([
            "sprt",
            "--penta",
            "12,60,140,80,25",
            "--elo0",
            "-5",
            "--elo1",
            "5",
            "--model",
            "logistic",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let value = |key: &str| -> String {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("no {key} in {text}"))
            .to_string()
    };
    assert!(text.starts_with("llr="), "{text}");
    let llr: f64 = value("llr").parse().unwrap();
    assert!((llr - 2.92449717337697).abs() < 1e-9);
    let upper: f64 = value("upper").parse().unwrap();
    assert!((upper - 19f64.ln()).abs() < 1e-12);
    assert_eq!(value("verdict"), "continue");
    // 317 pairs scoring 0.536278 a pair on average: +25.25 Elo.
    let elo: f64 = value("elo").parse().unwrap();
    assert!((elo - 25.2526).abs() < 1e-3, "{elo}");
    let los: f64 = value("los").parse().unwrap();
    assert!(los > 0.99 && los < 1.0);
    // Bad counts are refused with a reason.
    let bad = Command::new(BIN)
        .args(["sprt", "--penta", "1,2,3", "--elo0", "0", "--elo1", "5"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("five numbers"));
}
