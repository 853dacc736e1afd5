//! The lesson format of Idempotency Lab.
//!
//! `model` is the compiled course the app embeds (serde types only). With the `authoring`
//! feature, `authoring` reads `lessons/` (a manifest and one TOML file per lesson, narrative in
//! Markdown), runs every variant through the engine, checks each against its expectations, and
//! renders the Markdown to HTML with raw HTML escaped. The app's `build.rs` and `lab check` use
//! it, so no TOML or Markdown parser ships in the WebAssembly. `share` encodes and decodes links
//! to a state of the lab. `names` looks the engine's enums up by their serde names, and `wording`
//! puts the explorer's report in words, the same for `lab`, the checker and the app. With the
//! `scenario-text` feature (TOML only), `scenario_text` reads and writes one bare scenario:
//! `lab run` and the app's sandbox share it. With the `mutations` feature (tests only), `mutate`
//! changes texts for the property tests of the app and of `lab`.
//!
//! The layers, from the bottom up; a module imports only from the layers below it (and the
//! engine), and `scripts/structure.mjs` fails on any import cycle:
//!
//! 1. `model` (the compiled course), `names` (enums by name) and `wording` (the report in
//!    words): the engine only.
//! 2. `share` (links) and `scenario_text` (one scenario as TOML): the model.
//! 3. `authoring`: everything above; its own layers are in its module doc. `mutate` (tests
//!    only) stands apart: it imports nothing of the crate.

pub mod model;
pub mod names;
pub mod share;
pub mod wording;

#[cfg(feature = "authoring")]
pub mod authoring;

#[cfg(feature = "scenario-text")]
pub mod scenario_text;

#[cfg(feature = "mutations")]
pub mod mutate;

pub use model::*;
