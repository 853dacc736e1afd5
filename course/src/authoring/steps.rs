//! Compiling steps: each step's place in its design's run, its questions, the addresses in its
//! text, and its "try it" task (compiled and held to its promise in `task`).

use std::path::Path;

use lab_engine::Trace;

use super::build::compile_build;
use super::cursor::{point_event, resolve};
use super::error::{at, LessonError};
use super::files::{LessonFile, Point, StepFile, TryFile};
use super::task::{compile_task, Here};
use crate::markdown::{inline_markdown, markdown, plain_text, unsafe_addresses};
use crate::model::{Design, Question, QuestionOption, Step};

/// Every step of the lesson file, compiled; each problem is pushed to `errors` at its place.
pub(crate) fn compile_steps(
    path: &Path,
    text: &str,
    file: &LessonFile,
    (designs, traces): (&[Design], &[Trace]),
    explore: bool,
    errors: &mut Vec<LessonError>,
    warnings: &mut Vec<LessonError>,
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
    let positions = positions(file, designs, traces);
    for (number, step) in file.steps.iter().enumerate() {
        let design = match &step.design {
            None => Some(0),
            Some(id) => {
                let found = designs.iter().position(|design| &design.id == id.get_ref());
                // A design of the file that did not compile: its own error says why.
                let failed = file
                    .designs
                    .iter()
                    .any(|design| design.id.get_ref() == id.get_ref());
                if found.is_none() && !failed {
                    let known: Vec<&str> =
                        designs.iter().map(|design| design.id.as_str()).collect();
                    let message = format!(
                        "step \"{}\" names design \"{}\"; known: {}",
                        step.title,
                        id.get_ref(),
                        known.join(", ")
                    );
                    errors.push(at(path, text, id.span().start, message));
                }
                found
            }
        };
        let Some(design) = design.filter(|&index| index < traces.len()) else {
            continue;
        };
        let offset = step.at.span().start;
        match resolve(step.at.get_ref(), &traces[design]) {
            Ok(cursor) => {
                let here = (design as u32, cursor);
                if here < previous {
                    let message = format!(
                        "step \"{}\" is at {:?} but the step before it is at {:?}: steps must follow the trace in order (design, cursor)",
                        step.title, here, previous
                    );
                    errors.push(at(path, text, offset, message));
                }
                previous = here;
                let questions = compile_questions(path, text, step, &traces[design], errors);
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
                        design: &designs[design],
                        index: design as u32,
                        trace: &traces[design],
                        cursor,
                        next,
                        explore,
                        seed: lab_engine::fnv1a(&format!("{}/{number}", file.id.get_ref())),
                    };
                    let compiled = match try_it.get_ref() {
                        TryFile::Build(build) => compile_build(build, &here),
                        other => compile_task(other, step, &here).map(|task| (task, Vec::new())),
                    };
                    match compiled {
                        Ok((task, found)) => {
                            for warning in found {
                                let message = format!("step \"{}\": try: {warning}", step.title);
                                warnings.push(at(path, text, try_it.span().start, message));
                            }
                            Some(task)
                        }
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
                    design: design as u32,
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

/// Each step's (design index, cursor), where it resolves (errors are reported by the caller).
fn positions(file: &LessonFile, designs: &[Design], traces: &[Trace]) -> Vec<Option<(u32, u32)>> {
    file.steps
        .iter()
        .map(|step| {
            let design = match &step.design {
                None => 0,
                Some(id) => designs
                    .iter()
                    .position(|design| &design.id == id.get_ref())?,
            };
            let cursor = resolve(step.at.get_ref(), traces.get(design)?).ok()?;
            Some((design as u32, cursor))
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
    trace: &Trace,
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
                .map(|option| QuestionOption {
                    text_html: inline_markdown(&option.text),
                    correct: option.correct,
                    explain_html: inline_markdown(&option.explain),
                    shows: option.shows.as_ref().and_then(|shows| {
                        shown_event(shows.get_ref(), trace)
                            .map_err(|message| {
                                let message = format!(
                                    "step \"{}\": option \"{}\": shows: {message}",
                                    step.title, option.text
                                );
                                errors.push(at(path, text, shows.span().start, message));
                            })
                            .ok()
                    }),
                })
                .collect(),
        });
    }
    questions
}

/// The event an option's `shows` names in the step's design's run.
fn shown_event(point: &Point, trace: &Trace) -> Result<u32, String> {
    if point.before {
        return Err("names an event; before = true does not apply here".into());
    }
    point_event(point, trace).map_err(|message| message.replace("at = {", "shows = {"))
}
