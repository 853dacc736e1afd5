//! What a file given to `lab run` or `lab explore` holds: one scenario (a bare scenario file) or
//! one per design (a lesson file), each with what its lesson says about it; and the lesson
//! errors, printed with their file, line and column.

use std::path::Path;
use std::process::ExitCode;

use lab_course::authoring::{self, LessonError};
use lab_course::{DesignKind, Explore};
use lab_engine::Scenario;

/// One scenario to run or explore, with what its lesson says about it.
pub struct Target {
    pub name: String,
    /// `safe` or `unsafe`; `None` for a bare scenario.
    pub kind: Option<DesignKind>,
    /// The lesson's explore budget for it; `None` for a bare scenario.
    pub explore: Option<Explore>,
    pub scenario: Scenario,
}

/// A bare scenario file gives one scenario; a lesson file gives one per design.
pub fn scenarios(file: &Path, design: Option<&str>) -> Result<Vec<Target>, Vec<LessonError>> {
    let text = std::fs::read_to_string(file)
        .map_err(|error| vec![at_start(file, format!("cannot read: {error}"))])?;
    scenarios_in(file, &text, design)
}

/// The scenarios of a file's text: `scenarios` without the reading.
pub fn scenarios_in(
    file: &Path,
    text: &str,
    design: Option<&str>,
) -> Result<Vec<Target>, Vec<LessonError>> {
    let value: toml::Table = text
        .parse()
        .map_err(|error: toml::de::Error| vec![authoring::toml_error(file, text, &error)])?;
    if value.contains_key("designs") {
        let dir = file.parent().unwrap_or(Path::new("."));
        let lesson = authoring::lesson_from_text(dir, file, text)?;
        let chosen: Vec<Target> = lesson
            .designs
            .into_iter()
            .filter(|candidate| design.is_none_or(|id| id == candidate.id))
            .map(|design| Target {
                name: format!("{} / {}", lesson.id, design.id),
                kind: design.kind,
                explore: Some(design.explore),
                scenario: Scenario::clone(&design.scenario),
            })
            .collect();
        if chosen.is_empty() {
            let message = format!(
                "no design \"{}\" in this lesson",
                design.unwrap_or_default()
            );
            return Err(vec![at_start(file, message)]);
        }
        return Ok(chosen);
    }
    // The sandbox of the app reads a scenario through the same function.
    let scenario: Scenario = lab_course::scenario_text::parse(text)
        .map_err(|error| vec![authoring::located(file, error)])?;
    Ok(vec![Target {
        name: file.display().to_string(),
        kind: None,
        explore: None,
        scenario,
    }])
}

/// A problem with the file as a whole, placed at its start.
pub fn at_start(file: &Path, message: String) -> LessonError {
    LessonError {
        file: file.to_path_buf(),
        line: 1,
        column: 1,
        message,
    }
}

/// Prints every error, `FILE:LINE:COLUMN: message`, and their count: exit 1.
pub fn report(errors: &[LessonError]) -> ExitCode {
    for error in errors {
        eprintln!("error: {error}");
    }
    eprintln!("{} error(s)", errors.len());
    ExitCode::FAILURE
}
