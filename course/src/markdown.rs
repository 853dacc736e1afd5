//! Markdown, the lessons' subset: to HTML with raw HTML escaped (lessons, at build time), and to
//! a [`Rich`] tree (what an instructor writes in a challenge, in the second module), with only
//! the addresses [`unsafe_address`] allows. Feature `markdown`.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

pub use crate::rich::unsafe_address;
use crate::rich::{Passage, Rich, Span};

/// Markdown to HTML. Raw HTML in the source is escaped, never passed through.
pub fn markdown(source: &str) -> String {
    let mut out = String::new();
    html::push_html(&mut out, safe_events(source));
    out
}

/// One paragraph of Markdown to HTML without the paragraph around it (question texts).
pub fn inline_markdown(source: &str) -> String {
    let html = markdown(source);
    let trimmed = html.trim_end();
    match trimmed
        .strip_prefix("<p>")
        .and_then(|rest| rest.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => html,
    }
}

/// The text of Markdown with its markup removed (for accessible names).
pub fn plain_text(source: &str) -> String {
    let mut out = String::new();
    for event in safe_events(source) {
        match event {
            Event::Text(text) | Event::Code(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    out
}

/// The parser's events with nothing that could run or fetch: raw HTML becomes text, and a link
/// or image whose address is not safe (see [`unsafe_address`]) becomes its plain text. The
/// checker refuses such addresses with file and line; this is the second line of defence.
fn safe_events(source: &str) -> impl Iterator<Item = Event<'_>> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    // For each open link or image, whether its tags were dropped.
    let mut dropped: Vec<bool> = Vec::new();
    Parser::new_ext(source, options).filter_map(move |event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => {
            Some(Event::Text(CowStr::from(raw.into_string())))
        }
        Event::Start(Tag::Link { ref dest_url, .. }) => {
            let drop = unsafe_address(dest_url, false).is_some();
            dropped.push(drop);
            (!drop).then_some(event)
        }
        Event::Start(Tag::Image { ref dest_url, .. }) => {
            let drop = unsafe_address(dest_url, true).is_some();
            dropped.push(drop);
            (!drop).then_some(event)
        }
        Event::End(TagEnd::Link | TagEnd::Image) => {
            let drop = dropped.pop().unwrap_or(false);
            (!drop).then_some(event)
        }
        other => Some(other),
    })
}

/// Every unsafe link or image address in a Markdown text: the reason, and the byte offset in
/// the text where its markup starts.
pub fn unsafe_addresses(source: &str) -> Vec<(usize, String)> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    Parser::new_ext(source, options)
        .into_offset_iter()
        .filter_map(|(event, range)| match event {
            Event::Start(Tag::Link { dest_url, .. }) => {
                unsafe_address(&dest_url, false).map(|why| (range.start, why))
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                unsafe_address(&dest_url, true).map(|why| (range.start, why))
            }
            _ => None,
        })
        .collect()
}

/// Markdown to a [`Rich`] tree: the same safe events as [`markdown`] (raw HTML as text, an
/// unsafe link as its text), with images as their text (nothing an instructor writes may fetch)
/// and a table's cells as one paragraph a row.
pub fn rich(source: &str) -> Rich {
    /// An open container: the passages or spans gathered inside it so far.
    enum Open {
        Passages(Vec<Passage>),
        Quote(Vec<Passage>),
        List {
            numbered: bool,
            items: Vec<Vec<Passage>>,
        },
        Item(Vec<Passage>, Vec<Span>),
        Spans(Vec<Span>),
        Heading(Vec<Span>),
        Emphasis(Vec<Span>),
        Strong(Vec<Span>),
        Struck(Vec<Span>),
        Link(String, Vec<Span>),
        Code(String),
    }
    fn push_span(stack: &mut [Open], span: Span) {
        match stack.last_mut() {
            Some(
                Open::Spans(spans)
                | Open::Heading(spans)
                | Open::Emphasis(spans)
                | Open::Strong(spans)
                | Open::Struck(spans)
                | Open::Link(_, spans)
                | Open::Item(_, spans),
            ) => spans.push(span),
            Some(Open::Code(code)) => {
                if let Span::Text(text) = span {
                    code.push_str(&text)
                }
            }
            // Text outside a paragraph (a tight list item's) opens one.
            Some(Open::Passages(passages) | Open::Quote(passages)) => {
                passages.push(Passage::Paragraph(vec![span]))
            }
            Some(Open::List { .. }) | None => {}
        }
    }
    fn push_passage(stack: &mut [Open], passage: Passage) {
        match stack.last_mut() {
            Some(Open::Passages(passages) | Open::Quote(passages)) => passages.push(passage),
            Some(Open::Item(passages, spans)) => {
                if !spans.is_empty() {
                    passages.push(Passage::Paragraph(std::mem::take(spans)));
                }
                passages.push(passage);
            }
            _ => {}
        }
    }
    let mut stack = vec![Open::Passages(Vec::new())];
    for event in safe_events(source) {
        match event {
            Event::Start(tag) => stack.push(match tag {
                Tag::Paragraph | Tag::TableRow | Tag::TableHead => Open::Spans(Vec::new()),
                Tag::Heading { .. } => Open::Heading(Vec::new()),
                Tag::BlockQuote(_) => Open::Quote(Vec::new()),
                Tag::CodeBlock(_) => Open::Code(String::new()),
                Tag::List(first) => Open::List {
                    numbered: first.is_some(),
                    items: Vec::new(),
                },
                Tag::Item => Open::Item(Vec::new(), Vec::new()),
                Tag::Emphasis => Open::Emphasis(Vec::new()),
                Tag::Strong => Open::Strong(Vec::new()),
                Tag::Strikethrough => Open::Struck(Vec::new()),
                Tag::Link { dest_url, .. } => Open::Link(dest_url.to_string(), Vec::new()),
                // An image is its text; a table, its rows.
                _ => Open::Spans(Vec::new()),
            }),
            Event::End(end) => {
                let Some(open) = stack.pop() else { break };
                match (open, end) {
                    (
                        Open::Spans(spans),
                        TagEnd::Paragraph | TagEnd::TableRow | TagEnd::TableHead,
                    ) => push_passage(&mut stack, Passage::Paragraph(spans)),
                    (Open::Heading(spans), _) => push_passage(&mut stack, Passage::Heading(spans)),
                    (Open::Quote(passages), _) => {
                        push_passage(&mut stack, Passage::Quote(passages))
                    }
                    (Open::Code(code), _) => push_passage(&mut stack, Passage::Code(code)),
                    (Open::List { numbered, items }, _) => {
                        push_passage(&mut stack, Passage::List { numbered, items })
                    }
                    (Open::Item(mut passages, spans), _) => {
                        if !spans.is_empty() {
                            passages.push(Passage::Paragraph(spans));
                        }
                        if let Some(Open::List { items, .. }) = stack.last_mut() {
                            items.push(passages);
                        }
                    }
                    (Open::Emphasis(spans), _) => push_span(&mut stack, Span::Emphasis(spans)),
                    (Open::Strong(spans), _) => push_span(&mut stack, Span::Strong(spans)),
                    (Open::Struck(spans), _) => push_span(&mut stack, Span::Struck(spans)),
                    (Open::Link(address, text), _) => {
                        push_span(&mut stack, Span::Link { address, text })
                    }
                    // A table cell, an image: their text joins what is around them.
                    (Open::Spans(spans), TagEnd::TableCell) => {
                        for span in spans {
                            push_span(&mut stack, span);
                        }
                        push_span(&mut stack, Span::Text(" ".into()));
                    }
                    (Open::Spans(spans), _) => {
                        for span in spans {
                            push_span(&mut stack, span);
                        }
                    }
                    (Open::Passages(passages), _) => {
                        for passage in passages {
                            push_passage(&mut stack, passage);
                        }
                    }
                }
            }
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                push_span(&mut stack, Span::Text(text.into_string()))
            }
            Event::Code(code) => push_span(&mut stack, Span::Code(code.into_string())),
            Event::SoftBreak => push_span(&mut stack, Span::Text(" ".into())),
            Event::HardBreak => push_span(&mut stack, Span::Break),
            _ => {}
        }
    }
    match stack.into_iter().next() {
        Some(Open::Passages(passages)) => Rich(passages),
        _ => Rich::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_links_render_as_text_and_are_reported() {
        let source =
            "[a](javascript:alert(1)) [b](&#106;avascript:alert(2)) <javascript:alert(3)> \
                      [c](https://example.org) ![d](https://example.org/x.png) ![e](e.png)";
        let html = markdown(source);
        assert!(!html.to_lowercase().contains("href=\"javascript"), "{html}");
        assert!(!html.contains("<a href=\"&"), "{html}");
        assert!(!html.contains("example.org/x.png"), "{html}");
        assert!(
            html.contains("<a href=\"https://example.org\">c</a>"),
            "{html}"
        );
        assert!(html.contains("<img src=\"e.png\" alt=\"e\""), "{html}");
        assert!(
            html.contains('a') && html.contains('d'),
            "the text stays: {html}"
        );
        let found: Vec<String> = unsafe_addresses(source)
            .into_iter()
            .map(|(_, why)| why)
            .collect();
        assert_eq!(found.len(), 4, "{found:?}");
    }

    #[test]
    fn rich_text_keeps_the_subset_and_drops_what_could_run() {
        let rich = super::rich(
            "## Goal\n\nCharge **once**, with `key`; see [the lab](https://example.org) \
             and [x](javascript:alert(1)) <script>alert(2)</script> ![pic](https://e.org/a.png)\n\n\
             - one\n- *two*\n\n1. first\n\n> quoted\n\n```\ncode <b>\n```\n",
        );
        let Rich(passages) = &rich;
        assert_eq!(
            passages[0],
            Passage::Heading(vec![Span::Text("Goal".into())])
        );
        let Passage::Paragraph(spans) = &passages[1] else {
            panic!("{passages:?}")
        };
        assert!(spans.contains(&Span::Strong(vec![Span::Text("once".into())])));
        assert!(spans.contains(&Span::Code("key".into())));
        assert!(spans.contains(&Span::Link {
            address: "https://example.org".into(),
            text: vec![Span::Text("the lab".into())]
        }));
        let links = spans
            .iter()
            .filter(|span| matches!(span, Span::Link { .. }))
            .count();
        assert_eq!(links, 1, "the javascript: link is its text: {spans:?}");
        assert!(spans.contains(&Span::Text("<script>".into())), "{spans:?}");
        assert!(
            matches!(&passages[2], Passage::List { numbered: false, items } if items.len() == 2)
        );
        assert!(
            matches!(&passages[3], Passage::List { numbered: true, items } if items.len() == 1)
        );
        assert!(matches!(&passages[4], Passage::Quote(_)));
        assert_eq!(passages[5], Passage::Code("code <b>\n".into()));
        let plain = rich.plain();
        assert!(
            plain.contains("pic") && !plain.contains("e.org/a.png"),
            "{plain}"
        );
    }

    #[test]
    fn raw_html_is_escaped() {
        let html = markdown("Hello <script>alert(1)</script> and <b>bold</b>");
        assert!(
            !html.contains("<script>") && !html.contains("<b>"),
            "{html}"
        );
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn inline_markdown_drops_the_paragraph() {
        assert_eq!(inline_markdown("a `b` *c*"), "a <code>b</code> <em>c</em>");
        assert_eq!(plain_text("a `b` *c*"), "a b c");
    }
}
