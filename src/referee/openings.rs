//! Where a match's games start: opening books (FEN or EPD lines, PGN
//! games, one-line game files of the handouts), in order or shuffled by
//! seed, and seeded random openings. A book's broken line is refused with
//! its line number, never skipped.

use crate::chess::{GameFile, GameRecord, Move, Position, Rules};
use crate::rng::{SplitMix, Xoshiro};
use crate::search::MoveList;
use std::path::Path;

/// The most random plies an opening may ask for: enough to leave the
/// opening well behind, few enough that random games of that length are
/// easy to find.
pub const MAX_RANDOM_PLIES: u32 = 40;

/// Reads an opening book: a PGN file (by its `.pgn` name or a first line
/// that is a tag), or one position a line, FEN, EPD or a one-line game
/// file; blank lines and lines starting with `#` are skipped.
pub fn read_book(path: &Path, rules: Rules) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let source = path.display().to_string();
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        || text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .is_some_and(|l| l.starts_with('['));
    if is_pgn {
        parse_pgn_book(&text, &source, rules)
    } else {
        parse_lines(&text, &source, rules)
    }
}

/// Reads a book of one position a line (see [`read_book`]); `source`
/// names it in errors.
pub fn parse_lines(text: &str, source: &str, rules: Rules) -> Result<Vec<Position>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = if line.contains('/') {
            Position::from_fen(line, rules)
                .map_err(|e| e.to_string())
                .or_else(|fen_error| epd_position(line, rules).ok_or(fen_error))
        } else {
            GameFile::parse(line, rules)
                .map(|g| g.position)
                .map_err(|e| e.to_string())
        };
        let pos = parsed.map_err(|e| format!("{source} line {}: {e}", i + 1))?;
        openings.push(checked(pos, source, i + 1)?);
    }
    nonempty(openings, source)
}

/// An EPD line's position: four FEN fields, then operations (`bm e4;`,
/// `hmvc 0;`, `fmvn 1;`) of which only the move counters are used.
fn epd_position(line: &str, rules: Rules) -> Option<Position> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let ops = fields[4..].join(" ");
    let op = |name: &str| -> Option<u32> {
        ops.split(';').find_map(|o| {
            let mut words = o.split_whitespace();
            (words.next()? == name).then(|| words.next()?.parse().ok())?
        })
    };
    let fen = format!(
        "{} {} {} {} {} {}",
        fields[0],
        fields[1],
        fields[2],
        fields[3],
        op("hmvc").unwrap_or(0),
        op("fmvn").unwrap_or(1)
    );
    Position::from_fen(&fen, rules).ok()
}

/// A start position must leave a game to play.
fn checked(pos: Position, source: &str, line: usize) -> Result<Position, String> {
    if pos.status().is_over() {
        return Err(format!(
            "{source} line {line}: the game is already over here"
        ));
    }
    Ok(pos)
}

fn nonempty(openings: Vec<Position>, source: &str) -> Result<Vec<Position>, String> {
    if openings.is_empty() {
        return Err(format!("{source} holds no positions"));
    }
    Ok(openings)
}

/// Reads a PGN book: each game's last position (after its `FEN` tag, if
/// any, and its main line; comments, variations and NAGs skipped) is one
/// opening.
pub fn parse_pgn_book(text: &str, source: &str, rules: Rules) -> Result<Vec<Position>, String> {
    let mut openings = Vec::new();
    let mut game: Option<GameRecord> = None;
    let mut fen: Option<String> = None;
    let mut moves_seen = false;
    let mut depth = 0usize; // inside a variation
    let mut in_comment = false;
    let finish = |game: &mut Option<GameRecord>, openings: &mut Vec<Position>, line: usize| {
        if let Some(record) = game.take() {
            openings.push(checked(*record.position(), source, line)?);
        }
        Ok::<(), String>(())
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let at = |why: String| format!("{source} line {n}: {why}");
        let line = raw.trim();
        if !in_comment && depth == 0 && line.starts_with('[') {
            if moves_seen {
                finish(&mut game, &mut openings, n)?;
                moves_seen = false;
            }
            let (name, value) = tag(line).ok_or_else(|| at(format!("bad tag '{line}'")))?;
            if name.eq_ignore_ascii_case("FEN") {
                fen = Some(value);
            }
            continue;
        }
        if !in_comment && (line.starts_with('%') || line.is_empty()) {
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(end) => {
                        in_comment = false;
                        rest = &rest[end + 1..];
                    }
                    None => break,
                }
                continue;
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    in_comment = true;
                    rest = &rest[1..];
                    continue;
                }
                ';' => break,
                '(' => {
                    depth += 1;
                    rest = &rest[1..];
                    continue;
                }
                ')' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| at("')' without its '('".into()))?;
                    rest = &rest[1..];
                    continue;
                }
                _ => {}
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                .unwrap_or(rest.len());
            let word = &rest[..end];
            rest = &rest[end..];
            if depth > 0 || word.starts_with('$') {
                continue;
            }
            if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                if game.is_none() {
                    game = Some(start_of(fen.take(), rules).map_err(at)?);
                }
                finish(&mut game, &mut openings, n)?;
                fen = None;
                moves_seen = false;
                continue;
            }
            // Move numbers: `12.` or `12...`, alone or glued to the move.
            let word = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let word = word.trim_start_matches('.');
            if word.is_empty() {
                continue;
            }
            if game.is_none() {
                game = Some(start_of(fen.take(), rules).map_err(at)?);
            }
            let record = game.as_mut().expect("a game was just started");
            let mv = san_move(record.position(), word)
                .ok_or_else(|| at(format!("'{word}' is not a legal move here")))?;
            record.play(mv);
            moves_seen = true;
        }
    }
    if in_comment {
        return Err(format!("{source}: a comment is not closed"));
    }
    finish(&mut game, &mut openings, text.lines().count())?;
    nonempty(openings, source)
}

/// A PGN tag's name and value.
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"")))
}

fn start_of(fen: Option<String>, rules: Rules) -> Result<GameRecord, String> {
    let start = match fen {
        Some(fen) => Position::from_fen(&fen, rules).map_err(|e| format!("bad FEN tag: {e}"))?,
        None => Position::startpos(rules),
    };
    Ok(GameRecord::new(start))
}

/// The legal move written `word` in SAN (check marks and annotations
/// ignored, `0-0` as `O-O`), or in coordinates.
pub fn san_move(pos: &Position, word: &str) -> Option<Move> {
    let bare = |s: &str| -> String {
        s.trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O")
            .replace('=', "")
    };
    let wanted = bare(word);
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let found = moves
        .iter()
        .copied()
        .find(|&m| bare(&super::pgn::san(pos, m)) == wanted);
    found.or_else(|| pos.parse_move(word).ok())
}

/// The openings in the order a match uses them: as read, or shuffled by
/// `seed` (each pair of games takes the next).
pub fn ordered(mut openings: Vec<Position>, shuffle: bool, seed: u64) -> Vec<Position> {
    if shuffle {
        Xoshiro::new(seed).shuffle(&mut openings);
    }
    openings
}

/// `plies` random plies from the start, avoiding finished games; `None`
/// when a hundred tries all ended the game sooner.
pub fn random_opening(rules: Rules, plies: u32, seed: u64) -> Option<Position> {
    let mut rng = SplitMix(seed);
    let start = Position::startpos(rules);
    for _ in 0..100 {
        let mut record = GameRecord::new(start);
        for _ in 0..plies {
            match super::player::random_move(record.position(), &mut rng) {
                Some(m) => record.play(m),
                None => break,
            }
        }
        if record.moves().len() == plies as usize && !record.status().is_over() {
            return Some(*record.position());
        }
    }
    None
}

/// The openings of `pairs` pairs of games, `plies` random plies each. Each
/// opening's seed is drawn from one generator seeded with `seed`: seeded
/// with `seed + i`, as they once were, the openings of `--seed 2` were
/// those of `--seed 1` moved along by one, and a run of matches on
/// "new" seeds replayed nearly the same hundred openings.
pub fn random_openings(
    rules: Rules,
    plies: u32,
    seed: u64,
    pairs: u32,
) -> Result<Vec<Position>, String> {
    if plies > MAX_RANDOM_PLIES {
        return Err(format!(
            "--random-plies {plies} is more than {MAX_RANDOM_PLIES}"
        ));
    }
    let mut seeds = SplitMix::new(seed);
    (0..pairs)
        .map(|_| {
            random_opening(rules, plies, seeds.next_u64()).ok_or_else(|| {
                format!("no random game of {plies} plies was found in a hundred tries")
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbouring_seeds_share_almost_no_openings() {
        let openings = |seed| random_openings(Rules::Antichess, 4, seed, 50).unwrap();
        let (first, second) = (openings(1), openings(2));
        assert_eq!(first, openings(1));
        // Some 4-ply positions are common enough to recur by chance; a
        // shifted copy would share 49.
        let shared = second.iter().filter(|p| first.contains(p)).count();
        assert!(shared <= 5, "{shared} of 50 shared");
        let distinct = first
            .iter()
            .filter(|p| first.iter().filter(|q| q == p).count() == 1);
        assert!(distinct.count() >= 40);
    }

    #[test]
    fn more_random_plies_than_the_bound_are_refused() {
        let err = random_openings(Rules::Antichess, MAX_RANDOM_PLIES + 1, 1, 1).unwrap_err();
        assert!(err.contains("--random-plies 41"), "{err}");
        assert!(random_openings(Rules::Antichess, MAX_RANDOM_PLIES, 1, 1).is_ok());
    }

    #[test]
    fn san_reads_what_pgn_writes() {
        let pos = Position::startpos(Rules::Chess);
        assert_eq!(san_move(&pos, "Nf3").unwrap().to_string(), "g1f3");
        assert_eq!(san_move(&pos, "e4!?").unwrap().to_string(), "e2e4");
        assert!(san_move(&pos, "Ke2").is_none());
    }
}
