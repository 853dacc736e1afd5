//! Every design of the lesson side by side, at the same event: the records and what broke.

use lab_course::names::name_of;
use lab_course::DesignKind;
use lab_engine::Trace;
use yew::prelude::*;

use crate::components::record_table::RecordTable;

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// Each design's label, kind (none for a free scenario) and trace.
    pub designs: Vec<(String, Option<DesignKind>, std::rc::Rc<Trace>)>,
    /// The event to compare at (each design clamps it to its own length).
    pub cursor: u32,
    pub operations: Vec<String>,
    /// While the lesson waits for an answer: the designs after this one keep their runs to
    /// themselves (what they break would answer it).
    #[prop_or_default]
    pub hidden_after: Option<usize>,
}

#[component]
pub fn Compare(props: &CompareProps) -> Html {
    let columns = props.designs.iter().enumerate().map(|(index, (label, kind, trace))| {
        let cursor = props.cursor.min(trace.len());
        let broken: Vec<&str> = trace
            .broken_by(cursor)
            .into_iter()
            .map(|invariant| invariant.statement())
            .collect();
        let badge = kind.as_ref().map(name_of);
        if props.hidden_after.is_some_and(|current| index > current) {
            return html! {
                <div class="compare-column">
                    <h3>{ format!("Design {}", index + 1) }</h3>
                    <p class="hint">{ "Its run is shown once you answer this part's question or do its task." }</p>
                </div>
            };
        }
        html! {
            <div class="compare-column">
                <h3>
                    { format!("Design {}: {label} ", index + 1) }
                    if let Some(badge) = badge {
                        <span class={classes!("badge", badge.clone())}>{ badge }</span>
                    }
                </h3>
                <p class="meta">{ format!("after event {cursor} of {}", trace.len()) }</p>
                <RecordTable trace={std::rc::Rc::clone(trace)} {cursor} mark_changes={false} operations={props.operations.clone()} title={format!("Records, design {}", index + 1)} />
                if broken.is_empty() {
                    <p class="holds-all"><span aria-hidden="true">{ "✓ " }</span>{ "Every invariant holds so far" }</p>
                } else {
                    <ul class="broken-list" aria-label={format!("Broken in design {}", index + 1)}>
                        { for broken.iter().map(|statement| html! { <li><span aria-hidden="true">{ "✗ " }</span>{ format!("Broken: {statement}") }</li> }) }
                    </ul>
                }
            </div>
        }
    });
    html! {
        <section class="compare" aria-labelledby="compare-title">
            <h2 id="compare-title" class="panel-title">{ "Designs side by side" }</h2>
            <div class="compare-grid">{ for columns }</div>
        </section>
    }
}
