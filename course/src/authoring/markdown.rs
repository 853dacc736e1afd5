//! Markdown: narrative to HTML with raw HTML escaped, and the addresses a lesson may link to.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

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
