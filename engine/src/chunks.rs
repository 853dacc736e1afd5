//! An ordered map whose copies share their unchanged parts: the store behind a trace's
//! checkpoints.
//!
//! The entries sit in sorted chunks of at most `CHUNK_MAX`, each behind an `Rc`. A copy copies
//! the list of chunk pointers (one per `CHUNK_MAX / 2` entries or more), not the entries; a change
//! copies the one chunk it touches if a copy still shares it, and later changes to that chunk
//! cost nothing more. A run touches a few chunks between two checkpoints (new records go to the
//! end, and the records being worked on are the newest), so a checkpoint costs about the
//! changes since the last one, not the size of the world.
//!
//! Why not something else (`make bench` measures a traced run at 10,000 records): a full copy of
//! the world per checkpoint spends a large share of a traced run copying; rows behind `Rc` in
//! the world's own maps still copy every pointer and key per checkpoint and change the world's
//! public types; a persistent map crate (`im`, `rpds`) would do what this does with a deeper tree
//! and a new dependency in the wasm bundle. Two levels are enough here: the chunk list of a
//! 10,000-record collection is a few hundred pointers.

use std::borrow::Borrow;
use std::rc::Rc;

/// The most entries a chunk holds; a full chunk splits in two, or, when an entry goes past its
/// end as the last chunk, starts a new one (so collections that only grow at the end, as
/// most do here, fill their chunks).
const CHUNK_MAX: usize = 32;

/// An ordered map from `K` to `V` whose clones share unchanged chunks.
#[derive(Debug)]
pub(crate) struct Chunks<K, V> {
    /// Never an empty chunk; the chunks' entries in order are the map's.
    chunks: Vec<Rc<Vec<(K, V)>>>,
    len: usize,
}

impl<K, V> Default for Chunks<K, V> {
    fn default() -> Self {
        Chunks {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<K, V> Clone for Chunks<K, V> {
    fn clone(&self) -> Self {
        Chunks {
            chunks: self.chunks.clone(),
            len: self.len,
        }
    }
}

impl<K: Ord + Clone, V: Clone> Chunks<K, V> {
    /// A map of these entries, given in increasing key order.
    pub(crate) fn from_sorted(entries: impl IntoIterator<Item = (K, V)>) -> Self {
        let mut map = Chunks::default();
        for (key, value) in entries {
            map.insert(key, value);
        }
        map
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The entries in key order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &(K, V)> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// The chunk that holds `key`, or would: the last whose first key is not past it.
    fn chunk_of<Q: Ord + ?Sized>(&self, key: &Q) -> usize
    where
        K: Borrow<Q>,
    {
        // Most changes land in the last chunk (records are appended): one comparison finds it.
        let last = self.chunks.len().saturating_sub(1);
        if self
            .chunks
            .get(last)
            .is_some_and(|chunk| chunk[0].0.borrow() <= key)
        {
            return last;
        }
        let after = self
            .chunks
            .partition_point(|chunk| chunk[0].0.borrow() <= key);
        after.saturating_sub(1)
    }

    /// Sets `key` to `value`.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        if self.chunks.is_empty() {
            self.chunks.push(Rc::new(vec![(key, value)]));
            self.len = 1;
            return;
        }
        let at = self.chunk_of(&key);
        let last = at + 1 == self.chunks.len();
        let position = match self.chunks[at].binary_search_by(|(known, _)| known.cmp(&key)) {
            Ok(position) => {
                Rc::make_mut(&mut self.chunks[at])[position].1 = value;
                return;
            }
            Err(position) => position,
        };
        self.len += 1;
        let full = self.chunks[at].len() >= CHUNK_MAX;
        if full && last && position == CHUNK_MAX {
            self.chunks.push(Rc::new(vec![(key, value)]));
            return;
        }
        let chunk = Rc::make_mut(&mut self.chunks[at]);
        chunk.insert(position, (key, value));
        if full {
            let upper = chunk.split_off(chunk.len() / 2);
            self.chunks.insert(at + 1, Rc::new(upper));
        }
    }

    /// The value of `key`, to change; copies its chunk if a clone shares it.
    pub(crate) fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let at = self.chunk_of(key);
        let chunk = self.chunks.get_mut(at)?;
        let position = chunk
            .binary_search_by(|(known, _)| known.borrow().cmp(key))
            .ok()?;
        Some(&mut Rc::make_mut(chunk)[position].1)
    }

    /// Removes `key`, if there.
    pub(crate) fn remove<Q: Ord + ?Sized>(&mut self, key: &Q)
    where
        K: Borrow<Q>,
    {
        let at = self.chunk_of(key);
        let Some(chunk) = self.chunks.get_mut(at) else {
            return;
        };
        let Ok(position) = chunk.binary_search_by(|(known, _)| known.borrow().cmp(key)) else {
            return;
        };
        self.len -= 1;
        if chunk.len() == 1 {
            self.chunks.remove(at);
            return;
        }
        Rc::make_mut(chunk).remove(position);
    }

    /// The greatest key.
    pub(crate) fn last_key(&self) -> Option<&K> {
        let chunk = self.chunks.last()?;
        chunk.last().map(|(key, _)| key)
    }
}

#[cfg(test)]
mod tests {
    use super::Chunks;
    use crate::rng::Rng;
    use std::collections::BTreeMap;

    /// Random inserts, overwrites, changes and removals, with a clone kept now and then: the map
    /// and every clone read as a `BTreeMap` given the same operations would.
    #[test]
    fn chunks_read_as_an_ordered_map_and_clones_keep_their_state() {
        let mut rng = Rng::new(11);
        let mut chunks: Chunks<u32, u64> = Chunks::default();
        let mut model: BTreeMap<u32, u64> = BTreeMap::new();
        let mut kept: Vec<(Chunks<u32, u64>, BTreeMap<u32, u64>)> = Vec::new();
        for step in 0..20_000u64 {
            // Mostly growing at the end, as records do, with changes anywhere.
            let key = match rng.below(4) {
                0 => rng.below(3_000),
                _ => model
                    .last_key_value()
                    .map_or(0, |(key, _)| key + 1 + rng.below(3)),
            };
            match rng.below(10) {
                0..=5 => {
                    chunks.insert(key, step);
                    model.insert(key, step);
                }
                6 | 7 => {
                    if let Some(value) = chunks.get_mut(&key) {
                        *value += 1;
                    }
                    if let Some(value) = model.get_mut(&key) {
                        *value += 1;
                    }
                }
                _ => {
                    chunks.remove(&key);
                    model.remove(&key);
                }
            }
            if step % 997 == 0 {
                kept.push((chunks.clone(), model.clone()));
            }
        }
        kept.push((chunks, model));
        for (chunks, model) in &kept {
            assert_eq!(chunks.len(), model.len());
            assert!(chunks
                .iter()
                .map(|(key, value)| (key, value))
                .eq(model.iter()));
            assert_eq!(
                chunks.last_key(),
                model.last_key_value().map(|(key, _)| key)
            );
        }
    }
}
