//! Seed 001's ingestion: source events into a table, one email each. The dedup key comes from the
//! source's event id, an auto-increment id, a content hash, or a fresh key; record-level progress
//! lives either in a tracking table written in the same transaction as the row, or in an external
//! progress counter saved afterwards; duplicates are stopped at write time, or left for readers.

use super::declaration::{Builder, Declaration, UNSTAGED};
use super::notify::save;
use crate::block::Block as B;
use crate::code::{key_line, preamble};
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::Scenario;
use crate::switch::Switch as S;

pub(super) const BLOCKS: &[B] = &[
    B::Try,
    B::CheckTracking,
    B::IfNotCommitted,
    B::Transaction,
    B::SaveInsert,
    B::SaveInsertOrIgnore,
    B::SaveUpsert,
    B::InsertFilterOnRead,
    B::TrackingInsert,
    B::SendEmailLogged,
    B::SendEmail,
    B::SaveProgress,
    B::IfCommitted,
    B::ReturnSkipped,
    B::ReturnIngested,
    B::ExceptTimeout,
    B::ReturnUnknown,
    B::ExceptBusy,
    B::ReturnFailed,
    B::ExceptSendError,
    // Where the key comes from, as a line of the program (see `keys.rs`).
    B::KeySourceId,
    B::KeyContentHash,
    B::KeyWithReceivedAt,
    B::KeyUuid4,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "ingest",
    lanes: &[
        ("database", "Database", LaneKind::Database),
        ("email", "Email", LaneKind::Sink),
        ("progress", "Progress counter", LaneKind::Counter),
    ],
    blocks: BLOCKS,
    switches: &[
        S::SameTransaction,
        S::DedupOnWrite,
        S::Tracker,
        S::Upsert,
        S::Unique,
        S::StableKey,
    ],
    rows_are_effects: true,
    promises_unique_rows: |_, _| true,
    program,
    preamble: |scenario| {
        preamble(
            scenario,
            "def ingest(db, event, position):",
            &[key_line(scenario, "event.source_id")],
        )
    },
    ..UNSTAGED
};

/// With the dedup key in the same transaction as the row, the tracking table is read first and
/// a committed row is skipped; otherwise an external progress counter is saved after the email.
fn program(scenario: &Scenario) -> Program {
    let design = &scenario.switches;
    let write = match design.dedup_on_write {
        true => save(design.write),
        false => B::InsertFilterOnRead,
    };
    let mut code = Builder::default();
    code.line(B::Try);
    if design.same_transaction {
        code.line(B::CheckTracking)
            .line(B::IfNotCommitted)
            .line(B::Transaction)
            .lines(&[write, B::TrackingInsert])
            .close()
            .close();
    } else {
        code.under(B::Transaction, write);
    }
    code.line(match design.tracker {
        true => B::SendEmailLogged,
        false => B::SendEmail,
    });
    if design.same_transaction {
        code.under(B::IfCommitted, B::ReturnSkipped);
    } else {
        code.line(B::SaveProgress);
    }
    code.line(B::ReturnIngested)
        .close()
        .under(B::ExceptTimeout, B::ReturnUnknown)
        .under(B::ExceptBusy, B::ReturnFailed)
        .under(B::ExceptSendError, B::ReturnFailed);
    code.build()
}
