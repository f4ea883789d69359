//! The `antichess` command line: subcommands parsed by clap into a typed
//! enum, each handed to the layer that owns it. With no subcommand the
//! program is the headless engine speaking the line protocol.

// The options' doc comments are clap's help texts, written for the
// terminal (`random[:SEED]`), not for rustdoc's links.
#![allow(rustdoc::broken_intra_doc_links)]

use crate::chess::{GameFile, Position, Rules, divide, perft};
use crate::referee::player::PlayerSpec;
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
    /// Search a fixed set of positions to a fixed depth; the last line is
    /// `<nodes> nodes <nps> nps`, the node count being deterministic.
    Bench {
        /// Plies to search each position.
        #[arg(default_value_t = crate::engine::bench::DEFAULT_DEPTH)]
        depth: u32,
    },
    /// Play a series of refereed games between two engines.
    Match(Box<MatchArgs>),
    /// The SPRT of pentanomial counts of game pairs: prints one line,
    /// `llr=.. lower=.. upper=.. elo=.. nelo=.. los=..` and more.
    Sprt(SprtArgs),
    /// Make a small opening book: positions random walks of a few plies
    /// reach most often that a search judges not lost at once (EPD; for
    /// checkers, one line of moves an opening).
    Book(crate::referee::book::BookOptions),
    /// Play against the machine in the terminal.
    Play(crate::play::PlayArgs),
    /// Serve the web board: play in a browser, or through the JSON API
    /// (protocol.md, "Web"). Prints the page's address.
    Serve(ServeArgs),
    /// Fit the antichess evaluation's weights to the results of games
    /// (Texel tuning); prints them in the form `ANTICHESS_EVAL` reads.
    Tune {
        /// PGN files, as `antichess match --pgn` writes them.
        #[arg(required = true)]
        pgn: Vec<std::path::PathBuf>,
        /// Rule set whose games and weights: antichess or antichess1994.
        #[arg(long, default_value = "antichess")]
        rules: Rules,
        /// Passes of gradient descent.
        #[arg(long, default_value_t = 2000)]
        epochs: u32,
        /// Keep these weights as they are (comma-separated names).
        #[arg(long, value_delimiter = ',')]
        fixed: Vec<String>,
        /// Also label each position by a search of this many nodes (0:
        /// by the game's result alone).
        #[arg(long, default_value_t = 0)]
        search_nodes: u64,
        /// The search label's share of each position's label, from 0 to 1
        /// (the game's result has the rest).
        #[arg(long, default_value_t = 0.5)]
        search_weight: f64,
        /// Fit nothing: write the quiet positions of the games to this
        /// file, one a line (FEN, the game's result for the side to move,
        /// the game's start position, and with --search-nodes that
        /// search's score for the side to move; tab-separated), for
        /// labelling by another engine (scripts/research/judgement.py) or a study.
        #[arg(long)]
        positions: Option<std::path::PathBuf>,
        /// With --positions: also write the quiet ends of this many walks
        /// of one to four random plies off each position of the games
        /// (positions a search visits and a game does not).
        #[arg(long, default_value_t = 0, requires = "positions")]
        scatter: usize,
        /// With --positions: every position not in check, not only the
        /// quiet ones (most positions a search meets have a capture due).
        #[arg(long, requires = "positions")]
        every_position: bool,
        /// Hold the weights near the table in force: each pawn's worth
        /// (100) a weight moves costs this much squared error, so
        /// weights that move together cannot run off (0: no penalty).
        #[arg(long, default_value_t = 0.0)]
        ridge: f64,
        /// Fit on all but one opening in this many (both games of each,
        /// chosen by a hash of the start position), and report the
        /// squared error on those held out, before and after: whether a
        /// fit foretells games it has not seen (0: fit on every game).
        #[arg(long, default_value_t = 0)]
        hold_out: u64,
    },
    /// Fit the learned correction to the antichess evaluation
    /// (`ANTICHESS_NET`) to positions labelled by searches of ours, as
    /// `antichess tune --positions POS --search-nodes N` writes them.
    FitNet(crate::tune::net_fit::NetFitOptions),
    /// Play self-play games at a fixed node budget from random openings
    /// and write every position with the search's score and the game's
    /// result (the four columns `fit-net` reads): data for a learned
    /// evaluation
    GenData(crate::tune::selfplay::GenOptions),
    /// Generate the antichess endgame tables (each side a king and one
    /// other man) into a folder; the engine reads them from the folder
    /// named by `set tables`, UCI's `TablePath` or `ANTICHESS_TABLES`.
    Tables {
        /// The folder to write into (created if missing).
        dir: std::path::PathBuf,
        /// Rule set: antichess or antichess1994 (their pawnless tables are
        /// the same, kept once).
        #[arg(long, default_value = "antichess")]
        rules: Rules,
        /// Only these materials (and what their promotions need), side to
        /// move first: `KQvKN,KPvKP`.
        #[arg(long, value_delimiter = ',')]
        only: Vec<crate::chess::endgame::Material>,
        /// Check every table against its children by the move generator
        /// once all are solved (as long again).
        #[arg(long)]
        check: bool,
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

/// Options of `antichess match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// First player, colours alternating: level:N, random[:SEED], human,
    /// proto:COMMAND[;level=N] or uci:COMMAND[;NAME=VALUE]...
    #[arg(long, requires = "engine2", conflicts_with_all = ["white", "black", "gauntlet", "round_robin"])]
    pub engine1: Option<PlayerSpec>,
    /// Second player, colours alternating.
    #[arg(long, requires = "engine1")]
    pub engine2: Option<PlayerSpec>,
    /// White in every game.
    #[arg(long, requires = "black", conflicts_with_all = ["gauntlet", "round_robin"])]
    pub white: Option<PlayerSpec>,
    /// Black in every game.
    #[arg(long, requires = "white")]
    pub black: Option<PlayerSpec>,
    /// A gauntlet: the first player against each of the others, colours
    /// alternating (player specs as for --engine1).
    #[arg(long, num_args = 2.., value_name = "SPEC", conflicts_with = "round_robin")]
    pub gauntlet: Vec<PlayerSpec>,
    /// A round robin: every player against every other, colours alternating.
    #[arg(long, num_args = 2.., value_name = "SPEC")]
    pub round_robin: Vec<PlayerSpec>,
    /// Rule set: antichess, antichess1994, chess or checkers.
    #[arg(long, default_value = "antichess")]
    pub rules: crate::referee::GameRules,
    /// Games of each pairing (default 2; with --sprt, at most this many,
    /// default 20000).
    #[arg(long)]
    pub games: Option<u32>,
    /// Each side's time in seconds (sudden death).
    #[arg(long, default_value_t = 10.0)]
    pub time: f64,
    /// Seconds added after each move.
    #[arg(long, default_value_t = 0.0)]
    pub inc: f64,
    /// Milliseconds the referee waits past a flag before calling a player hung.
    #[arg(long, default_value_t = 1000)]
    pub grace_ms: u64,
    /// An opening book, each opening played with both colours: a PGN file
    /// (each game's last position), or one position a line: FEN, EPD or a
    /// one-line game file; for checkers, one opening a line of moves
    /// (`11-15 23-19`) or PDN games, the moves starting both games' records.
    #[arg(long, conflicts_with = "random_plies")]
    pub openings: Option<std::path::PathBuf>,
    /// Use the book's openings in an order shuffled by --seed.
    #[arg(long, requires = "openings")]
    pub shuffle: bool,
    /// Start each pair of games after this many random plies (at most 40).
    #[arg(long)]
    pub random_plies: Option<u32>,
    /// Seed of the random plies or of the book's shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Adjudicate a draw after this many plies (off by default).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Adjudicate a draw when a position occurs this many times (off by
    /// default; for checkers the referee's draw rule, 3 by default).
    #[arg(long)]
    pub repetitions: Option<u32>,
    /// End a game the antichess endgame tables in this folder settle, with
    /// their result (off by default; such games are tagged in the PGN; not
    /// with checkers).
    #[arg(long, value_name = "DIR")]
    pub tb_adjudicate: Option<std::path::PathBuf>,
    /// Stop when a sequential probability ratio test on the pairs of games
    /// decides: elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic].
    #[arg(long)]
    pub sprt: Option<crate::referee::sprt::Sprt>,
    /// Record every finished game in this file, and continue a stopped run
    /// from what it holds.
    #[arg(long, value_name = "FILE")]
    pub state: Option<std::path::PathBuf>,
    /// Write the games to this file as PGN (PDN for checkers), with each
    /// move's clock (rewritten after each game).
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Keep each engine process from game to game (until it commits a
    /// fault other than a flag) instead of starting it afresh: for long-run
    /// tests.
    #[arg(long)]
    pub keep_engines: bool,
}

/// Options of `antichess sprt`.
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    /// Pairs by the first player's points in the pair, 0, 1/2, 1, 3/2 and
    /// 2: LL,LD,D,WD,WW (D holds both WL and DD).
    #[arg(long)]
    pub penta: crate::referee::sprt::Pentanomial,
    /// Elo of H0.
    #[arg(long, allow_hyphen_values = true)]
    pub elo0: f64,
    /// Elo of H1.
    #[arg(long, allow_hyphen_values = true)]
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// How elo0 and elo1 are measured: normalized or logistic.
    #[arg(long, default_value = "normalized")]
    pub model: crate::referee::sprt::Model,
}

/// Options of `antichess serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (another machine can connect only if this is
    /// not a loopback address).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port; 0 picks a free one (the address printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The games database (SQLite); `:memory:` keeps nothing past the
    /// process [default: $XDG_DATA_HOME/antichess/games.sqlite3, else
    /// ~/.local/share/antichess/games.sqlite3].
    #[arg(long)]
    pub db: Option<String>,
    /// How long a request's headers may take to arrive, ms (tests).
    #[arg(long, hide = true)]
    pub header_timeout_ms: Option<u64>,
}

/// Seconds from the command line to milliseconds.
fn to_ms(what: &str, seconds: f64) -> Result<u64, String> {
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return Err(format!("{what} must be a number of seconds, not {seconds}"));
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// The players of `antichess match`, whether their colours alternate,
/// and how they are paired; the first player has the side that moves
/// first (`--white` in chess, `--black` in checkers) when they do not
/// alternate.
fn match_players(
    args: &MatchArgs,
    black_moves_first: bool,
) -> Result<(Vec<PlayerSpec>, bool, crate::referee::match_::Format), String> {
    use crate::referee::match_::Format;
    Ok(
        match (&args.engine1, &args.engine2, &args.white, &args.black) {
            (Some(a), Some(b), _, _) => (vec![a.clone(), b.clone()], true, Format::Gauntlet),
            (_, _, Some(w), Some(b)) if black_moves_first => {
                (vec![b.clone(), w.clone()], false, Format::Gauntlet)
            }
            (_, _, Some(w), Some(b)) => (vec![w.clone(), b.clone()], false, Format::Gauntlet),
            _ if !args.gauntlet.is_empty() => (args.gauntlet.clone(), true, Format::Gauntlet),
            _ if !args.round_robin.is_empty() => {
                (args.round_robin.clone(), true, Format::RoundRobin)
            }
            _ => {
                return Err(
                    "name the players: --engine1 and --engine2, --white and --black, \
                     --gauntlet or --round-robin"
                        .into(),
                );
            }
        },
    )
}

/// Where the games of `antichess match` start.
fn match_openings(args: &MatchArgs) -> crate::referee::match_::Openings {
    use crate::referee::match_::Openings;
    match (&args.openings, args.random_plies) {
        (Some(path), _) => Openings::File {
            path: path.clone(),
            shuffle: args.shuffle.then_some(args.seed),
        },
        (None, Some(plies)) => Openings::RandomPlies {
            plies,
            seed: args.seed,
        },
        (None, None) => Openings::Start,
    }
}

fn run_match(args: &MatchArgs) -> Result<(), String> {
    use crate::referee::game::Adjudication;
    let rules = match args.rules {
        crate::referee::GameRules::Board(rules) => rules,
        crate::referee::GameRules::Checkers => return run_checkers_match(args),
    };
    use crate::referee::match_::{MatchConfig, run};
    let (players, alternate, format) = match_players(args, false)?;
    if let Some(dir) = &args.tb_adjudicate {
        if !rules.is_antichess() {
            return Err(format!(
                "--tb-adjudicate: the endgame tables are for the antichess rules, not {}",
                rules
            ));
        }
        let tables = crate::chess::endgame::Tables::open(dir)
            .map_err(|e| format!("--tb-adjudicate: {e}"))?;
        crate::chess::endgame::install(Some(tables));
    }
    let default_games = if args.sprt.is_some() { 20_000 } else { 2 };
    let config = MatchConfig {
        players,
        format,
        alternate,
        rules,
        games: args.games.unwrap_or(default_games),
        time_ms: to_ms("--time", args.time)?,
        increment_ms: to_ms("--inc", args.inc)?,
        grace_ms: args.grace_ms,
        openings: match_openings(args),
        adjudication: Adjudication {
            max_plies: args.max_plies,
            repetitions: args.repetitions,
            tables: args.tb_adjudicate.is_some(),
        },
        pgn: args.pgn.clone(),
        concurrency: args.concurrency,
        keep_players: args.keep_engines,
        engine: Default::default(),
        sprt: args.sprt,
        state: args.state.clone(),
    };
    let report = run(&config).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}

/// `antichess match --rules checkers`.
fn run_checkers_match(args: &MatchArgs) -> Result<(), String> {
    use crate::referee::checkers_match::{CheckersConfig, run};
    let (players, alternate, format) = match_players(args, true)?;
    if args.tb_adjudicate.is_some() {
        return Err(
            "--tb-adjudicate: the endgame tables are antichess ones; checkers has none".into(),
        );
    }
    let random_plies = args.random_plies.unwrap_or(0);
    if random_plies > crate::referee::match_::MAX_RANDOM_PLIES {
        return Err(format!(
            "--random-plies: at most {}",
            crate::referee::match_::MAX_RANDOM_PLIES
        ));
    }
    let openings = match match_openings(args) {
        crate::referee::match_::Openings::RandomPlies { plies: 0, .. } => {
            crate::referee::match_::Openings::Start
        }
        openings => openings,
    };
    let default_games = if args.sprt.is_some() { 20_000 } else { 2 };
    let config = CheckersConfig {
        players,
        format,
        alternate,
        games: args.games.unwrap_or(default_games),
        time_ms: to_ms("--time", args.time)?,
        increment_ms: to_ms("--inc", args.inc)?,
        grace_ms: args.grace_ms,
        openings,
        max_plies: args.max_plies,
        repetitions: args.repetitions.unwrap_or(3),
        pdn: args.pgn.clone(),
        concurrency: args.concurrency,
        keep_players: args.keep_engines,
        sprt: args.sprt,
        state: args.state.clone(),
        engine: Default::default(),
    };
    let report = run(&config).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}

/// `antichess book`, on a thread with the stack the search wants.
fn run_book(options: crate::referee::book::BookOptions) -> Result<(), String> {
    std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(move || crate::referee::book::run(&options))
        .map_err(|e| format!("cannot start the search: {e}"))?
        .join()
        .map_err(|_| "the book's search failed".to_string())?
}

fn run_sprt(args: &SprtArgs) -> Result<(), String> {
    use crate::referee::sprt::Sprt;
    let sprt = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta, args.model)?;
    println!("{}", crate::referee::report::sprt_line(&sprt, &args.penta));
    Ok(())
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

fn run_bench(depth: u32) -> Result<(), String> {
    use crate::engine::bench;
    // The search wants more stack than the main thread may have.
    let job = std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(move || bench::run(depth, |line| println!("{line}")))
        .map_err(|e| format!("cannot start the benchmark: {e}"))?;
    let summary = job
        .join()
        .map_err(|_| "the benchmark failed".to_string())?
        .map_err(|e| e.to_string())?;
    println!("{} nodes {} nps", summary.nodes, summary.nps());
    Ok(())
}

/// Generates endgame tables into `dir`, one line per table finished.
fn run_tables(
    dir: &std::path::Path,
    rules: Rules,
    only: Vec<crate::chess::endgame::Material>,
    check: bool,
) -> Result<(), String> {
    use crate::chess::endgame;
    if !rules.is_antichess() {
        return Err(format!(
            "endgame tables are for the antichess rules, not {rules}"
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let wanted = if only.is_empty() {
        endgame::Material::all()
    } else {
        only
    };
    let start = Instant::now();
    let mut failed = None;
    let tables = endgame::generate(rules, &wanted, |table| {
        let counts = table.counts();
        match endgame::save(table, dir) {
            Ok(path) => println!(
                "{}: {} wins, {} draws, {} losses, longest win {} plies ({:.1} s)",
                path.display(),
                counts.wins,
                counts.draws,
                counts.losses,
                counts.longest,
                start.elapsed().as_secs_f64()
            ),
            Err(e) => {
                failed.get_or_insert(e.to_string());
            }
        }
    })
    .map_err(|e| e.to_string())?;
    if let Some(e) = failed {
        return Err(e);
    }
    if check {
        let by_material: std::collections::BTreeMap<_, _> =
            tables.iter().map(|t| (t.material(), t)).collect();
        for table in &tables {
            endgame::check(table, &|m| by_material.get(&m).copied())?;
            println!("{}: checked", table.material());
        }
    }
    Ok(())
}

/// Runs the program; the binary only calls this.
pub fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    // Everything that plays reads the endgame tables; `bench` stays
    // without them, so that its node count depends on the search alone.
    if matches!(
        cli.command,
        None | Some(Command::Match(_) | Command::Play(_) | Command::Serve(_))
    ) {
        crate::chess::endgame::install_from_env();
    }
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            rules,
            board,
            fen,
            divide,
        }) => run_perft(depth, rules, board.as_deref(), fen.as_deref(), divide),
        Some(Command::Legal { rules }) => run_legal(rules),
        Some(Command::Bench { depth }) => run_bench(depth),
        Some(Command::Tables {
            dir,
            rules,
            only,
            check,
        }) => run_tables(&dir, rules, only, check),
        Some(Command::Tune {
            pgn,
            rules,
            epochs,
            fixed,
            search_nodes,
            search_weight,
            positions,
            scatter,
            every_position,
            ridge,
            hold_out,
        }) => crate::tune::run(&crate::tune::TuneOptions {
            pgn,
            rules,
            epochs,
            fixed,
            search_nodes,
            search_weight,
            positions,
            scatter,
            every_position,
            ridge,
            hold_out,
        }),
        Some(Command::FitNet(options)) => crate::tune::net_fit::run(&options),
        Some(Command::GenData(options)) => crate::tune::selfplay::run(&options),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Sprt(args)) => run_sprt(&args),
        Some(Command::Book(options)) => run_book(options),
        Some(Command::Play(args)) => crate::play::run(&args),
        Some(Command::Serve(args)) => crate::web::serve(
            &crate::web::ServeOptions {
                host: args.host,
                port: args.port,
                page: "chess".to_string(),
            },
            args.db.as_deref(),
            args.header_timeout_ms.map(std::time::Duration::from_millis),
        ),
        None => crate::engine::run_stdio().map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
