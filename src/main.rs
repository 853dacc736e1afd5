//! Idempotency Lab: the Yew app. It renders traces from the recovery engine and lets the learner
//! drive them; it never re-implements engine logic.

mod app;
mod components;
mod course;
mod download;
mod frames;
mod pages;
mod panic;
mod route;
mod store;

fn main() {
    panic::install();
    if let Some(boot) = gloo::utils::document().get_element_by_id("boot") {
        boot.remove();
    }
    yew::Renderer::<app::App>::new().render();
}
