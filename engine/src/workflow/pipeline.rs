//! Seed 000's pipeline: each item is a model call, a downstream write and a notification. A
//! failure records the stage it happened at and keeps the output of every stage that succeeded,
//! so a retry can resume from the failed stage (zero extra model calls) and the retry batch can
//! leave out what already succeeded.

use std::collections::BTreeMap;

use super::declaration::{Builder, Declaration};
use super::notify::save;
use crate::block::Block as B;
use crate::code::preamble;
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::Scenario;
use crate::switch::Switch as S;
use crate::world::JobRow;

/// The stages, as the journal names them, in the order an item runs them.
const STAGES: &[&str] = &["model_call", "downstream_write", "notification"];

pub(super) const BLOCKS: &[B] = &[
    B::PriorGet,
    B::Try,
    B::IfPriorSuccess,
    B::ReturnSkipped,
    B::StagesToDo,
    B::IfTodoModel,
    B::CallModel,
    B::Else,
    B::ReuseOutput,
    B::IfTodoWrite,
    B::SaveInsert,
    B::SaveInsertOrIgnore,
    B::SaveUpsert,
    B::IfTodoNotify,
    B::NotifyGuarded,
    B::NotifyUnguarded,
    B::MarkSuccess,
    B::ReturnSucceeded,
    B::ExceptAll,
    B::ReturnFailed,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "pipeline",
    lanes: &[
        ("journal", "Item results", LaneKind::Journal),
        ("model", "Model", LaneKind::Model),
        ("database", "Database", LaneKind::Database),
        ("notification", "Notifications", LaneKind::Sink),
    ],
    blocks: BLOCKS,
    stages: STAGES,
    stage_blocks: &[
        &[B::CallModel],
        &[B::SaveInsert, B::SaveInsertOrIgnore, B::SaveUpsert],
        &[B::NotifyGuarded, B::NotifyUnguarded],
    ],
    switches: &[
        S::SkipSucceeded,
        S::Resume,
        S::Tracker,
        S::Upsert,
        S::Unique,
    ],
    rows_are_effects: true,
    receipt: None,
    promises_unique_rows: |_, scenario| scenario.switches.unique,
    program,
    preamble: |scenario| preamble(scenario, "async def process_item(client, record):", &[]),
};

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

/// The item: the retry batch's filter at its edge when the design skips what succeeded, and,
/// when it resumes, each stage run only if it has no kept output.
fn program(scenario: &Scenario) -> Program {
    let design = &scenario.switches;
    let write = save(design.write);
    let notify = match design.tracker {
        true => B::NotifyGuarded,
        false => B::NotifyUnguarded,
    };
    let mut code = Builder::default();
    code.line(B::PriorGet).line(B::Try);
    if design.skip_succeeded {
        code.under(B::IfPriorSuccess, B::ReturnSkipped);
    }
    if design.resume {
        code.line(B::StagesToDo)
            .under(B::IfTodoModel, B::CallModel)
            .under(B::Else, B::ReuseOutput)
            .under(B::IfTodoWrite, write)
            .under(B::IfTodoNotify, notify);
    } else {
        code.lines(&[B::CallModel, write, notify]);
    }
    code.lines(&[B::MarkSuccess, B::ReturnSucceeded])
        .close()
        .under(B::ExceptAll, B::ReturnFailed);
    code.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::JobStatus;

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
