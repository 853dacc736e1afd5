//! The shell: header, router, footer, inside the store that keeps progress and settings; and
//! the page each route renders: `switch` in the whole app, `lesson_pages` in the first module.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::settings::SettingsMenu;
use crate::offline::UpdateNotice;
use crate::pages::{
    challenge::ChallengePage, engine::EnginePage, home::Home, lesson::LessonPage,
    make_challenge::MakeChallengePage, not_found::NotFound, retries::RetriesPage,
    sandbox::SandboxPage, scenario::ScenarioPage, whole::OpenWhole,
};
use crate::route::Route;
use crate::store::{LoadNotice, StoreProvider};

/// The page each route renders in this module: set once, before the app starts (`crate::run`).
/// Only the module's own function is ever named, so the first module's build leaves the other
/// pages out.
pub static PAGES: std::sync::OnceLock<fn(Route) -> Html> = std::sync::OnceLock::new();

fn render(route: Route) -> Html {
    (PAGES.get().copied().unwrap_or(lesson_pages))(route)
}

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
        return html! { <Switch<Route> render={render} /> };
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
                <Switch<Route> render={render} />
                <footer class="site-footer">
                    { "Every run is a deterministic simulation: nothing is sent anywhere. " }
                    <Link<Route> to={Route::Engine}>{ "Engine performance" }</Link<Route>>
                </footer>
        </>
    }
}

/// The first module's page for a route: the course map, a lesson, Page not found; at any other
/// address, the whole app takes the page.
pub fn lesson_pages(route: Route) -> Html {
    lesson_or(route, |_| html! { <OpenWhole /> })
}

/// The map's, a lesson's or Page not found's page for `route`, else `other(route)`.
fn lesson_or(route: Route, other: fn(Route) -> Html) -> Html {
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
        Route::NotFound => html! { <NotFound /> },
        other_route => other(other_route),
    }
}

/// The whole app's page for a route.
pub fn switch(route: Route) -> Html {
    lesson_or(route, other_pages)
}

/// The pages only the whole app holds.
fn other_pages(route: Route) -> Html {
    match route {
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
        // The first module's routes, which `lesson_or` answers before this.
        _ => html! { <NotFound /> },
    }
}
