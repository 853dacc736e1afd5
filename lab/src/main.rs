//! `lab`: the native command-line tool of Idempotency Lab.
//!
//! - `lab run FILE [--seed N] [--json] [--variant ID]`: runs a scenario file (a bare scenario, or a
//!   lesson file, whose variants run in turn) and prints the trace and the invariant verdicts.
//! - `lab explore FILE [--variant ID] [--faults K] [--preemptions P] [--json]`: explores every
//!   schedule of a scenario (or of each of a lesson's variants) within a budget of injected
//!   faults and preemptions, and prints the verdicts and the shortest counterexample.
//! - `lab check [DIR]`: checks every lesson under DIR (default `lessons`), the explorer included.
//! - `lab tasks [DIR]`: the checked lessons' tasks, one JSON line each (what the browser tests walk).
//! - `lab retries [...]`: retry policies under contention, or stacked retry layers (`retries.rs`).

mod retries;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lab_course::authoring::{self, LessonError};
use lab_course::{Explore, VariantKind};
use lab_engine::{Engine, Explorer, Report, Scenario, Trace};

const USAGE: &str = "usage:
  lab run FILE [--seed N] [--json] [--variant ID] [--switch NAME=on|off]...
                                                    run a scenario or a lesson's variants
  lab explore FILE [--variant ID] [--faults K] [--preemptions P] [--kinds F,F] [--seconds S] [--json]
                                                    explore every schedule within K injected
                                                    faults (of kinds F) and P preemptions
                                                    (default: the lesson's budget, else 2 and 2),
                                                    for at most S seconds per variant
  lab check [DIR]                                   check every lesson in DIR (default: lessons),
                                                    exploring each variant within its budget
  lab tasks [DIR]                                   every lesson's tasks, checked, one JSON line each
  lab generate [--records N] [--workers K] [--workflow W] [--seed S]
                                                    print a batch scenario (TOML) of N records
  lab retries [--clients N] [--capacity C] [--policy P] [--attempts A] [--budget B] [--seed S] [--json]
                                                    N clients (1 to 10000) contend for C calls a
                                                    tick under each retry policy (or P only):
                                                    calls, completion tick, calls per tick
  lab retries --layers L [--attempts A] [--budget B] [--json]
                                                    calls that reach the bottom of L retrying
                                                    layers of A attempts: every layer, one layer,
                                                    and a retry budget of B shared by the layers";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("generate") => generate(&args[1..]),
        Some("explore") => explore(&args[1..]),
        Some("retries") => retries::retries(&args[1..], USAGE),
        Some("check") => check(
            args.get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("lessons")),
        ),
        Some("tasks") => tasks(
            args.get(1)
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("lessons")),
        ),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Prints a generated batch scenario: the engine's reference load by default (`BatchSpec`).
fn generate(args: &[String]) -> ExitCode {
    let mut spec = lab_engine::BatchSpec::reference(100);
    let mut rest = args.iter();
    let parsed: Result<(), String> = (|| {
        while let Some(arg) = rest.next() {
            let mut value = |name: &str| {
                rest.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            let number = |name: &str, text: String| {
                text.parse::<u64>()
                    .map_err(|_| format!("{name}: \"{text}\" is not a whole number"))
            };
            match arg.as_str() {
                "--records" => {
                    let records = number(arg, value(arg)?)?;
                    spec.records = u32::try_from(records)
                        .ok()
                        .filter(|records| (1..=100_000).contains(records))
                        .ok_or("--records must be between 1 and 100000")?;
                }
                "--workers" => {
                    let workers = number(arg, value(arg)?)?;
                    spec.workers = u32::try_from(workers)
                        .ok()
                        .filter(|workers| (1..=64).contains(workers))
                        .ok_or("--workers must be between 1 and 64")?;
                }
                "--seed" => spec.seed = number(arg, value(arg)?)?,
                "--workflow" => {
                    let name = value(arg)?;
                    spec.workflow = lab_engine::WorkflowKind::ALL
                        .into_iter()
                        .find(|workflow| workflow.name() == name)
                        .ok_or_else(|| format!("--workflow: no workflow \"{name}\""))?;
                    if spec.workflow != lab_engine::WorkflowKind::Reserve {
                        // The reference faults strike at provider.submit, which only reserve has.
                        spec.faults.clear();
                    }
                }
                other => return Err(format!("unexpected argument {other}")),
            }
        }
        Ok(())
    })();
    if let Err(message) = parsed {
        eprintln!("error: {message}\n{USAGE}");
        return ExitCode::from(2);
    }
    match toml::to_string(&spec.scenario()) {
        Ok(text) => {
            let _ = write!(std::io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: cannot write the scenario as TOML: {error}");
            ExitCode::FAILURE
        }
    }
}

fn check(dir: PathBuf) -> ExitCode {
    let checks = authoring::Checks { explore: true };
    match authoring::load_with(&dir, checks) {
        Ok(loaded) => {
            for warning in &loaded.warnings {
                eprintln!("warning: {warning}");
            }
            let variants: usize = loaded
                .course
                .lessons
                .iter()
                .map(|lesson| lesson.variants.len())
                .sum();
            println!(
                "ok: {} lessons, {} variants, every expectation met, every design explored ({})",
                loaded.course.lessons.len(),
                variants,
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(errors) => report(&errors),
    }
}

/// Every task of every lesson, as the checker compiled it: the lesson, the 1-based part (the
/// step of the narrative), where it starts (design index and cursor), whether the part asks a
/// prediction, and the task.
fn tasks(dir: PathBuf) -> ExitCode {
    let loaded = match authoring::load(&dir) {
        Ok(loaded) => loaded,
        Err(errors) => return report(&errors),
    };
    let mut out = std::io::stdout().lock();
    for lesson in &loaded.course.lessons {
        for (index, step) in lesson.steps.iter().enumerate() {
            let Some(task) = &step.try_it else {
                continue;
            };
            let predicts = step
                .questions
                .iter()
                .any(|question| question.kind == lab_course::QuestionKind::Predict);
            let line = serde_json::json!({
                "lesson": lesson.id,
                "part": index + 1,
                "title": step.title,
                "variant": step.variant,
                "at": step.at,
                "predicts": predicts,
                "task": task,
            });
            if writeln!(out, "{line}").is_err() {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn report(errors: &[LessonError]) -> ExitCode {
    for error in errors {
        eprintln!("error: {error}");
    }
    eprintln!("{} error(s)", errors.len());
    ExitCode::FAILURE
}

struct RunOptions {
    file: PathBuf,
    seed: Option<u64>,
    json: bool,
    variant: Option<String>,
    /// Design switches to set before running, as the app's switches do.
    switches: Vec<(lab_engine::Switch, bool)>,
}

fn parse_run(args: &[String]) -> Result<RunOptions, String> {
    let mut options = RunOptions {
        file: PathBuf::new(),
        seed: None,
        json: false,
        variant: None,
        switches: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--json" => options.json = true,
            "--seed" => {
                let value = rest.next().ok_or("--seed needs a number")?;
                options.seed = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--seed: \"{value}\" is not a whole number"))?,
                );
            }
            "--variant" => {
                options.variant = Some(rest.next().ok_or("--variant needs an id")?.clone())
            }
            "--switch" => {
                let given = rest.next().ok_or("--switch needs NAME=on or NAME=off")?;
                options.switches.push(parse_switch(given)?);
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file if options.file.as_os_str().is_empty() => options.file = PathBuf::from(file),
            extra => return Err(format!("unexpected argument {extra}")),
        }
    }
    if options.file.as_os_str().is_empty() {
        return Err("lab run needs a FILE".into());
    }
    Ok(options)
}

/// `reconcile=on` as a switch and its position.
fn parse_switch(given: &str) -> Result<(lab_engine::Switch, bool), String> {
    let (name, value) = given
        .split_once('=')
        .ok_or_else(|| format!("--switch {given}: write NAME=on or NAME=off"))?;
    let switch: lab_engine::Switch = serde_json::from_value(serde_json::Value::String(name.into()))
        .map_err(|_| format!("--switch: no switch is called \"{name}\" (see lessons/README.md)"))?;
    match value {
        "on" => Ok((switch, true)),
        "off" => Ok((switch, false)),
        other => Err(format!(
            "--switch {name}: \"{other}\" is neither on nor off"
        )),
    }
}

fn run(args: &[String]) -> ExitCode {
    let options = match parse_run(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scenarios = match scenarios(&options.file, options.variant.as_deref()) {
        Ok(scenarios) => scenarios,
        Err(errors) => return report(&errors),
    };
    for Target {
        name, mut scenario, ..
    } in scenarios
    {
        if let Some(seed) = options.seed {
            scenario.seed = seed;
        }
        for &(switch, on) in &options.switches {
            scenario = switch.set(&scenario, on);
        }
        let trace = match Engine::run(scenario) {
            Ok(trace) => trace,
            Err(error) => {
                return report(&[LessonError {
                    file: options.file.clone(),
                    line: 1,
                    column: 1,
                    message: error.to_string(),
                }])
            }
        };
        let written = if options.json {
            // Written by hand so the trace keeps its field order (json! would sort the keys).
            let name = serde_json::to_string(&name).expect("a string always serializes");
            // The trace stores outcomes and labels as data; `text` gives their words alongside,
            // one entry per event, for readers that cannot render them (the browser tests).
            let text: Vec<serde_json::Value> = trace
                .events
                .iter()
                .map(|event| {
                    let labels: Vec<String> = event
                        .messages
                        .iter()
                        .map(|message| event.label_text(message))
                        .collect();
                    serde_json::json!({ "outcome": event.outcome_text(), "labels": labels })
                })
                .collect();
            let text = serde_json::to_string(&text).expect("text always serializes");
            let trace = serde_json::to_string(&trace).expect("a trace always serializes");
            writeln!(
                std::io::stdout(),
                r#"{{"name":{name},"trace":{trace},"text":{text}}}"#
            )
        } else {
            print_trace(&name, &trace)
        };
        // A closed pipe (`lab run ... | head`) is the reader's choice, not an error.
        if written.is_err() {
            return ExitCode::SUCCESS;
        }
    }
    // Exit 0 whether invariants broke or not: a broken invariant is a finding about the design,
    // not a failure of the tool.
    ExitCode::SUCCESS
}

/// One scenario to run or explore, with what its lesson says about it.
struct Target {
    name: String,
    /// `safe` or `unsafe`; `None` for a bare scenario.
    kind: Option<VariantKind>,
    /// The lesson's explore budget for it; `None` for a bare scenario.
    explore: Option<Explore>,
    scenario: Scenario,
}

/// A bare scenario file gives one scenario; a lesson file gives one per variant.
fn scenarios(file: &Path, variant: Option<&str>) -> Result<Vec<Target>, Vec<LessonError>> {
    let text = std::fs::read_to_string(file).map_err(|error| {
        vec![LessonError {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            message: format!("cannot read: {error}"),
        }]
    })?;
    scenarios_in(file, &text, variant)
}

/// The scenarios of a file's text: `scenarios` without the reading.
fn scenarios_in(
    file: &Path,
    text: &str,
    variant: Option<&str>,
) -> Result<Vec<Target>, Vec<LessonError>> {
    let value: toml::Table = text
        .parse()
        .map_err(|error: toml::de::Error| vec![authoring::toml_error(file, text, &error)])?;
    if value.contains_key("variants") {
        let dir = file.parent().unwrap_or(Path::new("."));
        let lesson = authoring::lesson_from_text(dir, file, text)?;
        let chosen: Vec<Target> = lesson
            .variants
            .into_iter()
            .filter(|candidate| variant.is_none_or(|id| id == candidate.id))
            .map(|variant| Target {
                name: format!("{} / {}", lesson.id, variant.id),
                kind: Some(variant.kind),
                explore: Some(variant.explore),
                scenario: variant.scenario,
            })
            .collect();
        if chosen.is_empty() {
            let message = format!(
                "no variant \"{}\" in this lesson",
                variant.unwrap_or_default()
            );
            return Err(vec![LessonError {
                file: file.to_path_buf(),
                line: 1,
                column: 1,
                message,
            }]);
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

struct ExploreOptions {
    file: PathBuf,
    variant: Option<String>,
    faults: Option<u32>,
    preemptions: Option<u32>,
    kinds: Option<Vec<lab_engine::FaultKind>>,
    /// Wall-clock time for each variant's search.
    seconds: Option<u32>,
    json: bool,
}

fn parse_explore(args: &[String]) -> Result<ExploreOptions, String> {
    let mut options = ExploreOptions {
        file: PathBuf::new(),
        variant: None,
        faults: None,
        preemptions: None,
        kinds: None,
        seconds: None,
        json: false,
    };
    let number = |flag: &str, value: Option<&String>| -> Result<u32, String> {
        let value = value.ok_or(format!("{flag} needs a number"))?;
        value
            .parse()
            .map_err(|_| format!("{flag}: \"{value}\" is not a whole number"))
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--json" => options.json = true,
            "--faults" => options.faults = Some(number("--faults", rest.next())?),
            "--preemptions" => options.preemptions = Some(number("--preemptions", rest.next())?),
            "--seconds" => options.seconds = Some(number("--seconds", rest.next())?),
            "--kinds" => {
                let list = rest
                    .next()
                    .ok_or("--kinds needs a list, e.g. crash,lose_reply")?;
                let kinds = list
                    .split(',')
                    .map(|name| {
                        serde_json::from_value(serde_json::Value::String(name.trim().into()))
                            .map_err(|_| format!("--kinds: no fault is called \"{name}\""))
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                options.kinds = Some(kinds);
            }
            "--variant" => {
                options.variant = Some(rest.next().ok_or("--variant needs an id")?.clone())
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            file if options.file.as_os_str().is_empty() => options.file = PathBuf::from(file),
            extra => return Err(format!("unexpected argument {extra}")),
        }
    }
    if options.file.as_os_str().is_empty() {
        return Err("lab explore needs a FILE".into());
    }
    if options
        .faults
        .is_some_and(|faults| faults > lab_engine::FAULTS_MAX)
    {
        return Err(format!(
            "--faults: at most {} faults can be explored",
            lab_engine::FAULTS_MAX
        ));
    }
    Ok(options)
}

fn explore(args: &[String]) -> ExitCode {
    let options = match parse_explore(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let targets = match scenarios(&options.file, options.variant.as_deref()) {
        Ok(targets) => targets,
        Err(errors) => return report(&errors),
    };
    for target in targets {
        let mut budget = target.explore.clone().unwrap_or_default();
        budget.faults = options.faults.unwrap_or(budget.faults);
        budget.preemptions = options.preemptions.unwrap_or(budget.preemptions);
        if let Some(kinds) = &options.kinds {
            budget.kinds = kinds.clone();
        }
        let found = match explore_for(target.scenario.clone(), &budget, options.seconds) {
            Ok(found) => found,
            Err(error) => {
                return report(&[LessonError {
                    file: options.file.clone(),
                    line: 1,
                    column: 1,
                    message: error.to_string(),
                }])
            }
        };
        let written = if options.json {
            print_explored_json(&target, &found)
        } else {
            print_explored(&target, &budget, &found)
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
) -> Result<Report, lab_engine::ScenarioError> {
    let mut explorer = Explorer::new(scenario, budget.budget())?;
    let deadline = seconds
        .map(|seconds| std::time::Instant::now() + std::time::Duration::from_secs(seconds.into()));
    while !explorer.advance(20_000) {
        if deadline.is_some_and(|deadline| std::time::Instant::now() >= deadline) {
            explorer.stop();
        }
    }
    Ok(explorer.report())
}

fn kind_name(kind: Option<VariantKind>) -> Option<&'static str> {
    kind.map(|kind| match kind {
        VariantKind::Safe => "safe",
        VariantKind::Unsafe => "unsafe",
    })
}

fn print_explored_json(target: &Target, found: &Report) -> std::io::Result<()> {
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
        .map(|verdict| {
            serde_json::json!({
                "id": verdict.id,
                "holds": verdict.holds,
                "description": verdict.counterexample.as_ref().map(|example| &example.description),
            })
        })
        .collect();
    let line = serde_json::json!({
        "variant": target.name,
        "kind": kind_name(target.kind),
        "faults_max": found.faults_max,
        "preemptions_max": found.preemptions_max,
        "schedules": found.schedules,
        "states": found.states,
        "transitions": found.transitions,
        "complete": found.complete,
        "properties": properties,
        "counterexample": counterexample,
    });
    writeln!(std::io::stdout(), "{line}")
}

fn print_explored(target: &Target, budget: &Explore, found: &Report) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let kind = kind_name(target.kind)
        .map(|kind| format!(", {kind}"))
        .unwrap_or_default();
    writeln!(
        out,
        "== {}{kind}: {}",
        target.name,
        authoring::explore_text(budget)
    )?;
    let complete = if found.complete {
        "every schedule"
    } else {
        "INCOMPLETE: cut short by the time or transition limit; these are the schedules explored"
    };
    writeln!(
        out,
        "   {} schedules, {} states, {} transitions ({complete})",
        found.schedules, found.states, found.transitions
    )?;
    for verdict in &found.properties {
        match &verdict.counterexample {
            None => writeln!(out, "   holds   {}", verdict.property.statement())?,
            Some(example) => writeln!(
                out,
                "   BROKEN  {} ({})",
                verdict.property.statement(),
                example.description
            )?,
        }
    }
    match &found.counterexample {
        None => writeln!(out, "-- no invariant breaks within this budget")?,
        Some(example) => {
            writeln!(
                out,
                "-- shortest counterexample: {}; replay it with `lab run` on:",
                example.description
            )?;
            let scenario = toml::to_string(&example.scenario).unwrap_or_default();
            for line in scenario.lines() {
                writeln!(out, "   {line}")?;
            }
        }
    }
    Ok(())
}

fn print_trace(name: &str, trace: &Trace) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "== {name} (seed {}, {} events)",
        trace.seed,
        trace.len()
    )?;
    writeln!(
        out,
        "{:>4} {:>4}  {:<12} {:<16} {:<14} outcome",
        "#", "tick", "actor", "action", "fault"
    )?;
    for event in &trace.events {
        let fault = event.fault.map(|fault| fault.name()).unwrap_or("");
        let broke: Vec<&str> = event.broke.iter().map(|invariant| invariant.id()).collect();
        let mark = if broke.is_empty() {
            String::new()
        } else {
            format!("   !! breaks {}", broke.join(", "))
        };
        writeln!(
            out,
            "{:>4} {:>4}  {:<12} {:<16} {:<14} {}{}",
            event.index,
            event.tick,
            event.actor,
            event.action.name(),
            fault,
            event.outcome_text(),
            mark
        )?;
    }
    writeln!(out, "-- invariants")?;
    for verdict in &trace.verdicts {
        match verdict.broken_at {
            None => writeln!(out, "   holds   {}", verdict.invariant.statement())?,
            Some(at) => writeln!(
                out,
                "   BROKEN  {} (event {at}: {})",
                verdict.invariant.statement(),
                verdict.detail.clone().unwrap_or_default()
            )?,
        }
    }
    for (worker, results) in trace.results() {
        writeln!(out, "-- {worker} returned {results:?}")?;
    }
    Ok(())
}

#[cfg(test)]
mod robustness;
