//! `checkers`: the CS61B checkers program (see `checkers --help`).

use std::io;
use std::process::ExitCode;

use antichess::play::checkers::cli::{Options, run};
use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let opts = Options::parse();
    match run(&opts, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("checkers: {e}");
            ExitCode::FAILURE
        }
    }
}
