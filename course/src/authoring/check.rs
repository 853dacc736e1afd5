//! Checking: each variant against its kind, its expectations and its explore budget; each step's
//! place, questions, addresses and "try it"; the course's order and prerequisites.

use std::collections::BTreeMap;
use std::path::Path;

use lab_engine::{Invariant, Trace};

use super::cursor::resolve;
use super::error::{at, LessonError};
use super::files::{LessonFile, ManifestFile, StepFile};
use super::load::MANIFEST;
use super::markdown::{inline_markdown, markdown, plain_text, unsafe_addresses};
use super::task::compile_task;
use crate::model::{
    BreakAt, Choice, Explore, Lesson, Question, Section, Step, Variant, VariantKind,
};

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
            .get(op.as_str())
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

pub(crate) fn compile_steps(
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
    let positions = positions(file, variants, traces);
    for (number, step) in file.steps.iter().enumerate() {
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
                // The task must be done before the next step's place: there the lesson moves on.
                let next = positions
                    .get(number + 1..)
                    .and_then(|later| later.iter().flatten().next().copied());
                let try_it = step.try_it.as_ref().and_then(|try_it| {
                    let here = Here {
                        variant: &variants[variant],
                        index: variant as u32,
                        trace: &traces[variant],
                        cursor,
                        next,
                    };
                    match compile_task(try_it.get_ref(), step, &here) {
                        Ok(task) => Some(task),
                        Err(message) => {
                            let message = format!("step \"{}\": try: {message}", step.title);
                            errors.push(at(path, text, try_it.span().start, message));
                            None
                        }
                    }
                });
                steps.push(Step {
                    title: step.title.clone(),
                    html: markdown(&step.text),
                    variant: variant as u32,
                    at: cursor,
                    questions,
                    try_it,
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

/// Where a step's task is checked: its design, that design's run, the step's cursor in it, and
/// the place of the next step that resolves.
pub(crate) struct Here<'a> {
    pub(crate) variant: &'a Variant,
    /// The design's index in the lesson.
    pub(crate) index: u32,
    pub(crate) trace: &'a Trace,
    pub(crate) cursor: u32,
    pub(crate) next: Option<(u32, u32)>,
}

/// Each step's (variant index, cursor), where it resolves (errors are reported by the caller).
fn positions(file: &LessonFile, variants: &[Variant], traces: &[Trace]) -> Vec<Option<(u32, u32)>> {
    file.steps
        .iter()
        .map(|step| {
            let variant = match &step.variant {
                None => 0,
                Some(id) => variants
                    .iter()
                    .position(|variant| &variant.id == id.get_ref())?,
            };
            let cursor = resolve(step.at.get_ref(), traces.get(variant)?).ok()?;
            Some((variant as u32, cursor))
        })
        .collect()
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

pub(crate) fn order(
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

/// Every prerequisite names a lesson earlier in the course; an error is reported where the
/// prerequisite is written (`written`: by lesson file, the id's and each prerequisite's place).
pub(crate) fn check_prerequisites(
    lessons: &[Lesson],
    written: &BTreeMap<String, (LessonError, Vec<LessonError>)>,
    errors: &mut Vec<LessonError>,
) {
    for (index, lesson) in lessons.iter().enumerate() {
        let places = written.get(&lesson.file).map(|(_, places)| places);
        for (position, prerequisite) in lesson.prerequisites.iter().enumerate() {
            if lessons[..index]
                .iter()
                .any(|earlier| &earlier.id == prerequisite)
            {
                continue;
            }
            let place = places
                .and_then(|places| places.get(position))
                .cloned()
                .unwrap_or_else(|| LessonError {
                    file: lesson.file.clone().into(),
                    line: 1,
                    column: 1,
                    message: String::new(),
                });
            errors.push(LessonError {
                message: format!("prerequisite \"{prerequisite}\" is not a lesson that comes earlier in the course"),
                ..place
            });
        }
    }
}
