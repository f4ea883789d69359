//! The text interface of the handout's section 5: what the terminal shows
//! of the game, and the person's own turns.
//!
//! The screen is the transcript being written, with the person typing
//! their own entries into it. With the person playing White, Black's entry
//! opens the line (`1. 11-15 `) and the person completes it; with the
//! person playing Black, they type after `1. ` and White's reply gets a
//! line of its own (`1. ... 24-20`). Without a person at the keyboard the
//! screen is exactly the transcript, line by line. `b` prints the board;
//! anything not allowed gets `Error: illegal move. Try again.` and the
//! prompt again.

use std::io::{self, BufRead, Write};

use crate::checkers::board::Color;
use crate::checkers::notation::Action;
use crate::checkers::record::Record;

/// The message for any rejected input, as the handout words it.
pub const ILLEGAL: &str = "Error: illegal move. Try again.";

/// The terminal: where the game is shown and the person's moves are read.
pub struct Console<R, W> {
    input: R,
    output: W,
    /// Whether anything is shown at all (not when a machine plays itself
    /// and the transcript goes to a file).
    visible: bool,
    /// A transcript line has been started and not ended.
    line_open: bool,
}

impl<R: BufRead, W: Write> Console<R, W> {
    /// A console reading the person's moves from `input` and showing the
    /// game on `output`; when not `visible` (machines only, transcript to a
    /// file) it shows nothing.
    pub fn new(input: R, output: W, visible: bool) -> Self {
        Console {
            input,
            output,
            visible,
            line_open: false,
        }
    }

    /// Shows an action the person did not type, just before it is applied
    /// to `record`.
    pub fn show(&mut self, record: &Record, action: Action) -> io::Result<()> {
        if !self.visible {
            return Ok(());
        }
        let number = record.move_number();
        match record.side_to_act() {
            Color::Black => {
                write!(self.output, "{number}. {action}")?;
                self.line_open = true;
            }
            Color::White => {
                if self.line_open {
                    writeln!(self.output, " {action}")?;
                } else {
                    writeln!(self.output, "{number}. ... {action}")?;
                }
                self.line_open = false;
            }
        }
        self.output.flush()
    }

    /// Shows the end of the game: the score on a line of its own.
    pub fn show_result(&mut self, record: &Record) -> io::Result<()> {
        if !self.visible {
            return Ok(());
        }
        if self.line_open {
            writeln!(self.output)?;
            self.line_open = false;
        }
        if let Some(score) = record.result() {
            writeln!(self.output, "{score}")?;
        }
        self.output.flush()
    }

    /// Writes the prompt for the person's turn.
    fn prompt(&mut self, record: &Record, first: bool) -> io::Result<()> {
        let number = record.move_number();
        match record.side_to_act() {
            Color::Black => write!(self.output, "{number}. ")?,
            // The line with Black's entry is still open the first time.
            Color::White if first && self.line_open => write!(self.output, " ")?,
            Color::White => match record.actions().last() {
                Some(black) => write!(self.output, "{number}. {black} ")?,
                None => write!(self.output, "{number}. ... ")?,
            },
        }
        self.output.flush()
    }

    /// Reads the person's next action, showing the board on `b` and
    /// insisting until the input is allowed. `None` at the end of input.
    pub fn ask(&mut self, record: &Record) -> io::Result<Option<Action>> {
        let mut first = true;
        loop {
            self.prompt(record, first)?;
            first = false;
            // Whatever happens, the person's Enter ends the line.
            self.line_open = false;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.output)?;
                return Ok(None);
            }
            let text = line.trim();
            if text == "b" {
                write!(self.output, "{}", record.position().to_picture())?;
                continue;
            }
            if text.is_empty() {
                continue;
            }
            match record.parse_allowed(text) {
                Ok(action) => return Ok(Some(action)),
                Err(e) => {
                    log::debug!("rejected input: {e}");
                    writeln!(self.output, "{ILLEGAL}")?;
                }
            }
        }
    }
}
