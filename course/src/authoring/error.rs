//! A problem in a lesson file, with where it is.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a lesson file, with where it is and what would be right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonError {
    pub file: PathBuf,
    /// 1-based line and column.
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for LessonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for LessonError {}

/// An error at a byte offset of a file.
pub(crate) fn at(path: &Path, text: &str, offset: usize, message: String) -> LessonError {
    let (line, column) = crate::scenario_text::line_column(text, offset);
    LessonError {
        file: path.to_path_buf(),
        line,
        column,
        message,
    }
}
