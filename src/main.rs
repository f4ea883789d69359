//! The `antichess` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    antichess::cli::main()
}
