//! Each invariant the run's scenario can break, holding or broken so far, with the event that
//! broke it.

use std::rc::Rc;
use std::sync::Arc;

use lab_engine::{Scenario, Trace};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct InvariantsProps {
    /// The run; the verdicts shown are as they stand at `cursor` (`Trace::verdicts_at`).
    pub trace: Rc<Trace>,
    pub cursor: u32,
    /// The run's scenario: only the invariants its runs can break are listed
    /// (`Invariant::applies`).
    pub scenario: Arc<Scenario>,
    /// Go to the step of an event of this design (its number, 1-based).
    pub ongoevent: Callback<u32>,
}

#[component]
pub fn Invariants(props: &InvariantsProps) -> Html {
    let verdicts = props.trace.verdicts_at(props.cursor);
    let own = verdicts
        .iter()
        .filter(|verdict| verdict.invariant.applies(&props.scenario));
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
