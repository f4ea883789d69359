//! Engine mode: a line protocol on stdin/stdout so that another program
//! (a GUI, a referee, a test) can load boards, ask for the solver's
//! strike and play strikes. The protocol is documented in protocol.md,
//! section "ChessForge engine mode".
//!
//! Every command gets exactly one reply line; a malformed command gets
//! `error <reason>` and leaves the engine's state as it was.

use std::io::{self, BufRead, Write};

use super::board::Board;
use super::policy::new_game;
use super::solver::{Budget, Solver};
use super::square::Square;
use super::tile::{RuleSet, Symbol};
use crate::rng::Xoshiro;

/// What the engine says back to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// One line to print.
    Line(String),
    /// Nothing to print (blank input).
    Silent,
    /// The session is over.
    Quit,
}

/// The engine's state: the current board and its random sources.
#[derive(Clone, Debug)]
pub struct Engine {
    board: Board,
    /// Deals replacements that the controller leaves to the engine.
    deal_rng: Xoshiro,
    /// The solver's own coin flips, kept apart from the deal.
    solver_rng: Xoshiro,
    budget: Budget,
}

impl Engine {
    /// An engine holding the starting board of game `seed`.
    pub fn new(seed: u64, budget: Budget) -> Engine {
        let (board, deal_rng) = new_game(seed, RuleSet::Standard);
        Engine {
            board,
            deal_rng,
            solver_rng: Xoshiro::new(!seed),
            budget,
        }
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Carries out one command line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command {
            // Blank lines and comments get no answer, as in the main protocol.
            "" => return Reply::Silent,
            _ if command.starts_with('#') => return Reply::Silent,
            "quit" => return Reply::Quit,
            "new" => self.new_game(rest),
            "board" => self.load(rest),
            "show" => Ok(self.show()),
            "targets" => Ok(self.targets()),
            "go" => self.go(rest),
            "strike" => self.strike(rest),
            other => Err(format!(
                "unknown command '{other}' (try new, board, show, targets, go, strike, quit)"
            )),
        };
        Reply::Line(result.unwrap_or_else(|reason| format!("error {reason}")))
    }

    fn show(&self) -> String {
        format!("board {}", self.board)
    }

    fn targets(&self) -> String {
        let targets = self.board.targets();
        if targets.is_empty() {
            "targets none".to_string()
        } else {
            format!("targets {targets}")
        }
    }

    /// `new [SEED] [standard|extra]`
    fn new_game(&mut self, args: &str) -> Result<String, String> {
        let mut seed = None;
        let mut rules = RuleSet::Standard;
        for word in args.split_whitespace() {
            match word.to_ascii_lowercase().as_str() {
                "standard" => rules = RuleSet::Standard,
                "extra" => rules = RuleSet::Extra,
                _ if seed.is_none() => {
                    let n = word
                        .parse::<u64>()
                        .map_err(|_| format!("'{word}' is not a seed (a whole number)"))?;
                    seed = Some(n);
                }
                _ => return Err(format!("unexpected '{word}' after the seed")),
            }
        }
        // Without a seed, the next one comes from the engine's own stream.
        let seed = seed.unwrap_or_else(|| self.deal_rng.next_u64());
        let (board, deal_rng) = new_game(seed, rules);
        self.board = board;
        self.deal_rng = deal_rng;
        Ok(self.show())
    }

    /// `board TEXT`
    fn load(&mut self, text: &str) -> Result<String, String> {
        self.board = text.parse::<Board>().map_err(|e| e.to_string())?;
        Ok("ok".to_string())
    }

    /// `go [BUDGET]`
    fn go(&mut self, args: &str) -> Result<String, String> {
        let budget = if args.is_empty() {
            self.budget
        } else {
            args.parse::<Budget>().map_err(|e| e.to_string())?
        };
        let choice = Solver::new(budget).choose(&self.board, &mut self.solver_rng);
        Ok(choice.map_or("strike none".to_string(), |sq| format!("strike {sq}")))
    }

    /// `strike SQUARE [SYMBOL]`
    fn strike(&mut self, args: &str) -> Result<String, String> {
        let mut words = args.split_whitespace();
        let square: Square = words
            .next()
            .ok_or("strike needs a square, like 'strike c3'")?
            .parse()
            .map_err(|e: super::square::ParseSquareError| e.to_string())?;
        let symbol = match words.next() {
            None => None,
            Some(word) => Some(parse_symbol(word)?),
        };
        if let Some(extra) = words.next() {
            return Err(format!("unexpected '{extra}' after the new symbol"));
        }
        let next = match symbol {
            Some(s) => self.board.strike_as(square, Some(s)),
            None => self.board.strike(square, &mut self.deal_rng),
        }
        .map_err(|e| e.to_string())?;
        self.board = next;
        Ok(self.show())
    }
}

/// A symbol letter alone (`Q`, `4`, `W`, lower case accepted).
fn parse_symbol(word: &str) -> Result<Symbol, String> {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Symbol::from_letter(c),
        _ => None,
    }
    .ok_or_else(|| format!("'{word}' is not a symbol letter (1 2 3 4 N B R Q W L S X)"))
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run(seed: u64, budget: Budget) -> io::Result<()> {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    serve(stdin.lock(), &mut stdout, seed, budget)
}

/// Runs the protocol on any pair of streams (tests use buffers).
pub fn serve(
    input: impl BufRead,
    output: &mut impl Write,
    seed: u64,
    budget: Budget,
) -> io::Result<()> {
    let mut engine = Engine::new(seed, budget);
    // Bytes, not `lines()`: a line that is not UTF-8 must get an answer
    // (an error naming the junk), not end the session.
    for line in input.split(b'\n') {
        let bytes = line?;
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim_end_matches('\r');
        log::debug!("engine <- {line}");
        match engine.handle(line) {
            Reply::Line(reply) => {
                log::debug!("engine -> {reply}");
                writeln!(output, "{reply}")?;
                output.flush()?;
            }
            Reply::Silent => {}
            Reply::Quit => break,
        }
    }
    Ok(())
}
