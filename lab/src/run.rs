//! `lab run`: each scenario of a file through the engine, its trace printed as a table (or as
//! JSON with each event's words beside it), and every invariant's verdict.

use std::io::Write;
use std::process::ExitCode;

use lab_engine::{Engine, Invariant, Trace};

use crate::cli::RunArgs;
use crate::target::{at_start, report, scenarios, Target};

pub fn run(args: RunArgs) -> ExitCode {
    let targets = match scenarios(&args.file, args.design.as_deref()) {
        Ok(targets) => targets,
        Err(errors) => return report(&errors),
    };
    for Target {
        name, mut scenario, ..
    } in targets
    {
        if let Some(seed) = args.seed {
            scenario.seed = seed;
        }
        for &(switch, on) in &args.switches {
            scenario = switch.set(&scenario, on);
        }
        if args.program {
            let program = scenario
                .program
                .clone()
                .unwrap_or_else(|| scenario.workflow.design_program(&scenario));
            if print_program(&name, &program).is_err() {
                return ExitCode::SUCCESS;
            }
            continue;
        }
        // The invariants its runs can break: the ones the app's Invariants panel lists.
        let applies = Invariant::applying(&scenario);
        let trace = match Engine::run(scenario) {
            Ok(trace) => trace,
            Err(error) => return report(&[at_start(&args.file, error.to_string())]),
        };
        let written = if args.json {
            print_json(&name, &trace, &applies)
        } else {
            print_trace(&name, &trace, &applies)
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

/// `# name`, then the program's text form.
fn print_program(name: &str, program: &lab_engine::Program) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "# {name}")?;
    write!(out, "{}", program.text())
}

/// One line: `{"name":..,"trace":..,"text":..,"applies":..}`, `applies` the ids of the
/// invariants the scenario's runs can break.
fn print_json(name: &str, trace: &Trace, applies: &[Invariant]) -> std::io::Result<()> {
    // Written by hand so the trace keeps its field order (json! would sort the keys).
    let name = serde_json::to_string(name).expect("a string always serializes");
    // The trace stores outcomes and labels as data; `text` gives their words alongside, one
    // entry per event, for readers that cannot render them (the browser tests).
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
    let trace = serde_json::to_string(trace).expect("a trace always serializes");
    let applies = serde_json::to_string(applies).expect("ids always serialize");
    writeln!(
        std::io::stdout(),
        r#"{{"name":{name},"trace":{trace},"text":{text},"applies":{applies}}}"#
    )
}

fn print_trace(name: &str, trace: &Trace, applies: &[Invariant]) -> std::io::Result<()> {
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
    let listed = trace
        .verdicts
        .iter()
        .filter(|verdict| applies.contains(&verdict.invariant));
    for verdict in listed {
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
