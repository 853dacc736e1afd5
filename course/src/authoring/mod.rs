//! Reading `lessons/`: the manifest and the lesson files (TOML with Markdown narrative), the checks
//! every lesson must pass, and the Markdown rendering. Native only: used by the app's `build.rs`
//! and by `lab check`.
//!
//! One module a concern: [`files`] (the formats), [`load`] (reading and running), [`check`] (what
//! every lesson must pass), [`cursor`] (a step's place in a trace), [`minutes`] (the honest
//! length), [`markdown`] (rendering and safe addresses), [`task`] (what a step asks the learner to do,
//! each task kind held to the outcome it promises).

mod check;
mod cursor;
mod error;
mod files;
mod load;
mod markdown;
mod minutes;
mod task;

pub use check::{check_explored, check_variant, explore_text};
pub use error::LessonError;
pub use load::{
    lesson_from_text, load, load_lesson, load_with, located, toml_error, Checks, Loaded, MANIFEST,
};
pub use markdown::{inline_markdown, markdown, plain_text, unsafe_address, unsafe_addresses};
pub use minutes::Estimate;
