//! Records by a text key: a world's indexes ([`Lookup`]) and its keyed collections ([`Keyed`]).
//!
//! A `Lookup` is keyed by the text's 64-bit hash, not the text: building an index copies no key
//! and allocates nothing for a key that one record holds (most of them), so a large world's index
//! costs a few bytes a record to build and nothing to free but its table. Two texts can share a
//! hash, so a lookup gives candidates and the caller keeps those whose record holds the key.
//! Never iterated, so its order never shows.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::rng::fnv1a;
use crate::text::Text;

/// Collections up to this size are searched by a scan, not through their index: an explorer's
/// worlds hold a few records and are copied at every branch, and a copy starts without its
/// index, so building one would cost more than the scans it saves. Past it, lookups are hashed.
pub(crate) const SCAN_MAX: usize = 16;

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

/// A map from text keys to values that reads as an ordered map (iteration, `Debug`, JSON and
/// equality go by key, as a `BTreeMap`'s do) but finds a key by its hash.
///
/// A world's journal and tracker are searched on every step by an operation's key. In an ordered
/// map each search compares the key with a dozen others whose bytes sit behind their own pointers,
/// spread over memory: at 10,000 records those comparisons were the largest cost that grew with
/// the records (`make bench`). Here the entries stay in the order they were inserted, a search
/// past `SCAN_MAX` entries reads one hashed index entry and compares one key, and key order is
/// worked out only when something iterates (a view, the JSON form), then kept until the next
/// insert.
pub struct Keyed<V> {
    /// In insertion order; `values[n]` belongs to `keys[n]`. Kept apart so that copying into a map
    /// with the same keys copies the values in place (`clone_from`).
    keys: Vec<Text>,
    values: Vec<V>,
    /// Positions by key, built on the first search past `SCAN_MAX` entries and kept current by
    /// inserts; a copy starts without one.
    index: OnceCell<Lookup<u32>>,
    /// Positions in key order, built when first iterated; an insert of a new key drops it.
    order: OnceCell<Vec<u32>>,
}

impl<V> Default for Keyed<V> {
    fn default() -> Self {
        Keyed {
            keys: Vec::new(),
            values: Vec::new(),
            index: OnceCell::new(),
            order: OnceCell::new(),
        }
    }
}

impl<V> Keyed<V> {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The position of `key`'s entry.
    fn position(&self, key: &str) -> Option<usize> {
        if self.keys.len() <= SCAN_MAX {
            return self.keys.iter().position(|known| *known == *key);
        }
        let index = self.index.get_or_init(|| {
            let mut index = Lookup::default();
            for (position, known) in self.keys.iter().enumerate() {
                index.push(known, position as u32);
            }
            index
        });
        index
            .get(key)
            .iter()
            .map(|&position| position as usize)
            .find(|&position| self.keys[position] == *key)
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.position(key).map(|position| &self.values[position])
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// The entry of `key`, its value to change.
    pub(crate) fn entry_mut(&mut self, key: &str) -> Option<(&Text, &mut V)> {
        self.entry_mut_at(key).map(|(_, key, value)| (key, value))
    }

    /// The entry of `key` and its position (the order of insertion), its value to change.
    pub(crate) fn entry_mut_at(&mut self, key: &str) -> Option<(usize, &Text, &mut V)> {
        let position = self.position(key)?;
        Some((position, &self.keys[position], &mut self.values[position]))
    }

    /// The value at `position` in the order of insertion (see `entry_mut_at`).
    pub(crate) fn value_at(&self, position: usize) -> &V {
        &self.values[position]
    }

    /// The value of `key`, inserting `value` first if the key is new; true when it was new.
    pub(crate) fn insert_if_absent(&mut self, key: Text, value: V) -> (&mut V, bool) {
        if let Some(position) = self.position(&key) {
            return (&mut self.values[position], false);
        }
        let position = self.keys.len();
        if let Some(index) = self.index.get_mut() {
            index.push(&key, position as u32);
        }
        self.order.take();
        self.keys.push(key);
        self.values.push(value);
        (&mut self.values[position], true)
    }

    /// Sets `key` to `value`; the value it replaces, if any.
    pub fn insert(&mut self, key: Text, value: V) -> Option<V> {
        match self.position(&key) {
            Some(position) => Some(std::mem::replace(&mut self.values[position], value)),
            None => {
                self.insert_if_absent(key, value);
                None
            }
        }
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Text, &V)> + '_ {
        let order = self.order.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.keys.len() as u32).collect();
            // Keys are unique, so an unstable sort gives the one order.
            order.sort_unstable_by(|&a, &b| self.keys[a as usize].cmp(&self.keys[b as usize]));
            order
        });
        order.iter().map(|&position| {
            (
                &self.keys[position as usize],
                &self.values[position as usize],
            )
        })
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &Text> + '_ {
        self.iter().map(|(key, _)| key)
    }

    /// The values, in their keys' order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.iter().map(|(_, value)| value)
    }

    /// The entries in no particular order, for what does not depend on it (a sum of hashes):
    /// it sorts nothing.
    pub(crate) fn iter_unordered(&self) -> impl Iterator<Item = (&Text, &V)> + '_ {
        self.keys.iter().zip(&self.values)
    }
}

impl<V> std::ops::Index<&str> for Keyed<V> {
    type Output = V;

    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry for the key {key:?}"))
    }
}

impl<'a, V> IntoIterator for &'a Keyed<V> {
    type Item = (&'a Text, &'a V);
    type IntoIter = Box<dyn Iterator<Item = (&'a Text, &'a V)> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<V> Keyed<V> {
    /// A map of these entries, whose keys are all different (as a map's own are): it takes
    /// them as they come, without looking any up.
    pub(crate) fn from_distinct(entries: impl IntoIterator<Item = (Text, V)>) -> Self {
        let (keys, values) = entries.into_iter().unzip();
        Keyed {
            keys,
            values,
            index: OnceCell::new(),
            order: OnceCell::new(),
        }
    }
}

/// A later entry with the same key replaces an earlier one, as in a `BTreeMap`.
impl<V> FromIterator<(Text, V)> for Keyed<V> {
    fn from_iter<I: IntoIterator<Item = (Text, V)>>(entries: I) -> Self {
        let mut map = Keyed::default();
        for (key, value) in entries {
            map.insert(key, value);
        }
        map
    }
}

/// Equal when they hold the same entries, whatever order they were inserted in.
impl<V: PartialEq> PartialEq for Keyed<V> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter_unordered()
                .all(|(key, value)| other.get(key) == Some(value))
    }
}

impl<V: Eq> Eq for Keyed<V> {}

impl<V: Clone> Clone for Keyed<V> {
    fn clone(&self) -> Self {
        Keyed {
            keys: self.keys.clone(),
            values: self.values.clone(),
            index: OnceCell::new(),
            order: OnceCell::new(),
        }
    }

    /// Reuses the target's values when the keys are the same, in the same order (as they mostly
    /// are between an explorer's engines), and then its index too.
    fn clone_from(&mut self, source: &Self) {
        if self.keys != source.keys {
            self.keys.clone_from(&source.keys);
            self.index = OnceCell::new();
            self.order = OnceCell::new();
        }
        self.values.clone_from(&source.values);
    }
}

impl<V: fmt::Debug> fmt::Debug for Keyed<V> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_map().entries(self.iter()).finish()
    }
}

/// As a map, in key order: the JSON of a `BTreeMap`.
impl<V: Serialize> Serialize for Keyed<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Keyed<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Keyed<V>, D::Error> {
        BTreeMap::<Text, V>::deserialize(deserializer).map(|map| map.into_iter().collect())
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
    use super::{Keyed, Lookup};
    use crate::rng::Rng;
    use crate::text::Text;
    use std::collections::BTreeMap;

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

    /// Random inserts and changes, small and past `SCAN_MAX`, with copies taken now and then:
    /// the map and every copy read, compare and serialize as a `BTreeMap` given the same
    /// operations would.
    #[test]
    fn a_keyed_map_reads_as_an_ordered_map() {
        let mut rng = Rng::new(5);
        let mut keyed: Keyed<u64> = Keyed::default();
        let mut model: BTreeMap<Text, u64> = BTreeMap::new();
        let mut copy: Keyed<u64> = Keyed::default();
        for step in 0..3_000u64 {
            let key = Text::from(format!("op-{}", rng.below(400)));
            match rng.below(4) {
                0 => {
                    let (value, new) = keyed.insert_if_absent(key.clone(), step);
                    assert_eq!(new, !model.contains_key(&key));
                    let modelled = model.entry(key).or_insert(step);
                    assert_eq!(*value, *modelled);
                }
                1 => {
                    if let Some((known, value)) = keyed.entry_mut(&key) {
                        assert_eq!(*known, key);
                        *value += 1;
                    }
                    if let Some(value) = model.get_mut(&key) {
                        *value += 1;
                    }
                }
                _ => assert_eq!(keyed.insert(key.clone(), step), model.insert(key, step)),
            }
            if step % 97 == 0 {
                copy.clone_from(&keyed);
            }
            if step % 13 == 0 {
                assert!(keyed.iter().eq(model.iter()));
                assert_eq!(keyed.len(), model.len());
                let probe = format!("op-{}", rng.below(500));
                assert_eq!(keyed.get(&probe), model.get(probe.as_str()));
            }
        }
        let json = serde_json::to_string(&keyed).expect("serializes");
        assert_eq!(json, serde_json::to_string(&model).expect("serializes"));
        let back: Keyed<u64> = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, keyed);
        let reversed: Keyed<u64> = model.iter().rev().map(|(k, v)| (k.clone(), *v)).collect();
        assert_eq!(reversed, keyed, "equal whatever the insertion order");
        let distinct = Keyed::from_distinct(model.iter().rev().map(|(k, v)| (k.clone(), *v)));
        assert_eq!(distinct, keyed);
        assert!(distinct.iter().eq(model.iter()));
        assert_eq!(format!("{reversed:?}"), format!("{model:?}"));
        copy.clone_from(&keyed);
        assert_eq!(copy, keyed);
        assert_ne!(copy.insert(Text::from("op-0"), u64::MAX), Some(u64::MAX));
        assert_ne!(copy, keyed);
    }
}
