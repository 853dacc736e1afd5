//! A lesson: the narrative beside the lab. The address always names exactly what the lab shows:
//! the step, and the learner's changes to a design (switches, faults, a counterexample's
//! schedule), so opening it restores that state. The embed shows the lab alone.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::share::{decode, encode, Changes, ShareError, Shared};
use lab_course::{Lesson, Task};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::board::BuildBoard;
use crate::components::hunt::HuntBoard;
use crate::components::narrative::Narrative;
use crate::components::share::Share;
use crate::components::task::TaskCard;
use crate::components::waiting::Waiting;
use crate::course::{use_lesson, LessonEntry, Loaded, OUTLINE};
use crate::frames::{narrative_at, Frames};
use crate::pages::not_found::NotFound;
use crate::player::{
    absolute, use_player_address, use_player_with, Lab, Part, PlayerAction, PlayerState,
    Prediction, Setup,
};
use crate::route::Route;
use crate::store::{use_app, use_app_dispatch, AppAction, RecordVisit};

#[derive(Properties, PartialEq)]
pub struct LessonPageProps {
    pub id: String,
    /// The 1-based step from the URL, as written there.
    pub step: Option<AttrValue>,
    /// The learner's changes to a design, as the link encodes them.
    #[prop_or_default]
    pub changes: Option<AttrValue>,
    /// Only the lab, for an `<iframe>`.
    #[prop_or_default]
    pub embedded: bool,
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

/// What a link names: the learner's changes applied to one of the lesson's designs, and a build
/// task's board.
type Linked = (
    Option<(usize, lab_engine::Scenario)>,
    Option<(usize, lab_engine::Program)>,
);

/// The learner's changes and board a link names, applied to the lesson's designs.
fn read_changes(lesson: &Lesson, text: &str) -> Result<Linked, ShareError> {
    let (design, board) = match decode(text)? {
        Shared::Lesson { design, changes } => (Some((design, changes)), None),
        Shared::Built {
            part,
            design,
            board,
        } => (design, Some((part as usize, board))),
        Shared::Scenario { .. } | Shared::Challenge(_) => return Err(ShareError::Malformed),
    };
    let custom = match design {
        None => None,
        Some((design, changes)) => {
            let written = lesson
                .designs
                .get(design as usize)
                .ok_or(ShareError::NoSuchDesign { design: design + 1 })?;
            Some((design as usize, changes.apply(&written.scenario)?))
        }
    };
    Ok((custom, board))
}

/// What the address asks the player to show, and why part of it cannot be (the rest is shown:
/// a bad link shows the lesson's own designs). A step the lesson does not have shows step 1.
fn setup_of(
    lesson: &Lesson,
    step: Option<&AttrValue>,
    changes: Option<&AttrValue>,
) -> (Setup, Option<String>) {
    let frame = step
        .and_then(|text| text.parse::<u32>().ok())
        .and_then(|number| number.checked_sub(1))
        .unwrap_or(0);
    let ((custom, board), notice) = match changes.map(|text| read_changes(lesson, text)) {
        None => ((None, None), None),
        Some(Ok(linked)) => (linked, None),
        Some(Err(error)) => (
            (None, None),
            Some(format!("This link's changes to the lesson cannot be shown: {error}. Showing the lesson's own designs.")),
        ),
    };
    (
        Setup {
            custom,
            frame,
            board,
        },
        notice,
    )
}

/// The address of a player state.
fn route_of(lesson: &Lesson, setup: &Setup, embedded: bool) -> Route {
    let design = setup.custom.as_ref().map(|(design, scenario)| {
        let original = &lesson.designs[*design].scenario;
        (*design as u32, Changes::between(original, scenario))
    });
    let changes = match (design, &setup.board) {
        (None, None) => None,
        (Some((design, changes)), None) => Some(encode(&Shared::Lesson { design, changes })),
        (design, Some((part, board))) => Some(encode(&Shared::Built {
            part: *part as u32,
            design,
            board: board.clone(),
        })),
    };
    Route::lesson(&lesson.id, setup.frame + 1, changes, embedded)
}

#[component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let (loaded, retry) = use_lesson(&props.id);
    let Some(entry) = OUTLINE.lesson(&props.id) else {
        let message = format!(
            "There is no lesson called \"{}\". It may have been renamed.",
            props.id
        );
        return html! { <NotFound message={message} /> };
    };
    match loaded {
        Loaded::Ready(lesson) => html! {
            <LessonView
                key={props.id.clone()}
                lesson={lesson}
                step={props.step.clone()}
                changes={props.changes.clone()}
                embedded={props.embedded}
            />
        },
        loaded => waiting(
            entry,
            props.embedded,
            html! {
                <Waiting {loaded} {retry} loading="Loading the lesson…" failed="The lesson could not be loaded" />
            },
        ),
    }
}

/// A lesson's page while its file is on its way, or after it failed to come: its title, and
/// `body` (the loading line, or the alert and what to do).
fn waiting(entry: &LessonEntry, embedded: bool, body: Html) -> Html {
    let breadcrumb = (!embedded).then(|| {
        html! {
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ entry.title }</span>
            </nav>
        }
    });
    html! {
        <main id="main" tabindex="-1" class={classes!("page", "lesson", embedded.then_some("embed"))}>
            { for breadcrumb }
            <h1>{ entry.title }</h1>
            { body }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct LessonViewProps {
    lesson: Rc<Lesson>,
    step: Option<AttrValue>,
    changes: Option<AttrValue>,
    embedded: bool,
}

#[component]
fn LessonView(props: &LessonViewProps) -> Html {
    let lesson = &props.lesson;
    let designs = use_memo(lesson.id.clone(), |_| lesson.designs.clone());
    let (asked, link_notice) = setup_of(lesson, props.step.as_ref(), props.changes.as_ref());
    let parts = use_memo(lesson.id.clone(), |_| Part::of_lesson(lesson));
    // Predictions answered or skipped before (saved progress): a reload does not ask them again.
    let known = use_app()
        .progress
        .predictions
        .get(&lesson.id)
        .map(|saved| {
            let part = |&part: &u32| part.checked_sub(1).map(|part| part as usize);
            let skipped = saved.skipped.iter().filter_map(part);
            let answered = saved.answered.iter().filter_map(part);
            skipped
                .map(|part| (part, Prediction::Skipped))
                .chain(answered.map(|part| (part, Prediction::Answered)))
                .collect()
        })
        .unwrap_or_default();
    let player = use_player_with(designs, parts, known, asked.clone());
    // The line the learner picked for a "find the line" task, by step.
    let picked = use_state(|| None::<(usize, String)>);
    {
        // Progress keeps which predictions were answered and which skipped.
        let app = use_app_dispatch();
        let lesson = lesson.id.clone();
        use_effect_with(player.predictions().clone(), move |predictions| {
            for (&part, &prediction) in predictions {
                app.dispatch(AppAction::Predicted {
                    lesson: lesson.clone(),
                    part: part as u32 + 1,
                    skipped: prediction == Prediction::Skipped,
                });
            }
        });
    }
    {
        let lesson = Rc::clone(lesson);
        let embedded = props.embedded;
        use_player_address(
            &player,
            asked,
            Rc::new(move |setup: &Setup| route_of(&lesson, setup, embedded)),
        );
    }
    let text_hidden = use_state(|| false);
    if let Some(error) = player.error() {
        let message = format!(
            "The lesson \"{}\" could not run its scenario: {error}",
            lesson.title
        );
        return html! { <NotFound message={message} /> };
    }
    let frames = player.frames();
    let frame = player.frame();
    // The address's step, when the lesson does not have it (the player shows step 1).
    let step_notice = parse_step(props.step.as_ref(), frames).1;
    let notices = step_notice.into_iter().chain(link_notice).map(|notice| {
        html! { <p class="notice" role="status">{ notice }</p> }
    });
    let setup = player.setup();
    let full = absolute(&route_of(lesson, &setup, false));
    // A "find the line" task on the part shown turns the code panel's lines into buttons.
    let finding = narrative_at(lesson, frames, frame)
        .filter(|&index| lesson.steps[index].design as usize == player.located().0)
        .filter(|&index| matches!(lesson.steps[index].try_it, Some(Task::FindLine { .. })));
    let onpick = finding.map(|index| {
        let picked = picked.clone();
        Callback::from(move |line: String| picked.set(Some((index, line))))
    });
    let picked_line = picked
        .as_ref()
        .filter(|(index, _)| Some(*index) == finding)
        .map(|(_, line)| AttrValue::from(line.clone()));
    if props.embedded {
        return html! {
            <main id="main" tabindex="-1" class="page lesson embed">
                <h1>{ lesson.title.clone() }</h1>
                { notices.collect::<Html>() }
                <p class="embed-open"><a href={full} target="_blank" rel="noopener">{ "Open in Idempotency Lab" }</a></p>
                <Lab player={player.clone()} name={lesson.id.clone()} />
            </main>
        };
    }
    let share = html! {
        <Share
            link={full}
            embed={absolute(&route_of(lesson, &setup, true))}
            title={format!("Idempotency Lab: {}", lesson.title)}
        />
    };
    html! {
        <main id="main" tabindex="-1" class="page lesson">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ lesson.title.clone() }</span>
            </nav>
            <h1>{ lesson.title.clone() }</h1>
            <RecordVisit lesson={lesson.id.clone()} step={frame + 1} total={frames.total()} />
            { notices.collect::<Html>() }
            <div class="lesson-tools">
                <button type="button" aria-expanded={(!*text_hidden).to_string()} aria-controls="lesson-text" onclick={
                    let text_hidden = text_hidden.clone();
                    Callback::from(move |_: MouseEvent| text_hidden.set(!*text_hidden))
                }>
                    { if *text_hidden { "Show lesson text" } else { "Hide lesson text" } }
                </button>
                <p class="shortcut-hint">{ "Keys: ← → step · Space play · Home/End · p presenter · ? all shortcuts" }</p>
            </div>
            <div class={classes!("lesson-grid", text_hidden.then_some("text-hidden"))}>
                { narrative(lesson, &player, &picked, *text_hidden) }
                <Lab player={player.clone()} name={lesson.id.clone()} onpick={onpick} picked={picked_line}>{ share }</Lab>
            </div>
        </main>
    }
}

/// The lesson's text at the frame shown, with its task when it belongs to the design on show.
fn narrative(
    lesson: &Lesson,
    player: &UseReducerHandle<PlayerState>,
    picked: &UseStateHandle<Option<(usize, String)>>,
    hidden: bool,
) -> Html {
    let frame = player.frame();
    let (design, cursor) = player.located();
    let narrative = narrative_at(lesson, player.frames(), frame)
        .map(|index| (index, lesson.steps[index].clone()));
    let index = narrative.as_ref().map(|(index, _)| *index);
    let prediction = index.and_then(|index| player.predictions().get(&index).copied());
    let (task, solved) = narrative
        .as_ref()
        .filter(|(_, step)| step.design as usize == design)
        .and_then(|(index, step)| step.try_it.clone().map(|task| (*index, task)))
        .map(|(index, task)| task_card(lesson, player, picked, index, task, prediction.is_some()))
        .unwrap_or_default();
    // The part before this one asked to run until an event, and that event is where this part
    // begins: say the task is done, here.
    let own = player.custom().is_none_or(|(changed, _)| changed != design);
    let reached = index
        .and_then(|index| index.checked_sub(1))
        .and_then(|before| match &lesson.steps[before].try_it {
            Some(Task::Until { event, .. })
                if lesson.steps[before].design as usize == design && *event <= cursor && own =>
            {
                Some(AttrValue::from(format!(
                    "Done: you ran until event {event}."
                )))
            }
            _ => None,
        });
    let onanswer = {
        let dispatcher = player.dispatcher();
        Callback::from(move |()| {
            if let Some(index) = index {
                dispatcher.dispatch(PlayerAction::Answer(index));
            }
        })
    };
    let onsolved = {
        let dispatcher = player.dispatcher();
        Callback::from(move |()| {
            if let Some(index) = index {
                dispatcher.dispatch(PlayerAction::Solved(index));
            }
        })
    };
    // An option's refuting event is in its step's design, as the lesson wrote it.
    let onshow = {
        let dispatcher = player.dispatcher();
        let step_design = narrative.as_ref().map(|(_, step)| step.design as usize);
        Callback::from(move |event: u32| {
            if let Some(design) = step_design {
                dispatcher.dispatch(PlayerAction::ShowEvent { design, event });
            }
        })
    };
    html! {
        <Narrative
            {hidden}
            {task}
            revision={Rc::as_ptr(&player.trace()) as usize}
            {prediction}
            {onanswer}
            {solved}
            {onsolved}
            {onshow}
            {reached}
            step={narrative.as_ref().map(|(_, step)| step.clone())}
            number={narrative.as_ref().map(|(index, _)| *index as u32 + 1).unwrap_or(0)}
            count={lesson.steps.len() as u32}
            key={format!("{}-{}", lesson.id, narrative.as_ref().map(|(index, _)| *index).unwrap_or(0))}
        />
    }
}

/// The task of step `index`, with what the lab shows of it, and whether the learner has done it
/// (a build says so itself, from saved progress).
fn task_card(
    lesson: &Lesson,
    player: &UseReducerHandle<PlayerState>,
    picked: &UseStateHandle<Option<(usize, String)>>,
    index: usize,
    task: Task,
    predicted: bool,
) -> (Html, bool) {
    let (design, cursor) = player.located();
    let written = &lesson.designs[design].scenario;
    let shown: &lab_engine::Scenario = player.scenario_of(design);
    let dispatcher = player.dispatcher();
    if let Task::Build(build) = &task {
        let build = Rc::new((**build).clone());
        let card = html! {
            <BuildTask lesson={lesson.id.clone()} part={index} {build} player={player.clone()}
                scenario={Arc::clone(written)} task={task.clone()} />
        };
        return (card, false);
    }
    if let Task::Hunt(hunt) = &task {
        let extra: Vec<&lab_engine::FaultRule> = shown
            .faults
            .iter()
            .filter(|rule| !written.faults.contains(rule))
            .collect();
        let placed = match (
            extra.as_slice(),
            shown.faults.len() == written.faults.len() + 1,
        ) {
            ([rule], true) => hunt
                .points
                .iter()
                .position(|point| {
                    lab_course::Hunt::rule(point, rule.fault) == **rule
                        && point.faults.contains(&rule.fault)
                })
                .map(|point| (point, rule.fault)),
            _ => None,
        };
        let trace = player.trace();
        let found = placed.and_then(|_| hunt.found_at(&trace));
        let onstrike = {
            let written = written.clone();
            let hunt = Rc::new((**hunt).clone());
            Callback::from(move |(point, fault): (usize, lab_engine::FaultKind)| {
                let mut changed = lab_engine::Scenario::clone(&written);
                changed
                    .faults
                    .push(lab_course::Hunt::rule(&hunt.points[point], fault));
                dispatcher.dispatch(PlayerAction::Apply(changed));
            })
        };
        let done = found.is_some();
        let card = html! {
            <TaskCard task={task.clone()} {done}>
                <HuntBoard hunt={Rc::new((**hunt).clone())} shown={placed} {found} {onstrike} />
            </TaskCard>
        };
        return (card, done);
    }
    // A goal is reached by the learner's own design: changed, every fault of the lesson's still
    // in, and every invariant holding.
    let changed = shown != &**written;
    let done = match &task {
        Task::Flip { goal: Some(_), .. } => {
            changed
                && written
                    .faults
                    .iter()
                    .all(|rule| shown.faults.contains(rule))
                && player.trace().first_broken().is_none()
        }
        Task::Flip { switch, on, .. } => switch.get(shown) == *on,
        Task::Inject { fault, .. } => shown.faults.contains(fault),
        Task::Until { event, .. } => cursor >= *event && shown == &**written,
        Task::Choose { .. } | Task::FindLine { .. } | Task::Build(_) | Task::Hunt(_) => false,
    };
    let onact = {
        let task = task.clone();
        let dispatcher = dispatcher.clone();
        Callback::from(move |()| match &task {
            Task::Flip { switch, .. } => dispatcher.dispatch(PlayerAction::FlipSwitch(*switch)),
            Task::Inject { fault, .. } => {
                dispatcher.dispatch(PlayerAction::ToggleFault(fault.clone()))
            }
            _ => {}
        })
    };
    let (options, onchoose) = match &task {
        Task::Choose { options, .. } => {
            let changed: Vec<Option<lab_engine::Scenario>> = options
                .iter()
                .map(|option| option.change.apply(written))
                .collect();
            let onchoose = {
                let changed = changed.clone();
                Callback::from(move |option: usize| {
                    // Choosing is answering, right or wrong.
                    dispatcher.dispatch(PlayerAction::Solved(index));
                    if let Some(Some(scenario)) = changed.get(option) {
                        dispatcher.dispatch(PlayerAction::Apply(scenario.clone()));
                    }
                })
            };
            let shown_now = changed
                .iter()
                .map(|scenario| scenario.as_ref() == Some(shown))
                .collect();
            (shown_now, onchoose)
        }
        _ => (Vec::new(), Callback::noop()),
    };
    let trace = player.trace();
    let broken = trace.first_broken().is_some();
    let refuted = trace
        .verdicts
        .iter()
        .filter_map(|verdict| verdict.broken_at.map(|at| (at, verdict.invariant)))
        .min_by_key(|(at, _)| *at)
        .map(|(at, invariant)| (at, AttrValue::from(invariant.statement())));
    let onshow = {
        let dispatcher = player.dispatcher();
        Callback::from(move |event: u32| dispatcher.dispatch(PlayerAction::SeekEvent(event)))
    };
    let picked = picked
        .as_ref()
        .filter(|(step, _)| *step == index)
        .map(|(_, line)| AttrValue::from(line.clone()));
    let solved = match &task {
        Task::FindLine { line, .. } => picked.as_deref() == Some(line.as_str()),
        _ => done,
    };
    let card = html! {
        <TaskCard {task} {done} {predicted} shown={options} {broken} {changed} {refuted} {onshow} {picked} {onact} {onchoose} />
    };
    (card, solved)
}

#[derive(Properties, PartialEq)]
struct BuildTaskProps {
    lesson: String,
    /// The task's part (0-based).
    part: usize,
    build: Rc<lab_course::Build>,
    task: Task,
    player: UseReducerHandle<PlayerState>,
    /// The design as the lesson wrote it: the learner's program runs in it.
    scenario: Arc<lab_engine::Scenario>,
}

/// A build task's board: as the address has it, else as saved, else as the task starts it. Every
/// change goes to the address (the player's setup) and to saved progress.
#[component]
fn BuildTask(props: &BuildTaskProps) -> Html {
    let app = use_app();
    let app_dispatch = use_app_dispatch();
    let number = props.part as u32 + 1;
    let saved = app
        .progress
        .boards
        .get(&props.lesson)
        .and_then(|parts| parts.get(&number))
        .cloned();
    let board = props
        .player
        .board()
        .cloned()
        .or_else(|| saved.as_ref().map(|saved| saved.board.clone()))
        .unwrap_or_else(|| crate::board::start(&props.build));
    let (hints, solved) = saved
        .as_ref()
        .map_or((0, false), |saved| (saved.hints, saved.solved));
    {
        // A solved board is a done task: the lab may tell the outcome ahead.
        let dispatcher = props.player.dispatcher();
        let part = props.part;
        use_effect_with(solved, move |&solved| {
            if solved {
                dispatcher.dispatch(PlayerAction::Solved(part));
            }
        });
    }
    let save = {
        let app_dispatch = app_dispatch.clone();
        let lesson = props.lesson.clone();
        Rc::new(
            move |board: lab_engine::Program, hints: u32, solved: bool| {
                app_dispatch.dispatch(AppAction::Boarded {
                    lesson: lesson.clone(),
                    part: number,
                    board: crate::store::progress::BoardProgress {
                        board,
                        hints,
                        solved,
                        saved_milliseconds: js_sys::Date::now() as u64,
                    },
                })
            },
        )
    };
    let onchange = {
        let dispatcher = props.player.dispatcher();
        let save = Rc::clone(&save);
        Callback::from(move |board: lab_engine::Program| {
            dispatcher.dispatch(PlayerAction::SetBoard(board.clone()));
            save(board, hints, false);
        })
    };
    let onhint = {
        let save = Rc::clone(&save);
        let board = board.clone();
        Callback::from(move |shown: u32| save(board.clone(), shown, false))
    };
    let onsolved = {
        let save = Rc::clone(&save);
        let board = board.clone();
        Callback::from(move |()| save(board.clone(), hints, true))
    };
    let onopen = {
        let dispatcher = props.player.dispatcher();
        let board = board.clone();
        Callback::from(move |(scenario, event): (lab_engine::Scenario, u32)| {
            // The board goes with it, so the narrative stays on this task.
            dispatcher.dispatch(PlayerAction::SetBoard(board.clone()));
            dispatcher.dispatch(PlayerAction::OpenCounterexample { scenario, event });
        })
    };
    let onrun = {
        let dispatcher = props.player.dispatcher();
        let board = board.clone();
        Callback::from(move |scenario: lab_engine::Scenario| {
            dispatcher.dispatch(PlayerAction::SetBoard(board.clone()));
            dispatcher.dispatch(PlayerAction::Apply(scenario));
        })
    };
    // The course's own texts, rendered from its Markdown when the site was built.
    let trusted = |html: &str| Html::from_html_unchecked(AttrValue::from(html.to_string()));
    let prompt = trusted(&props.build.prompt_html);
    let author_hints: Vec<Html> = props
        .build
        .hints_html
        .iter()
        .map(|hint| trusted(hint))
        .collect();
    html! {
        <TaskCard task={props.task.clone()} done={solved}>
            <BuildBoard build={Rc::clone(&props.build)} scenario={Arc::clone(&props.scenario)} {board}
                {prompt} hints_shown={author_hints} {hints} {solved} {onchange} {onhint} {onsolved} {onopen} {onrun} />
        </TaskCard>
    }
}
