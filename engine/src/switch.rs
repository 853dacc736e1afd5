//! The design choices a learner can flip, per workflow. The engine owns this list so the app
//! never has to know which switch a workflow reads.

use serde::{Deserialize, Serialize};

use crate::scenario::{KeySource, Scenario, WriteMode};

/// One on/off design choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Switch {
    Reconcile,
    TrustNotFound,
    ProviderDedup,
    RejectChangedPayload,
    ProviderLookup,
    Unique,
    CheckFirst,
    Upsert,
    MarkAfter,
    Tracker,
    SameTransaction,
    SkipSucceeded,
    Resume,
    DedupOnWrite,
    StableKey,
    SingleLayer,
    RetryBudget,
    CanonicalPayload,
}

/// The retry budget the switch `retry_budget` sets: retries at most 10% of a client's requests,
/// the per-client ratio of the SRE book's "Handling Overload".
pub const RETRY_BUDGET_PERMILLE: u32 = 100;

impl Switch {
    /// What the toggle says when it is on.
    pub fn label(self) -> &'static str {
        match self {
            Switch::Reconcile => "Look the operation up before resubmitting",
            Switch::TrustNotFound => "Trust a \"not found\" after an uncertain attempt",
            Switch::ProviderDedup => "Provider deduplicates by idempotency key",
            Switch::RejectChangedPayload => "Provider rejects a reused key with a changed payload",
            Switch::ProviderLookup => "Provider offers a lookup by key",
            Switch::Unique => "UNIQUE constraint on the key column",
            Switch::CheckFirst => "Check in application code before writing",
            Switch::Upsert => "Write with UPSERT (ON CONFLICT DO UPDATE) instead of INSERT",
            Switch::MarkAfter => "Mark done after the side effect (not before)",
            Switch::Tracker => "Guard side effects with the idempotency tracker",
            Switch::SameTransaction => "Dedup key in the same transaction as the row",
            Switch::SkipSucceeded => "Retry batch skips records that already succeeded",
            Switch::Resume => "Resume from the failed stage with the preserved output",
            Switch::DedupOnWrite => "Deduplicate on write (not on read)",
            Switch::StableKey => "Key from the source's id (not fresh per attempt)",
            Switch::SingleLayer => "Retry at one layer only (the inner layers fail fast)",
            Switch::RetryBudget => "Retry budget: retries at most 10% of each client's requests",
            Switch::CanonicalPayload => "Compare payloads as canonical JSON (not as raw bytes)",
        }
    }

    /// Whether flipping the switch can change this scenario's run: retrying at one layer only
    /// means something only where retry loops are stacked.
    pub fn applies(self, scenario: &Scenario) -> bool {
        match self {
            Switch::SingleLayer => scenario.switches.retry.layers > 1,
            Switch::RetryBudget => scenario.switches.retry.attempts_max > 1,
            // Only a caller that writes its body its own way can tell the two apart.
            Switch::CanonicalPayload => scenario
                .workers
                .iter()
                .flat_map(|worker| &worker.runs)
                .any(|run| run.body.is_some()),
            _ => true,
        }
    }

    /// Whether the switch is on in this scenario.
    pub fn get(self, scenario: &Scenario) -> bool {
        let design = &scenario.switches;
        let provider = &scenario.provider;
        match self {
            Switch::Reconcile => design.reconcile,
            Switch::TrustNotFound => design.trust_not_found,
            Switch::ProviderDedup => provider.dedup,
            Switch::RejectChangedPayload => provider.reject_changed_payload,
            Switch::ProviderLookup => provider.lookup,
            Switch::Unique => design.unique,
            Switch::CheckFirst => design.check_first,
            Switch::Upsert => design.write == WriteMode::Upsert,
            Switch::MarkAfter => design.mark_after,
            Switch::Tracker => design.tracker,
            Switch::SameTransaction => design.same_transaction,
            Switch::SkipSucceeded => design.skip_succeeded,
            Switch::Resume => design.resume,
            Switch::DedupOnWrite => design.dedup_on_write,
            Switch::StableKey => design.key == KeySource::SourceId,
            Switch::SingleLayer => design.retry.single_layer,
            Switch::RetryBudget => design.retry.retry_ratio_permille > 0,
            Switch::CanonicalPayload => design.canonical_payload,
        }
    }

    /// The scenario with this switch set.
    pub fn set(self, scenario: &Scenario, on: bool) -> Scenario {
        let mut changed = scenario.clone();
        let design = &mut changed.switches;
        let provider = &mut changed.provider;
        match self {
            Switch::Reconcile => design.reconcile = on,
            Switch::TrustNotFound => design.trust_not_found = on,
            Switch::ProviderDedup => provider.dedup = on,
            Switch::RejectChangedPayload => provider.reject_changed_payload = on,
            Switch::ProviderLookup => provider.lookup = on,
            Switch::Unique => {
                design.unique = on;
            }
            Switch::CheckFirst => design.check_first = on,
            Switch::Upsert => {
                design.write = if on {
                    WriteMode::Upsert
                } else {
                    WriteMode::Insert
                }
            }
            Switch::MarkAfter => design.mark_after = on,
            Switch::Tracker => design.tracker = on,
            Switch::SameTransaction => design.same_transaction = on,
            Switch::SkipSucceeded => design.skip_succeeded = on,
            Switch::Resume => design.resume = on,
            Switch::DedupOnWrite => design.dedup_on_write = on,
            Switch::SingleLayer => design.retry.single_layer = on,
            Switch::RetryBudget => {
                design.retry.retry_ratio_permille = if on { RETRY_BUDGET_PERMILLE } else { 0 };
            }
            Switch::CanonicalPayload => design.canonical_payload = on,
            Switch::StableKey => {
                design.key = if on {
                    KeySource::SourceId
                } else {
                    KeySource::FreshRandom
                };
            }
        }
        changed
    }
}
