//! The lab: every panel of the player, driven by its reducer, for every page that shows one (a
//! lesson, the sandbox, a shared scenario, an embed). Panels take the trace of the design on show
//! and the cursor in it; nothing here runs the engine. A run of thousands of records shows as a
//! lesson's does, through windows: the records table shows the operations around the current
//! event, the diagram the events before it, the scrubber the first markers.

use std::rc::Rc;
use std::sync::Arc;

use lab_engine::Scenario;
use yew::prelude::*;

use crate::components::code_panel::CodePanel;
use crate::components::compare::Compare;
use crate::components::design_bar::DesignBar;
use crate::components::event_card::EventCard;
use crate::components::invariants::Invariants;
use crate::components::record_table::RecordTable;
use crate::components::sequence_diagram::SequenceDiagram;
use crate::components::stepper::Stepper;
use crate::components::switches::Switches;
use crate::player::explore::WhatCouldGoWrong;
use crate::player::shortcuts::Shortcuts;
use crate::player::state::{PlayerAction, PlayerState};
use crate::store::{use_app, use_app_dispatch, AppAction, Speed};

#[derive(Properties, PartialEq)]
pub struct LabProps {
    pub player: UseReducerHandle<PlayerState>,
    /// Names the downloaded run: "NAME-design-N.json".
    pub name: AttrValue,
    /// The name of the button that undoes the learner's changes.
    #[prop_or(AttrValue::from("Back to the lesson's design"))]
    pub reset_label: AttrValue,
    /// Shown under the switches: the share and explore bars of the page.
    #[prop_or_default]
    pub children: Html,
    /// A "find the line" task: the code panel's lines become buttons, and picking one says so.
    #[prop_or_default]
    pub onpick: Option<Callback<String>>,
    /// The line the learner picked, if any.
    #[prop_or_default]
    pub picked: Option<AttrValue>,
    /// Whether the learner flips the design's switches and faults here; false where the page
    /// edits the scenario itself (the sandbox's forms).
    #[prop_or(true)]
    pub switches: bool,
    /// Where a counterexample "What could go wrong?" found opens: its scenario and the event
    /// that breaks it; `None` opens it in this player.
    #[prop_or_default]
    pub onopen: Option<Callback<(Scenario, u32)>>,
}

/// Events the diagram draws before the cursor.
const DIAGRAM_WINDOW: u32 = 120;
/// Operations the records table shows around the current one.
const RECORDS_WINDOW: usize = 20;
/// Markers the scrubber lists: a run of thousands of records can have thousands of faults.
const MARKERS_MAX: usize = 30;

/// The operations the records table shows: at most `RECORDS_WINDOW`, around the operation of
/// the current event; and the position of the first.
fn shown_operations(scenario: &Scenario, current: Option<&str>) -> (Vec<String>, usize) {
    let total = scenario.operations.len();
    let at = current
        .and_then(|current| {
            scenario
                .operations
                .iter()
                .position(|operation| operation.id == current)
        })
        .unwrap_or(0);
    let first = at
        .saturating_sub(RECORDS_WINDOW / 4)
        .min(total.saturating_sub(RECORDS_WINDOW));
    let shown = scenario.operations[first..(first + RECORDS_WINDOW).min(total)]
        .iter()
        .map(|operation| operation.id.clone())
        .collect();
    (shown, first)
}

/// A callback that dispatches the action `make` builds from its argument.
fn send<T: 'static>(
    player: &UseReducerHandle<PlayerState>,
    make: impl Fn(T) -> PlayerAction + 'static,
) -> Callback<T> {
    let dispatcher = player.dispatcher();
    Callback::from(move |value: T| dispatcher.dispatch(make(value)))
}

#[component]
pub fn Lab(props: &LabProps) -> Html {
    let player = &props.player;
    let speed = use_app().settings.speed;
    let app = use_app_dispatch();
    let designs = player.designs();
    let (design, cursor) = player.located();
    let trace = player.trace();
    let traces = player.traces();
    let scenario = Arc::clone(player.scenario_of(design));
    let current = (cursor > 0).then(|| trace.events[(cursor - 1) as usize].op.as_str());
    let (operations, first) = shown_operations(&scenario, current);
    let total = scenario.operations.len();
    let mut markers = player.markers();
    markers.truncate(MARKERS_MAX);
    let ongo = send(player, PlayerAction::Seek);
    let ontoggleplay = send(player, |()| PlayerAction::TogglePlay);
    let onnext = send(player, |()| PlayerAction::Next);
    let onskip = send(player, |_: MouseEvent| PlayerAction::SkipPrediction);
    let onspeed = Callback::from(move |speed: Speed| app.dispatch(AppAction::SetSpeed(speed)));
    let ongoevent = send(player, PlayerAction::SeekEvent);
    let onflip = send(player, PlayerAction::FlipSwitch);
    let onfault = send(player, PlayerAction::ToggleFault);
    let onreset = send(player, |()| PlayerAction::Reset);
    let onopen = props.onopen.clone().unwrap_or_else(|| {
        send(player, |(scenario, event)| {
            PlayerAction::OpenCounterexample { scenario, event }
        })
    });
    let onclosehelp = send(player, |()| PlayerAction::CloseHelp);
    let ontogglecompare = send(player, |_: MouseEvent| PlayerAction::ToggleCompare);
    let ondownload = {
        let trace = Rc::clone(&trace);
        let name = format!("{}-design-{}.json", props.name, design + 1);
        Callback::from(move |_: MouseEvent| {
            // The engine's own JSON form (engine/TRACE.md), as `lab run --json` prints it.
            let text = serde_json::to_string(&*trace).map_err(|error| error.to_string());
            crate::download::offer(&name, "application/json", text);
        })
    };
    let several = designs.len() > 1;
    let compared: Vec<_> = match player.comparing() {
        false => Vec::new(),
        true => designs
            .iter()
            .zip(&traces)
            .map(|(design, trace)| match player.outcome_hidden() {
                true => (String::new(), None, Rc::clone(trace)),
                false => (design.label.clone(), design.kind, Rc::clone(trace)),
            })
            .collect(),
    };
    let starts: Vec<u32> = (0..designs.len())
        .map(|index| player.frames().start_of(index))
        .collect();
    html! {
        <section class="lab" aria-label="Lab">
            if player.help() {
                <Shortcuts onclose={onclosehelp} />
            }
            if let Some(notice) = player.notice() {
                <p class="notice" role="status">{ notice.to_string() }</p>
            }
            if several {
                <DesignBar
                    designs={designs.iter().map(|design| match player.outcome_hidden() {
                        true => (String::new(), None),
                        false => (design.label.clone(), design.kind),
                    }).collect::<Vec<_>>()}
                    current={design as u32}
                    custom={player.custom().map(|(index, _)| index as u32)}
                    {starts}
                    ongo={ongo.clone()}
                />
            }
            <Stepper frame={player.frame()} total={player.frames().total()} ongo={ongo} {onnext} playing={player.playing()} {ontoggleplay} {markers} {speed} {onspeed} />
            if player.held().is_some() {
                <div class="predict-first" role="alert">
                    <p>
                        <strong>{ "Predict first." }</strong>
                        { " This part asks what you think happens next. Answer its question in the lesson text, then press Next; or skip it." }
                    </p>
                    <button type="button" onclick={onskip}>{ "Skip the prediction" }</button>
                </div>
            }
            <EventCard trace={Rc::clone(&trace)} {cursor} />
            if total > operations.len() {
                <p class="hint">{ format!("The records table shows operations {} to {} of {total}, around the current event.", first + 1, first + operations.len()) }</p>
            }
            <RecordTable trace={Rc::clone(&trace)} {cursor} operations={operations.clone()} />
            <SequenceDiagram trace={Rc::clone(&trace)} {cursor} window={DIAGRAM_WINDOW} />
            <div class="lab-pair">
                <CodePanel trace={Rc::clone(&trace)} {cursor} onpick={props.onpick.clone()} picked={props.picked.clone()} />
                <Invariants trace={Rc::clone(&trace)} {cursor} scenario={Arc::clone(&scenario)} {ongoevent} />
            </div>
            <WhatCouldGoWrong scenario={Arc::clone(&scenario)} budget={designs[design].explore.budget()} {onopen} />
            if props.switches {
                <Switches
                    scenario={(*scenario).clone()}
                    original={(*designs[design].scenario).clone()}
                    {onflip}
                    {onfault}
                    {onreset}
                    reset_label={props.reset_label.clone()}
                />
            }
            { props.children.clone() }
            <div class="compare-bar">
                if several {
                    <button type="button" aria-pressed={player.comparing().to_string()} onclick={ontogglecompare}>
                        { "Compare designs side by side" }
                    </button>
                }
                <button type="button" onclick={ondownload}>{ "Download this run (JSON)" }</button>
            </div>
            if player.comparing() && several {
                <Compare designs={compared} {cursor} operations={operations}
                    hidden_after={player.outcome_hidden().then_some(design)} />
            }
        </section>
    }
}
