//! A short list held in place: an event's messages and changes.
//!
//! A trace keeps a list of messages and a list of changes for every event, and almost every one
//! holds one or two. As boxed slices they were two allocations an event, each freed one by one
//! when the trace goes: at 10,000 records, on memory long out of the cache, freeing them was the
//! largest cost that grew with the records (`malloc_consolidate` and `unlink_chunk` in a
//! profile). Here up to two items sit in the event itself, and only a longer list allocates.

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Up to two items in place, more on the heap. Reads as a slice (`Deref<Target = [T]>`), and
/// compares, prints and serializes as one.
#[derive(Clone)]
pub struct Few<T>(Held<T>);

#[derive(Clone)]
enum Held<T> {
    None,
    One(T),
    Two([T; 2]),
    Many(Box<[T]>),
}

impl<T> Default for Few<T> {
    fn default() -> Self {
        Few(Held::None)
    }
}

impl<T> Deref for Few<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            Held::None => &[],
            Held::One(item) => std::slice::from_ref(item),
            Held::Two(items) => items,
            Held::Many(items) => items,
        }
    }
}

/// Takes the items as they come: in place up to two, in one allocation of the exact length
/// past that.
impl<T> FromIterator<T> for Few<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut items = items.into_iter();
        let Some(first) = items.next() else {
            return Few(Held::None);
        };
        let Some(second) = items.next() else {
            return Few(Held::One(first));
        };
        let Some(third) = items.next() else {
            return Few(Held::Two([first, second]));
        };
        let mut all = vec![first, second, third];
        all.extend(items);
        Few(Held::Many(all.into_boxed_slice()))
    }
}

impl<T> From<Vec<T>> for Few<T> {
    fn from(items: Vec<T>) -> Self {
        match items.len() {
            0..=2 => items.into_iter().collect(),
            _ => Few(Held::Many(items.into_boxed_slice())),
        }
    }
}

impl<'a, T> IntoIterator for &'a Few<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq> PartialEq for Few<T> {
    fn eq(&self, other: &Few<T>) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for Few<T> {}

impl<T: PartialEq> PartialEq<Vec<T>> for Few<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == **other
    }
}

impl<T: fmt::Debug> fmt::Debug for Few<T> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Serialize> Serialize for Few<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Few<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Few<T>, D::Error> {
        Vec::<T>::deserialize(deserializer).map(Few::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Few;

    /// Any length reads, compares and serializes as the vector it was made from, whether it was
    /// collected or converted.
    #[test]
    fn a_short_list_reads_as_its_vector() {
        for len in 0..6u32 {
            let items: Vec<u32> = (0..len).collect();
            let collected: Few<u32> = items.iter().copied().collect();
            let converted = Few::from(items.clone());
            for few in [&collected, &converted] {
                assert_eq!(**few, *items);
                assert_eq!(*few, items);
                assert_eq!(few.clone(), collected);
                assert_eq!(format!("{few:?}"), format!("{items:?}"));
                let json = serde_json::to_string(few).expect("serializes");
                assert_eq!(json, serde_json::to_string(&items).expect("serializes"));
                let back: Few<u32> = serde_json::from_str(&json).expect("reads back");
                assert_eq!(back, *few);
                assert!(few.into_iter().eq(items.iter()));
            }
        }
    }
}
