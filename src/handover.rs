//! The first module's hand-over to the whole app. The first module (`crate::Pages::Lessons`)
//! holds the course map and the lessons; at any other address the whole app
//! (`idempotency-lab-whole`) takes the page: its script and WebAssembly are fetched while this
//! module's page still shows (static/boot.js's `idempotencyLabOpenWhole`), then this module's app
//! ends and the whole app starts in its place, at the same address. If the fetch fails, nothing
//! has ended: the page says why and the lessons still work.

use std::cell::RefCell;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// The page's function that fetches the whole app and answers the function that starts it
/// (static/boot.js).
const OPENER: &str = "idempotencyLabOpenWhole";

thread_local! {
    /// What ends this module's app (`crate::start` gives it).
    static STOP: RefCell<Option<Box<dyn FnOnce()>>> = const { RefCell::new(None) };
}

/// Keeps what ends this module's app, for [`hand_over`].
pub fn on_stop(stop: impl FnOnce() + 'static) {
    STOP.with(|slot| *slot.borrow_mut() = Some(Box::new(stop)));
}

/// Fetches the whole app; answers the function that starts it, or the words that say why it could
/// not be fetched.
pub async fn fetch_whole() -> Result<Function, String> {
    let window = gloo::utils::window();
    let opener = Reflect::get(&window, &JsValue::from_str(OPENER))
        .ok()
        .and_then(|value| value.dyn_into::<Function>().ok())
        .ok_or_else(|| "this page has no loader for it".to_string())?;
    let promise = opener
        .call0(&JsValue::NULL)
        .map_err(words)?
        .dyn_into::<Promise>()
        .map_err(|_| "its loader did not start".to_string())?;
    let start = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(words)?;
    start
        .dyn_into::<Function>()
        .map_err(|_| "its loader gave nothing to start".to_string())
}

/// Ends this module's app (its pages, listeners and timers, and its spare Web Worker) and starts
/// the whole app, fetched by [`fetch_whole`], in its place; the loading line shows meanwhile.
pub fn hand_over(start: &Function) {
    if let Some(stop) = STOP.with(|slot| slot.borrow_mut().take()) {
        stop();
    }
    crate::worker_module::end();
    loading_line("Loading Idempotency Lab…", false);
    let _ = start.call0(&JsValue::NULL);
}

/// At an address of the whole app, before this module rendered anything: the whole app at once.
pub fn open_now() {
    wasm_bindgen_futures::spawn_local(async {
        match fetch_whole().await {
            Ok(start) => hand_over(&start),
            Err(reason) => loading_line(
                &format!(
                    "Idempotency Lab could not open this page: the part of the lab it needs could not be loaded ({reason}). Check the connection and reload the page."
                ),
                true,
            ),
        }
    });
}

/// The page's loading line (the whole app removes it when it starts), or a failure in its place.
fn loading_line(words: &str, failed: bool) {
    let document = gloo::utils::document();
    let line = document.get_element_by_id("boot").or_else(|| {
        let line = document.create_element("div").ok()?;
        line.set_id("boot");
        document.body()?.prepend_with_node_1(&line).ok()?;
        Some(line)
    });
    if let Some(line) = line {
        line.set_class_name(if failed { "boot boot-failed" } else { "boot" });
        let _ = line.set_attribute("role", if failed { "alert" } else { "status" });
        line.set_text_content(Some(words));
    }
}

/// The words of a JavaScript error (its message), or of any other thrown value.
fn words(error: JsValue) -> String {
    error
        .as_string()
        .or_else(|| {
            Reflect::get(&error, &JsValue::from_str("message"))
                .ok()?
                .as_string()
        })
        .unwrap_or_else(|| "an unknown error".to_string())
}
