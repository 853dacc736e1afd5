//! Shared, immutable text: what the world's records hold (operation ids, keys, payloads,
//! receipts, results).
//!
//! A record's texts are copied far more often than they are made: into the change an event logs,
//! into each checkpoint's chunk a change touches, and into every state `Trace::state_at`
//! rebuilds. A `Text` is a counted reference, so a copy counts one more reference instead of
//! allocating and copying the bytes, and dropping a copy frees nothing while another remains.
//! It reads, compares, orders, hashes and serializes exactly as the `str` it holds, so a trace's
//! JSON and a state's fingerprint are the same as with `String`.
//!
//! It is one pointer wide, where an `Rc<str>` is two (a pointer and a length): an
//! [`arcstr::ArcStr`] keeps its count and length in front of the bytes, in the text's one
//! allocation. Events, messages, changes and rows hold a dozen texts between them for every
//! event a trace keeps, so this halves the bytes they spend on texts (`make bench` prints the
//! trace's bytes per event). Its count is atomic; in the browser (WebAssembly without threads)
//! an atomic count is a plain one.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

use arcstr::ArcStr;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An immutable text whose copies share their bytes.
pub struct Text(ArcStr);

/// `clone_from` onto a copy of the same text changes nothing: an explorer copies engines into
/// ones it no longer needs, whose texts are mostly the very ones copied (a count that is atomic
/// natively, up and down again, for nothing).
impl Clone for Text {
    #[inline]
    fn clone(&self) -> Self {
        Text(self.0.clone())
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        if !self.same(source) {
            self.0 = source.0.clone();
        }
    }
}

impl Text {
    /// A new text holding a copy of `text`.
    fn new(text: &str) -> Text {
        Text(ArcStr::from(text))
    }

    /// The text, borrowed.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Whether the two are copies of one text.
    fn same(&self, other: &Text) -> bool {
        ArcStr::ptr_eq(&self.0, &other.0)
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

impl Eq for Text {}

/// As the `str`, so equal texts (equal bytes, whatever their pointers) hash alike.
impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, hasher: &mut H) {
        self.as_str().hash(hasher);
    }
}

/// The empty text, shared: an outcome that will never be shown holds one, at no allocation.
impl Default for Text {
    fn default() -> Text {
        Text(ArcStr::new())
    }
}

/// Two copies of one text are equal without reading their bytes: a lookup by an operation's own
/// id (shared from the scenario) ends on the key it finds at the cost of a pointer comparison.
impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.same(other) || self.as_str() == other.as_str()
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        if self.same(other) {
            return std::cmp::Ordering::Equal;
        }
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::new(text)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::new(&text)
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Text {
        Text::new(text)
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.as_str().to_string()
    }
}

/// A `str` borrowed from this very text (an operation's id passed down by reference) is equal
/// without reading the bytes: the invariant checks compare each record they find this way.
impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        let mine = self.as_str();
        let same = std::ptr::eq(mine.as_ptr(), other.as_ptr()) && mine.len() == other.len();
        same || mine == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        *self == *other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        **self == *other.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), formatter)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), formatter)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        deserializer.deserialize_str(TextVisitor)
    }
}

/// Reads a string into a text without an intermediate `String` where the input allows.
struct TextVisitor;

impl serde::de::Visitor<'_> for TextVisitor {
    type Value = Text;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Text, E> {
        Ok(Text::from(text))
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

    /// One pointer wide (as an `Option` too), and its copies share one allocation that the
    /// last copy frees (Miri-checked in `arcstr`'s own suite): copies made and dropped in any
    /// order read the text until the last.
    #[test]
    fn a_text_is_one_pointer_and_its_copies_share_it() {
        assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Option<Text>>(),
            std::mem::size_of::<usize>()
        );
        for word in ["", "a", "receipt-OP-00001-2", &"long ".repeat(100)] {
            let first = Text::from(word);
            let mut copies: Vec<Text> = (0..10).map(|_| first.clone()).collect();
            drop(first);
            while let Some(copy) = copies.pop() {
                assert_eq!(copy.as_str(), word);
                assert!(copies.iter().all(|other| other.same(&copy)));
                if copies.len() % 3 == 0 {
                    copies.insert(0, copy.clone());
                    copies.pop();
                }
            }
            let fresh = Text::from(word.to_string());
            assert_eq!(fresh, Text::from(word), "equal bytes, two allocations");
            // The empty text is the one shared empty text, however it is made.
            assert_eq!(fresh.same(&Text::from(word)), word.is_empty());
        }
        assert_eq!(Text::default(), "");
        assert!(Text::default().same(&Text::default()));
    }
}
