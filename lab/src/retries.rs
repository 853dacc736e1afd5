//! `lab retries`: retry policies under contention, and stacked retry layers, from the engine's
//! `Contention` and `Stack` models.

use std::io::Write;
use std::process::ExitCode;

use lab_engine::{Contention, PolicyRun, Stack, LAYER_ATTEMPTS_MAX};

use crate::cli::{usage_error, RetriesArgs};

/// `lab retries ...`: exit 0 (a usage error exits 2 with clap's message).
pub fn retries(args: RetriesArgs) -> ExitCode {
    let mut contention = Contention::default();
    contention.clients = args.clients.unwrap_or(contention.clients);
    contention.capacity_per_tick = args.capacity.unwrap_or(contention.capacity_per_tick);
    contention.seed = args.seed.unwrap_or(contention.seed);
    let written = match args.layers {
        Some(layers) => {
            let mut stack = Stack {
                layers,
                ..Stack::default()
            };
            if let Some(attempts) = args.attempts {
                if attempts > LAYER_ATTEMPTS_MAX {
                    usage_error(
                        "retries",
                        format!(
                        "--attempts is {attempts}; with --layers it must be from 1 to {LAYER_ATTEMPTS_MAX}"
                    ),
                    );
                }
                stack.attempts = attempts;
            }
            stack.retry_budget = args.budget.unwrap_or(stack.retry_budget);
            print_stack(stack, args.json)
        }
        None => {
            contention.attempts_max = args.attempts.unwrap_or(contention.attempts_max);
            contention.retry_budget = args.budget;
            let runs = match args.policy {
                Some(policy) => vec![contention.run(policy)],
                None => contention.run_all(),
            };
            print_runs(&contention, &runs, args.json)
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
