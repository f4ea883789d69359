//! The `antichess` command line: subcommands parsed by clap into a typed
//! enum, each handed to the layer that owns it. With no subcommand the
//! program is the headless engine speaking the line protocol.

use crate::chess::{GameFile, Position, Rules, divide, perft};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

/// A fast, strong machine player for antichess, chess and checkers.
#[derive(Parser, Debug)]
#[command(name = "antichess", version, about)]
pub struct Cli {
    /// What to do; without one, speak the engine line protocol on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the legal move tree.
    Perft {
        /// Plies to look ahead.
        depth: u32,
        /// Rule set: antichess, antichess1994 or chess.
        #[arg(long, default_value = "antichess")]
        rules: Rules,
        /// A game file, or a one-line board (`white 300000 300000 rnbqkbnr ...`).
        #[arg(long, conflicts_with = "fen")]
        board: Option<String>,
        /// A position in FEN.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal move.
        #[arg(long)]
        divide: bool,
    },
    /// Testing aid: read FENs from stdin, one per line, and print for each
    /// the status (score and reason, or `* -`) and the sorted legal moves
    /// in UCI form. Used by scripts/oracle_check.py.
    #[command(hide = true)]
    Legal {
        /// Rule set: antichess, antichess1994 or chess.
        #[arg(long, default_value = "antichess")]
        rules: Rules,
    },
}

/// Reads `--board` (a file name or the board itself) or `--fen`.
pub fn load_position(
    board: Option<&str>,
    fen: Option<&str>,
    rules: Rules,
) -> Result<Position, String> {
    if let Some(fen) = fen {
        return Position::from_fen(fen, rules).map_err(|e| format!("bad FEN: {e}"));
    }
    let Some(board) = board else {
        return Ok(Position::startpos(rules));
    };
    let text = if std::path::Path::new(board).is_file() {
        std::fs::read_to_string(board).map_err(|e| format!("cannot read {board}: {e}"))?
    } else {
        board.to_string()
    };
    GameFile::parse(&text, rules)
        .map(|g| g.position)
        .map_err(|e| format!("bad board: {e}"))
}

fn run_perft(
    depth: u32,
    rules: Rules,
    board: Option<&str>,
    fen: Option<&str>,
    split: bool,
) -> Result<(), String> {
    let pos = load_position(board, fen, rules)?;
    let start = Instant::now();
    let nodes = if split {
        let mut total = 0;
        for (mv, n) in divide(&pos, depth) {
            println!("{} {n}", mv.handout());
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{nodes} leaves {:.0} leaves/s",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}

fn run_legal(rules: Rules) -> Result<(), String> {
    use std::io::{BufRead, Write};
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("cannot read stdin: {e}"))?;
        let answer = match Position::from_fen(&line, rules) {
            Err(e) => format!("error {e}"),
            Ok(pos) => {
                let status = pos.status();
                let reason = status.reason().map_or("-", |r| r.name());
                let mut moves = crate::search::MoveList::new();
                pos.legal_moves(&mut moves);
                let mut moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                moves.sort();
                format!("{} {reason} {}", status.score(), moves.join(" "))
            }
        };
        writeln!(out, "{}", answer.trim_end()).map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

/// Runs the program; the binary only calls this.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            rules,
            board,
            fen,
            divide,
        }) => run_perft(depth, rules, board.as_deref(), fen.as_deref(), divide),
        Some(Command::Legal { rules }) => run_legal(rules),
        None => Err("the engine protocol is not built yet".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
