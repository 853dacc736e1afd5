//! What a step may touch, and the shared ways a step touches it: a call and its reply, a
//! message to a side-effect sink, a write to the results table, a cancelled run. The faults a
//! call meets are carried out here, the same for every block that makes that kind of call.

use crate::fault::{Action, FaultKind};
use crate::few::Few;
use crate::invariant::StepFlags;
use crate::outcome::{Label, Message, NotSent, Outcome};
use crate::rng::Rng;
use crate::scenario::{Scenario, WriteMode};
use crate::text::Text;
use crate::world::{Effect, JobStatus, Review, World, WriteOutcome};

/// What a step may touch.
pub(crate) struct Context<'a> {
    pub world: &'a mut World,
    pub scenario: &'a Scenario,
    pub rng: &'a mut Rng,
    /// The stepping worker's lane id, which its messages name.
    pub lane: &'a Text,
    /// The fault striking this step, if any.
    pub fault: Option<FaultKind>,
    /// The event is recorded: its messages are kept, and the text its outcome names is copied.
    pub record: bool,
    /// The worker reads its cancel flag in code (`cancel_check = "in_code"`) and the flag is
    /// up: the run stops at its next `check_cancel` line.
    pub cancel_requested: bool,
}

impl Context<'_> {
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

    /// The review item for a row this run leaves to a person.
    pub fn review(&self, next_action: String) -> Box<Review> {
        Box::new(Review {
            owner: self
                .scenario
                .switches
                .review_owner
                .as_deref()
                .map(Text::from),
            next_action: next_action.into(),
        })
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
    /// The action the event records, when it is not the one the step was planned as (a cancel).
    pub action: Option<Action>,
    pub messages: Few<Message>,
    /// What happened; every step says it (`None` only while the step is being built).
    pub outcome: Option<Outcome>,
    /// The code panel's line being executed.
    pub line: Option<u16>,
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
    /// The run ends here with `result`.
    pub fn finish(&mut self, result: &'static str) {
        self.outcome = Some(Outcome::Returned {
            result: std::borrow::Cow::Borrowed(result),
        });
        self.result = Some(result);
    }
}

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
    context: &mut Context,
    step: &mut Step,
    sink: &'static str,
    key: &Text,
    op: &Text,
    request: impl FnOnce() -> Label,
    reply: Label,
) -> Sent {
    let effect = Effect {
        sink: Text::fixed(sink),
        key: key.clone(),
        operation: op.clone(),
        tick: context.world.tick,
    };
    send(context, step, sink, Some(effect), request, reply)
}

/// A send the sink recognises as a repeat of one it carried out (a key it keeps): the same
/// faults as `send_effect`, but the sink answers `reply` and nothing new happens there.
pub(crate) fn send_kept(
    context: &mut Context,
    step: &mut Step,
    sink: &'static str,
    request: impl FnOnce() -> Label,
    reply: Label,
) -> Sent {
    send(context, step, sink, None, request, reply)
}

/// A send and the faults it meets; `effect` is what happens at the sink once it arrives, if
/// anything does.
fn send(
    context: &mut Context,
    step: &mut Step,
    sink: &'static str,
    effect: Option<Effect>,
    request: impl FnOnce() -> Label,
    reply: Label,
) -> Sent {
    match context.fault {
        Some(FaultKind::Busy) => {
            step.fault_used = true;
            step.messages = context.call(sink, Lost::Nothing, || (request(), Some(Label::Busy)));
            return Sent::NotSent(NotSent::Busy);
        }
        Some(FaultKind::LoseRequest) => {
            step.fault_used = true;
            step.messages = context.call(sink, Lost::Request, || (request(), None));
            return Sent::NotSent(NotSent::RequestLost);
        }
        _ => {}
    }
    if let Some(effect) = effect {
        context.world.push_effect(effect);
    }
    let lost = context.fault == Some(FaultKind::LoseReply);
    step.fault_used = lost;
    let how = if lost { Lost::Reply } else { Lost::Nothing };
    step.messages = context.call(sink, how, || (request(), Some(reply)));
    Sent::Done { lost }
}

/// What a write to the results table did, as the worker saw it.
pub(crate) enum RowWritten {
    /// The database was busy: nothing was written.
    Busy,
    /// The statement ran; `lost` when its acknowledgment never reached the worker.
    Done { outcome: WriteOutcome, lost: bool },
}

/// A write the database refuses because its row is locked, when the step's fault is `busy`:
/// the request and the refusal, the outcome, the fault used. Whether it was.
pub(crate) fn database_busy(
    context: &mut Context,
    step: &mut Step,
    request: impl FnOnce() -> Label,
) -> bool {
    if context.fault != Some(FaultKind::Busy) {
        return false;
    }
    step.fault_used = true;
    step.messages = context.call("database", Lost::Nothing, || {
        (request(), Some(Label::Locked))
    });
    step.outcome = Some(Outcome::DatabaseBusy);
    true
}

/// One write to the results table, with the two faults a write meets: busy (nothing written)
/// and a lost acknowledgment (written, but the worker cannot know). Fills in the step's
/// messages, outcome and use of the fault; the caller decides what the run does next.
pub(crate) fn write_row(
    context: &mut Context,
    step: &mut Step,
    mode: WriteMode,
    key: &Text,
    value: &Text,
    op: &Text,
) -> RowWritten {
    let request = || Label::Write { key: key.clone() };
    if database_busy(context, step, request) {
        return RowWritten::Busy;
    }
    let unique = context.world.table.unique;
    let outcome = context.world.write_row(mode, key, value, op);
    let lost = context.fault == Some(FaultKind::LoseReply);
    step.fault_used = lost;
    let how = if lost { Lost::Reply } else { Lost::Nothing };
    step.messages = context.call("database", how, || {
        let write = outcome;
        (request(), Some(Label::WriteDone { write }))
    });
    step.outcome = Some(Outcome::RowWritten {
        write: outcome,
        unique,
        lost,
    });
    RowWritten::Done { outcome, lost }
}

/// The cancel step. The journal row (if any, and not done) becomes `cancelled` when nothing was
/// started, but `unknown` when a submit of this operation is still in flight or its outcome is
/// `unresolved`: a cancel stops new work, not a request the provider already has.
pub(crate) fn cancel_run(context: &mut Context, op: &str, next: Action, unresolved: bool) -> Step {
    let before = next;
    let next = next.name();
    let in_flight = context
        .world
        .in_flight
        .iter()
        .any(|request| request.operation == op);
    let mut messages = Few::default();
    let mut outcome = Outcome::Cancelled { before };
    let look_up =
        || format!("look {op} up under its own key, then resume {op}; never resubmit it as new");
    let (status, reason, next_action) = match (in_flight, unresolved) {
        (true, _) => (
            JobStatus::Unknown,
            "cancelled with a submit in flight: the provider may still commit it".to_string(),
            look_up(),
        ),
        (false, true) => (
            JobStatus::Unknown,
            "cancelled after a submit whose outcome is unknown".to_string(),
            look_up(),
        ),
        (false, false) => (
            JobStatus::Cancelled,
            format!("stopped before {next}; it never began"),
            format!("resume {op} under its own id if it is still wanted"),
        ),
    };
    let review = context.review(next_action);
    if let Some(job) = context.world.job_mut(op) {
        if !job.status.is_success() {
            if status == JobStatus::Unknown {
                outcome = Outcome::CancelledUnresolved { before };
            }
            job.status = status;
            job.reason = Some(reason.into());
            job.review = Some(review);
            messages = context.call("journal", Lost::Nothing, || {
                (Label::SetStatus { status }, Some(Label::Ok))
            });
        }
    }
    Step {
        action: Some(Action::JournalUpdate),
        messages,
        outcome: Some(outcome),
        result: Some("cancelled"),
        ..Step::default()
    }
}
