//! Why a scenario cannot run.

use thiserror::Error;

/// A scenario that breaks a rule of the engine. Each message says what would be right.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ScenarioError {
    /// No worker, so nothing would happen.
    #[error("the scenario has no workers; add at least one [[workers]] entry with runs")]
    NoWorkers,
    /// Two workers or operations share a name.
    #[error("{what} \"{name}\" is defined twice; names must be unique")]
    Duplicate { what: &'static str, name: String },
    /// A run names an operation that does not exist.
    #[error("worker \"{worker}\" runs operation \"{op}\", which is not in [[operations]] (known: {known})")]
    UnknownOperation {
        worker: String,
        op: String,
        known: String,
    },
    /// A fault rule names a worker that does not exist.
    #[error("fault {fault} names worker \"{worker}\", which is not in [[workers]]")]
    UnknownWorker { fault: String, worker: String },
    /// The scenario's workflow does not let this fault strike at that action. `allowed` lists
    /// where it can strike in that workflow, comma separated; empty when nowhere.
    #[error("fault {fault} cannot strike at {at} in the {workflow} workflow; {}", strikes_at(.allowed))]
    FaultDoesNotApply {
        fault: String,
        at: String,
        workflow: String,
        allowed: String,
    },
    /// A worker named like a lane that is not a worker.
    #[error("a worker cannot be called \"{name}\": that name belongs to a lane of the diagram; choose another")]
    ReservedName { name: String },
    /// `switches.key = "none"` in a workflow whose key is not a request header.
    #[error("switches.key = \"none\" needs a workflow that calls a provider, reserve or webhook (a request sent without an Idempotency-Key header); the {workflow} workflow always has a key")]
    NoKeyOutsideReserve { workflow: String },
    /// The program breaks a rule at a line (1-based; 0 for the program as a whole).
    #[error("worker \"{worker}\", run {run}: body {message}")]
    BadBody {
        worker: String,
        run: usize,
        message: String,
    },
    #[error("program, line {line}: {message}")]
    Program { line: u32, message: String },
    /// A number outside its range.
    #[error("{field} is {value}; it must be between {min} and {max}")]
    OutOfRange {
        field: String,
        value: i64,
        min: i64,
        max: i64,
    },
}

fn strikes_at(allowed: &str) -> String {
    match allowed {
        "" => "it can strike nowhere in this workflow".to_string(),
        allowed => format!("there it can strike at: {allowed}"),
    }
}
