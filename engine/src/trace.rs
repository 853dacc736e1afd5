//! What comes out of the engine: ordered events, each with the whole state after it.
//!
//! The JSON form (`serde_json::to_string(&trace)`) is stable within a `format` version; see
//! `engine/TRACE.md`.

use serde::{Deserialize, Serialize};

use crate::fault::{Action, FaultKind, FaultPoint};
use crate::invariant::{Invariant, Verdict};
use crate::workflow::WorkflowKind;
use crate::world::World;

/// The version of the trace's JSON form. Bumped on any change that breaks a reader.
pub const TRACE_FORMAT: u32 = 1;

/// A whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub format: u32,
    pub workflow: WorkflowKind,
    pub seed: u64,
    /// The workflow's code, one entry per line, as the code panel shows it.
    pub code: Vec<String>,
    /// The lanes of the sequence diagram, left to right.
    pub lanes: Vec<Lane>,
    /// The state before the first event.
    pub initial: World,
    pub events: Vec<Event>,
    /// One verdict per invariant, in `Invariant::ALL` order.
    pub verdicts: Vec<Verdict>,
    /// Every place a fault could have struck in this run.
    pub fault_points: Vec<FaultPoint>,
    /// Why the run stopped.
    pub stop: Stop,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Every worker finished its runs.
    Finished,
    /// The step cap was reached first.
    StepCap,
    /// The clock reached its limit (`u32::MAX` ticks) with work still to do: a back-off or
    /// restart would have woken a worker past the last tick.
    TimeLimit,
}

/// One column of the sequence diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lane {
    /// Stable id used by messages: "worker-1", "journal", "provider", "database", "tracker",
    /// "email", "model".
    pub id: String,
    /// What the diagram writes at the top.
    pub label: String,
    pub kind: LaneKind,
}

/// What a lane stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneKind {
    Worker,
    Journal,
    Provider,
    Database,
    Tracker,
    Sink,
    Model,
    /// A single number kept outside the database (an external progress counter).
    Counter,
}

/// One step of one worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// 1-based position in the trace.
    pub index: u32,
    pub tick: u32,
    /// The worker that stepped.
    pub actor: String,
    pub action: Action,
    /// The worker's run number (1-based) and its operation.
    pub run: u32,
    pub op: String,
    /// Messages exchanged by this step, in order (a call is a request and a reply).
    pub messages: Vec<Message>,
    /// What happened, in a few words.
    pub outcome: String,
    /// The line of `Trace::code` being executed (0-based).
    pub line: Option<u16>,
    /// The fault injected at this step, if any.
    pub fault: Option<FaultKind>,
    /// Invariants that first broke at this event.
    pub broke: Vec<Invariant>,
    /// The state after this event.
    pub state: World,
}

/// A message between two lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub from: String,
    pub to: String,
    pub label: String,
    /// The message was lost on the way.
    pub lost: bool,
}

impl Trace {
    /// The state at cursor `n`: 0 is before the first event, `n` is after event `n`.
    pub fn state_at(&self, cursor: u32) -> &World {
        match cursor {
            0 => &self.initial,
            n => &self.events[(n.min(self.events.len() as u32) - 1) as usize].state,
        }
    }

    /// Number of events.
    pub fn len(&self) -> u32 {
        self.events.len() as u32
    }

    /// True when nothing happened.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The index of the first event that broke any invariant.
    pub fn first_broken(&self) -> Option<u32> {
        self.verdicts
            .iter()
            .filter_map(|verdict| verdict.broken_at)
            .min()
    }

    /// The results each worker's runs returned, worker by worker.
    pub fn results(&self) -> Vec<(String, Vec<String>)> {
        let last = self.state_at(self.len());
        last.workers
            .iter()
            .map(|worker| (worker.name.clone(), worker.results.clone()))
            .collect()
    }
}
