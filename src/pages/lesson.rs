//! A lesson: the narrative beside the lab. The step in the URL is the only cursor; Back and Next
//! replace the URL, so a deep link opens exactly the state it names.

use std::rc::Rc;

use lab_engine::{Engine, Scenario, Trace};
use wasm_bindgen::JsCast;
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::code_panel::CodePanel;
use crate::components::compare::Compare;
use crate::components::event_card::EventCard;
use crate::components::invariants::Invariants;
use crate::components::narrative::Narrative;
use crate::components::record_table::RecordTable;
use crate::components::sequence_diagram::SequenceDiagram;
use crate::components::stepper::Stepper;
use crate::components::switches::Switches;
use crate::components::variant_bar::VariantBar;
use crate::course::course;
use crate::frames::{narrative_at, Frames};
use crate::pages::not_found::NotFound;
use crate::route::Route;
use crate::store::{use_app, use_app_dispatch, AppAction, RecordVisit, Speed};

#[derive(Properties, PartialEq)]
pub struct LessonPageProps {
    pub id: String,
    /// The 1-based step from the URL, as written there.
    pub step: Option<AttrValue>,
}

/// Runs every variant of a lesson through the engine, once per lesson.
fn run_variants(id: &str) -> Result<Vec<Rc<Trace>>, String> {
    let course = course();
    let lesson = course
        .lesson(id)
        .ok_or_else(|| format!("no lesson \"{id}\""))?;
    lesson
        .variants
        .iter()
        .map(|variant| {
            Engine::run(variant.scenario.clone())
                .map(Rc::new)
                .map_err(|error| error.to_string())
        })
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

/// The focused element, if the key event came from one.
fn target(event: &web_sys::KeyboardEvent) -> Option<web_sys::Element> {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
}

/// The input's type, lower case ("" for anything that is not an <input>).
fn input_type(element: &web_sys::Element) -> String {
    match element.tag_name().as_str() {
        "INPUT" => element
            .get_attribute("type")
            .unwrap_or_else(|| "text".into())
            .to_lowercase(),
        _ => String::new(),
    }
}

/// The learner is typing in a field, or moving a slider or a list: keys are theirs, not
/// shortcuts. A checkbox or a button leaves the shortcuts alone.
fn typing(event: &web_sys::KeyboardEvent) -> bool {
    target(event).is_some_and(|element| match element.tag_name().as_str() {
        "TEXTAREA" | "SELECT" => true,
        "INPUT" => !matches!(
            input_type(&element).as_str(),
            "checkbox" | "radio" | "button" | "submit"
        ),
        _ => false,
    })
}

/// Space on a focused button or checkbox presses it; it is not the play shortcut.
fn on_button(event: &web_sys::KeyboardEvent) -> bool {
    target(event).is_some_and(|element| {
        matches!(element.tag_name().as_str(), "BUTTON" | "SUMMARY")
            || matches!(input_type(&element).as_str(), "checkbox" | "radio")
    })
}

/// Frames worth a marker on the scrubber: every fault, and where each design first breaks.
fn markers(
    traces: &[Rc<Trace>],
    frames: &Frames,
    lesson: &lab_course::Lesson,
) -> Vec<(u32, String)> {
    let mut markers = Vec::new();
    for (index, trace) in traces.iter().enumerate() {
        let design = format!("design {}", index + 1);
        for event in trace.events.iter().filter(|event| event.fault.is_some()) {
            let fault = event
                .fault
                .map(|fault| fault.name().replace('_', " "))
                .unwrap_or_default();
            markers.push((
                frames.frame(index, event.index),
                format!("{fault} ({design})"),
            ));
        }
        if let Some(broken) = trace.first_broken() {
            markers.push((
                frames.frame(index, broken),
                format!("invariant broken ({design})"),
            ));
        }
        if index > 0 {
            markers.push((
                frames.start_of(index),
                format!("{} starts", lesson.variants[index].label),
            ));
        }
    }
    markers.sort();
    markers.dedup_by_key(|marker| marker.0);
    markers
}

#[derive(Properties, PartialEq)]
struct ShortcutsProps {
    onclose: Callback<()>,
}

/// The keyboard shortcuts, as a small dialog.
#[component]
fn Shortcuts(props: &ShortcutsProps) -> Html {
    let onclose = {
        let onclose = props.onclose.clone();
        Callback::from(move |_: MouseEvent| onclose.emit(()))
    };
    let rows = [
        ("→ or Page Down", "Next step"),
        ("← or Page Up", "Previous step"),
        ("Space", "Play or pause"),
        ("Home / End", "First / last step"),
        ("p", "Presenter mode on or off"),
        ("?", "Show or hide these shortcuts"),
        ("Tab", "Move between controls"),
    ];
    html! {
        <section class="shortcuts" role="dialog" aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">{ "Keyboard shortcuts" }</h2>
            <table aria-labelledby="shortcuts-title">
                <tbody>
                    { for rows.iter().map(|(key, what)| html! { <tr><th scope="row"><kbd>{ *key }</kbd></th><td>{ *what }</td></tr> }) }
                </tbody>
            </table>
            <button type="button" onclick={onclose} autofocus=true>{ "Close" }</button>
        </section>
    }
}

#[component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let course = course();
    let traces = use_memo(props.id.clone(), |id| run_variants(id));
    // The learner's own variant of one design, made with the switches: (lesson, design, scenario).
    let custom = use_state(|| None::<(String, usize, Scenario)>);
    let custom_trace = use_memo((*custom).clone(), |custom| {
        custom
            .as_ref()
            .and_then(|(_, _, scenario)| Engine::run(scenario.clone()).ok())
            .map(Rc::new)
    });
    let comparing = use_state(|| false);
    let navigator = use_navigator().expect("the lesson page is inside a router");
    let playing = use_state(|| false);
    let help = use_state(|| false);
    let text_hidden = use_state(|| false);
    let app = use_app();
    let dispatch = use_app_dispatch();
    let speed = app.settings.speed;
    let Some(lesson) = course.lesson(&props.id).cloned() else {
        let message = format!(
            "There is no lesson called \"{}\". It may have been renamed.",
            props.id
        );
        return html! { <NotFound message={message} /> };
    };
    let base: &Vec<Rc<Trace>> = match &*traces {
        Ok(traces) => traces,
        Err(error) => {
            let message = format!(
                "The lesson \"{}\" could not run its scenario: {error}",
                lesson.title
            );
            return html! { <NotFound message={message} /> };
        }
    };
    // The designs as shown: the lesson's, with the learner's variant in place of one of them.
    let customised = (*custom)
        .as_ref()
        .filter(|(id, _, _)| id == &lesson.id)
        .map(|(_, variant, _)| *variant);
    // Shared, never copied: a trace holds the whole state after every event.
    let traces: Vec<Rc<Trace>> = base
        .iter()
        .enumerate()
        .map(|(index, trace)| match (&*custom_trace, customised) {
            (Some(mine), Some(variant)) if variant == index => Rc::clone(mine),
            _ => Rc::clone(trace),
        })
        .collect();
    let frames = Frames::new(traces.iter().map(|trace| trace.len()));
    let (frame, notice) = parse_step(props.step.as_ref(), &frames);
    let (variant_index, cursor) = frames.locate(frame);
    let trace = Rc::clone(&traces[variant_index]);
    let variant = &lesson.variants[variant_index];

    // `jump` goes to any frame (also of designs about to change); `go` stays within these.
    let jump = {
        let navigator = navigator.clone();
        let id = lesson.id.clone();
        Callback::from(move |frame: u32| {
            let step = (frame + 1).to_string();
            navigator.replace(&Route::LessonStep {
                id: id.clone(),
                step,
            });
        })
    };
    let go = {
        let jump = jump.clone();
        let last = frames.last();
        Callback::from(move |frame: u32| jump.emit(frame.min(last)))
    };
    let last = frames.last();
    {
        // Playback: one frame per tick while playing; stops by itself at the end.
        let playing = playing.clone();
        let go = go.clone();
        // `last` is a dependency: a switch can change how many frames there are.
        use_effect_with(
            (*playing, frame, speed, last),
            move |&(is_playing, frame, speed, last)| {
                let timer = (is_playing && frame < last).then(|| {
                    gloo::timers::callback::Timeout::new(speed.delay_ms(), move || {
                        go.emit(frame + 1)
                    })
                });
                if is_playing && frame >= last {
                    playing.set(false);
                }
                move || drop(timer)
            },
        );
    }
    {
        // Keyboard: arrows (and a presentation remote's Page keys) step, Home/End jump, space plays.
        // The listener is installed once and reads the page as it is now from `now`, which every
        // render refreshes: a listener that captured the frame could act on a stale one if a key
        // arrived between a render and its effects (a lost step under load).
        let now = use_mut_ref(|| (frame, false, false, last, go.clone()));
        *now.borrow_mut() = (frame, *playing, *help, last, go.clone());
        let playing = playing.clone();
        let help = help.clone();
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            // Not passive: the shortcuts call preventDefault (space must not scroll the page).
            let options = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = gloo::events::EventListener::new_with_options(
                &gloo::utils::document(),
                "keydown",
                options,
                move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                        return;
                    };
                    let (frame, is_playing, help_open, last, go) = now.borrow().clone();
                    if event.ctrl_key() || event.meta_key() || event.alt_key() || typing(event) {
                        return;
                    }
                    let handled = match event.key().as_str() {
                        "ArrowRight" | "PageDown" => {
                            go.emit((frame + 1).min(last));
                            true
                        }
                        "ArrowLeft" | "PageUp" => {
                            go.emit(frame.saturating_sub(1));
                            true
                        }
                        "Home" => {
                            go.emit(0);
                            true
                        }
                        "End" => {
                            go.emit(last);
                            true
                        }
                        " " if !on_button(event) => {
                            playing.set(!is_playing);
                            true
                        }
                        "?" => {
                            help.set(!help_open);
                            true
                        }
                        "Escape" if help_open => {
                            help.set(false);
                            true
                        }
                        "p" | "P" => {
                            dispatch.dispatch(AppAction::TogglePresenter);
                            true
                        }
                        _ => false,
                    };
                    if handled {
                        event.prevent_default();
                    }
                },
            );
            move || drop(listener)
        });
    }
    let markers = markers(&traces, &frames, &lesson);
    let ontoggleplay = {
        let playing = playing.clone();
        Callback::from(move |_| playing.set(!*playing))
    };
    let onspeed = {
        let dispatch = dispatch.clone();
        Callback::from(move |speed: Speed| dispatch.dispatch(AppAction::SetSpeed(speed)))
    };
    let onswitch = {
        let custom = custom.clone();
        let jump = jump.clone();
        let lesson_id = lesson.id.clone();
        let start = frames.start_of(variant_index);
        Callback::from(move |scenario: Scenario| {
            // Stay at the comparable point: the same event, or the last one the new run has.
            let length = Engine::run(scenario.clone())
                .map(|trace| trace.len())
                .unwrap_or(0);
            custom.set(Some((lesson_id.clone(), variant_index, scenario)));
            jump.emit(start + cursor.min(length));
        })
    };
    let onreset = {
        let custom = custom.clone();
        let jump = jump.clone();
        let start = frames.start_of(variant_index);
        let length = base[variant_index].len();
        Callback::from(move |_| {
            custom.set(None);
            jump.emit(start + cursor.min(length));
        })
    };
    let ongoevent = {
        let go = go.clone();
        let start = frames.start_of(variant_index);
        Callback::from(move |event: u32| go.emit(start + event))
    };
    let ondownload = {
        let trace = Rc::clone(&trace);
        let name = format!("{}-design-{}.json", lesson.id, variant_index + 1);
        Callback::from(move |_: MouseEvent| {
            // The engine's own JSON form (engine/TRACE.md), as `lab run --json` prints it.
            let text = serde_json::to_string(&*trace).expect("a trace always serializes");
            if let Err(error) = crate::download::download_text(&name, &text, "application/json") {
                gloo::console::error!(format!("download failed: {error}"));
            }
        })
    };
    let ontogglecompare = {
        let comparing = comparing.clone();
        Callback::from(move |_: MouseEvent| comparing.set(!*comparing))
    };
    let ontoggletext = {
        let text_hidden = text_hidden.clone();
        Callback::from(move |_: MouseEvent| text_hidden.set(!*text_hidden))
    };
    let onclosehelp = {
        let help = help.clone();
        Callback::from(move |_| help.set(false))
    };
    let narrative =
        narrative_at(&lesson, &frames, frame).map(|index| (index, lesson.steps[index].clone()));
    let world = trace.state_at(cursor);
    let previous = (cursor > 0).then(|| trace.state_at(cursor - 1));
    let event = (cursor > 0).then(|| trace.events[(cursor - 1) as usize].clone());
    let line = event.as_ref().and_then(|event| event.line);
    let operations: Vec<String> = variant
        .scenario
        .operations
        .iter()
        .map(|operation| operation.id.clone())
        .collect();
    let lane_names: Vec<(String, String)> = trace
        .lanes
        .iter()
        .map(|lane| (lane.id.clone(), lane.label.clone()))
        .collect();
    let shown_scenario = match (&*custom, customised) {
        (Some((_, _, scenario)), Some(index)) if index == variant_index => scenario.clone(),
        _ => variant.scenario.clone(),
    };
    let compared: Vec<(String, lab_course::VariantKind, Rc<Trace>)> = match *comparing {
        false => Vec::new(),
        true => lesson
            .variants
            .iter()
            .zip(&traces)
            .map(|(variant, trace)| (variant.label.clone(), variant.kind, Rc::clone(trace)))
            .collect(),
    };
    // The narrative step's "try it", when it belongs to the design on show.
    let try_it = narrative
        .as_ref()
        .filter(|(_, step)| step.variant as usize == variant_index)
        .and_then(|(_, step)| step.try_it.clone());
    let tried = try_it
        .as_ref()
        .is_some_and(|try_it| try_it.switch.get(&shown_scenario) == try_it.on);
    let ontry = {
        let onswitch = onswitch.clone();
        let shown = shown_scenario.clone();
        Callback::from(move |_| {
            if let Some(try_it) = &try_it {
                onswitch.emit(try_it.switch.set(&shown, try_it.on));
            }
        })
    };
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
            <RecordVisit lesson={lesson.id.clone()} step={frame + 1} total={frames.total()} />
            if let Some(notice) = notice {
                <p class="notice" role="status">{ notice }</p>
            }
            <div class="lesson-tools">
                <button type="button" aria-expanded={(!*text_hidden).to_string()} aria-controls="lesson-text" onclick={ontoggletext}>
                    { if *text_hidden { "Show lesson text" } else { "Hide lesson text" } }
                </button>
                <p class="shortcut-hint">{ "Keys: ← → step · Space play · Home/End · p presenter · ? all shortcuts" }</p>
            </div>
            if *help {
                <Shortcuts onclose={onclosehelp} />
            }
            <div class={classes!("lesson-grid", text_hidden.then_some("text-hidden"))}>
                <Narrative
                    hidden={*text_hidden}
                    tried={tried}
                    ontry={ontry}
                    step={narrative.as_ref().map(|(_, step)| step.clone())}
                    number={narrative.as_ref().map(|(index, _)| *index as u32 + 1).unwrap_or(0)}
                    count={lesson.steps.len() as u32}
                    key={format!("{}-{}", lesson.id, narrative.as_ref().map(|(index, _)| *index).unwrap_or(0))}
                />
                <section class="lab" aria-label="Lab">
                    <VariantBar
                        variants={lesson.variants.iter().map(|variant| (variant.label.clone(), variant.kind)).collect::<Vec<_>>()}
                        current={variant_index as u32}
                        custom={customised.map(|index| index as u32)}
                        starts={starts}
                        ongo={go.clone()}
                    />
                    <Stepper frame={frame} total={frames.total()} ongo={go.clone()} playing={*playing} {ontoggleplay} {markers} {speed} {onspeed} />
                    <EventCard event={event} cursor={cursor} events={trace.len()} lanes={lane_names} />
                    <RecordTable world={world} previous={previous} operations={operations.clone()} lanes={trace.lanes.clone()} stages={trace.stages.clone()} />
                    <SequenceDiagram trace={Rc::clone(&trace)} cursor={cursor} />
                    <div class="lab-pair">
                        <CodePanel code={trace.code.clone()} line={line} />
                        <Invariants verdicts={trace.verdicts_at(cursor)} ongoevent={ongoevent} />
                    </div>
                    <Switches
                        scenario={shown_scenario}
                        original={variant.scenario.clone()}
                        faults={variant.scenario.faults.clone()}
                        onchange={onswitch.clone()}
                        {onreset}
                    />
                    <div class="compare-bar">
                        <button type="button" aria-pressed={comparing.to_string()} onclick={ontogglecompare}>
                            { "Compare designs side by side" }
                        </button>
                        <button type="button" onclick={ondownload}>{ "Download this run (JSON)" }</button>
                    </div>
                    if *comparing {
                        <Compare designs={compared} cursor={cursor} operations={operations.clone()} />
                    }
                </section>
            </div>
        </main>
    }
}
