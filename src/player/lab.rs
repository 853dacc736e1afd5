//! The lab: every panel of the player, driven by its reducer. Panels take the trace of the design
//! on show and the cursor in it; nothing here runs the engine.

use std::rc::Rc;

use yew::prelude::*;

use crate::components::code_panel::CodePanel;
use crate::components::compare::Compare;
use crate::components::event_card::EventCard;
use crate::components::invariants::Invariants;
use crate::components::record_table::RecordTable;
use crate::components::sequence_diagram::SequenceDiagram;
use crate::components::stepper::Stepper;
use crate::components::switches::Switches;
use crate::components::variant_bar::VariantBar;
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
    let (variant, cursor) = player.located();
    let trace = player.trace();
    let traces = player.traces();
    let scenario = player.scenario_of(variant).clone();
    let operations: Vec<String> = scenario
        .operations
        .iter()
        .map(|operation| operation.id.clone())
        .collect();
    let ongo = send(player, PlayerAction::Seek);
    let ontoggleplay = send(player, |()| PlayerAction::TogglePlay);
    let onnext = send(player, |()| PlayerAction::Next);
    let onskip = send(player, |_: MouseEvent| PlayerAction::SkipPrediction);
    let onspeed = Callback::from(move |speed: Speed| app.dispatch(AppAction::SetSpeed(speed)));
    let ongoevent = send(player, PlayerAction::SeekEvent);
    let onflip = send(player, PlayerAction::FlipSwitch);
    let onfault = send(player, PlayerAction::ToggleFault);
    let onreset = send(player, |()| PlayerAction::Reset);
    let onopen = send(player, |(scenario, event)| {
        PlayerAction::OpenCounterexample { scenario, event }
    });
    let onclosehelp = send(player, |()| PlayerAction::CloseHelp);
    let ontogglecompare = send(player, |_: MouseEvent| PlayerAction::ToggleCompare);
    let ondownload = {
        let trace = Rc::clone(&trace);
        let name = format!("{}-design-{}.json", props.name, variant + 1);
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
                <VariantBar
                    variants={designs.iter().map(|design| match player.outcome_hidden() {
                        true => (String::new(), None),
                        false => (design.label.clone(), design.kind),
                    }).collect::<Vec<_>>()}
                    current={variant as u32}
                    custom={player.custom().map(|(index, _)| index as u32)}
                    {starts}
                    ongo={ongo.clone()}
                />
            }
            <Stepper frame={player.frame()} total={player.frames().total()} ongo={ongo} {onnext} playing={player.playing()} {ontoggleplay} markers={player.markers()} {speed} {onspeed} />
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
            <RecordTable trace={Rc::clone(&trace)} {cursor} operations={operations.clone()} />
            <SequenceDiagram trace={Rc::clone(&trace)} {cursor} />
            <div class="lab-pair">
                <CodePanel trace={Rc::clone(&trace)} {cursor} onpick={props.onpick.clone()} picked={props.picked.clone()} />
                <Invariants trace={Rc::clone(&trace)} {cursor} {ongoevent} />
            </div>
            <WhatCouldGoWrong scenario={scenario.clone()} budget={designs[variant].budget.clone()} {onopen} />
            <Switches
                {scenario}
                original={designs[variant].scenario.clone()}
                {onflip}
                {onfault}
                {onreset}
                reset_label={props.reset_label.clone()}
            />
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
                <Compare designs={compared} {cursor} operations={operations} />
            }
        </section>
    }
}
