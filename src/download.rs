//! Files in and out: saving text as a file the learner downloads, through a temporary
//! `<a download>` (`download_text`, or `offer` for a button that logs a failure), and taking the file a learner chose in an `<input type="file">`.

use gloo::file::{Blob, File, ObjectUrl};
use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement};
use yew::{Event, TargetCast};

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

/// Offers `text` as a file called `name`, for a download button: when the text could not be
/// written (`Err`) or the browser refuses the download, the reason goes to the console, since
/// the click has nothing else to show.
pub fn offer(name: &str, mime: &str, text: Result<String, String>) {
    if let Err(error) = text.and_then(|text| download_text(name, &text, mime)) {
        gloo::console::error!(format!("download of {name} failed: {error}"));
    }
}

/// The file chosen in the `<input type="file">` that `event` (its change event) comes from, if
/// any. The input is cleared, so choosing the same file again is a change too; the file taken
/// stays readable.
pub fn chosen_file(event: &Event) -> Option<File> {
    let input: HtmlInputElement = event.target_unchecked_into();
    let file = input.files().and_then(|files| files.get(0));
    input.set_value("");
    file.map(File::from)
}
