//! A scenario someone shared: the whole scenario and its step in the address, played in the same
//! lab as a lesson. A link that cannot be read shows why, and the default scenario (the course's
//! first design).

use std::rc::Rc;
use std::sync::Arc;

use lab_course::share::{decode, encode, ShareError, Shared, WholeScenario};
use lab_engine::Scenario;
use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::share::Share;
use crate::components::waiting::Waiting;
use crate::course::{use_lesson, Loaded, OUTLINE};
use crate::player::{absolute, use_player, use_player_address, Design, Lab, Setup};
use crate::route::Route;

#[derive(Properties, PartialEq)]
pub struct ScenarioPageProps {
    /// The shared state, as the link encodes it.
    pub state: AttrValue,
    /// Only the lab, for an `<iframe>`.
    pub embedded: bool,
}

/// The scenario and the 1-based step a link names.
fn read(state: &str) -> Result<(Scenario, u32), ShareError> {
    match decode(state)? {
        Shared::Scenario { scenario, step } => Ok((scenario.read()?, step)),
        Shared::Lesson { .. } | Shared::Built { .. } | Shared::Challenge(_) => {
            Err(ShareError::Malformed)
        }
    }
}

/// The address of a scenario at a frame (the sandbox shares its scenario through this page).
pub(crate) fn route_of(scenario: &Scenario, frame: u32, embedded: bool) -> Route {
    let state = encode(&Shared::Scenario {
        scenario: WholeScenario::of(scenario),
        step: frame + 1,
    });
    Route::scenario(state, embedded)
}

#[component]
pub fn ScenarioPage(props: &ScenarioPageProps) -> Html {
    let (state, embedded) = (props.state.clone(), props.embedded);
    // The scenario the page was opened with, read once: a later link loads as a change to it.
    let first = use_memo((), |_| {
        read(&props.state)
            .ok()
            .map(|(scenario, _)| Arc::new(scenario))
    });
    match &*first {
        Some(first) => html! { <SharedScenario {state} {embedded} first={Arc::clone(first)} /> },
        None => html! { <DefaultScenario {state} {embedded} /> },
    }
}

/// A link that cannot be read shows the default scenario, the course's first design, once its
/// lesson's file is read.
#[component]
fn DefaultScenario(props: &ScenarioPageProps) -> Html {
    let (loaded, retry) = use_lesson(OUTLINE.lessons[0].id);
    let (state, embedded) = (props.state.clone(), props.embedded);
    let body = match loaded {
        Loaded::Ready(lesson) => {
            let first = Arc::clone(&lesson.designs[0].scenario);
            return html! { <SharedScenario {state} {embedded} {first} /> };
        }
        loaded => html! {
            <Waiting {loaded} {retry} loading="Loading the default scenario…"
                failed="This link cannot be shown, and the default scenario could not be loaded" />
        },
    };
    html! {
        <main id="main" tabindex="-1" class={classes!("page", "scenario", embedded.then_some("embed"))}>
            <h1>{ "Shared scenario" }</h1>
            { body }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct SharedProps {
    state: AttrValue,
    embedded: bool,
    /// The link's scenario, or the default one when it cannot be read.
    first: Arc<Scenario>,
}

/// A shared scenario's lab.
#[component]
fn SharedScenario(props: &SharedProps) -> Html {
    let read = read(&props.state);
    // The design is the scenario the page was opened with; a later link loads as a change to it.
    let designs = {
        let first = Scenario::clone(&props.first);
        use_memo((), move |_| vec![Design::own("Shared scenario", first)])
    };
    let notice = read.as_ref().err().map(|error| {
        format!("This link cannot be shown: {error}. Showing the default scenario instead.")
    });
    let asked = match &read {
        Ok((scenario, step)) => Setup {
            custom: Some((0, scenario.clone())),
            frame: step.saturating_sub(1),
            board: None,
        },
        Err(_) => Setup::default(),
    };
    let player = use_player(Rc::clone(&designs), asked.clone());
    {
        let designs = Rc::clone(&designs);
        let embedded = props.embedded;
        use_player_address(
            &player,
            asked,
            Rc::new(move |setup: &Setup| {
                let scenario = match &setup.custom {
                    Some((_, scenario)) => scenario,
                    None => &designs[0].scenario,
                };
                route_of(scenario, setup.frame, embedded)
            }),
        );
    }
    if let Some(error) = player.error() {
        let message = format!("This scenario cannot run: {error}");
        return html! {
            <main id="main" tabindex="-1" class="page scenario">
                <h1>{ "Shared scenario" }</h1>
                <p class="notice" role="status">{ message }</p>
            </main>
        };
    }
    let (design, _) = player.located();
    let scenario = player.scenario_of(design);
    let full = absolute(&route_of(scenario, player.frame(), false));
    let notice = notice.map(|notice| html! { <p class="notice" role="status">{ notice }</p> });
    if props.embedded {
        return html! {
            <main id="main" tabindex="-1" class="page scenario embed">
                <h1>{ "Shared scenario" }</h1>
                { notice }
                <p class="embed-open"><a href={full} target="_blank" rel="noopener">{ "Open in Idempotency Lab" }</a></p>
                <Lab player={player.clone()} name="scenario" reset_label="Back to the shared scenario" />
            </main>
        };
    }
    let embed = absolute(&route_of(scenario, player.frame(), true));
    html! {
        <main id="main" tabindex="-1" class="page scenario">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ "Shared scenario" }</span>
            </nav>
            <h1>{ "Shared scenario" }</h1>
            { notice }
            <Lab player={player.clone()} name="scenario" reset_label="Back to the shared scenario">
                <Share link={full} {embed} title="Idempotency Lab: a shared scenario" />
            </Lab>
        </main>
    }
}
