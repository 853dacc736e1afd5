//! "Engine performance": how fast this browser runs the engine, at three sizes of the same batch
//! `make bench` measures natively. For an instructor checking a laptop before a class, and for the
//! browser test that a 10,000-record scenario runs in a tab.

use gloo::timers::callback::Timeout;
use lab_engine::{BatchSpec, Engine};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::route::Route;

/// The sizes measured, in order.
const SIZES: [u32; 3] = [100, 1_000, 10_000];

/// One measured run.
#[derive(Clone, Debug, PartialEq)]
struct Measured {
    records: u32,
    events: u32,
    milliseconds: f64,
}

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Running { done: Vec<Measured> },
    Finished { done: Vec<Measured> },
    Failed { message: String },
}

/// Milliseconds from a monotonic clock; the wall clock where a browser lacks one.
fn now_milliseconds() -> f64 {
    gloo::utils::window()
        .performance()
        .map_or_else(js_sys::Date::now, |performance| performance.now())
}

/// Builds the whole trace of the reference batch at `records`, as the lesson player would.
fn measure(records: u32) -> Result<Measured, String> {
    let scenario = BatchSpec::reference(records).scenario();
    let start = now_milliseconds();
    let trace = Engine::run(scenario).map_err(|error| error.to_string())?;
    let milliseconds = now_milliseconds() - start;
    Ok(Measured {
        records,
        events: trace.len(),
        milliseconds,
    })
}

#[component]
pub fn EnginePage() -> Html {
    let status = use_state(|| Status::Idle);
    // One size per timeout, so the page repaints between sizes and says what it is doing.
    {
        let status = status.clone();
        use_effect_with((*status).clone(), move |current| {
            let mut pending = None;
            if let Status::Running { done } = current {
                let done = done.clone();
                pending = Some(Timeout::new(30, move || {
                    let records = SIZES[done.len()];
                    let next = match measure(records) {
                        Ok(measured) => {
                            let mut done = done;
                            done.push(measured);
                            if done.len() == SIZES.len() {
                                Status::Finished { done }
                            } else {
                                Status::Running { done }
                            }
                        }
                        Err(message) => Status::Failed { message },
                    };
                    status.set(next);
                }));
            }
            move || drop(pending)
        });
    }
    let onrun = {
        let status = status.clone();
        Callback::from(move |_| status.set(Status::Running { done: Vec::new() }))
    };
    let running = matches!(*status, Status::Running { .. });
    let (done, message) = match &*status {
        Status::Idle => (Vec::new(), String::new()),
        Status::Running { done } => (
            done.clone(),
            format!(
                "Running {} records…",
                thousands(SIZES[done.len().min(SIZES.len() - 1)])
            ),
        ),
        Status::Finished { done } => {
            let message = growth(done);
            (done.clone(), message)
        }
        Status::Failed { message } => (Vec::new(), format!("The run failed: {message}")),
    };
    let rows = done.iter().map(|measured| {
        let per_second = f64::from(measured.events) / (measured.milliseconds / 1000.0).max(1e-9);
        let per_event = measured.milliseconds * 1000.0 / f64::from(measured.events.max(1));
        html! {
            <tr>
                <th scope="row">{ thousands(measured.records) }</th>
                <td>{ thousands(measured.events) }</td>
                <td>{ format!("{:.0}", measured.milliseconds) }</td>
                <td>{ thousands(per_second.round() as u32) }</td>
                <td>{ format!("{per_event:.2}") }</td>
            </tr>
        }
    });
    html! {
        <main id="main" tabindex="-1" class="page engine-page">
            <h1>{ "Engine performance" }</h1>
            <p>
                { "How fast this browser runs the lab's engine. Each run builds the whole trace of a batch of reservations shared by two workers, with a lost reply and a busy provider each striking 5% of submits: the same batch " }
                <code>{ "make bench" }</code>{ " measures natively. Nothing is sent anywhere." }
            </p>
            <p>
                <button type="button" onclick={onrun} disabled={running}>{ "Run the measurement" }</button>
            </p>
            <p role="status" aria-live="polite">{ message }</p>
            if !done.is_empty() {
                <table class="engine-figures">
                    <caption>{ "Building the whole trace, by size of the batch" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Records" }</th>
                            <th scope="col">{ "Events" }</th>
                            <th scope="col">{ "Time (ms)" }</th>
                            <th scope="col">{ "Events per second" }</th>
                            <th scope="col">{ "Time per event (µs)" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
            <p><Link<Route> to={Route::Home}>{ "Back to the course map" }</Link<Route>></p>
        </main>
    }
}

/// How the time per event grew from the smallest size to the largest.
fn growth(done: &[Measured]) -> String {
    let per_event = |measured: &Measured| measured.milliseconds / f64::from(measured.events.max(1));
    match (done.first(), done.last()) {
        (Some(first), Some(last)) if done.len() > 1 => format!(
            "Done. The time per event at {} records is {:.2} times that at {} records (1.00 would be perfectly linear).",
            thousands(last.records),
            per_event(last) / per_event(first).max(1e-12),
            thousands(first.records)
        ),
        _ => "Done.".to_string(),
    }
}

/// 10000 as "10,000".
fn thousands(value: u32) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(69_034), "69,034");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
