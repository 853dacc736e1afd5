//! Each invariant of the run's workflow, holding or broken so far, with the event that broke it.

use std::rc::Rc;

use lab_engine::{Trace, WorkflowKind};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct InvariantsProps {
    /// The run; the verdicts shown are as they stand at `cursor` (`Trace::verdicts_at`).
    pub trace: Rc<Trace>,
    pub cursor: u32,
    /// The run's workflow: only the invariants its runs can break are listed.
    pub workflow: WorkflowKind,
    /// Go to the step of an event of this design (its number, 1-based).
    pub ongoevent: Callback<u32>,
}

#[component]
pub fn Invariants(props: &InvariantsProps) -> Html {
    let verdicts = props.trace.verdicts_at(props.cursor);
    let own = verdicts
        .iter()
        .filter(|verdict| verdict.invariant.workflows().contains(&props.workflow));
    let items = own.map(|verdict| match verdict.broken_at {
        None => html! {
            <li class="holds"><span class="status-icon" aria-hidden="true">{ "✓ " }</span>
                { verdict.invariant.statement() }<span class="verdict">{ ": holds" }</span></li>
        },
        Some(at) => html! {
            <li class="broken"><span class="status-icon" aria-hidden="true">{ "✗ " }</span>
                { verdict.invariant.statement() }
                <span class="verdict">{ ": " }
                    <button type="button" class="link-button" onclick={
                        let ongoevent = props.ongoevent.clone();
                        Callback::from(move |_: MouseEvent| ongoevent.emit(at))
                    }>{ format!("broken at event {at}") }</button>
                </span>
                if let Some(detail) = &verdict.detail {
                    <span class="detail">{ format!(" ({detail})") }</span>
                }
            </li>
        },
    });
    html! {
        <section class="invariants" aria-labelledby="invariants-title">
            <h2 id="invariants-title" class="panel-title">{ "Invariants" }</h2>
            <ul>{ for items }</ul>
        </section>
    }
}
