//! The lesson format of Idempotency Lab.
//!
//! `model` is the compiled course the app embeds (serde types only). With the `authoring`
//! feature, `authoring` reads `lessons/` (a manifest and one TOML file per lesson, narrative in
//! Markdown), runs every design through the engine, checks each against its expectations, and
//! renders the Markdown to HTML with raw HTML escaped. The app's `build.rs` and `lab check` use
//! it, so no TOML or Markdown parser ships in the WebAssembly. `share` encodes and decodes links
//! to a state of the lab. `names` looks the engine's enums up by their serde names, and `wording`
//! puts the explorer's report in words, the same for `lab`, the checker and the app. With the
//! `scenario-text` feature (TOML only), `scenario_text` reads and writes one bare scenario:
//! `lab run` and the app's sandbox (in its second module) share it; without it, only its errors'
//! type. `payload_text` reads and writes a payload's one line of TOML by hand, for the sandbox's
//! forms in the first module. With the `mutations` feature (tests only), `mutate`
//! changes texts for the property tests of the app and of `lab`.
//!
//! `build_task` holds a build task to its promises (`lab check` and the challenge builder share
//! it). `challenge` is a build task an instructor makes in the page and hands out by link or as
//! a lesson file; `rich` is text someone else wrote, as a tree the page draws as text; with the
//! `markdown` feature, `markdown` renders the lessons' Markdown subset (to HTML for lessons, to
//! `rich` for challenges, in the second module).
//!
//! The layers, from the bottom up; a module imports only from the layers below it (and the
//! engine), and `scripts/structure.mjs` fails on any import cycle:
//!
//! 1. `model` (the compiled course), `names` (enums by name), `wording` (the report in words),
//!    `rich` (text as a tree) and `payload_text` (a payload's line): the engine only.
//! 2. `build_task` (a build task's promises), `share::whole` (a whole scenario in a link):
//!    the model.
//! 3. `challenge`, then `share` (links, a challenge among them), `scenario_text` (one
//!    scenario as TOML) and `markdown`.
//! 4. `authoring`: everything above; its own layers are in its module doc. `mutate` (tests
//!    only) stands apart: it imports nothing of the crate.

pub mod build_task;
pub mod challenge;
pub mod model;
pub mod names;
pub mod rich;
pub mod share;
pub mod wording;

#[cfg(feature = "authoring")]
pub mod authoring;

#[cfg(feature = "markdown")]
pub mod markdown;

pub mod payload_text;
pub mod scenario_text;

#[cfg(feature = "mutations")]
pub mod mutate;

pub use model::*;
