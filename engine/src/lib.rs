//! The recovery engine of Idempotency Lab.
//!
//! A deterministic, sans-IO simulation of workers, a local journal, a database table, an
//! idempotency tracker, side-effect sinks and a remote provider, with faults injected on purpose.
//! A [`Scenario`] goes in; [`Engine::step`] produces one [`Event`] at a time; [`Engine::run`]
//! returns the whole [`Trace`]: what every event changed, any state on demand
//! ([`Trace::state_at`]) and a verdict on every [`Invariant`]. A step costs the same at 10
//! records as at 10,000: lookups go through indexes and invariants are checked on what the step
//! touched. [`Explorer`] checks every placement of up to K faults and every interleaving within P
//! preemptions, and returns the shortest counterexample as a scenario to replay. There is no
//! clock and no IO: time is a tick counter, and the one RNG is a seeded SplitMix64, so the same
//! scenario gives the same trace, byte for byte, natively and in WebAssembly.

// The modules, bottom to top: each imports only those above it in this list.
// Data: the words every other part uses.
mod arrange;
mod block;
mod error;
mod fault;
mod few;
mod fingerprint;
mod keys;
mod kind;
mod lane;
mod program;
mod rng;
mod scenario;
mod text;
// State: the records and how they change.
mod chunks;
mod invariant;
mod lookup;
mod provider;
mod retry;
mod snapshot;
mod switch;
mod world;
// What a run emits.
mod outcome;
mod sentence;
mod trace;
// Workflows, and the interpreter that runs their programs.
mod code;
mod effect;
mod interpret;
mod validate;
mod workflow;
// Running: the engine, the explorer, and the studies built on them.
mod contention;
mod engine;
mod explore;
mod generate;
mod layers;
mod seeds;

pub use arrange::{arrangements, Arrangements};
pub use block::{Block, Catches, Name, Raised, Shape, Spec};
pub use code::{text as block_text, words as block_words};
pub use contention::{
    clustering_permille, Contention, Model, Policy, PolicyRun, Running, CLIENTS_MAX,
    CONTENTION_ATTEMPTS_MAX,
};
pub use engine::{lane_id, Choice, Engine, FaultAt, Stepped};
pub use error::ScenarioError;
pub use explore::{
    fault_phrase, Budget, Counterexample, Explorer, Extent, Property, PropertyVerdict, Report,
    SearchProgress, FAULTS_MAX,
};
pub use fault::{Action, FaultKind, FaultPoint, FaultRule};
pub use few::Few;
pub use generate::{chance, BatchSpec};
pub use invariant::{Invariant, Invariants, Verdict};
pub use lane::{Lane, LaneKind};
pub use layers::{Stack, StackRun, LAYER_ATTEMPTS_MAX};
pub use outcome::{Arrival, Label, Message, NotSent, Outcome, Prior, Rejection, SubmitReply};
pub use program::{Line, Program, ProgramError, PROGRAM_DEPTH_MAX, PROGRAM_LINES_MAX};
pub use provider::LookedUp;
pub use retry::{deepest_calls_max, delay_ticks};
pub use rng::{fnv1a, fnv1a_bytes, Rng};
pub use scenario::{
    canonical_json, Backoff, CancelCheck, FailureClass, Jitter, KeySource, Operation, Payload,
    ProviderConfig, RejectStatus, RetryPolicy, Run, Scalar, Scenario, Schedule, Switches,
    WorkerPlan, WriteMode, ATTEMPTS_MAX, LAYERS_MAX, STEP_CAP_MAX, TICKS_MAX, WORKERS_MAX,
};
pub use seeds::{PolicySeeds, Seeds, Spread, SEEDS_MAX};
pub use switch::{Switch, RETRY_BUDGET_PERMILLE};
pub use text::Text;
pub use trace::{Event, Stop, Trace, TRACE_FORMAT};
pub use workflow::{build_retry_batch, Declaration, WorkflowKind};
pub use world::{
    Change, Effect, InFlight, JobRow, JobStatus, ProviderRecord, RetryLedger, Review, Row, Table,
    WorkerState, WorkerView, World, WriteOutcome,
};
