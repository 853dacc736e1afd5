//! The page's clock, for measuring work done between frames (never for the engine, which has
//! none).

/// Milliseconds from a monotonic clock; the wall clock where a browser lacks one.
pub fn now_milliseconds() -> f64 {
    gloo::utils::window()
        .performance()
        .map_or_else(js_sys::Date::now, |performance| performance.now())
}
