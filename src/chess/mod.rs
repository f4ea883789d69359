//! Chess-family rules.
