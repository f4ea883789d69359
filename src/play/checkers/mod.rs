//! The `checkers` program of the CS61B handout, the front end over the
//! checkers family ([`crate::checkers`]): its command line ([`cli`]), the
//! text interface of the handout's section 5 ([`ui`]) and the game loop
//! over the person, machine players and a remote program ([`session`]).
//! `--display` hands the game to the web board instead.

pub mod cli;
pub mod session;
pub mod ui;
