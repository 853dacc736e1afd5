//! Export progress to a file, import it back, or reset it. An imported file goes through the same
//! checks as saved progress and is merged with it, never replacing it, and the import can be
//! undone; its text is only ever shown as text.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::download::chosen_file;
use crate::store::{parse, to_json, use_app, AppAction, Progress, ReadError, TEXT_BYTES_MAX};

/// The name of an exported file.
pub const EXPORT_FILE_NAME: &str = "idempotency-lab-progress.json";

/// What an import did, in words; an error leaves progress as it was.
pub fn import_message(result: &Result<Progress, ReadError>) -> String {
    match result {
        Ok(progress) => {
            let count = progress.lesson_count();
            let noun = if count == 1 { "lesson" } else { "lessons" };
            format!(
                "Progress imported: {count} {noun} from the file, merged with yours (each lesson keeps its furthest step)."
            )
        }
        Err(error) => {
            format!("That file could not be imported ({error}). Your progress is unchanged.")
        }
    }
}

#[component]
pub fn ProgressIo() -> Html {
    let app = use_app();
    let status = use_state(String::new);
    // Whether the status is about an import that Undo can take back.
    let undoable = use_state(|| false);
    let confirming = use_state(|| false);
    // Dropping a reader cancels its read, so the one in flight is kept here.
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let reset_button = use_node_ref();

    let onexport = {
        let progress = app.progress.clone();
        let status = status.clone();
        let undoable = undoable.clone();
        Callback::from(move |_: MouseEvent| {
            undoable.set(false);
            status.set(match download_json(EXPORT_FILE_NAME, &progress) {
                Ok(()) => format!("Progress exported to {EXPORT_FILE_NAME}."),
                Err(error) => format!("Progress could not be exported ({error})."),
            });
        })
    };
    let onimport = {
        let dispatcher = app.dispatcher();
        let status = status.clone();
        let undoable = undoable.clone();
        Callback::from(move |event: Event| {
            let Some(file) = chosen_file(&event) else {
                return;
            };
            undoable.set(false);
            if file.size() > TEXT_BYTES_MAX {
                status.set(import_message(&Err(ReadError::TooLarge {
                    bytes: file.size(),
                    max: TEXT_BYTES_MAX,
                })));
                return;
            }
            let dispatcher = dispatcher.clone();
            let status = status.clone();
            let undoable = undoable.clone();
            let task = gloo::file::callbacks::read_as_text(&file, move |text| {
                let message = match text {
                    Err(error) => format!(
                        "That file could not be read ({error}). Your progress is unchanged."
                    ),
                    Ok(text) => {
                        let result = parse::<Progress>(&text);
                        let message = import_message(&result);
                        if let Ok(progress) = result {
                            dispatcher.dispatch(AppAction::ImportProgress(progress));
                            undoable.set(true);
                        }
                        message
                    }
                };
                status.set(message);
            });
            *reader.borrow_mut() = Some(task);
        })
    };
    let onundo = {
        let dispatcher = app.dispatcher();
        let status = status.clone();
        let undoable = undoable.clone();
        Callback::from(move |_: MouseEvent| {
            dispatcher.dispatch(AppAction::UndoImport);
            undoable.set(false);
            status.set("Import undone: your progress is as it was before the import.".to_string());
        })
    };
    let ontoggle = {
        let confirming = confirming.clone();
        Callback::from(move |_: MouseEvent| confirming.set(!*confirming))
    };
    let onconfirm = {
        let dispatcher = app.dispatcher();
        let confirming = confirming.clone();
        let status = status.clone();
        let undoable = undoable.clone();
        let reset_button = reset_button.clone();
        Callback::from(move |_: MouseEvent| {
            dispatcher.dispatch(AppAction::ResetProgress);
            undoable.set(false);
            confirming.set(false);
            status.set("Progress reset: every lesson starts again from step 1.".to_string());
            focus(&reset_button);
        })
    };
    let oncancel = {
        let confirming = confirming.clone();
        let reset_button = reset_button.clone();
        Callback::from(move |_: MouseEvent| {
            confirming.set(false);
            focus(&reset_button);
        })
    };

    html! {
        <div class="progress-io">
            <div class="progress-actions">
                <button type="button" onclick={onexport}>{ "Export progress" }</button>
                <span class="import-progress">
                    <label for="import-progress">{ "Import progress" }</label>
                    <input id="import-progress" type="file" accept="application/json" onchange={onimport} />
                </span>
                <button
                    type="button"
                    ref={reset_button}
                    aria-expanded={confirming.to_string()}
                    aria-controls={confirming.then_some("reset-confirm")}
                    onclick={ontoggle}
                >
                    { "Reset progress" }
                </button>
            </div>
            if *confirming {
                <div id="reset-confirm" class="reset-confirm" role="group" aria-label="Confirm reset">
                    <p>{ "Forget how far you got in every lesson? This cannot be undone; export first to keep a copy." }</p>
                    <button type="button" class="danger" onclick={onconfirm}>{ "Yes, reset" }</button>
                    <button type="button" onclick={oncancel}>{ "Cancel" }</button>
                </div>
            }
            // Always present, so screen readers announce each new message.
            <p class="io-status" role="status">
                { (*status).clone() }
                if *undoable && app.before_import.is_some() {
                    { " " }
                    <button type="button" onclick={onundo}>{ "Undo import" }</button>
                }
            </p>
        </div>
    }
}

/// Saves `progress` as a JSON file.
fn download_json(name: &str, progress: &Progress) -> Result<(), String> {
    let text = to_json(progress).map_err(|error| error.to_string())?;
    crate::download::download_text(name, &text, "application/json")
}

fn focus(node: &NodeRef) {
    if let Some(element) = node.cast::<HtmlElement>() {
        let _ = element.focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_message_counts_lessons_and_names_the_error() {
        let progress = Progress::default()
            .visited("lost-reply", 2, 5, 1)
            .expect("a first visit changes progress");
        assert!(import_message(&Ok(progress))
            .starts_with("Progress imported: 1 lesson from the file, merged with yours"));
        assert!(
            import_message(&Ok(Progress::default())).starts_with("Progress imported: 0 lessons")
        );
        assert_eq!(
            import_message(&parse::<Progress>(" \n")),
            "That file could not be imported (it is empty). Your progress is unchanged."
        );
        let message = import_message(&parse::<Progress>("not json"));
        assert!(message.starts_with("That file could not be imported (it is not valid JSON"));
        assert!(message.ends_with("Your progress is unchanged."));
    }
}
