//! The workflow's code, as the sources write it, with the line being executed marked.

use std::rc::Rc;

use lab_engine::Trace;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    /// The run; the line marked is the one of the event at `cursor`.
    pub trace: Rc<Trace>,
    pub cursor: u32,
}

#[component]
pub fn CodePanel(props: &CodePanelProps) -> Html {
    let trace = &props.trace;
    let line = props
        .cursor
        .checked_sub(1)
        .and_then(|index| trace.events.get(index as usize))
        .and_then(|event| event.line);
    let lines = trace.code.iter().enumerate().map(|(index, text)| {
        let current = line == Some(index as u16);
        html! {
            <span class={classes!("code-line", current.then_some("current"))} aria-current={current.then_some("true")}>
                <span class="line-number" aria-hidden="true">{ format!("{:>2} ", index + 1) }</span>
                <span class="marker" aria-hidden="true">{ if current { "▶ " } else { "  " } }</span>
                { text.clone() }
                if current {
                    <span class="visually-hidden">{ " (current line)" }</span>
                }
                { "\n" }
            </span>
        }
    });
    html! {
        <section class="code-panel" aria-labelledby="code-title">
            <h2 id="code-title" class="panel-title">{ "Code" }</h2>
            <pre aria-labelledby="code-title"><code>{ for lines }</code></pre>
        </section>
    }
}
