//! The workflow's code, as the sources write it, with the line being executed marked.

use std::rc::Rc;

use lab_engine::Trace;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    /// The run; the line marked is the one of the event at `cursor`.
    pub trace: Rc<Trace>,
    pub cursor: u32,
    /// A "find the line" task is on: every line is a button that picks it (its text, trimmed).
    #[prop_or_default]
    pub onpick: Option<Callback<String>>,
    /// The line picked, trimmed.
    #[prop_or_default]
    pub picked: Option<AttrValue>,
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
        let trimmed = text.trim().to_string();
        if let Some(onpick) = props.onpick.clone().filter(|_| !trimmed.is_empty()) {
            let picked = props.picked.as_deref() == Some(trimmed.as_str());
            let label = format!("Line {}: {trimmed}", index + 1);
            let onclick = Callback::from(move |_: MouseEvent| onpick.emit(trimmed.clone()));
            return html! {
                <button type="button" class={classes!("code-line", "pickable", current.then_some("current"), picked.then_some("picked"))}
                    aria-pressed={picked.to_string()} aria-label={label} {onclick}>
                    <span class="line-number" aria-hidden="true">{ format!("{:>2} ", index + 1) }</span>
                    <span class="marker" aria-hidden="true">{ if current { "▶ " } else { "  " } }</span>
                    { text.clone() }
                    { "\n" }
                </button>
            };
        }
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
            if props.onpick.is_some() {
                <p class="pick-hint" id="pick-hint">{ "Pick the line that is wrong: each line is a button." }</p>
            }
            <pre aria-labelledby="code-title" tabindex="0"><code>{ for lines }</code></pre>
        </section>
    }
}
