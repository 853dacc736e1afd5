//! "What could go wrong?": the exhaustive explorer on the scenario the lab shows, switches and
//! faults included. It runs in the lab's second module, a Web Worker (`crate::worker_module`), so
//! the page never waits on a search: progress shows as the worker posts it, and Cancel ends the
//! worker at once. Its findings are the engine's report, worded by `lab_course::wording` as `lab
//! explore` and the checker word it; the shortest counterexample opens in the player.

use std::sync::Arc;

use lab_course::wording;
use lab_engine::{Budget, Scenario};
use lab_worker::Findings;
use yew::prelude::*;

use crate::format::{count, thousands};
use crate::search::{search, ExploreAction, Status};
use crate::worker_module::{self, Module};

#[derive(Properties)]
pub struct ExploreProps {
    /// The scenario the lab shows.
    pub scenario: Arc<Scenario>,
    /// How far to look: faults, preemptions, transitions.
    pub budget: Budget,
    /// Opens a counterexample: its scenario, and the event that breaks the invariant.
    pub onopen: Callback<(Scenario, u32)>,
}

/// The same scenario is most often the same `Rc`: that is known without comparing its records.
impl PartialEq for ExploreProps {
    fn eq(&self, other: &Self) -> bool {
        same_scenario(&self.scenario, &other.scenario)
            && self.budget == other.budget
            && self.onopen == other.onopen
    }
}

/// Whether two shared scenarios are equal, comparing their records only when they are not one.
fn same_scenario(one: &Arc<Scenario>, other: &Arc<Scenario>) -> bool {
    Arc::ptr_eq(one, other) || one == other
}

#[component]
pub fn WhatCouldGoWrong(props: &ExploreProps) -> Html {
    let status = use_reducer(|| Status::Idle);
    let module = use_mut_ref(|| None::<Module>);
    // The second module, loaded once the lesson has shown and the page has settled, so the
    // first search does not wait for it.
    use_effect_with((), |_| worker_module::when_settled(worker_module::prefetch));
    let onexplore = {
        let status = status.clone();
        let module = module.clone();
        let scenario = props.scenario.clone();
        let budget = props.budget.clone();
        Callback::from(move |_: MouseEvent| search(&status, &module, &scenario, &budget))
    };
    let oncancel = {
        let status = status.clone();
        let module = module.clone();
        Callback::from(move |_: MouseEvent| {
            // Ends the worker mid-search; the next search starts another.
            module.borrow_mut().take();
            status.dispatch(ExploreAction::Cancel);
            worker_module::when_idle(worker_module::prefetch);
        })
    };
    let running = matches!(&*status, Status::Running { .. } | Status::Loading { .. });
    let cancel = html! { <button type="button" onclick={oncancel}>{ "Cancel" }</button> };
    let body = match &*status {
        Status::Idle => Html::default(),
        Status::Loading { .. } => html! {
            <p class="explore-progress">
                <span role="status">{ "Loading the explorer…" }</span>
                { " " }
                { cancel }
            </p>
        },
        // Progress only once the search takes longer than the worker's first report.
        Status::Running { progress: None, .. } => Html::default(),
        Status::Running {
            progress: Some((states, transitions, milliseconds)),
            ..
        } => html! {
            <p class="explore-progress">
                <span role="status">{ format!(
                    "Exploring: {} distinct states, {} engine steps so far ({:.0} ms)…",
                    thousands(*states), thousands(*transitions), milliseconds
                ) }</span>
                { " " }
                { cancel }
            </p>
        },
        Status::Cancelled { progress } => {
            let (states, transitions, milliseconds) = progress.unwrap_or_default();
            html! {
                <div class="explore-report" role="region" aria-label="What the explorer found">
                    <p>{ format!(
                        "{}, {} engine steps, {:.0} ms. {}.",
                        count(states, "distinct state", "distinct states"), thousands(transitions), milliseconds,
                        wording::covered(false, true)
                    ) }</p>
                    <p class="hint">{ "No verdict: ask again to explore every schedule." }</p>
                </div>
            }
        }
        Status::Failed(message) => {
            html! { <p class="notice" role="status">{ message.clone() }</p> }
        }
        Status::Done { findings, scenario } => {
            let stale = !same_scenario(scenario, &props.scenario);
            report(findings, stale, &props.onopen)
        }
    };
    html! {
        <section class="explore" aria-labelledby="explore-title">
            <h2 id="explore-title" class="panel-title">{ "Every schedule" }</h2>
            <p class="hint">
                { format!(
                    "The explorer tries every placement of up to {} and every interleaving within {} on the design shown, switches and faults included.",
                    count(props.budget.faults_max.into(), "injected fault", "injected faults"),
                    count(props.budget.preemptions_max.into(), "preemption", "preemptions"),
                ) }
            </p>
            <button type="button" onclick={onexplore} disabled={running}>{ "What could go wrong?" }</button>
            { body }
        </section>
    }
}

/// The report: how much was explored, every property's verdict, the shortest counterexample.
fn report(findings: &Findings, stale: bool, onopen: &Callback<(Scenario, u32)>) -> Html {
    let summary = format!(
        "{}, {:.0} ms. {}.",
        wording::explored(findings.extent.schedules, findings.extent.states),
        findings.milliseconds,
        wording::covered(findings.extent.complete, false)
    );
    let verdicts = findings
        .verdicts
        .iter()
        .filter(|verdict| verdict.applies)
        .map(|verdict| {
            let icon = if verdict.holds { "✓ " } else { "✗ " };
            html! {
                <li class={classes!(if verdict.holds { "holds" } else { "broken" })}>
                    <span aria-hidden="true">{ icon }</span>
                    { wording::stated(&verdict.statement, verdict.holds) }
                </li>
            }
        });
    let counterexample = match &findings.counterexample {
        None => html! {
            <p class="explore-none">{ wording::none_within(findings.extent.faults_max, findings.extent.preemptions_max) }</p>
        },
        Some(counterexample) => {
            let open = match counterexample.scenario() {
                Ok(scenario) => {
                    let onopen = onopen.clone();
                    let event = counterexample.events;
                    let onclick =
                        Callback::from(move |_: MouseEvent| onopen.emit((scenario.clone(), event)));
                    html! { <button type="button" class="primary" {onclick}>{ "Open it in the player" }</button> }
                }
                Err(error) => html! {
                    <p class="notice">{ format!("It cannot be opened in the player: {error}.") }</p>
                },
            };
            html! {
                <div class="explore-counterexample">
                    <p><strong>{ wording::COUNTEREXAMPLE }</strong>{ counterexample.description.clone() }</p>
                    { open }
                </div>
            }
        }
    };
    html! {
        <div class="explore-report" role="region" aria-label="What the explorer found">
            if stale {
                <p class="hint">{ "Found for the design as it was before your last change." }</p>
            }
            <p>{ summary }</p>
            <ul aria-label="Every invariant, over every schedule">{ for verdicts }</ul>
            { counterexample }
        </div>
    }
}
