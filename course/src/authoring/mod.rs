//! Reading `lessons/`: the manifest and the lesson files (TOML with Markdown narrative), the checks
//! every lesson must pass, and the Markdown rendering. Native only: used by the app's `build.rs`
//! and by `lab check`.
//!
//! One module a concern, in layers from the bottom up (each imports only from those below):
//!
//! 1. [`error`] (a problem and its place in a file), [`files`] (the file formats, the manifest's
//!    name), [`markdown`] (rendering and safe addresses).
//! 2. [`cursor`] (a step's place in a trace), [`minutes`] (the honest length), [`options`] (an
//!    answer given away by its length).
//! 3. [`check`] (each variant against its kind, expectations and explore budget; the course's
//!    order and prerequisites).
//! 4. [`task`] (what a step asks the learner to do, each task kind held to the outcome it
//!    promises), then [`build`] (a build task: its Parsons board, its reference, its wrong
//!    arrangements and every arrangement explored).
//! 5. [`steps`] (each step compiled: its place, questions, addresses and task).
//! 6. [`load`] (reading the files, running each variant, and all of the above in turn).

mod build;
mod check;
mod cursor;
mod error;
mod files;
mod load;
mod markdown;
mod minutes;
mod options;
mod steps;
mod task;

pub use build::HOLD_SHARE_WARNING_PERCENT;
pub use check::{check_explored, check_variant, explore_text};
pub use error::LessonError;
pub use files::MANIFEST;
pub use load::{
    lesson_from_text, load, load_lesson, load_with, located, toml_error, Checks, Loaded,
};
pub use markdown::{inline_markdown, markdown, plain_text, unsafe_address, unsafe_addresses};
pub use minutes::Estimate;
