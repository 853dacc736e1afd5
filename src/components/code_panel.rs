//! The workflow's code, as the sources write it, with the line being executed marked.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodePanelProps {
    pub code: Vec<String>,
    /// The 0-based line of the current event, if it has one.
    pub line: Option<u16>,
}

#[component]
pub fn CodePanel(props: &CodePanelProps) -> Html {
    let lines = props.code.iter().enumerate().map(|(index, text)| {
        let current = props.line == Some(index as u16);
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
            <pre aria-labelledby="code-title" tabindex="0"><code>{ for lines }</code></pre>
        </section>
    }
}
