//! What the last step did, in words.

use std::rc::Rc;

use lab_engine::Trace;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EventCardProps {
    /// The run; the card says what the event at `cursor` did (nothing, at cursor 0).
    pub trace: Rc<Trace>,
    pub cursor: u32,
}

#[component]
pub fn EventCard(props: &EventCardProps) -> Html {
    let trace = &props.trace;
    let events = trace.len();
    let event = props
        .cursor
        .checked_sub(1)
        .and_then(|index| trace.events.get(index as usize));
    let body = match event {
        None => html! {
            <p>{ format!("Nothing has happened yet. This design runs {events} events; press Next to run the first.") }</p>
        },
        Some(event) => {
            let name = |id: &str| {
                trace
                    .lanes
                    .iter()
                    .find(|lane| lane.id == id)
                    .map(|lane| lane.label.clone())
                    .unwrap_or_else(|| id.to_string())
            };
            let messages = event.messages.iter().map(|message| {
                let lost = message.lost.then(|| html! { <strong class="lost">{ " (lost)" }</strong> });
                html! { <li>{ format!("{} → {}: {}", name(&message.from), name(&message.to), event.label_text(message)) }{ lost }</li> }
            });
            let broke = event.broke.iter().map(|invariant| html! {
                <p class="broke" role="alert"><span aria-hidden="true">{ "⚠ " }</span>{ format!("Invariant broken: {}", invariant.statement()) }</p>
            });
            html! {
                <>
                    <p class="event-head">
                        <span class="event-index">{ format!("Event {} of {events}", event.index) }</span>
                        <span class="event-tick">{ format!("tick {}", event.tick) }</span>
                        if let Some(fault) = event.fault {
                            <span class="badge fault">{ format!("fault: {}", fault.name().replace('_', " ")) }</span>
                        }
                    </p>
                    <p class="event-line">
                        <strong>{ event.actor.to_string() }</strong>{ " · " }<code>{ event.action.name() }</code>
                        { format!(" · {}", event.op) }
                    </p>
                    <p class="event-outcome">{ event.outcome_text() }</p>
                    if !event.messages.is_empty() {
                        <ul class="messages" aria-label="Messages">{ for messages }</ul>
                    }
                    { for broke }
                </>
            }
        }
    };
    html! {
        <section class="event-card" aria-label="What just happened" aria-live="polite">
            <h2 class="panel-title">{ "What just happened" }</h2>
            { body }
        </section>
    }
}
