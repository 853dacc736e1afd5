//! Shared, immutable text: what the world's records hold (operation ids, keys, payloads,
//! receipts, results).
//!
//! A record's texts are copied far more often than they are made: into the change an event logs,
//! into each checkpoint's chunk a change touches, and into every state `Trace::state_at`
//! rebuilds. A `Text` is a counted reference, so a copy counts one more reference instead of
//! allocating and copying the bytes, and dropping a copy frees nothing while another remains.
//! It reads, compares, orders, hashes and serializes exactly as the `str` it holds, so a trace's
//! JSON and a state's fingerprint are the same as with `String`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An immutable text whose copies share their bytes.
#[derive(Clone, Eq)]
pub struct Text(Rc<str>);

/// As the `str`, so equal texts (equal bytes, whatever their pointers) hash alike.
impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        self.0.hash(hasher);
    }
}

/// The empty text, shared: an outcome that will never be shown holds one, at no allocation.
impl Default for Text {
    fn default() -> Text {
        thread_local! {
            static EMPTY: Text = Text(Rc::from(""));
        }
        EMPTY.with(Text::clone)
    }
}

/// Two copies of one text are equal without reading their bytes: a lookup by an operation's own
/// id (shared from the scenario) ends on the key it finds at the cost of a pointer comparison.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Text {
    /// The text, borrowed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A fixed word of the code (a result, a sink, a stage): made once per thread and shared
    /// after, so a step that records one allocates nothing for it.
    pub(crate) fn fixed(word: &'static str) -> Text {
        thread_local! {
            /// Few: the fixed words the workflows use.
            static FIXED: std::cell::RefCell<Vec<(&'static str, Text)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        FIXED.with_borrow_mut(|fixed| {
            // A word is most often the same literal as before: its address finds it without
            // reading its bytes; another copy of the same word is found by its bytes.
            let same = fixed
                .iter()
                .find(|(known, _)| std::ptr::eq(*known, word))
                .or_else(|| fixed.iter().find(|(known, _)| *known == word));
            if let Some((_, text)) = same {
                return text.clone();
            }
            let text = Text::from(word);
            fixed.push((word, text.clone()));
            text
        })
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(text.into())
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(text.into())
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Text {
        Text(text.as_str().into())
    }
}

/// Shares the reference: no copy of the bytes.
impl From<Rc<str>> for Text {
    fn from(text: Rc<str>) -> Text {
        Text(text)
    }
}

/// Shares the reference: no copy of the bytes.
impl From<&Rc<str>> for Text {
    fn from(text: &Rc<str>) -> Text {
        Text(Rc::clone(text))
    }
}

impl From<Text> for Rc<str> {
    fn from(text: Text) -> Rc<str> {
        text.0
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.0.to_string()
    }
}

/// A `str` borrowed from this very text (an operation's id passed down by reference) is equal
/// without reading the bytes: the invariant checks compare each record they find this way.
impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        let same = std::ptr::eq(self.0.as_ptr(), other.as_ptr()) && self.0.len() == other.len();
        same || *self.0 == *other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.0
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, formatter)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, formatter)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        String::deserialize(deserializer).map(Text::from)
    }
}

#[cfg(test)]
mod tests {
    use super::Text;
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

    /// A text orders, hashes, prints and serializes as the `str` it holds, so swapping it for a
    /// `String` changes no trace, no fingerprint and no ordered map's order.
    #[test]
    fn a_text_behaves_as_its_str() {
        let words = ["b", "a", "", "ab", "é", "a\"quote"];
        let hasher = BuildHasherDefault::<DefaultHasher>::default();
        for word in words {
            let text = Text::from(word);
            assert_eq!(text, word);
            assert_eq!(word, text);
            assert_eq!(hasher.hash_one(&text), hasher.hash_one(word));
            assert_eq!(hasher.hash_one(&text), hasher.hash_one(word.to_string()));
            assert_eq!(format!("{text:?}"), format!("{word:?}"));
            assert_eq!(format!("{text}"), word);
            let json = serde_json::to_string(&text).expect("serializes");
            assert_eq!(json, serde_json::to_string(word).expect("serializes"));
            let back: Text = serde_json::from_str(&json).expect("reads back");
            assert_eq!(back, text);
            for other in words {
                assert_eq!(text.cmp(&Text::from(other)), word.cmp(other));
            }
        }
    }
}
