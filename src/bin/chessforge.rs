//! `chessforge`: play the ChessForge puzzle in the terminal, benchmark the
//! policies, or run the engine protocol on stdin/stdout.

use std::process::ExitCode;

use antichess::chessforge::bench::{self, paired_difference};
use antichess::chessforge::policy::Policy;
use antichess::chessforge::solver::Budget;
use antichess::chessforge::{RuleSet, engine, play};
use antichess::web::{self, chessforge::Setup};
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "chessforge",
    about = "The ChessForge tile puzzle and its solver"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal; type a square like c3, `hint` or `quit`.
    Play {
        /// Seed of the board and its replacements (random if left out).
        #[arg(long)]
        seed: Option<u64>,
        /// Rule set.
        #[arg(long, value_enum, default_value_t = Rules::Standard)]
        rules: Rules,
        /// Solver budget for hints: playouts (2000) or time (50ms).
        #[arg(long, default_value = "2000")]
        budget: Budget,
        /// Play on a board in the web browser: serve the ChessForge page and
        /// print its address.
        #[arg(long)]
        display: bool,
        /// With --display: the address to listen on.
        #[arg(long, default_value = "127.0.0.1", requires = "display")]
        host: String,
        /// With --display: the port (0 picks a free one).
        #[arg(long, default_value_t = 8080, requires = "display")]
        port: u16,
    },
    /// Play seeded games with one or more policies and summarise them.
    Solve {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Seed of the first game; game i uses seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Policies, comma-separated: random, greedy, heuristic, solver.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "solver")]
        policy: Vec<PolicyName>,
        /// Solver budget per decision: playouts (1000) or time (50ms).
        #[arg(long, default_value = "1000")]
        budget: Budget,
        /// Rule set.
        #[arg(long, value_enum, default_value_t = Rules::Standard)]
        rules: Rules,
        /// Worker threads (results do not depend on it).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Speak the engine protocol (protocol.md) on stdin/stdout.
    Engine {
        /// Seed for the engine's own random draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Default solver budget for `go`.
        #[arg(long, default_value = "1000")]
        budget: Budget,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Rules {
    Standard,
    Extra,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PolicyName {
    Random,
    Greedy,
    Heuristic,
    Solver,
}

impl From<Rules> for RuleSet {
    fn from(r: Rules) -> RuleSet {
        match r {
            Rules::Standard => RuleSet::Standard,
            Rules::Extra => RuleSet::Extra,
        }
    }
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play {
            seed,
            rules,
            budget,
            display: true,
            host,
            port,
        } => display(seed, rules.into(), budget, host, port).map_err(std::io::Error::other),
        Command::Play {
            seed,
            rules,
            budget,
            ..
        } => play::run(seed, rules.into(), budget),
        Command::Solve {
            games,
            seed,
            policy,
            budget,
            rules,
            threads,
        } => {
            solve(games, seed, &policy, budget, rules.into(), threads);
            Ok(())
        }
        Command::Engine { seed, budget } => engine::run(seed, budget),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chessforge: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `play --display`: the game on the web board's ChessForge page, served
/// until the program is stopped; the page's address goes to stdout.
fn display(
    seed: Option<u64>,
    rules: RuleSet,
    budget: Budget,
    host: String,
    port: u16,
) -> Result<(), String> {
    // A short seed, shown exactly on the page and easy to type back.
    let seed = seed.unwrap_or_else(|| play::clock_seed() % 1_000_000);
    let app = web::App::new();
    let id = app.chessforge.open(Setup {
        seed,
        rules,
        budget,
    });
    let options = web::ServeOptions {
        host,
        port,
        page: format!("chessforge?game={id}"),
    };
    web::serve_app(&options, app)
}

fn solve(
    games: usize,
    seed: u64,
    names: &[PolicyName],
    budget: Budget,
    rules: RuleSet,
    threads: usize,
) {
    let mut summaries = Vec::new();
    for name in names {
        let policy = match name {
            PolicyName::Random => Policy::Random,
            PolicyName::Greedy => Policy::Greedy,
            PolicyName::Heuristic => Policy::Heuristic,
            PolicyName::Solver => Policy::Solver(budget),
        };
        let summary = bench::run(seed, games, rules, policy, threads);
        println!("{summary}");
        if let Policy::Solver(_) = policy {
            println!("budget          {budget}");
        }
        println!();
        summaries.push(summary);
    }
    // Paired differences: each solver run against each baseline run.
    for solver in summaries
        .iter()
        .filter(|s| matches!(s.policy, Policy::Solver(_)))
    {
        for base in summaries
            .iter()
            .filter(|s| !matches!(s.policy, Policy::Solver(_)))
        {
            let diff = paired_difference(&solver.per_game, &base.per_game);
            println!(
                "solver - {:<9} {diff} strikes per game (paired over the same seeds, 95% CI)",
                base.policy.name()
            );
        }
    }
}
