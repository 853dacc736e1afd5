//! The shell: header, router, footer, inside the store that keeps progress and settings; and
//! `switch`, the page each route renders.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::settings::SettingsMenu;
use crate::offline::UpdateNotice;
use crate::pages::{
    challenge::ChallengePage, engine::EnginePage, home::Home, lesson::LessonPage,
    make_challenge::MakeChallengePage, not_found::NotFound, retries::RetriesPage,
    sandbox::SandboxPage, scenario::ScenarioPage,
};
use crate::route::Route;
use crate::store::{LoadNotice, StoreProvider};

#[component]
pub fn App() -> Html {
    html! {
        <HashRouter>
            <StoreProvider>
                <Shell />
            </StoreProvider>
        </HashRouter>
    }
}

/// The site around the page; an embed gets the page alone.
#[component]
fn Shell() -> Html {
    // Offline from the next reload on; registered once the page has settled.
    use_effect_with((), |_| {
        crate::worker_module::when_settled(crate::offline::register)
    });
    if use_route::<Route>().is_some_and(|route| route.is_embed()) {
        return html! { <Switch<Route> render={switch} /> };
    }
    // The router owns the URL's hash, so the skip link moves focus itself instead of using "#main".
    let skip = Callback::from(|event: MouseEvent| {
        event.prevent_default();
        if let Some(main) = gloo::utils::document().get_element_by_id("main") {
            use wasm_bindgen::JsCast;
            if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
                let _ = main.focus();
            }
        }
    });
    html! {
        <>
                <header class="site-header">
                    <a class="skip-link" href="" onclick={skip}>{ "Skip to content" }</a>
                    <Link<Route> to={Route::Home} classes="brand">
                        <span class="brand-mark" aria-hidden="true">{ "↻" }</span>
                        { "Idempotency Lab" }
                    </Link<Route>>
                    <span class="tagline">{ "Retry failed work without doing it twice" }</span>
                    <SettingsMenu />
                </header>
                <LoadNotice />
                <UpdateNotice />
                <Switch<Route> render={switch} />
                <footer class="site-footer">
                    { "Every run is a deterministic simulation: nothing is sent anywhere. " }
                    <Link<Route> to={Route::Engine}>{ "Engine performance" }</Link<Route>>
                </footer>
        </>
    }
}

/// Renders the page for a route.
pub fn switch(route: Route) -> Html {
    let lesson = |id: String, step: Option<String>, changes: Option<String>, embedded: bool| {
        html! {
            <LessonPage
                {id}
                step={step.map(AttrValue::from)}
                changes={changes.map(AttrValue::from)}
                {embedded}
            />
        }
    };
    match route {
        Route::Home => html! { <Home /> },
        Route::Lesson { id } => lesson(id, None, None, false),
        Route::LessonStep { id, step } => lesson(id, Some(step), None, false),
        Route::LessonChanged { id, step, changes } => lesson(id, Some(step), Some(changes), false),
        Route::EmbedLesson { id, step } => lesson(id, Some(step), None, true),
        Route::EmbedLessonChanged { id, step, changes } => {
            lesson(id, Some(step), Some(changes), true)
        }
        Route::Scenario { state } => html! { <ScenarioPage {state} embedded={false} /> },
        Route::EmbedScenario { state } => html! { <ScenarioPage {state} embedded={true} /> },
        Route::Engine => html! { <EnginePage /> },
        Route::Retries => html! { <RetriesPage /> },
        Route::Sandbox | Route::SandboxState { .. } => html! { <SandboxPage /> },
        Route::Challenge { state } => html! { <ChallengePage {state} embedded={false} /> },
        Route::EmbedChallenge { state } => html! { <ChallengePage {state} embedded={true} /> },
        Route::MakeChallenge => html! { <MakeChallengePage state={None::<AttrValue>} /> },
        Route::MakeChallengeDraft { state } => {
            html! { <MakeChallengePage state={Some(AttrValue::from(state))} /> }
        }
        Route::NotFound => html! { <NotFound /> },
    }
}
