//! `lab`: the native command-line tool of Idempotency Lab.
//!
//! - `lab run FILE [--seed N] [--json] [--variant ID]`: runs a scenario file (a bare scenario, or a
//!   lesson file, whose variants run in turn) and prints the trace and the invariant verdicts.
//! - `lab check [DIR]`: checks every lesson under DIR (default `lessons`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lab_course::authoring::{self, LessonError};
use lab_engine::{Engine, Scenario, Trace};

const USAGE: &str = "usage:
  lab run FILE [--seed N] [--json] [--variant ID]   run a scenario or a lesson's variants
  lab check [DIR]                                   check every lesson in DIR (default: lessons)
  lab generate [--records N] [--workers K] [--workflow W] [--seed S]
                                                    print a batch scenario (TOML) of N records";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("generate") => generate(&args[1..]),
        Some("check") => check(
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
    match authoring::load(&dir) {
        Ok(loaded) => {
            let variants: usize = loaded
                .course
                .lessons
                .iter()
                .map(|lesson| lesson.variants.len())
                .sum();
            println!(
                "ok: {} lessons, {} variants, every expectation met ({})",
                loaded.course.lessons.len(),
                variants,
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(errors) => report(&errors),
    }
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
}

fn parse_run(args: &[String]) -> Result<RunOptions, String> {
    let mut options = RunOptions {
        file: PathBuf::new(),
        seed: None,
        json: false,
        variant: None,
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
    for (name, mut scenario) in scenarios {
        if let Some(seed) = options.seed {
            scenario.seed = seed;
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
            let trace = serde_json::to_string(&trace).expect("a trace always serializes");
            writeln!(std::io::stdout(), r#"{{"name":{name},"trace":{trace}}}"#)
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

/// A bare scenario file gives one scenario; a lesson file gives one per variant.
fn scenarios(
    file: &Path,
    variant: Option<&str>,
) -> Result<Vec<(String, Scenario)>, Vec<LessonError>> {
    let text = std::fs::read_to_string(file).map_err(|error| {
        vec![LessonError {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            message: format!("cannot read: {error}"),
        }]
    })?;
    let value: toml::Table = text
        .parse()
        .map_err(|error: toml::de::Error| vec![authoring::toml_error(file, &text, &error)])?;
    if value.contains_key("variants") {
        let dir = file.parent().unwrap_or(Path::new("."));
        let lesson = authoring::load_lesson(dir, file)?;
        let chosen: Vec<(String, Scenario)> = lesson
            .variants
            .into_iter()
            .filter(|candidate| variant.is_none_or(|id| id == candidate.id))
            .map(|variant| (format!("{} / {}", lesson.id, variant.id), variant.scenario))
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
    let scenario: Scenario =
        toml::from_str(&text).map_err(|error| vec![authoring::toml_error(file, &text, &error)])?;
    Ok(vec![(file.display().to_string(), scenario)])
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
            event.outcome,
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
