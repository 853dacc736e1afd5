//! The current design's choices and faults as toggles. Flipping one asks the player to run the
//! changed scenario; the lab then shows that run, at the same event. The faults listed are the
//! design's own and any the learner's scenario adds (a counterexample's injected faults).

use lab_engine::{fault_phrase, FaultRule, Scenario, Switch};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SwitchesProps {
    /// The scenario the lab shows now (the design as written, or the learner's changed copy).
    pub scenario: Scenario,
    /// The design as written, to mark what the learner changed.
    pub original: Scenario,
    pub onflip: Callback<Switch>,
    /// Takes a fault out of the scenario, or puts it back.
    pub onfault: Callback<FaultRule>,
    pub onreset: Callback<()>,
    /// The name of the button that undoes the learner's changes.
    #[prop_or(AttrValue::from("Back to the lesson's design"))]
    pub reset_label: AttrValue,
}

fn fault_label(rule: &FaultRule, injected: bool) -> String {
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
    let name = rule.fault.name().replace('_', " ");
    let at = rule.at.name();
    match injected {
        false => format!("Fault: {name} at {at} ({when}{worker})"),
        true => format!(
            "Injected fault: {} at {at} ({when}{worker})",
            fault_phrase(rule.fault)
        ),
    }
}

#[component]
pub fn Switches(props: &SwitchesProps) -> Html {
    let scenario = &props.scenario;
    let original = &props.original;
    let changed = scenario != original;
    let applies = |switch: &&lab_engine::Switch| switch.applies(scenario);
    let design_rows = scenario
        .workflow
        .switches()
        .iter()
        .filter(applies)
        .enumerate()
        .map(|(index, &switch)| {
            let on = switch.get(scenario);
            let differs = on != switch.get(original);
            // A flip the engine would refuse (a design's own program calling what the flip takes
            // away) is not offered: the switch is disabled, and says why.
            let refused = switch
                .set(scenario, !on)
                .validate()
                .err()
                .map(|error| error.to_string());
            let why = format!("switch-why-{index}");
            let onchange = {
                let onflip = props.onflip.clone();
                Callback::from(move |_: Event| onflip.emit(switch))
            };
            html! {
                <li class={classes!(differs.then_some("differs"))}>
                    <label>
                        <input type="checkbox" role="switch" checked={on} {onchange}
                            disabled={refused.is_some()}
                            aria-describedby={refused.is_some().then(|| why.clone())} />
                        { " " }{ switch.label() }
                        if differs {
                            <span class="changed-note">{ " (changed by you)" }</span>
                        }
                    </label>
                    if let Some(reason) = refused {
                        <span id={why} class="hint">{ format!(" Cannot flip here: {reason}") }</span>
                    }
                </li>
            }
        });
    // The design's own faults, each of which can be switched off and on again, then the faults
    // only the learner's scenario has.
    let added = scenario
        .faults
        .iter()
        .filter(|rule| !original.faults.contains(rule));
    let rules: Vec<(&FaultRule, bool)> = original
        .faults
        .iter()
        .map(|rule| (rule, false))
        .chain(added.map(|rule| (rule, true)))
        .collect();
    let fault_rows = rules.into_iter().map(|(rule, injected)| {
        let on = scenario.faults.contains(rule);
        let onchange = {
            let rule = rule.clone();
            let onfault = props.onfault.clone();
            Callback::from(move |_: Event| onfault.emit(rule.clone()))
        };
        html! {
            <li class={classes!(injected.then_some("injected"))}>
                <label>
                    <input type="checkbox" role="switch" checked={on} {onchange} />
                    { " " }{ fault_label(rule, injected) }
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
                    { "You are looking at your own design of this design; the page's link holds it. " }
                    <button type="button" onclick={onreset}>{ props.reset_label.clone() }</button>
                </p>
            }
        </section>
    }
}
