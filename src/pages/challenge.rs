//! A challenge an instructor made and handed out by link (`#/challenge/…`, or embedded): its
//! brief, the Parsons board with **Check my design** and hints, a completion code once it is
//! solved, and the player beside it, which runs the learner's program. Before the board shows,
//! the second module holds the challenge to its promises (its answer holds, its start does not):
//! a link that fails, or cannot be read at all, shows why above the course map, and nothing
//! saved changes. The learner's attempt is saved in their progress under the challenge's id, so
//! one challenge never overwrites another's.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::challenge::{Challenge, Opened};
use lab_course::share::{decode, Shared};
use lab_course::Build;
use lab_engine::{Program, Scenario};
use lab_worker::{Reply, Request, Texts};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::board::BuildBoard;
use crate::components::completion::{CompletionCode, VerifyCode};
use crate::components::rich::{inline, rich};
use crate::components::share::Share;
use crate::pages::home::Home;
use crate::player::{absolute, use_player, Design, Lab, PlayerAction, Setup};
use crate::route::Route;
use crate::search::{module_for, Slot};
use crate::store::progress::ChallengeProgress;
use crate::store::{use_app, use_app_dispatch, AppAction};
use crate::worker_module::Heard;

#[derive(Properties, PartialEq)]
pub struct ChallengePageProps {
    /// The challenge, as its link encodes it.
    pub state: AttrValue,
    /// Only the challenge, for an `<iframe>`.
    pub embedded: bool,
}

/// The challenge a link holds, opened: everything but the explorer's part checked.
fn read(state: &str) -> Result<(Rc<Challenge>, Rc<Opened>), String> {
    match decode(state) {
        Ok(Shared::Challenge(challenge)) => {
            let opened = challenge.open()?;
            Ok((Rc::new(*challenge), Rc::new(opened)))
        }
        Ok(_) => Err("it is a link to something else".into()),
        Err(error) => Err(error.to_string()),
    }
}

#[component]
pub fn ChallengePage(props: &ChallengePageProps) -> Html {
    let read = use_memo(props.state.clone(), |state| read(state));
    match &*read {
        Err(problem) => broken(
            &format!("This challenge link cannot be opened: {problem}."),
            props.embedded,
        ),
        Ok((challenge, opened)) => html! {
            <Verified key={props.state.to_string()} challenge={Rc::clone(challenge)}
                opened={Rc::clone(opened)} state={props.state.clone()} embedded={props.embedded} />
        },
    }
}

/// A challenge that cannot be used: why, above the course map (or alone, in an embed).
fn broken(problem: &str, embedded: bool) -> Html {
    let notice =
        format!("{problem} Nothing you saved was changed; ask whoever sent it for the link again.");
    match embedded {
        true => html! {
            <main id="main" tabindex="-1" class="page challenge embed">
                <h1>{ "Challenge" }</h1>
                <p class="notice" role="status">{ notice }</p>
            </main>
        },
        false => html! { <Home notice={AttrValue::from(notice)} /> },
    }
}

#[derive(Properties, PartialEq)]
struct VerifiedProps {
    challenge: Rc<Challenge>,
    opened: Rc<Opened>,
    state: AttrValue,
    embedded: bool,
}

/// Where the second module's check of the challenge is.
#[derive(Clone, PartialEq)]
enum Check {
    Checking,
    /// It keeps its promises: its texts, drawn.
    Holds(Rc<Texts>),
    /// It does not: why.
    Broken(String),
    /// The module could not say (it did not load): why. The board still shows.
    Unknown(String),
}

/// The challenge once the second module has held it to its promises.
#[component]
fn Verified(props: &VerifiedProps) -> Html {
    let check = use_state(|| Check::Checking);
    let module: Slot = use_mut_ref(|| None);
    {
        let check = check.clone();
        let challenge = Rc::clone(&props.challenge);
        let module = Rc::clone(&module);
        use_effect_with((), move |_| {
            let onheard = Callback::from(move |heard: Heard| match heard {
                Heard::Reply(Reply::Opened(opening)) => check.set(match opening.problem {
                    Some(problem) => Check::Broken(problem),
                    None => Check::Holds(Rc::new(opening.texts)),
                }),
                Heard::Reply(Reply::Refused(words)) | Heard::Failed(words) => {
                    check.set(Check::Unknown(words))
                }
                _ => {}
            });
            let mut slot = module.borrow_mut();
            let (module, _) = module_for(&mut slot, onheard);
            module.send(&Request::Open(Box::new((*challenge).clone())));
        });
    }
    let title = props.challenge.title.trim().to_string();
    match &*check {
        Check::Checking => html! {
            <main id="main" tabindex="-1" class={classes!("page", "challenge", props.embedded.then_some("embed"))}>
                <h1>{ title }</h1>
                <p class="explore-progress" role="status">{ "Checking this challenge: does its answer hold under every schedule it names?" }</p>
            </main>
        },
        Check::Broken(problem) => broken(
            &format!("This challenge cannot be solved as it was made: {problem}."),
            props.embedded,
        ),
        Check::Holds(texts) => html! {
            <Room challenge={Rc::clone(&props.challenge)} opened={Rc::clone(&props.opened)}
                texts={Rc::clone(texts)} state={props.state.clone()} embedded={props.embedded} notice={None::<AttrValue>} />
        },
        Check::Unknown(words) => {
            let notice = format!("The lab's second module could not load ({words}), so this challenge could not be checked, and neither can your design. Reload the page to try again.");
            let texts = Rc::new(Texts {
                brief: lab_course::rich::Rich(vec![lab_course::rich::Passage::Paragraph(vec![
                    lab_course::rich::Span::Text(props.challenge.brief.clone()),
                ])]),
                hints: Vec::new(),
            });
            html! {
                <Room challenge={Rc::clone(&props.challenge)} opened={Rc::clone(&props.opened)}
                    {texts} state={props.state.clone()} embedded={props.embedded} notice={Some(AttrValue::from(notice))} />
            }
        }
    }
}

#[derive(Properties, PartialEq)]
struct RoomProps {
    challenge: Rc<Challenge>,
    opened: Rc<Opened>,
    texts: Rc<Texts>,
    state: AttrValue,
    embedded: bool,
    notice: Option<AttrValue>,
}

/// What the player shows: the learner's program run, or a counterexample at its event. A new
/// one replaces the player.
#[derive(Clone, PartialEq)]
struct Shown {
    scenario: Scenario,
    event: Option<u32>,
    serial: u32,
}

/// The challenge: brief, board, code, and the player.
#[component]
fn Room(props: &RoomProps) -> Html {
    let app = use_app();
    let app_dispatch = use_app_dispatch();
    let challenge = &props.challenge;
    let opened = &props.opened;
    let id = opened.id.to_string();
    let saved = app.progress.challenges.get(&id).cloned();
    let board = saved
        .as_ref()
        .map(|saved| saved.board.clone())
        .unwrap_or_else(|| crate::board::start(&opened.build));
    let (hints, checks, solved) = saved.as_ref().map_or((0, 0, false), |saved| {
        (saved.hints, saved.checks, saved.solved)
    });
    let scenario: Arc<Scenario> = Arc::clone(&use_memo((), {
        let scenario = opened.scenario.clone();
        move |_| Arc::new(scenario)
    }));
    let build: Rc<Build> = use_memo((), {
        let build = opened.build.clone();
        move |_| build
    });
    let shown = {
        let start = board_scenario(&opened.scenario, &crate::board::start(&opened.build));
        use_state(move || {
            start.map(|scenario| Shown {
                scenario,
                event: None,
                serial: 0,
            })
        })
    };
    let save = {
        let app_dispatch = app_dispatch.clone();
        let id = id.clone();
        let title = challenge.title.clone();
        let link = props.state.to_string();
        Rc::new(
            move |board: Program, hints: u32, checks: u32, solved: bool| {
                app_dispatch.dispatch(AppAction::Attempted {
                    id: id.clone(),
                    attempt: ChallengeProgress {
                        title: title.clone(),
                        link: link.clone(),
                        board,
                        hints,
                        checks,
                        solved,
                        saved_milliseconds: js_sys::Date::now() as u64,
                    },
                })
            },
        )
    };
    {
        // Opened is enough to be listed on the course map, so the learner finds it again.
        let save = Rc::clone(&save);
        let first = saved.is_none().then(|| board.clone());
        use_effect_with((), move |_| {
            if let Some(board) = first {
                save(board, 0, 0, false);
            }
        });
    }
    let onchange = {
        let save = Rc::clone(&save);
        Callback::from(move |board: Program| save(board, hints, checks, false))
    };
    let onhint = {
        let save = Rc::clone(&save);
        let board = board.clone();
        Callback::from(move |shown: u32| save(board.clone(), shown, checks, false))
    };
    let onchecked = {
        let save = Rc::clone(&save);
        let board = board.clone();
        Callback::from(move |()| save(board.clone(), hints, checks + 1, false))
    };
    let onsolved = {
        let save = Rc::clone(&save);
        let board = board.clone();
        Callback::from(move |()| save(board.clone(), hints, checks, true))
    };
    let show = |event: bool| {
        let shown = shown.clone();
        move |scenario: Scenario, at: Option<u32>| {
            let serial = shown.as_ref().map_or(0, |shown| shown.serial + 1);
            shown.set(Some(Shown {
                scenario,
                event: at.filter(|_| event),
                serial,
            }));
        }
    };
    let onopen = {
        let show = show(true);
        Callback::from(move |(scenario, event): (Scenario, u32)| show(scenario, Some(event)))
    };
    let onrun = {
        let show = show(false);
        Callback::from(move |scenario: Scenario| show(scenario, None))
    };
    let goal = opened.build.goal.iter().map(|invariant| {
        html! { <li>{ invariant.statement() }</li> }
    });
    let goal = html! {
        <section class="challenge-goal" aria-labelledby="challenge-goal-title">
            <h2 id="challenge-goal-title">{ "The goal" }</h2>
            <p>{ format!("Every schedule of up to {} must keep:", challenge.budget_words()) }</p>
            <ul>{ for goal }</ul>
        </section>
    };
    let prompt =
        html! { { "Arrange the blocks into a program that does the job and keeps the goal." } };
    let author_hints: Vec<Html> = props.texts.hints.iter().map(inline).collect();
    let player = match &*shown {
        Some(shown) => html! {
            <ChallengePlayer key={shown.serial} scenario={shown.scenario.clone()} event={shown.event} />
        },
        None => html! {
            <section class="lab challenge-empty" aria-label="The player">
                <p>{ "Your program's run shows here: place the blocks, then press Run it in the player." }</p>
            </section>
        },
    };
    let route = |embedded: bool| Route::challenge(props.state.to_string(), embedded);
    let notice = props
        .notice
        .as_ref()
        .map(|notice| html! { <p class="notice" role="status">{ notice.clone() }</p> });
    let saved_note = html! {
        <p class="hint">{ "Your board is saved in this browser, under this challenge only; the course map lists the challenges you opened." }</p>
    };
    let body = html! {
        <div class="lesson-grid">
            <section class="narrative challenge-brief" aria-labelledby="challenge-brief-title">
                <h2 id="challenge-brief-title" class="visually-hidden">{ "The challenge" }</h2>
                { rich(&props.texts.brief) }
                { goal }
                <div role="group" aria-label="The board">
                    <BuildBoard {build} {scenario} board={board.clone()} {prompt} hints_shown={author_hints}
                        {hints} {solved} {onchange} {onhint} {onsolved} {onchecked} {onopen} {onrun} />
                </div>
                if solved {
                    <CompletionCode challenge={Rc::clone(challenge)} {checks} {hints} />
                }
                { saved_note }
                <VerifyCode challenge={Rc::clone(challenge)} />
            </section>
            { player }
        </div>
    };
    let title = challenge.title.trim().to_string();
    if props.embedded {
        return html! {
            <main id="main" tabindex="-1" class="page challenge embed">
                <h1>{ title }</h1>
                { notice }
                <p class="embed-open"><a href={absolute(&route(false))} target="_blank" rel="noopener">{ "Open in Idempotency Lab" }</a></p>
                { body }
            </main>
        };
    }
    html! {
        <main id="main" tabindex="-1" class="page challenge">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ "Challenge" }</span>
            </nav>
            <h1>{ title.clone() }</h1>
            { notice }
            { body }
            <Share link={absolute(&route(false))} embed={absolute(&route(true))}
                title={format!("Idempotency Lab challenge: {title}")} heading="Share this challenge" link_label="Link to this challenge" />
        </main>
    }
}

/// The challenge's design with `program` in place of its own, when it is a whole program.
fn board_scenario(scenario: &Scenario, program: &Program) -> Option<Scenario> {
    program.structure(&scenario.offered()).ok()?;
    let mut with = scenario.clone();
    with.program = Some(program.clone());
    Some(with)
}

#[derive(Properties, PartialEq)]
struct ChallengePlayerProps {
    scenario: Scenario,
    /// The event (1-based) to open at: a counterexample's.
    event: Option<u32>,
}

/// The player, on one run of the learner's program.
#[component]
fn ChallengePlayer(props: &ChallengePlayerProps) -> Html {
    let designs = {
        let scenario = props.scenario.clone();
        use_memo((), move |_| vec![Design::own("Your program", scenario)])
    };
    let player = use_player(designs, Setup::default());
    {
        let dispatcher = player.dispatcher();
        use_effect_with(props.event, move |event| {
            if let Some(event) = event {
                dispatcher.dispatch(PlayerAction::SeekEvent(*event));
            }
        });
    }
    if let Some(error) = player.error() {
        return html! {
            <section class="lab" aria-label="The player">
                <p class="notice" role="status">{ format!("This program cannot run: {error}") }</p>
            </section>
        };
    }
    html! { <Lab player={player.clone()} name="challenge" reset_label="Back to your program's run" /> }
}
