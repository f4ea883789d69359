//! stub
use super::solver::Budget;
use super::RuleSet;
/// stub
pub fn run(_seed: Option<u64>, _rules: RuleSet, _budget: Budget) -> Result<(), std::io::Error> { Ok(()) }
