//! The current design's choices and planned faults as toggles. Flipping one asks the engine to
//! run the changed scenario; the lab then shows that run, at the same event.

use lab_engine::{FaultRule, Scenario};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SwitchesProps {
    /// The scenario the lab shows now (the lesson's design, or the learner's changed copy).
    pub scenario: Scenario,
    /// The lesson's own design for this variant, to mark what the learner changed.
    pub original: Scenario,
    /// The faults of the lesson's design, each of which can be switched off and on again.
    pub faults: Vec<FaultRule>,
    pub onchange: Callback<Scenario>,
    pub onreset: Callback<()>,
}

fn fault_label(rule: &FaultRule) -> String {
    let when = match (rule.nth, rule.chance_permille) {
        (Some(nth), _) => format!("occurrence {nth}"),
        (None, Some(permille)) => format!("{:.1}% of the time", f64::from(permille) / 10.0),
        (None, None) => "every time".to_string(),
    };
    let worker = rule
        .worker
        .as_ref()
        .map(|worker| format!(", {worker}"))
        .unwrap_or_default();
    format!(
        "Fault: {} at {} ({when}{worker})",
        rule.fault.name().replace('_', " "),
        rule.at.name()
    )
}

#[component]
pub fn Switches(props: &SwitchesProps) -> Html {
    let scenario = &props.scenario;
    let changed = scenario != &props.original;
    let applies = |switch: &&lab_engine::Switch| switch.applies(scenario);
    let design_rows = scenario
        .workflow
        .switches()
        .iter()
        .filter(applies)
        .map(|&switch| {
            let on = switch.get(scenario);
            let differs = on != switch.get(&props.original);
            let onchange = {
                let scenario = scenario.clone();
                let onchange = props.onchange.clone();
                Callback::from(move |_: Event| onchange.emit(switch.set(&scenario, !on)))
            };
            html! {
                <li class={classes!(differs.then_some("differs"))}>
                    <label>
                        <input type="checkbox" role="switch" checked={on} {onchange} />
                        { " " }{ switch.label() }
                        if differs {
                            <span class="changed-note">{ " (changed by you)" }</span>
                        }
                    </label>
                </li>
            }
        });
    let fault_rows = props.faults.iter().map(|rule| {
        let on = scenario.faults.contains(rule);
        let onchange = {
            let scenario = scenario.clone();
            let rule = rule.clone();
            let onchange = props.onchange.clone();
            Callback::from(move |_: Event| {
                let mut next = scenario.clone();
                if on {
                    next.faults.retain(|existing| existing != &rule);
                } else {
                    next.faults.push(rule.clone());
                }
                onchange.emit(next);
            })
        };
        html! {
            <li>
                <label>
                    <input type="checkbox" role="switch" checked={on} {onchange} />
                    { " " }{ fault_label(rule) }
                </label>
            </li>
        }
    });
    let onreset = {
        let onreset = props.onreset.clone();
        Callback::from(move |_: MouseEvent| onreset.emit(()))
    };
    html! {
        <section class="switches" aria-labelledby="switches-title">
            <h2 id="switches-title" class="panel-title">{ "Try it yourself: switches" }</h2>
            <p class="hint">{ "Flip a design choice or a fault: the engine runs the changed scenario and the lab stays at the same event." }</p>
            <ul>
                { for design_rows }
                { for fault_rows }
            </ul>
            if changed {
                <p class="custom-note" role="status">
                    { "You are looking at your own variant of this design. It is not part of the lesson's link. " }
                    <button type="button" onclick={onreset}>{ "Back to the lesson's design" }</button>
                </p>
            }
        </section>
    }
}
