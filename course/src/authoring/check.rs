//! Checking: each design against its kind, its expectations and its explore budget; the
//! course's order and prerequisites. (A step's place, questions and task are compiled and checked
//! in `steps` and `task`.)

use std::collections::BTreeMap;
use std::path::Path;

use lab_engine::{Invariant, Trace};

use super::error::{at, LessonError};
use super::files::{ManifestFile, MANIFEST};
use crate::model::{BreakAt, Design, DesignKind, Explore, Lesson, Section};
use crate::names::by_name;
use crate::wording;

/// Holds the design to its kind over every schedule within its explore budget.
pub fn check_explored(design: &Design) -> Vec<String> {
    let name = &design.id;
    let budget = design.explore.budget();
    let within = explore_text(&design.explore);
    let report = match lab_engine::Explorer::run((*design.scenario).clone(), budget) {
        Ok(report) => report,
        Err(error) => return vec![format!("design \"{name}\": explore: {error}")],
    };
    let explored = wording::figures(&report);
    if !report.extent.complete {
        return vec![format!(
            "design \"{name}\": within {within}, {explored}. {}: lower the budget or shorten the scenario",
            wording::extent(&report, false)
        )];
    }
    match (design.kind, &report.counterexample) {
        (Some(DesignKind::Safe), Some(found)) => {
            let broke: Vec<&str> = found.broke.iter().map(|invariant| invariant.id()).collect();
            vec![format!(
                "design \"{name}\" is safe but the explorer breaks {} within {within}. {} Fix the design, or set the explore budget the design really promises (and say so in the lesson)",
                broke.join(", "),
                wording::conclusion(&report)
            )]
        }
        (Some(DesignKind::Unsafe), None) => vec![format!(
            "design \"{name}\" is unsafe but within {within}, {explored}. {} Raise the budget so the explorer finds the bug",
            wording::conclusion(&report)
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

/// What the design's run must show; each mismatch is one message.
pub fn check_design(design: &Design, trace: &Trace) -> Vec<String> {
    let mut problems = Vec::new();
    let name = &design.id;
    for unmet in design.expect.unmet(trace) {
        problems.push(format!("design \"{name}\": {unmet}"));
    }
    if trace.stop == lab_engine::Stop::StepCap {
        problems.push(format!(
            "design \"{name}\": the run was cut off by step_cap = {} before every worker finished; raise step_cap or shorten the scenario",
            design.scenario.step_cap
        ));
    }
    if trace.stop == lab_engine::Stop::TimeLimit {
        problems.push(format!(
            "design \"{name}\": the clock reached its limit (u32::MAX ticks) before every worker finished; shorten the back-offs or the delays"
        ));
    }
    let broken: Vec<&lab_engine::Verdict> = trace
        .verdicts
        .iter()
        .filter(|verdict| verdict.broken_at.is_some())
        .collect();
    for (id, where_) in &design.expect.breaks {
        let invariant: Invariant = match by_name("invariant", id) {
            Ok(invariant) => invariant,
            Err(message) => {
                problems.push(format!("design \"{name}\": {message}"));
                continue;
            }
        };
        if !invariant.applies(&design.scenario) {
            problems.push(format!(
                "design \"{name}\": {id} cannot break in this design's scenario: {}",
                not_applying(invariant)
            ));
            continue;
        }
        let actual = broken
            .iter()
            .find(|verdict| verdict.invariant == invariant)
            .and_then(|verdict| verdict.broken_at);
        match (where_, actual) {
            (BreakAt::Anywhere(false), None) => {}
            (BreakAt::Anywhere(false), Some(actual)) => problems.push(format!(
                "design \"{name}\": expected {id} to hold (breaks = false), but it breaks at event {actual}"
            )),
            (_, None) => problems.push(format!("design \"{name}\": expected {id} to break, but it holds throughout")),
            (BreakAt::Event(event), Some(actual)) if *event != actual => problems.push(format!(
                "design \"{name}\": expected {id} to break at event {event}, but it breaks at event {actual}"
            )),
            _ => {}
        }
    }
    match design.kind {
        Some(DesignKind::Unsafe) if broken.is_empty() => problems.push(format!(
            "design \"{name}\" is unsafe but breaks no invariant: an unsafe design must really show its bug"
        )),
        Some(DesignKind::Safe) => {
            for verdict in broken {
                problems.push(format!(
                    "design \"{name}\" is safe but {} breaks at event {}: {}",
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
    failed: &[String],
    errors: &mut Vec<LessonError>,
) {
    for (index, lesson) in lessons.iter().enumerate() {
        let places = written.get(&lesson.file).map(|(_, places)| places);
        for (position, prerequisite) in lesson.prerequisites.iter().enumerate() {
            // A lesson whose own file failed its checks is not said missing here too.
            if lessons[..index]
                .iter()
                .any(|earlier| &earlier.id == prerequisite)
                || failed.contains(prerequisite)
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

/// Why `invariant` does not apply to a scenario (`Invariant::applies` said no).
pub(crate) fn not_applying(invariant: Invariant) -> String {
    match invariant {
        Invariant::StopsWhenCancelled => "it is judged only where workers read their cancel flag in code (switches.cancel_check = \"in_code\")".into(),
        _ => {
            let workflows: Vec<&str> = invariant.workflows().iter().map(|workflow| workflow.name()).collect();
            format!("only a run of {} can break it", workflows.join(", "))
        }
    }
}
