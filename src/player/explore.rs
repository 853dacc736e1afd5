//! "What could go wrong?": the exhaustive explorer on the scenario the lab shows, switches and
//! faults included, run in slices between frames so the page stays responsive. Its findings are
//! the engine's report, worded by `lab_course::wording` as `lab explore` and the checker word it;
//! the shortest counterexample opens in the player.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use lab_course::wording;
use lab_engine::{Budget, Explorer, Report, Scenario};
use yew::prelude::*;

use crate::clock::now_milliseconds;
use crate::format::{count, thousands};

/// Milliseconds of exploring per slice: under the 50 ms a task can take before a key press or a
/// click waits noticeably, so the page answers between slices. Longer slices finish sooner:
/// each pause costs a wait for the next frame and the search's warm caches. Lesson 17's K=2
/// search in Chromium, five runs each, median from click to report: 469 ms in 12 ms slices,
/// 431 ms in 32 ms slices, 345 ms in 48 ms slices (December 2026).
const SLICE_MILLISECONDS: f64 = 40.0;
/// Transitions between two looks at the clock.
const TRANSITIONS_PER_CHECK: u32 = 500;

/// Explores for one slice (about `milliseconds`, or less when the search ends): whether the
/// search is over, and the milliseconds spent.
pub(crate) fn explore_slice(explorer: &mut Explorer, milliseconds: f64) -> (bool, f64) {
    let start = now_milliseconds();
    let mut finished = false;
    while !finished && now_milliseconds() - start < milliseconds {
        finished = explorer.advance(TRANSITIONS_PER_CHECK);
    }
    (finished, now_milliseconds() - start)
}

#[derive(Properties, PartialEq)]
pub struct ExploreProps {
    /// The scenario the lab shows.
    pub scenario: Scenario,
    /// How far to look: faults, preemptions, transitions.
    pub budget: Budget,
    /// Opens a counterexample: its scenario, and the event that breaks the invariant.
    pub onopen: Callback<(Scenario, u32)>,
}

#[derive(Clone)]
enum Status {
    Idle,
    Running {
        explorer: Rc<RefCell<Explorer>>,
        scenario: Rc<Scenario>,
        /// Milliseconds spent exploring, and slices taken (so each slice is a new state).
        spent: f64,
        slices: u32,
    },
    Done {
        report: Rc<Report>,
        scenario: Rc<Scenario>,
        spent: f64,
        cancelled: bool,
    },
    Failed(String),
}

impl PartialEq for Status {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Status::Idle, Status::Idle) => true,
            (
                Status::Running {
                    explorer: a,
                    slices: x,
                    ..
                },
                Status::Running {
                    explorer: b,
                    slices: y,
                    ..
                },
            ) => Rc::ptr_eq(a, b) && x == y,
            (Status::Done { report: a, .. }, Status::Done { report: b, .. }) => Rc::ptr_eq(a, b),
            (Status::Failed(a), Status::Failed(b)) => a == b,
            _ => false,
        }
    }
}

/// One slice of exploring: the status after it.
fn advance(status: Status) -> Status {
    let Status::Running {
        explorer,
        scenario,
        spent,
        slices,
    } = status
    else {
        return status;
    };
    // Cancel stops the explorer and shows its report at once, but a slice planned before the
    // click may still run after it: it finds the explorer stopped, and leaves it cancelled (its
    // report would otherwise overwrite Cancel's as a search cut short by its limit).
    if explorer.borrow().progress().finished {
        return Status::Done {
            report: Rc::new(explorer.borrow().report()),
            scenario,
            spent,
            cancelled: true,
        };
    }
    let (finished, slice) = explore_slice(&mut explorer.borrow_mut(), SLICE_MILLISECONDS);
    let spent = spent + slice;
    match finished {
        false => Status::Running {
            explorer,
            scenario,
            spent,
            slices: slices + 1,
        },
        true => Status::Done {
            report: Rc::new(explorer.borrow().report()),
            scenario,
            spent,
            cancelled: false,
        },
    }
}

#[component]
pub fn WhatCouldGoWrong(props: &ExploreProps) -> Html {
    let status = use_state(|| Status::Idle);
    {
        // One slice per timeout, so the page repaints and stays responsive between them.
        let setter = status.clone();
        use_effect_with((*status).clone(), move |current| {
            let pending = matches!(current, Status::Running { .. }).then(|| {
                let current = current.clone();
                Timeout::new(0, move || setter.set(advance(current)))
            });
            move || drop(pending)
        });
    }
    let onexplore = {
        let status = status.clone();
        let scenario = props.scenario.clone();
        let budget = props.budget.clone();
        Callback::from(move |_: MouseEvent| {
            status.set(match Explorer::new(scenario.clone(), budget.clone()) {
                Ok(explorer) => Status::Running {
                    explorer: Rc::new(RefCell::new(explorer)),
                    scenario: Rc::new(scenario.clone()),
                    spent: 0.0,
                    slices: 0,
                },
                Err(error) => {
                    Status::Failed(format!("The explorer cannot run this scenario: {error}"))
                }
            })
        })
    };
    let oncancel = {
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            if let Status::Running {
                explorer,
                scenario,
                spent,
                ..
            } = &*status
            {
                explorer.borrow_mut().stop();
                status.set(Status::Done {
                    report: Rc::new(explorer.borrow().report()),
                    scenario: Rc::clone(scenario),
                    spent: *spent,
                    cancelled: true,
                });
            }
        })
    };
    let running = matches!(&*status, Status::Running { .. });
    let body = match &*status {
        Status::Idle => Html::default(),
        // Progress only once the search takes longer than a slice (a frame).
        Status::Running { slices: 0, .. } => Html::default(),
        Status::Running {
            explorer, spent, ..
        } => {
            let progress = explorer.borrow().progress();
            html! {
                <p class="explore-progress">
                    <span role="status">{ format!(
                        "Exploring: {} distinct states, {} engine steps so far ({:.0} ms)…",
                        thousands(progress.states), thousands(progress.transitions), spent
                    ) }</span>
                    { " " }
                    <button type="button" onclick={oncancel}>{ "Cancel" }</button>
                </p>
            }
        }
        Status::Failed(message) => {
            html! { <p class="notice" role="status">{ message.clone() }</p> }
        }
        Status::Done {
            report,
            scenario,
            spent,
            cancelled,
        } => {
            let stale = **scenario != props.scenario;
            findings(report, *spent, *cancelled, stale, &props.onopen)
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
fn findings(
    report: &Report,
    spent: f64,
    cancelled: bool,
    stale: bool,
    onopen: &Callback<(Scenario, u32)>,
) -> Html {
    let summary = format!(
        "{}, {spent:.0} ms. {}.",
        wording::figures(report),
        wording::extent(report, cancelled)
    );
    let verdicts = report.properties.iter().map(|verdict| {
        let icon = if verdict.holds { "✓ " } else { "✗ " };
        html! {
            <li class={classes!(if verdict.holds { "holds" } else { "broken" })}>
                <span aria-hidden="true">{ icon }</span>
                { wording::verdict(verdict) }
            </li>
        }
    });
    let counterexample = match &report.counterexample {
        None => html! { <p class="explore-none">{ wording::conclusion(report) }</p> },
        Some(counterexample) => {
            let onclick = {
                let onopen = onopen.clone();
                let scenario = counterexample.scenario.clone();
                let event = counterexample.events;
                Callback::from(move |_: MouseEvent| onopen.emit((scenario.clone(), event)))
            };
            html! {
                <div class="explore-counterexample">
                    <p><strong>{ wording::COUNTEREXAMPLE }</strong>{ counterexample.description.clone() }</p>
                    <button type="button" class="primary" {onclick}>{ "Open it in the player" }</button>
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
