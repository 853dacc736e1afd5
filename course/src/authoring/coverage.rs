//! The coverage map (`lessons/coverage.toml`): every idea of the sources the course teaches, each
//! mapped to the steps where the learner runs or builds it (a lesson, a step's title, the task or
//! question kind there), checked against the loaded course. An idea with no step yet is "not yet
//! mapped", and that is an error too: the map is done only when every idea is run somewhere.

use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::error::{at, LessonError};
pub use super::files::COVERAGE;
use super::files::TASK_KINDS;
use super::load::toml_error;
use crate::model::{Course, QuestionKind, Step, Task};

/// The question kinds a mapping may name, after the task kinds a step's `try` takes
/// (`files::TASK_KINDS`, the one list of those).
pub const QUESTION_KINDS: [&str; 2] = ["predict", "choice"];

/// Every kind a mapping may name: the task kinds, then the question kinds.
fn kinds() -> impl Iterator<Item = &'static str> {
    TASK_KINDS.into_iter().chain(QUESTION_KINDS)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoverageFile {
    format: Spanned<u32>,
    items: Vec<ItemFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemFile {
    /// Where the idea comes from: a source document, or issue 24's list of ideas to run.
    source: String,
    /// The idea, in a few words.
    item: Spanned<String>,
    /// Why the idea has no step yet (who is writing it); shown with the error.
    #[serde(default)]
    pending: Option<String>,
    map: Vec<Spanned<MappingFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MappingFile {
    lesson: String,
    step: String,
    task: String,
}

/// One idea and the steps that run it, as checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Covered {
    pub source: String,
    pub item: String,
    /// Lesson id, step title, task kind; each one found in the course.
    pub steps: Vec<(String, String, String)>,
}

/// The map as checked: every idea with the steps found for it, and every problem.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    pub ideas: Vec<Covered>,
    /// A mapping whose lesson, step or task the course does not have, and every idea not yet
    /// mapped; empty when the map is complete.
    pub errors: Vec<LessonError>,
}

/// Reads the coverage map at `path` and checks every mapping against `course`: the lesson exists,
/// it has a step with that title, and that step has a task (or a question) of that kind. Returns
/// every idea with the steps found for it, and every problem: a missing lesson, step or task, and
/// every idea not yet mapped. A file that is not a coverage map is an error alone.
pub fn check_coverage(path: &Path, text: &str, course: &Course) -> Result<Coverage, LessonError> {
    let file: CoverageFile =
        toml::from_str(text).map_err(|error| toml_error(path, text, &error))?;
    let mut errors = Vec::new();
    if *file.format.get_ref() != 1 {
        errors.push(at(
            path,
            text,
            file.format.span().start,
            format!(
                "format is {}, this build reads format 1",
                file.format.get_ref()
            ),
        ));
    }
    let mut covered = Vec::new();
    for item in file.items {
        let name = item.item.get_ref();
        if item.map.is_empty() {
            let why = item
                .pending
                .as_ref()
                .map_or(String::new(), |pending| format!(" ({pending})"));
            errors.push(at(
                path,
                text,
                item.item.span().start,
                format!("\"{name}\" is not yet mapped: no step runs it{why}"),
            ));
        }
        let mut steps = Vec::new();
        for mapping in &item.map {
            match find(course, mapping.get_ref()) {
                Ok(()) => {
                    let MappingFile { lesson, step, task } = mapping.get_ref();
                    steps.push((lesson.clone(), step.clone(), task.clone()));
                }
                Err(problem) => errors.push(at(
                    path,
                    text,
                    mapping.span().start,
                    format!("\"{name}\": {problem}"),
                )),
            }
        }
        covered.push(Covered {
            source: item.source,
            item: name.clone(),
            steps,
        });
    }
    Ok(Coverage {
        ideas: covered,
        errors,
    })
}

/// Whether the course has the mapping's lesson, step and task; otherwise what is missing.
fn find(course: &Course, mapping: &MappingFile) -> Result<(), String> {
    if !kinds().any(|kind| kind == mapping.task) {
        return Err(format!(
            "task \"{}\" is not a kind of task or question; the kinds: {}",
            mapping.task,
            kinds().collect::<Vec<_>>().join(", ")
        ));
    }
    let Some(lesson) = course
        .lessons
        .iter()
        .find(|lesson| lesson.id == mapping.lesson)
    else {
        return Err(format!("lesson \"{}\" does not exist", mapping.lesson));
    };
    let titled: Vec<&Step> = lesson
        .steps
        .iter()
        .filter(|step| step.title == mapping.step)
        .collect();
    if titled.is_empty() {
        return Err(format!(
            "lesson \"{}\" has no step \"{}\"",
            mapping.lesson, mapping.step
        ));
    }
    if titled
        .iter()
        .any(|step| kinds_of(step).contains(&mapping.task.as_str()))
    {
        return Ok(());
    }
    let found: Vec<&str> = titled.iter().flat_map(|step| kinds_of(step)).collect();
    Err(format!(
        "step \"{}\" of lesson \"{}\" has no {} task (it has: {})",
        mapping.step,
        mapping.lesson,
        mapping.task,
        match found.is_empty() {
            true => "nothing to do".to_string(),
            false => found.join(", "),
        }
    ))
}

/// The kinds of what a step asks: its task's, then its questions'.
fn kinds_of(step: &Step) -> Vec<&'static str> {
    let task = step.try_it.as_ref().map(|task| match task {
        Task::Flip { .. } => "switch",
        Task::Inject { .. } => "inject",
        Task::Until { .. } => "until",
        Task::Choose { .. } => "choose",
        Task::FindLine { .. } => "find_line",
        Task::Build(_) => "build",
        Task::Hunt(_) => "hunt",
    });
    let questions = step.questions.iter().map(|question| match question.kind {
        QuestionKind::Predict => "predict",
        QuestionKind::Choice => "choice",
    });
    task.into_iter().chain(questions).collect()
}
