//! Idempotency Lab: the Yew app. It renders traces from the recovery engine and lets the learner
//! drive them; it never re-implements engine logic.

mod app;
mod clock;
mod components;
mod course;
mod download;
mod frames;
mod pages;
mod panic;
mod player;
mod route;
mod sandbox;
mod store;
mod svg_export;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

fn main() {
    panic::install();
    route_hash_only();
    // The course map prerendered into index.html (scripts/postbuild.mjs), when its inline script
    // showed it: the app replaces it once the browser has reported painting it. The WebAssembly can
    // arrive before that report, and the app's identical render would then count as the page's
    // first content instead of the map the learner already sees.
    let shown = gloo::utils::document()
        .document_element()
        .is_some_and(|root| root.class_list().contains("prerendered"));
    if shown {
        after_paint(start, 0);
    } else {
        start();
    }
}

/// The app, in place of the loading line and the prerendered map: the same markup, rendered before
/// the next paint, so nothing flashes.
fn start() {
    let document = gloo::utils::document();
    if let Some(boot) = document.get_element_by_id("boot") {
        boot.remove();
    }
    if let Ok(prerendered) = document.query_selector_all("[data-prerender]") {
        for index in 0..prerendered.length() {
            if let Some(element) = prerendered
                .get(index)
                .and_then(|node| node.dyn_into::<web_sys::Element>().ok())
            {
                element.remove();
            }
        }
    }
    yew::Renderer::<app::App>::new().render();
}

/// Runs `then` once the browser has reported the page's first contentful paint (the prerendered
/// map on screen), looked for now and at each animation frame, or after [`PAINT_FRAMES_MAX`]
/// frames.
fn after_paint(then: fn(), frames: u32) {
    let window = gloo::utils::window();
    let painted = window.performance().is_some_and(|performance| {
        performance
            .get_entries_by_name("first-contentful-paint")
            .length()
            > 0
    });
    if painted || frames >= PAINT_FRAMES_MAX {
        then();
        return;
    }
    let next = Closure::once_into_js(move || after_paint(then, frames + 1));
    let _ = window.request_animation_frame(next.unchecked_ref());
}

/// How many frames the app waits at most for the prerendered map's first paint: half a second.
const PAINT_FRAMES_MAX: u32 = 30;

/// Every address the router reads has a route in its hash. A hash that is not one (`#foo`, typed
/// or from an old link) would make the router throw; it becomes `#/foo` instead, which the router
/// shows as "Page not found". Checked now and, before the router hears of it, on every change.
fn route_hash_only() {
    fn fix() {
        let window = gloo::utils::window();
        let Ok(hash) = window.location().hash() else {
            return;
        };
        if let Some(route) = hash_route(&hash) {
            if let Ok(history) = window.history() {
                let _ =
                    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&route));
            }
        }
    }
    fix();
    let window = gloo::utils::window();
    // Registered before the router's own listeners, so these run first.
    for event in ["popstate", "hashchange"] {
        gloo::events::EventListener::new(&window, event, |_| fix()).forget();
    }
}

/// The hash a location's hash (`#…`, or empty) must become so the router can read it, or `None`
/// when it already can: `#foo` becomes `#/foo`; `#/…`, `#` and no hash stay.
fn hash_route(hash: &str) -> Option<String> {
    let rest = hash.strip_prefix('#').unwrap_or(hash);
    (!rest.is_empty() && !rest.starts_with('/')).then(|| format!("#/{rest}"))
}

#[cfg(test)]
mod robustness;
