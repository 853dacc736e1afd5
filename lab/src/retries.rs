//! `lab retries`: retry policies under contention, over many seeds or one, and stacked retry
//! layers, from the engine's `Contention` and `Stack` models.

use std::io::Write;
use std::process::ExitCode;

use lab_engine::{
    Contention, Policy, PolicyRun, PolicySeeds, Seeds, Spread, Stack, LAYER_ATTEMPTS_MAX,
};

use crate::cli::{usage_error, RetriesArgs};

/// `lab retries ...`: exit 0 (a usage error exits 2 with clap's message).
pub fn retries(args: RetriesArgs) -> ExitCode {
    let mut contention = Contention::default();
    contention.model = args.model.unwrap_or(contention.model);
    contention.clients = args.clients.unwrap_or(contention.clients);
    contention.capacity_per_tick = args.capacity;
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
            if let Err(error) = contention.check() {
                let error = error.replace("capacity_per_tick", "--capacity");
                usage_error("retries", error.replace("model = ", "--model "));
            }
            let policies = match args.policy {
                Some(policy) => vec![policy],
                None => Policy::ALL.to_vec(),
            };
            match args.seeds {
                1 => {
                    let runs: Vec<PolicyRun> = policies
                        .iter()
                        .map(|&policy| contention.run(policy))
                        .collect();
                    print_runs(&contention, &runs, args.json)
                }
                seeds => print_seeds(&contention.run_seeds(&policies, seeds), args.json),
            }
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
    writeln!(out, "{}, seed {}", heading(spec), spec.seed)?;
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
        "  clustering: the share of retries in the busiest tenth of the conflict windows after tick 0 ({} tick(s) each)",
        spec.model.window_ticks()
    )
}

/// The experiment in one line: its model and its bounds.
fn heading(spec: &Contention) -> String {
    let budget = spec
        .retry_budget
        .map_or("none".to_string(), |budget| budget.to_string());
    let (base, cap) = spec.pauses_ticks();
    let model = match spec.model {
        lab_engine::Model::Overlap => "writes that overlap in time conflict".to_string(),
        lab_engine::Model::Capacity => format!("{} call(s) a tick", spec.capacity()),
    };
    format!(
        "{} model ({model}): {} clients, {} attempts, retry budget {budget}, pauses {base}..{cap} ticks",
        spec.model.name(),
        spec.clients,
        spec.attempts_max,
    )
}

/// One measure of a policy over the seeds: its spread, and the seeds it did best in.
type Measure = fn(&PolicySeeds) -> (&Spread, u32);

fn print_seeds(seeds: &Seeds, json: bool) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        return writeln!(out, "{}", serde_json::to_string(seeds)?);
    }
    let last = seeds.spec.seed.saturating_add(u64::from(seeds.seeds) - 1);
    writeln!(
        out,
        "{}, seeds {} to {last}",
        heading(&seeds.spec),
        seeds.spec.seed
    )?;
    let measures: [(&str, &str, Measure); 2] = [
        ("calls (the work)", "fewest", |entry| {
            (&entry.calls, entry.fewest_calls_seeds)
        }),
        ("completion tick (the time)", "first", |entry| {
            (&entry.completed_ticks, entry.soonest_done_seeds)
        }),
    ];
    for (title, wins, measure) in measures {
        writeln!(out, "  {title}")?;
        writeln!(
            out,
            "  {:<20} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}",
            "policy", "mean", "sd", "min", "p50", "p90", "max", wins
        )?;
        for entry in &seeds.policies {
            let (spread, won) = measure(entry);
            writeln!(
                out,
                "  {:<20} {:>9.1} {:>8.1} {:>8} {:>8} {:>8} {:>8} {:>7}",
                entry.policy.name(),
                spread.mean,
                spread.deviation,
                spread.min,
                spread.p50,
                spread.p90,
                spread.max,
                won
            )?;
        }
    }
    let gave_up: u64 = seeds.policies.iter().map(|entry| entry.gave_up).sum();
    if gave_up > 0 {
        let each: Vec<String> = seeds
            .policies
            .iter()
            .map(|entry| format!("{} {}", entry.policy.name(), entry.gave_up))
            .collect();
        writeln!(
            out,
            "  clients that gave up, all seeds: {}",
            each.join(", ")
        )?;
    }
    if let Some((work, time)) = seeds.least_mean() {
        writeln!(
            out,
            "  least mean work: {}; fewest calls in {}",
            work.name(),
            wins_in(seeds, |entry| entry.fewest_calls_seeds)
        )?;
        writeln!(
            out,
            "  least mean time: {}; done first in {}",
            time.name(),
            wins_in(seeds, |entry| entry.soonest_done_seeds)
        )?;
    }
    writeln!(
        out,
        "  sd: standard deviation over the seeds; p50, p90: nine seeds in ten did no worse than p90; a tie wins for each tied policy"
    )
}

/// "61 of 100 seeds: full_jitter 61, decorrelated_jitter 39": every policy that won, most first.
fn wins_in(seeds: &Seeds, won: fn(&PolicySeeds) -> u32) -> String {
    let mut winners: Vec<(u32, Policy)> = seeds
        .policies
        .iter()
        .map(|entry| (won(entry), entry.policy))
        .filter(|(count, _)| *count > 0)
        .collect();
    winners.sort_by_key(|(count, _)| std::cmp::Reverse(*count));
    let each: Vec<String> = winners
        .iter()
        .map(|(count, policy)| format!("{} {count}", policy.name()))
        .collect();
    let most = winners.first().map_or(0, |(count, _)| *count);
    format!("{most} of {} seeds ({})", seeds.seeds, each.join(", "))
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
