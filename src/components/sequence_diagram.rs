//! The run so far as a sequence diagram: one lane per actor, an arrow per message, a lost message
//! drawn broken with a mark, a crash marked on its lane, the current event highlighted. The event
//! list below it is the same content as text.

use std::rc::Rc;

use lab_engine::{Event, FaultKind, Lane, Trace};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SequenceDiagramProps {
    /// The run; the diagram shows its events up to the cursor. Shared, not copied.
    pub trace: Rc<Trace>,
    pub cursor: u32,
    /// Draw only this many events before the cursor (a run of thousands stays quick to draw);
    /// every event when absent.
    #[prop_or_default]
    pub window: Option<u32>,
}

const LANE_WIDTH: i32 = 150;
const HEADER_HEIGHT: i32 = 36;
const ROW_HEIGHT: i32 = 40;

fn lane_x(index: usize) -> i32 {
    LANE_WIDTH / 2 + index as i32 * LANE_WIDTH
}

fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max - 1).collect();
    format!("{cut}…")
}

fn arrow(from: i32, to: i32, y: i32, label: &str, lost: bool) -> Html {
    let direction = if to >= from { 1 } else { -1 };
    // A lost message stops halfway, with a cross where it vanished.
    let end = if lost {
        from + (to - from) / 2
    } else {
        to - direction * 6
    };
    let head = if lost {
        html! {
            <g class="lost-mark">
                <line x1={(end - 5).to_string()} y1={(y - 5).to_string()} x2={(end + 5).to_string()} y2={(y + 5).to_string()} />
                <line x1={(end - 5).to_string()} y1={(y + 5).to_string()} x2={(end + 5).to_string()} y2={(y - 5).to_string()} />
            </g>
        }
    } else {
        let points = format!(
            "{},{} {},{} {},{}",
            to,
            y,
            to - direction * 8,
            y - 4,
            to - direction * 8,
            y + 4
        );
        html! { <polygon class="arrow-head" points={points} /> }
    };
    let label_x = (from + to) / 2;
    html! {
        <g class={classes!("message", lost.then_some("lost"))}>
            <line x1={from.to_string()} y1={y.to_string()} x2={end.to_string()} y2={y.to_string()} />
            { head }
            <text x={label_x.to_string()} y={(y - 4).to_string()} text-anchor="middle">
                { short(label, 24) }{ if lost { " (lost)" } else { "" } }
            </text>
        </g>
    }
}

fn row(lanes: &[Lane], event: &Event, index: usize, current: bool) -> Html {
    let top = HEADER_HEIGHT + index as i32 * ROW_HEIGHT;
    let position = |id: &str| lanes.iter().position(|lane| lane.id == id);
    // The engine names the actor's lane; a trace always lists it.
    let actor = lane_x(position(&event.lane).unwrap_or(0));
    let lane_of = |id: &str| position(id).map(lane_x).unwrap_or(actor);
    let width = lanes.len() as i32 * LANE_WIDTH;
    let messages: Vec<Html> = event
        .messages
        .iter()
        .enumerate()
        .map(|(position, message)| {
            let y = top + 16 + position as i32 * 14;
            arrow(
                lane_of(&message.from),
                lane_of(&message.to),
                y,
                &event.label_text(message),
                message.lost,
            )
        })
        .collect();
    let crash = event.fault == Some(FaultKind::Crash);
    let note = if event.messages.is_empty() {
        let text = if crash {
            "✗ crash".to_string()
        } else {
            short(event.action.name(), 18)
        };
        html! {
            <g class={classes!("note", crash.then_some("crash"))}>
                <rect x={(actor - 48).to_string()} y={(top + 8).to_string()} width="96" height="22" rx="4" />
                <text x={actor.to_string()} y={(top + 23).to_string()} text-anchor="middle">{ text }</text>
            </g>
        }
    } else {
        html! {}
    };
    // Every fault is marked where it struck, under the event's number, in words.
    let fault = event.fault.map(|fault| {
        html! {
            <text class="fault-mark" x="4" y={(top + 30).to_string()}>{ format!("⚡ {}", short(&fault.name().replace('_', " "), 14)) }</text>
        }
    });
    html! {
        <g class={classes!("event-row", current.then_some("current"), event.fault.is_some().then_some("faulted"))} id={format!("diagram-event-{}", event.index)}>
            <rect class="row-band" x="0" y={top.to_string()} width={width.to_string()} height={ROW_HEIGHT.to_string()} />
            <text class="event-number" x="4" y={(top + 14).to_string()}>{ event.index }</text>
            { fault.unwrap_or_default() }
            { for messages }
            { note }
        </g>
    }
}

#[component]
pub fn SequenceDiagram(props: &SequenceDiagramProps) -> Html {
    let end = (props.cursor as usize).min(props.trace.events.len());
    let start = props
        .window
        .map_or(0, |window| end.saturating_sub(window as usize));
    let shown = &props.trace.events[start..end];
    let cursor = props.cursor;
    let scroller = use_node_ref();
    {
        // Keep the current event in view inside the diagram's own box; never scroll the page.
        let scroller = scroller.clone();
        let rows = shown.len() as i32;
        let width = (props.trace.lanes.len() as i32 * LANE_WIDTH).max(LANE_WIDTH);
        use_effect_with(cursor, move |_| {
            if let Some(scroller) = scroller.cast::<web_sys::Element>() {
                let scale = f64::from(scroller.client_width().max(1)) / f64::from(width);
                let scale = scale.min(1.0);
                let bottom = f64::from(HEADER_HEIGHT + rows * ROW_HEIGHT + 8) * scale;
                let target = (bottom - f64::from(scroller.client_height())).max(0.0);
                scroller.set_scroll_top(target as i32);
            }
        });
    }
    let width = (props.trace.lanes.len() as i32 * LANE_WIDTH).max(LANE_WIDTH);
    let height = HEADER_HEIGHT + shown.len().max(1) as i32 * ROW_HEIGHT + 8;
    let heads = props.trace.lanes.iter().enumerate().map(|(index, lane)| {
        let x = lane_x(index);
        html! {
            <g class="lane">
                <text class="lane-label" x={x.to_string()} y="20" text-anchor="middle">{ short(&lane.label, 20) }</text>
                <line class="lifeline" x1={x.to_string()} y1="28" x2={x.to_string()} y2={height.to_string()} />
            </g>
        }
    });
    let rows = shown
        .iter()
        .enumerate()
        .map(|(index, event)| row(&props.trace.lanes, event, index, event.index == cursor));
    let items = shown.iter().map(|event| {
        let fault = event.fault.map(|fault| format!(" [fault: {}]", fault.name().replace('_', " "))).unwrap_or_default();
        let lost = event.messages.iter().any(|message| message.lost);
        html! {
            <li aria-current={(event.index == cursor).then_some("step")}>
                { format!("{}. {} · {} · {}{}{}", event.index, event.actor, event.action.name(), event.outcome_text(), fault, if lost { " (a message was lost)" } else { "" }) }
            </li>
        }
    });
    let faults = shown.iter().filter(|event| event.fault.is_some()).count();
    let marked = match faults {
        0 => String::new(),
        1 => ", 1 fault marked".to_string(),
        count => format!(", {count} faults marked"),
    };
    let label = format!(
        "Sequence diagram of events {} to {} between {}{marked}",
        start + 1,
        end,
        props
            .trace
            .lanes
            .iter()
            .map(|lane| lane.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    html! {
        <section class="diagram" aria-labelledby="diagram-title">
            <h2 id="diagram-title" class="panel-title">{ "Sequence diagram" }</h2>
            <div class="diagram-scroll" ref={scroller} tabindex="0" role="group" aria-labelledby="diagram-title">
                <svg role="img" aria-label={label} viewBox={format!("0 0 {width} {height}")} width={width.to_string()}>
                    { for heads }
                    { for rows }
                </svg>
            </div>
            <details class="event-list">
                <summary>{ "Event list (text)" }</summary>
                if shown.is_empty() {
                    <p>{ "No events yet." }</p>
                } else {
                    <ol aria-label="Events so far">{ for items }</ol>
                }
            </details>
        </section>
    }
}
