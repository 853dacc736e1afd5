//! Seed 000's database write: a result row keyed by record id, written with INSERT, INSERT OR
//! IGNORE or UPSERT, with or without a UNIQUE constraint, and optionally guarded by an
//! application-level "does it exist?" check, which races under concurrency.

use crate::fault::{Action, FaultKind};
use crate::say::{Label, Outcome};
use crate::scenario::{Scenario, WriteMode};
use crate::world::WriteOutcome;

use super::{
    key_line, write_row, write_sql, Ctx, Flow, Listing, Lost, Start, Step, Written, AT_RECEIVE,
    INSTEAD_OF_STEP,
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
    (Action::Return, INSTEAD_OF_STEP),
];

pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let design = &scenario.design;
    let mut code = Listing::default();
    code.text(if design.unique {
        "CREATE TABLE results (key TEXT UNIQUE, value TEXT)"
    } else {
        "CREATE TABLE results (key TEXT, value TEXT)  -- no UNIQUE constraint"
    })
    .text("")
    .named("def", "def save_result(conn, event, output):")
    .text(&key_line(scenario, "    ", "event.source_id"));
    if design.check_first {
        code.named(
            "select",
            "    if conn.execute(\"SELECT 1 FROM results WHERE key = ?\", (key,)).fetchone():",
        )
        .named(
            "exists",
            "        return \"exists\"  # someone else may insert right after this check",
        );
    }
    code.text("    try:")
        .named(
            "write",
            &format!(
                "        conn.execute(\"{}\", (key, output))",
                write_sql(scenario, "results")
            ),
        )
        .text("        conn.commit()")
        .text("    except IntegrityError:")
        .named(
            "conflict",
            "        return \"conflict\"  # the row is already there",
        )
        .text("    except Timeout:")
        .named(
            "unknown",
            "        return \"unknown\"  # committed or not? the caller cannot tell",
        )
        .text("    except DatabaseBusy:")
        .named(
            "failed",
            "        return \"failed\"  # nothing was written: safe to retry",
        )
        .named("written", "    return \"written\"");
    code
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Select,
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
        let pc = if scenario.design.check_first {
            Pc::Select
        } else {
            Pc::Write
        };
        Task { start, pc }
    }
}

/// The design promises one row per key when it has any dedup mechanism at all.
pub(crate) fn promises_unique_rows(scenario: &Scenario) -> bool {
    let design = &scenario.design;
    design.unique || design.check_first || design.write != WriteMode::Insert
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
            Pc::Select => Action::TableSelect,
            Pc::Write => Action::TableWrite,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        let key = self.start.key.clone();
        let mut step = Step::default();
        step.flags.promises_unique_rows = promises_unique_rows(ctx.scenario);
        match self.pc {
            Pc::Select => {
                let exists = ctx.world.table.contains(&key);
                let answer = if exists { Label::OneRow } else { Label::NoRow };
                step.messages = ctx.call("database", Lost::Nothing, || {
                    (Label::Select { key: key.clone() }, Some(answer))
                });
                step.outcome = Some(Outcome::Checked { exists });
                step.line = "select";
                self.pc = if exists {
                    Pc::Return("exists", "exists")
                } else {
                    Pc::Write
                };
            }
            Pc::Write => {
                step.line = "write";
                let mode = ctx.scenario.design.write;
                let (value, op) = (self.start.payload.clone(), self.start.op.clone());
                self.pc = match write_row(ctx, &mut step, mode, &key, &value, &op) {
                    Written::Busy => Pc::Return("failed", "failed"),
                    Written::Done { lost: true, .. } => Pc::Return("unknown", "unknown"),
                    Written::Done {
                        outcome: WriteOutcome::Conflict,
                        ..
                    } => Pc::Return("conflict", "conflict"),
                    Written::Done { .. } => Pc::Return("written", "written"),
                };
            }
            Pc::Return(result, line) => {
                step.finish(result, line);
            }
        }
        step
    }
}
