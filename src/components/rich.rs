//! Text someone other than the course's authors wrote (a challenge's brief and hints), drawn from
//! its [`Rich`] tree with text nodes and a fixed set of elements: nothing in it is ever read as
//! HTML. A link goes out only to an address `lab_course::rich::unsafe_address` allows (checked
//! again here); one to another site opens in a new tab, telling that page nothing of this one.

use lab_course::rich::{unsafe_address, Passage, Rich, Span};
use yew::prelude::*;

/// The text, in a block of its own.
pub fn rich(text: &Rich) -> Html {
    html! { <div class="rich">{ passages(&text.0) }</div> }
}

/// One paragraph's spans alone, without the paragraph: a hint in a list item.
pub fn inline(text: &Rich) -> Html {
    match text.0.as_slice() {
        [Passage::Paragraph(only)] => spans(only),
        other => passages(other),
    }
}

fn passages(list: &[Passage]) -> Html {
    list.iter()
        .map(|passage| match passage {
            Passage::Paragraph(inner) => html! { <p>{ spans(inner) }</p> },
            Passage::Heading(inner) => html! { <h3>{ spans(inner) }</h3> },
            Passage::List { numbered, items } => {
                let items = items
                    .iter()
                    .map(|item| html! { <li>{ passages(item) }</li> });
                match numbered {
                    true => html! { <ol>{ for items }</ol> },
                    false => html! { <ul>{ for items }</ul> },
                }
            }
            Passage::Code(code) => html! { <pre><code>{ code.clone() }</code></pre> },
            Passage::Quote(inner) => html! { <blockquote>{ passages(inner) }</blockquote> },
        })
        .collect()
}

fn spans(list: &[Span]) -> Html {
    list.iter()
        .map(|span| match span {
            Span::Text(text) => html! { { text.clone() } },
            Span::Code(code) => html! { <code>{ code.clone() }</code> },
            Span::Emphasis(inner) => html! { <em>{ spans(inner) }</em> },
            Span::Strong(inner) => html! { <strong>{ spans(inner) }</strong> },
            Span::Struck(inner) => html! { <s>{ spans(inner) }</s> },
            // The app's own addresses open here; others in a new tab.
            Span::Link { address, text } if address.starts_with('#') => html! {
                <a href={address.clone()}>{ spans(text) }</a>
            },
            Span::Link { address, text } if unsafe_address(address, false).is_none() => html! {
                <a href={address.clone()} target="_blank" rel="noopener noreferrer">{ spans(text) }</a>
            },
            Span::Link { text, .. } => spans(text),
            Span::Break => html! { <br /> },
        })
        .collect()
}
