//! `antichess play`: a person against the machine (or another person) in
//! the terminal, as the 6.170 handouts' human-computer game and the CS 246
//! chess project ask: board, names, clocks, moves checked with reasons,
//! the machine's replies announced in words, save and load in the game
//! file format, clock and name changes, undo, setup mode, and a running
//! score printed at the end.
//!
//! The screen is plain text redrawn after each exchange (cleared with ANSI
//! codes when the output is a terminal), so it works in any terminal and
//! can be driven by tests. The machine is our own engine run as a child
//! process through the referee's players.

pub mod commands;
mod screen;

use crate::chess::{
    Color, GameFile, GameRecord, Move, Piece, PieceKind, Position, Rules, Setup, Square,
};
use crate::cli::PlayArgs;
use crate::referee::clock::{self, Clocks};
use crate::referee::game::{Ending, GameResult, move_fault};
use crate::referee::player::{EngineBinary, Fault, FaultKind, Player, PlayerSpec, Turn};
use commands::{Command, HELP, SETUP_HELP, Seat, SetupCommand};
use screen::{CLEAR, View};
use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long past its flag the machine may answer before it is called hung.
const MACHINE_GRACE: Duration = Duration::from_secs(2);

/// Where the game stands.
#[derive(Clone, Debug)]
enum Phase {
    /// Moves are being played.
    Playing,
    /// The game is over with a result.
    Over(Box<GameResult>),
    /// The person ended it without a result.
    Ended,
}

/// What the next line typed means.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// A move or a command.
    Normal,
    /// Setup mode: editing this board.
    Setup {
        board: [Option<Piece>; 64],
        side: Color,
    },
    /// The piece a pawn going from `from` to `to` becomes.
    Promotion { from: Square, to: Square },
}

/// Whether to go on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// A session of games.
pub struct Session {
    rules: Rules,
    level: u32,
    time_ms: u64,
    record: GameRecord,
    clocks: Clocks,
    seats: [Seat; 2],
    names: [Option<String>; 2],
    machines: [Option<Box<dyn Player>>; 2],
    opponent: Option<PlayerSpec>,
    engine: EngineBinary,
    phase: Phase,
    mode: Mode,
    score: [f64; 2],
    notes: Vec<String>,
    ansi: bool,
}

/// Runs `antichess play` on the terminal.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let color = commands::parse_color(&args.color)
        .ok_or_else(|| format!("--color must be white or black, not '{}'", args.color))?;
    if !args.time.is_finite() || !(0.0..=1e9).contains(&args.time) {
        return Err(format!(
            "--time must be a number of seconds, not {}",
            args.time
        ));
    }
    let time_ms = (args.time * 1000.0).round() as u64;
    let mut session = Session::new(args.rules, color, args.level, time_ms);
    session.opponent = args.opponent.clone();
    session.ansi = std::io::stdout().is_terminal();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    session.run(stdin.lock(), &mut stdout.lock());
    Ok(())
}

impl Session {
    /// A session whose first game has the person playing `color` against
    /// the machine at `level`, each side with `time_ms`.
    pub fn new(rules: Rules, color: Color, level: u32, time_ms: u64) -> Session {
        let mut seats = [Seat::Computer(level); 2];
        seats[color.index()] = Seat::Human;
        let start = Position::startpos(rules);
        Session {
            rules,
            level,
            time_ms,
            record: GameRecord::new(start),
            clocks: Clocks::new(time_ms, time_ms, 0),
            seats,
            names: [None, None],
            machines: [None, None],
            opponent: None,
            engine: EngineBinary::default(),
            phase: Phase::Playing,
            mode: Mode::Normal,
            score: [0.0; 2],
            notes: Vec::new(),
            ansi: false,
        }
    }

    /// Reads lines until `quit` or the end of input, drawing the screen
    /// after each; prints the session's score at the end.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) {
        let mut lines = input.lines();
        loop {
            self.advance(out);
            self.draw(out, None);
            let _ = write!(out, "{}", self.prompt());
            let _ = out.flush();
            if let (Phase::Playing, Mode::Normal) = (&self.phase, self.mode) {
                let side = self.side();
                if self.clocks.running() != Some(side) {
                    self.clocks.start(side);
                }
            }
            let Some(Ok(line)) = lines.next() else {
                let _ = writeln!(out);
                break;
            };
            self.check_flag();
            if self.handle(&line) == Flow::Quit {
                break;
            }
        }
        let [w, b] = self.score;
        let _ = writeln!(out, "Final score:\nWhite {w}\nBlack {b}");
    }

    fn side(&self) -> Color {
        self.record.position().side_to_move()
    }

    fn name(&self, color: Color) -> String {
        if let Some(name) = &self.names[color.index()] {
            return name.clone();
        }
        match self.seats[color.index()] {
            Seat::Human if self.seats[color.flip().index()] == Seat::Human => {
                format!("Player {}", color.index() + 1)
            }
            Seat::Human => "You".to_string(),
            Seat::Computer(_) => self
                .opponent
                .as_ref()
                .map_or("antichess".to_string(), PlayerSpec::label),
        }
    }

    fn prompt(&self) -> String {
        match (&self.phase, self.mode) {
            (_, Mode::Setup { .. }) => "setup> ".to_string(),
            (_, Mode::Promotion { .. }) => "promote to (q, r, b, n)> ".to_string(),
            (Phase::Playing, Mode::Normal) => format!("{}> ", self.side()),
            _ => "> ".to_string(),
        }
    }

    fn draw(&mut self, out: &mut impl Write, status: Option<String>) {
        let (board, marked, to_move, default_status) = match self.mode {
            Mode::Setup { board, side } => (
                board,
                Vec::new(),
                None,
                format!("Setup: {side} moves first. Type done to play, help for the commands."),
            ),
            _ => {
                let marked = self
                    .record
                    .moves()
                    .last()
                    .map_or(Vec::new(), |m| vec![m.from(), m.to()]);
                let (to_move, status) = match &self.phase {
                    Phase::Playing => {
                        let side = self.side();
                        let hint = match self.seats[side.index()] {
                            Seat::Human => ": type a move, or help",
                            Seat::Computer(_) => "",
                        };
                        (Some(side), format!("{} to move{hint}.", capitalised(side)))
                    }
                    Phase::Over(result) => (
                        None,
                        format!("Game over, {result}. Type new for another game, or quit."),
                    ),
                    Phase::Ended => (
                        None,
                        "No game in progress: type new, game or load, or quit.".to_string(),
                    ),
                };
                (self.record.position().board(), marked, to_move, status)
            }
        };
        let side = |color: Color| screen::Side {
            name: self.name(color),
            seat: self.seats[color.index()].to_string(),
            clock: clock::show(self.clocks.left(color)),
        };
        let view = View {
            title: format!(
                "antichess play: {} rules   score: white {} - black {}",
                self.rules, self.score[0], self.score[1]
            ),
            board,
            marked: &marked,
            sides: [side(Color::White), side(Color::Black)],
            to_move,
            status: status.unwrap_or(default_status),
            notes: &self.notes,
        };
        let text = screen::render(&view);
        let clear = if self.ansi { CLEAR } else { "" };
        let _ = write!(out, "{clear}{text}");
        let _ = out.flush();
        self.notes.clear();
    }

    /// Plays the machine's moves while it is a machine's turn.
    fn advance(&mut self, out: &mut impl Write) {
        while let (Phase::Playing, Mode::Normal) = (&self.phase, self.mode) {
            let side = self.side();
            let Seat::Computer(level) = self.seats[side.index()] else {
                return;
            };
            let notes = self.notes.clone();
            self.draw(out, Some(format!("{} is thinking...", capitalised(side))));
            self.notes = notes;
            self.machine_move(side, level);
        }
    }

    fn machine_move(&mut self, side: Color, level: u32) {
        let machine = match self.machines[side.index()].take() {
            Some(machine) => Ok(machine),
            None => self.start_machine(side, level),
        };
        let mut machine = match machine {
            Ok(machine) => machine,
            Err(fault) => return self.fault(side, fault),
        };
        let left = self.clocks.left(side);
        let turn = Turn {
            game: &self.record,
            my_ms: clock::millis(left),
            their_ms: self.clocks.left_ms(side.flip()),
            increment_ms: self.clocks.increment_ms(),
            deadline: Instant::now() + left + MACHINE_GRACE,
        };
        self.clocks.start(side);
        let answer = machine.choose(&turn);
        let flagged = self.clocks.stop().is_some_and(|s| s.flagged);
        let text = match answer {
            Ok(text) => text,
            Err(fault) => return self.fault(side, fault),
        };
        if flagged {
            return self.fault(side, Fault::new(FaultKind::Flag, "the clock ran out"));
        }
        match self.record.position().parse_move(&text) {
            Ok(mv) => {
                self.machines[side.index()] = Some(machine);
                self.notes.push(format!("{side} moved {}", mv.handout()));
                self.record.play(mv);
                self.check_status();
            }
            Err(e) => self.fault(side, move_fault(&text, &e)),
        }
    }

    fn start_machine(&self, side: Color, level: u32) -> Result<Box<dyn Player>, Fault> {
        let spec = self
            .opponent
            .clone()
            .unwrap_or(PlayerSpec::Builtin { level });
        let mut machine = spec.build(&self.name(side), &self.engine)?;
        machine.new_game(self.record.start(), side)?;
        Ok(machine)
    }

    fn fault(&mut self, side: Color, fault: Fault) {
        self.finish(GameResult {
            winner: Some(side.flip()),
            ending: Ending::Fault { side, fault },
            record: self.record.clone(),
        });
    }

    fn finish(&mut self, result: GameResult) {
        self.clocks.pause();
        match result.winner {
            Some(w) => self.score[w.index()] += 1.0,
            None => {
                self.score[0] += 0.5;
                self.score[1] += 0.5;
            }
        }
        self.phase = Phase::Over(Box::new(result));
    }

    fn check_status(&mut self) {
        if let Some(result) = GameResult::from_status(self.record.status(), &self.record) {
            self.finish(result);
        }
    }

    /// A person whose time ran out while typing loses when the line comes.
    fn check_flag(&mut self) {
        if let Phase::Playing = self.phase {
            let side = self.side();
            if self.seats[side.index()] == Seat::Human && self.clocks.flagged(side) {
                self.fault(side, Fault::new(FaultKind::Flag, "the clock ran out"));
            }
        }
    }

    fn handle(&mut self, line: &str) -> Flow {
        match self.mode {
            Mode::Setup { board, side } => {
                self.handle_setup(line, board, side);
                Flow::Continue
            }
            Mode::Promotion { from, to } => {
                self.mode = Mode::Normal;
                match PieceKind::from_letter(line.trim().chars().next().unwrap_or(' ')) {
                    Some(kind) if self.rules.promotions().contains(&kind) => {
                        self.play_human(Move::new(from, to, Some(kind)));
                        Flow::Continue
                    }
                    _ => {
                        self.notes.push("promotion cancelled".to_string());
                        self.handle(line)
                    }
                }
            }
            Mode::Normal => match commands::parse(line) {
                Ok(command) => self.command(command),
                Err(e) => {
                    self.notes.push(e.to_string());
                    Flow::Continue
                }
            },
        }
    }

    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Quit => return Flow::Quit,
            Command::Move(text) => self.typed_move(&text),
            Command::Help => self.notes.extend(HELP.lines().map(str::to_string)),
            Command::Show => {}
            Command::New {
                color,
                level,
                rules,
            } => {
                self.level = level.unwrap_or(self.level);
                self.rules = rules.unwrap_or(self.rules);
                let person = color.unwrap_or_else(|| {
                    if self.seats[1] == Seat::Human && self.seats[0] != Seat::Human {
                        Color::Black
                    } else {
                        Color::White
                    }
                });
                self.seats = [Seat::Computer(self.level); 2];
                self.seats[person.index()] = Seat::Human;
                self.new_game(Position::startpos(self.rules), self.time_ms, self.time_ms);
            }
            Command::Game { white, black } => {
                self.seats = [white, black];
                self.new_game(Position::startpos(self.rules), self.time_ms, self.time_ms);
            }
            Command::Save(path) => self.save(&path),
            Command::Load { path, side } => self.load(&path, side),
            Command::Time { side, ms } => {
                self.clocks.set_ms(side, ms);
                self.notes.push(format!(
                    "{side}'s clock set to {}",
                    clock::show(Duration::from_millis(ms))
                ));
            }
            Command::Name { side, name } => {
                self.notes.push(format!("{side} is now called {name}"));
                self.names[side.index()] = Some(name);
            }
            Command::Undo => self.undo(),
            Command::Setup => {
                self.clocks.pause();
                let pos = self.record.position();
                self.mode = Mode::Setup {
                    board: pos.board(),
                    side: pos.side_to_move(),
                };
                self.notes.extend(SETUP_HELP.lines().map(str::to_string));
            }
            Command::Resign => match self.phase {
                Phase::Playing => {
                    let side = self.side();
                    let loser = if self.seats[side.index()] == Seat::Human {
                        side
                    } else {
                        side.flip()
                    };
                    self.finish(GameResult {
                        winner: Some(loser.flip()),
                        ending: Ending::Resigned(loser),
                        record: self.record.clone(),
                    });
                }
                _ => self.notes.push("there is no game to resign".to_string()),
            },
            Command::End => {
                self.clocks.pause();
                if let Phase::Playing = self.phase {
                    self.notes.push("game ended without a result".to_string());
                }
                self.phase = Phase::Ended;
            }
        }
        Flow::Continue
    }

    fn typed_move(&mut self, text: &str) {
        if !matches!(self.phase, Phase::Playing) {
            self.notes
                .push("the game is over: type new for another game, or quit".to_string());
            return;
        }
        let pos = *self.record.position();
        match pos.parse_move(text) {
            Err(e) => {
                let mut message = e.to_string();
                if matches!(e, crate::chess::MoveError::Syntax(_)) {
                    message.push_str("; type help for the commands");
                }
                self.notes.push(message);
            }
            Ok(mv) => {
                let bare: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
                let typed_letter = bare.len() == 5;
                if mv.promotion().is_some() && self.rules.promotions().len() > 1 && !typed_letter {
                    self.mode = Mode::Promotion {
                        from: mv.from(),
                        to: mv.to(),
                    };
                    self.notes
                        .push("Which piece should the pawn become? q, r, b or n".to_string());
                } else {
                    self.play_human(mv);
                }
            }
        }
    }

    fn play_human(&mut self, mv: Move) {
        let side = self.side();
        if !self.record.position().is_legal(mv) {
            self.notes
                .push(format!("{} is not legal here", mv.handout()));
            return;
        }
        if self.clocks.stop().is_some_and(|s| s.flagged) {
            return self.fault(side, Fault::new(FaultKind::Flag, "the clock ran out"));
        }
        self.notes.push(format!("{side} moved {}", mv.handout()));
        self.record.play(mv);
        self.check_status();
    }

    fn new_game(&mut self, start: Position, white_ms: u64, black_ms: u64) {
        self.clocks = Clocks::new(white_ms, black_ms, 0);
        self.record = GameRecord::new(start);
        self.machines = [None, None];
        self.phase = Phase::Playing;
        self.mode = Mode::Normal;
        self.notes.push(format!(
            "New {} game: white {}, black {}",
            self.rules, self.seats[0], self.seats[1]
        ));
        self.check_status();
    }

    fn save(&mut self, path: &str) {
        let file = GameFile {
            position: *self.record.position(),
            white_ms: self.clocks.left_ms(Color::White),
            black_ms: self.clocks.left_ms(Color::Black),
            style: crate::chess::FileStyle::Y2002,
        };
        match crate::referee::write_atomically(std::path::Path::new(path), &file.write("\n")) {
            Ok(()) => self.notes.push(format!("saved to {path}")),
            Err(e) => self.notes.push(format!("not saved: {e}")),
        }
    }

    fn load(&mut self, path: &str, side: Option<Color>) {
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| GameFile::parse(&text, self.rules).map_err(|e| e.to_string()));
        let file = match loaded {
            Ok(file) => file,
            Err(e) => {
                self.notes.push(format!(
                    "cannot load {path}: {e}; the current game is unchanged"
                ));
                return;
            }
        };
        if let Some(side) = side {
            self.seats = [Seat::Computer(self.level); 2];
            self.seats[side.index()] = Seat::Human;
        }
        self.new_game(file.position, file.white_ms, file.black_ms);
        self.notes.push(format!("loaded {path}"));
    }

    fn undo(&mut self) {
        let mut taken = 0;
        while self.record.undo() {
            taken += 1;
            if self.seats[self.side().index()] == Seat::Human {
                break;
            }
        }
        if taken == 0 {
            self.notes.push("there is no move to take back".to_string());
            return;
        }
        if let Phase::Over(result) = &self.phase {
            // The game goes on, so its result no longer counts.
            match result.winner {
                Some(w) => self.score[w.index()] -= 1.0,
                None => {
                    self.score[0] -= 0.5;
                    self.score[1] -= 0.5;
                }
            }
        }
        self.clocks.pause();
        self.phase = Phase::Playing;
        let plural = if taken == 1 { "" } else { "s" };
        self.notes.push(format!("took back {taken} move{plural}"));
    }

    fn handle_setup(&mut self, line: &str, mut board: [Option<Piece>; 64], mut side: Color) {
        match commands::parse_setup(line) {
            Err(e) => self.notes.push(e.to_string()),
            Ok(SetupCommand::Place(piece, sq)) => board[sq.index()] = Some(piece),
            Ok(SetupCommand::Remove(sq)) => board[sq.index()] = None,
            Ok(SetupCommand::Side(color)) => side = color,
            Ok(SetupCommand::Clear) => board = [None; 64],
            Ok(SetupCommand::Start) => {
                board = Position::startpos(self.rules).board();
                side = Color::White;
            }
            Ok(SetupCommand::Help) => self.notes.extend(SETUP_HELP.lines().map(str::to_string)),
            Ok(SetupCommand::Show) => {}
            Ok(SetupCommand::Done) => {
                let setup = Setup::new(board, side);
                match Position::from_setup(&setup, self.rules) {
                    Ok(pos) if pos.in_check() => self.notes.push(format!(
                        "cannot leave setup: {side}'s king is in check; set up a position with no king in check"
                    )),
                    Ok(pos) => {
                        let (w, b) = (self.clocks.left_ms(Color::White), self.clocks.left_ms(Color::Black));
                        self.new_game(pos, w, b);
                        return;
                    }
                    Err(e) => self.notes.push(format!("cannot leave setup: {e}")),
                }
            }
        }
        self.mode = Mode::Setup { board, side };
    }
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}
