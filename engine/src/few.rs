//! A short list held in place: an event's messages and changes.
//!
//! A trace keeps a list of messages and a list of changes for every event, and almost every one
//! holds one or two. As boxed slices they were two allocations an event, each freed one by one
//! when the trace goes: at 10,000 records, on memory long out of the cache, freeing them was the
//! largest cost that grew with the records (`malloc_consolidate` and `unlink_chunk` in a
//! profile). Here up to two items sit in the event itself, and only a longer list allocates
//! (`smallvec`, which reads as a slice and serializes as a list).

/// Up to two items in place, more on the heap. Reads as a slice, and compares, prints and
/// serializes as one.
pub type Few<T> = smallvec::SmallVec<[T; 2]>;
