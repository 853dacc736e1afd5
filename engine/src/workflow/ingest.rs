//! Seed 001's ingestion: source events into a table, one email each. The dedup key comes from the
//! source's event id, an auto-increment id, a content hash, or a fresh key; record-level progress
//! lives either in a tracking table written in the same transaction as the row, or in an external
//! progress counter saved afterwards; duplicates are stopped at write time, or left for readers.

use crate::fault::{Action, FaultKind};
use crate::say::{Label, Outcome};
use crate::scenario::{Scenario, WriteMode};
use crate::text::Text;

use super::{
    key_line, send_effect, write_row, write_sql, Ctx, Flow, Listing, Lost, Sent, Start, Step,
    Written, AT_RECEIVE, INSTEAD_OF_STEP,
};

/// Where faults can strike in this workflow.
pub(crate) const FAULTS: &[(Action, &[FaultKind])] = &[
    (Action::Receive, AT_RECEIVE),
    (Action::TableSelect, INSTEAD_OF_STEP),
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
    (Action::ProgressSave, INSTEAD_OF_STEP),
    (Action::Return, INSTEAD_OF_STEP),
];

pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let design = &scenario.design;
    let mut code = Listing::default();
    code.named("def", "def ingest(db, event, position):")
        .text(&key_line(scenario, "    ", "event.source_id"));
    let pad = if design.same_transaction { "    " } else { "" };
    if design.same_transaction {
        code.named("check", "    committed = db.execute(\"SELECT 1 FROM tracking WHERE dedup_key = ?\", (key,)).fetchone()")
            .text("    if not committed:");
    }
    let write = if design.dedup_on_write {
        write_sql(scenario, "records")
    } else {
        "INSERT INTO records (key, value) VALUES (?, ?)  -- duplicates filtered when reading"
            .to_string()
    };
    code.text(&format!("{pad}    with db.transaction():"))
        .named(
            "write",
            &format!("{pad}        db.execute(\"{write}\", (key, event))"),
        );
    if design.same_transaction {
        code.text("            db.execute(\"INSERT INTO tracking (dedup_key) VALUES (?)\", (key,))  # same transaction");
    }
    if design.tracker {
        code.named(
            "send",
            "    if not email_log.contains(key): send_email(event); email_log.add(key)",
        );
    } else {
        code.named("send", "    send_email(event)  # no dedup log");
    }
    if !design.same_transaction {
        code.named(
            "progress",
            "    progress.save(position)  # an external counter, after the fact",
        );
    }
    if design.same_transaction {
        code.named("skipped", "    if committed: return \"skipped\"  # the row was there; the email has its own check");
    }
    code.named("ingested", "    return \"ingested\"")
        .named(
            "unknown",
            "    # on Timeout: return \"unknown\" and let the batch retry it",
        )
        .named(
            "failed",
            "    # on DatabaseBusy: return \"failed\" (rolled back, nothing written)",
        )
        .named(
            "email_failed",
            "    # on EmailError: return \"failed\" (the row stays; a retry sends the email)",
        );
    code
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Check,
    Write,
    Send,
    Progress,
    Return(&'static str, &'static str),
}

#[derive(Clone, Hash)]
pub(crate) struct Task {
    start: Start,
    pc: Pc,
    /// The tracking table showed the row committed before: only the email may still be owed.
    committed_before: bool,
}

impl Task {
    pub fn new(start: Start, scenario: &Scenario) -> Self {
        let pc = if scenario.design.same_transaction {
            Pc::Check
        } else {
            Pc::Write
        };
        Task {
            start,
            pc,
            committed_before: false,
        }
    }

    fn after_send(&self, scenario: &Scenario) -> Pc {
        match (self.committed_before, scenario.design.same_transaction) {
            (true, _) => Pc::Return("skipped", "skipped"),
            (false, true) => Pc::Return("ingested", "ingested"),
            (false, false) => Pc::Progress,
        }
    }

    fn write(&mut self, ctx: &mut Ctx, step: &mut Step) {
        let design = ctx.scenario.design.clone();
        let key = self.start.key.clone();
        let (value, op) = (self.start.payload.clone(), self.start.op.clone());
        step.line = "write";
        let mode = if design.dedup_on_write {
            design.write
        } else {
            WriteMode::Insert
        };
        let written = write_row(ctx, step, mode, &key, &value, &op);
        if let Written::Done {
            outcome: write,
            lost,
        } = written
        {
            if design.same_transaction {
                // The tracking row commits in the same transaction as the record.
                ctx.world.insert_dedup(&key);
            }
            step.outcome = Some(Outcome::Ingested {
                write,
                unique: ctx.world.table.unique,
                lost,
                dedup_committed: design.same_transaction,
                duplicate_stored: !design.dedup_on_write && ctx.world.table.count(&key) > 1,
            });
        }
        self.pc = match written {
            Written::Busy => {
                step.outcome = Some(Outcome::RolledBack);
                Pc::Return("failed", "failed")
            }
            Written::Done { lost: true, .. } => Pc::Return("unknown", "unknown"),
            Written::Done { .. } => Pc::Send,
        };
    }

    fn send(&mut self, ctx: &mut Ctx, step: &mut Step) {
        let key = self.start.key.clone();
        let log_key = Text::from(format!("email:{key}"));
        step.line = "send";
        if ctx.scenario.design.tracker && ctx.world.tracker.contains_key(&log_key) {
            step.messages = ctx.call("email", Lost::Nothing, || {
                (Label::Email, Some(Label::InEmailLog))
            });
            step.outcome = Some(Outcome::EmailSkipped);
            self.pc = self.after_send(ctx.scenario);
            return;
        }
        let op = self.start.op.clone();
        let sent = send_effect(ctx, step, "email", &key, &op, || Label::Email, Label::Sent);
        self.pc = match sent {
            Sent::NotSent(why) => {
                step.outcome = Some(Outcome::EmailNotSent { why });
                Pc::Return("failed", "email_failed")
            }
            // Sent, but the worker cannot tell: nothing goes into the email log.
            Sent::Done { lost: true } => {
                step.outcome = Some(Outcome::EmailReplyLost);
                Pc::Return("unknown", "unknown")
            }
            Sent::Done { lost: false } => {
                if ctx.scenario.design.tracker {
                    ctx.world.insert_tracker(&log_key, &op);
                }
                let sent = ctx.world.sink_effects("email", &op);
                step.outcome = Some(Outcome::EmailSent { sent });
                self.after_send(ctx.scenario)
            }
        };
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
            Pc::Check => Action::TableSelect,
            Pc::Write => Action::TableWrite,
            Pc::Send => Action::SinkSend,
            Pc::Progress => Action::ProgressSave,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        let mut step = Step::default();
        step.flags.promises_unique_rows = true;
        match self.pc {
            Pc::Check => {
                let key = self.start.key.clone();
                let seen = ctx.world.table.dedup.contains(&*key);
                let reply = if seen { Label::Found } else { Label::NotFound };
                step.messages = ctx.call("database", Lost::Nothing, || {
                    (Label::SelectTracking { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(Outcome::DedupKey {
                    key: ctx.text(&key),
                    seen,
                });
                step.line = "check";
                self.committed_before = seen;
                // A committed row does not prove its email went out: the email has its own log
                // (seed 001), so the send step still runs.
                self.pc = if seen { Pc::Send } else { Pc::Write };
            }
            Pc::Write => self.write(ctx, &mut step),
            Pc::Send => self.send(ctx, &mut step),
            Pc::Progress => {
                let position = self.start.position;
                ctx.world.set_progress(ctx.world.progress.max(position));
                step.messages = ctx.call("progress", Lost::Nothing, || {
                    (Label::Save { position }, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::Progress { position });
                step.line = "progress";
                self.pc = Pc::Return("ingested", "ingested");
            }
            Pc::Return(result, line) => {
                step.finish(result, line);
                if result == "skipped" && ctx.world.table_rows(&self.start.op) == 0 {
                    step.flags.missing_effect = Some(self.start.op.to_string());
                }
            }
        }
        step
    }
}
