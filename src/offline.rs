//! Offline: the service worker (static/sw.js, given the build's files by scripts/postbuild.mjs)
//! is registered once the page has settled, so it never shares the link with the first module. When
//! a new build has installed beside the running one, the page says so, outside a lesson only
//! (a learner mid-lesson is never interrupted), and Reload swaps to it.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ServiceWorker, ServiceWorkerRegistration, ServiceWorkerState};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::route::Route;

/// The service worker's file, beside index.html (the page's `<base>` is the public URL).
const SCRIPT: &str = "sw.js";

thread_local! {
    /// The new build's worker, once it waits to take over.
    static WAITING: RefCell<Option<ServiceWorker>> = const { RefCell::new(None) };
    /// Told when a new build waits.
    static LISTENER: RefCell<Option<Callback<()>>> = const { RefCell::new(None) };
}

/// Registers the service worker (where the browser has them) and watches for a new build.
pub fn register() {
    let navigator = gloo::utils::window().navigator();
    if !js_sys::Reflect::has(&navigator, &JsValue::from_str("serviceWorker")).unwrap_or(false) {
        return;
    }
    let container = navigator.service_worker();
    // Reload: the new worker took over, so the page reloads once to be served by it.
    let onchange = Closure::<dyn Fn()>::new(|| {
        if WAITING.with(|waiting| waiting.borrow().is_some()) {
            let _ = gloo::utils::window().location().reload();
        }
    });
    container.set_oncontrollerchange(Some(onchange.as_ref().unchecked_ref()));
    onchange.forget();
    let controlled = container.controller().is_some();
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(registration) = JsFuture::from(container.register(SCRIPT)).await else {
            return;
        };
        let registration: ServiceWorkerRegistration = registration.unchecked_into();
        // A first visit is not an update: nothing ran before this worker.
        if !controlled {
            return;
        }
        if let Some(waiting) = registration.waiting() {
            return ready(waiting);
        }
        let found = {
            let registration = registration.clone();
            Closure::<dyn Fn()>::new(move || {
                let Some(installing) = registration.installing() else {
                    return;
                };
                let watched = installing.clone();
                let onstate = Closure::<dyn Fn()>::new(move || {
                    if watched.state() == ServiceWorkerState::Installed {
                        ready(watched.clone());
                    }
                });
                installing.set_onstatechange(Some(onstate.as_ref().unchecked_ref()));
                onstate.forget();
            })
        };
        registration.set_onupdatefound(Some(found.as_ref().unchecked_ref()));
        found.forget();
    });
}

fn ready(worker: ServiceWorker) {
    WAITING.with(|waiting| *waiting.borrow_mut() = Some(worker));
    if let Some(listener) = LISTENER.with(|listener| listener.borrow().clone()) {
        listener.emit(());
    }
}

/// "A new version of the lab is ready: Reload", once a new build waits, and never on a lesson.
#[component]
pub fn UpdateNotice() -> Html {
    let waiting = use_state(|| WAITING.with(|waiting| waiting.borrow().is_some()));
    {
        let waiting = waiting.clone();
        use_effect_with((), move |_| {
            LISTENER.with(|listener| {
                *listener.borrow_mut() = Some(Callback::from(move |()| waiting.set(true)))
            });
            || LISTENER.with(|listener| *listener.borrow_mut() = None)
        });
    }
    let mid_lesson = use_route::<Route>().is_some_and(|route| {
        matches!(
            route,
            Route::Lesson { .. }
                | Route::LessonStep { .. }
                | Route::LessonChanged { .. }
                | Route::Scenario { .. }
        )
    });
    if !*waiting || mid_lesson {
        return Html::default();
    }
    let onreload = Callback::from(|_: MouseEvent| {
        WAITING.with(|waiting| {
            if let Some(worker) = &*waiting.borrow() {
                let _ = worker.post_message(&JsValue::from_str("take-over"));
            }
        })
    });
    html! {
        <p class="notice update-notice" role="status">
            { "A new version of the lab is ready: " }
            <button type="button" onclick={onreload}>{ "Reload" }</button>
        </p>
    }
}
