//! placeholder
pub fn run(_args: &crate::cli::PlayArgs) -> Result<(), String> {
    Err("not yet".into())
}
