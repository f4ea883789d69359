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
//! process through the referee's players. The game itself (seats, record,
//! clocks, result, the checks on a person's move) is the referee's
//! [`Table`], which the web board shares.
//!
//! [`checkers`] is the terminal front end of the other board game, the
//! CS61B `checkers` program.

pub mod checkers;
pub mod commands;
mod screen;

use crate::chess::{Color, Move, Piece, PieceKind, Position, Rules, Setup, Square};
use crate::referee::clock;
use crate::referee::game::move_fault;
use crate::referee::player::{EngineBinary, Fault, Player, PlayerSpec, Turn};
use crate::referee::table::{Phase, Refusal, Table, Typed};
use commands::{Command, HELP, SETUP_HELP, Seat, SetupCommand};
use screen::{CLEAR, View};
use std::io::{BufRead, IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long past its flag the machine may answer before it is called hung.
const MACHINE_GRACE: Duration = Duration::from_secs(2);

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
    table: Table,
    names: [Option<String>; 2],
    machines: [Option<Box<dyn Player>>; 2],
    opponent: Option<PlayerSpec>,
    engine: EngineBinary,
    mode: Mode,
    score: [f64; 2],
    /// Whether the finished game's result is in the score.
    counted: bool,
    notes: Vec<String>,
    ansi: bool,
}

/// Options of `antichess play`, as the command line takes them.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Rule set: antichess, antichess1994 or chess.
    #[arg(long, default_value = "antichess")]
    pub rules: Rules,
    /// The colour you play.
    #[arg(long, default_value = "white")]
    pub color: String,
    /// The machine's level.
    #[arg(long, default_value_t = 3)]
    pub level: u32,
    /// Each side's time in seconds.
    #[arg(long, default_value_t = 300.0)]
    pub time: f64,
    /// Play against this engine instead of ours (a player spec as in `match`).
    #[arg(long)]
    pub opponent: Option<PlayerSpec>,
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
        let mut seats = [Seat::Machine(level); 2];
        seats[color.index()] = Seat::Human;
        let start = Position::startpos(rules);
        Session {
            rules,
            level,
            time_ms,
            table: Table::new(start, time_ms, time_ms, seats),
            names: [None, None],
            machines: [None, None],
            opponent: None,
            engine: EngineBinary::default(),
            mode: Mode::Normal,
            score: [0.0; 2],
            counted: false,
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
            self.count_result();
            self.draw(out, None);
            let _ = write!(out, "{}", self.prompt());
            let _ = out.flush();
            if let Mode::Normal = self.mode {
                self.table.start_clock();
            }
            let Some(Ok(line)) = lines.next() else {
                let _ = writeln!(out);
                break;
            };
            // A person whose time ran out while typing loses when the line comes.
            self.table.check_flag();
            let flow = self.handle(&line);
            self.count_result();
            if flow == Flow::Quit {
                break;
            }
        }
        let [w, b] = self.score;
        let _ = writeln!(out, "Final score:\nWhite {w}\nBlack {b}");
    }

    fn side(&self) -> Color {
        self.table.side()
    }

    /// Adds a finished game's result to the score, once.
    fn count_result(&mut self) {
        if let Phase::Over(result) = self.table.phase()
            && !self.counted
        {
            match result.winner {
                Some(w) => self.score[w.index()] += 1.0,
                None => {
                    self.score[0] += 0.5;
                    self.score[1] += 0.5;
                }
            }
            self.counted = true;
        }
    }

    fn name(&self, color: Color) -> String {
        if let Some(name) = &self.names[color.index()] {
            return name.clone();
        }
        match self.table.seat(color) {
            Seat::Human if self.table.seat(color.flip()) == Seat::Human => {
                format!("Player {}", color.index() + 1)
            }
            Seat::Human => "You".to_string(),
            Seat::Machine(_) => self
                .opponent
                .as_ref()
                .map_or("antichess".to_string(), PlayerSpec::label),
        }
    }

    fn prompt(&self) -> String {
        match (self.table.phase(), self.mode) {
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
                    .table
                    .record()
                    .moves()
                    .last()
                    .map_or(Vec::new(), |m| vec![m.from(), m.to()]);
                let (to_move, status) = match self.table.phase() {
                    Phase::Playing => {
                        let side = self.side();
                        let hint = match self.table.seat(side) {
                            Seat::Human => ": type a move, or help",
                            Seat::Machine(_) => "",
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
                (self.table.position().board(), marked, to_move, status)
            }
        };
        let side = |color: Color| screen::Side {
            name: self.name(color),
            seat: self.table.seat(color).to_string(),
            clock: clock::show(self.table.clocks().left(color)),
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
        while let (Some(Seat::Machine(level)), Mode::Normal) =
            (self.table.seat_to_move(), self.mode)
        {
            let side = self.side();
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
            Err(fault) => return self.table.lose(side, fault),
        };
        let clocks = *self.table.clocks();
        let left = clocks.left(side);
        self.table.start_clock();
        let turn = Turn {
            game: self.table.record(),
            my_ms: clock::millis(left),
            their_ms: clocks.left_ms(side.flip()),
            increment_ms: clocks.increment_ms(),
            deadline: Instant::now() + left + MACHINE_GRACE,
        };
        let answer = machine.choose(&turn);
        let text = match answer {
            Ok(text) => text,
            Err(fault) => return self.table.lose(side, fault),
        };
        match self.table.position().parse_move(&text) {
            Ok(mv) => {
                self.machines[side.index()] = Some(machine);
                self.play(mv);
            }
            Err(e) => self.table.lose(side, move_fault(&text, &e)),
        }
    }

    /// Plays a legal move of the side to move, announcing it unless the
    /// mover's clock had run out.
    fn play(&mut self, mv: Move) {
        let side = self.side();
        let before = self.table.record().moves().len();
        match self.table.play(mv) {
            Ok(()) if self.table.record().moves().len() > before => {
                self.notes.push(format!("{side} moved {}", mv.handout()));
            }
            Ok(()) => {}
            Err(Refusal::Illegal(_)) => self
                .notes
                .push(format!("{} is not legal here", mv.handout())),
            Err(e) => self.notes.push(e.to_string()),
        }
    }

    fn start_machine(&self, side: Color, level: u32) -> Result<Box<dyn Player>, Fault> {
        let spec = self
            .opponent
            .clone()
            .unwrap_or(PlayerSpec::Builtin { level });
        let mut machine = spec.build(&self.name(side), &self.engine)?;
        machine.new_game(self.table.record().start(), side)?;
        Ok(machine)
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
                        self.play(Move::new(from, to, Some(kind)));
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
                let [white, black] = self.table.seats();
                let person = color.unwrap_or_else(|| {
                    if black == Seat::Human && white != Seat::Human {
                        Color::Black
                    } else {
                        Color::White
                    }
                });
                let mut seats = [Seat::Machine(self.level); 2];
                seats[person.index()] = Seat::Human;
                let start = Position::startpos(self.rules);
                self.new_game(Table::new(start, self.time_ms, self.time_ms, seats));
            }
            Command::Game { white, black } => {
                let start = Position::startpos(self.rules);
                self.new_game(Table::new(
                    start,
                    self.time_ms,
                    self.time_ms,
                    [white, black],
                ));
            }
            Command::Save(path) => self.save(&path),
            Command::Load { path, side } => self.load(&path, side),
            Command::Time { side, ms } => {
                self.table.set_time(side, ms);
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
                self.table.pause_clock();
                let pos = self.table.position();
                self.mode = Mode::Setup {
                    board: pos.board(),
                    side: pos.side_to_move(),
                };
                self.notes.extend(SETUP_HELP.lines().map(str::to_string));
            }
            Command::Resign => {
                let side = self.side();
                let loser = if self.table.seat(side) == Seat::Human {
                    side
                } else {
                    side.flip()
                };
                if self.table.resign(loser).is_err() {
                    self.notes.push("there is no game to resign".to_string());
                }
            }
            Command::End => {
                if self.table.end() {
                    self.notes.push("game ended without a result".to_string());
                }
            }
        }
        Flow::Continue
    }

    fn typed_move(&mut self, text: &str) {
        match self.table.read_move(text) {
            Err(Refusal::GameOver) => self
                .notes
                .push("the game is over: type new for another game, or quit".to_string()),
            Err(Refusal::Illegal(e)) => {
                let mut message = e.to_string();
                if matches!(e, crate::chess::MoveError::Syntax(_)) {
                    message.push_str("; type help for the commands");
                }
                self.notes.push(message);
            }
            Ok(Typed::ChoosePromotion { from, to }) => {
                self.mode = Mode::Promotion { from, to };
                self.notes
                    .push("Which piece should the pawn become? q, r, b or n".to_string());
            }
            Ok(Typed::Move(mv)) => self.play(mv),
        }
    }

    fn new_game(&mut self, table: Table) {
        let [white, black] = table.seats();
        self.table = table;
        self.counted = false;
        self.machines = [None, None];
        self.mode = Mode::Normal;
        self.notes.push(format!(
            "New {} game: white {white}, black {black}",
            self.rules
        ));
    }

    fn save(&mut self, path: &str) {
        let file = self.table.game_file();
        match crate::referee::write_atomically(std::path::Path::new(path), &file.write("\n")) {
            Ok(()) => self.notes.push(format!("saved to {path}")),
            Err(e) => self.notes.push(format!("not saved: {e}")),
        }
    }

    fn load(&mut self, path: &str, side: Option<Color>) {
        let seats = match side {
            Some(side) => {
                let mut seats = [Seat::Machine(self.level); 2];
                seats[side.index()] = Seat::Human;
                seats
            }
            None => self.table.seats(),
        };
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| Table::from_file(&text, self.rules, seats).map_err(|e| e.to_string()));
        match loaded {
            Ok(table) => {
                self.new_game(table);
                self.notes.push(format!("loaded {path}"));
            }
            Err(e) => self.notes.push(format!(
                "cannot load {path}: {e}; the current game is unchanged"
            )),
        }
    }

    fn undo(&mut self) {
        let result = match self.table.phase() {
            Phase::Over(result) if self.counted => Some(result.winner),
            _ => None,
        };
        let taken = self.table.undo();
        if taken == 0 {
            self.notes.push("there is no move to take back".to_string());
            return;
        }
        if let Some(winner) = result {
            // The game goes on, so its result no longer counts.
            match winner {
                Some(w) => self.score[w.index()] -= 1.0,
                None => {
                    self.score[0] -= 0.5;
                    self.score[1] -= 0.5;
                }
            }
            self.counted = false;
        }
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
                        let clocks = self.table.clocks();
                        let (w, b) = (clocks.left_ms(Color::White), clocks.left_ms(Color::Black));
                        self.new_game(Table::new(pos, w, b, self.table.seats()));
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
