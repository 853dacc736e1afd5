//! Reading `lessons/`: the manifest and the lesson files (TOML with Markdown narrative), the checks
//! every lesson must pass, and the Markdown rendering. Native only: used by the app's `build.rs`
//! and by `lab check`.
//!
//! One module a concern, in layers from the bottom up (each imports only from those below):
//!
//! 1. [`error`] (a problem and its place in a file), [`files`] (the file formats, the manifest's
//!    name). The Markdown rendering is the crate's `markdown`, which the second module shares.
//! 2. [`cursor`] (a step's place in a trace), [`minutes`] (the honest length), [`options`] (an
//!    answer given away by its length).
//! 3. [`check`] (each design against its kind, expectations and explore budget; the course's
//!    order and prerequisites).
//! 4. [`task`] (what a step asks the learner to do, each task kind held to the outcome it
//!    promises), then [`build`] (a build task compiled: its Parsons board and its wrong
//!    arrangements; its promises are the crate's `build_task`, which the challenge builder
//!    shares).
//! 5. [`steps`] (each step compiled: its place, questions, addresses and task).
//! 6. [`load`] (reading the files, running each design, and all of the above in turn).
//! 7. [`coverage`] (the map of the sources' ideas to the steps that run them, checked against the
//!    loaded course).

mod build;
mod check;
mod coverage;
mod cursor;
mod error;
mod files;
mod load;
mod minutes;
mod options;
mod steps;
mod task;

pub use crate::build_task::HOLD_SHARE_WARNING_PERCENT;
pub use crate::markdown::{inline_markdown, markdown, plain_text, unsafe_addresses};
pub use crate::rich::unsafe_address;
pub use check::{check_design, check_explored, explore_text};
pub use coverage::{check_coverage, Coverage, Covered, COVERAGE};
pub use error::LessonError;
pub use files::MANIFEST;
pub use load::{
    check_lesson_text, lesson_from_text, load, load_lesson, load_with, located, toml_error, Checks,
    Loaded,
};
pub use minutes::Estimate;
