//! A panic must never leave a blank page: log it, then put a visible error panel in the body.

use std::panic::PanicHookInfo;

/// Installs the panic hook.
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo| {
        console_error_panic_hook::hook(info);
        show_panel(&info.to_string());
    }));
}

/// The panel's element id: one panel, however many panics.
const PANEL_ID: &str = "error-panel";

/// Writes the error panel with plain DOM calls: after a panic, Yew can no longer render.
fn show_panel(message: &str) {
    let document = gloo::utils::document();
    if document.get_element_by_id(PANEL_ID).is_some() {
        // The first panic's message is the one that explains; later ones follow from it.
        return;
    }
    let Ok(panel) = document.create_element("div") else {
        return;
    };
    panel.set_id(PANEL_ID);
    panel.set_class_name("error-panel");
    let _ = panel.set_attribute("role", "alert");
    let heading = document.create_element("h2").ok();
    let text = document.create_element("p").ok();
    let detail = document.create_element("pre").ok();
    let reload = document.create_element("a").ok();
    if let (Some(heading), Some(text), Some(detail), Some(reload)) = (heading, text, detail, reload)
    {
        heading.set_text_content(Some("Something went wrong in Idempotency Lab"));
        text.set_text_content(Some(
            "The lab stopped because of an internal error. Your saved progress is safe. Reload the page to continue; if it happens again, the message below helps us fix it.",
        ));
        // Text, never HTML: the message can contain anything.
        detail.set_text_content(Some(message));
        reload.set_text_content(Some("Reload the lab"));
        let _ = reload.set_attribute("href", &reload_address());
        for child in [&heading, &text, &detail, &reload] {
            let _ = panel.append_child(child);
        }
    }
    if let Some(body) = document.body() {
        let _ = body.prepend_with_node_1(&panel);
    }
}

/// This page's address with its route (the hash) kept, and a query that differs from the current
/// one: following a link that differs only in its hash would not reload the page.
fn reload_address() -> String {
    let location = gloo::utils::window().location();
    let path = location.pathname().unwrap_or_else(|_| "./".into());
    let hash = location.hash().unwrap_or_default();
    format!("{path}?reload={}{hash}", js_sys::Date::now() as u64)
}
