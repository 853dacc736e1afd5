//! The remote provider's rules (seeds 002 and 004): records keyed by idempotency key, payload
//! comparison on a reused key, retention, and lookups that may be stale.

use crate::outcome::SubmitReply;
use crate::scenario::ProviderConfig;
use crate::text::Text;
use crate::world::{ProviderRecord, World};

/// What a lookup by key answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LookedUp {
    pub payload: Text,
    pub receipt: Text,
}

/// Whether the provider still deduplicates on this record's key: it forgets keys once the
/// retention window has passed (derived from the clock, never stored), or when a fault expired it.
pub fn key_alive(record: &ProviderRecord, config: &ProviderConfig, now: u32) -> bool {
    let window_passed = config.retention_ticks > 0
        && now >= record.committed_tick.saturating_add(config.retention_ticks);
    !record.key_expired && !window_passed
}

/// Processes a submit that reached the provider, inside the provider's own transaction.
pub fn submit(
    world: &mut World,
    config: &ProviderConfig,
    key: &Text,
    payload: &Text,
    operation: &Text,
) -> SubmitReply {
    if key.is_empty() && config.require_key {
        return SubmitReply::KeyMissing;
    }
    let now = world.tick;
    // Without a key there is nothing to recognise a repeat by.
    let known = world
        .provider_records_keyed(key)
        .find(|record| !key.is_empty() && config.dedup && key_alive(record, config, now));
    if let Some(old) = known {
        if old.payload == *payload {
            return SubmitReply::Replayed {
                receipt: old.receipt.clone(),
            };
        }
        if config.reject_changed_payload {
            return SubmitReply::Rejected {
                status: config.reject_status.code(),
            };
        }
        return SubmitReply::SilentlyAccepted {
            receipt: old.receipt.clone(),
        };
    }
    let name = if key.is_empty() { operation } else { key };
    let receipt = Text::from(fresh_receipt(world, name));
    world.push_provider(ProviderRecord {
        key: key.clone(),
        payload: payload.clone(),
        receipt: receipt.clone(),
        committed_tick: world.tick,
        key_expired: false,
        operation: operation.clone(),
    });
    SubmitReply::Created { receipt }
}

/// Looks a key up. A stale provider answers "not found" for a while after the commit; a request
/// sent without a key cannot be looked up by one.
pub fn lookup(world: &World, config: &ProviderConfig, key: &str) -> Option<LookedUp> {
    if key.is_empty() {
        return None;
    }
    world
        .provider_records_keyed(key)
        .next()
        .filter(|record| {
            world.tick
                >= record
                    .committed_tick
                    .saturating_add(config.lookup_stale_ticks)
        })
        .map(|record| LookedUp {
            payload: record.payload.clone(),
            receipt: record.receipt.clone(),
        })
}

/// "receipt-OP-001", then "receipt-OP-001-2" for a second effect under the same key.
fn fresh_receipt(world: &World, key: &str) -> String {
    let base = format!("receipt-{key}");
    let taken =
        u32::from(world.receipt_taken(&base)) + world.receipts_starting(&format!("{base}-"));
    match taken {
        0 => base,
        n => format!("{base}-{}", n + 1),
    }
}
