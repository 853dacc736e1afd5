//! The command line: every command and option of `lab`, declared once with clap's derive, which
//! gives each command its own `--help`, `lab help COMMAND`, and a usage error (exit 2) that says
//! what was wrong.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use lab_course::names::by_name;
use lab_engine::{
    FaultKind, Model, Policy, Switch, WorkflowKind, CLIENTS_MAX, CONTENTION_ATTEMPTS_MAX,
    FAULTS_MAX, LAYERS_MAX, SEEDS_MAX,
};

/// The native command-line tool of Idempotency Lab: run scenarios and lessons, explore every
/// schedule, check the lessons.
#[derive(Debug, Parser)]
#[command(name = "lab", version, arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a scenario, or each design of a lesson, and print the trace and the invariants'
    /// verdicts.
    Run(RunArgs),
    /// Explore every schedule within K injected faults (of kinds F) and P preemptions, and print
    /// every invariant's verdict and the shortest counterexample as a scenario to replay.
    Explore(ExploreArgs),
    /// Check every lesson in DIR (or one lesson FILE, such as a challenge downloaded from the
    /// page), exploring each design within its budget.
    Check(CheckArgs),
    /// Print every lesson's tasks, checked, one JSON line each.
    Tasks(LessonsArgs),
    /// Print the coverage map (each idea of the sources -> lesson, step, task), checked against
    /// the lessons of FILE's folder; exit 1 naming every idea not yet mapped and every mapping
    /// whose lesson, step or task does not exist.
    Coverage(CoverageArgs),
    /// Print a link to a lesson's build task as a challenge (the page's challenge builder opens
    /// it too, with `#/make-challenge/` in place of `#/challenge/`).
    Challenge(ChallengeArgs),
    /// Print a batch scenario (TOML) of N records: the engine's reference load.
    Generate(GenerateArgs),
    /// Retry policies under contention: N clients each make one write under each policy (or P
    /// only), in the study's model (writes that overlap in time conflict) or a capacity of C
    /// calls a tick; the mean and spread over many seeds, or one seed's run. With --layers: the
    /// calls that reach the bottom of L retrying layers.
    Retries(RetriesArgs),
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A bare scenario (TOML), or a lesson file, whose designs run in turn.
    pub file: PathBuf,
    /// The seed of the engine's random choices, instead of the scenario's.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// One JSON line per run: the trace, and each event's outcome and labels in words.
    #[arg(long)]
    pub json: bool,
    /// Only this design of a lesson (`--variant`, its old name, still works).
    #[arg(long, value_name = "ID", alias = "variant")]
    pub design: Option<String>,
    /// Set a design switch before running, as the app's switches do (repeatable).
    #[arg(long = "switch", value_name = "NAME=on|off", value_parser = switch_position)]
    pub switches: Vec<(Switch, bool)>,
    /// Print the program each design runs, in the text form a build task's `start`,
    /// `reference` and `wrong` use, instead of running it.
    #[arg(long, conflicts_with = "json")]
    pub program: bool,
}

#[derive(Debug, Args)]
pub struct ExploreArgs {
    /// A bare scenario (TOML), or a lesson file, whose designs are explored in turn.
    pub file: PathBuf,
    /// Only this design of a lesson (`--variant`, its old name, still works).
    #[arg(long, value_name = "ID", alias = "variant")]
    pub design: Option<String>,
    /// Injected faults in one run [default: the lesson's budget, else 2].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=i64::from(FAULTS_MAX)))]
    pub faults: Option<u32>,
    /// Preemptions in one run [default: the lesson's budget, else 2].
    #[arg(long, value_name = "P")]
    pub preemptions: Option<u32>,
    /// The fault kinds to inject, comma-separated (e.g. crash,lose_reply) [default: the
    /// lesson's, else every kind the workflow allows].
    #[arg(long, value_name = "F,F", value_delimiter = ',', value_parser = fault_kind)]
    pub kinds: Option<Vec<FaultKind>>,
    /// Stop each design's search after S seconds, and say it is incomplete.
    #[arg(long, value_name = "S")]
    pub seconds: Option<u32>,
    /// One JSON line per design: the report.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The lessons folder (`course.toml` and one TOML file per lesson), or one lesson file.
    #[arg(default_value = "lessons", value_name = "DIR|FILE")]
    pub path: PathBuf,
}

#[derive(Debug, Args)]
pub struct ChallengeArgs {
    /// A lesson file with a build task.
    pub file: PathBuf,
    /// The build task's part, 1-based [default: the lesson's first build task].
    #[arg(long, value_name = "N")]
    pub part: Option<usize>,
    /// The challenge's title [default: the lesson's].
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// The challenge's brief, in the lessons' Markdown [default: the task's prompt].
    #[arg(long, value_name = "TEXT")]
    pub brief: Option<String>,
}

#[derive(Debug, Args)]
pub struct LessonsArgs {
    /// The lessons folder: `course.toml` and one TOML file per lesson.
    #[arg(default_value = "lessons")]
    pub dir: PathBuf,
}

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The coverage map; the lessons are those of its folder.
    #[arg(default_value = "lessons/coverage.toml")]
    pub file: PathBuf,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Records (operations) in the batch.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub records: u32,
    /// Workers sharing the batch [default: the reference load's, 2].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub workers: Option<u32>,
    /// The workflow; the reference load's faults strike only reserve's provider.submit, so any
    /// other workflow runs without them [default: reserve].
    #[arg(long, value_name = "W", value_parser = workflow)]
    pub workflow: Option<WorkflowKind>,
    /// The seed [default: the reference load's].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

#[derive(Debug, Args)]
pub struct RetriesArgs {
    /// When writes conflict: overlap (the study's: a write fails if another succeeded between
    /// its read and its arrival) or capacity (the resource admits C calls a tick) [default:
    /// overlap].
    #[arg(long, value_name = "M", value_parser = model)]
    pub model: Option<Model>,
    /// Clients retrying at once [default: the engine's contention model's].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(CLIENTS_MAX)))]
    pub clients: Option<u32>,
    /// Calls the backend serves a tick, with --model capacity only [default: 1].
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub capacity: Option<u32>,
    /// Only this retry policy (all six when not given).
    #[arg(long, value_name = "P", value_parser = policy)]
    pub policy: Option<Policy>,
    /// Attempts per client (per layer with --layers, at most `LAYER_ATTEMPTS_MAX` there).
    #[arg(long, value_name = "A", value_parser = clap::value_parser!(u32).range(1..=i64::from(CONTENTION_ATTEMPTS_MAX)))]
    pub attempts: Option<u32>,
    /// Retries all clients (or all layers) may make together.
    #[arg(long, value_name = "B")]
    pub budget: Option<u32>,
    /// The first seed of the network, the conflicts and the jitter [default: 0].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Run K seeds, S to S+K-1, and print each policy's mean and spread and how often it did
    /// best; with 1, that one seed's run in full.
    #[arg(long, value_name = "K", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=i64::from(SEEDS_MAX)))]
    pub seeds: u32,
    /// Count the calls through L stacked retrying layers instead: every layer retrying, one
    /// layer, and a retry budget of B shared by the layers.
    #[arg(long, value_name = "L", value_parser = clap::value_parser!(u32).range(1..=i64::from(LAYERS_MAX)))]
    pub layers: Option<u32>,
    /// JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `reconcile=on` as a switch and its position.
fn switch_position(given: &str) -> Result<(Switch, bool), String> {
    let (name, value) = given
        .split_once('=')
        .ok_or_else(|| format!("write NAME=on or NAME=off, not \"{given}\""))?;
    let switch = by_name("switch", name)?;
    match value {
        "on" => Ok((switch, true)),
        "off" => Ok((switch, false)),
        other => Err(format!("{name}: \"{other}\" is neither on nor off")),
    }
}

fn fault_kind(name: &str) -> Result<FaultKind, String> {
    by_name("fault", name.trim())
}

fn workflow(name: &str) -> Result<WorkflowKind, String> {
    by_name("workflow", name)
}

fn policy(name: &str) -> Result<Policy, String> {
    by_name("policy", name)
}

fn model(name: &str) -> Result<Model, String> {
    by_name("model", name)
}

/// A usage error found after parsing (two options of `command` that do not go together): clap's
/// message with that command's usage, and exit code 2, as for any other.
pub fn usage_error(command: &str, message: impl std::fmt::Display) -> ! {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    let command = cli
        .find_subcommand_mut(command)
        .expect("a command of lab's own");
    command
        .error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn a_switch_takes_a_name_and_a_position() {
        assert_eq!(
            switch_position("reconcile=on"),
            Ok((Switch::Reconcile, true))
        );
        assert!(switch_position("reconcile")
            .unwrap_err()
            .contains("NAME=on"));
        assert!(switch_position("reconcile=maybe")
            .unwrap_err()
            .contains("neither on nor off"));
        assert!(switch_position("nothing=on")
            .unwrap_err()
            .starts_with("no switch is called \"nothing\"; known: "));
    }
}
