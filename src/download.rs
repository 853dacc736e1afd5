//! Saving text as a file the learner downloads, through a temporary `<a download>`.

use gloo::file::{Blob, ObjectUrl};
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// How long the object URL lives after the click, so the browser can start the download.
const REVOKE_DELAY_MS: u32 = 10_000;

/// Offers `text` as a file called `name`.
pub fn download_text(name: &str, text: &str, mime: &str) -> Result<(), String> {
    let url = ObjectUrl::from(Blob::new_with_options(text, Some(mime)));
    let document = gloo::utils::document();
    let body = document.body().ok_or("the page has no body")?;
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|element| element.dyn_into::<HtmlElement>().ok())
        .ok_or("the browser would not create a download link")?;
    anchor
        .set_attribute("href", &url)
        .and_then(|()| anchor.set_attribute("download", name))
        .map_err(|_| "the browser would not set up the download link")?;
    anchor.set_hidden(true);
    body.append_child(&anchor)
        .map_err(|_| "the browser would not add the download link")?;
    anchor.click();
    anchor.remove();
    Timeout::new(REVOKE_DELAY_MS, move || drop(url)).forget();
    Ok(())
}
