//! Transcripts round-trip: random games with every kind of special move are
//! written, read back, and written again unchanged.

use antichess::checkers::{Action, Record, read_transcript, write_transcript};
use antichess::rng::SplitMix as Rng;

/// A random game: mostly moves, sometimes a draw offer (answered either
/// way), ending by resignation, agreement, a side without moves, or a
/// ply limit with the game still going.
fn random_game(seed: u64) -> Record {
    let mut rng = Rng::new(seed);
    let mut r = Record::new();
    let length = 5 + rng.below(200);
    for _ in 0..length {
        if r.result().is_some() {
            break;
        }
        let action = if r.draw_offered() {
            if rng.below(4) == 0 {
                Action::Accept
            } else {
                Action::Reject
            }
        } else if r.may_offer_draw() && rng.below(15) == 0 {
            Action::Draw
        } else if rng.below(300) == 0 {
            Action::Resign
        } else {
            let moves = r.position().legal_moves();
            Action::Move(moves[rng.below(moves.len())])
        };
        r.apply(action).unwrap();
    }
    r
}

#[test]
fn random_transcripts_round_trip() {
    for seed in 0..300 {
        let game = random_game(seed);
        let text = write_transcript(&game);
        let back = read_transcript(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_eq!(back.actions(), game.actions(), "seed {seed}");
        assert_eq!(back.result(), game.result(), "seed {seed}");
        assert_eq!(back.position(), game.position(), "seed {seed}");
        assert_eq!(write_transcript(&back), text, "seed {seed}");
    }
}

#[test]
fn every_ending_occurs() {
    let endings: Vec<_> = (0..300).map(|s| random_game(s).result()).collect();
    assert!(endings.iter().any(|r| r.is_none()));
    for score in ["1-0", "0-1", "1/2-1/2"] {
        assert!(
            endings
                .iter()
                .any(|r| r.is_some_and(|s| s.to_string() == score)),
            "{score}"
        );
    }
}

/// Random strings over the notation's alphabet: every reader must answer
/// with a value or an error, never a panic.
#[test]
fn garbage_never_panics() {
    use antichess::checkers::Position;
    const ALPHABET: &[u8] = b"0123456789-.:,/ KBWbw\n\tdrawcepjsign\xc3\xa9";
    let mut rng = Rng::new(99);
    for _ in 0..20_000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = read_transcript(&text);
        let _ = Position::from_pdn(&text);
        let _ = Position::from_line(&text);
        let _ = Position::initial().parse_move(&text);
        let _ = Record::new().parse_allowed(&text);
    }
}
