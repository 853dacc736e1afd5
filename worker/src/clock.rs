//! The one clock of both modules, the page's and the worker's, for timing work (never for the
//! engine, which has none): milliseconds from the global scope's monotonic clock, a window's or a
//! worker's `performance.now()`; the wall clock where a browser lacks one.

/// Milliseconds from a monotonic clock whose start is arbitrary: only differences mean anything.
#[cfg(target_arch = "wasm32")]
pub fn now_milliseconds() -> f64 {
    use wasm_bindgen::JsCast;
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|value| value.dyn_into::<web_sys::Performance>().ok());
    performance.map_or_else(js_sys::Date::now, |performance| performance.now())
}

/// Milliseconds from a monotonic clock whose start is arbitrary (natively: the first reading).
#[cfg(not(target_arch = "wasm32"))]
pub fn now_milliseconds() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1000.0
}
