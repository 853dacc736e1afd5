//! Seeds 000 and 001: a side effect the database cannot deduplicate (a notification or email),
//! guarded by the idempotency tracker (`completed_operations`: check, act, mark_done), followed by
//! the database write. The window between the effect and mark_done is the one the source says can
//! only be narrowed, never closed.

use super::declaration::{Builder, Declaration, UNSTAGED};
use crate::block::Block as B;
use crate::code::preamble;
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::{Scenario, WriteMode};
use crate::switch::Switch as S;

pub(super) const BLOCKS: &[B] = &[
    B::Try,
    B::IfNotDone,
    B::MarkDoneBefore,
    B::SendNotification,
    B::MarkDoneAfter,
    B::SaveInsert,
    B::SaveInsertOrIgnore,
    B::SaveUpsert,
    B::ExceptAll,
    B::ReturnUnknown,
    B::ReturnDone,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "notify",
    lanes: &[
        ("tracker", "Tracker", LaneKind::Tracker),
        ("notification", "Notifications", LaneKind::Sink),
        ("database", "Database", LaneKind::Database),
    ],
    blocks: BLOCKS,
    switches: &[S::Tracker, S::MarkAfter, S::Upsert, S::Unique],
    rows_are_effects: true,
    program,
    preamble: |scenario| {
        preamble(
            scenario,
            "async def handle(tracker, conn, record_id, output):",
            &["    key = f\"notify:{record_id}\"".into()],
        )
    },
    ..UNSTAGED
};

pub(super) fn save(mode: WriteMode) -> B {
    match mode {
        WriteMode::Insert => B::SaveInsert,
        WriteMode::InsertOrIgnore => B::SaveInsertOrIgnore,
        WriteMode::Upsert => B::SaveUpsert,
    }
}

fn program(scenario: &Scenario) -> Program {
    let design = &scenario.switches;
    let mut code = Builder::default();
    code.line(B::Try);
    if design.tracker {
        code.line(B::IfNotDone);
        if !design.mark_after {
            code.line(B::MarkDoneBefore);
        }
        code.line(B::SendNotification);
        if design.mark_after {
            code.line(B::MarkDoneAfter);
        }
        code.close();
    } else {
        code.line(B::SendNotification);
    }
    code.line(save(design.write))
        .close()
        .under(B::ExceptAll, B::ReturnUnknown)
        .line(B::ReturnDone);
    code.build()
}
