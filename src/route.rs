//! Every place in the app has a URL; a deep link opens exactly that state.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::pages::{
    engine::EnginePage, home::Home, lesson::LessonPage, not_found::NotFound, sandbox::SandboxPage,
};

#[derive(Clone, Debug, PartialEq, Routable)]
pub enum Route {
    #[at("/")]
    Home,
    #[at("/lesson/:id")]
    Lesson { id: String },
    #[at("/lesson/:id/:step")]
    LessonStep { id: String, step: String },
    #[at("/engine")]
    Engine,
    #[at("/sandbox")]
    Sandbox,
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// Renders the page for a route.
pub fn switch(route: Route) -> Html {
    match route {
        Route::Home => html! { <Home /> },
        Route::Lesson { id } => html! { <LessonPage {id} step={None::<AttrValue>} /> },
        Route::LessonStep { id, step } => {
            html! { <LessonPage {id} step={Some(AttrValue::from(step))} /> }
        }
        Route::Engine => html! { <EnginePage /> },
        Route::Sandbox => html! { <SandboxPage /> },
        Route::NotFound => html! { <NotFound /> },
    }
}
