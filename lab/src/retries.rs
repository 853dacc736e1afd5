//! `lab retries`: retry policies under contention, and stacked retry layers, from the engine's
//! `Contention` and `Stack` models.

use std::io::Write;
use std::process::ExitCode;

use lab_engine::{
    Contention, Policy, PolicyRun, Stack, CLIENTS_MAX, CONTENTION_ATTEMPTS_MAX, LAYERS_MAX,
    LAYER_ATTEMPTS_MAX,
};

/// What the command line asked for.
#[derive(Debug, Default)]
struct Options {
    contention: Contention,
    /// Only this policy; all six when `None`.
    policy: Option<Policy>,
    /// `--layers` given: count the stack instead of running the contention experiment.
    stack: Option<Stack>,
    attempts: Option<u32>,
    budget: Option<u32>,
    json: bool,
}

/// A whole number in `low..=high`, or a message naming the flag and the range.
fn bounded(name: &str, text: Option<&String>, low: u32, high: u32) -> Result<u32, String> {
    let text = text.ok_or_else(|| format!("{name} needs a value"))?;
    text.parse::<u32>()
        .ok()
        .filter(|value| (low..=high).contains(value))
        .ok_or_else(|| {
            format!("{name} is \"{text}\"; it must be a whole number from {low} to {high}")
        })
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let name = arg.as_str();
        match name {
            "--clients" => options.contention.clients = bounded(name, rest.next(), 1, CLIENTS_MAX)?,
            "--capacity" => {
                options.contention.capacity_per_tick = bounded(name, rest.next(), 1, 1_000_000)?
            }
            "--attempts" => {
                options.attempts = Some(bounded(name, rest.next(), 1, CONTENTION_ATTEMPTS_MAX)?)
            }
            "--budget" => options.budget = Some(bounded(name, rest.next(), 0, u32::MAX)?),
            "--layers" => {
                let layers = bounded(name, rest.next(), 1, LAYERS_MAX)?;
                options.stack = Some(Stack {
                    layers,
                    ..Stack::default()
                });
            }
            "--seed" => {
                let text = rest.next().ok_or("--seed needs a value")?;
                options.contention.seed = text
                    .parse()
                    .map_err(|_| format!("--seed is \"{text}\"; it must be a whole number"))?;
            }
            "--policy" => {
                let text = rest.next().ok_or("--policy needs a value")?;
                let known: Vec<&str> = Policy::ALL.iter().map(|policy| policy.name()).collect();
                options.policy = Some(Policy::from_name(text).ok_or_else(|| {
                    format!("--policy is \"{text}\"; known: {}", known.join(", "))
                })?);
            }
            "--json" => options.json = true,
            other => return Err(format!("unexpected argument {other}")),
        }
    }
    if let Some(stack) = &mut options.stack {
        if let Some(attempts) = options.attempts {
            if attempts > LAYER_ATTEMPTS_MAX {
                return Err(format!(
                    "--attempts is {attempts}; with --layers it must be from 1 to {LAYER_ATTEMPTS_MAX}"
                ));
            }
            stack.attempts = attempts;
        }
        stack.retry_budget = options.budget.unwrap_or(stack.retry_budget);
    } else {
        let contention = &mut options.contention;
        contention.attempts_max = options.attempts.unwrap_or(contention.attempts_max);
        contention.retry_budget = options.budget;
    }
    Ok(options)
}

/// `lab retries ...`: exit 0, or 2 on a usage error.
pub fn retries(args: &[String], usage: &str) -> ExitCode {
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}\n{usage}");
            return ExitCode::from(2);
        }
    };
    let written = match options.stack {
        Some(stack) => print_stack(stack, options.json),
        None => {
            let runs = match options.policy {
                Some(policy) => vec![options.contention.run(policy)],
                None => options.contention.run_all(),
            };
            print_runs(&options.contention, &runs, options.json)
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn print_runs(spec: &Contention, runs: &[PolicyRun], json: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        for run in runs {
            writeln!(out, "{}", serde_json::to_string(run)?)?;
        }
        return Ok(());
    }
    let budget = spec
        .retry_budget
        .map_or("none".to_string(), |budget| budget.to_string());
    writeln!(
        out,
        "{} clients, {} call(s) a tick, {} attempts, retry budget {budget}, pauses {}..{} ticks, seed {}",
        spec.clients,
        spec.capacity_per_tick,
        spec.attempts_max,
        spec.delay_base_ticks,
        spec.delay_cap_ticks,
        spec.seed
    )?;
    writeln!(
        out,
        "  {:<20} {:>9} {:>10} {:>9} {:>7} {:>10}",
        "policy", "calls", "completed", "succeeded", "gave up", "clustering"
    )?;
    for run in runs {
        writeln!(
            out,
            "  {:<20} {:>9} {:>10} {:>9} {:>7} {:>9.1}%",
            run.policy.name(),
            run.calls,
            run.completed_tick,
            run.succeeded,
            run.gave_up,
            f64::from(run.clustering_permille) / 10.0
        )?;
    }
    writeln!(
        out,
        "  clustering: the share of retries in the busiest tenth of the ticks after tick 0"
    )
}

fn print_stack(stack: Stack, json: bool) -> std::io::Result<()> {
    let run = stack.run();
    let mut out = std::io::stdout().lock();
    if json {
        return writeln!(out, "{}", serde_json::to_string(&run)?);
    }
    writeln!(
        out,
        "{} layers of {} attempts over a backend that always fails (retry budget {})",
        run.layers, run.attempts, run.retry_budget
    )?;
    writeln!(
        out,
        "  {:<8} {:>12} {:>12} {:>12}",
        "depth", "every layer", "one layer", "budget"
    )?;
    for depth in 0..run.calls_by_depth.len() {
        let name = match depth {
            0 => "caller".to_string(),
            depth if depth == run.calls_by_depth.len() - 1 => "backend".to_string(),
            depth => format!("layer {depth}"),
        };
        writeln!(
            out,
            "  {name:<8} {:>12} {:>12} {:>12}",
            run.calls_by_depth[depth],
            run.calls_by_depth_single_layer[depth],
            run.calls_by_depth_with_budget[depth]
        )?;
    }
    Ok(())
}
