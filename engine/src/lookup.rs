//! Positions of records by a text key, for a world's indexes.
//!
//! The map is keyed by the text's 64-bit hash, not the text: building an index copies no key and
//! allocates nothing for a key that one record holds (most of them), so a large world's index
//! costs a few bytes a record to build and nothing to free but its table. Two texts can share a
//! hash, so a lookup gives candidates and the caller keeps those whose record holds the key.
//! Never iterated, so its order never shows.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::rng::fnv1a;

/// Positions (or rowids) by the hash of their key.
#[derive(Debug)]
pub(crate) struct Lookup<P>(HashMap<u64, Positions<P>, BuildHasherDefault<Spread>>);

impl<P> Default for Lookup<P> {
    fn default() -> Self {
        Lookup(HashMap::default())
    }
}

/// One position inline, or several.
#[derive(Debug)]
enum Positions<P> {
    One(P),
    Many(Vec<P>),
}

impl<P: Copy + PartialEq> Lookup<P> {
    /// The positions whose key may be `key`, oldest first.
    pub(crate) fn get(&self, key: &str) -> &[P] {
        match self.0.get(&fnv1a(key)) {
            None => &[],
            Some(Positions::One(position)) => std::slice::from_ref(position),
            Some(Positions::Many(positions)) => positions,
        }
    }

    /// Adds `position` under `key`, after those already there.
    pub(crate) fn push(&mut self, key: &str, position: P) {
        let entry = self.0.entry(fnv1a(key));
        entry
            .and_modify(|positions| match positions {
                Positions::One(first) => *positions = Positions::Many(vec![*first, position]),
                Positions::Many(many) => many.push(position),
            })
            .or_insert(Positions::One(position));
    }

    /// Takes `position` out from under `key`.
    pub(crate) fn remove(&mut self, key: &str, position: P) {
        let hash = fnv1a(key);
        let emptied = match self.0.get_mut(&hash) {
            None => false,
            Some(Positions::One(only)) => *only == position,
            Some(Positions::Many(many)) => {
                many.retain(|&other| other != position);
                many.is_empty()
            }
        };
        if emptied {
            self.0.remove(&hash);
        }
    }
}

/// The table's hasher: its keys are hashes already, so it only mixes their bits (the table reads
/// the high and the low ones). The same on every platform.
#[derive(Default)]
pub(crate) struct Spread(u64);

impl Hasher for Spread {
    fn finish(&self) -> u64 {
        (self.0 ^ (self.0 >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

#[cfg(test)]
mod tests {
    use super::Lookup;

    #[test]
    fn a_lookup_keeps_positions_in_order_and_forgets_removed_ones() {
        let mut lookup = Lookup::default();
        lookup.push("a", 1u32);
        lookup.push("b", 2);
        lookup.push("a", 3);
        lookup.push("a", 4);
        assert_eq!(lookup.get("a"), &[1, 3, 4]);
        assert_eq!(lookup.get("b"), &[2]);
        assert_eq!(lookup.get("c"), &[] as &[u32]);
        lookup.remove("a", 3);
        lookup.remove("b", 2);
        assert_eq!(lookup.get("a"), &[1, 4]);
        assert_eq!(lookup.get("b"), &[] as &[u32]);
    }
}
