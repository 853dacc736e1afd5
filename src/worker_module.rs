//! The page's side of the lab's second module (crate `lab-worker`, built by Trunk as a Web Worker
//! and started by static/worker.js): the explorer and the work only its panel needs run there,
//! never on the page's thread. Requests and replies are postcard bytes (`lab_worker::encode`).
//!
//! A module is one Web Worker. Dropping it ends the worker at once, whatever it is doing: that is
//! how a search is cancelled (a search reads no message until it ends), and why this is a plain
//! `web_sys::Worker` rather than gloo-worker's bridge, which can only ask a worker to stop
//! between messages. One spare module is started when the page is idle ([`prefetch`]), so the
//! first search does not wait for the module to load.

use std::cell::RefCell;
use std::rc::Rc;

use lab_worker::{Reply, Request};
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event, MessageEvent, Worker, WorkerOptions, WorkerType};
use yew::Callback;

/// The worker's start script, beside index.html (the page's `<base>` is the public URL).
const SCRIPT: &str = "worker.js";

/// What the page hears from a module.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// The module has loaded and reads requests.
    Ready,
    Reply(Reply),
    /// The module could not be loaded, or stopped; the words say why.
    Failed(String),
}

/// Where a module is.
#[derive(Clone, Debug, PartialEq)]
pub enum Readiness {
    Loading,
    Ready,
    Failed(String),
}

struct Shared {
    readiness: Readiness,
    /// Requests posted before the module was ready (a worker drops what comes before it listens).
    queued: Vec<Vec<u8>>,
    onheard: Option<Callback<Heard>>,
}

/// A worker's message and error listeners, kept while it runs.
type Listeners = (Closure<dyn Fn(MessageEvent)>, Closure<dyn Fn(Event)>);

/// One running second module.
pub struct Module {
    /// None when no worker could be made at all.
    worker: Option<Worker>,
    shared: Rc<RefCell<Shared>>,
    _listeners: Option<Listeners>,
}

impl Module {
    /// Starts a module: Loading until it says it is ready.
    fn start() -> Module {
        let shared = Rc::new(RefCell::new(Shared {
            readiness: Readiness::Loading,
            queued: Vec::new(),
            onheard: None,
        }));
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = match Worker::new_with_options(SCRIPT, &options) {
            Ok(worker) => worker,
            Err(_) => {
                // No worker at all (a policy or a browser that forbids it): a module that failed.
                shared.borrow_mut().readiness =
                    Readiness::Failed("this browser would not start a Web Worker".into());
                return Module {
                    worker: None,
                    shared,
                    _listeners: None,
                };
            }
        };
        let onmessage = {
            let shared = Rc::clone(&shared);
            let worker = worker.clone();
            Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
                let data = event.data();
                // The start script posts a string when the module's WebAssembly cannot start.
                if let Some(words) = data.as_string() {
                    return fail(&shared, words);
                }
                let bytes = js_sys::Uint8Array::new(&data).to_vec();
                let heard = match lab_worker::decode::<Reply>(&bytes) {
                    Ok(Reply::Ready) => {
                        let queued = {
                            let mut shared = shared.borrow_mut();
                            shared.readiness = Readiness::Ready;
                            std::mem::take(&mut shared.queued)
                        };
                        for bytes in queued {
                            post(&worker, &bytes);
                        }
                        Heard::Ready
                    }
                    Ok(reply) => Heard::Reply(reply),
                    Err(error) => Heard::Failed(format!("its reply could not be read ({error})")),
                };
                tell(&shared, heard);
            })
        };
        let onerror = {
            let shared = Rc::clone(&shared);
            // An ErrorEvent when its code failed; a plain Event when its files could not be loaded.
            Closure::<dyn Fn(Event)>::new(move |event: Event| {
                event.prevent_default();
                let message = event
                    .dyn_ref::<ErrorEvent>()
                    .map(ErrorEvent::message)
                    .filter(|message| !message.is_empty());
                fail(
                    &shared,
                    message.unwrap_or_else(|| "its files could not be loaded".to_string()),
                );
            })
        };
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        Module {
            worker: Some(worker),
            shared,
            _listeners: Some((onmessage, onerror)),
        }
    }

    pub fn readiness(&self) -> Readiness {
        self.shared.borrow().readiness.clone()
    }

    /// Where what the module says goes from now on.
    pub fn listen(&self, onheard: Callback<Heard>) {
        self.shared.borrow_mut().onheard = Some(onheard);
    }

    /// Posts a request (held until the module is ready).
    pub fn send(&self, request: &Request) {
        let bytes = lab_worker::encode(request);
        let mut shared = self.shared.borrow_mut();
        match (&shared.readiness, &self.worker) {
            (Readiness::Ready, Some(worker)) => post(worker, &bytes),
            (Readiness::Loading, _) => shared.queued.push(bytes),
            _ => {}
        }
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        if let Some(worker) = &self.worker {
            worker.set_onmessage(None);
            worker.set_onerror(None);
            worker.terminate();
        }
    }
}

fn post(worker: &Worker, bytes: &[u8]) {
    let array = js_sys::Uint8Array::from(bytes);
    // Posting fails only for data that cannot be cloned; bytes always can.
    let _ = worker.post_message(&array);
}

fn tell(shared: &Rc<RefCell<Shared>>, heard: Heard) {
    let onheard = shared.borrow().onheard.clone();
    if let Some(onheard) = onheard {
        onheard.emit(heard);
    }
}

fn fail(shared: &Rc<RefCell<Shared>>, words: String) {
    shared.borrow_mut().readiness = Readiness::Failed(words.clone());
    tell(shared, Heard::Failed(words));
}

thread_local! {
    static SPARE: RefCell<Option<Module>> = const { RefCell::new(None) };
    /// Set once this module's app has handed the page over (`crate::handover`): no spare then.
    static ENDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Ends the spare module, and starts no other: the page's app has ended.
pub fn end() {
    ENDED.set(true);
    SPARE.with(|spare| spare.borrow_mut().take());
}

/// A module to send requests to: the spare one if it is loading or ready, else a new one.
pub fn take() -> Module {
    let spare = SPARE.with(|spare| spare.borrow_mut().take());
    match spare {
        Some(module) if !matches!(module.readiness(), Readiness::Failed(_)) => module,
        _ => Module::start(),
    }
}

/// Starts the spare module, unless there is one.
pub fn prefetch() {
    if ENDED.get() {
        return;
    }
    SPARE.with(|spare| {
        let mut spare = spare.borrow_mut();
        if spare.is_none() {
            *spare = Some(Module::start());
        }
    });
}

/// How long after the page has shown work that can wait (the spare module, the service worker's
/// download of the whole build) waits: past the five quiet seconds that end a page load as
/// Lighthouse measures it, so those downloads are not counted as the page's own.
const SETTLED_MILLISECONDS: u32 = 5_000;

/// Runs `work` once the page has settled: [`SETTLED_MILLISECONDS`] after now, when it is idle.
pub fn when_settled(work: impl FnOnce() + 'static) {
    gloo::timers::callback::Timeout::new(SETTLED_MILLISECONDS, move || when_idle(work)).forget();
}

/// Runs `work` when the page is next idle (or in two seconds, where a browser cannot say).
pub fn when_idle(work: impl FnOnce() + 'static) {
    let window = gloo::utils::window();
    let has_idle =
        js_sys::Reflect::has(&window, &JsValue::from_str("requestIdleCallback")).unwrap_or(false);
    if has_idle {
        let callback = Closure::once_into_js(work);
        let _ = window.request_idle_callback(callback.unchecked_ref());
    } else {
        gloo::timers::callback::Timeout::new(2_000, work).forget();
    }
}
