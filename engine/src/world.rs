//! The state of everything the simulation touches.
//!
//! A step changes the world only through the methods below. Each keeps the lookup indexes current
//! (so a step and the invariant checker cost the same at 10 records as at 10,000) and, while the
//! engine records, logs the [`Change`] it made: a trace stores those changes per event, not a copy
//! of the world, and rebuilds any state from checkpoints (see `trace.rs`). Its texts are [`Text`]s,
//! so those copies (a logged change, a checkpoint, a rebuilt state) share them, never copy them.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::few::Few;
use crate::fingerprint::Fingerprint;
use crate::lookup::{Keyed, Lookup, SCAN_MAX};
use crate::scenario::WriteMode;
use crate::text::Text;

/// Everything, at one instant.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct World {
    pub tick: u32,
    /// The workflow's local checkpoint, by operation id.
    pub journal: Keyed<JobRow>,
    /// The remote provider's records, in commit order.
    pub provider: Vec<ProviderRecord>,
    /// Effects the provider accepted but commits later (a timed-out request still in flight).
    pub in_flight: Vec<InFlight>,
    /// The database table of results.
    pub table: Table,
    /// `completed_operations`: keys marked done by the idempotency tracker, each with the logical
    /// operation that marked it first (the checker's knowledge, never the tracker's).
    pub tracker: Keyed<Text>,
    /// External side effects (email, notification, charge), in order.
    pub effects: Vec<Effect>,
    /// Model calls, the progress counter, deepest calls, cancelled workers.
    #[serde(flatten)]
    pub counts: Counts,
    /// What each worker is doing.
    pub workers: Vec<WorkerView>,
    /// Lookups by key and by operation; derived from the fields above, never serialized.
    #[serde(skip)]
    index: Lazy<Index>,
    /// The changes made since the engine last took them, while it records.
    #[serde(skip)]
    log: Log,
    /// An order-independent hash of the records, kept current by the changes below, so an
    /// explorer fingerprints a state without reading every record.
    #[serde(skip)]
    digest: Digest,
}

/// One row of the workflow journal (`jobs` in the source's lab).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRow {
    pub id: Text,
    pub payload: Text,
    pub status: JobStatus,
    pub receipt: Option<Text>,
    /// Submit attempts made for this operation, across runs.
    pub attempts: u32,
    /// Preserved output of every completed stage, by stage name.
    pub stages: Stages,
    /// The stage that failed last, if any.
    pub failed_stage: Option<Text>,
    /// Why the row needs a person, when `status` is `needs_review`, `unknown`, `failed` or
    /// `cancelled`.
    pub reason: Option<Text>,
    /// The review item, when the row needs a person: who owns it and what they may do next.
    /// Boxed: few rows have one, and inline it would size every row a trace logs.
    pub review: Option<Box<Review>>,
}

/// A journal row's stage outputs, by stage name: an ordered map of a few entries (a workflow has
/// at most three stages) that reads, compares, hashes and serializes as a `BTreeMap` does.
///
/// Every change to a row logs a copy of it, so a trace holds many copies, and a row's stages
/// change far less often than its status or attempts: the entries sit in one shared slice, so a
/// copy of the row counts a reference where it copied a vector (an allocation per logged row),
/// and an insert makes a new slice. No slice at all while empty.
#[derive(Clone, Default, Eq)]
pub struct Stages(Option<Rc<[(Text, Text)]>>);

/// By their entries (two copies of one slice without reading them).
impl PartialEq for Stages {
    fn eq(&self, other: &Stages) -> bool {
        match (&self.0, &other.0) {
            (Some(mine), Some(theirs)) if Rc::ptr_eq(mine, theirs) => true,
            _ => self.entries() == other.entries(),
        }
    }
}

impl Stages {
    fn entries(&self) -> &[(Text, Text)] {
        self.0.as_deref().unwrap_or_default()
    }

    fn find(&self, stage: &str) -> Result<usize, usize> {
        self.entries()
            .binary_search_by(|(known, _)| known.as_str().cmp(stage))
    }

    pub fn get(&self, stage: &str) -> Option<&Text> {
        self.find(stage).ok().map(|at| &self.entries()[at].1)
    }

    pub fn contains_key(&self, stage: &str) -> bool {
        self.find(stage).is_ok()
    }

    /// Sets `stage`'s output; the output it replaces, if any. Makes a new slice (one
    /// allocation, of its exact length): copies of the row keep the old one.
    pub fn insert(&mut self, stage: Text, output: Text) -> Option<Text> {
        let entries = self.entries();
        let (at, replaced) = match self.find(&stage) {
            Ok(at) => (at, Some(entries[at].1.clone())),
            Err(at) => (at, None),
        };
        let after = at + usize::from(replaced.is_some());
        let new: Rc<[(Text, Text)]> = entries[..at]
            .iter()
            .cloned()
            .chain(std::iter::once((stage, output)))
            .chain(entries[after..].iter().cloned())
            .collect();
        self.0 = Some(new);
        replaced
    }

    pub fn len(&self) -> usize {
        self.entries().len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// The entries, in stage name order.
    pub fn iter(&self) -> impl Iterator<Item = (&Text, &Text)> + '_ {
        self.entries().iter().map(|(stage, output)| (stage, output))
    }

    pub fn keys(&self) -> impl Iterator<Item = &Text> + '_ {
        self.entries().iter().map(|(stage, _)| stage)
    }

    pub fn values(&self) -> impl Iterator<Item = &Text> + '_ {
        self.entries().iter().map(|(_, output)| output)
    }
}

impl FromIterator<(Text, Text)> for Stages {
    fn from_iter<I: IntoIterator<Item = (Text, Text)>>(entries: I) -> Self {
        let mut stages = Stages::default();
        for (stage, output) in entries {
            stages.insert(stage, output);
        }
        stages
    }
}

/// As a `BTreeMap`'s: the length, then each entry in order (so a state's fingerprint is the same).
impl std::hash::Hash for Stages {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        hasher.write_usize(self.len());
        for (stage, output) in self.iter() {
            (stage, output).hash(hasher);
        }
    }
}

impl std::fmt::Debug for Stages {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Stages {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Stages {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Stages, D::Error> {
        BTreeMap::<Text, Text>::deserialize(deserializer).map(|map| map.into_iter().collect())
    }
}

/// What a person needs to take over an operation the workflow could not settle: the row's
/// `reason` says why; this says who and what next.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Review {
    /// Who owns the item (`design.review_owner`); `None`: nobody does.
    pub owner: Option<Text>,
    /// The next permitted recovery action.
    pub next_action: Text,
}

/// The truthful states of a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    Pending,
    Verified,
    Failed,
    NeedsReview,
    /// Stopped with a submit whose outcome nobody knows (cancelled while it was in flight, or
    /// after it timed out): the provider may still commit it, so only a lookup settles it.
    Unknown,
    Cancelled,
}

impl JobStatus {
    pub fn name(self) -> &'static str {
        match self {
            JobStatus::Pending => "pending",
            JobStatus::Verified => "verified",
            JobStatus::Failed => "failed",
            JobStatus::NeedsReview => "needs_review",
            JobStatus::Unknown => "unknown",
            JobStatus::Cancelled => "cancelled",
        }
    }

    /// Whether the job counts as succeeded.
    pub fn is_success(self) -> bool {
        self == JobStatus::Verified
    }
}

/// One record held by the provider: an effect that happened.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderRecord {
    /// The idempotency key the provider saw.
    pub key: Text,
    pub payload: Text,
    pub receipt: Text,
    pub committed_tick: u32,
    /// A fault made the provider forget this key early. (The retention window is applied from
    /// the clock: see `provider::key_alive`.)
    pub key_expired: bool,
    /// The logical operation this effect belongs to. The provider never reads it; the invariant
    /// checker does.
    pub operation: Text,
}

/// An accepted request whose effect has not committed yet.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InFlight {
    pub key: Text,
    pub payload: Text,
    pub operation: Text,
    pub commit_tick: u32,
}

/// The results table.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The key column has a UNIQUE constraint.
    pub unique: bool,
    pub rows: Vec<Row>,
    /// The dedup (tracking) table written beside the rows.
    pub dedup: BTreeSet<Text>,
    /// Each row is an effect of its operation (a results table), rather than bookkeeping (an
    /// idempotency table).
    pub rows_are_effects: bool,
    /// The rowid the next insert takes.
    pub(crate) next_rowid: i64,
    /// Rowids by key and by operation; derived, never serialized.
    #[serde(skip)]
    index: Lazy<RowIndex>,
}

/// One row of the results table.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub rowid: i64,
    pub key: Text,
    pub value: Text,
    /// The logical operation that wrote it (for the invariant checker).
    pub operation: Text,
}

/// What a write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
            index: Lazy::default(),
        }
    }

    /// An empty table with this one's settings and rowid sequence.
    pub(crate) fn settings(&self) -> Table {
        Table {
            next_rowid: self.next_rowid,
            rows_are_effects: self.rows_are_effects,
            ..Table::new(self.unique)
        }
    }

    /// `SELECT 1 FROM results WHERE key = ?`
    pub fn contains(&self, key: &str) -> bool {
        self.first_keyed(key).is_some()
    }

    /// Rows with this key.
    pub fn count(&self, key: &str) -> u32 {
        self.rowids_keyed(key).count() as u32
    }

    /// The rows written for a logical operation.
    pub fn rows_of<'a>(&'a self, operation: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        let scan = self
            .rows
            .iter()
            .filter(move |row| row.operation == operation);
        let small = self.rows.len() <= SCAN_MAX;
        let indexed = || self.index().by_operation.get(operation);
        found(small, scan.map(|row| row.rowid), indexed)
            .map(|rowid| self.row(rowid))
            .filter(move |row| row.operation == operation)
    }

    /// The rows with this key, oldest first (through the index on a large table).
    pub(crate) fn rows_keyed<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rowids_keyed(key).map(|rowid| self.row(rowid))
    }

    /// The rowids of the rows with this key, oldest first.
    fn rowids_keyed<'a>(&'a self, key: &'a str) -> impl Iterator<Item = i64> + 'a {
        let scan = self.rows.iter().filter(move |row| row.key == key);
        let small = self.rows.len() <= SCAN_MAX;
        let indexed = || self.index().by_key.get(key);
        found(small, scan.map(|row| row.rowid), indexed)
            .filter(move |&rowid| small || self.row(rowid).key == key)
    }

    /// The oldest row with this key.
    fn first_keyed(&self, key: &str) -> Option<i64> {
        self.rowids_keyed(key).next()
    }

    /// The row with this rowid (rows are kept in rowid order).
    fn position(&self, rowid: i64) -> usize {
        // Rowids are handed out in order and rows are seldom deleted, so a row usually sits at
        // its rowid's distance from the first: one read, where a search would touch a dozen
        // rows spread over a large table.
        let guess = self
            .rows
            .first()
            .and_then(|first| usize::try_from(rowid - first.rowid).ok());
        if let Some(guess) =
            guess.filter(|&at| self.rows.get(at).is_some_and(|row| row.rowid == rowid))
        {
            return guess;
        }
        self.rows
            .binary_search_by_key(&rowid, |row| row.rowid)
            .expect("an indexed rowid is in the table")
    }

    fn row(&self, rowid: i64) -> &Row {
        &self.rows[self.position(rowid)]
    }

    /// One statement, with SQLite's semantics for the three modes. A step writes through
    /// `World::write_row`, which logs the change; a table on its own (as the SQLite differential
    /// test uses it) writes here.
    pub fn write(
        &mut self,
        mode: WriteMode,
        key: &str,
        value: &str,
        operation: &str,
    ) -> WriteOutcome {
        self.write_text(Statement {
            mode,
            key: &key.into(),
            value: &value.into(),
            operation: &operation.into(),
        })
    }

    /// `write`, sharing the texts a new row keeps.
    fn write_text(&mut self, statement: Statement) -> WriteOutcome {
        let Statement {
            mode,
            key,
            value,
            operation,
        } = statement;
        let existing = self.first_keyed(key);
        match (self.unique, existing, mode) {
            (true, Some(_), WriteMode::Insert) => WriteOutcome::Conflict,
            (true, Some(_), WriteMode::InsertOrIgnore) => WriteOutcome::Ignored,
            (true, Some(rowid), WriteMode::Upsert) => {
                let position = self.position(rowid);
                self.rows[position].value = value.clone();
                WriteOutcome::Updated
            }
            _ => {
                // Without UNIQUE, ON CONFLICT has nothing to detect a conflict against: every mode
                // is a plain insert.
                let rowid = self.next_rowid;
                self.push(Row {
                    rowid,
                    key: key.clone(),
                    value: value.clone(),
                    operation: operation.clone(),
                });
                WriteOutcome::Inserted
            }
        }
    }

    fn push(&mut self, row: Row) {
        self.next_rowid = self.next_rowid.max(row.rowid + 1);
        if let Some(index) = self.index.0.get_mut() {
            index.push(&row);
        }
        self.rows.push(row);
    }

    /// `DELETE FROM results WHERE rowid = ?`
    fn delete(&mut self, rowid: i64) {
        let row = self.rows.remove(self.position(rowid));
        if let Some(index) = self.index.0.get_mut() {
            index.by_key.remove(&row.key, rowid);
            index.by_operation.remove(&row.operation, rowid);
        }
    }

    /// The rows' index, built on first use (and only past `SCAN_MAX` rows): a copy of a table
    /// starts without one, so copying costs only the rows.
    fn index(&self) -> &RowIndex {
        self.index.0.get_or_init(|| {
            let mut index = RowIndex::default();
            for row in &self.rows {
                index.push(row);
            }
            index
        })
    }
}

/// Rowids by key and by operation.
#[derive(Debug, Default)]
struct RowIndex {
    by_key: Lookup<i64>,
    by_operation: Lookup<i64>,
}

impl RowIndex {
    fn push(&mut self, row: &Row) {
        self.by_key.push(&row.key, row.rowid);
        self.by_operation.push(&row.operation, row.rowid);
    }
}

/// One external side effect that happened.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// Which sink: "email", "notification", "charge".
    pub sink: Text,
    /// The key the effect was sent under.
    pub key: Text,
    pub operation: Text,
    pub tick: u32,
}

/// A worker as the player shows it.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerView {
    pub name: Text,
    pub state: WorkerState,
    /// The operation of the current run.
    pub op: Option<Text>,
    /// The run number (1-based) within this worker's plan.
    pub run: u32,
    /// What each finished run returned, in order.
    pub results: Vec<Text>,
}

impl WorkerView {
    /// A `Change::Worker`: its state, operation and run, as a world and its snapshot apply it.
    pub(crate) fn apply(&mut self, change: &Change) {
        if let Change::Worker { state, op, run, .. } = change {
            self.state = *state;
            self.op.clone_from(op);
            self.run = *run;
        }
    }
}

/// What a world counts beside its records (kept whole by its snapshots). Written flat into a
/// world's JSON, as the fields of the world itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Calls that reached the model (a costly stage).
    pub model_calls: u32,
    /// The external progress counter: how many batch items are believed done.
    pub progress: u32,
    /// Calls that reached the deepest layer (retry amplification).
    pub deepest_calls: u32,
    /// The workers whose cancel flag is up (by position). Each worker checks its own flag between
    /// steps: cancelling one job stops that job, not a person's later recovery of it.
    pub cancelled: BTreeSet<u32>,
    /// By worker lane, its requests and retries, kept only under a retry budget
    /// (`retry_ratio_permille`): what the budget is checked against.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub retry_ledger: BTreeMap<Text, RetryLedger>,
}

/// A client's submits under a retry budget: its requests (each run's first submit) and its
/// retries (every later submit of a run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryLedger {
    pub requests: u32,
    pub retries: u32,
}

impl Counts {
    /// A change to one of the counts; any other change leaves them alone.
    pub(crate) fn apply(&mut self, change: &Change) {
        match change {
            Change::ModelCalls { value } => self.model_calls = *value,
            Change::Progress { value } => self.progress = *value,
            Change::DeepestCalls { value } => self.deepest_calls = *value,
            Change::Cancelled { worker } => {
                self.cancelled.insert(*worker);
            }
            Change::RetryLedger { lane, ledger } => {
                self.retry_ledger.insert(lane.clone(), *ledger);
            }
            _ => {}
        }
    }
}

/// One statement against the results table: how it writes, and the row's texts.
#[derive(Clone, Copy)]
struct Statement<'a> {
    mode: WriteMode,
    key: &'a Text,
    value: &'a Text,
    operation: &'a Text,
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

/// One change a step made to the world: what a trace stores per event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum Change {
    /// A journal row was written: its whole new value.
    Job {
        /// Behind a pointer: a whole row is the largest change, and inline it would size every
        /// change. Counted, so the trace's checkpoints hold this very row (its JSON is the row's).
        #[serde(with = "shared_row")]
        row: Rc<JobRow>,
    },
    /// The provider committed a record.
    Provider {
        record: ProviderRecord,
    },
    /// The provider forgot the keys of these records early (by position in `provider`).
    KeyExpired {
        records: Vec<u32>,
    },
    /// A request went in flight.
    InFlight {
        request: InFlight,
    },
    /// The in-flight request at this position committed and left the list.
    Landed {
        position: u32,
    },
    /// A row was inserted into the results table.
    Row {
        row: Row,
    },
    /// The row with this rowid was deleted.
    RowDeleted {
        rowid: i64,
    },
    /// The row with this rowid got a new value (an upsert).
    RowValue {
        rowid: i64,
        value: Text,
    },
    /// A key was written to the dedup table.
    Dedup {
        key: Text,
    },
    /// A key was marked done in the tracker by a run of `operation`.
    Tracker {
        key: Text,
        operation: Text,
    },
    /// An external side effect happened.
    Effect {
        effect: Effect,
    },
    /// A counter took a new value.
    ModelCalls {
        value: u32,
    },
    Progress {
        value: u32,
    },
    DeepestCalls {
        value: u32,
    },
    /// The cancel flag of the worker at this position went up.
    Cancelled {
        worker: u32,
    },
    /// A worker's requests and retries under a retry budget.
    RetryLedger {
        lane: Text,
        ledger: RetryLedger,
    },
    /// A worker's state, operation or run number changed.
    Worker {
        worker: u32,
        state: WorkerState,
        op: Option<Text>,
        run: u32,
    },
    /// A worker's run returned.
    Result {
        worker: u32,
        result: Text,
    },
}

impl World {
    /// An empty world with these workers and this table.
    pub(crate) fn new(table: Table, workers: Vec<WorkerView>) -> World {
        World {
            table,
            workers,
            ..World::default()
        }
    }

    /// Keeps a running digest of the records from now on (for the explorer, which fingerprints
    /// every state it reaches): each change method then updates it in O(1). A plain run keeps
    /// none, and pays nothing for it.
    pub(crate) fn keep_digest(&mut self) {
        let jobs: Vec<u64> = self
            .journal
            .iter_unordered()
            .map(|(_, row)| job_hash(row))
            .collect();
        let sum = jobs.iter().fold(self.digest_beside_jobs(), |sum, &hash| {
            sum.wrapping_add(hash)
        });
        self.digest = Digest {
            sum: Some(sum),
            jobs,
            dirty_jobs: Vec::new(),
        };
    }

    /// The sum of the records' hashes: equal for equal records, whatever order they were
    /// written in (each record's hash names its place: position, rowid or key).
    pub(crate) fn digest(&self) -> u64 {
        let Some(sum) = self.digest.sum else {
            return self.digest_from_scratch();
        };
        let pending = self
            .digest
            .dirty_jobs
            .iter()
            .map(|&position| job_hash(self.journal.value_at(position as usize)));
        let digest = pending.fold(sum, u64::wrapping_add);
        // Checked on a sample of states, so a test run still checks thousands of them.
        debug_assert!(
            self.tick % 8 != 0 || digest == self.digest_from_scratch(),
            "the world's digest missed a change"
        );
        digest
    }

    /// The running digest as the last step left it, if one is kept (read between steps, when
    /// every change is settled).
    pub(crate) fn settled_digest(&self) -> Option<u64> {
        self.digest.sum
    }

    fn digest_from_scratch(&self) -> u64 {
        let jobs = self.journal.iter_unordered().map(|(_, row)| job_hash(row));
        jobs.fold(self.digest_beside_jobs(), u64::wrapping_add)
    }

    /// The digest of every record but the journal's rows.
    fn digest_beside_jobs(&self) -> u64 {
        let provider = self
            .provider
            .iter()
            .enumerate()
            .map(|(position, record)| provider_hash(position, record));
        let effects = self
            .effects
            .iter()
            .enumerate()
            .map(|(position, effect)| effect_hash(position, effect));
        let rows = self.table.rows.iter().map(row_hash);
        let dedup = self.table.dedup.iter().map(|key| dedup_hash(key));
        let tracker = self
            .tracker
            .iter_unordered()
            .map(|(key, operation)| tracker_hash(key, operation));
        provider
            .chain(effects)
            .chain(rows)
            .chain(dedup)
            .chain(tracker)
            .fold(0, u64::wrapping_add)
    }

    /// Folds the journal rows changed in place into the digest (the engine calls it after a
    /// step; until then `digest` counts them as they are).
    pub(crate) fn settle_digest(&mut self) {
        let Some(sum) = self.digest.sum else {
            return;
        };
        let mut sum = sum;
        let digest = &mut self.digest;
        for position in digest.dirty_jobs.drain(..) {
            let row = self.journal.value_at(position as usize);
            let hash = job_hash(row);
            digest.jobs[position as usize] = hash;
            sum = sum.wrapping_add(hash);
        }
        digest.sum = Some(sum);
    }

    fn digest_add(&mut self, hash: u64) {
        if let Some(sum) = &mut self.digest.sum {
            *sum = sum.wrapping_add(hash);
        }
    }

    fn digest_remove(&mut self, hash: u64) {
        if let Some(sum) = &mut self.digest.sum {
            *sum = sum.wrapping_sub(hash);
        }
    }

    /// Provider records of a logical operation.
    pub fn provider_effects(&self, operation: &str) -> u32 {
        self.provider_records_of(operation).count() as u32
    }

    /// The provider's records of a logical operation, in commit order.
    pub fn provider_records_of<'a>(
        &'a self,
        operation: &'a str,
    ) -> impl Iterator<Item = &'a ProviderRecord> + 'a {
        self.provider_positions(
            move |record| record.operation == operation,
            || self.index().provider_by_operation.get(operation),
        )
        .map(|position| &self.provider[position as usize])
    }

    /// The provider's records under a key, in commit order.
    pub fn provider_records_keyed<'a>(
        &'a self,
        key: &'a str,
    ) -> impl Iterator<Item = &'a ProviderRecord> + 'a {
        self.provider_keyed(key)
            .map(|position| &self.provider[position as usize])
    }

    /// The positions of the provider's records under a key, in commit order.
    fn provider_keyed<'a>(&'a self, key: &'a str) -> impl Iterator<Item = u32> + 'a {
        self.provider_positions(
            move |record| record.key == key,
            || self.index().provider_by_key.get(key),
        )
    }

    /// The positions of the provider's records that `wanted` picks: by a scan while there are
    /// few, else from the index `indexed` reads.
    fn provider_positions<'a>(
        &'a self,
        wanted: impl Fn(&ProviderRecord) -> bool + Copy + 'a,
        indexed: impl FnOnce() -> &'a [u32],
    ) -> impl Iterator<Item = u32> + 'a {
        let scan = self.provider.iter().enumerate();
        let scan = scan.filter(move |(_, record)| wanted(record));
        let small = self.provider.len() <= SCAN_MAX;
        found(small, scan.map(|(position, _)| position as u32), indexed)
            .filter(move |&position| small || wanted(&self.provider[position as usize]))
    }

    /// External effects of a logical operation, in order.
    pub fn effects_of<'a>(&'a self, operation: &'a str) -> impl Iterator<Item = &'a Effect> + 'a {
        let scan = self.effects.iter().enumerate();
        let scan = scan.filter(move |(_, effect)| effect.operation == operation);
        let small = self.effects.len() <= SCAN_MAX;
        let indexed = || self.index().effects_by_operation.get(operation);
        found(small, scan.map(|(position, _)| position as u32), indexed)
            .map(|position| &self.effects[position as usize])
            .filter(move |effect| effect.operation == operation)
    }

    /// External effects of a logical operation on one sink.
    pub fn sink_effects(&self, sink: &str, operation: &str) -> u32 {
        self.effects_of(operation)
            .filter(|effect| effect.sink == sink)
            .count() as u32
    }

    /// Table rows written for a logical operation.
    pub fn table_rows(&self, operation: &str) -> u32 {
        self.table.rows_of(operation).count() as u32
    }

    /// Whether a receipt was already issued.
    pub(crate) fn receipt_taken(&self, receipt: &str) -> bool {
        if self.provider.len() <= SCAN_MAX {
            return self.provider.iter().any(|record| record.receipt == receipt);
        }
        self.index().receipts.contains_key(receipt)
    }

    /// Receipts issued that start with `prefix`.
    pub(crate) fn receipts_starting(&self, prefix: &str) -> u32 {
        if self.provider.len() <= SCAN_MAX {
            let issued = |position: usize| &self.provider[position].receipt;
            // Each receipt once, as the index's set counts it.
            return (0..self.provider.len())
                .filter(|&position| issued(position).starts_with(prefix))
                .filter(|&position| (0..position).all(|before| issued(before) != issued(position)))
                .count() as u32;
        }
        let index = self.index();
        if prefix.ends_with('-') {
            return index.receipt_prefixes.get(prefix).copied().unwrap_or(0);
        }
        let receipts = index.receipts.iter_unordered();
        receipts
            .filter(|(receipt, ())| receipt.starts_with(prefix))
            .count() as u32
    }

    /// How many items the world holds: the cost of copying it.
    pub fn size(&self) -> u32 {
        let results: usize = self.workers.iter().map(|worker| worker.results.len()).sum();
        (self.journal.len()
            + self.provider.len()
            + self.in_flight.len()
            + self.table.rows.len()
            + self.table.dedup.len()
            + self.tracker.len()
            + self.effects.len()
            + self.workers.len()
            + results) as u32
    }

    // Changes. Each keeps the indexes current and logs what it did.

    /// The journal row of `operation`, to change it in place.
    pub(crate) fn job_mut(&mut self, operation: &str) -> Option<&mut JobRow> {
        // One search of the journal: the fields are borrowed apart.
        let (position, id, job) = self.journal.entry_mut_at(operation)?;
        let digest = &mut self.digest;
        if let Some(sum) = &mut digest.sum {
            let position = position as u32;
            if !digest.dirty_jobs.contains(&position) {
                // The row leaves the digest now, by the hash it joined with (no need to hash
                // it again), and comes back, as changed, when the step settles.
                *sum = sum.wrapping_sub(digest.jobs[position as usize]);
                digest.dirty_jobs.push(position);
            }
        }
        if let Some(log) = &mut self.log.0 {
            log.touch(id);
        }
        Some(job)
    }

    /// `INSERT OR IGNORE` into the journal; the row as it is after.
    pub(crate) fn job_insert_or_ignore(&mut self, row: JobRow) -> &JobRow {
        // One search of the journal: the fields are borrowed apart.
        let (row, new) = self.journal.insert_if_absent(row.id.clone(), row);
        if new {
            if let Some(log) = &mut self.log.0 {
                log.touch(&row.id);
            }
            if let Some(sum) = &mut self.digest.sum {
                let hash = job_hash(&*row);
                *sum = sum.wrapping_add(hash);
                // A new row goes at the end of the journal: its hash at the end of `jobs`.
                self.digest.jobs.push(hash);
            }
        }
        row
    }

    /// The provider commits a record.
    pub(crate) fn push_provider(&mut self, record: ProviderRecord) {
        self.record(|| Change::Provider {
            record: record.clone(),
        });
        let position = self.provider.len() as u32;
        if let Some(index) = self.index.0.get_mut() {
            index.push_provider(&record, position);
        }
        self.digest_add(provider_hash(position as usize, &record));
        self.provider.push(record);
    }

    /// The provider forgets `key` early (a fault).
    pub(crate) fn expire_key(&mut self, key: &str) {
        let records: Vec<u32> = self.provider_keyed(key).collect();
        if records.is_empty() {
            return;
        }
        for &position in &records {
            let position = position as usize;
            self.digest_remove(provider_hash(position, &self.provider[position]));
            self.provider[position].key_expired = true;
            self.digest_add(provider_hash(position, &self.provider[position]));
        }
        self.record(|| Change::KeyExpired { records });
    }

    /// A request goes in flight, to commit at its `commit_tick`.
    pub(crate) fn push_in_flight(&mut self, request: InFlight) {
        self.record(|| Change::InFlight {
            request: request.clone(),
        });
        self.in_flight.push(request);
    }

    /// The in-flight request at `position` commits: it leaves the list.
    pub(crate) fn land(&mut self, position: u32) -> InFlight {
        self.record(|| Change::Landed { position });
        self.in_flight.remove(position as usize)
    }

    /// One statement against the results table.
    pub(crate) fn write_row(
        &mut self,
        mode: WriteMode,
        key: &Text,
        value: &Text,
        operation: &Text,
    ) -> WriteOutcome {
        let before = self
            .table
            .first_keyed(key)
            .map(|rowid| row_hash(self.table.row(rowid)));
        let outcome = self.table.write_text(Statement {
            mode,
            key,
            value,
            operation,
        });
        match outcome {
            WriteOutcome::Inserted => {
                let row = self.table.rows.last().expect("a row was inserted");
                self.digest_add(row_hash(row));
            }
            WriteOutcome::Updated => {
                self.digest_remove(before.expect("an updated row existed"));
                let row = self
                    .table
                    .row(self.table.first_keyed(key).expect("updated"));
                self.digest_add(row_hash(row));
            }
            WriteOutcome::Ignored | WriteOutcome::Conflict => {}
        }
        if self.log.0.is_some() {
            let change = match outcome {
                WriteOutcome::Inserted => Some(Change::Row {
                    row: self.table.rows.last().expect("a row was inserted").clone(),
                }),
                WriteOutcome::Updated => {
                    let row = self
                        .table
                        .row(self.table.first_keyed(key).expect("updated"));
                    Some(Change::RowValue {
                        rowid: row.rowid,
                        value: row.value.clone(),
                    })
                }
                WriteOutcome::Ignored | WriteOutcome::Conflict => None,
            };
            if let Some(change) = change {
                self.record(|| change);
            }
        }
        outcome
    }

    /// `DELETE FROM results WHERE key = ? AND value = ?`: how many rows went.
    pub(crate) fn delete_rows(&mut self, key: &str, value: &str) -> u32 {
        let doomed: Vec<i64> = self
            .table
            .rowids_keyed(key)
            .filter(|&rowid| self.table.row(rowid).value == value)
            .collect();
        for &rowid in &doomed {
            self.digest_remove(row_hash(self.table.row(rowid)));
            self.table.delete(rowid);
            self.record(|| Change::RowDeleted { rowid });
        }
        doomed.len() as u32
    }

    /// A key goes into the dedup table; false when it was there.
    pub(crate) fn insert_dedup(&mut self, key: &Text) -> bool {
        let new = self.table.dedup.insert(key.clone());
        if new {
            self.digest_add(dedup_hash(key));
            self.record(|| Change::Dedup { key: key.clone() });
        }
        new
    }

    /// A run of `operation` marks a key done in the tracker; false when it was (the key keeps the
    /// operation that marked it first).
    pub(crate) fn insert_tracker(&mut self, key: &Text, operation: &Text) -> bool {
        if !self
            .tracker
            .insert_if_absent(key.clone(), operation.clone())
            .1
        {
            return false;
        }
        self.digest_add(tracker_hash(key, operation));
        self.record(|| Change::Tracker {
            key: key.clone(),
            operation: operation.clone(),
        });
        true
    }

    /// An external side effect happens.
    pub(crate) fn push_effect(&mut self, effect: Effect) {
        self.record(|| Change::Effect {
            effect: effect.clone(),
        });
        let position = self.effects.len() as u32;
        if let Some(index) = self.index.0.get_mut() {
            index.effects_by_operation.push(&effect.operation, position);
        }
        self.digest_add(effect_hash(position as usize, &effect));
        self.effects.push(effect);
    }

    /// A call reaches the model.
    pub(crate) fn count_model_call(&mut self) {
        self.counts.model_calls += 1;
        let value = self.counts.model_calls;
        self.record(|| Change::ModelCalls { value });
    }

    /// A call reaches the deepest layer.
    pub(crate) fn count_deepest_call(&mut self) {
        self.counts.deepest_calls += 1;
        let value = self.counts.deepest_calls;
        self.record(|| Change::DeepestCalls { value });
    }

    /// A submit of the worker on `lane`, under a retry budget: a request when it is its run's
    /// first, else a retry.
    pub(crate) fn count_submit(&mut self, lane: &Text, first: bool) {
        let ledger = self.counts.retry_ledger.entry(lane.clone()).or_default();
        match first {
            true => ledger.requests += 1,
            false => ledger.retries += 1,
        }
        let ledger = *ledger;
        self.record(|| Change::RetryLedger {
            lane: lane.clone(),
            ledger,
        });
    }

    /// Whether one more retry of the worker on `lane` stays within `ratio_permille` of its
    /// requests.
    pub fn retry_within_budget(&self, lane: &Text, ratio_permille: u32) -> bool {
        let ledger = self
            .counts
            .retry_ledger
            .get(lane)
            .copied()
            .unwrap_or_default();
        u64::from(ledger.retries + 1) * 1000
            <= u64::from(ratio_permille) * u64::from(ledger.requests)
    }

    /// The external progress counter moves.
    pub(crate) fn set_progress(&mut self, value: u32) {
        if self.counts.progress != value {
            self.counts.progress = value;
            self.record(|| Change::Progress { value });
        }
    }

    /// This worker's cancel flag goes up.
    pub(crate) fn cancel(&mut self, worker: u32) {
        if self.counts.cancelled.insert(worker) {
            self.record(|| Change::Cancelled { worker });
        }
    }

    /// Whether this worker's cancel flag is up.
    pub fn is_cancelled(&self, worker: u32) -> bool {
        self.counts.cancelled.contains(&worker)
    }

    /// A worker's view takes these values.
    pub(crate) fn set_worker(
        &mut self,
        worker: u32,
        state: WorkerState,
        op: Option<&Text>,
        run: u32,
    ) {
        let view = &mut self.workers[worker as usize];
        if view.state == state && view.op.as_ref() == op && view.run == run {
            return;
        }
        view.state = state;
        view.op = op.cloned();
        view.run = run;
        let op = view.op.clone();
        self.record(|| Change::Worker {
            worker,
            state,
            op,
            run,
        });
    }

    /// A worker's run returned `result`.
    pub(crate) fn push_result(&mut self, worker: u32, result: Text) {
        self.record(|| Change::Result {
            worker,
            result: result.clone(),
        });
        self.workers[worker as usize].results.push(result);
    }

    /// Applies a logged change (replaying a trace).
    pub fn apply(&mut self, change: &Change) {
        // A replayed world is never explored: it computes its digest from scratch if asked.
        self.digest = Digest::default();
        match change {
            Change::Job { row } => {
                self.journal.insert(row.id.clone(), JobRow::clone(row));
            }
            Change::Provider { record } => self.push_provider(record.clone()),
            Change::KeyExpired { records } => {
                for &position in records {
                    self.provider[position as usize].key_expired = true;
                }
            }
            Change::InFlight { request } => self.in_flight.push(request.clone()),
            Change::Landed { position } => {
                self.in_flight.remove(*position as usize);
            }
            Change::Row { row } => self.table.push(row.clone()),
            Change::RowDeleted { rowid } => self.table.delete(*rowid),
            Change::RowValue { rowid, value } => {
                if let Ok(position) = self.table.rows.binary_search_by_key(rowid, |row| row.rowid) {
                    self.table.rows[position].value = value.clone();
                }
            }
            Change::Dedup { key } => {
                self.table.dedup.insert(key.clone());
            }
            Change::Tracker { key, operation } => {
                self.tracker.insert(key.clone(), operation.clone());
            }
            Change::Effect { effect } => self.push_effect(effect.clone()),
            Change::ModelCalls { .. }
            | Change::Progress { .. }
            | Change::DeepestCalls { .. }
            | Change::Cancelled { .. }
            | Change::RetryLedger { .. } => self.counts.apply(change),
            Change::Worker { worker, .. } => self.workers[*worker as usize].apply(change),
            Change::Result { worker, result } => {
                self.workers[*worker as usize].results.push(result.clone());
            }
        }
    }

    /// The lookups, built on first use: a copy of a world (a checkpoint, a state rebuilt for the
    /// view, a deserialized trace) starts without them, so copying costs only the fields.
    fn index(&self) -> &Index {
        self.index.0.get_or_init(|| {
            let mut index = Index::default();
            for (position, record) in self.provider.iter().enumerate() {
                index.push_provider(record, position as u32);
            }
            for (position, effect) in self.effects.iter().enumerate() {
                index
                    .effects_by_operation
                    .push(&effect.operation, position as u32);
            }
            index
        })
    }

    /// Starts logging changes.
    pub(crate) fn start_log(&mut self) {
        self.log = Log(Some(Pending::default()));
    }

    /// The changes made since the last call, in order (journal rows last, once each).
    pub(crate) fn take_changes(&mut self) -> Few<Change> {
        let Some(log) = &mut self.log.0 else {
            return Few::default();
        };
        log.touched_jobs.sort_unstable();
        let journal = &self.journal;
        let jobs = log.touched_jobs.drain(..).filter_map(|operation| {
            let row = journal.get(&operation)?;
            Some(Change::Job {
                row: Rc::new(row.clone()),
            })
        });
        // The log keeps its own buffer for the next step.
        log.changes.drain(..).chain(jobs).collect()
    }

    fn record(&mut self, change: impl FnOnce() -> Change) {
        if let Some(log) = &mut self.log.0 {
            log.changes.push(change());
        }
    }
}

/// A journal row shared by a change and the checkpoints, written and read as the row itself.
mod shared_row {
    use std::rc::Rc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::JobRow;

    pub(super) fn serialize<S: Serializer>(
        row: &Rc<JobRow>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        JobRow::serialize(row, serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Rc<JobRow>, D::Error> {
        JobRow::deserialize(deserializer).map(Rc::new)
    }
}

/// The positions a scan finds when the collection is `small`, else those its index lists: the
/// records that may hold the key, which the caller checks (see `lookup.rs`).
fn found<'a, P: Copy + 'a>(
    small: bool,
    scan: impl Iterator<Item = P> + 'a,
    indexed: impl FnOnce() -> &'a [P],
) -> impl Iterator<Item = P> + 'a {
    let indexed = match small {
        true => &[],
        false => indexed(),
    };
    small
        .then_some(scan)
        .into_iter()
        .flatten()
        .chain(indexed.iter().copied())
}

/// `Clone` field by field, with a `clone_from` that reuses the target's buffers (its texts, lists
/// and keyed maps, whose values are copied in place when they hold the same keys): an explorer
/// copies engines into ones it no longer needs, and so allocates little per copy.
macro_rules! clone_by_fields {
    ($type:ident { $($field:ident),* }) => {
        impl Clone for $type {
            fn clone(&self) -> Self {
                $type {
                    $($field: self.$field.clone(),)*
                }
            }

            fn clone_from(&mut self, source: &Self) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}
pub(crate) use clone_by_fields;

clone_by_fields!(World {
    tick,
    journal,
    provider,
    in_flight,
    table,
    tracker,
    effects,
    counts,
    workers,
    index,
    log,
    digest
});
clone_by_fields!(JobRow {
    id,
    payload,
    status,
    receipt,
    attempts,
    stages,
    failed_stage,
    reason,
    review
});
clone_by_fields!(ProviderRecord {
    key,
    payload,
    receipt,
    committed_tick,
    key_expired,
    operation
});
clone_by_fields!(InFlight {
    key,
    payload,
    operation,
    commit_tick
});
clone_by_fields!(Table {
    unique,
    rows,
    dedup,
    rows_are_effects,
    next_rowid,
    index
});
clone_by_fields!(Row {
    rowid,
    key,
    value,
    operation
});
clone_by_fields!(Effect {
    sink,
    key,
    operation,
    tick
});
clone_by_fields!(WorkerView {
    name,
    state,
    op,
    run,
    results
});

/// Data derived from a world's fields, built when first read. A copy starts empty and two are
/// always equal: they are equal whenever the fields are.
#[derive(Debug, Default)]
struct Lazy<T>(std::cell::OnceCell<T>);

impl<T> Clone for Lazy<T> {
    fn clone(&self) -> Self {
        Lazy(std::cell::OnceCell::new())
    }
}

impl<T> PartialEq for Lazy<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Lazy<T> {}

/// Lookups of the provider's records and the effects, by key and by operation (positions).
#[derive(Debug, Default)]
struct Index {
    provider_by_key: Lookup<u32>,
    provider_by_operation: Lookup<u32>,
    /// Every receipt issued, once.
    receipts: Keyed<()>,
    /// How many of `receipts` start with each prefix that ends at a '-' in one of them: a
    /// receipt's number under its key ("receipt-OP-2") is found by a count, where an ordered set
    /// of receipts was searched with string comparisons on cold memory.
    receipt_prefixes: Keyed<u32>,
    effects_by_operation: Lookup<u32>,
}

impl Index {
    fn push_provider(&mut self, record: &ProviderRecord, position: u32) {
        self.provider_by_key.push(&record.key, position);
        self.provider_by_operation.push(&record.operation, position);
        let receipt = &record.receipt;
        if !self.receipts.insert_if_absent(receipt.clone(), ()).1 {
            return;
        }
        for (at, _) in receipt.match_indices('-') {
            let prefix = &receipt[..=at];
            match self.receipt_prefixes.entry_mut(prefix) {
                Some((_, count)) => *count += 1,
                None => {
                    self.receipt_prefixes.insert(prefix.into(), 1);
                }
            }
        }
    }
}

/// The change log; a copy of a world starts without one.
#[derive(Debug, Default)]
struct Log(Option<Pending>);

#[derive(Debug, Default)]
struct Pending {
    changes: Vec<Change>,
    /// Journal rows changed in place (a step touches one or two); logged whole, in id order,
    /// when the changes are taken.
    touched_jobs: Vec<Text>,
}

impl Pending {
    fn touch(&mut self, operation: &Text) {
        if !self.touched_jobs.contains(operation) {
            self.touched_jobs.push(operation.clone());
        }
    }
}

impl Clone for Log {
    fn clone(&self) -> Self {
        Log(None)
    }
}

impl PartialEq for Log {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The running digest of a world's records; `sum` is `None` unless `keep_digest` asked for it
/// (the explorer's engines), and then the digest is computed from scratch when read.
#[derive(Debug, Default)]
struct Digest {
    sum: Option<u64>,
    /// The hash each journal row is in `sum` with, by its position in the journal (the order
    /// rows were inserted; none is ever removed), so a row changed in place leaves the sum
    /// without being hashed twice. Empty unless `sum` is kept.
    jobs: Vec<u64>,
    /// Positions of the journal rows changed in place during this step: out of `sum` until
    /// the step settles.
    dirty_jobs: Vec<u32>,
}

clone_by_fields!(Digest {
    sum,
    jobs,
    dirty_jobs
});

impl PartialEq for Digest {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// What kind of record an item hash is of, so equal fields in two collections differ.
#[derive(Clone, Copy)]
enum Item {
    Job,
    Provider,
    Effect,
    Row,
    Dedup,
    Tracker,
}

fn item_hash<T: ?Sized>(
    item: Item,
    value: &T,
    feed: impl FnOnce(&T, &mut crate::fingerprint::Fingerprint),
) -> u64 {
    use std::hash::Hasher;
    let mut hasher = crate::fingerprint::Fingerprint::default();
    hasher.write_u8(item as u8);
    feed(value, &mut hasher);
    hasher.finish()
}

fn job_hash(row: &JobRow) -> u64 {
    item_hash(Item::Job, row, hash_job)
}

fn provider_hash(position: usize, record: &ProviderRecord) -> u64 {
    use std::hash::Hash;
    item_hash(Item::Provider, record, |record, hasher| {
        (position, &record.key, &record.payload, &record.receipt).hash(hasher);
        (record.committed_tick, record.key_expired, &record.operation).hash(hasher);
    })
}

fn effect_hash(position: usize, effect: &Effect) -> u64 {
    use std::hash::Hash;
    item_hash(Item::Effect, effect, |effect, hasher| {
        (position, &effect.sink, &effect.key, &effect.operation).hash(hasher);
        effect.tick.hash(hasher);
    })
}

fn row_hash(row: &Row) -> u64 {
    use std::hash::Hash;
    item_hash(Item::Row, row, |row, hasher| {
        (row.rowid, &row.key, &row.value, &row.operation).hash(hasher);
    })
}

fn dedup_hash(key: &str) -> u64 {
    use std::hash::Hash;
    item_hash(Item::Dedup, key, |key, hasher| key.hash(hasher))
}

fn tracker_hash(key: &str, operation: &str) -> u64 {
    use std::hash::Hash;
    item_hash(Item::Tracker, &(key, operation), |pair, hasher| {
        pair.hash(hasher)
    })
}

/// Feeds the semantic fields of a world into `hasher`, explicitly (the world's types do not
/// derive `Hash`). The records go in as the world's running digest (see `World::digest`); the
/// workers' views are left out: the engine hashes the workers themselves.
pub(crate) fn hash_world(world: &World, hasher: &mut Fingerprint) {
    // Small numbers go in two to a word: fewer words to mix, and each pair still stands for its
    // two numbers exactly (a length or a counter never reaches 2^32).
    let pair = |low: usize, high: usize| low as u64 | (high as u64) << 32;
    let table = &world.table;
    // The next rowid is private to the table; it decides only the ids of later rows, never what
    // a step does, so states that differ in it alone continue the same way.
    let flags = u64::from(table.unique) | u64::from(table.rows_are_effects) << 1;
    // The cancelled workers as a set of bits (validation caps a scenario at 64 workers).
    let cancelled = world
        .counts
        .cancelled
        .iter()
        .fold(0u64, |bits, &worker| bits | 1 << (worker % 64));
    let words = [
        pair(world.tick as usize, world.journal.len()),
        // The lengths keep apart worlds whose digests could only meet by a sum's coincidence.
        pair(world.provider.len(), world.effects.len()),
        pair(table.rows.len(), table.dedup.len()),
        pair(world.tracker.len(), world.in_flight.len()),
        world.digest(),
        pair(
            world.counts.model_calls as usize,
            world.counts.progress as usize,
        ),
        pair(world.counts.deepest_calls as usize, flags as usize),
        cancelled,
    ];
    for pair in words.chunks_exact(2) {
        hasher.write_pair(pair[0], pair[1]);
    }
    for (lane, ledger) in &world.counts.retry_ledger {
        hasher.write_text(lane);
        hasher.write_pair(u64::from(ledger.requests), u64::from(ledger.retries));
    }
    for request in &world.in_flight {
        hasher.write_text(&request.key);
        hasher.write_text(&request.payload);
        hasher.write_text(&request.operation);
        hasher.write_u64(request.commit_tick.into());
    }
}

/// Feeds one journal row into `hasher`: first one word of its small fields and of which of its
/// texts are there, so the texts that follow (each with its length) read one way only.
pub(crate) fn hash_job(row: &JobRow, hasher: &mut Fingerprint) {
    let review = row.review.as_ref();
    let present = [
        row.receipt.is_some(),
        row.failed_stage.is_some(),
        row.reason.is_some(),
        review.is_some(),
        review.is_some_and(|review| review.owner.is_some()),
    ]
    .iter()
    .enumerate()
    .fold(0u64, |bits, (bit, &there)| bits | u64::from(there) << bit);
    let stages = row.stages.len() as u64;
    hasher
        .write_u64(row.status as u64 | present << 8 | stages << 16 | u64::from(row.attempts) << 32);
    hasher.write_text(&row.id);
    hasher.write_text(&row.payload);
    let optional = [&row.receipt, &row.failed_stage, &row.reason];
    for text in optional.into_iter().flatten() {
        hasher.write_text(text);
    }
    for (stage, output) in row.stages.iter() {
        hasher.write_text(stage);
        hasher.write_text(output);
    }
    if let Some(review) = review {
        if let Some(owner) = &review.owner {
            hasher.write_text(owner);
        }
        hasher.write_text(&review.next_action);
    }
}

#[cfg(test)]
mod tests {
    use super::{ProviderRecord, World};
    use crate::rng::Rng;

    /// Past `SCAN_MAX` records the receipts are counted through the index: the counts equal a
    /// count over the distinct receipts, for keys that are prefixes of one another.
    /// Stages read, hash and serialize as the `BTreeMap` they replace.
    #[test]
    fn stages_behave_as_an_ordered_map() {
        use super::Stages;
        use crate::text::Text;
        use std::collections::BTreeMap;
        use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
        let mut stages = Stages::default();
        let mut model: BTreeMap<Text, Text> = BTreeMap::new();
        let hasher = BuildHasherDefault::<DefaultHasher>::default();
        for (stage, output) in [
            ("notify", "1"),
            ("model", "2"),
            ("write", "3"),
            ("model", "4"),
        ] {
            let (stage, output) = (Text::from(stage), Text::from(output));
            assert_eq!(
                stages.insert(stage.clone(), output.clone()),
                model.insert(stage, output)
            );
            assert!(stages.iter().eq(model.iter()));
            assert_eq!(hasher.hash_one(&stages), hasher.hash_one(&model));
            assert_eq!(format!("{stages:?}"), format!("{model:?}"));
            let json = serde_json::to_string(&stages).expect("serializes");
            assert_eq!(json, serde_json::to_string(&model).expect("serializes"));
            let back: Stages = serde_json::from_str(&json).expect("reads back");
            assert_eq!(back, stages);
        }
        assert_eq!(stages.get("model").map(Text::as_str), Some("4"));
        assert!(!stages.contains_key("absent"));
    }

    #[test]
    fn indexed_receipt_counts_equal_a_scan() {
        let mut rng = Rng::new(3);
        let mut world = World::default();
        let words = ["a", "a-b", "a-b-2", "b", "a-2", "ab", "a-", "-", ""];
        for tick in 0..60 {
            let receipt = format!("receipt-{}", words[rng.below(words.len() as u32) as usize]);
            world.push_provider(ProviderRecord {
                key: "k".into(),
                payload: "{}".into(),
                receipt: receipt.as_str().into(),
                committed_tick: tick,
                key_expired: false,
                operation: "op".into(),
            });
            let mut distinct: Vec<&str> =
                world.provider.iter().map(|r| r.receipt.as_str()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            for word in words {
                for prefix in [format!("receipt-{word}"), format!("receipt-{word}-")] {
                    let expected = distinct.iter().filter(|r| r.starts_with(&prefix)).count();
                    assert_eq!(
                        world.receipts_starting(&prefix),
                        expected as u32,
                        "{prefix}"
                    );
                    let taken = distinct.contains(&prefix.as_str());
                    assert_eq!(world.receipt_taken(&prefix), taken, "{prefix}");
                }
            }
        }
    }
}
