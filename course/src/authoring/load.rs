//! Loading: the manifest and every lesson file, each design merged and run, the course in order.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use lab_engine::{Engine, Trace};
use serde::Deserialize;
use toml::Spanned;

use super::check::{check_design, check_explored, check_prerequisites, order};
use super::error::{at, LessonError};
use super::files::{DesignFile, ExploreFile, LessonFile, ManifestFile, COVERAGE, MANIFEST};
use super::minutes::estimate;
use super::options::{longest_correct, longest_warning};
use super::steps::compile_steps;
use crate::model::{Course, Design, Explore, Lesson, FORMAT_VERSION};

/// A loaded course and, for each lesson, the trace of each design (the checker needs them; so do
/// the tests), with what the checker warns about but accepts.
pub struct Loaded {
    pub course: Course,
    pub traces: BTreeMap<String, Vec<Trace>>,
    /// Problems that do not stop the build: a declared `minutes` more than 30 % off the estimate.
    pub warnings: Vec<LessonError>,
}

/// One lesson file, compiled: the lesson, its traces, and where its id and prerequisites are
/// written (for the errors found only across files: a duplicate id, a late prerequisite).
pub(crate) struct Compiled {
    pub lesson: Lesson,
    pub traces: Vec<Trace>,
    /// The `id` value's place, with an empty message.
    pub id_at: LessonError,
    /// Each prerequisite's place, in order, with an empty message.
    pub prerequisites_at: Vec<LessonError>,
    pub warnings: Vec<LessonError>,
}

/// Loads, checks and compiles every lesson under `dir`. Returns every error found, not only the
/// first.
pub fn load(dir: &Path) -> Result<Loaded, Vec<LessonError>> {
    load_with(dir, Checks::default())
}

/// The checks that cost more than running each design once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Run the exhaustive explorer on every design within its `explore` budget: a safe design
    /// must break no invariant in any schedule, an unsafe one must break one in some schedule.
    pub explore: bool,
    /// Explore every build task: its reference, its wrong arrangements and every arrangement
    /// (a fraction of `explore`'s cost: `lab tasks` prints their figures). Implied by `explore`.
    pub build: bool,
}

/// `load`, with the costlier checks chosen (`lab check` runs the explorer; the app's build does
/// not).
pub fn load_with(dir: &Path, checks: Checks) -> Result<Loaded, Vec<LessonError>> {
    let manifest_path = dir.join(MANIFEST);
    let manifest_text = read(&manifest_path).map_err(|error| vec![error])?;
    let manifest: ManifestFile =
        parse(&manifest_path, &manifest_text).map_err(|error| vec![error])?;
    let mut errors = Vec::new();
    if *manifest.format.get_ref() != FORMAT_VERSION {
        errors.push(at(
            &manifest_path,
            &manifest_text,
            manifest.format.span().start,
            format!(
                "format is {}, this build reads format {FORMAT_VERSION}; convert the lessons or update the app",
                manifest.format.get_ref()
            ),
        ));
    }
    let mut lessons = Vec::new();
    let mut traces = BTreeMap::new();
    let mut failed: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    // By lesson file: where each lesson's id and prerequisites are written.
    let mut written: BTreeMap<String, (LessonError, Vec<LessonError>)> = BTreeMap::new();
    for path in lesson_files(dir).map_err(|error| vec![error])? {
        match read(&path)
            .map_err(|error| vec![error])
            .and_then(|text| compile(dir, &path, &text, checks))
        {
            Ok(compiled) => {
                traces.insert(compiled.lesson.id.clone(), compiled.traces);
                warnings.extend(compiled.warnings);
                written.insert(
                    compiled.lesson.file.clone(),
                    (compiled.id_at, compiled.prerequisites_at),
                );
                lessons.push(compiled.lesson);
            }
            Err(mut found) => {
                // The file exists but failed its checks: its id must not also be reported missing.
                if let Some(id) = fs::read_to_string(&path)
                    .ok()
                    .and_then(|text| top_level_id(&text))
                {
                    failed.push(id);
                }
                errors.append(&mut found);
            }
        }
    }
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for lesson in &lessons {
        if let Some(first) = ids.insert(lesson.id.clone(), lesson.file.clone()) {
            let (id_at, _) = &written[&lesson.file];
            errors.push(LessonError {
                message: format!(
                    "lesson id \"{}\" is also used by {first}; ids must be unique",
                    lesson.id
                ),
                ..id_at.clone()
            });
        }
    }
    let sections = order(
        &manifest_path,
        &manifest_text,
        &manifest,
        &mut lessons,
        &failed,
        &mut errors,
    );
    check_prerequisites(&lessons, &written, &failed, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Loaded {
        course: Course {
            format: FORMAT_VERSION,
            title: manifest.title,
            sections,
            lessons,
        },
        traces,
        warnings,
    })
}

fn read(path: &Path) -> Result<String, LessonError> {
    fs::read_to_string(path).map_err(|error| LessonError {
        file: path.to_path_buf(),
        line: 1,
        column: 1,
        message: format!("cannot read the file: {error}"),
    })
}

fn lesson_files(dir: &Path) -> Result<Vec<PathBuf>, LessonError> {
    let entries = fs::read_dir(dir).map_err(|error| LessonError {
        file: dir.to_path_buf(),
        line: 1,
        column: 1,
        message: format!("cannot list the lessons folder: {error}"),
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .filter(|path| {
            path.file_name()
                .is_some_and(|name| name != MANIFEST && name != COVERAGE)
        })
        .collect();
    files.sort();
    Ok(files)
}

fn parse<T: for<'de> Deserialize<'de>>(path: &Path, text: &str) -> Result<T, LessonError> {
    toml::from_str(text).map_err(|error| toml_error(path, text, &error))
}

/// A TOML error as a lesson error at its line and column.
pub fn toml_error(path: &Path, text: &str, error: &toml::de::Error) -> LessonError {
    located(path, crate::scenario_text::toml_error(text, error))
}

/// A scenario text's error as a lesson error in `path`.
pub fn located(path: &Path, error: crate::scenario_text::TextError) -> LessonError {
    LessonError {
        file: path.to_path_buf(),
        line: error.line,
        column: error.column,
        message: error.message,
    }
}

/// Loads and checks one lesson file on its own (for `lab run`).
pub fn load_lesson(dir: &Path, path: &Path) -> Result<Lesson, Vec<LessonError>> {
    let text = read(path).map_err(|error| vec![error])?;
    lesson_from_text(dir, path, &text)
}

/// Checks and compiles the text of one lesson file, `path` in `dir` (which errors name).
pub fn lesson_from_text(dir: &Path, path: &Path, text: &str) -> Result<Lesson, Vec<LessonError>> {
    compile(dir, path, text, Checks::default()).map(|compiled| compiled.lesson)
}

/// One lesson file on its own, with the costlier checks chosen (`lab check FILE.toml`: a
/// challenge downloaded from the page, before it joins a course), and what the checker warns
/// about. What only a whole course can tell (ids unique, prerequisites in order) is not checked.
pub fn check_lesson_text(
    path: &Path,
    text: &str,
    checks: Checks,
) -> Result<(Lesson, Vec<LessonError>), Vec<LessonError>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    compile(dir, path, text, checks).map(|compiled| (compiled.lesson, compiled.warnings))
}

/// One lesson file into a compiled lesson, with each design run and checked.
fn compile(
    dir: &Path,
    path: &Path,
    text: &str,
    checks: Checks,
) -> Result<Compiled, Vec<LessonError>> {
    let file: LessonFile = parse(path, text).map_err(|error| vec![error])?;
    let mut errors = Vec::new();
    let mut designs = Vec::new();
    let mut traces = Vec::new();
    let mut seen = BTreeSet::new();
    // A mistake in the base scenario breaks every design alike: said once, where it is.
    let mut base_errors = BTreeSet::new();
    for (index, design) in file.designs.iter().enumerate() {
        let span = design.id.span().start;
        if !seen.insert(design.id.get_ref().clone()) {
            errors.push(at(
                path,
                text,
                span,
                format!("design id \"{}\" is used twice", design.id.get_ref()),
            ));
            continue;
        }
        let explore = match explore_budget(file.explore.as_ref(), design.explore.as_ref()) {
            Ok(explore) => explore,
            Err((offset, message)) => {
                errors.push(at(path, text, offset, message));
                continue;
            }
        };
        match run_variant(file.scenario.get_ref(), design, explore) {
            Ok((compiled, trace)) => {
                let expect_offset = design
                    .expect
                    .as_ref()
                    .map(|expect| expect.span().start)
                    .unwrap_or(span);
                for message in check_design(&compiled, &trace) {
                    errors.push(at(path, text, expect_offset, message));
                }
                if checks.explore {
                    let explore_offset = design
                        .explore
                        .as_ref()
                        .or(file.explore.as_ref())
                        .map(|explore| explore.span().start)
                        .unwrap_or(span);
                    for message in check_explored(&compiled) {
                        errors.push(at(path, text, explore_offset, message));
                    }
                }
                designs.push(compiled);
                traces.push(trace);
            }
            Err(VariantError::Run(message)) => errors.push(at(path, text, span, message)),
            Err(VariantError::Read {
                base,
                at: keys,
                message,
            }) => {
                let offset = match base {
                    true => value_at(text, &["scenario".into()], &keys),
                    false => value_at(
                        text,
                        &["designs".into(), index.into(), "scenario".into()],
                        &keys,
                    ),
                };
                let offset = offset.unwrap_or(match base {
                    true => file.scenario.span().start,
                    false => span,
                });
                if !base || base_errors.insert(message.clone()) {
                    errors.push(at(path, text, offset, message));
                }
            }
        }
    }
    if designs.is_empty() && errors.is_empty() {
        errors.push(at(
            path,
            text,
            0,
            "a lesson needs at least one [[designs]] entry".into(),
        ));
    }
    let mut warnings = Vec::new();
    let steps = compile_steps(
        path,
        text,
        &file,
        (&designs, &traces),
        checks.explore || checks.build,
        &mut errors,
        &mut warnings,
    );
    let counted = estimate(&file);
    if let Some(message) = counted.too_long() {
        errors.push(at(path, text, file.id.span().start, message));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let relative = path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let place = |offset: usize| at(path, text, offset, String::new());
    let id_at = place(file.id.span().start);
    let prerequisites_at = file
        .prerequisites
        .iter()
        .map(|prerequisite| place(prerequisite.span().start))
        .collect();
    warnings.extend(
        counted
            .off(*file.minutes.get_ref())
            .map(|message| at(path, text, file.minutes.span().start, message)),
    );
    let first_question = file
        .steps
        .iter()
        .flat_map(|step| &step.questions)
        .next()
        .map_or(file.id.span().start, |question| {
            question.prompt.span().start
        });
    warnings.extend(
        longest_warning(longest_correct(&file))
            .map(|message| at(path, text, first_question, message)),
    );
    let lesson = Lesson {
        id: file.id.into_inner(),
        title: file.title,
        summary: file.summary,
        minutes: file.minutes.into_inner(),
        prerequisites: file
            .prerequisites
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        file: relative,
        designs,
        steps,
    };
    Ok(Compiled {
        lesson,
        traces,
        id_at,
        prerequisites_at,
        warnings,
    })
}

/// The design's explore budget: its own fields, else the lesson's, else the defaults.
fn explore_budget(
    lesson: Option<&Spanned<ExploreFile>>,
    design: Option<&Spanned<ExploreFile>>,
) -> Result<Explore, (usize, String)> {
    let empty = ExploreFile::default();
    let lesson_file = lesson.map(Spanned::get_ref).unwrap_or(&empty);
    let variant_file = design.map(Spanned::get_ref).unwrap_or(&empty);
    let defaults = Explore::default();
    let explore = Explore {
        faults: variant_file
            .faults
            .or(lesson_file.faults)
            .unwrap_or(defaults.faults),
        preemptions: variant_file
            .preemptions
            .or(lesson_file.preemptions)
            .unwrap_or(defaults.preemptions),
        kinds: variant_file
            .kinds
            .clone()
            .or_else(|| lesson_file.kinds.clone())
            .unwrap_or(defaults.kinds),
    };
    if explore.faults > lab_engine::FAULTS_MAX {
        let offset = design
            .filter(|file| file.get_ref().faults.is_some())
            .or(lesson)
            .map(|file| file.span().start)
            .unwrap_or(0);
        let message = format!(
            "explore.faults is {}, at most {} faults can be explored; lower it",
            explore.faults,
            lab_engine::FAULTS_MAX
        );
        return Err((offset, message));
    }
    Ok(explore)
}

/// Why a design's scenario could not be read or run.
enum VariantError {
    /// A value of the scenario is not what it should be: at `at` (keys and indexes, from the
    /// scenario's table), in the lesson's base `[scenario]` (`base`: every design that keeps it
    /// fails alike) or in the design's own overrides.
    Read {
        base: bool,
        at: Vec<Key>,
        message: String,
    },
    /// The scenario, read, is refused by the engine.
    Run(String),
}

/// One step of a path into a TOML document: a table's key or an array's index.
#[derive(Clone, Debug)]
enum Key {
    Name(String),
    Index(usize),
}

impl From<&str> for Key {
    fn from(name: &str) -> Key {
        Key::Name(name.to_string())
    }
}

impl From<usize> for Key {
    fn from(index: usize) -> Key {
        Key::Index(index)
    }
}

/// Where in `text` (a lesson file) the value at `within` then `keys` is written, or the deepest
/// of them that is: the offset of its first character.
fn value_at(text: &str, within: &[Key], keys: &[Key]) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let document = DeTable::parse(text).ok()?;
    let mut found = None;
    let mut table = Some(document.get_ref());
    let mut array = None;
    for key in within.iter().chain(keys) {
        let value = match (key, table, array) {
            (Key::Name(name), Some(table), _) => table.get(name.as_str()),
            (Key::Index(index), _, Some(items)) => <[_]>::get(items, *index),
            _ => None,
        };
        let Some(value) = value else { break };
        found = Some(value.span().start);
        (table, array) = match value.get_ref() {
            DeValue::Table(inner) => (Some(inner), None),
            DeValue::Array(items) => (None, Some(&**items)),
            _ => (None, None),
        };
    }
    found
}

fn run_variant(
    base: &toml::Table,
    design: &DesignFile,
    explore: Explore,
) -> Result<(Design, Trace), VariantError> {
    let mut merged = base.clone();
    merge(&mut merged, &design.scenario);
    let id = design.id.get_ref();
    let scenario: lab_engine::Scenario =
        serde_path_to_error::deserialize(toml::Value::Table(merged)).map_err(|error| {
            let (path, message) = (error.path().clone(), error.into_inner());
            let at = keys(&path);
            let (place, base) = match path.iter().next() {
                // A fault of the whole scenario (a field missing from both): the base's to hold.
                None => (String::from("scenario"), true),
                Some(_) => (
                    format!("scenario.{path}"),
                    !overrides(&design.scenario, &at),
                ),
            };
            let message = match base {
                true => format!("{place}: {}", message.message()),
                false => format!("design \"{id}\": {place}: {}", message.message()),
            };
            VariantError::Read { base, at, message }
        })?;
    let trace = Engine::run(scenario.clone())
        .map_err(|error| VariantError::Run(format!("design \"{id}\": scenario: {error}")))?;
    let compiled = Design {
        id: design.id.get_ref().clone(),
        label: design.label.clone(),
        kind: Some(design.kind),
        scenario: scenario.into(),
        expect: design
            .expect
            .as_ref()
            .map(|expect| expect.get_ref().clone())
            .unwrap_or_default(),
        explore,
    };
    Ok((compiled, trace))
}

/// The keys and indexes of a path serde followed, as far as they name a place in the TOML (an
/// enum's variant or an unnamed step ends it).
fn keys(path: &serde_path_to_error::Path) -> Vec<Key> {
    use serde_path_to_error::Segment;
    path.iter()
        .map_while(|segment| match segment {
            Segment::Map { key } => Some(Key::Name(key.clone())),
            Segment::Seq { index } => Some(Key::Index(*index)),
            _ => None,
        })
        .collect()
}

/// Whether a design's scenario table sets the value at `keys` (of its merged scenario, as far
/// as `keys` names it), or a value on the way to it: then a fault there is the design's, not the
/// base scenario's.
fn overrides(design: &toml::Table, keys: &[Key]) -> bool {
    let mut table = Some(design);
    let mut array: Option<&[toml::Value]> = None;
    for key in keys {
        let next = match (key, table, array) {
            (Key::Name(name), Some(table), _) => table.get(name.as_str()),
            (Key::Index(index), _, Some(items)) => items.get(*index),
            // Past a plain value or an array: the design replaced the base's whole of it.
            _ => return true,
        };
        let Some(value) = next else { return false };
        (table, array) = match value {
            toml::Value::Table(inner) => (Some(inner), None),
            toml::Value::Array(items) => (None, Some(items.as_slice())),
            _ => (None, None),
        };
    }
    // The whole path is the design's, or it ends in an enum or a value serde could not name
    // inside something the design set.
    true
}

/// Tables merge key by key; any other value replaces.
fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(into)), toml::Value::Table(from)) => merge(into, from),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

/// The `id` of a lesson file that may not parse as a lesson.
fn top_level_id(text: &str) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    table.get("id")?.as_str().map(str::to_string)
}
