//! Counts as the app writes them ("10,000", "1 fault", "2 faults"): the one place the pages and
//! components take them from. They are `lab_course::wording`'s, so the app, `lab` and the lesson
//! checker write a count the same way.

pub use lab_course::wording::{count, thousands};
