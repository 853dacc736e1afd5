//! What comes out of the engine: ordered events, each with the changes it made to the state.
//!
//! A trace stores the initial state and, per event, only what the event changed, so its size is
//! O(events + records). [`Trace::state_at`] rebuilds any state from the nearest checkpoint: a
//! snapshot of the records kept in memory (never serialized) every time the changes since the
//! last one outnumber half the world's own items. Snapshots share every chunk of records that did
//! not change between them (`snapshot.rs`, `chunks.rs`), so taking one costs about the changes it
//! covers, and a seek rebuilds one world and replays at most half as many changes as the world
//! has items.
//!
//! The JSON form (`serde_json::to_string(&trace)`) is stable within a `format` version; see
//! `engine/TRACE.md`.

use serde::{Deserialize, Serialize};

use crate::fault::{Action, FaultKind, FaultPoint};
use crate::few::Few;
use crate::invariant::{Invariant, Invariants, Verdict};
use crate::kind::WorkflowKind;
use crate::lane::Lane;
use crate::outcome::{Message, Outcome};
use crate::snapshot::Snapshot;
use crate::text::Text;
use crate::world::{Change, World};

/// The version of the trace's JSON form. Bumped on any change that breaks a reader.
/// 2: events carry `changes` instead of the whole `state`.
/// 3: an event's `outcome` and a message's `label` are data (`Outcome`, `Label`), not text.
/// 4: a journal row's review item, a cancel flag per worker.
/// 5: workflows are programs of blocks: `code` is the program's, a pipeline read says what the
/// row held (`prior_read`), and a run can end `raised` (see `engine/TRACE.md`).
pub const TRACE_FORMAT: u32 = 5;

/// A checkpoint is taken once this many changes (or half the world's size, if larger) have passed.
const CHECKPOINT_CHANGES_MIN: u32 = 64;

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
    /// The stages a journal row records (`JobRow::stages`), in the order a run reaches them;
    /// empty for a workflow without stages.
    pub stages: Vec<String>,
    /// The state before the first event.
    pub initial: World,
    pub events: Vec<Event>,
    /// One verdict per invariant, in `Invariant::ALL` order.
    pub verdicts: Vec<Verdict>,
    /// Every place a fault could have struck in this run.
    pub fault_points: Vec<FaultPoint>,
    /// Why the run stopped.
    pub stop: Stop,
    /// States kept to seek quickly, never serialized: the run's, or for a trace read back,
    /// rebuilt from the events at its first seek.
    #[serde(skip)]
    pub(crate) checkpoints: Seeks,
}

/// A trace's checkpoints, once taken. Derived from the events, so two traces with equal events
/// are equal whatever their checkpoints, or whether they have been taken yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct Seeks(std::cell::OnceCell<Checkpoints>);

impl Seeks {
    /// The checkpoints a run took as it went.
    pub(crate) fn taken(checkpoints: Checkpoints) -> Seeks {
        Seeks(std::cell::OnceCell::from(checkpoints))
    }
}

impl PartialEq for Seeks {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// States after some events, by cursor, in cursor order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checkpoints {
    kept: Vec<(u32, Snapshot)>,
    /// The state after the last event passed, kept current from the events' changes.
    live: Snapshot,
    /// Changes (and events) since the last copy.
    since: u32,
}

impl Checkpoints {
    /// Checkpoints of a run that starts from `initial`.
    pub(crate) fn new(initial: &World) -> Checkpoints {
        Checkpoints {
            kept: Vec::new(),
            live: Snapshot::of(initial),
            since: 0,
        }
    }

    /// `event` happened: keeps a copy once the changes since the last one outnumber half the
    /// world's items. The one rule, whether a run takes its checkpoints as it goes or a trace
    /// read back replays its events. A copy shares the chunks no change touched since the last
    /// (see `chunks.rs`), so it costs about the changes it covers.
    pub(crate) fn passed(&mut self, event: &Event) {
        // A step takes one tick; waiting happens before it.
        self.live
            .apply(&event.changes, event.tick.saturating_add(1));
        self.since += event.changes.len() as u32 + 1;
        if self.since >= (self.live.size() / 2).max(CHECKPOINT_CHANGES_MIN) {
            self.kept.push((event.index, self.live.copy()));
            self.since = 0;
        }
    }
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

/// One step of one worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// 1-based position in the trace.
    pub index: u32,
    pub tick: u32,
    /// The worker that stepped.
    pub actor: Text,
    /// The id of the actor's lane in `Trace::lanes`: the worker's ("worker-1", ...), or
    /// "provider" for a late commit at the provider.
    pub lane: Text,
    pub action: Action,
    /// The worker's run number (1-based) and its operation.
    pub run: u32,
    pub op: Text,
    /// Messages exchanged by this step, in order (a call is a request and a reply). Held in the
    /// event, as `changes` (see `few.rs`).
    pub messages: Few<Message>,
    /// What happened, as data; `Outcome::text` (or `Event::outcome_text`) says it in words.
    pub outcome: Outcome,
    /// The line of `Trace::code` being executed (0-based).
    pub line: Option<u16>,
    /// The fault injected at this step, if any.
    pub fault: Option<FaultKind>,
    /// Invariants that first broke at this event.
    pub broke: Invariants,
    /// What this event changed, in order.
    pub changes: Few<Change>,
}

impl Event {
    /// What happened, in a few words, as the event card and `lab run` show it.
    pub fn outcome_text(&self) -> String {
        self.outcome.text(self)
    }

    /// The words on one of this event's messages.
    pub fn label_text(&self, message: &Message) -> String {
        message.label.text(self)
    }
}

impl Trace {
    /// The checkpoints: the run's, or rebuilt by replaying the events (a trace read back).
    fn checkpoints(&self) -> &Checkpoints {
        self.checkpoints.0.get_or_init(|| {
            let mut checkpoints = Checkpoints::new(&self.initial);
            for event in &self.events {
                checkpoints.passed(event);
            }
            checkpoints
        })
    }

    /// The state at cursor `n`: 0 is before the first event, `n` is after event `n`; a cursor past
    /// the end is the end. Rebuilt from the nearest checkpoint before it.
    pub fn state_at(&self, cursor: u32) -> World {
        let cursor = cursor.min(self.len());
        let checkpoints = &self.checkpoints().kept;
        let (from, mut world) = match checkpoints.partition_point(|(at, _)| *at <= cursor) {
            0 => (0, self.initial.clone()),
            found => {
                let (at, snapshot) = &checkpoints[found - 1];
                (*at, snapshot.world())
            }
        };
        for event in &self.events[from as usize..cursor as usize] {
            Trace::replay(&mut world, event);
        }
        world
    }

    /// Applies one event's changes.
    fn replay(world: &mut World, event: &Event) {
        for change in &event.changes {
            world.apply(change);
        }
        // A step takes one tick; waiting happens before it.
        world.tick = event.tick.saturating_add(1);
    }

    /// The invariants broken at or before cursor `n`, in `Invariant::ALL` order.
    pub fn broken_by(&self, cursor: u32) -> Vec<Invariant> {
        self.verdicts_at(cursor)
            .into_iter()
            .filter(|verdict| verdict.broken_at.is_some())
            .map(|verdict| verdict.invariant)
            .collect()
    }

    /// The verdicts as they stood at cursor `n`: an invariant that broke later still holds there
    /// (no `broken_at`, no `detail`). In `Invariant::ALL` order.
    pub fn verdicts_at(&self, cursor: u32) -> Vec<Verdict> {
        self.verdicts
            .iter()
            .map(|verdict| match verdict.broken_at {
                Some(at) if at > cursor => Verdict {
                    invariant: verdict.invariant,
                    broken_at: None,
                    detail: None,
                },
                _ => verdict.clone(),
            })
            .collect()
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
            .map(|worker| {
                let results = worker.results.iter().map(ToString::to_string).collect();
                (worker.name.to_string(), results)
            })
            .collect()
    }
}
