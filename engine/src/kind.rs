//! Which workflow a scenario runs: the name only. What each workflow is lives in its declaration
//! (`workflow/`).

use serde::{Deserialize, Serialize};

/// Which workflow the workers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowKind {
    /// Seed 002's recovery lab: journal, lookup, submit to a provider, verify.
    Reserve,
    /// Seed 000: write a result row with INSERT, INSERT OR IGNORE or UPSERT; optionally check first.
    WriteResult,
    /// Seed 004: a payment service's idempotency table in front of a card charge.
    Charge,
    /// Seeds 000 and 001: a notification guarded by the idempotency tracker, then a database write.
    Notify,
    /// Seed 000: model call, downstream write, notification; retry batches and resumable stages.
    Pipeline,
    /// Seed 001: a batch of source events into a table, with a dedup key, a tracking table or a
    /// progress counter, and an email per event.
    Ingest,
    /// The capstone: a payment webhook that charges a card through a provider and emails the
    /// receipt: seed 002's recovery (journal, lookup, submit, verify) with a second effect.
    Webhook,
}
