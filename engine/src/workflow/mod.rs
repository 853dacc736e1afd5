//! Workflows: the code a worker runs for one operation, as a step machine. Each step is one call
//! to one place (journal, provider, table, tracker, sink, model) and becomes one event.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::fault::{Action, FaultKind};
use crate::few::Few;
use crate::fingerprint::Fingerprint;
use crate::invariant::StepFlags;
use crate::rng::Rng;
use crate::say::{Label, NotSent, Outcome};
use crate::scenario::Scenario;
use crate::text::Text;
use crate::trace::{Lane, LaneKind, Message};
use crate::world::{Effect, World};

mod charge;
mod ingest;
mod notify;
mod pipeline;
mod reserve;
mod write_result;

pub use pipeline::build_retry_batch;

/// Which workflow the workers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowKind {
    /// Seed 002's recovery lab: journal, lookup, submit to a provider, verify.
    Reserve,
    /// Seed 000: write a result row with INSERT, INSERT OR IGNORE or UPSERT; optionally check first.
    WriteResult,
    /// Seed 004: a payment service's idempotency table in front of a card charge.
    Charge,
    /// Seeds 000 and 001: a notification guarded by the idempotency tracker, then a database write.
    Notify,
    /// Seed 000: model call, downstream write, notification; retry batches and resumable stages.
    Pipeline,
    /// Seed 001: a batch of source events into a table, with a dedup key, a tracking table or a
    /// progress counter, and an email per event.
    Ingest,
}

/// A workflow's faults by `Action as usize` (see `WorkflowKind::faults_at`).
type ByAction = [&'static [FaultKind]; Action::ALL.len()];

/// A fault declaration as a table by action: the faults an action is declared with, none for
/// an action it does not list (the first entry counts, as a search would find it).
const fn by_action(declaration: &[(Action, &'static [FaultKind])]) -> ByAction {
    let mut table: ByAction = [&[]; Action::ALL.len()];
    let mut entry = declaration.len();
    // Backwards, so an earlier entry for the same action wins.
    while entry > 0 {
        entry -= 1;
        let (action, faults) = declaration[entry];
        table[action as usize] = faults;
    }
    table
}

impl WorkflowKind {
    /// Every workflow, in a fixed order.
    pub const ALL: [WorkflowKind; 6] = [
        WorkflowKind::Reserve,
        WorkflowKind::WriteResult,
        WorkflowKind::Charge,
        WorkflowKind::Notify,
        WorkflowKind::Pipeline,
        WorkflowKind::Ingest,
    ];

    /// The name used in scenario files and messages.
    pub fn name(self) -> &'static str {
        match self {
            WorkflowKind::Reserve => "reserve",
            WorkflowKind::WriteResult => "write_result",
            WorkflowKind::Charge => "charge",
            WorkflowKind::Notify => "notify",
            WorkflowKind::Pipeline => "pipeline",
            WorkflowKind::Ingest => "ingest",
        }
    }

    /// Every action this workflow can take, each with the faults that can strike there, in
    /// `FaultKind::ALL` order. Validation, the engine's fault points and the explorer all read
    /// this one declaration, and every fault it lists changes what the step does.
    pub const fn fault_table(self) -> &'static [(Action, &'static [FaultKind])] {
        match self {
            WorkflowKind::Reserve => reserve::FAULTS,
            WorkflowKind::WriteResult => write_result::FAULTS,
            WorkflowKind::Charge => charge::FAULTS,
            WorkflowKind::Notify => notify::FAULTS,
            WorkflowKind::Pipeline => pipeline::FAULTS,
            WorkflowKind::Ingest => ingest::FAULTS,
        }
    }

    /// The faults that can strike at `action` in this workflow; none at an action it never takes.
    /// Read at every step: by the action's index into the declaration, turned at compile time
    /// into a table by action (`by_action`).
    #[inline]
    pub fn faults_at(self, action: Action) -> &'static [FaultKind] {
        const TABLES: [ByAction; WorkflowKind::ALL.len()] = {
            let mut tables = [[&[] as &[FaultKind]; Action::ALL.len()]; WorkflowKind::ALL.len()];
            let mut index = 0;
            while index < WorkflowKind::ALL.len() {
                let workflow = WorkflowKind::ALL[index];
                tables[workflow as usize] = by_action(workflow.fault_table());
                index += 1;
            }
            tables
        };
        TABLES[self as usize][action as usize]
    }

    /// The actions at which `fault` can strike in this workflow, in the declaration's order.
    pub fn actions_for(self, fault: FaultKind) -> impl Iterator<Item = Action> {
        self.fault_table()
            .iter()
            .filter(move |(_, faults)| faults.contains(&fault))
            .map(|(action, _)| *action)
    }

    /// The code panel's listing for this design; step line ids index into it.
    pub(crate) fn listing(self, scenario: &Scenario) -> Listing {
        match self {
            WorkflowKind::Reserve => reserve::listing(scenario),
            WorkflowKind::WriteResult => write_result::listing(scenario),
            WorkflowKind::Charge => charge::listing(scenario),
            WorkflowKind::Notify => notify::listing(scenario),
            WorkflowKind::Pipeline => pipeline::listing(scenario),
            WorkflowKind::Ingest => ingest::listing(scenario),
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
            WorkflowKind::WriteResult => vec![lane("database", "Database", LaneKind::Database)],
            WorkflowKind::Charge => vec![
                lane("database", "processed_operations", LaneKind::Database),
                lane("charge", "Payment gateway", LaneKind::Sink),
            ],
            WorkflowKind::Notify => vec![
                lane("tracker", "Tracker", LaneKind::Tracker),
                lane("notification", "Notifications", LaneKind::Sink),
                lane("database", "Database", LaneKind::Database),
            ],
            WorkflowKind::Pipeline => vec![
                lane("journal", "Item results", LaneKind::Journal),
                lane("model", "Model", LaneKind::Model),
                lane("database", "Database", LaneKind::Database),
                lane("notification", "Notifications", LaneKind::Sink),
            ],
            WorkflowKind::Ingest => vec![
                lane("database", "Database", LaneKind::Database),
                lane("email", "Email", LaneKind::Sink),
                lane("progress", "Progress counter", LaneKind::Counter),
            ],
        }
    }

    /// The stages a journal row records, in the order a run reaches them; none for a workflow
    /// whose runs have no stages.
    pub fn stages(self) -> &'static [&'static str] {
        match self {
            WorkflowKind::Pipeline => pipeline::STAGES,
            WorkflowKind::Reserve
            | WorkflowKind::WriteResult
            | WorkflowKind::Charge
            | WorkflowKind::Notify
            | WorkflowKind::Ingest => &[],
        }
    }

    /// A fresh task for one run. The design decides its first step, so the first event is
    /// labelled with the action it really takes.
    pub(crate) fn start(self, start: Start, scenario: &Scenario) -> Task {
        match self {
            WorkflowKind::Reserve => Task::Reserve(reserve::Task::new(start)),
            WorkflowKind::WriteResult => {
                Task::WriteResult(write_result::Task::new(start, scenario))
            }
            WorkflowKind::Charge => Task::Charge(charge::Task::new(start, scenario)),
            WorkflowKind::Notify => Task::Notify(notify::Task::new(start, scenario)),
            WorkflowKind::Pipeline => Task::Pipeline(pipeline::Task::new(start)),
            WorkflowKind::Ingest => Task::Ingest(ingest::Task::new(start, scenario)),
        }
    }
}

/// What a new run knows. The texts are shared: an explorer copies every run in progress at
/// every branch, and a copy then only counts a reference.
#[derive(Debug)]
pub(crate) struct Start {
    pub op: Text,
    pub payload: Text,
    pub key: Text,
    pub tick: u32,
    /// The run's position in its worker's plan (1-based): a batch position.
    pub position: u32,
    /// The fingerprint of the fields above, taken once: they never change during the run, and
    /// the run is fingerprinted after each of its steps.
    fingerprint: u64,
}

crate::world::clone_by_fields!(Start {
    op,
    payload,
    key,
    tick,
    position,
    fingerprint
});

impl Start {
    pub fn new(op: Text, payload: Text, key: Text, tick: u32, position: u32) -> Start {
        let mut hasher = Fingerprint::default();
        (&*op, &*payload, &*key, tick, position).hash(&mut hasher);
        Start {
            op,
            payload,
            key,
            tick,
            position,
            fingerprint: hasher.finish(),
        }
    }
}

/// A start stands in a state's fingerprint by the fingerprint of its fields: the 64-bit state
/// key already tells states apart by a hash, and this one adds no collision of its own beyond
/// the same 2^-64 odds per pair.
impl Hash for Start {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        self.fingerprint.hash(hasher);
    }
}

/// A run in progress: one workflow's step machine, held inline (not boxed), so copying an
/// engine to branch it copies each run without allocating (its texts are shared, and
/// `clone_from` reuses the buffers of the run it overwrites).
pub(crate) enum Task {
    Reserve(reserve::Task),
    WriteResult(write_result::Task),
    Charge(charge::Task),
    Notify(notify::Task),
    Pipeline(pipeline::Task),
    Ingest(ingest::Task),
}

/// `$body` with `$flow` bound to the workflow's own task, whichever it is.
macro_rules! each_task {
    ($task:expr, $flow:ident => $body:expr) => {
        match $task {
            Task::Reserve($flow) => $body,
            Task::WriteResult($flow) => $body,
            Task::Charge($flow) => $body,
            Task::Notify($flow) => $body,
            Task::Pipeline($flow) => $body,
            Task::Ingest($flow) => $body,
        }
    };
}

impl Clone for Task {
    fn clone(&self) -> Task {
        each_task!(self, flow => flow.clone().into())
    }

    fn clone_from(&mut self, source: &Task) {
        match (self, source) {
            (Task::Reserve(into), Task::Reserve(from)) => into.clone_from(from),
            (Task::WriteResult(into), Task::WriteResult(from)) => into.clone_from(from),
            (Task::Charge(into), Task::Charge(from)) => into.clone_from(from),
            (Task::Notify(into), Task::Notify(from)) => into.clone_from(from),
            (Task::Pipeline(into), Task::Pipeline(from)) => into.clone_from(from),
            (Task::Ingest(into), Task::Ingest(from)) => into.clone_from(from),
            (into, from) => *into = from.clone(),
        }
    }
}

macro_rules! task_from {
    ($($variant:ident: $module:ident),*) => {
        $(impl From<$module::Task> for Task {
            fn from(task: $module::Task) -> Task {
                Task::$variant(task)
            }
        })*
    };
}

task_from!(Reserve: reserve, WriteResult: write_result, Charge: charge, Notify: notify, Pipeline: pipeline, Ingest: ingest);

/// The workflow's own step machine, whichever it is: the engine calls the `Flow` methods on a
/// task as on any of them.
// Inline: the engine reaches every step of a run through these, and the size-optimised wasm
// build would otherwise call out for each (a match of six arms).
impl std::ops::Deref for Task {
    type Target = dyn Flow;

    #[inline(always)]
    fn deref(&self) -> &(dyn Flow + 'static) {
        each_task!(self, flow => flow)
    }
}

impl std::ops::DerefMut for Task {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut (dyn Flow + 'static) {
        each_task!(self, flow => flow)
    }
}

/// One workflow's step machine.
pub(crate) trait Flow {
    /// What the run was started with.
    fn start(&self) -> &Start;

    /// The action the next step will take.
    fn next_action(&self) -> Action;

    /// Takes one step.
    fn step(&mut self, ctx: &mut Ctx) -> Step;

    /// Stops because the cancel flag is up: one final step that records what did not begin.
    /// A workflow whose submit may have left an unresolved outcome says so with `cancel_run`.
    fn cancel(&mut self, ctx: &mut Ctx) -> Step {
        cancel_run(ctx, &self.start().op, self.next_action(), false)
    }

    /// The operation of this run.
    fn op(&self) -> &Text {
        &self.start().op
    }

    /// Feeds everything that decides the run's future steps into `hasher`, so an explorer can
    /// recognise a state it has seen.
    fn hash_state(&self, hasher: &mut Fingerprint);
}

/// The common cancel step. The journal row (if any, and not done) becomes `cancelled` when
/// nothing was started, but `unknown` when a submit of this operation is still in flight or its
/// outcome is `unresolved`: a cancel stops new work, not a request the provider already has.
pub(crate) fn cancel_run(ctx: &mut Ctx, op: &str, next: Action, unresolved: bool) -> Step {
    use crate::world::JobStatus;
    let before = next;
    let next = next.name();
    let in_flight = ctx
        .world
        .in_flight
        .iter()
        .any(|request| request.operation == op);
    let owner = ctx.scenario.design.review_owner.as_deref().map(Text::from);
    let mut messages = Few::default();
    let mut outcome = Outcome::Cancelled { before };
    if let Some(job) = ctx.world.job_mut(op) {
        if !job.status.is_success() {
            let (status, reason, next_action) = match (in_flight, unresolved) {
                (true, _) => (
                    JobStatus::Unknown,
                    "cancelled with a submit in flight: the provider may still commit it".into(),
                    format!("look {op} up under its own key, then resume {op}; never resubmit it as new"),
                ),
                (false, true) => (
                    JobStatus::Unknown,
                    "cancelled after a submit whose outcome is unknown".into(),
                    format!("look {op} up under its own key, then resume {op}; never resubmit it as new"),
                ),
                (false, false) => (
                    JobStatus::Cancelled,
                    format!("stopped before {next}; it never began"),
                    format!("resume {op} under its own id if it is still wanted"),
                ),
            };
            if status == JobStatus::Unknown {
                outcome = Outcome::CancelledUnresolved { before };
            }
            job.status = status;
            job.reason = Some(reason.into());
            job.review = Some(Box::new(crate::world::Review {
                owner,
                next_action: next_action.into(),
            }));
            messages = ctx.call("journal", Lost::Nothing, || {
                (Label::SetStatus { status }, Some(Label::Ok))
            });
        }
    }
    Step {
        action: Some(Action::JournalUpdate),
        messages,
        outcome: Some(outcome),
        line: "cancel",
        result: Some("cancelled"),
        ..Step::default()
    }
}

/// The code line that names where a key comes from.
/// `id` is how this workflow's code names the source's own id (`operation_id`, `event.source_id`).
pub(crate) fn key_line(scenario: &Scenario, indent: &str, id: &str) -> String {
    use crate::scenario::KeySource;
    if scenario
        .workers
        .iter()
        .flat_map(|worker| &worker.runs)
        .any(|run| run.key.is_some())
    {
        return format!(
            "{indent}key = request.idempotency_key  # chosen by the caller: may be reused"
        );
    }
    let text = match scenario.design.key {
        KeySource::SourceId => &format!("key = {id}  # the source's own id"),
        KeySource::AutoIncrement => "key = next_sequence_value()  # the next number in a sequence",
        KeySource::ContentHash => "key = sha256(canonical_json(event))  # a hash of the content",
        KeySource::FreshRandom => "key = uuid4()  # a random UUID",
        KeySource::None => "key = None  # no Idempotency-Key header is sent",
    };
    format!("{indent}{text}")
}

/// The SQL of a write in this design's mode. Without UNIQUE on `key`, SQLite refuses a conflict
/// target naming it, so the upsert is written without one: it then never finds a conflict.
pub(crate) fn write_sql(scenario: &Scenario, table: &str) -> String {
    use crate::scenario::WriteMode;
    let target = if scenario.design.unique { "(key)" } else { "" };
    match scenario.design.write {
        WriteMode::Insert => format!("INSERT INTO {table} (key, value) VALUES (?, ?)"),
        WriteMode::InsertOrIgnore => format!("INSERT OR IGNORE INTO {table} (key, value) VALUES (?, ?)"),
        WriteMode::Upsert => format!(
            "INSERT INTO {table} (key, value) VALUES (?, ?) ON CONFLICT{target} DO UPDATE SET value = excluded.value"
        ),
    }
}

/// The faults the engine itself carries out when a message arrives, before any workflow code.
pub(crate) const AT_RECEIVE: &[FaultKind] = &[FaultKind::DeliverTwice, FaultKind::ChangePayload];

/// The faults the engine carries out in place of a step, whatever the step: the worker dies
/// before it, or the cancel flag is up.
pub(crate) const INSTEAD_OF_STEP: &[FaultKind] = &[FaultKind::Crash, FaultKind::Cancel];

/// What a send to a side-effect sink did, as the worker saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sent {
    /// Refused (busy) or lost on the way: nothing happened at the sink.
    NotSent(NotSent),
    /// The effect happened; `lost` when its acknowledgment never reached the worker.
    Done { lost: bool },
}

/// One send to a side-effect sink (a card charge, an email, a notification), with the three
/// faults a send meets, the same in every workflow: busy (refused, nothing sent), a lost request
/// (nothing sent; the worker times out) and a lost reply (sent; the worker times out). Fills in
/// the step's messages and use of the fault; the caller says what happened and decides what the
/// run does next. `reply` is what the sink answers when the effect happens.
pub(crate) fn send_effect(
    ctx: &mut Ctx,
    step: &mut Step,
    sink: &'static str,
    key: &Text,
    op: &Text,
    request: impl FnOnce() -> Label,
    reply: Label,
) -> Sent {
    match ctx.fault {
        Some(FaultKind::Busy) => {
            step.fault_used = true;
            step.messages = ctx.call(sink, Lost::Nothing, || (request(), Some(Label::Busy)));
            return Sent::NotSent(NotSent::Busy);
        }
        Some(FaultKind::LoseRequest) => {
            step.fault_used = true;
            step.messages = ctx.call(sink, Lost::Request, || (request(), None));
            return Sent::NotSent(NotSent::RequestLost);
        }
        _ => {}
    }
    ctx.world.push_effect(Effect {
        sink: Text::fixed(sink),
        key: key.clone(),
        operation: op.clone(),
        tick: ctx.world.tick,
    });
    let lost = ctx.fault == Some(FaultKind::LoseReply);
    step.fault_used = lost;
    let how = if lost { Lost::Reply } else { Lost::Nothing };
    step.messages = ctx.call(sink, how, || (request(), Some(reply)));
    Sent::Done { lost }
}

/// What a step may touch.
pub(crate) struct Ctx<'a> {
    pub world: &'a mut World,
    pub scenario: &'a Scenario,
    pub rng: &'a mut Rng,
    /// The stepping worker's lane id, which its messages name.
    pub lane: &'a Text,
    /// The fault striking this step, if any.
    pub fault: Option<FaultKind>,
    /// The event is recorded: its messages are kept, and the text its outcome names is copied.
    pub record: bool,
}

impl Ctx<'_> {
    /// A request from the worker to `to` and its reply (`say` gives both); either may be lost.
    /// No message at all when the event is not recorded: nobody would read it.
    pub fn call(
        &self,
        to: &'static str,
        lost: Lost,
        say: impl FnOnce() -> (Label, Option<Label>),
    ) -> Few<Message> {
        if !self.record {
            return Few::default();
        }
        let (request, reply) = say();
        let (lane, to) = (self.lane.clone(), Text::fixed(to));
        // Held in the event itself: a trace keeps one list for each event (see `few.rs`).
        let request = Message {
            from: lane.clone(),
            to: to.clone(),
            label: request,
            lost: lost == Lost::Request,
        };
        let reply = reply.map(|reply| Message {
            from: to,
            to: lane,
            label: reply,
            lost: lost == Lost::Reply,
        });
        std::iter::once(request).chain(reply).collect()
    }

    /// `text` for an outcome that names it (shared), or the empty text when the event is not
    /// recorded and the outcome will never be shown.
    pub fn text(&self, text: &Text) -> Text {
        if self.record {
            text.clone()
        } else {
            Text::default()
        }
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
    pub messages: Few<Message>,
    /// What happened; every step says it (`None` only while the step is being built).
    pub outcome: Option<Outcome>,
    /// The listing line id being executed.
    pub line: &'static str,
    pub flags: StepFlags,
    /// The run ended with this result (a fixed word: a step allocates nothing for it).
    pub result: Option<&'static str>,
    /// The worker sleeps this many ticks after the step.
    pub sleep_ticks: u32,
    /// The step used the fault it was given.
    pub fault_used: bool,
    /// A fault planned at another step that shows at this one (a redelivered message).
    pub marks: Option<FaultKind>,
}

impl Step {
    /// The run ends here with `result`, at the listing line `line`.
    pub fn finish(&mut self, result: &'static str, line: &'static str) {
        self.outcome = Some(Outcome::Returned {
            result: std::borrow::Cow::Borrowed(result),
        });
        self.line = line;
        self.result = Some(result);
    }
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

/// What a write to the results table did, as the worker saw it.
pub(crate) enum Written {
    /// The database was busy: nothing was written.
    Busy,
    /// The statement ran; `lost` when its acknowledgment never reached the worker.
    Done {
        outcome: crate::world::WriteOutcome,
        lost: bool,
    },
}

/// One write to the results table, with the two faults a write meets: busy (nothing written)
/// and a lost acknowledgment (written, but the worker cannot know). Fills in the step's
/// messages, outcome and use of the fault; the caller decides what the run does next.
pub(crate) fn write_row(
    ctx: &mut Ctx,
    step: &mut Step,
    mode: crate::scenario::WriteMode,
    key: &Text,
    value: &Text,
    op: &Text,
) -> Written {
    let request = || Label::Write { key: key.clone() };
    if ctx.fault == Some(FaultKind::Busy) {
        step.fault_used = true;
        step.messages = ctx.call("database", Lost::Nothing, || {
            (request(), Some(Label::Locked))
        });
        step.outcome = Some(Outcome::DatabaseBusy);
        return Written::Busy;
    }
    let unique = ctx.world.table.unique;
    let outcome = ctx.world.write_row(mode, key, value, op);
    let lost = ctx.fault == Some(FaultKind::LoseReply);
    step.fault_used = lost;
    let how = if lost { Lost::Reply } else { Lost::Nothing };
    step.messages = ctx.call("database", how, || {
        let write = outcome;
        (request(), Some(Label::WriteDone { write }))
    });
    step.outcome = Some(Outcome::Written {
        write: outcome,
        unique,
        lost,
    });
    Written::Done { outcome, lost }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table `faults_at` reads is the declaration, action by action.
    #[test]
    fn faults_by_action_are_the_declarations() {
        for workflow in WorkflowKind::ALL {
            for action in Action::ALL {
                let declared = workflow
                    .fault_table()
                    .iter()
                    .find(|(each, _)| *each == action)
                    .map_or(&[][..], |(_, faults)| *faults);
                assert_eq!(
                    workflow.faults_at(action),
                    declared,
                    "{workflow:?} at {action:?}"
                );
            }
        }
    }
}
