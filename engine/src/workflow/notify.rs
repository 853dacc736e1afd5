//! Seeds 000 and 001: a side effect the database cannot deduplicate (a notification or email),
//! guarded by the idempotency tracker (`completed_operations`: check, act, mark_done), followed by
//! the database write. The window between the effect and mark_done is the one the source says can
//! only be narrowed, never closed.

use crate::fault::{Action, FaultKind};
use crate::say::{Label, Outcome};
use crate::scenario::Scenario;
use crate::text::Text;

use super::{
    send_effect, write_row, write_sql, Ctx, Flow, Listing, Lost, Sent, Start, Step, Written,
    AT_RECEIVE, INSTEAD_OF_STEP,
};

/// Where faults can strike in this workflow.
pub(crate) const FAULTS: &[(Action, &[FaultKind])] = &[
    (Action::Receive, AT_RECEIVE),
    (Action::TrackerCheck, INSTEAD_OF_STEP),
    (Action::TrackerMark, INSTEAD_OF_STEP),
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
    (
        Action::TableWrite,
        &[
            FaultKind::LoseReply,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::Cancel,
        ],
    ),
    (Action::Return, INSTEAD_OF_STEP),
];

pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let design = &scenario.design;
    let mut code = Listing::default();
    code.named("def", "async def handle(tracker, conn, record_id, output):")
        .text("    key = f\"notify:{record_id}\"");
    if design.tracker {
        code.named("check", "    if not tracker.already_done(key):");
        if !design.mark_after {
            code.named(
                "mark",
                "        tracker.mark_done(key)  # BEFORE the effect",
            );
        }
        code.named(
            "send",
            "        await actually_send_notification(record_id)",
        );
        if design.mark_after {
            code.named(
                "mark",
                "        tracker.mark_done(key)  # after the effect definitely succeeded",
            );
        }
    } else {
        code.named(
            "send",
            "    await actually_send_notification(record_id)  # no guard",
        );
    }
    code.text("    try:")
        .named(
            "write",
            &format!(
                "        conn.execute(\"{}\", (record_id, output))",
                write_sql(scenario, "results")
            ),
        )
        .text("    except Timeout:")
        .named(
            "unknown",
            "        return \"unknown\"  # the caller will retry the whole handler",
        )
        .named("done", "    return \"done\"");
    code
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Check,
    MarkBefore,
    Send,
    MarkAfter,
    Write,
    Return(&'static str, &'static str),
}

#[derive(Clone, Hash)]
pub(crate) struct Task {
    start: Start,
    pc: Pc,
}

impl Task {
    pub fn new(start: Start, scenario: &Scenario) -> Self {
        let pc = if scenario.design.tracker {
            Pc::Check
        } else {
            Pc::Send
        };
        Task { start, pc }
    }

    fn tracker_key(&self) -> Text {
        format!("notify:{}", self.start.key).into()
    }
}

impl Flow for Task {
    fn hash_state(&self, hasher: &mut crate::fingerprint::Fingerprint) {
        std::hash::Hash::hash(self, hasher);
    }

    fn start(&self) -> &Start {
        &self.start
    }

    fn next_action(&self) -> Action {
        match self.pc {
            Pc::Check => Action::TrackerCheck,
            Pc::MarkBefore | Pc::MarkAfter => Action::TrackerMark,
            Pc::Send => Action::SinkSend,
            Pc::Write => Action::TableWrite,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        let design = ctx.scenario.design.clone();
        let key = self.tracker_key();
        let mut step = Step::default();
        step.flags.promises_unique_rows = design.unique;
        match self.pc {
            Pc::Check => {
                let done = ctx.world.tracker.contains_key(&key);
                let reply = if done { Label::Done } else { Label::NotDone };
                step.messages = ctx.call("tracker", Lost::Nothing, || {
                    (Label::AlreadyDone { key: key.clone() }, Some(reply))
                });
                step.line = "check";
                step.outcome = Some(if done {
                    Outcome::AlreadyNotified
                } else {
                    Outcome::NotDoneYet
                });
                self.pc = match (done, design.mark_after) {
                    (true, _) => Pc::Write,
                    (false, true) => Pc::Send,
                    (false, false) => Pc::MarkBefore,
                };
            }
            Pc::MarkBefore | Pc::MarkAfter => {
                ctx.world.insert_tracker(&key, &self.start.op);
                step.messages = ctx.call("tracker", Lost::Nothing, || {
                    (Label::MarkDone { key: key.clone() }, Some(Label::Ok))
                });
                step.line = "mark";
                step.outcome = Some(Outcome::Marked {
                    key: ctx.text(&key),
                });
                self.pc = if self.pc == Pc::MarkBefore {
                    Pc::Send
                } else {
                    Pc::Write
                };
            }
            Pc::Send => {
                step.line = "send";
                let op = &self.start.op;
                let sent = send_effect(
                    ctx,
                    &mut step,
                    "notification",
                    &key,
                    op,
                    || Label::Notify,
                    Label::Sent,
                );
                self.pc = match sent {
                    Sent::NotSent(_) => {
                        step.outcome = Some(Outcome::NotificationNotSent);
                        Pc::Return("unknown", "unknown")
                    }
                    Sent::Done { lost } => {
                        let sent = ctx.world.sink_effects("notification", op);
                        step.outcome = Some(Outcome::Notifying { sent });
                        match (lost, design.tracker && design.mark_after) {
                            (true, _) => Pc::Return("unknown", "unknown"),
                            (false, true) => Pc::MarkAfter,
                            (false, false) => Pc::Write,
                        }
                    }
                };
            }
            Pc::Write => {
                step.line = "write";
                let (key, value, op) = (
                    self.start.key.clone(),
                    self.start.payload.clone(),
                    self.start.op.clone(),
                );
                self.pc = match write_row(ctx, &mut step, design.write, &key, &value, &op) {
                    Written::Busy | Written::Done { lost: true, .. } => {
                        Pc::Return("unknown", "unknown")
                    }
                    // A UNIQUE conflict on a plain INSERT also means the row is there: done.
                    Written::Done { .. } => Pc::Return("done", "done"),
                };
            }
            Pc::Return(result, line) => {
                step.finish(result, line);
                if result == "done" && ctx.world.sink_effects("notification", &self.start.op) == 0 {
                    step.flags.missing_effect = Some(self.start.op.to_string());
                }
            }
        }
        step
    }
}
