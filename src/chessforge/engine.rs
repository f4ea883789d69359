//! stub
use super::solver::Budget;
/// stub
pub fn run(_seed: u64, _budget: Budget) -> Result<(), std::io::Error> { Ok(()) }
