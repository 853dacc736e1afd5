//! "Engine performance": how fast this browser runs the engine. The same measurements `make bench`
//! takes natively: whole traces of the reference batch at three sizes, and the explorer over the
//! course's largest lesson. For an instructor checking a laptop before a class, and for the
//! browser tests (a 10,000-record scenario runs in a tab; the explorer's rate in wasm).

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use lab_engine::{BatchSpec, Budget, Engine, Explorer, Scenario};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::clock::now_milliseconds;
use crate::format::thousands;
use crate::player::explore::explore_slice;
use crate::route::Route;

/// The batch sizes measured, in order.
const SIZES: [u32; 3] = [100, 1_000, 10_000];
/// The explorer's budgets measured, in order (faults; preemptions are always 2).
const FAULT_BUDGETS: [u32; 2] = [1, 2];
/// The lesson and design the explorer measures: the course's largest scenario.
const EXPLORED: (&str, &str) = ("review", "safe");
/// A size is run until this much time has passed (at least once), and the best run counts.
const MEASURE_MILLISECONDS: f64 = 150.0;
/// The explorer runs this long at most before the page takes a turn (its Cancel button, a
/// repaint): the course's largest search takes a fifth of it on a laptop.
const EXPLORE_PIECE_MILLISECONDS: f64 = 1_000.0;

/// One measured batch.
#[derive(Clone, Debug, PartialEq)]
struct Batch {
    records: u32,
    events: u32,
    /// The fastest run, in milliseconds.
    milliseconds: f64,
}

/// One measured exploration.
#[derive(Clone, Debug, PartialEq)]
struct Explored {
    faults_max: u32,
    schedules: u64,
    states: u64,
    transitions: u64,
    milliseconds: f64,
    complete: bool,
}

/// Where the measurement is.
#[derive(Clone)]
enum Status {
    Idle,
    Batches,
    Exploring {
        explorer: Rc<std::cell::RefCell<Explorer>>,
        /// Milliseconds spent in the explorer, and slices taken (so each slice is a new state).
        spent: f64,
        slices: u32,
    },
    Finished,
    Failed(String),
}

impl PartialEq for Status {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                Status::Exploring {
                    explorer: a,
                    slices: x,
                    ..
                },
                Status::Exploring {
                    explorer: b,
                    slices: y,
                    ..
                },
            ) => Rc::ptr_eq(a, b) && x == y,
            (Status::Idle, Status::Idle)
            | (Status::Batches, Status::Batches)
            | (Status::Finished, Status::Finished) => true,
            (Status::Failed(a), Status::Failed(b)) => a == b,
            _ => false,
        }
    }
}

#[derive(Clone, PartialEq)]
struct Run {
    status: Status,
    batches: Vec<Batch>,
    explored: Vec<Explored>,
}

/// Builds the whole trace of the reference batch at `records`, as the lesson player would,
/// repeatedly for a short while; the fastest run counts (the first one also warms the engine).
fn measure_batch(records: u32) -> Result<Batch, String> {
    let scenario = BatchSpec::reference(records).scenario();
    let started = now_milliseconds();
    let mut best = f64::INFINITY;
    let mut events = 0;
    while best.is_infinite() || now_milliseconds() - started < MEASURE_MILLISECONDS {
        let start = now_milliseconds();
        let trace = Engine::run(scenario.clone()).map_err(|error| error.to_string())?;
        best = best.min(now_milliseconds() - start);
        events = trace.len();
    }
    Ok(Batch {
        records,
        events,
        milliseconds: best,
    })
}

/// The scenario of the lesson design the explorer measures.
fn explored_scenario() -> Option<Scenario> {
    let course = crate::course::course();
    let lesson = course.lesson(EXPLORED.0)?;
    let variant = lesson
        .variants
        .iter()
        .find(|variant| variant.id == EXPLORED.1)?;
    Some(variant.scenario.clone())
}

fn explorer_for(faults_max: u32) -> Result<Explorer, String> {
    let scenario = explored_scenario().ok_or("the course has no lesson review / safe")?;
    let budget = Budget {
        faults_max,
        preemptions_max: 2,
        ..Budget::default()
    };
    Explorer::new(scenario, budget).map_err(|error| error.to_string())
}

/// Takes the next piece of work and returns the run after it.
fn advance(run: Run) -> Run {
    match run.status.clone() {
        Status::Batches => match measure_batch(SIZES[run.batches.len()]) {
            Ok(batch) => {
                let mut batches = run.batches;
                batches.push(batch);
                if batches.len() < SIZES.len() {
                    return Run { batches, ..run };
                }
                match explorer_for(FAULT_BUDGETS[0]) {
                    Ok(explorer) => Run {
                        status: Status::Exploring {
                            explorer: Rc::new(std::cell::RefCell::new(explorer)),
                            spent: 0.0,
                            slices: 0,
                        },
                        batches,
                        ..run
                    },
                    Err(message) => Run {
                        status: Status::Failed(message),
                        batches,
                        ..run
                    },
                }
            }
            Err(message) => Run {
                status: Status::Failed(message),
                ..run
            },
        },
        Status::Exploring {
            explorer,
            spent,
            slices,
        } => {
            // In long pieces, not in the explorer panel's 40 ms slices: every pause costs the
            // search its warm caches (on a shared machine, 20-40% more time in 12 ms slices), and
            // this page measures the engine, as `make bench` does natively, not the pauses.
            let (finished, slice) =
                explore_slice(&mut explorer.borrow_mut(), EXPLORE_PIECE_MILLISECONDS);
            let spent = spent + slice;
            if !finished {
                return Run {
                    status: Status::Exploring {
                        explorer,
                        spent,
                        slices: slices + 1,
                    },
                    ..run
                };
            }
            let report = explorer.borrow().report();
            let mut explored = run.explored;
            explored.push(Explored {
                faults_max: report.faults_max,
                schedules: report.schedules,
                states: report.states,
                transitions: report.transitions,
                milliseconds: spent,
                complete: report.complete,
            });
            let status = match FAULT_BUDGETS.get(explored.len()) {
                None => Status::Finished,
                Some(&faults_max) => match explorer_for(faults_max) {
                    Ok(explorer) => Status::Exploring {
                        explorer: Rc::new(std::cell::RefCell::new(explorer)),
                        spent: 0.0,
                        slices: 0,
                    },
                    Err(message) => Status::Failed(message),
                },
            };
            Run {
                status,
                explored,
                ..run
            }
        }
        Status::Idle | Status::Finished | Status::Failed(_) => run,
    }
}

#[component]
pub fn EnginePage() -> Html {
    let run = use_state(|| Run {
        status: Status::Idle,
        batches: Vec::new(),
        explored: Vec::new(),
    });
    // One piece of work per timeout, so the page repaints and stays responsive between them.
    {
        let setter = run.clone();
        use_effect_with((*run).clone(), move |current| {
            let busy = matches!(current.status, Status::Batches | Status::Exploring { .. });
            let pending = busy.then(|| {
                let current = current.clone();
                Timeout::new(10, move || setter.set(advance(current)))
            });
            move || drop(pending)
        });
    }
    let onrun = {
        let run = run.clone();
        Callback::from(move |_| {
            run.set(Run {
                status: Status::Batches,
                batches: Vec::new(),
                explored: Vec::new(),
            })
        })
    };
    let oncancel = {
        let run = run.clone();
        Callback::from(move |_| {
            run.set(Run {
                status: Status::Failed("Cancelled.".into()),
                ..(*run).clone()
            })
        })
    };
    let busy = matches!(run.status, Status::Batches | Status::Exploring { .. });
    let message = match &run.status {
        Status::Idle => String::new(),
        Status::Batches => format!(
            "Running {} records…",
            thousands(u64::from(SIZES[run.batches.len().min(SIZES.len() - 1)]))
        ),
        Status::Exploring { explorer, .. } => {
            let progress = explorer.borrow().progress();
            format!(
                "Exploring with up to {} faults: {} states so far…",
                FAULT_BUDGETS[run.explored.len().min(FAULT_BUDGETS.len() - 1)],
                thousands(progress.states)
            )
        }
        Status::Finished => growth(&run.batches),
        Status::Failed(message) => message.clone(),
    };
    let batch_rows = run.batches.iter().map(|batch| {
        let per_second = f64::from(batch.events) / (batch.milliseconds / 1000.0).max(1e-9);
        let per_event = batch.milliseconds * 1000.0 / f64::from(batch.events.max(1));
        html! {
            <tr>
                <th scope="row">{ thousands(u64::from(batch.records)) }</th>
                <td>{ thousands(u64::from(batch.events)) }</td>
                <td>{ format!("{:.1}", batch.milliseconds) }</td>
                <td>{ thousands(per_second.round() as u64) }</td>
                <td>{ format!("{per_event:.2}") }</td>
            </tr>
        }
    });
    let explored_rows = run.explored.iter().map(|explored| {
        let per_second = explored.schedules as f64 / (explored.milliseconds / 1000.0).max(1e-9);
        html! {
            <tr>
                <th scope="row">{ budget_name(explored.faults_max) }</th>
                <td>{ thousands(explored.schedules) }</td>
                <td>{ thousands(explored.states) }</td>
                <td>{ thousands(explored.transitions) }</td>
                <td>{ format!("{:.0}", explored.milliseconds) }</td>
                <td>{ thousands(per_second.round() as u64) }</td>
                <td>{ if explored.complete { "yes" } else { "no: cut at its budget" } }</td>
            </tr>
        }
    });
    html! {
        <main id="main" tabindex="-1" class="page engine-page">
            <h1>{ "Engine performance" }</h1>
            <p>
                { "How fast this browser runs the lab's engine: the measurements " }
                <code>{ "make bench" }</code>
                { " takes natively. First, whole traces of a batch of reservations shared by two workers, with a lost reply and a busy provider each striking 5% of submits. Then the explorer checks every schedule of the course's largest lesson (the review, safe design). Nothing is sent anywhere." }
            </p>
            <p>
                <button type="button" onclick={onrun} disabled={busy}>{ "Run the measurement" }</button>
                if busy {
                    { " " }
                    <button type="button" onclick={oncancel}>{ "Cancel" }</button>
                }
            </p>
            <p role="status" aria-live="polite">{ message }</p>
            if !run.batches.is_empty() {
                <table class="engine-figures">
                    <caption>{ "Building the whole trace, by size of the batch (fastest run)" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Records" }</th>
                            <th scope="col">{ "Events" }</th>
                            <th scope="col">{ "Time (ms)" }</th>
                            <th scope="col">{ "Events per second" }</th>
                            <th scope="col">{ "Time per event (µs)" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for batch_rows }</tbody>
                </table>
            }
            if !run.explored.is_empty() {
                <table class="engine-figures">
                    <caption>{ "Exploring every schedule of the review lesson's safe design" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Budget" }</th>
                            <th scope="col">{ "Schedules" }</th>
                            <th scope="col">{ "Distinct states" }</th>
                            <th scope="col">{ "Transitions" }</th>
                            <th scope="col">{ "Time (ms)" }</th>
                            <th scope="col">{ "Schedules per second" }</th>
                            <th scope="col">{ "Complete" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for explored_rows }</tbody>
                </table>
                <p>
                    { "The time counts only the exploring, in pieces of up to a second (the page may pause that long). A lesson's \"What could go wrong?\" panel explores in 40 ms pieces so the page keeps answering, so the same search takes a little longer there." }
                </p>
            }
            <p><Link<Route> to={Route::Home}>{ "Back to the course map" }</Link<Route>></p>
        </main>
    }
}

/// "1 fault, 2 preemptions".
fn budget_name(faults_max: u32) -> String {
    let plural = if faults_max == 1 { "" } else { "s" };
    format!("{faults_max} fault{plural}, 2 preemptions")
}

/// How the time per event grew from the smallest size to the largest.
fn growth(batches: &[Batch]) -> String {
    let per_event = |batch: &Batch| batch.milliseconds / f64::from(batch.events.max(1));
    match (batches.first(), batches.last()) {
        (Some(first), Some(last)) if batches.len() > 1 => format!(
            "Done. The time per event at {} records is {:.2} times that at {} records (1.00 would be perfectly linear).",
            thousands(u64::from(last.records)),
            per_event(last) / per_event(first).max(1e-12),
            thousands(u64::from(first.records))
        ),
        _ => "Done.".to_string(),
    }
}
