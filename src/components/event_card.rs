//! What the last step did, in words.

use lab_engine::Event;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EventCardProps {
    /// The event just executed; `None` before the first.
    pub event: Option<Event>,
    pub cursor: u32,
    pub events: u32,
    /// Lane ids and the names to show for them.
    pub lanes: Vec<(String, String)>,
}

#[component]
pub fn EventCard(props: &EventCardProps) -> Html {
    let body = match &props.event {
        None => html! {
            <p>{ format!("Nothing has happened yet. This design runs {} events; press Next to run the first.", props.events) }</p>
        },
        Some(event) => {
            let name = |id: &str| {
                props
                    .lanes
                    .iter()
                    .find(|(lane, _)| lane == id)
                    .map(|(_, label)| label.clone())
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
                        <span class="event-index">{ format!("Event {} of {}", event.index, props.events) }</span>
                        <span class="event-tick">{ format!("tick {}", event.tick) }</span>
                        if let Some(fault) = event.fault {
                            <span class="badge fault">{ format!("fault: {}", fault.name().replace('_', " ")) }</span>
                        }
                    </p>
                    <p class="event-line">
                        <strong>{ event.actor.clone() }</strong>{ " · " }<code>{ event.action.name() }</code>
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
