//! Seed 000's pipeline: each item is a model call, a downstream write and a notification. A
//! failure records the stage it happened at and keeps the output of every stage that succeeded,
//! so a retry can resume from the failed stage (zero extra model calls) and the retry batch can
//! leave out what already succeeded.

use std::collections::BTreeMap;

use crate::fault::{Action, FaultKind};
use crate::say::{Label, Outcome, Prior};
use crate::scenario::Scenario;
use crate::text::Text;
use crate::world::{JobRow, JobStatus};

use super::{
    send_effect, write_row, write_sql, Ctx, Flow, Listing, Lost, Sent, Start, Step, Written,
    AT_RECEIVE, INSTEAD_OF_STEP,
};

/// Where faults can strike in this workflow.
pub(crate) const FAULTS: &[(Action, &[FaultKind])] = &[
    (Action::Receive, AT_RECEIVE),
    (Action::JournalGet, INSTEAD_OF_STEP),
    (
        Action::ModelCall,
        &[
            FaultKind::LoseRequest,
            FaultKind::Timeout,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::Cancel,
        ],
    ),
    (
        Action::TableWrite,
        &[
            FaultKind::LoseReply,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::Cancel,
        ],
    ),
    (
        Action::SinkSend,
        &[
            FaultKind::LoseRequest,
            FaultKind::LoseReply,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::Cancel,
        ],
    ),
    (Action::JournalUpdate, INSTEAD_OF_STEP),
    (Action::Return, INSTEAD_OF_STEP),
];

/// The stages, as the journal names them.
const MODEL: &str = "model_call";
const WRITE: &str = "downstream_write";
const NOTIFY: &str = "notification";

/// The stages in the order an item runs them.
pub(crate) const STAGES: &[&str] = &[MODEL, WRITE, NOTIFY];

/// Seed 000's `build_retry_batch`: every record except those whose previous result succeeded.
/// A record never attempted is retried; one that failed is retried; one that succeeded never is.
pub fn build_retry_batch(records: &[String], previous: &BTreeMap<String, JobRow>) -> Vec<String> {
    records
        .iter()
        .filter(|record| {
            !previous
                .get(*record)
                .is_some_and(|prior| prior.status.is_success())
        })
        .cloned()
        .collect()
}

pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let design = &scenario.design;
    let mut code = Listing::default();
    code.named("def", "async def process_item(client, record):")
        .named("get", "    prior = results.get(record.record_id)")
        .text("  try:");
    if scenario
        .faults
        .iter()
        .any(|rule| rule.fault == crate::fault::FaultKind::Cancel)
    {
        code.named(
            "cancel",
            "    # between stages: if cancel_requested(): record what is done, stop",
        );
    }
    if design.skip_succeeded {
        code.text("    if prior and prior.success:").named(
            "skip",
            "        return \"skipped\"  # already done: never re-submit",
        );
    }
    if design.resume {
        code.text("    if prior and prior.output is not None:")
            .text("        output = prior.output  # the model call already succeeded: reuse it")
            .text("    else:")
            .named("model", "        output = await client.call_model(record)");
    } else {
        code.named("model", "    output = await client.call_model(record)");
    }
    code.named(
        "write",
        &format!(
            "    db.execute(\"{}\", (record.record_id, output))",
            write_sql(scenario, "results")
        ),
    )
    .named(
        "notify",
        if design.tracker {
            "    await send_notification_idempotently(tracker, record.record_id)"
        } else {
            "    await actually_send_notification(record.record_id)"
        },
    )
    .named("done", "    results.mark_success(record.record_id, output)")
    .named("succeeded", "    return \"succeeded\"")
    .text("  except StageFailure as failure:  # recorded with its stage and the output so far")
    .named("failed", "    return \"failed\"");
    code
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Get,
    Model,
    Write,
    Notify,
    Done,
    Return(&'static str, &'static str),
}

#[derive(Hash)]
pub(crate) struct Task {
    start: Start,
    pc: Pc,
    output: Option<Text>,
    /// The record had already succeeded and is being processed again.
    resubmitting: bool,
}

impl Task {
    pub fn new(start: Start) -> Self {
        Task {
            start,
            pc: Pc::Get,
            output: None,
            resubmitting: false,
        }
    }

    /// The first stage still to do, given the first one the journal did not preserve.
    fn resume_point(&self, missing: Pc, resume: bool) -> Pc {
        if !resume || self.resubmitting {
            return Pc::Model;
        }
        missing
    }

    /// The stage failed: record it with everything preserved so far.
    fn fail(&mut self, ctx: &mut Ctx, stage: &'static str) {
        if let Some(job) = ctx.world.job_mut(&self.start.op) {
            job.status = JobStatus::Failed;
            job.failed_stage = Some(Text::fixed(stage));
            job.reason = Some(format!("failed at {stage}").into());
        }
        self.pc = Pc::Return("failed", "failed");
    }

    fn complete(&mut self, ctx: &mut Ctx, stage: &'static str, output: Text) {
        if let Some(job) = ctx.world.job_mut(&self.start.op) {
            job.stages.insert(Text::fixed(stage), output);
        }
    }

    fn get(&mut self, ctx: &mut Ctx, step: &mut Step) {
        let design = &ctx.scenario.design;
        let op = self.start.op.clone();
        let row = ctx.world.job_insert_or_ignore(JobRow {
            id: op.clone(),
            payload: self.start.payload.clone(),
            status: JobStatus::Pending,
            receipt: None,
            attempts: 0,
            stages: Default::default(),
            failed_stage: None,
            reason: None,
            review: None,
        });
        // What the step reads of the row, taken apart rather than copied whole.
        let (status, attempts) = (row.status, row.attempts);
        let failed_stage = row.failed_stage.clone();
        let model_output = row.stages.get(MODEL).cloned();
        let missing = match () {
            _ if !row.stages.contains_key(MODEL) => Pc::Model,
            _ if !row.stages.contains_key(WRITE) => Pc::Write,
            _ if !row.stages.contains_key(NOTIFY) => Pc::Notify,
            _ => Pc::Done,
        };
        // What the row says of the earlier run: the stage's name is copied only when shown.
        let prior = match (&failed_stage, status) {
            (_, JobStatus::Verified) => Prior::Success,
            (Some(stage), _) => Prior::FailedAt {
                stage: ctx.text(stage),
            },
            _ if attempts == 0 => Prior::None,
            _ => Prior::Status { status },
        };
        step.messages = ctx.call("journal", Lost::Nothing, || {
            let answer = match &prior {
                Prior::Success => Label::Success,
                Prior::FailedAt { stage } => Label::FailedAt {
                    stage: stage.clone(),
                },
                Prior::None => Label::None,
                Prior::Status { status } => Label::Status { status: *status },
            };
            (Label::Get, Some(answer))
        });
        step.line = "get";
        if status.is_success() && design.skip_succeeded {
            step.outcome = Some(Outcome::SkippedSucceeded);
            self.pc = Pc::Return("skipped", "skip");
            return;
        }
        if let Some(job) = ctx.world.job_mut(&op) {
            job.attempts += 1;
        }
        self.resubmitting = status.is_success();
        let from_model_kept = model_output.is_some();
        self.output = model_output;
        self.pc = self.resume_point(missing, design.resume);
        step.outcome = Some(match (self.resubmitting, self.pc) {
            (true, _) => Outcome::ProcessedAgain,
            (false, Pc::Model) if from_model_kept => Outcome::StartsOver,
            (false, Pc::Model) => Outcome::PriorResult {
                prior,
                from_model: true,
            },
            (false, Pc::Write) => Outcome::ResumesAtWrite,
            (false, Pc::Notify) => Outcome::ResumesAtNotification,
            _ => Outcome::PriorResult {
                prior,
                from_model: false,
            },
        });
    }

    fn model(&mut self, ctx: &mut Ctx, step: &mut Step) {
        step.line = "model";
        step.flags.resubmitted = self.resubmitting;
        if matches!(
            ctx.fault,
            Some(FaultKind::Busy | FaultKind::Timeout | FaultKind::LoseRequest)
        ) {
            step.fault_used = true;
            let lost = ctx.fault == Some(FaultKind::LoseRequest);
            let reply = match ctx.fault {
                Some(FaultKind::Busy) => Some(Label::RateLimited),
                _ => None,
            };
            let how = if lost { Lost::Request } else { Lost::Nothing };
            step.messages = ctx.call("model", how, || (Label::CallModel, reply));
            if ctx.fault == Some(FaultKind::Timeout) {
                ctx.world.count_model_call();
            }
            step.outcome = Some(Outcome::ModelFailed);
            self.fail(ctx, MODEL);
            return;
        }
        ctx.world.count_model_call();
        let output = Text::from(format!("summary-{}", self.start.op));
        step.messages = ctx.call("model", Lost::Nothing, || {
            (Label::CallModel, Some(Label::Summary))
        });
        step.outcome = Some(Outcome::ModelReturned {
            calls: ctx.world.model_calls,
        });
        self.complete(ctx, MODEL, output.clone());
        self.output = Some(output);
        self.pc = Pc::Write;
    }

    fn write(&mut self, ctx: &mut Ctx, step: &mut Step) {
        step.line = "write";
        step.flags.resubmitted = self.resubmitting;
        let key = self.start.key.clone();
        let output = self.output.clone().unwrap_or_default();
        let op = self.start.op.clone();
        match write_row(ctx, step, ctx.scenario.design.write, &key, &output, &op) {
            Written::Busy => {
                step.outcome = Some(Outcome::WriteBusyOutputKept);
                self.fail(ctx, WRITE);
            }
            Written::Done {
                outcome: write,
                lost: true,
            } => {
                let unique = ctx.world.table.unique;
                step.outcome = Some(Outcome::WriteLostFailed { write, unique });
                self.fail(ctx, WRITE);
            }
            Written::Done { .. } => {
                self.complete(ctx, WRITE, Text::fixed("done"));
                self.pc = Pc::Notify;
            }
        }
    }

    fn notify(&mut self, ctx: &mut Ctx, step: &mut Step) {
        step.line = "notify";
        let key = Text::from(format!("notify:{}", self.start.key));
        let guarded = ctx.scenario.design.tracker;
        if guarded && ctx.world.tracker.contains_key(&key) {
            step.messages = ctx.call("notification", Lost::Nothing, || {
                (Label::Notify, Some(Label::AlreadySent))
            });
            step.outcome = Some(Outcome::NotificationSkipped);
            self.complete(ctx, NOTIFY, Text::fixed("sent"));
            self.pc = Pc::Done;
            return;
        }
        let op = self.start.op.clone();
        let sent = send_effect(
            ctx,
            step,
            "notification",
            &key,
            &op,
            || Label::Notify,
            Label::Sent,
        );
        match sent {
            Sent::NotSent(_) => {
                step.outcome = Some(Outcome::NotificationFailed);
                self.fail(ctx, NOTIFY);
            }
            // The worker cannot tell it was sent: no tracker mark, and the stage fails.
            Sent::Done { lost: true } => {
                step.outcome = Some(Outcome::NotificationReplyLost);
                self.fail(ctx, NOTIFY);
            }
            Sent::Done { lost: false } => {
                if guarded {
                    ctx.world.insert_tracker(&key, &op);
                }
                let sent = ctx.world.sink_effects("notification", &op);
                step.outcome = Some(Outcome::NotificationSent { sent });
                self.complete(ctx, NOTIFY, Text::fixed("sent"));
                self.pc = Pc::Done;
            }
        }
    }

    fn done(&mut self, ctx: &mut Ctx, step: &mut Step) {
        let op = self.start.op.clone();
        if let Some(job) = ctx.world.job_mut(&op) {
            job.status = JobStatus::Verified;
            job.failed_stage = None;
            job.reason = None;
            job.review = None;
        }
        step.messages = ctx.call("journal", Lost::Nothing, || {
            (Label::MarkSuccess, Some(Label::Ok))
        });
        step.outcome = Some(Outcome::ItemSucceeded);
        step.line = "done";
        self.pc = Pc::Return("succeeded", "succeeded");
    }
}

crate::world::clone_by_fields!(Task {
    start,
    pc,
    output,
    resubmitting
});

impl Flow for Task {
    fn hash_state(&self, hasher: &mut crate::fingerprint::Fingerprint) {
        std::hash::Hash::hash(self, hasher);
    }

    fn start(&self) -> &Start {
        &self.start
    }

    fn next_action(&self) -> Action {
        match self.pc {
            Pc::Get => Action::JournalGet,
            Pc::Model => Action::ModelCall,
            Pc::Write => Action::TableWrite,
            Pc::Notify => Action::SinkSend,
            Pc::Done => Action::JournalUpdate,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        let mut step = Step::default();
        step.flags.promises_unique_rows = ctx.scenario.design.unique;
        match self.pc {
            Pc::Get => self.get(ctx, &mut step),
            Pc::Model => self.model(ctx, &mut step),
            Pc::Write => self.write(ctx, &mut step),
            Pc::Notify => self.notify(ctx, &mut step),
            Pc::Done => self.done(ctx, &mut step),
            Pc::Return(result, line) => {
                step.finish(result, line);
                let written = ctx.world.table_rows(&self.start.op) > 0;
                if matches!(result, "skipped" | "succeeded") && !written {
                    step.flags.missing_effect = Some(self.start.op.to_string());
                }
            }
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, status: JobStatus) -> JobRow {
        JobRow {
            id: id.into(),
            payload: "{}".into(),
            status,
            receipt: None,
            attempts: 1,
            stages: Default::default(),
            failed_stage: None,
            reason: None,
            review: None,
        }
    }

    /// Seed 000's `test_build_retry_batch_excludes_succeeded_records`.
    #[test]
    fn retry_batch_excludes_succeeded_records() {
        let records: Vec<String> = (0..3).map(|index| index.to_string()).collect();
        let mut previous = BTreeMap::new();
        previous.insert("0".to_string(), row("0", JobStatus::Verified));
        previous.insert("1".to_string(), row("1", JobStatus::Failed));
        let batch = build_retry_batch(&records, &previous);
        assert_eq!(batch, vec!["1".to_string(), "2".to_string()]);
    }
}
