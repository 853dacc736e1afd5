//! "Page not found": the page of an address no route reads, and of a link whose lesson or state
//! cannot be found (the message says which).

use yew::prelude::*;
use yew_router::prelude::*;

use crate::route::Route;

#[derive(Properties, PartialEq)]
pub struct NotFoundProps {
    /// What was not found, said to the learner.
    #[prop_or(AttrValue::from("There is no page at this address."))]
    pub message: AttrValue,
}

#[component]
pub fn NotFound(props: &NotFoundProps) -> Html {
    html! {
        <main id="main" tabindex="-1" class="page not-found">
            <h1>{ "Page not found" }</h1>
            <p>{ props.message.clone() }</p>
            <p><Link<Route> to={Route::Home}>{ "Go to the course map" }</Link<Route>></p>
        </main>
    }
}
