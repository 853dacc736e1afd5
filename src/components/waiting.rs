//! What a page shows while a lesson's file it needs is on its way (`crate::course::use_lesson`):
//! a loading line; or, when the file did not come, an alert saying why, "Try again", and the way
//! back to the course map. The page around it keeps its title, so it is never blank.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::course::Loaded;
use crate::route::Route;

#[derive(Properties, PartialEq)]
pub struct WaitingProps {
    pub loaded: Loaded,
    /// Asks for the file again.
    pub retry: Callback<()>,
    /// The loading line ("Loading the lesson…").
    pub loading: AttrValue,
    /// What could not be had, the start of the alert ("The lesson could not be loaded").
    pub failed: AttrValue,
}

#[component]
pub fn Waiting(props: &WaitingProps) -> Html {
    match &props.loaded {
        Loaded::Ready(_) => Html::default(),
        Loaded::Loading => html! {
            <p class="notice" role="status">{ props.loading.clone() }</p>
        },
        Loaded::Failed(why) => html! {
            <>
                <p class="notice" role="alert">{ format!("{}: {why}. Check the connection and try again.", props.failed) }</p>
                <p class="actions">
                    <button type="button" onclick={props.retry.reform(|_: MouseEvent| ())}>{ "Try again" }</button>
                    { " " }
                    <Link<Route> to={Route::Home}>{ "Back to the course map" }</Link<Route>>
                </p>
            </>
        },
    }
}
