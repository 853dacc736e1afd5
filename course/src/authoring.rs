//! Reading `lessons/`: the manifest and the lesson files (TOML with Markdown narrative), the checks
//! every lesson must pass, and the Markdown rendering. Native only: used by the app's `build.rs`
//! and by `lab check`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use lab_engine::{Action, Engine, Invariant, Trace};
use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};
use serde::Deserialize;
use toml::Spanned;

use crate::model::{
    BreakAt, Choice, Course, Expect, Explore, Lesson, Question, QuestionKind, Section, Step,
    TryExpect, TryIt, Variant, VariantKind, FORMAT_VERSION,
};
use crate::scenario_text;

/// The manifest's file name inside the lessons folder.
pub const MANIFEST: &str = "course.toml";

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

/// A loaded course and, for each lesson, the trace of each variant (the checker needs them; so do
/// the tests).
pub struct Loaded {
    pub course: Course,
    pub traces: BTreeMap<String, Vec<Trace>>,
}

// ---- the file formats ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    format: Spanned<u32>,
    title: String,
    sections: Vec<SectionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionFile {
    title: String,
    lessons: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonFile {
    id: Spanned<String>,
    title: String,
    summary: String,
    minutes: u32,
    #[serde(default)]
    prerequisites: Vec<Spanned<String>>,
    /// The base scenario every variant starts from.
    scenario: toml::Table,
    /// The explorer's budget for every variant: `explore = { faults = 2 }`.
    #[serde(default)]
    explore: Option<Spanned<ExploreFile>>,
    variants: Vec<VariantFile>,
    steps: Vec<StepFile>,
}

/// `explore = { faults = N, preemptions = N, kinds = [...] }`; a variant's fields override the
/// lesson's, field by field.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExploreFile {
    #[serde(default)]
    faults: Option<u32>,
    #[serde(default)]
    preemptions: Option<u32>,
    #[serde(default)]
    kinds: Option<Vec<lab_engine::FaultKind>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantFile {
    id: Spanned<String>,
    label: String,
    kind: VariantKind,
    /// Overrides merged into the base scenario (tables merge, everything else replaces).
    #[serde(default)]
    scenario: toml::Table,
    #[serde(default)]
    expect: Option<Spanned<Expect>>,
    /// Overrides the lesson's `explore` for this variant.
    #[serde(default)]
    explore: Option<Spanned<ExploreFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StepFile {
    title: String,
    /// The variant id; default the first.
    #[serde(default)]
    variant: Option<Spanned<String>>,
    at: Spanned<At>,
    text: String,
    #[serde(default)]
    questions: Vec<QuestionFile>,
    /// An action for the learner: `try = { switch = "provider_dedup", on = true, expect = "holds" }`.
    #[serde(default, rename = "try")]
    try_it: Option<Spanned<TryIt>>,
}

/// Where in a variant's trace a step applies.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum At {
    /// A cursor: 0 is before the first event, n is after event n.
    Index(u32),
    /// "start" or "end".
    Named(String),
    /// After (or just before) the n-th occurrence of an action, the first fault, or the event
    /// that first broke an invariant.
    Point(Point),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Point {
    #[serde(default)]
    action: Option<Action>,
    #[serde(default = "one")]
    nth: u32,
    #[serde(default)]
    fault: Option<u32>,
    #[serde(default)]
    broke: Option<String>,
    /// Stop just before that event instead of after it (for predict questions).
    #[serde(default)]
    before: bool,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    kind: QuestionKind,
    prompt: Spanned<String>,
    options: Vec<ChoiceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChoiceFile {
    /// Inline Markdown.
    text: String,
    correct: bool,
    /// Inline Markdown: why this option is right or wrong.
    explain: String,
}

// ---- loading ----

/// Loads, checks and compiles every lesson under `dir`. Returns every error found, not only the
/// first.
pub fn load(dir: &Path) -> Result<Loaded, Vec<LessonError>> {
    load_with(dir, Checks::default())
}

/// The checks that cost more than running each variant once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Run the exhaustive explorer on every variant within its `explore` budget: a safe design
    /// must break no invariant in any schedule, an unsafe one must break one in some schedule.
    pub explore: bool,
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
    for path in lesson_files(dir).map_err(|error| vec![error])? {
        match read(&path)
            .map_err(|error| vec![error])
            .and_then(|text| compile(dir, &path, &text, checks))
        {
            Ok((lesson, lesson_traces)) => {
                traces.insert(lesson.id.clone(), lesson_traces);
                lessons.push(lesson);
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
            errors.push(LessonError {
                file: dir.join(&lesson.file),
                line: 1,
                column: 1,
                message: format!(
                    "lesson id \"{}\" is also used by {first}; ids must be unique",
                    lesson.id
                ),
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
    check_prerequisites(dir, &lessons, &mut errors);
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
        .filter(|path| path.file_name().is_some_and(|name| name != MANIFEST))
        .collect();
    files.sort();
    Ok(files)
}

fn parse<T: for<'de> Deserialize<'de>>(path: &Path, text: &str) -> Result<T, LessonError> {
    toml::from_str(text).map_err(|error| toml_error(path, text, &error))
}

/// A TOML error as a lesson error at its line and column.
pub fn toml_error(path: &Path, text: &str, error: &toml::de::Error) -> LessonError {
    located(path, scenario_text::toml_error(text, error))
}

/// A scenario text's error as a lesson error in `path`.
pub fn located(path: &Path, error: scenario_text::TextError) -> LessonError {
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
    compile(dir, path, &text, Checks::default()).map(|(lesson, _)| lesson)
}

/// An error at a byte offset of a file.
fn at(path: &Path, text: &str, offset: usize, message: String) -> LessonError {
    let (line, column) = scenario_text::line_column(text, offset);
    LessonError {
        file: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// One lesson file into a compiled lesson, with each variant run and checked.
fn compile(
    dir: &Path,
    path: &Path,
    text: &str,
    checks: Checks,
) -> Result<(Lesson, Vec<Trace>), Vec<LessonError>> {
    let file: LessonFile = parse(path, text).map_err(|error| vec![error])?;
    let mut errors = Vec::new();
    let mut variants = Vec::new();
    let mut traces = Vec::new();
    let mut seen = BTreeSet::new();
    for variant in &file.variants {
        let span = variant.id.span().start;
        if !seen.insert(variant.id.get_ref().clone()) {
            errors.push(at(
                path,
                text,
                span,
                format!("variant id \"{}\" is used twice", variant.id.get_ref()),
            ));
            continue;
        }
        let explore = match explore_budget(file.explore.as_ref(), variant.explore.as_ref()) {
            Ok(explore) => explore,
            Err((offset, message)) => {
                errors.push(at(path, text, offset, message));
                continue;
            }
        };
        match run_variant(&file.scenario, variant, explore) {
            Ok((compiled, trace)) => {
                let expect_offset = variant
                    .expect
                    .as_ref()
                    .map(|expect| expect.span().start)
                    .unwrap_or(span);
                for message in check_variant(&compiled, &trace) {
                    errors.push(at(path, text, expect_offset, message));
                }
                if checks.explore {
                    let explore_offset = variant
                        .explore
                        .as_ref()
                        .or(file.explore.as_ref())
                        .map(|explore| explore.span().start)
                        .unwrap_or(span);
                    for message in check_explored(&compiled) {
                        errors.push(at(path, text, explore_offset, message));
                    }
                }
                variants.push(compiled);
                traces.push(trace);
            }
            Err(message) => errors.push(at(path, text, span, message)),
        }
    }
    if variants.is_empty() && errors.is_empty() {
        errors.push(at(
            path,
            text,
            0,
            "a lesson needs at least one [[variants]] entry".into(),
        ));
    }
    let steps = compile_steps(path, text, &file, &variants, &traces, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let relative = path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let lesson = Lesson {
        id: file.id.into_inner(),
        title: file.title,
        summary: file.summary,
        minutes: file.minutes,
        prerequisites: file
            .prerequisites
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        file: relative,
        variants,
        steps,
    };
    Ok((lesson, traces))
}

/// The variant's explore budget: its own fields, else the lesson's, else the defaults.
fn explore_budget(
    lesson: Option<&Spanned<ExploreFile>>,
    variant: Option<&Spanned<ExploreFile>>,
) -> Result<Explore, (usize, String)> {
    let empty = ExploreFile::default();
    let lesson_file = lesson.map(Spanned::get_ref).unwrap_or(&empty);
    let variant_file = variant.map(Spanned::get_ref).unwrap_or(&empty);
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
        let offset = variant
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

/// Holds the variant to its kind over every schedule within its explore budget.
pub fn check_explored(variant: &Variant) -> Vec<String> {
    let name = &variant.id;
    let budget = variant.explore.budget();
    let within = explore_text(&variant.explore);
    let report = match lab_engine::Explorer::run(variant.scenario.clone(), budget) {
        Ok(report) => report,
        Err(error) => return vec![format!("variant \"{name}\": explore: {error}")],
    };
    if !report.complete {
        return vec![format!(
            "variant \"{name}\": the explorer stopped after {} transitions before covering every schedule within {within}; lower the budget or shorten the scenario",
            report.transitions
        )];
    }
    match (variant.kind, &report.counterexample) {
        (VariantKind::Safe, Some(found)) => {
            let broke: Vec<&str> = found.broke.iter().map(|invariant| invariant.id()).collect();
            vec![format!(
                "variant \"{name}\" is safe but the explorer breaks {} within {within}: {}. Fix the design, or set the explore budget the design really promises (and say so in the lesson)",
                broke.join(", "),
                found.description
            )]
        }
        (VariantKind::Unsafe, None) => vec![format!(
            "variant \"{name}\" is unsafe but no schedule within {within} breaks an invariant ({} schedules explored); raise the budget so the explorer finds the bug",
            report.schedules
        )],
        _ => Vec::new(),
    }
}

/// The budget as it is written in a lesson file.
pub fn explore_text(explore: &Explore) -> String {
    let mut text = format!(
        "explore = {{ faults = {}, preemptions = {}",
        explore.faults, explore.preemptions
    );
    if !explore.kinds.is_empty() {
        let kinds: Vec<String> = explore
            .kinds
            .iter()
            .map(|kind| format!("\"{}\"", kind.name()))
            .collect();
        text.push_str(&format!(", kinds = [{}]", kinds.join(", ")));
    }
    text.push_str(" }");
    text
}

fn run_variant(
    base: &toml::Table,
    variant: &VariantFile,
    explore: Explore,
) -> Result<(Variant, Trace), String> {
    let mut merged = base.clone();
    merge(&mut merged, &variant.scenario);
    let scenario: lab_engine::Scenario =
        toml::Value::Table(merged)
            .try_into()
            .map_err(|error: toml::de::Error| {
                format!(
                    "variant \"{}\": scenario: {}",
                    variant.id.get_ref(),
                    error.message()
                )
            })?;
    let trace = Engine::run(scenario.clone())
        .map_err(|error| format!("variant \"{}\": scenario: {error}", variant.id.get_ref()))?;
    let compiled = Variant {
        id: variant.id.get_ref().clone(),
        label: variant.label.clone(),
        kind: variant.kind,
        scenario,
        expect: variant
            .expect
            .as_ref()
            .map(|expect| expect.get_ref().clone())
            .unwrap_or_default(),
        explore,
    };
    Ok((compiled, trace))
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

/// What the variant's run must show; each mismatch is one message.
pub fn check_variant(variant: &Variant, trace: &Trace) -> Vec<String> {
    let mut problems = Vec::new();
    let name = &variant.id;
    let last = trace.state_at(trace.len());
    let expect = &variant.expect;
    let mut want = |field: &str, expected: String, actual: String| {
        if expected != actual {
            problems.push(format!(
                "variant \"{name}\": expected {field} = {expected}, but the run gives {actual}"
            ));
        }
    };
    for (worker, results) in &expect.results {
        let actual = trace
            .results()
            .into_iter()
            .find(|(name, _)| name == worker)
            .map(|(_, results)| format!("{results:?}"))
            .unwrap_or_else(|| "no such worker".into());
        want(&format!("results.{worker}"), format!("{results:?}"), actual);
    }
    if let Some(count) = expect.provider_records {
        want(
            "provider_records",
            count.to_string(),
            last.provider.len().to_string(),
        );
    }
    if let Some(count) = expect.table_rows {
        want(
            "table_rows",
            count.to_string(),
            last.table.rows.len().to_string(),
        );
    }
    if let Some(count) = expect.model_calls {
        want(
            "model_calls",
            count.to_string(),
            last.model_calls.to_string(),
        );
    }
    if let Some(count) = expect.deepest_calls {
        want(
            "deepest_calls",
            count.to_string(),
            last.deepest_calls.to_string(),
        );
    }
    for (sink, count) in &expect.effects {
        let actual = last
            .effects
            .iter()
            .filter(|effect| &effect.sink == sink)
            .count();
        want(
            &format!("effects.{sink}"),
            count.to_string(),
            actual.to_string(),
        );
    }
    for (op, status) in &expect.journal {
        let actual = last
            .journal
            .get(op)
            .map(|job| job.status.name())
            .unwrap_or("no row");
        want(
            &format!("journal.{op}"),
            status.name().to_string(),
            actual.to_string(),
        );
    }
    if trace.stop == lab_engine::Stop::StepCap {
        problems.push(format!(
            "variant \"{name}\": the run was cut off by step_cap = {} before every worker finished; raise step_cap or shorten the scenario",
            variant.scenario.step_cap
        ));
    }
    if trace.stop == lab_engine::Stop::TimeLimit {
        problems.push(format!(
            "variant \"{name}\": the clock reached its limit (u32::MAX ticks) before every worker finished; shorten the back-offs or the delays"
        ));
    }
    let broken: Vec<&lab_engine::Verdict> = trace
        .verdicts
        .iter()
        .filter(|verdict| verdict.broken_at.is_some())
        .collect();
    for (id, where_) in &expect.breaks {
        let Some(invariant) = Invariant::ALL
            .into_iter()
            .find(|invariant| invariant.id() == id)
        else {
            let known: Vec<&str> = Invariant::ALL
                .iter()
                .map(|invariant| invariant.id())
                .collect();
            problems.push(format!(
                "variant \"{name}\": no invariant is called \"{id}\"; known: {}",
                known.join(", ")
            ));
            continue;
        };
        let actual = broken
            .iter()
            .find(|verdict| verdict.invariant == invariant)
            .and_then(|verdict| verdict.broken_at);
        match (where_, actual) {
            (BreakAt::Anywhere(false), None) => {}
            (BreakAt::Anywhere(false), Some(actual)) => problems.push(format!(
                "variant \"{name}\": expected {id} to hold (breaks = false), but it breaks at event {actual}"
            )),
            (_, None) => problems.push(format!("variant \"{name}\": expected {id} to break, but it holds throughout")),
            (BreakAt::Event(event), Some(actual)) if *event != actual => problems.push(format!(
                "variant \"{name}\": expected {id} to break at event {event}, but it breaks at event {actual}"
            )),
            _ => {}
        }
    }
    match variant.kind {
        VariantKind::Unsafe if broken.is_empty() => problems.push(format!(
            "variant \"{name}\" is unsafe but breaks no invariant: an unsafe design must really show its bug"
        )),
        VariantKind::Safe => {
            for verdict in broken {
                problems.push(format!(
                    "variant \"{name}\" is safe but {} breaks at event {}: {}",
                    verdict.invariant.id(),
                    verdict.broken_at.unwrap_or(0),
                    verdict.detail.clone().unwrap_or_default()
                ));
            }
        }
        _ => {}
    }
    problems
}

fn compile_steps(
    path: &Path,
    text: &str,
    file: &LessonFile,
    variants: &[Variant],
    traces: &[Trace],
    errors: &mut Vec<LessonError>,
) -> Vec<Step> {
    if file.steps.is_empty() {
        errors.push(at(
            path,
            text,
            0,
            "a lesson needs at least one [[steps]] entry".into(),
        ));
    }
    let mut steps = Vec::new();
    let mut previous = (0, 0);
    for step in &file.steps {
        let variant = match &step.variant {
            None => Some(0),
            Some(id) => {
                let found = variants
                    .iter()
                    .position(|variant| &variant.id == id.get_ref());
                if found.is_none() {
                    let known: Vec<&str> =
                        variants.iter().map(|variant| variant.id.as_str()).collect();
                    let message = format!(
                        "step \"{}\" names variant \"{}\"; known: {}",
                        step.title,
                        id.get_ref(),
                        known.join(", ")
                    );
                    errors.push(at(path, text, id.span().start, message));
                }
                found
            }
        };
        let Some(variant) = variant.filter(|&index| index < traces.len()) else {
            continue;
        };
        let offset = step.at.span().start;
        match resolve(step.at.get_ref(), &traces[variant]) {
            Ok(cursor) => {
                let here = (variant as u32, cursor);
                if here < previous {
                    let message = format!(
                        "step \"{}\" is at {:?} but the step before it is at {:?}: steps must follow the trace in order (variant, cursor)",
                        step.title, here, previous
                    );
                    errors.push(at(path, text, offset, message));
                }
                previous = here;
                let questions = compile_questions(path, text, step, errors);
                check_addresses(path, text, offset, &step.text, errors);
                for question in &step.questions {
                    let offset = question.prompt.span().start;
                    check_addresses(path, text, offset, question.prompt.get_ref(), errors);
                    for option in &question.options {
                        check_addresses(path, text, offset, &option.text, errors);
                        check_addresses(path, text, offset, &option.explain, errors);
                    }
                }
                if let Some(try_it) = &step.try_it {
                    if let Err(message) = check_try(try_it.get_ref(), &variants[variant]) {
                        let message = format!("step \"{}\": try: {message}", step.title);
                        errors.push(at(path, text, try_it.span().start, message));
                    }
                }
                steps.push(Step {
                    title: step.title.clone(),
                    html: markdown(&step.text),
                    variant: variant as u32,
                    at: cursor,
                    questions,
                    try_it: step.try_it.as_ref().map(|try_it| try_it.get_ref().clone()),
                });
            }
            Err(message) => errors.push(at(
                path,
                text,
                offset,
                format!("step \"{}\": {message}", step.title),
            )),
        }
    }
    steps
}

/// Refuses unsafe link and image addresses in `markdown`, a text of the lesson file `text` that
/// starts after `offset`: each error names the line where the address is written (found by
/// searching the file from `offset`, else the line of `offset`).
fn check_addresses(
    path: &Path,
    text: &str,
    offset: usize,
    markdown: &str,
    errors: &mut Vec<LessonError>,
) {
    for (start, why) in unsafe_addresses(markdown) {
        let snippet: String = markdown[start..].chars().take(12).collect();
        let found = text
            .get(offset..)
            .and_then(|rest| rest.find(&snippet))
            .map_or(offset, |position| offset + position);
        errors.push(at(path, text, found, why));
    }
}

fn compile_questions(
    path: &Path,
    text: &str,
    step: &StepFile,
    errors: &mut Vec<LessonError>,
) -> Vec<Question> {
    let mut questions = Vec::new();
    for question in &step.questions {
        let offset = question.prompt.span().start;
        if question.options.len() < 2 {
            errors.push(at(
                path,
                text,
                offset,
                "a question needs at least two options".into(),
            ));
        }
        if !question.options.iter().any(|option| option.correct) {
            errors.push(at(
                path,
                text,
                offset,
                "a question needs at least one option with correct = true".into(),
            ));
        }
        for option in question
            .options
            .iter()
            .filter(|option| option.explain.trim().is_empty())
        {
            let message = format!(
                "option \"{}\" has no explain: every option says why it is right or wrong",
                option.text
            );
            errors.push(at(path, text, offset, message));
        }
        questions.push(Question {
            kind: question.kind,
            prompt: plain_text(question.prompt.get_ref()),
            prompt_html: inline_markdown(question.prompt.get_ref()),
            options: question
                .options
                .iter()
                .map(|option| Choice {
                    text_html: inline_markdown(&option.text),
                    correct: option.correct,
                    explain_html: inline_markdown(&option.explain),
                })
                .collect(),
        });
    }
    questions
}

/// A "try it" must name a switch of this workflow, change something, and do what it promises.
fn check_try(try_it: &TryIt, variant: &Variant) -> Result<(), String> {
    let scenario = &variant.scenario;
    let switches = scenario.workflow.switches();
    if !switches.contains(&try_it.switch) {
        let known: Vec<String> = switches
            .iter()
            .map(|switch| serde_json::to_string(switch).unwrap_or_default())
            .collect();
        return Err(format!(
            "this workflow has no such switch; it has {}",
            known.join(", ")
        ));
    }
    if try_it.switch.get(scenario) == try_it.on {
        return Err(format!(
            "the switch is already {} in this design: flipping it changes nothing",
            if try_it.on { "on" } else { "off" }
        ));
    }
    let changed = try_it.switch.set(scenario, try_it.on);
    let trace = Engine::run(changed)
        .map_err(|error| format!("the changed scenario does not run: {error}"))?;
    let breaks = trace.first_broken().is_some();
    match (try_it.expect, breaks) {
        (TryExpect::Holds, true) => {
            Err("expect = \"holds\", but the changed run breaks an invariant".into())
        }
        (TryExpect::Breaks, false) => {
            Err("expect = \"breaks\", but every invariant holds in the changed run".into())
        }
        _ => Ok(()),
    }
}

/// A step's `at` to a cursor in the trace.
fn resolve(at: &At, trace: &Trace) -> Result<u32, String> {
    let len = trace.len();
    let cursor = match at {
        At::Index(index) if *index <= len => *index,
        At::Index(index) => {
            return Err(format!(
                "at = {index} is past the end; the trace has {len} events"
            ))
        }
        At::Named(name) if name == "start" => 0,
        At::Named(name) if name == "end" => len,
        At::Named(name) => {
            return Err(format!(
                "at = \"{name}\" is unknown; use a number, \"start\", \"end\" or a table"
            ))
        }
        At::Point(point) => {
            let event = point_event(point, trace)?;
            if point.before {
                event - 1
            } else {
                event
            }
        }
    };
    Ok(cursor)
}

fn point_event(point: &Point, trace: &Trace) -> Result<u32, String> {
    let given = [
        point.broke.is_some(),
        point.fault.is_some(),
        point.action.is_some(),
    ];
    if given.iter().filter(|&&present| present).count() > 1 {
        return Err("at = { .. } takes exactly one of action, fault or broke".into());
    }
    if point.nth == 0 || point.fault == Some(0) {
        return Err("nth and fault count from 1".into());
    }
    if let Some(id) = &point.broke {
        let invariant = Invariant::ALL
            .into_iter()
            .find(|invariant| invariant.id() == id)
            .ok_or_else(|| format!("no invariant is called \"{id}\""))?;
        return trace
            .verdicts
            .iter()
            .find(|verdict| verdict.invariant == invariant)
            .and_then(|verdict| verdict.broken_at)
            .ok_or_else(|| format!("{id} never breaks in this variant"));
    }
    if let Some(nth) = point.fault {
        return trace
            .events
            .iter()
            .filter(|event| event.fault.is_some())
            .nth(nth.saturating_sub(1) as usize)
            .map(|event| event.index)
            .ok_or_else(|| format!("this variant has fewer than {nth} faults"));
    }
    if let Some(action) = point.action {
        return trace
            .events
            .iter()
            .filter(|event| event.action == action)
            .nth(point.nth.saturating_sub(1) as usize)
            .map(|event| event.index)
            .ok_or_else(|| {
                format!(
                    "{} happens fewer than {} times in this variant",
                    action.name(),
                    point.nth
                )
            });
    }
    Err("at = { .. } needs one of action, fault or broke".into())
}

/// The `id` of a lesson file that may not parse as a lesson.
fn top_level_id(text: &str) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    table.get("id")?.as_str().map(str::to_string)
}

fn order(
    path: &Path,
    text: &str,
    manifest: &ManifestFile,
    lessons: &mut Vec<Lesson>,
    failed: &[String],
    errors: &mut Vec<LessonError>,
) -> Vec<Section> {
    let mut ordered = Vec::new();
    let mut sections = Vec::new();
    for section in &manifest.sections {
        let mut ids = Vec::new();
        for id in &section.lessons {
            match lessons.iter().position(|lesson| &lesson.id == id.get_ref()) {
                Some(index) => {
                    ordered.push(lessons.remove(index));
                    ids.push(id.get_ref().clone());
                }
                None if ordered
                    .iter()
                    .any(|lesson: &Lesson| &lesson.id == id.get_ref()) =>
                {
                    let message = format!("lesson \"{}\" is listed twice", id.get_ref());
                    errors.push(at(path, text, id.span().start, message));
                }
                None if failed.contains(id.get_ref()) => {}
                None => {
                    let message = format!(
                        "lesson \"{}\" is listed but no lesson file has that id",
                        id.get_ref()
                    );
                    errors.push(at(path, text, id.span().start, message));
                }
            }
        }
        sections.push(Section {
            title: section.title.clone(),
            lessons: ids,
        });
    }
    for lesson in lessons.drain(..) {
        let message = format!(
            "lesson \"{}\" ({}) is not listed in any section of {MANIFEST}",
            lesson.id, lesson.file
        );
        errors.push(at(path, text, 0, message));
    }
    *lessons = ordered;
    sections
}

fn check_prerequisites(dir: &Path, lessons: &[Lesson], errors: &mut Vec<LessonError>) {
    for (index, lesson) in lessons.iter().enumerate() {
        for prerequisite in &lesson.prerequisites {
            if !lessons[..index]
                .iter()
                .any(|earlier| &earlier.id == prerequisite)
            {
                errors.push(LessonError {
                    file: dir.join(&lesson.file),
                    line: 1,
                    column: 1,
                    message: format!("prerequisite \"{prerequisite}\" is not a lesson that comes earlier in the course"),
                });
            }
        }
    }
}

/// Markdown to HTML. Raw HTML in the source is escaped, never passed through.
pub fn markdown(source: &str) -> String {
    let mut out = String::new();
    html::push_html(&mut out, safe_events(source));
    out
}

/// One paragraph of Markdown to HTML without the paragraph around it (question texts).
pub fn inline_markdown(source: &str) -> String {
    let html = markdown(source);
    let trimmed = html.trim_end();
    match trimmed
        .strip_prefix("<p>")
        .and_then(|rest| rest.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => html,
    }
}

/// The text of Markdown with its markup removed (for accessible names).
pub fn plain_text(source: &str) -> String {
    let mut out = String::new();
    for event in safe_events(source) {
        match event {
            Event::Text(text) | Event::Code(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    out
}

/// The parser's events with nothing that could run or fetch: raw HTML becomes text, and a link
/// or image whose address is not safe (see [`unsafe_address`]) becomes its plain text. The
/// checker refuses such addresses with file and line; this is the second line of defence.
fn safe_events(source: &str) -> impl Iterator<Item = Event<'_>> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // For each open link or image, whether its tags were dropped.
    let mut dropped: Vec<bool> = Vec::new();
    Parser::new_ext(source, options).filter_map(move |event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => {
            Some(Event::Text(CowStr::from(raw.into_string())))
        }
        Event::Start(Tag::Link { ref dest_url, .. }) => {
            let drop = unsafe_address(dest_url, false).is_some();
            dropped.push(drop);
            (!drop).then_some(event)
        }
        Event::Start(Tag::Image { ref dest_url, .. }) => {
            let drop = unsafe_address(dest_url, true).is_some();
            dropped.push(drop);
            (!drop).then_some(event)
        }
        Event::End(TagEnd::Link | TagEnd::Image) => {
            let drop = dropped.pop().unwrap_or(false);
            (!drop).then_some(event)
        }
        other => Some(other),
    })
}

/// Why an address may not appear in a lesson, or `None` when it may. A link may be relative
/// (including the app's own `#/…` routes), `https:` or `mailto:`; an image only relative, so a
/// lesson never fetches from elsewhere. Checked as a browser reads it: after entity decoding
/// (the Markdown parser's), with whitespace and control characters removed, in any letter case.
pub fn unsafe_address(address: &str, image: bool) -> Option<String> {
    let cleaned: String = address
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase()
        // Browsers read a backslash as a slash in web addresses: `/\\host` means `//host`.
        .replace('\\', "/");
    let scheme = cleaned
        .find([':', '/', '?', '#'])
        .filter(|&end| cleaned[end..].starts_with(':'))
        .map(|end| &cleaned[..end]);
    let elsewhere = cleaned.starts_with("//");
    match (scheme, image) {
        (None, _) if !elsewhere => None,
        (None, true) => Some(format!("image \"{address}\" would load from another host; images must be files beside the lesson (a relative address)")),
        (None, false) => Some(format!("link \"{address}\" has no scheme but names another host; write https://…")),
        (Some(_), true) => Some(format!("image \"{address}\" is not a relative address; images must be files beside the lesson, never fetched from elsewhere")),
        (Some("https" | "mailto"), false) => None,
        (Some(scheme), false) => Some(format!("link \"{address}\" uses {scheme}:, which is not allowed; links may be relative, #/…, https: or mailto:")),
    }
}

/// Every unsafe link or image address in a Markdown text: the reason, and the byte offset in
/// the text where its markup starts.
pub fn unsafe_addresses(source: &str) -> Vec<(usize, String)> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    Parser::new_ext(source, options)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                unsafe_address(&dest_url, false).map(|why| (range.start, why))
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                unsafe_address(&dest_url, true).map(|why| (range.start, why))
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_addresses_are_allowed() {
        for allowed in [
            "https://example.org/x",
            "HTTPS://example.org",
            "mailto:teacher@example.org",
            "#/lesson/lost-reply",
            "other-lesson.md",
            "./notes/a.txt?x=1#y",
        ] {
            assert_eq!(unsafe_address(allowed, false), None, "{allowed}");
        }
        for refused in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " java\tscript:alert(1)",
            "java\u{0}script:alert(1)",
            "data:text/html,<b>x</b>",
            "vbscript:x",
            "http://example.org",
            "//evil.example",
            "/\\evil.example",
            "file:///etc/passwd",
        ] {
            assert!(unsafe_address(refused, false).is_some(), "{refused:?}");
        }
        assert_eq!(unsafe_address("diagram.svg", true), None);
        for refused in [
            "https://example.org/a.png",
            "//cdn.example/a.png",
            "data:image/png;base64,AA",
        ] {
            assert!(unsafe_address(refused, true).is_some(), "{refused}");
        }
    }

    #[test]
    fn unsafe_links_render_as_text_and_are_reported() {
        let source =
            "[a](javascript:alert(1)) [b](&#106;avascript:alert(2)) <javascript:alert(3)> \
                      [c](https://example.org) ![d](https://example.org/x.png) ![e](e.png)";
        let html = markdown(source);
        assert!(!html.to_lowercase().contains("href=\"javascript"), "{html}");
        assert!(!html.contains("<a href=\"&"), "{html}");
        assert!(!html.contains("example.org/x.png"), "{html}");
        assert!(
            html.contains("<a href=\"https://example.org\">c</a>"),
            "{html}"
        );
        assert!(html.contains("<img src=\"e.png\" alt=\"e\""), "{html}");
        assert!(
            html.contains('a') && html.contains('d'),
            "the text stays: {html}"
        );
        let found: Vec<String> = unsafe_addresses(source)
            .into_iter()
            .map(|(_, why)| why)
            .collect();
        assert_eq!(found.len(), 4, "{found:?}");
    }

    #[test]
    fn raw_html_is_escaped() {
        let html = markdown("Hello <script>alert(1)</script> and <b>bold</b>");
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn inline_markdown_drops_the_paragraph() {
        assert_eq!(inline_markdown("a `b` *c*"), "a <code>b</code> <em>c</em>");
        assert_eq!(plain_text("a `b` *c*"), "a b c");
    }
}
