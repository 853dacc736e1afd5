//! `lab`: the native command-line tool of Idempotency Lab. `lab help` lists the commands and
//! `lab help COMMAND` (or `lab COMMAND --help`) each one's options:
//!
//! - `lab run FILE`: runs a scenario file (a bare scenario, or a lesson file, whose designs run
//!   in turn) and prints the trace and the invariant verdicts.
//! - `lab explore FILE`: explores every schedule of a scenario (or of each of a lesson's
//!   designs) within a budget of injected faults and preemptions, and prints the verdicts and
//!   the shortest counterexample.
//! - `lab check [DIR]`: checks every lesson under DIR (default `lessons`), the explorer included.
//! - `lab tasks [DIR]`: the checked lessons' tasks, one JSON line each.
//! - `lab coverage [FILE]`: the map of the sources' ideas to the steps that run them, checked.
//! - `lab challenge FILE`: a lesson's build task as a challenge link.
//! - `lab generate`: a batch scenario of N records, the engine's reference load.
//! - `lab retries`: retry policies under contention, or stacked retry layers.
//!
//! The layers, from the bottom up (each module imports only from those below it;
//! `scripts/structure.mjs` fails on any import cycle):
//!
//! 1. `cli` (every command and option, with clap) and `target` (a file's scenarios, and lesson
//!    errors printed at their file, line and column).
//! 2. One module a command: `run`, `explore`, `lessons` (`check`, `tasks`, `coverage` and
//!    `challenge`),
//!    `retries`, and
//!    `generate` here.
//! 3. `main`: the command line to its command.

mod cli;
mod explore;
mod lessons;
mod retries;
mod run;
mod target;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command, GenerateArgs};

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Run(args) => run::run(args),
        Command::Explore(args) => explore::explore(args),
        Command::Check(args) => lessons::check(&args.path),
        Command::Tasks(args) => lessons::tasks(&args.dir),
        Command::Coverage(args) => lessons::coverage(&args.file),
        Command::Challenge(args) => lessons::challenge(args),
        Command::Generate(args) => generate(args),
        Command::Retries(args) => retries::retries(args),
    }
}

/// Prints a generated batch scenario: the engine's reference load (`BatchSpec`) unless told
/// otherwise.
fn generate(args: GenerateArgs) -> ExitCode {
    let mut spec = lab_engine::BatchSpec::reference(args.records);
    spec.workers = args.workers.unwrap_or(spec.workers);
    spec.seed = args.seed.unwrap_or(spec.seed);
    if let Some(workflow) = args.workflow {
        spec.workflow = workflow;
        // The reference faults strike where the workflow may not act: keep only those it can take.
        spec.faults
            .retain(|rule| workflow.faults_at(rule.at).contains(&rule.fault));
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

#[cfg(test)]
mod robustness;
