//! Where a run's key comes from: each key source's rule, and the key blocks that put one in the
//! program. A program without a key line takes its key from the design's switch (`switches.key`),
//! made when the run is received and printed above the program; a program with a key line takes
//! it from that line, each time the line runs (in a retry loop, on every pass), and a line that
//! reads the key must come after one.

use crate::block::Block;
use crate::rng::{fnv1a, Rng};
use crate::scenario::KeySource;
use crate::text::Text;

/// The key source each key block draws from, in `Block::ALL` order; `None` for any other block.
pub(crate) fn source_of(block: Block) -> Option<KeySource> {
    match block {
        Block::KeySourceId => Some(KeySource::SourceId),
        Block::KeyContentHash => Some(KeySource::ContentHash),
        Block::KeyUuid4 => Some(KeySource::FreshRandom),
        Block::KeyWithReceivedAt => Some(KeySource::HashWithReceivedAt),
        Block::KeySaved => Some(KeySource::SavedUuid),
        _ => None,
    }
}

/// The key `key = "content_hash"` makes: `h-` and a hash of the payload.
pub(crate) fn content_key(payload: &str) -> String {
    format!("h-{:08x}", fnv1a(payload) >> 32)
}

/// The key `key = "hash_with_received_at"` makes: the content and the tick it was received at.
pub(crate) fn received_at_key(payload: &str, tick: u32) -> String {
    content_key(&format!("{payload}@{tick}"))
}

/// A fresh random key (`uuid4()`), one draw of the run's RNG.
pub(crate) fn fresh_key(rng: &mut Rng) -> String {
    format!("k-{:08x}", rng.next_u64() >> 32)
}

/// The UUID drawn once when the intention `op` was born, and saved with it: a pure function of
/// the seed and the intention, so every attempt, on any worker and after any crash, reads the
/// same saved value.
pub(crate) fn saved_key(seed: u64, op: &str) -> Text {
    let drawn = Rng::new(seed ^ fnv1a(op)).next_u64();
    format!("u-{:08x}", drawn >> 32).into()
}

/// The key an event without the source's id gets from `str(event.get("id"))`.
pub(crate) const MISSING_ID: &str = "None";

/// The source's own id as a key: `op`, or `"None"` (shared, not copied) when the event lacks it.
pub(crate) fn source_key(op: &Text, missing_id: bool) -> Text {
    match missing_id {
        true => Text::fixed(MISSING_ID),
        false => op.clone(),
    }
}
