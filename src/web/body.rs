//! Reading the fields of a JSON request body, each refusal naming the
//! field and what it should be.

use super::server::ApiError;
use crate::chess::Color;
use crate::seat::Seat;
use serde_json::{Map, Value};

/// Largest seed a new game takes: exact in JavaScript's numbers.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A request's JSON object.
pub struct Body(pub Map<String, Value>);

impl Body {
    /// A seat field, `human` or `level:N` with N at most `max`; `default`
    /// when absent. `levels` tells what N is, in the refusal.
    pub fn seat(
        &self,
        name: &str,
        default: Seat,
        max: u32,
        levels: &str,
    ) -> Result<Seat, ApiError> {
        let Some(text) = self.text(name)? else {
            return Ok(default);
        };
        Seat::parse(text, max).ok_or_else(|| {
            ApiError::bad_field(format!("'{name}' must be \"human\" or \"level:N\"{levels}"))
        })
    }

    /// A text field, if present.
    pub fn text(&self, name: &str) -> Result<Option<&str>, ApiError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ApiError::bad_field(format!("'{name}' must be a string"))),
        }
    }

    /// A text field that must be present.
    pub fn need_text(&self, name: &str) -> Result<&str, ApiError> {
        self.text(name)?
            .ok_or_else(|| ApiError::bad_field(format!("'{name}' is missing")))
    }

    /// A whole number in `0..=most`, if present.
    pub fn number(&self, name: &str, most: u64) -> Result<Option<u64>, ApiError> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => match value.as_u64() {
                Some(n) if n <= most => Ok(Some(n)),
                _ => Err(ApiError::bad_field(format!(
                    "'{name}' must be a whole number from 0 to {most}"
                ))),
            },
        }
    }

    /// The `seed` field of a new game, if present.
    pub fn seed(&self) -> Result<Option<u64>, ApiError> {
        self.number("seed", MAX_SEED)
    }

    /// A colour field (`"white"` or `"black"`), if present.
    pub fn color(&self, name: &str) -> Result<Option<Color>, ApiError> {
        match self.text(name)? {
            None => Ok(None),
            Some(word) => parse_color(word).map(Some).ok_or_else(|| {
                ApiError::bad_field(format!("'{name}' must be \"white\" or \"black\""))
            }),
        }
    }
}

/// `white` or `black`.
pub fn parse_color(word: &str) -> Option<Color> {
    Color::ALL
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(word))
}
