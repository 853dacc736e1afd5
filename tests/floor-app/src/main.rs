//! The floor of the lab's size: what a build of it must ship, with no UI at all. `make
//! bench-site` prints both floors' sizes beside the lab's modules, and the time to each one's
//! working button beside the minimal app's first paint.
//!
//! - The whole floor (default): Yew, every lesson embedded, the engine run on each design, the
//!   explorer over it, and the trace written as JSON ("Download this run"). What the lab weighs
//!   above it is its pages (player, diagrams, tables, sandbox, share, storage, routes).
//! - The first module's floor (`--features first-module`): what a lesson's working Next needs and
//!   nothing else: Yew, one lesson file read from its JSON, the engine's run of each design, and
//!   a Next button that steps the first design's trace and shows each event's words and the
//!   records at that step. No explorer (the worker runs it), no embedded course (each lesson is a
//!   file), no router, no panels. What the lab's first module weighs above it is the lesson's own
//!   UI.

#[cfg(not(feature = "first-module"))]
use lab_course::Course;
#[cfg(feature = "first-module")]
use lab_course::Lesson;
#[cfg(not(feature = "first-module"))]
use lab_engine::{Budget, Explorer};
use lab_engine::{Engine, Scenario};
use yew::prelude::*;

#[cfg(not(feature = "first-module"))]
const COURSE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/course.json"));

#[cfg(not(feature = "first-module"))]
#[component]
fn App() -> Html {
    let runs = use_state(|| 0_usize);
    let line = use_state(String::new);
    let onclick = {
        let runs = runs.clone();
        let line = line.clone();
        Callback::from(move |_| {
            let course: Course = serde_json::from_str(COURSE_JSON).expect("build.rs wrote it");
            let lesson = &course.lessons[*runs % course.lessons.len()];
            let mut text = lesson.title.clone();
            for design in &lesson.designs {
                let trace =
                    Engine::run(Scenario::clone(&design.scenario)).expect("a checked lesson runs");
                let report = Explorer::run(Scenario::clone(&design.scenario), Budget::default())
                    .expect("a checked lesson explores");
                let json = serde_json::to_string(&trace).expect("a trace serializes");
                text.push_str(&format!(
                    "; {}: {} bytes of trace, {} schedules",
                    design.id,
                    json.len(),
                    report.extent.schedules
                ));
            }
            line.set(text);
            runs.set(*runs + 1);
        })
    };
    html! {
        <main>
            <h1>{ "Floor" }</h1>
            <button type="button" {onclick}>{ "Run the next lesson" }</button>
            <p>{ (*line).clone() }</p>
        </main>
    }
}

/// The first lesson's file, as the lab's first module fetches it (build.rs writes it).
#[cfg(feature = "first-module")]
const LESSON_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/lesson.json"));

#[cfg(feature = "first-module")]
#[component]
fn App() -> Html {
    // Read and run at start, as the lab's lesson page does before its Next works.
    let traces = use_memo((), |()| {
        let lesson: Lesson = serde_json::from_str(LESSON_JSON).expect("build.rs wrote it");
        let traces: Vec<_> = lesson
            .designs
            .iter()
            .map(|design| {
                Engine::run(Scenario::clone(&design.scenario)).expect("a checked lesson runs")
            })
            .collect();
        (lesson.title, traces)
    });
    let cursor = use_state(|| 0_u32);
    let (title, traces) = &*traces;
    let trace = &traces[0];
    let world = trace.state_at(*cursor);
    let words = match cursor.checked_sub(1) {
        Some(at) => trace.events[at as usize].outcome_text(),
        None => String::from("Nothing has happened yet."),
    };
    let onclick = {
        let cursor = cursor.clone();
        let last = trace.len();
        Callback::from(move |_| cursor.set((*cursor + 1).min(last)))
    };
    html! {
        <main>
            <h1>{ title.clone() }</h1>
            <button type="button" {onclick}>{ "Next" }</button>
            <p>{ format!("Step {} of {}: {words}", *cursor + 1, trace.len() + 1) }</p>
            <p>{ format!("{} journal rows, {} provider records", world.journal.len(), world.provider.len()) }</p>
        </main>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
