//! Idempotency Lab: the Yew app. It renders traces from the recovery engine and lets the learner
//! drive them; what a scenario may hold (its workflows, switches, faults and choices) it reads
//! from the engine's declarations, and the words of a report from `lab_course::wording`.
//!
//! It is built twice, as two WebAssembly modules of the page (two binaries over this library):
//! `idempotency-lab` (src/main.rs), the first module, with the course map and the lessons only,
//! which is all a learner stepping a lesson waits for; and `idempotency-lab-whole`
//! (src/bin/idempotency-lab-whole.rs), every page. At any other address the first module hands
//! the page over to the whole app ([`pages::whole`]); the page's loader (scripts/postbuild.mjs)
//! starts the whole app at once where the address needs it. A third module, the Web Worker
//! (crate `lab-worker`), runs the explorer and the sandbox's text.
//!
//! The layers, from the bottom up; a file imports only from the layers below it (and from its
//! own layer without a cycle), and `scripts/structure.mjs` fails on any import cycle:
//!
//! 1. Leaves, with no UI: `route` (every address, and which module serves it), `handover` (the
//!    first module's hand-over to the whole app), `course` (the course's outline, and each
//!    lesson's file fetched when asked for), `format`
//!    (counts), `download`, `frames`, `panic`, `svg_export`, `board` (a build task's board as
//!    data), `worker_module`, `search` (a search in the second module) and `text_worker` (the
//!    sandbox's TOML, read and written in the second module). The clock is
//!    `lab_worker::clock`, the one both modules read.
//! 2. `store`: saved progress, settings and the sandbox, and the app's context that holds them;
//!    `sandbox`, the sandbox's own state.
//! 3. `components`: one panel a file, each a view of a trace or a form (`player/state.rs`, the
//!    player's reducer, sits beside them: plain data the narrative reads).
//! 4. `player`: the lab every page reuses (panels, playback, shortcuts, the explorer's panel, the
//!    address hook).
//! 5. `pages`: one a route.
//! 6. `app`: the shell around the pages, and `switch`, the page each route renders.
//! 7. This file: starts the app, with the pages of one module or the other ([`Pages`]).

mod app;
mod board;
mod components;
mod course;
mod download;
mod format;
mod frames;
mod handover;
mod offline;
mod pages;
mod panic;
mod player;
mod route;
mod sandbox;
mod search;
mod store;
mod svg_export;
mod text_worker;
mod worker_module;

use wasm_bindgen::JsCast;

/// How long the app waits for a lesson's file before it starts, at a lesson's address.
const LESSON_WAIT_MILLISECONDS: u32 = 3_000;

/// Which pages a module holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    /// The course map and the lessons (and Page not found); any other address opens the whole
    /// app in the page ([`pages::whole`]).
    Lessons,
    /// Every page.
    Whole,
}

/// Starts the app with `pages`.
pub fn run(pages: Pages) {
    panic::install();
    route_hash_only();
    if pages == Pages::Lessons && !route::in_first_module(&route::current_hash()) {
        // An address the page's loader should have given the whole app (an unbuilt `trunk serve`
        // has no such loader): straight on to it, with nothing rendered here.
        return handover::open_now();
    }
    let _ = app::PAGES.set(match pages {
        Pages::Lessons => app::lesson_pages,
        Pages::Whole => app::switch,
    });
    start_after_lesson();
}

/// Starts the app, at a lesson's address once its file is in.
fn start_after_lesson() {
    // At a lesson's address, the lesson's file first (the page's inline script asked for it
    // beside the WebAssembly), so the lesson shows at once where its prerendered first step
    // was; but never waiting long: after LESSON_WAIT_MILLISECONDS the app starts, and the lesson
    // says it is loading, or why it could not be.
    let hash = route::current_hash();
    let Some(id) = lesson_at(&hash) else {
        return start();
    };
    let started = std::rc::Rc::new(std::cell::Cell::new(false));
    let once = move || {
        if !started.replace(true) {
            start();
        }
    };
    let waited = once.clone();
    gloo::timers::callback::Timeout::new(LESSON_WAIT_MILLISECONDS, waited).forget();
    course::load(id, move |_| once());
}

/// The lesson a location's hash opens (`#/lesson/ID…`, `#/embed/lesson/ID…`), if any.
fn lesson_at(hash: &str) -> Option<&str> {
    let rest = hash
        .strip_prefix("#/lesson/")
        .or_else(|| hash.strip_prefix("#/embed/lesson/"))?;
    let id = rest.split('/').next().unwrap_or(rest);
    course::OUTLINE.lesson(id).map(|lesson| lesson.id)
}

/// The app, in place of the loading line and of the markup prerendered for this address
/// (scripts/postbuild.mjs: the course map, or a lesson's first step), which is the same markup,
/// rendered before the next paint, so nothing flashes. Where the map shows, Trunk's loader asked
/// for the WebAssembly only once the browser had painted the map, so the app's identical render
/// never counts as the page's first content in place of the map the learner already sees.
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
    // Nothing prerendered is left: a loading line shown later (a hand-over's) must show.
    if let Some(root) = document.document_element() {
        let _ = root
            .class_list()
            .remove_2("prerendered", "prerendered-lesson");
    }
    let app = yew::Renderer::<app::App>::new().render();
    // A hand-over to the whole app ends this one first.
    handover::on_stop(move || app.destroy());
}

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
