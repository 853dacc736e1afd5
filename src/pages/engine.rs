//! "Engine performance": how fast this browser runs the engine. The same measurements `make bench`
//! takes natively: whole traces of the reference batch at three sizes, and the explorer over the
//! course's largest lesson. For an instructor checking a laptop before a class, and for the
//! browser tests (a 10,000-record scenario runs in a tab; the explorer's rate in wasm).

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use lab_course::share::WholeScenario;
use lab_engine::{BatchSpec, Budget, Engine, Scenario};
use lab_worker::{Reply, Request};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::format::thousands;
use crate::route::Route;
use crate::search::module_for;
use crate::worker_module::{Heard, Module, Readiness};
use lab_worker::clock::now_milliseconds;

/// The batch sizes measured, in order.
const SIZES: [u32; 3] = [100, 1_000, 10_000];
/// The explorer's budgets measured, in order (faults; preemptions are always 2).
const FAULT_BUDGETS: [u32; 2] = [1, 2];
/// The lesson and design the explorer measures: the course's largest scenario.
const EXPLORED: (&str, &str) = ("review", "safe");
/// A size is run until this much time has passed (at least once), and the best run counts.
const MEASURE_MILLISECONDS: f64 = 150.0;

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
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Batches,
    /// The explorer runs in the second module (a Web Worker) at the next budget; states so far.
    Exploring {
        states: u64,
    },
    Finished,
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
struct Measurement {
    status: Status,
    batches: Vec<Batch>,
    explored: Vec<Explored>,
}

enum RunAction {
    Start,
    /// The next batch size.
    Measure,
    Heard(Heard),
    Cancel,
}

impl Reducible for Measurement {
    type Action = RunAction;

    fn reduce(self: Rc<Self>, action: RunAction) -> Rc<Self> {
        let mut run = (*self).clone();
        match (action, &run.status) {
            (RunAction::Start, _) => {
                run = Measurement {
                    status: Status::Batches,
                    batches: Vec::new(),
                    explored: Vec::new(),
                }
            }
            (RunAction::Cancel, Status::Batches | Status::Exploring { .. }) => {
                run.status = Status::Failed("Cancelled.".into())
            }
            (RunAction::Measure, Status::Batches) => {
                match measure_batch(SIZES[run.batches.len()]) {
                    Ok(batch) => {
                        run.batches.push(batch);
                        if run.batches.len() == SIZES.len() {
                            run.status = Status::Exploring { states: 0 };
                        }
                    }
                    Err(message) => run.status = Status::Failed(message),
                }
            }
            (RunAction::Heard(Heard::Reply(reply)), Status::Exploring { .. }) => match reply {
                Reply::Progress { states, .. } => run.status = Status::Exploring { states },
                Reply::Explored(findings) => {
                    run.explored.push(Explored {
                        faults_max: findings.extent.faults_max,
                        schedules: findings.extent.schedules,
                        states: findings.extent.states,
                        transitions: findings.extent.transitions,
                        milliseconds: findings.milliseconds,
                        complete: findings.extent.complete,
                    });
                    run.status = match run.explored.len() == FAULT_BUDGETS.len() {
                        true => Status::Finished,
                        false => Status::Exploring { states: 0 },
                    };
                }
                Reply::Refused(words) => run.status = Status::Failed(words),
                Reply::Ready
                | Reply::Contended { .. }
                | Reply::Seeded { .. }
                | Reply::Counting { .. }
                | Reply::Judged(_)
                | Reply::Read { .. }
                | Reply::Written { .. }
                | Reply::Opened(_) => return self,
            },
            (RunAction::Heard(Heard::Failed(words)), Status::Exploring { .. }) => {
                run.status = Status::Failed(format!("The explorer could not run: {words}."))
            }
            _ => return self,
        }
        Rc::new(run)
    }
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

/// Calls `done` with the scenario of the lesson design the explorer measures, once its lesson's
/// file is read, or with why it cannot be had.
fn explored_scenario(done: impl FnOnce(Result<Scenario, String>) + 'static) {
    crate::course::load(EXPLORED.0, |result| {
        done(match result {
            Ok(lesson) => lesson
                .design(EXPLORED.1)
                .map(|design| Scenario::clone(&design.scenario))
                .ok_or_else(|| format!("the course has no lesson {} / {}", EXPLORED.0, EXPLORED.1)),
            Err(why) => Err(format!(
                "the lesson {} could not be loaded: {why}",
                EXPLORED.0
            )),
        })
    });
}

/// Starts one budget's search (`FAULT_BUDGETS[index]`) of `scenario` in the second module.
fn explore(
    dispatcher: &UseReducerDispatcher<Measurement>,
    module: &Rc<std::cell::RefCell<Option<Module>>>,
    scenario: &Scenario,
    index: usize,
) {
    let budget = Budget {
        faults_max: FAULT_BUDGETS[index],
        preemptions_max: 2,
        ..Budget::default()
    };
    let onheard = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |heard| dispatcher.dispatch(RunAction::Heard(heard)))
    };
    let mut slot = module.borrow_mut();
    let (module, readiness) = module_for(&mut slot, onheard);
    module.send(&Request::Explore {
        scenario: WholeScenario::of(scenario),
        budget: (&budget).into(),
    });
    if let Readiness::Failed(words) = readiness {
        dispatcher.dispatch(RunAction::Heard(Heard::Failed(words)));
    }
}

#[component]
pub fn EnginePage() -> Html {
    let run = use_reducer(|| Measurement {
        status: Status::Idle,
        batches: Vec::new(),
        explored: Vec::new(),
    });
    let module = use_mut_ref(|| None::<Module>);
    // One batch size per timeout, so the page repaints and stays responsive between them.
    {
        let dispatcher = run.dispatcher();
        let batches = (run.status == Status::Batches).then_some(run.batches.len());
        use_effect_with(batches, move |batches| {
            let pending =
                batches.map(|_| Timeout::new(10, move || dispatcher.dispatch(RunAction::Measure)));
            move || drop(pending)
        });
    }
    // Each budget's search, in the second module, as the explorer panel runs it.
    {
        let dispatcher = run.dispatcher();
        let module = module.clone();
        let exploring =
            matches!(run.status, Status::Exploring { .. }).then_some(run.explored.len());
        use_effect_with(exploring, move |exploring| {
            let Some(index) = *exploring else { return };
            explored_scenario(move |scenario| match scenario {
                Ok(scenario) => explore(&dispatcher, &module, &scenario, index),
                Err(words) => dispatcher.dispatch(RunAction::Heard(Heard::Failed(words))),
            });
        });
    }
    let onrun = {
        let run = run.clone();
        Callback::from(move |_| run.dispatch(RunAction::Start))
    };
    let oncancel = {
        let run = run.clone();
        Callback::from(move |_| {
            // Ends a search mid-way.
            module.borrow_mut().take();
            run.dispatch(RunAction::Cancel)
        })
    };
    let busy = matches!(run.status, Status::Batches | Status::Exploring { .. });
    let message = match &run.status {
        Status::Idle => String::new(),
        Status::Batches => format!(
            "Running {} records…",
            thousands(u64::from(SIZES[run.batches.len().min(SIZES.len() - 1)]))
        ),
        Status::Exploring { states } => format!(
            "Exploring with up to {} faults: {} states so far…",
            FAULT_BUDGETS[run.explored.len().min(FAULT_BUDGETS.len() - 1)],
            thousands(*states)
        ),
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
                    { "The explorer runs in the lab's second module, a Web Worker, as a lesson's \"What could go wrong?\" panel runs it, so the page keeps answering; the time counts only the exploring." }
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
