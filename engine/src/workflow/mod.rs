//! Workflows: the code a worker runs for one operation, as a step machine. Each step is one call
//! to one place (journal, provider, table, tracker, sink, model) and becomes one event.

use serde::{Deserialize, Serialize};

use crate::fault::{Action, FaultKind};
use crate::invariant::StepFlags;
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::trace::{Lane, LaneKind, Message};
use crate::world::World;

mod reserve;

/// Which workflow the workers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowKind {
    /// Seed 002's recovery lab: journal, lookup, submit to a provider, verify.
    Reserve,
}

impl WorkflowKind {
    /// The code panel's listing for this design; step line ids index into it.
    pub(crate) fn listing(self, scenario: &Scenario) -> Listing {
        match self {
            WorkflowKind::Reserve => reserve::listing(scenario),
        }
    }

    /// The lanes besides the workers, left to right.
    pub(crate) fn lanes(self) -> Vec<Lane> {
        let lane = |id: &str, label: &str, kind| Lane {
            id: id.to_string(),
            label: label.to_string(),
            kind,
        };
        match self {
            WorkflowKind::Reserve => vec![
                lane("journal", "Journal", LaneKind::Journal),
                lane("provider", "Provider", LaneKind::Provider),
            ],
        }
    }

    /// A fresh task for one run.
    pub(crate) fn start(self, start: Start) -> Task {
        match self {
            WorkflowKind::Reserve => Task::Reserve(reserve::Task::new(start)),
        }
    }
}

/// What a new run knows.
#[derive(Clone, Debug)]
pub(crate) struct Start {
    pub op: String,
    pub payload: String,
    pub key: String,
    pub tick: u32,
}

/// A run in progress.
#[derive(Clone, Debug)]
pub(crate) enum Task {
    Reserve(reserve::Task),
}

impl Task {
    /// The action the next step will take.
    pub fn next_action(&self) -> Action {
        match self {
            Task::Reserve(task) => task.next_action(),
        }
    }

    /// Takes one step.
    pub fn step(&mut self, ctx: &mut Ctx) -> Step {
        match self {
            Task::Reserve(task) => task.step(ctx),
        }
    }

    /// Stops because the cancel flag is up: one final step.
    pub fn cancel(&mut self, ctx: &mut Ctx) -> Step {
        match self {
            Task::Reserve(task) => task.cancel(ctx),
        }
    }

    /// The operation of this run.
    pub fn op(&self) -> &str {
        match self {
            Task::Reserve(task) => &task.start.op,
        }
    }
}

/// What a step may touch.
pub(crate) struct Ctx<'a> {
    pub world: &'a mut World,
    pub scenario: &'a Scenario,
    pub rng: &'a mut Rng,
    /// The lane id of the stepping worker.
    pub lane: &'a str,
    /// The fault striking this step, if any.
    pub fault: Option<FaultKind>,
}

impl Ctx<'_> {
    /// A request from the worker to `to` and its reply; either may be lost.
    pub fn call(
        &self,
        to: &str,
        request: String,
        reply: Option<String>,
        lost: Lost,
    ) -> Vec<Message> {
        let mut messages = vec![Message {
            from: self.lane.to_string(),
            to: to.to_string(),
            label: request,
            lost: lost == Lost::Request,
        }];
        if let Some(reply) = reply {
            messages.push(Message {
                from: to.to_string(),
                to: self.lane.to_string(),
                label: reply,
                lost: lost == Lost::Reply,
            });
        }
        messages
    }
}

/// Which half of a call was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lost {
    Nothing,
    Request,
    Reply,
}

/// What one step did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Step {
    pub action: Option<Action>,
    pub messages: Vec<Message>,
    pub outcome: String,
    /// The listing line id being executed.
    pub line: &'static str,
    pub flags: StepFlags,
    /// The run ended with this result.
    pub result: Option<String>,
    /// The worker sleeps this many ticks after the step.
    pub sleep_ticks: u32,
    /// The step used the fault it was given.
    pub fault_used: bool,
}

/// A code listing whose lines can be named.
#[derive(Clone, Debug, Default)]
pub(crate) struct Listing {
    lines: Vec<(Option<&'static str>, String)>,
}

impl Listing {
    /// Adds a plain line.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.lines.push((None, text.to_string()));
        self
    }

    /// Adds a line a step can point at.
    pub fn named(&mut self, id: &'static str, text: &str) -> &mut Self {
        self.lines.push((Some(id), text.to_string()));
        self
    }

    /// The line number of a named line.
    pub fn line(&self, id: &str) -> Option<u16> {
        self.lines
            .iter()
            .position(|(name, _)| *name == Some(id))
            .map(|index| index as u16)
    }

    /// The text of every line.
    pub fn code(&self) -> Vec<String> {
        self.lines.iter().map(|(_, text)| text.clone()).collect()
    }
}
