//! Text someone other than the course's authors wrote (a challenge's brief and hints), as a tree
//! the page draws with text nodes and a fixed set of elements: never parsed as HTML, so nothing
//! in it can run or fetch. `markdown::rich` (feature `markdown`, in the second module) makes it
//! from the lessons' Markdown subset; the page draws it (`components::rich`). Addresses are
//! checked when the tree is made and again when it is drawn ([`unsafe_address`]).

use serde::{Deserialize, Serialize};

/// A text of passages.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rich(pub Vec<Passage>);

/// A block of text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Passage {
    Paragraph(Vec<Span>),
    /// A heading, drawn one level below the page's own headings.
    Heading(Vec<Span>),
    /// A list, numbered or not: each item its passages.
    List {
        numbered: bool,
        items: Vec<Vec<Passage>>,
    },
    /// Code, as written.
    Code(String),
    Quote(Vec<Passage>),
}

/// A run of text inside a passage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Span {
    Text(String),
    Code(String),
    Emphasis(Vec<Span>),
    Strong(Vec<Span>),
    Struck(Vec<Span>),
    /// A link whose address [`unsafe_address`] allows.
    Link {
        address: String,
        text: Vec<Span>,
    },
    Break,
}

impl Rich {
    /// The text alone, its markup dropped (an accessible name, a summary).
    pub fn plain(&self) -> String {
        fn spans(out: &mut String, list: &[Span]) {
            for span in list {
                match span {
                    Span::Text(text) | Span::Code(text) => out.push_str(text),
                    Span::Emphasis(inner) | Span::Strong(inner) | Span::Struck(inner) => {
                        spans(out, inner)
                    }
                    Span::Link { text, .. } => spans(out, text),
                    Span::Break => out.push(' '),
                }
            }
        }
        fn passages(out: &mut String, list: &[Passage]) {
            for passage in list {
                if !out.is_empty() && !out.ends_with(' ') {
                    out.push(' ');
                }
                match passage {
                    Passage::Paragraph(inner) | Passage::Heading(inner) => spans(out, inner),
                    Passage::List { items, .. } => {
                        for item in items {
                            passages(out, item);
                        }
                    }
                    Passage::Code(text) => out.push_str(text.trim_end()),
                    Passage::Quote(inner) => passages(out, inner),
                }
            }
        }
        let mut out = String::new();
        passages(&mut out, &self.0);
        out
    }
}

/// Why an address may not appear in a lesson, or `None` when it may. A link may be relative
/// (including the app's own `#/…` routes), `https:` or `mailto:`; an image only relative, so a
/// lesson never fetches from elsewhere. Checked as a browser reads it: after entity decoding
/// (the Markdown parser's), with whitespace and control characters removed, in any letter case.
pub fn unsafe_address(address: &str, image: bool) -> Option<String> {
    let cleaned: String = address
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect::<String>()
        .to_ascii_lowercase()
        // Browsers read a backslash as a slash in web addresses: `/\\host` means `//host`.
        .replace('\\', "/");
    let scheme = cleaned
        .find([':', '/', '?', '#'])
        .filter(|&end| cleaned[end..].starts_with(':'))
        .map(|end| &cleaned[..end]);
    let elsewhere = cleaned.starts_with("//");
    match (scheme, image) {
        (None, _) if !elsewhere => None,
        (None, true) => Some(format!("image \"{address}\" would load from another host; images must be files beside the lesson (a relative address)")),
        (None, false) => Some(format!("link \"{address}\" has no scheme but names another host; write https://…")),
        (Some(_), true) => Some(format!("image \"{address}\" is not a relative address; images must be files beside the lesson, never fetched from elsewhere")),
        (Some("https" | "mailto"), false) => None,
        (Some(scheme), false) => Some(format!("link \"{address}\" uses {scheme}:, which is not allowed; links may be relative, #/…, https: or mailto:")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_addresses_are_allowed() {
        for allowed in [
            "https://example.org/x",
            "HTTPS://example.org",
            "mailto:teacher@example.org",
            "#/lesson/lost-reply",
            "other-lesson.md",
            "./notes/a.txt?x=1#y",
        ] {
            assert_eq!(unsafe_address(allowed, false), None, "{allowed}");
        }
        for refused in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            " java\tscript:alert(1)",
            "java\u{0}script:alert(1)",
            "data:text/html,<b>x</b>",
            "vbscript:x",
            "http://example.org",
            "//evil.example",
            "/\\evil.example",
            "file:///etc/passwd",
        ] {
            assert!(unsafe_address(refused, false).is_some(), "{refused:?}");
        }
        assert_eq!(unsafe_address("diagram.svg", true), None);
        for refused in [
            "https://example.org/a.png",
            "//cdn.example/a.png",
            "data:image/png;base64,AA",
        ] {
            assert!(unsafe_address(refused, true).is_some(), "{refused}");
        }
    }

    #[test]
    fn the_plain_text_keeps_every_word() {
        let rich = Rich(vec![
            Passage::Heading(vec![Span::Text("Goal".into())]),
            Passage::Paragraph(vec![
                Span::Text("Charge ".into()),
                Span::Strong(vec![Span::Text("once".into())]),
                Span::Text(", key ".into()),
                Span::Code("order-17".into()),
            ]),
            Passage::List {
                numbered: false,
                items: vec![vec![Passage::Paragraph(vec![Span::Text("a".into())])]],
            },
        ]);
        assert_eq!(rich.plain(), "Goal Charge once, key order-17 a");
    }
}
