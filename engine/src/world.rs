//! The state of everything the simulation touches. A full copy is stored after every event, so a
//! player can seek to any step without replaying.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::scenario::WriteMode;

/// Everything, at one instant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct World {
    pub tick: u32,
    /// The workflow's local checkpoint, by operation id.
    pub journal: BTreeMap<String, JobRow>,
    /// The remote provider's records, in commit order.
    pub provider: Vec<ProviderRecord>,
    /// Effects the provider accepted but commits later (a timed-out request still in flight).
    pub in_flight: Vec<InFlight>,
    /// The database table of results.
    pub table: Table,
    /// `completed_operations`: keys marked done by the idempotency tracker.
    pub tracker: BTreeSet<String>,
    /// External side effects (email, notification, webhook, charge), in order.
    pub effects: Vec<Effect>,
    /// Calls that reached the model (a costly stage).
    pub model_calls: u32,
    /// The external progress counter: how many batch items are believed done.
    pub progress: u32,
    /// Calls that reached the deepest layer (retry amplification).
    pub deepest_calls: u32,
    /// The cancel flag, checked by workers between steps.
    pub cancelled: bool,
    /// What each worker is doing.
    pub workers: Vec<WorkerView>,
}

/// One row of the workflow journal (`jobs` in the source's lab).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRow {
    pub id: String,
    pub payload: String,
    pub status: JobStatus,
    pub receipt: Option<String>,
    /// Submit attempts made for this operation, across runs.
    pub attempts: u32,
    /// Preserved output of every completed stage, by stage name.
    pub stages: BTreeMap<String, String>,
    /// The stage that failed last, if any.
    pub failed_stage: Option<String>,
    /// Why the row needs a person, when `status` is `needs_review` or `failed`.
    pub reason: Option<String>,
}

/// The truthful states of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    Pending,
    Unknown,
    Verified,
    Failed,
    NeedsReview,
    Cancelled,
}

impl JobStatus {
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::Pending => "pending",
            JobStatus::Unknown => "unknown",
            JobStatus::Verified => "verified",
            JobStatus::Failed => "failed",
            JobStatus::NeedsReview => "needs_review",
            JobStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the job counts as succeeded.
    pub fn is_success(self) -> bool {
        self == JobStatus::Verified
    }
}

/// One record held by the provider: an effect that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderRecord {
    /// The idempotency key the provider saw.
    pub key: String,
    pub payload: String,
    pub receipt: String,
    pub committed_tick: u32,
    /// A fault made the provider forget this key early. (The retention window is applied from
    /// the clock: see `provider::key_alive`.)
    pub key_expired: bool,
    /// The logical operation this effect belongs to. The provider never reads it; the invariant
    /// checker does.
    pub operation: String,
}

/// An accepted request whose effect has not committed yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    pub key: String,
    pub payload: String,
    pub operation: String,
    pub commit_tick: u32,
}

/// The results table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The key column has a UNIQUE constraint.
    pub unique: bool,
    pub rows: Vec<Row>,
    /// The dedup (tracking) table written beside the rows.
    pub dedup: BTreeSet<String>,
    /// Each row is an effect of its operation (a results table), rather than bookkeeping (an
    /// idempotency table).
    pub rows_are_effects: bool,
    next_rowid: i64,
}

/// One row of the results table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub rowid: i64,
    pub key: String,
    pub value: String,
    /// The logical operation that wrote it (for the invariant checker).
    pub operation: String,
}

/// What a write did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteOutcome {
    Inserted,
    Updated,
    Ignored,
    /// The UNIQUE constraint refused the row.
    Conflict,
}

impl Table {
    /// An empty table, with or without UNIQUE on `key`.
    pub fn new(unique: bool) -> Self {
        Table {
            unique,
            rows: Vec::new(),
            dedup: BTreeSet::new(),
            rows_are_effects: true,
            next_rowid: 1,
        }
    }

    /// `SELECT 1 FROM results WHERE key = ?`
    pub fn contains(&self, key: &str) -> bool {
        self.rows.iter().any(|row| row.key == key)
    }

    /// Rows with this key.
    pub fn count(&self, key: &str) -> u32 {
        self.rows.iter().filter(|row| row.key == key).count() as u32
    }

    /// One statement, with SQLite's semantics for the three modes.
    pub fn write(
        &mut self,
        mode: WriteMode,
        key: &str,
        value: &str,
        operation: &str,
    ) -> WriteOutcome {
        let existing = self.rows.iter().position(|row| row.key == key);
        match (self.unique, existing, mode) {
            (true, Some(_), WriteMode::Insert) => WriteOutcome::Conflict,
            (true, Some(_), WriteMode::InsertOrIgnore) => WriteOutcome::Ignored,
            (true, Some(index), WriteMode::Upsert) => {
                self.rows[index].value = value.to_string();
                WriteOutcome::Updated
            }
            _ => {
                // Without UNIQUE, ON CONFLICT has nothing to detect a conflict against: every mode
                // is a plain insert.
                let rowid = self.next_rowid;
                self.next_rowid += 1;
                self.rows.push(Row {
                    rowid,
                    key: key.to_string(),
                    value: value.to_string(),
                    operation: operation.to_string(),
                });
                WriteOutcome::Inserted
            }
        }
    }
}

/// One external side effect that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// Which sink: "email", "notification", "webhook", "charge".
    pub sink: String,
    /// The key the effect was sent under.
    pub key: String,
    pub operation: String,
    pub tick: u32,
}

/// A worker as the player shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerView {
    pub name: String,
    pub state: WorkerState,
    /// The operation of the current run.
    pub op: Option<String>,
    /// The run number (1-based) within this worker's plan.
    pub run: u32,
    /// What each finished run returned, in order.
    pub results: Vec<String>,
}

/// A worker's life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkerState {
    Idle,
    Running,
    Sleeping,
    Crashed,
    Done,
}

impl World {
    /// Provider records of a logical operation.
    pub fn provider_effects(&self, operation: &str) -> u32 {
        self.provider
            .iter()
            .filter(|record| record.operation == operation)
            .count() as u32
    }

    /// External effects of a logical operation on one sink.
    pub fn sink_effects(&self, sink: &str, operation: &str) -> u32 {
        self.effects
            .iter()
            .filter(|effect| effect.sink == sink && effect.operation == operation)
            .count() as u32
    }

    /// Table rows written for a logical operation.
    pub fn table_rows(&self, operation: &str) -> u32 {
        self.table
            .rows
            .iter()
            .filter(|row| row.operation == operation)
            .count() as u32
    }
}
