//! A lesson: the narrative beside the lab. The step in the URL is the only cursor; Back and Next
//! replace the URL, so a deep link opens exactly the state it names.

use std::rc::Rc;

use lab_engine::{Engine, Trace};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::event_card::EventCard;
use crate::components::invariants::Invariants;
use crate::components::narrative::Narrative;
use crate::components::record_table::RecordTable;
use crate::components::stepper::Stepper;
use crate::components::variant_bar::VariantBar;
use crate::course::course;
use crate::frames::{narrative_at, Frames};
use crate::pages::not_found::NotFound;
use crate::route::Route;

#[derive(Properties, PartialEq)]
pub struct LessonPageProps {
    pub id: String,
    /// The 1-based step from the URL, as written there.
    pub step: Option<AttrValue>,
}

/// Runs every variant of a lesson through the engine, once per lesson.
fn run_variants(id: &str) -> Result<Vec<Trace>, String> {
    let course = course();
    let lesson = course
        .lesson(id)
        .ok_or_else(|| format!("no lesson \"{id}\""))?;
    lesson
        .variants
        .iter()
        .map(|variant| Engine::run(variant.scenario.clone()).map_err(|error| error.to_string()))
        .collect()
}

/// The frame a URL step names, or why it cannot be used.
fn parse_step(step: Option<&AttrValue>, frames: &Frames) -> (u32, Option<String>) {
    let Some(text) = step else {
        return (0, None);
    };
    match text.parse::<u32>() {
        Ok(number) if number >= 1 && number <= frames.total() => (number - 1, None),
        _ => (
            0,
            Some(format!(
                "This link points to step \"{text}\", which this lesson does not have (it has steps 1 to {}). Showing step 1.",
                frames.total()
            )),
        ),
    }
}

#[component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let course = course();
    let traces = use_memo(props.id.clone(), |id| run_variants(id));
    let navigator = use_navigator().expect("the lesson page is inside a router");
    let Some(lesson) = course.lesson(&props.id).cloned() else {
        let message = format!(
            "There is no lesson called \"{}\". It may have been renamed.",
            props.id
        );
        return html! { <NotFound message={message} /> };
    };
    let traces: Rc<Vec<Trace>> = match &*traces {
        Ok(traces) => Rc::new(traces.clone()),
        Err(error) => {
            let message = format!(
                "The lesson \"{}\" could not run its scenario: {error}",
                lesson.title
            );
            return html! { <NotFound message={message} /> };
        }
    };
    let frames = Frames::new(&traces);
    let (frame, notice) = parse_step(props.step.as_ref(), &frames);
    let (variant_index, cursor) = frames.locate(frame);
    let trace = &traces[variant_index];
    let variant = &lesson.variants[variant_index];

    let go = {
        let navigator = navigator.clone();
        let id = lesson.id.clone();
        let last = frames.last();
        Callback::from(move |frame: u32| {
            let step = (frame.min(last) + 1).to_string();
            navigator.replace(&Route::LessonStep {
                id: id.clone(),
                step,
            });
        })
    };
    let narrative =
        narrative_at(&lesson, &frames, frame).map(|index| (index, lesson.steps[index].clone()));
    let world = trace.state_at(cursor).clone();
    let previous = (cursor > 0).then(|| trace.state_at(cursor - 1).clone());
    let event = (cursor > 0).then(|| trace.events[(cursor - 1) as usize].clone());
    let operations: Vec<String> = variant
        .scenario
        .operations
        .iter()
        .map(|operation| operation.id.clone())
        .collect();
    let lanes: Vec<lab_engine::LaneKind> = trace.lanes.iter().map(|lane| lane.kind).collect();
    let lane_names: Vec<(String, String)> = trace
        .lanes
        .iter()
        .map(|lane| (lane.id.clone(), lane.label.clone()))
        .collect();
    let starts: Vec<u32> = (0..lesson.variants.len())
        .map(|index| frames.start_of(index))
        .collect();

    html! {
        <main id="main" tabindex="-1" class="page lesson">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ lesson.title.clone() }</span>
            </nav>
            <h1>{ lesson.title.clone() }</h1>
            if let Some(notice) = notice {
                <p class="notice" role="status">{ notice }</p>
            }
            <div class="lesson-grid">
                <Narrative
                    step={narrative.as_ref().map(|(_, step)| step.clone())}
                    number={narrative.as_ref().map(|(index, _)| *index as u32 + 1).unwrap_or(0)}
                    count={lesson.steps.len() as u32}
                    key={format!("{}-{}", lesson.id, narrative.as_ref().map(|(index, _)| *index).unwrap_or(0))}
                />
                <section class="lab" aria-label="Lab">
                    <VariantBar
                        variants={lesson.variants.iter().map(|variant| (variant.label.clone(), variant.kind)).collect::<Vec<_>>()}
                        current={variant_index as u32}
                        starts={starts}
                        ongo={go.clone()}
                    />
                    <Stepper frame={frame} total={frames.total()} ongo={go.clone()} />
                    <EventCard event={event} cursor={cursor} events={trace.len()} lanes={lane_names} />
                    <RecordTable world={world} previous={previous} operations={operations} lanes={lanes} />
                    <Invariants verdicts={trace.verdicts.clone()} cursor={cursor} />
                </section>
            </div>
        </main>
    }
}
