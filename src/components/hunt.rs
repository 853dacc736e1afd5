//! A hunt: the learner places one fault (where it strikes, which occurrence, which fault) on a
//! design that holds, and runs it in the lab; the task is met when an invariant breaks. Every
//! placement on offer is a fault point of the design's own run, from the checker.

use std::rc::Rc;

use lab_course::names::by_name;
use lab_course::Hunt;
use lab_engine::FaultKind;
use yew::prelude::*;

use super::fields::SelectField;
use super::task::ordinal;

#[derive(Properties, PartialEq)]
pub struct HuntBoardProps {
    pub hunt: Rc<Hunt>,
    /// The placement the lab runs now (point index, fault), if it runs one of the hunt's.
    pub shown: Option<(usize, FaultKind)>,
    /// The run on the lab breaks what the hunt asks for, first at this event.
    pub found: Option<u32>,
    pub onstrike: Callback<(usize, FaultKind)>,
}

fn fault_words(fault: FaultKind) -> String {
    fault.name().replace('_', " ")
}

fn place_words(hunt: &Hunt, point: usize) -> String {
    let point = &hunt.points[point];
    format!("{}, the {} time", point.at.name(), ordinal(point.nth))
}

#[component]
pub fn HuntBoard(props: &HuntBoardProps) -> Html {
    let hunt = &props.hunt;
    let point = use_state(|| props.shown.map_or(0, |(point, _)| point));
    let fault = use_state(|| props.shown.map(|(_, fault)| fault));
    let here = &hunt.points[(*point).min(hunt.points.len().saturating_sub(1))];
    let chosen = fault
        .filter(|fault| here.faults.contains(fault))
        .or_else(|| here.faults.first().copied());
    let points: Vec<(String, String)> = (0..hunt.points.len())
        .map(|index| (index.to_string(), place_words(hunt, index)))
        .collect();
    let faults: Vec<(String, String)> = here
        .faults
        .iter()
        .map(|&fault| (fault.name().to_string(), fault_words(fault)))
        .collect();
    let onpoint = {
        let point = point.clone();
        Callback::from(move |value: String| point.set(value.parse().unwrap_or(0)))
    };
    let onfault = {
        let fault = fault.clone();
        Callback::from(move |value: String| fault.set(by_name::<FaultKind>("fault", &value).ok()))
    };
    let onstrike = {
        let onstrike = props.onstrike.clone();
        let at = *point;
        Callback::from(move |_: MouseEvent| {
            if let Some(fault) = chosen {
                onstrike.emit((at, fault));
            }
        })
    };
    let wanted = hunt.breaks.map_or("an invariant".to_string(), |invariant| {
        format!("“{}”", invariant.statement())
    });
    let feedback = props.shown.map(|(at, fault)| {
        let placed = format!("{} at {}", fault_words(fault), place_words(hunt, at));
        match props.found {
            Some(event) => html! {
                <div class="feedback right" role="status">
                    <p><strong>{ "Found it." }</strong>{ format!(" {placed} breaks {wanted} at event {event}. Step through the run to see how.") }</p>
                    <p>{ Html::from_html_unchecked(AttrValue::from(hunt.explain_html.clone())) }</p>
                    <p>{ format!("{} of the {} placements on offer break it.", hunt.breaking, hunt.placements) }</p>
                </div>
            },
            None => html! {
                <p class="feedback" role="status">
                    <strong>{ "It holds." }</strong>
                    { format!(" With {placed}, nothing breaks {wanted}: the design survives this one. Try another place or fault.") }
                </p>
            },
        }
    });
    html! {
        <div class="hunt">
            <p class="prompt">{ Html::from_html_unchecked(AttrValue::from(hunt.prompt_html.clone())) }</p>
            <div class="hunt-picks">
                <SelectField label="Where it strikes" options={points} value={point.to_string()} onchange={onpoint} />
                <SelectField label="The fault" options={faults} value={chosen.map_or("", FaultKind::name)} onchange={onfault} />
                <button type="button" class="primary" onclick={onstrike} disabled={chosen.is_none()}>{ "Strike here" }</button>
            </div>
            { feedback.unwrap_or_default() }
        </div>
    }
}
