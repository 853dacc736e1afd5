//! The sandbox's scenario as TOML text: an editable, labelled text box with the checker's errors
//! at line and column, importing a scenario file, and downloading the scenario and the diagram.

use std::rc::Rc;

use lab_course::scenario_text::{TextError, TEXT_BYTES_MAX};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::download::chosen_file;
use crate::format::thousands;
use crate::worker_module::Readiness;

#[derive(Properties, PartialEq)]
pub struct ScenarioTextProps {
    /// The text as the learner left it.
    pub text: Rc<str>,
    /// Why the text is not the running scenario.
    pub error: Option<TextError>,
    /// Whether the text has been read since it last changed.
    pub checked: bool,
    /// Whether the text is being written anew for a scenario changed elsewhere (read only
    /// meanwhile: see [`use_read_only_while`]).
    pub writing: bool,
    /// Where the module that reads and writes the text is.
    pub worker: Readiness,
    /// What the last import did: Ok in words, Err in words.
    pub import: Option<Result<String, String>>,
    pub ontype: Callback<String>,
    /// A chosen file: (name, text).
    pub onimport: Callback<(String, String)>,
    /// A file that could not be read at all: why, in words.
    pub onimportfailed: Callback<String>,
}

/// A checker message on one line, without its closing full stop.
pub fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    lines.join("; ").trim_end_matches('.').to_string()
}

/// Makes the text box refuse every edit (typing, pasting, cutting, dropping, undoing) while `on`
/// holds, and says so (`aria-readonly`, which the caller sets). Not the `readonly` attribute:
/// toggling it restyles the box's whole text, and for a scenario of thousands of records (a
/// megabyte of text) Chromium takes a fifth of a second to half a second for that, twice per edit
/// in the forms. An edit refused is never lost: the text is about to be written anew.
#[hook]
fn use_read_only_while(area: &NodeRef, on: bool) {
    let area = area.clone();
    use_effect_with(on, move |&on| {
        let listener = on
            .then(|| area.cast::<web_sys::Element>())
            .flatten()
            .map(|target| {
                // Not passive: it calls preventDefault.
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(
                    &target,
                    "beforeinput",
                    options,
                    |event| event.prevent_default(),
                )
            });
        move || drop(listener)
    });
}

/// Above this length the text box is hidden until the learner asks for it (or is already using
/// it). Chromium lays out a text box's whole value whenever it changes on screen: for the
/// sandbox's 10,000 generated records (1.3 MB) that froze the page for about 1.6 s at each edit
/// in the forms, where hidden the same edit shows in about 0.5 s. At this length (about 2,000
/// generated records) an edit with the box shown still comes in a fraction of a second.
pub const SHOWN_BYTES_MAX: usize = 256 * 1024;

#[component]
pub fn ScenarioText(props: &ScenarioTextProps) -> Html {
    let reader = use_mut_ref(|| None::<gloo::file::callbacks::FileReader>);
    let area = use_node_ref();
    use_read_only_while(&area, props.writing);
    // Once asked for, focused or typed in, the box stays: it never hides while in use.
    let wanted = use_state_eq(|| false);
    let hidden = props.text.len() > SHOWN_BYTES_MAX && !*wanted;
    let onshow = {
        let wanted = wanted.clone();
        let area = area.clone();
        Callback::from(move |_: MouseEvent| {
            wanted.set(true);
            // The box is in the page already (hidden): focus it, so the learner is where they asked.
            if let Some(area) = area.cast::<HtmlTextAreaElement>() {
                area.set_hidden(false);
                let _ = area.focus();
            }
        })
    };
    let onfocus = {
        let wanted = wanted.clone();
        Callback::from(move |_: FocusEvent| wanted.set(true))
    };
    let oninput = {
        let ontype = props.ontype.clone();
        let wanted = wanted.clone();
        Callback::from(move |event: InputEvent| {
            wanted.set(true);
            let area: HtmlTextAreaElement = event.target_unchecked_into();
            ontype.emit(area.value());
        })
    };
    let shown = match hidden {
        false => Html::default(),
        true => {
            let lines = props.text.bytes().filter(|&byte| byte == b'\n').count() + 1;
            html! {
                <div class="toml-hidden">
                    <p>{ format!(
                        "This scenario's text is {} ({} lines): it is not shown, so that each change stays quick. The forms edit it; “Download the scenario (TOML)” saves it whole.",
                        size_words(props.text.len()),
                        thousands(lines as u64)
                    ) }</p>
                    <button type="button" onclick={onshow}>{ "Show and edit the text" }</button>
                </div>
            }
        }
    };
    let onfile = {
        let onimport = props.onimport.clone();
        let onimportfailed = props.onimportfailed.clone();
        Callback::from(move |event: Event| {
            let Some(file) = chosen_file(&event) else {
                return;
            };
            let name = file.name();
            if file.size() > TEXT_BYTES_MAX as u64 {
                onimportfailed.emit(format!(
                    "{name} was not imported: it is {} bytes long, more than the {TEXT_BYTES_MAX} bytes a scenario may have. Your scenario is unchanged.",
                    file.size()
                ));
                return;
            }
            let onimport = onimport.clone();
            let onimportfailed = onimportfailed.clone();
            let task = gloo::file::callbacks::read_as_text(&file, move |text| match text {
                Ok(text) => onimport.emit((name, text)),
                Err(error) => onimportfailed.emit(format!(
                    "{name} could not be read ({error}). Your scenario is unchanged."
                )),
            });
            *reader.borrow_mut() = Some(task);
        })
    };
    let waiting = props.writing || !props.checked;
    let status = match (&props.error, &props.worker) {
        (Some(error), _) => html! {
            <p id="scenario-text-status" class="field-problem" role="alert">
                { format!("Line {}, column {}: {}. The lab keeps running the last valid scenario.", error.line, error.column, one_line(&error.message)) }
            </p>
        },
        (None, Readiness::Failed(why)) if waiting => html! {
            <p id="scenario-text-status" class="field-problem" role="alert">
                { format!("The TOML reader and writer could not be loaded ({why}): the forms and the lab work, but this text is not kept in step with them. Reload the page to try again.") }
            </p>
        },
        (None, Readiness::Loading) if waiting => html! {
            <p id="scenario-text-status" class="hint" role="status">
                { "Loading the TOML reader and writer… The forms and the lab work meanwhile." }
            </p>
        },
        (None, _) if props.writing => {
            html! { <p id="scenario-text-status" class="hint" role="status">{ "Writing the text…" }</p> }
        }
        (None, _) if !props.checked => {
            html! { <p id="scenario-text-status" class="hint" role="status">{ "Reading…" }</p> }
        }
        (None, _) => {
            html! { <p id="scenario-text-status" class="hint" role="status">{ "The text is valid; the lab runs it." }</p> }
        }
    };
    let import = props.import.as_ref().map(|result| match result {
        Ok(message) => html! { <p class="hint" role="status">{ message.clone() }</p> },
        Err(message) => html! { <p class="field-problem" role="alert">{ message.clone() }</p> },
    });
    html! {
        <section class="scenario-text" aria-labelledby="scenario-text-title">
            <h2 id="scenario-text-title" class="panel-title">{ "Scenario as TOML" }</h2>
            { shown }
            <label class="field" for="scenario-toml" {hidden}>{ "Scenario (TOML)" }</label>
            // Not autocomplete: Chromium keeps such a box's value in the page's history entry,
            // serialised at each change of address (each step, each edit), 50 to 80 ms at a
            // megabyte; the page writes the box's text itself, so restoring it is not the
            // browser's to do.
            <textarea id="scenario-toml" class="toml" spellcheck="false" autocomplete="off" rows="24" ref={area}
                value={AttrValue::from(Rc::clone(&props.text))} {oninput} {onfocus} {hidden}
                aria-describedby="scenario-text-status" aria-readonly={props.writing.then_some("true")}
                aria-invalid={props.error.is_some().then_some("true")} />
            { status }
            <label class="field file">
                <span class="field-label">{ "Import a scenario file (TOML)" }</span>
                <input type="file" accept=".toml,text/plain,application/toml" onchange={onfile} />
            </label>
            { import.unwrap_or_default() }
        </section>
    }
}

/// A text's length in words: "1.3 MB", "312 KB".
fn size_words(bytes: usize) -> String {
    match bytes {
        0..1_000_000 => format!("{} KB", bytes.div_ceil(1_000)),
        _ => format!("{:.1} MB", bytes as f64 / 1_000_000.0),
    }
}
