//! The first module's page at an address only the whole app serves (the sandbox, a challenge, a
//! shared scenario, the builder, the engine and retry pages): it says the page is loading while
//! the whole app is fetched, then hands the page over (`crate::handover`). If the fetch fails, it
//! says why, offers to try again, and the lessons still work.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::route::Route;

#[component]
pub fn OpenWhole() -> Html {
    // Each try is a number: "Try again" asks for the next.
    let attempt = use_state(|| 0_u32);
    let failed = use_state(|| None::<String>);
    {
        let failed = failed.clone();
        use_effect_with(*attempt, move |_| {
            failed.set(None);
            wasm_bindgen_futures::spawn_local(async move {
                match crate::handover::fetch_whole().await {
                    // Unless the learner went back to a lesson or the map meanwhile: this module
                    // shows those, and the whole app can wait for the next such link.
                    Ok(start) if !crate::route::in_first_module(&crate::route::current_hash()) => {
                        crate::handover::hand_over(&start)
                    }
                    Ok(_) => {}
                    Err(reason) => failed.set(Some(reason)),
                }
            });
        });
    }
    let again = {
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))
    };
    html! {
        <main id="main" tabindex="-1" class="page open-whole">
            if let Some(reason) = (*failed).clone() {
                <h1>{ "This page could not be opened" }</h1>
                <p class="notice" role="alert">
                    { format!("The part of the lab this page needs could not be loaded ({reason}). Check the connection and try again; the lessons still work.") }
                </p>
                <p class="actions">
                    <button type="button" class="primary" onclick={again}>{ "Try again" }</button>
                    { " " }
                    <Link<Route> to={Route::Home}>{ "Go to the course map" }</Link<Route>>
                </p>
            } else {
                // Not the page's loading line (`.boot`): the stylesheet hides that where the map
                // was prerendered, and a link followed from the map changes no hash event.
                <p class="notice" role="status">{ "Loading this page…" }</p>
            }
        </main>
    }
}
