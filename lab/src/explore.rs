//! `lab explore`: every schedule of each scenario of a file within a budget of injected faults
//! and preemptions, reported in the words the checker and the app use (`lab_course::wording`),
//! or as one JSON line per design; the shortest counterexample is printed as a scenario to
//! replay with `lab run`.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use lab_course::authoring;
use lab_course::names::name_of;
use lab_course::wording;
use lab_course::Explore;
use lab_engine::{Explorer, Report, Scenario, ScenarioError};

use crate::cli::ExploreArgs;
use crate::target::{at_start, report, scenarios, Target};

/// Transitions between two looks at the clock when `--seconds` is given.
const TRANSITIONS_PER_CHECK: u32 = 20_000;

pub fn explore(args: ExploreArgs) -> ExitCode {
    let targets = match scenarios(&args.file, args.design.as_deref()) {
        Ok(targets) => targets,
        Err(errors) => return report(&errors),
    };
    for target in targets {
        let mut budget = target.explore.clone().unwrap_or_default();
        budget.faults = args.faults.unwrap_or(budget.faults);
        budget.preemptions = args.preemptions.unwrap_or(budget.preemptions);
        if let Some(kinds) = &args.kinds {
            budget.kinds = kinds.clone();
        }
        let found = match explore_for(target.scenario.clone(), &budget, args.seconds) {
            Ok(found) => found,
            Err(error) => return report(&[at_start(&args.file, error.to_string())]),
        };
        let written = if args.json {
            print_json(&target, &found)
        } else {
            print_report(&target, &budget, &found)
        };
        if written.is_err() {
            return ExitCode::SUCCESS;
        }
    }
    // As with `lab run`: a counterexample is a finding about the design, not a tool failure.
    ExitCode::SUCCESS
}

/// Explores within the budget, and within `seconds` of wall-clock time when given: the engine has
/// no clock, so the search runs in slices and this side of it watches the time.
fn explore_for(
    scenario: Scenario,
    budget: &Explore,
    seconds: Option<u32>,
) -> Result<Report, ScenarioError> {
    let mut explorer = Explorer::new(scenario, budget.budget())?;
    let deadline = seconds.map(|seconds| Instant::now() + Duration::from_secs(seconds.into()));
    while !explorer.advance(TRANSITIONS_PER_CHECK) {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            explorer.stop();
        }
    }
    Ok(explorer.report())
}

fn print_json(target: &Target, found: &Report) -> std::io::Result<()> {
    let counterexample = found.counterexample.as_ref().map(|example| {
        let broke: Vec<&str> = example
            .broke
            .iter()
            .map(|invariant| invariant.id())
            .collect();
        serde_json::json!({
            "faults": example.faults,
            "events": example.events,
            "broke": broke,
            "description": example.description,
            "scenario": example.scenario,
        })
    });
    let properties: Vec<serde_json::Value> = found
        .properties
        .iter()
        .filter(|verdict| verdict.applies)
        .map(|verdict| {
            serde_json::json!({
                "id": verdict.id,
                "holds": verdict.holds,
                "description": verdict.counterexample.as_ref().map(|example| &example.description),
            })
        })
        .collect();
    let line = serde_json::json!({
        "design": target.name,
        "kind": target.kind.as_ref().map(name_of),
        "faults_max": found.extent.faults_max,
        "preemptions_max": found.extent.preemptions_max,
        "schedules": found.extent.schedules,
        "states": found.extent.states,
        "transitions": found.extent.transitions,
        "complete": found.extent.complete,
        "properties": properties,
        "counterexample": counterexample,
    });
    writeln!(std::io::stdout(), "{line}")
}

fn print_report(target: &Target, budget: &Explore, found: &Report) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let kind = target
        .kind
        .as_ref()
        .map(|kind| format!(", {}", name_of(kind)))
        .unwrap_or_default();
    writeln!(
        out,
        "== {}{kind}: {}",
        target.name,
        authoring::explore_text(budget)
    )?;
    writeln!(
        out,
        "   {}, {} engine steps. {}.",
        wording::figures(found),
        wording::thousands(found.extent.transitions),
        wording::extent(found, false)
    )?;
    for verdict in found.properties.iter().filter(|verdict| verdict.applies) {
        match &verdict.counterexample {
            None => writeln!(out, "   {}", wording::verdict(verdict))?,
            Some(example) => writeln!(
                out,
                "   {} ({})",
                wording::verdict(verdict),
                example.description
            )?,
        }
    }
    writeln!(out, "-- {}", wording::conclusion(found))?;
    if let Some(example) = &found.counterexample {
        writeln!(out, "   Replay it with `lab run` on:")?;
        let scenario = toml::to_string(&example.scenario).unwrap_or_default();
        for line in scenario.lines() {
            writeln!(out, "   {line}")?;
        }
    }
    Ok(())
}
