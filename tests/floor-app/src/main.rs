//! The floor of the lab's size: what every build of it must ship, with no UI at all. Yew, every
//! lesson embedded, the engine run on each design, the explorer over it, and the trace written as
//! JSON ("Download this run"). `make bench-site` prints its size beside the lab's: what the lab
//! weighs above this is its pages (player, diagrams, tables, sandbox, share, storage, routes).

use lab_course::Course;
use lab_engine::{Budget, Engine, Explorer, Scenario};
use yew::prelude::*;

const COURSE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/course.json"));

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
                let trace = Engine::run(Scenario::clone(&design.scenario)).expect("a checked lesson runs");
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

fn main() {
    yew::Renderer::<App>::new().render();
}
