//! Helpers shared by the integration tests; each test crate uses only some.
#![allow(dead_code)]

pub mod output;
pub mod referee;
pub mod web;
