//! Terminal play: draws the board, marks the legal targets, reads strikes
//! typed as `c3`, and answers bad input with the reason it was refused.
//! `hint` asks the solver.

use std::io::{self, BufRead, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use super::board::{Board, TOTAL_STRIKES};
use super::policy::new_game;
use super::solver::{Budget, Solver};
use super::square::{SIZE, SQUARES, Square};
use super::tile::{RuleSet, Symbol};
use crate::rng::Xoshiro;

const HELP: &str = "Type a square to strike it (like c3), 'hint' for the solver's advice, \
'board' for the board's text form, 'help' for this, or 'quit'.";

/// The board drawn for a person: rank 6 on top, each tile as its symbol
/// letter and hits left, legal targets in brackets, the square struck
/// last in parentheses, removed tiles as dots.
pub fn render(board: &Board) -> String {
    let targets = board.targets();
    let last = board.last().map(|s| s.square);
    let mut out = String::new();
    for row in (0..SIZE).rev() {
        out.push_str(&format!("{} ", row + 1));
        for col in 0..SIZE {
            let Some(sq) = Square::new(row, col) else {
                continue;
            };
            let body = board.tile(sq).map_or("··".to_string(), |t| {
                format!("{}{}", t.symbol().letter(), t.hits())
            });
            let cell = if targets.contains(sq) {
                format!("[{body}]")
            } else if last == Some(sq) {
                format!("({body})")
            } else {
                format!(" {body} ")
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out.push_str("   a   b   c   d   e   f\n");
    out
}

/// One line saying where the game stands and what the next strike obeys.
pub fn status(board: &Board) -> String {
    let score = format!(
        "Strikes {}/{TOTAL_STRIKES}, tiles removed {}/{SQUARES}.",
        board.strikes_made(),
        board.tiles_removed()
    );
    let rule = match board.last() {
        None => "First strike: any tile.".to_string(),
        Some(last) => format!(
            "Next strike follows the {} from {}: {}.",
            last.rule,
            last.square,
            explain(last.rule)
        ),
    };
    format!("{score} {rule}")
}

/// The movement rule in words.
pub fn explain(rule: Symbol) -> &'static str {
    match rule {
        Symbol::One => "exactly 1 square away along a line",
        Symbol::Two => "exactly 2 squares away along a line",
        Symbol::Three => "exactly 3 squares away along a line",
        Symbol::Four => "exactly 4 squares away along a line",
        Symbol::Knight => "a knight's move",
        Symbol::Bishop => "along a diagonal, on the edge",
        Symbol::Rook => "along a row or column, on the edge",
        Symbol::Queen => "along any line, on the edge",
        Symbol::Wild | Symbol::Lambda => "any other tile",
        Symbol::Shamrock => "any tile within two squares",
        Symbol::Skull => "only the mirrored square",
    }
}

/// A seed from the clock, for a game whose seed was not given.
pub fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Plays in the terminal. Without a seed one is taken from the clock and
/// shown, so that the game can be replayed.
pub fn run(seed: Option<u64>, rules: RuleSet, budget: Budget) -> io::Result<()> {
    let seed = seed.unwrap_or_else(clock_seed);
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    session(stdin.lock(), &mut stdout, seed, rules, budget)
}

/// A game on any pair of streams; returns when the game ends, on `quit`
/// or at end of input.
pub fn session(
    input: impl BufRead,
    out: &mut impl Write,
    seed: u64,
    rules: RuleSet,
    budget: Budget,
) -> io::Result<()> {
    let (mut board, mut deal_rng) = new_game(seed, rules);
    let mut solver_rng = Xoshiro::new(!seed);
    writeln!(out, "ChessForge, seed {seed}. {HELP}")?;
    write!(out, "\n{}{}\n> ", render(&board), status(&board))?;
    out.flush()?;
    for line in input.lines() {
        let line = line?;
        let command = line.trim();
        match command {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" => writeln!(out, "{board}")?,
            "hint" => {
                let advice = Solver::new(budget).analyse(&board, &mut solver_rng);
                let best: Vec<String> = advice
                    .iter()
                    .take(3)
                    .map(|c| format!("{} (about {:.1} strikes to come)", c.square, c.mean))
                    .collect();
                if best.is_empty() {
                    writeln!(out, "No strike is left.")?;
                } else {
                    writeln!(out, "Solver suggests {}", best.join(", then "))?;
                }
            }
            _ => match command.parse::<Square>() {
                Err(e) => writeln!(out, "Not understood: {e}. {HELP}")?,
                Ok(sq) => match board.strike(sq, &mut deal_rng) {
                    Err(e) => writeln!(out, "Refused: {e}.")?,
                    Ok(next) => {
                        board = next;
                        write!(out, "\n{}{}\n", render(&board), status(&board))?;
                        if board.is_over() {
                            let verdict = if board.is_cleared() {
                                "Board cleared!"
                            } else {
                                "No legal strike is left."
                            };
                            writeln!(
                                out,
                                "{verdict} Game over after {} of {TOTAL_STRIKES} strikes.",
                                board.strikes_made()
                            )?;
                            return Ok(());
                        }
                    }
                },
            },
        }
        write!(out, "> ")?;
        out.flush()?;
    }
    Ok(())
}
