//! Checkers opening books: reading them for `antichess match --rules
//! checkers --openings FILE`, and making them for `antichess book --rules
//! checkers`. An opening is a list of moves from the standard start
//! position, so that a game records how it began. A book is either one
//! opening a line (`11-15 23-19 8-11`, move numbers, `{...}` comments and
//! a trailing result allowed) or a PDN file of games (tags, movetext over
//! several lines). Every move is checked legal in turn, and a broken line
//! is refused with its line number, never skipped.

use super::book::{BookOptions, Candidate, keep_judged};
use crate::checkers::notation::{capture_compulsory, parse_path};
use crate::checkers::{Move, Position};
use crate::rng::SplitMix;
use std::collections::HashMap;
use std::path::Path;

/// Reads the checkers opening book at `path` (see [`parse_book`]).
pub fn read_book(path: &Path) -> Result<Vec<Vec<Move>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_book(&text, &path.display().to_string())
}

/// Reads a checkers opening book; `source` names it in errors. A text
/// with a tag line (`[Event "..."]`) is a PDN file of games, each game's
/// moves one opening; any other is one opening a line, with blank lines,
/// lines starting with `#` and lines without moves skipped.
pub fn parse_book(text: &str, source: &str) -> Result<Vec<Vec<Move>>, String> {
    let is_pdn = text.lines().any(|l| l.trim_start().starts_with('['));
    let openings = if is_pdn {
        parse_games(text, source)?
    } else {
        parse_lines(text, source)?
    };
    if openings.is_empty() {
        return Err(format!("{source} holds no openings"));
    }
    Ok(openings)
}

/// An error at line `line` of `source`, as `book.txt:3: ...`.
fn at(source: &str, line: usize, message: impl std::fmt::Display) -> String {
    format!("{source}:{line}: {message}")
}

/// The moves of one opening so far, and where they lead.
struct Opening {
    pos: Position,
    moves: Vec<Move>,
}

impl Opening {
    fn new() -> Opening {
        Opening {
            pos: Position::initial(),
            moves: Vec::new(),
        }
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        let mv = find_move(&self.pos, text)?;
        self.pos = self.pos.play(mv);
        self.moves.push(mv);
        Ok(())
    }

    /// The opening's moves, if they leave a game to play.
    fn finish(self) -> Result<Vec<Move>, String> {
        if !self.pos.has_moves() {
            return Err(format!(
                "the opening leaves {} no move: the game would be over",
                self.pos.side_to_move().name()
            ));
        }
        Ok(self.moves)
    }
}

/// The legal move `text` names: the project's `11-15` and `18-11-4`, or
/// PDN's `22x15`, `9x18x27` and `9x27` (a jump by its ends alone, when
/// only one jump has them).
fn find_move(pos: &Position, text: &str) -> Result<Move, String> {
    let path = parse_path(&text.replace(['x', 'X'], "-"))
        .map_err(|_| format!("'{text}' is not a move (write e.g. 11-15, 22x15 or 9-14-23)"))?;
    let legal = pos.legal_moves();
    if let Some(&mv) = legal.iter().find(|m| m.squares() == path) {
        return Ok(mv);
    }
    if path.len() == 2 {
        let ends: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.is_capture() && m.from() == path[0] && m.to() == path[1])
            .collect();
        match ends.len() {
            0 => {}
            1 => return Ok(ends[0]),
            _ => {
                return Err(format!(
                    "'{text}' could be any of {}: write every landing square",
                    words(&ends)
                ));
            }
        }
    }
    let side = pos.side_to_move().name();
    let why = if pos.must_capture() {
        capture_compulsory(legal.iter())
    } else {
        format!("{side} to move: {}", words(&legal))
    };
    Err(format!("'{text}' is not a legal move here ({why})"))
}

fn words(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    words.join(" ")
}

/// One word of movetext, once move numbers and annotations are taken off.
enum Word<'a> {
    Move(&'a str),
    /// `1-0`, `0-1`, `1/2-1/2`, `*`, or PDN's `2-0`, `0-2`, `1-1`.
    Result,
    /// A move number alone (`1.`, `12...`) or a NAG (`$1`).
    Skip,
}

fn classify(word: &str) -> Word<'_> {
    if matches!(
        word,
        "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1"
    ) {
        return Word::Result;
    }
    if word.starts_with('$') {
        return Word::Skip;
    }
    // A move number may be glued to its move: `1.11-15`.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let word = match word[digits..].trim_start_matches('.') {
        rest if digits > 0 && rest.len() < word.len() - digits => rest,
        _ => word,
    };
    let word = word.trim_end_matches(['!', '?']);
    if word.is_empty() {
        Word::Skip
    } else {
        Word::Move(word)
    }
}

/// Splits movetext into words, leaving out `{...}` comments, `(...)`
/// variations and `;` comments to the end of the line. Comments and
/// variations may go on over lines: the scan keeps where it is.
#[derive(Default)]
struct Scan {
    in_comment: bool,
    depth: usize,
}

impl Scan {
    fn words<'a>(&mut self, line: &'a str) -> Result<Vec<&'a str>, String> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, c) in line.char_indices() {
            if self.in_comment {
                self.in_comment = c != '}';
                continue;
            }
            let special = c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | ';');
            if (special || self.depth > 0)
                && let Some(s) = start.take()
            {
                words.push(&line[s..i]);
            }
            match c {
                '{' => self.in_comment = true,
                '(' => self.depth += 1,
                ')' if self.depth > 0 => self.depth -= 1,
                ')' | '}' if self.depth == 0 => {
                    return Err(format!("'{c}' closes nothing"));
                }
                ';' if self.depth == 0 => return Ok(words),
                _ if special || self.depth > 0 => {}
                _ => {
                    start.get_or_insert(i);
                }
            }
        }
        if let Some(s) = start {
            words.push(&line[s..]);
        }
        Ok(words)
    }
}

/// Reads one opening a line.
fn parse_lines(text: &str, source: &str) -> Result<Vec<Vec<Move>>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut scan = Scan::default();
        let words = scan.words(line).map_err(|e| at(source, number, e))?;
        if scan.in_comment || scan.depth > 0 {
            let what = if scan.in_comment { "'{'" } else { "'('" };
            return Err(at(
                source,
                number,
                format!("{what} is not closed on its line"),
            ));
        }
        let mut opening = Opening::new();
        let mut ended = false;
        for word in words {
            if ended {
                return Err(at(source, number, format!("'{word}' after the result")));
            }
            match classify(word) {
                Word::Move(m) => opening.play(m).map_err(|e| at(source, number, e))?,
                Word::Result => ended = true,
                Word::Skip => {}
            }
        }
        if !opening.moves.is_empty() {
            openings.push(opening.finish().map_err(|e| at(source, number, e))?);
        }
    }
    Ok(openings)
}

/// A game of a PDN book being read.
struct Game {
    opening: Opening,
    /// Whether its movetext has begun (a tag after that starts a new game).
    in_moves: bool,
    /// The line of its last move, or of its first tag.
    line: usize,
}

impl Game {
    fn new(line: usize) -> Game {
        Game {
            opening: Opening::new(),
            in_moves: false,
            line,
        }
    }
}

/// Reads a PDN file: each game's moves are one opening.
fn parse_games(text: &str, source: &str) -> Result<Vec<Vec<Move>>, String> {
    let mut openings = Vec::new();
    let mut game: Option<Game> = None;
    let mut scan = Scan::default();
    let finish = |game: Game, openings: &mut Vec<Vec<Move>>| {
        let line = game.line;
        openings.push(game.opening.finish().map_err(|e| at(source, line, e))?);
        Ok::<(), String>(())
    };
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim();
        if !scan.in_comment && scan.depth == 0 {
            if trimmed.is_empty() || trimmed.starts_with(['#', '%']) {
                continue;
            }
            if trimmed.starts_with('[') {
                // A tag after movetext begins the next game.
                if let Some(done) = game.take_if(|g| g.in_moves) {
                    finish(done, &mut openings)?;
                }
                let g = game.get_or_insert_with(|| Game::new(number));
                read_tag(trimmed).map_err(|e| at(source, number, e))?;
                g.line = g.line.max(number);
                continue;
            }
        }
        for word in scan.words(line).map_err(|e| at(source, number, e))? {
            match classify(word) {
                Word::Move(m) => {
                    let g = game.get_or_insert_with(|| Game::new(number));
                    g.in_moves = true;
                    g.line = number;
                    g.opening.play(m).map_err(|e| at(source, number, e))?;
                }
                Word::Result => {
                    if let Some(done) = game.take() {
                        finish(done, &mut openings)?;
                    }
                }
                Word::Skip => {}
            }
        }
    }
    if scan.in_comment || scan.depth > 0 {
        let what = if scan.in_comment {
            "a '{' comment"
        } else {
            "a '(' variation"
        };
        return Err(format!("{source}: {what} is not closed at the end"));
    }
    if let Some(done) = game {
        finish(done, &mut openings)?;
    }
    Ok(openings)
}

/// Checks one tag line: a `FEN` tag must give the start position, and a
/// `GameType` must be 21 (American checkers).
fn read_tag(line: &str) -> Result<(), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.trim_end().strip_suffix(']'))
        .ok_or_else(|| format!("'{line}' is not a tag (write [Name \"value\"])"))?;
    let (name, value) = inner
        .trim()
        .split_once(char::is_whitespace)
        .unwrap_or((inner, ""));
    let value = value.trim().trim_matches('"');
    if name.eq_ignore_ascii_case("FEN") {
        let start = Position::from_pdn(value).is_ok_and(|p| p == Position::initial());
        if !start {
            return Err(format!(
                "[FEN \"{value}\"] is not the start position, and a book's openings \
                 start from the start position"
            ));
        }
    }
    if name.eq_ignore_ascii_case("GameType") && value.split(',').next() != Some("21") {
        return Err(format!(
            "[GameType \"{value}\"] is not American checkers (GameType 21)"
        ));
    }
    Ok(())
}

/// Makes a checkers book as [`super::book`] makes the others: `walks`
/// seeded random walks of `plies` plies, counted by the position they
/// reach (so that transpositions meet); the most frequent are searched to
/// `nodes` nodes and kept while the side to move is within `margin` of
/// even and not won or lost. Each is written with the moves of the first
/// walk that reached it, one opening a line.
pub fn make(options: &BookOptions, plies: u32, margin: i32) -> Result<(), String> {
    let mut seen: HashMap<String, (u32, Vec<Move>, Position)> = HashMap::new();
    let mut seeds = SplitMix::new(options.seed);
    for _ in 0..options.walks {
        let Some((moves, pos)) = walk(plies, seeds.next_u64()) else {
            continue;
        };
        // The PDN FEN leaves out the quiet-ply count: how the walk came
        // to a position does not change the game from it.
        seen.entry(pos.to_pdn()).or_insert((0, moves, pos)).0 += 1;
    }
    let candidates = seen
        .into_iter()
        .map(|(key, (count, moves, pos))| Candidate {
            key,
            count,
            line: words(&moves),
            history: Vec::new(),
            pos,
        })
        .collect();
    let header = format!(
        "# antichess book --rules checkers --plies {plies} --walks {} --nodes {} --margin {margin} --seed {} --count {}\n",
        options.walks, options.nodes, options.seed, options.count
    );
    keep_judged(options, header, candidates, margin, |c, score| {
        format!(
            "{} {{seen {} times in {} walks; score {score}}}",
            c.line, c.count, options.walks
        )
    })
}

/// One seeded random walk of `plies` plies from the start, if none of
/// them ends the game.
fn walk(plies: u32, seed: u64) -> Option<(Vec<Move>, Position)> {
    let mut rng = SplitMix::new(seed);
    let mut pos = Position::initial();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = pos.legal_moves();
        let mv = *legal.get(rng.below(legal.len()))?;
        pos = pos.play(mv);
        moves.push(mv);
    }
    pos.has_moves().then_some((moves, pos))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes moves as the project does, one opening a string.
    fn texts(openings: &[Vec<Move>]) -> Vec<String> {
        openings.iter().map(|o| words(o)).collect()
    }

    #[test]
    fn a_book_of_lines() {
        let text = "# made by hand\n\n11-15 23-19 8-11 {seen 3 times}\n\
                    1. 9-14 22-18 2. 5-9 *\n";
        let book = parse_book(text, "book.txt").unwrap();
        assert_eq!(texts(&book), ["11-15 23-19 8-11", "9-14 22-18 5-9"]);
    }

    #[test]
    fn captures_in_either_notation() {
        // 11-15 24-20 15-19 23x16 (PDN) and 12x19 (the project's dash).
        let book = parse_book("11-15 24-20 15-19 23x16 12-19 1/2-1/2\n", "b").unwrap();
        assert_eq!(texts(&book), ["11-15 24-20 15-19 23-16 12-19"]);
        let err = parse_book("11-15 24-20 15-19 22-18\n", "b").unwrap_err();
        assert!(err.contains("a capture is compulsory: 23-16"), "{err}");
    }

    #[test]
    fn a_pdn_of_two_games() {
        let text = "[Event \"one\"]\n[Black \"a\"]\n[GameType \"21\"]\n\n\
                    1. 11-15 {[%clk 0:00:10]} 23-19 2. 8-11\n22-17 1-0\n\n\
                    [Event \"two\"]\n[FEN \"B:W21-32:B1-12\"]\n\n1. 10-14 (1. 9-13) 24-20 *\n";
        let book = parse_book(text, "games.pdn").unwrap();
        assert_eq!(texts(&book), ["11-15 23-19 8-11 22-17", "10-14 24-20"]);
    }

    #[test]
    fn a_broken_line_is_refused_with_its_number() {
        let text = "11-15 23-19\n# comment\n11-15 23-19 11-16\n";
        let err = parse_book(text, "book.txt").unwrap_err();
        assert!(
            err.starts_with("book.txt:3: '11-16' is not a legal move here (black to move: "),
            "{err}"
        );
        let err = parse_book("11-15\n9-14 22-18 banana\n", "book.txt").unwrap_err();
        assert!(
            err.starts_with("book.txt:2: 'banana' is not a move"),
            "{err}"
        );
        let err = parse_book("11-15 {never closed\n", "book.txt").unwrap_err();
        assert!(err.starts_with("book.txt:1: '{' is not closed"), "{err}");
    }

    #[test]
    fn a_game_from_another_position_is_refused() {
        let text = "[Event \"one\"]\n11-15 *\n\n[Event \"two\"]\n\
                    [FEN \"W:W18,23:B6,10\"]\n18-14 *\n";
        let err = parse_book(text, "games.pdn").unwrap_err();
        assert!(
            err.starts_with("games.pdn:5: [FEN \"W:W18,23:B6,10\"] is not the start position"),
            "{err}"
        );
    }

    #[test]
    fn empty_books_and_finished_games_are_refused() {
        let err = parse_book("# nothing\n\n", "empty.txt").unwrap_err();
        assert_eq!(err, "empty.txt holds no openings");
        // Black's last man is penned in on square 4 by white men on 8 and
        // 11: whatever led here, the game is over, and the opening refused.
        let over = Opening {
            pos: Position::from_pdn("B:W8,11,15:B4").unwrap(),
            moves: Vec::new(),
        };
        let err = over.finish().unwrap_err();
        assert_eq!(
            err,
            "the opening leaves black no move: the game would be over"
        );
    }

    #[test]
    fn the_shipped_book_holds_40_different_ballots() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("books/checkers.txt");
        let book = read_book(&path).unwrap();
        assert_eq!(book.len(), 40);
        let mut seen = std::collections::HashSet::new();
        for opening in &book {
            assert_eq!(opening.len(), 3, "{}", words(opening));
            let pos = opening.iter().fold(Position::initial(), |p, &m| p.play(m));
            assert!(seen.insert(pos.to_pdn()), "{} repeated", words(opening));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# antichess book --rules checkers --plies 3 "));
    }

    #[test]
    fn a_made_book_reads_back_and_depends_on_the_seed_alone() {
        let dir = std::env::temp_dir();
        let make_one = |name: &str| {
            let options = BookOptions {
                out: dir.join(format!("{name}-{}.txt", std::process::id())),
                rules: super::super::GameRules::Checkers,
                count: 8,
                plies: None,
                walks: 2_000,
                nodes: 2_000,
                margin: None,
                seed: 5,
            };
            // The search wants a deeper stack than a test thread has.
            std::thread::Builder::new()
                .stack_size(32 << 20)
                .spawn(move || {
                    super::super::book::run(&options).unwrap();
                    let text = std::fs::read_to_string(&options.out).unwrap();
                    std::fs::remove_file(&options.out).unwrap();
                    text
                })
                .unwrap()
                .join()
                .unwrap()
        };
        let (first, second) = (make_one("checkers-book-a"), make_one("checkers-book-b"));
        assert_eq!(first, second);
        assert!(first.starts_with(
            "# antichess book --rules checkers --plies 3 --walks 2000 --nodes 2000 --margin 50 --seed 5 --count 8\n"
        ));
        let book = parse_book(&first, "made").unwrap();
        assert_eq!(book.len(), 8);
        assert!(book.iter().all(|o| o.len() == 3));
        // Most frequent first: the counts never rise down the book.
        let counts: Vec<u32> = first
            .lines()
            .skip(1)
            .map(|l| l.split("seen ").nth(1).unwrap().split(' ').next().unwrap())
            .map(|n| n.parse().unwrap())
            .collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    }
}
