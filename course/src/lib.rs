//! The lesson format of Idempotency Lab.
//!
//! `model` is the compiled course the app embeds (serde types only). With the `authoring` feature,
//! `authoring` reads `lessons/` (a manifest and one TOML file per lesson, narrative in Markdown),
//! runs every variant through the engine, checks each against its expectations, and renders the
//! Markdown to HTML with raw HTML escaped. The app's `build.rs` and `lab check` use it, so no TOML
//! or Markdown parser ships in the WebAssembly. `share` encodes and decodes links to a state of the
//! lab. With the `scenario-text` feature (TOML only), `scenario_text` reads and writes one bare
//! scenario: `lab run` and the app's sandbox share it.

pub mod model;
pub mod share;

#[cfg(feature = "authoring")]
pub mod authoring;

#[cfg(feature = "scenario-text")]
pub mod scenario_text;

pub use model::*;
