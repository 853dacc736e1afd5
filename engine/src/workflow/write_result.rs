//! Seed 000's database write: a result row keyed by record id, written with INSERT, INSERT OR
//! IGNORE or UPSERT, with or without a UNIQUE constraint, and optionally guarded by an
//! application-level "does it exist?" check, which races under concurrency.

use super::declaration::{Builder, Declaration, UNSTAGED};
use crate::block::Block as B;
use crate::code::{key_line, preamble};
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::{Scenario, WriteMode};
use crate::switch::Switch as S;

pub(super) const BLOCKS: &[B] = &[
    B::SelectExists,
    B::ReturnExists,
    B::Try,
    B::WriteInsert,
    B::WriteInsertOrIgnore,
    B::WriteUpsert,
    B::ExceptIntegrity,
    B::ReturnConflict,
    B::ExceptTimeout,
    B::ReturnUnknown,
    B::ExceptBusy,
    B::ReturnFailed,
    B::ReturnWritten,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "write_result",
    lanes: &[("database", "Database", LaneKind::Database)],
    blocks: BLOCKS,
    switches: &[S::Upsert, S::Unique, S::CheckFirst, S::StableKey],
    rows_are_effects: true,
    // One row per key is promised by any dedup mechanism at all.
    promises_unique_rows: |program, scenario| {
        scenario.switches.unique || program.has(B::SelectExists) || !program.has(B::WriteInsert)
    },
    program,
    preamble: |scenario| {
        let table = match scenario.switches.unique {
            true => "CREATE TABLE results (key TEXT UNIQUE, value TEXT)",
            false => "CREATE TABLE results (key TEXT, value TEXT)  -- no UNIQUE constraint",
        };
        let mut lines = preamble(
            scenario,
            "def save_result(conn, event, output):",
            &[key_line(scenario, "event.source_id")],
        );
        lines.insert(0, crate::code::Preamble::Text(String::new()));
        lines.insert(0, crate::code::Preamble::Text(table.into()));
        lines
    },
    ..UNSTAGED
};

fn program(scenario: &Scenario) -> Program {
    let design = &scenario.switches;
    let mut code = Builder::default();
    if design.check_first {
        code.under(B::SelectExists, B::ReturnExists);
    }
    let write = match design.write {
        WriteMode::Insert => B::WriteInsert,
        WriteMode::InsertOrIgnore => B::WriteInsertOrIgnore,
        WriteMode::Upsert => B::WriteUpsert,
    };
    code.under(B::Try, write)
        .under(B::ExceptIntegrity, B::ReturnConflict)
        .under(B::ExceptTimeout, B::ReturnUnknown)
        .under(B::ExceptBusy, B::ReturnFailed)
        .line(B::ReturnWritten);
    code.build()
}
