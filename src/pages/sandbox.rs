//! The sandbox page: the learner builds a scenario of their own, from a lesson's design or from
//! blank, in forms or as TOML text (the two kept in step, `crate::sandbox`; the text read and
//! written by the lab's second module, `crate::text_worker`), and imports or exports it; the lab every page shares (`crate::player::Lab`) runs it. It is saved in this
//! browser, so a reload loses nothing.
//!
//! The address always holds the exact state, `#/sandbox/STATE` (`lab_course::share`), kept by
//! the address hook (`crate::player::use_address`): the scenario and the step, replaced (never
//! pushed): a changed scenario's in the task after its run, a step's once the lab rests, so a run
//! of steps or keys writes it once. A scenario too large for
//! an address leaves `#/sandbox` there, and the page says why. An address the page did not write
//! (a link opened) shows its scenario in place of the learner's, who can go back to theirs.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use gloo::timers::callback::Timeout;
use lab_course::share::{decode, encode_within, ShareError, Shared, WholeScenario};
use lab_engine::{Scenario, WorkflowKind};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::fields::SelectField;
use crate::components::scenario_form::ScenarioForm;
use crate::components::scenario_text::ScenarioText;
use crate::components::share::Share;
use crate::course::OUTLINE;
use crate::player::{
    absolute, use_address, use_player, Address, Answered, Design, Lab, Setup, Written,
};
use crate::route::Route;
use crate::sandbox::{blank, Sandbox, SandboxAction, Shown};
use crate::store::{load_sandbox, save_sandbox};
use crate::text_worker::{Answer, Purpose, TextWorker, Told};
use crate::worker_module::Readiness;
use lab_worker::clock::now_milliseconds;

/// How long typing must pause before the text is read, in milliseconds: reading a scenario of
/// thousands of records takes a moment, and a half-typed word is never worth an error.
const READ_PAUSE_MILLISECONDS: u32 = 400;
/// How long the lab must rest (no step) before the address is written, in milliseconds:
/// held-down keys and playback write it once, and a step never waits for the encoding of
/// thousands of records.
const ADDRESS_PAUSE_MILLISECONDS: u32 = 250;
/// How long a changed scenario's new lab waits before its address is written, in milliseconds:
/// not in the task that ran the change, but in the one after, before the worker's text of it
/// comes; so an edit the page shows is in the address (and a reload opens it, not the one before).
const CHANGE_PAUSE_MILLISECONDS: u32 = 1;
/// Where the writing of an address starts, on the browser's performance timeline.
const ADDRESS_MARK: &str = "sandbox-address-start";
/// The start-from choice for a blank scenario.
const BLANK: &str = "blank";

/// Every design of every lesson, as (value, what the option says), after the blank one.
fn start_options() -> Vec<(String, String)> {
    let mut options = vec![(BLANK.to_string(), "A blank scenario".to_string())];
    for lesson in OUTLINE.lessons {
        for design in lesson.designs {
            let kind = match design.kind {
                Some(lab_course::DesignKind::Safe) => "safe",
                Some(lab_course::DesignKind::Unsafe) => "unsafe",
                None => "your own",
            };
            options.push((
                format!("{}/{}", lesson.id, design.id),
                format!("{}: {} ({kind})", lesson.title, design.label),
            ));
        }
    }
    options
}

/// Calls `done` with the scenario a start-from choice names (a lesson's design, once the
/// lesson's file is read), or with why it cannot be had.
fn start_scenario(
    choice: &str,
    workflow: WorkflowKind,
    done: impl FnOnce(Result<Scenario, String>) + 'static,
) {
    if choice == BLANK {
        return done(Ok(blank(workflow)));
    }
    let Some((lesson, design)) = choice.split_once('/') else {
        return done(Err(format!("there is no design \"{choice}\"")));
    };
    let design = design.to_string();
    crate::course::load(lesson, move |result| {
        done(match result {
            Ok(lesson) => lesson
                .design(&design)
                .map(|design| Scenario::clone(&design.scenario))
                .ok_or_else(|| format!("the lesson has no design \"{design}\"")),
            Err(why) => Err(format!("the lesson could not be loaded: {why}")),
        })
    });
}

/// The scenario and the 1-based step an address's state names.
fn read_link(state: &str) -> Result<(Scenario, u32), ShareError> {
    match decode(state)? {
        Shared::Scenario { scenario, step } => Ok((scenario.read()?, step)),
        Shared::Lesson { .. } | Shared::Built { .. } | Shared::Challenge(_) => {
            Err(ShareError::Malformed)
        }
    }
}

/// Why a link cannot be shown, in words.
fn link_problem(error: &ShareError) -> String {
    format!("This link cannot be shown: {error}. Showing your own sandbox instead.")
}

#[derive(Properties)]
struct SandboxLabProps {
    scenario: Arc<Scenario>,
    /// Changes with the scenario; the page keys this lab by it.
    revision: u32,
    /// The frame on show, shared with the page so the next lab starts there.
    frame: Rc<Cell<u32>>,
    /// The addresses the page wrote, so it knows its own address when it sees it.
    written: Rc<RefCell<Written>>,
    /// A counterexample to open, at the event that breaks it.
    onopen: Callback<(Scenario, u32)>,
    /// An address the page did not write.
    onroute: Callback<Route, Answered>,
    /// "Download the scenario (TOML)": the worker writes the text.
    ondownload: Callback<Arc<Scenario>>,
}

impl PartialEq for SandboxLabProps {
    fn eq(&self, other: &Self) -> bool {
        self.revision == other.revision
            && Arc::ptr_eq(&self.scenario, &other.scenario)
            && self.onopen == other.onopen
            && self.onroute == other.onroute
            && self.ondownload == other.ondownload
    }
}

#[derive(Properties, PartialEq)]
struct SandboxShareProps {
    /// The address's state as last written, or why the scenario does not fit in one.
    address: Option<Result<String, ShareError>>,
}

/// "Copy link" and "Embed" for the address on show; for a scenario no address can hold, why,
/// and what to do instead.
#[component]
fn SandboxShare(props: &SandboxShareProps) -> Html {
    let body = match &props.address {
        None => html! {},
        Some(Ok(state)) => {
            let link = absolute(&Route::SandboxState {
                state: state.clone(),
            });
            let embed = absolute(&Route::scenario(state.clone(), true));
            html! {
                <Share link={AttrValue::from(link)} embed={AttrValue::from(embed)} title="Idempotency Lab: a scenario from the sandbox" />
            }
        }
        Some(Err(error)) => html! {
            <p class="notice" role="status">{ format!(
                "The address cannot hold this scenario ({error}), so it names only the sandbox. Nothing is lost: your sandbox is saved in this browser. To share this scenario, download it (TOML) and send the file."
            ) }</p>
        },
    };
    html! {
        <section class="sandbox-share" aria-labelledby="sandbox-share">
            <h2 id="sandbox-share" class="panel-title">{ "Share this scenario" }</h2>
            { body }
        </section>
    }
}

/// The address's state for the scenario at a frame, encoded once per scenario: a scenario too
/// large for an address stays too large at every step.
fn address_state(
    scenario: &Scenario,
    frame: u32,
    whole: &RefCell<Option<Result<WholeScenario, ShareError>>>,
) -> Result<String, ShareError> {
    let mut whole = whole.borrow_mut();
    let scenario = whole
        .get_or_insert_with(|| Ok(WholeScenario::of(scenario)))
        .clone()?;
    let state = encode_within(&Shared::Scenario {
        scenario,
        step: frame + 1,
    });
    if let Err(error) = &state {
        *whole = Some(Err(error.clone()));
    }
    state
}

/// The lab on the sandbox's scenario: the player made for it, with the scenario as its one
/// design, so a step copies nothing of the scenario; its address; the sandbox's exports. A
/// changed scenario makes a new lab.
#[component]
fn SandboxLab(props: &SandboxLabProps) -> Html {
    let designs = {
        let scenario = Arc::clone(&props.scenario);
        use_memo((), move |_| vec![Design::own("Your scenario", scenario)])
    };
    let began = now_milliseconds();
    let setup = Setup {
        custom: None,
        frame: props.frame.get(),
        board: None,
    };
    // The player runs the engine as it is made, in this first render: that is what is timed.
    let player = use_player(Rc::clone(&designs), setup);
    let run_milliseconds = use_state(move || now_milliseconds() - began);
    // The frame this lab opened at: its address is written soon; a step's once the lab rests.
    let opened_at = *use_state(|| player.frame());
    props.frame.set(player.frame());
    let address = use_state(|| None::<Result<String, ShareError>>);
    {
        // The address follows the frame once the lab rests; this lab's scenario is encoded once.
        let whole = use_mut_ref(|| None);
        let route_of = {
            let (scenario, whole) = (Arc::clone(&props.scenario), Rc::clone(&whole));
            Rc::new(move |frame: &u32| {
                // On the browser's performance timeline as "sandbox-address", for the tests.
                mark(ADDRESS_MARK);
                match address_state(&scenario, *frame, &whole) {
                    Ok(state) => Route::SandboxState { state },
                    Err(_) => Route::Sandbox,
                }
            })
        };
        let address = address.clone();
        let onwritten = Callback::from(move |route: Route| {
            address.set(Some(match route {
                Route::SandboxState { state } => Ok(state),
                _ => match &*whole.borrow() {
                    Some(Err(error)) => Err(error.clone()),
                    _ => Err(ShareError::Malformed),
                },
            }));
            measure("sandbox-address", ADDRESS_MARK);
        });
        let sandbox_address = Address {
            shown: player.frame(),
            changed: true,
            pause_milliseconds: if player.frame() == opened_at {
                CHANGE_PAUSE_MILLISECONDS
            } else {
                ADDRESS_PAUSE_MILLISECONDS
            },
            route_of,
            onroute: props.onroute.clone(),
            onwritten: Some(onwritten),
        };
        use_address(sandbox_address, &props.written);
    }
    let lab = use_node_ref();
    let navigator = use_navigator();
    if let Some(error) = player.error() {
        return html! { <p class="notice" role="alert">{ format!("The engine could not run this scenario: {error}") }</p> };
    }
    let ondownloadtoml = {
        let (scenario, ondownload) = (Arc::clone(&props.scenario), props.ondownload.clone());
        Callback::from(move |_: MouseEvent| ondownload.emit(Arc::clone(&scenario)))
    };
    let onchallenge = {
        let scenario = Arc::clone(&props.scenario);
        Callback::from(move |_: MouseEvent| {
            if let Some(navigator) = &navigator {
                navigator.push(&crate::pages::make_challenge::route_from(&scenario));
            }
        })
    };
    let ondownloadsvg = {
        let lab = lab.clone();
        Callback::from(move |_: MouseEvent| {
            let svg = lab
                .cast::<web_sys::Element>()
                .and_then(|lab| lab.query_selector(".diagram svg").ok().flatten());
            let Some(svg) = svg else {
                return;
            };
            let title = svg
                .get_attribute("aria-label")
                .unwrap_or_else(|| "Sequence diagram".into());
            let text = crate::svg_export::standalone_svg(
                &svg,
                &format!("Idempotency Lab sandbox: {title}"),
            );
            crate::download::offer("sandbox-diagram.svg", "image/svg+xml", text);
        })
    };
    html! {
        <div class="sandbox-lab" ref={lab}>
            <p class="meta" role="status">
                { format!("{} events, run by the engine in {:.0} ms.", player.trace().len(), *run_milliseconds) }
            </p>
            <Lab player={player.clone()} name="sandbox" switches={false} onopen={props.onopen.clone()}>
                <div class="export-bar">
                    <button type="button" onclick={ondownloadtoml}>{ "Download the scenario (TOML)" }</button>
                    <button type="button" onclick={ondownloadsvg}>{ "Download the diagram (SVG)" }</button>
                    <button type="button" onclick={onchallenge}>{ "Make a challenge from this scenario" }</button>
                </div>
                <SandboxShare address={(*address).clone()} />
            </Lab>
        </div>
    }
}

/// Marks `name` on the browser's performance timeline.
fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.mark(name);
    }
}

/// Measures from the mark `start` to now on the browser's performance timeline, as `name`.
fn measure(name: &str, start: &str) {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.measure_with_start_mark(name, start);
    }
}

/// Passes the worker's answer to what it was asked for.
fn answered(dispatcher: &UseReducerDispatcher<Sandbox>, purpose: Purpose, answer: Answer) {
    match (purpose, answer) {
        (Purpose::Check { revision }, Answer::Read(result)) => {
            dispatcher.dispatch(SandboxAction::Read {
                revision,
                result: *result,
            })
        }
        (Purpose::Write { revision }, Answer::Written(text)) => {
            dispatcher.dispatch(SandboxAction::Written { revision, text })
        }
        (Purpose::Import { name, text }, Answer::Read(result)) => {
            dispatcher.dispatch(SandboxAction::Imported {
                name,
                text,
                result: *result,
            })
        }
        (Purpose::Download, Answer::Written(text)) => {
            crate::download::offer("sandbox-scenario.toml", "application/toml", Ok(text))
        }
        // The worker answers a read with a reading and a write with a text.
        _ => {}
    }
}

#[component]
pub fn SandboxPage() -> Html {
    let loaded = use_memo((), |_| load_sandbox());
    let route = use_route::<Route>();
    let in_address = match &route {
        Some(Route::SandboxState { state }) => Some(state.clone()),
        _ => None,
    };
    // The link the page was opened with, read once.
    let opened = {
        let in_address = in_address.clone();
        use_memo((), move |_| {
            in_address.map(|state| (read_link(&state), state))
        })
    };
    let state = {
        let (loaded, opened) = (Rc::clone(&loaded), Rc::clone(&opened));
        use_reducer(move || {
            let own = Sandbox::restored(&loaded.0, || blank(WorkflowKind::Reserve));
            match &*opened {
                Some((Ok((scenario, _)), _)) => (*Rc::new(own).reduce(SandboxAction::Show {
                    scenario: scenario.clone(),
                    what: Shown::Link,
                }))
                .clone(),
                _ => own,
            }
        })
    };
    // The TOML is read and written in the second module; the forms and the lab never wait for it.
    let readiness = use_state(|| Readiness::Loading);
    let texts = {
        let dispatcher = state.dispatcher();
        let readiness = readiness.setter();
        use_memo((), move |_| {
            TextWorker::start(Callback::from(move |told: Told| match told {
                Told::Readiness(now) => readiness.set(now),
                Told::Answer(purpose, answer) => answered(&dispatcher, purpose, answer),
            }))
        })
    };
    {
        // A spare module may have been ready before the page listened.
        let (readiness, texts) = (readiness.clone(), Rc::clone(&texts));
        use_effect_with((), move |_| readiness.set(texts.readiness()));
    }
    let save_problem = use_state(|| None::<String>);
    let start = use_state(|| BLANK.to_string());
    // The frame on show, kept across a change of scenario (the lab is made anew for each).
    let frame = {
        let opened = Rc::clone(&opened);
        use_memo((), move |_| {
            let step = match &*opened {
                Some((Ok((_, step)), _)) => *step,
                _ => 1,
            };
            Cell::new(step.saturating_sub(1))
        })
    };
    // The addresses the page wrote (and the one it was opened with), to tell them from a link.
    let written = use_memo((), move |_| {
        let mut written = Written::default();
        if let Some(route @ Route::SandboxState { .. }) = route {
            written.showing(&route);
        }
        RefCell::new(written)
    });
    let link_problem = {
        let opened = Rc::clone(&opened);
        use_state(move || match &*opened {
            Some((Err(error), _)) => Some(self::link_problem(error)),
            _ => None,
        })
    };
    // An address the page did not write is a link to show; the bare `#/sandbox` (the course
    // map's link) gets the state back.
    let onroute = {
        let (frame, dispatcher) = (Rc::clone(&frame), state.dispatcher());
        let link_problem = link_problem.setter();
        use_callback((), move |route: Route, _| {
            let shown = match &route {
                Route::SandboxState { state } => read_link(state),
                Route::Sandbox => Err(ShareError::Malformed),
                // Leaving the sandbox.
                _ => return Answered::Shown,
            };
            match shown {
                Ok((scenario, step)) => {
                    link_problem.set(None);
                    frame.set(step.saturating_sub(1));
                    dispatcher.dispatch(SandboxAction::Show {
                        scenario,
                        what: Shown::Link,
                    });
                    Answered::Shown
                }
                Err(error) => {
                    if matches!(route, Route::SandboxState { .. }) {
                        link_problem.set(Some(self::link_problem(&error)));
                    }
                    Answered::Refused
                }
            }
        })
    };
    {
        // Typed text is read once typing pauses.
        let (texts, text) = (Rc::clone(&texts), Rc::clone(&state.text));
        use_effect_with(
            (state.text_revision, state.checked),
            move |&(revision, checked)| {
                let timer = (!checked).then(|| {
                    Timeout::new(READ_PAUSE_MILLISECONDS, move || {
                        texts.read(&text, Purpose::Check { revision })
                    })
                });
                move || drop(timer)
            },
        );
    }
    {
        // A scenario changed elsewhere (the forms, a start, a link) has its text written.
        let (texts, scenario) = (Rc::clone(&texts), Arc::clone(&state.scenario));
        use_effect_with(
            (state.scenario_revision, state.writing),
            move |&(revision, writing)| {
                if writing {
                    texts.write(&scenario, Purpose::Write { revision });
                }
            },
        );
    }
    {
        // Saved whenever the text has been read: the text as typed, and the scenario that runs.
        let state = state.clone();
        let save_problem = save_problem.clone();
        use_effect_with(
            (
                state.scenario_revision,
                state.text_revision,
                state.settled(),
            ),
            move |&(_, _, settled)| {
                // A scenario on show in place of the learner's is not saved over theirs.
                if settled && state.saveable() {
                    match save_sandbox(&state.saved()) {
                        Ok(()) => save_problem.set(None),
                        Err(reason) => save_problem.set(Some(format!(
                            "Your sandbox could not be saved in this browser ({reason}). It stays in this tab; download it as TOML to keep a copy."
                        ))),
                    }
                }
            },
        );
    }
    // Made once: the editor's components re-render only when what they show changes, never
    // on a step (the text box can hold a megabyte of text).
    let dispatcher = state.dispatcher();
    let onedit = use_callback(dispatcher.clone(), |scenario, dispatcher| {
        dispatcher.dispatch(SandboxAction::Edit(scenario))
    });
    let ontype = use_callback(dispatcher.clone(), |text, dispatcher| {
        dispatcher.dispatch(SandboxAction::Type(text))
    });
    // The module is the page's for its life, so these are made once.
    let onimport = {
        let texts = Rc::clone(&texts);
        use_callback((), move |(name, text): (String, String), _| {
            texts.read(
                &text,
                Purpose::Import {
                    name,
                    text: text.clone(),
                },
            )
        })
    };
    let ondownload = {
        let texts = Rc::clone(&texts);
        use_callback((), move |scenario: Arc<Scenario>, _| {
            texts.write(&scenario, Purpose::Download)
        })
    };
    let onimportfailed = use_callback(dispatcher.clone(), |message, dispatcher| {
        dispatcher.dispatch(SandboxAction::ImportFailed(message))
    });
    let onopen = use_callback(
        (dispatcher, Rc::clone(&frame)),
        |(scenario, event): (Scenario, u32), (dispatcher, frame)| {
            frame.set(event);
            dispatcher.dispatch(SandboxAction::Show {
                scenario,
                what: Shown::Counterexample,
            })
        },
    );
    let onback = {
        let dispatcher = state.dispatcher();
        let frame = Rc::clone(&frame);
        Callback::from(move |_: MouseEvent| {
            frame.set(0);
            dispatcher.dispatch(SandboxAction::Back)
        })
    };
    let showing = state.showing.as_ref().map(|showing| {
        let what = match showing.what {
            Shown::Link => "The sandbox shows the scenario of the link you opened; the forms and the text edit it.",
            Shown::Counterexample => "The sandbox shows the counterexample the explorer found, so the forms and the text edit what the lab shows: change it, or flip a switch, and run it again.",
        };
        html! {
            <div class="notice showing" role="status">
                <p>{ what }{ " Your own scenario is kept, saved in this browser, until you change this one." }</p>
                <button type="button" onclick={onback}>{ "Back to your scenario" }</button>
            </div>
        }
    });
    let onstartchoice = {
        let start = start.clone();
        Callback::from(move |choice: String| start.set(choice))
    };
    // What the last start did, in words, and the revision of the scenario it made (a lesson's
    // design comes once its lesson's file is read): said until the scenario changes again.
    let started = use_state(|| None::<(Result<String, String>, u32)>);
    let onstart = {
        let dispatcher = state.dispatcher();
        let choice = (*start).clone();
        let workflow = state.scenario.workflow;
        let revision = state.scenario_revision;
        let frame = Rc::clone(&frame);
        let started = started.clone();
        Callback::from(move |_: MouseEvent| {
            let dispatcher = dispatcher.clone();
            let frame = Rc::clone(&frame);
            let started = started.clone();
            let what = start_options()
                .into_iter()
                .find(|(value, _)| *value == choice)
                .map_or_else(|| choice.clone(), |(_, label)| label);
            start_scenario(&choice, workflow, move |result| match result {
                Ok(scenario) => {
                    frame.set(0);
                    dispatcher.dispatch(SandboxAction::Edit(scenario));
                    started.set(Some((
                        Ok(format!("Started from: {what}.")),
                        revision.wrapping_add(1),
                    )));
                }
                Err(why) => started.set(Some((
                    Err(format!("This design could not be started from: {why}.")),
                    revision,
                ))),
            });
        })
    };
    let start_said = (*started)
        .clone()
        .filter(|(_, revision)| *revision == state.scenario_revision)
        .map(|(said, _)| match said {
            Ok(said) => html! { <p class="notice" role="status">{ said }</p> },
            Err(problem) => html! { <p class="notice" role="alert">{ problem }</p> },
        });
    html! {
        <main id="main" tabindex="-1" class="page sandbox">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ "Sandbox" }</span>
            </nav>
            <h1>{ "Sandbox" }</h1>
            <p class="lead">{ "Build a scenario of your own: start from a lesson's design or from blank, change it in the forms or in its TOML text, and step through what the engine does. Your sandbox is saved in this browser." }</p>
            if let Some(notice) = loaded.1.clone() {
                <p class="notice" role="alert">{ notice }</p>
            }
            if let Some(problem) = (*save_problem).clone() {
                <p class="notice" role="alert">{ problem }</p>
            }
            if let Some(problem) = (*link_problem).clone() {
                <p class="notice" role="status">{ problem }</p>
            }
            { showing.unwrap_or_default() }
            <div class="start-from" role="group" aria-label="Start from">
                <SelectField label="Start from a design" options={start_options()} value={(*start).clone()} onchange={onstartchoice} />
                <button type="button" onclick={onstart}>{ "Start from this design" }</button>
            </div>
            { start_said.unwrap_or_default() }
            <div class="sandbox-editor">
                <section class="scenario-editor" aria-labelledby="scenario-forms-title">
                    <h2 id="scenario-forms-title" class="panel-title">{ "Scenario" }</h2>
                    if let Some(problem) = state.form_error.clone() {
                        <p class="field-problem" role="alert">{ problem }</p>
                    }
                    <ScenarioForm scenario={Arc::clone(&state.scenario)} {onedit} disabled={state.error.is_some()} />
                </section>
                <ScenarioText text={Rc::clone(&state.text)} error={state.error.clone()} checked={state.checked}
                    writing={state.writing} worker={(*readiness).clone()}
                    import={state.import.clone()} {ontype} {onimport} {onimportfailed} />
            </div>
            <SandboxLab key={state.scenario_revision} scenario={Arc::clone(&state.scenario)} revision={state.scenario_revision}
                frame={Rc::clone(&frame)} written={Rc::clone(&written)} {onopen} {onroute} {ondownload} />
        </main>
    }
}
