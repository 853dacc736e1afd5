//! Playback and the keyboard, as hooks on the player's reducer. Both only dispatch actions: the
//! reducer decides from the state as it is when the action arrives, so a key pressed between a
//! render and its effects never acts on a stale frame.

use std::cell::Cell;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::player::state::{PlayerAction, PlayerState};
use crate::store::{use_app_dispatch, AppAction, Speed};

/// While playing, one frame per tick at `speed`; the reducer stops at the end.
#[hook]
pub fn use_playback(player: &UseReducerHandle<PlayerState>, speed: Speed) {
    let dispatcher = player.dispatcher();
    use_effect_with(
        (player.playing(), player.frame(), speed),
        move |&(playing, _, speed)| {
            let timer = playing.then(|| {
                Timeout::new(speed.delay_milliseconds(), move || {
                    dispatcher.dispatch(PlayerAction::Tick)
                })
            });
            move || drop(timer)
        },
    );
}

/// The focused element, if the key event came from one.
fn target(event: &web_sys::KeyboardEvent) -> Option<web_sys::Element> {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
}

/// The input's type, lower case ("" for anything that is not an <input>).
fn input_type(element: &web_sys::Element) -> String {
    match element.tag_name().as_str() {
        "INPUT" => element
            .get_attribute("type")
            .unwrap_or_else(|| "text".into())
            .to_lowercase(),
        _ => String::new(),
    }
}

/// The learner is typing in a field, or moving a slider or a list, or a block on a build task's
/// board (anything inside `data-keys="own"`): keys are theirs, not shortcuts. A checkbox or a
/// button leaves the shortcuts alone.
fn typing(event: &web_sys::KeyboardEvent) -> bool {
    let owns = |element: &web_sys::Element| {
        element
            .closest("[data-keys=\"own\"]")
            .ok()
            .flatten()
            .is_some()
    };
    target(event).is_some_and(|element| {
        owns(&element)
            || match element.tag_name().as_str() {
                "TEXTAREA" | "SELECT" => true,
                "INPUT" => !matches!(
                    input_type(&element).as_str(),
                    "checkbox" | "radio" | "button" | "submit"
                ),
                _ => false,
            }
    })
}

/// Space on a focused button or checkbox presses it; it is not the play shortcut.
fn on_button(event: &web_sys::KeyboardEvent) -> bool {
    target(event).is_some_and(|element| {
        matches!(element.tag_name().as_str(), "BUTTON" | "SUMMARY")
            || matches!(input_type(&element).as_str(), "checkbox" | "radio")
    })
}

/// Whether a key is a shortcut at all: not with a modifier, not while typing.
fn ours(event: &web_sys::KeyboardEvent) -> bool {
    !(event.ctrl_key() || event.meta_key() || event.alt_key() || typing(event))
}

/// The player action a key stands for, if any.
fn shortcut(event: &web_sys::KeyboardEvent, help_open: bool) -> Option<PlayerAction> {
    let action = match event.key().as_str() {
        "ArrowRight" | "PageDown" => PlayerAction::Next,
        "ArrowLeft" | "PageUp" => PlayerAction::Back,
        "Home" => PlayerAction::Seek(0),
        // The reducer clamps to the last frame.
        "End" => PlayerAction::Seek(u32::MAX),
        " " if !on_button(event) => PlayerAction::TogglePlay,
        "?" => PlayerAction::ToggleHelp,
        "Escape" if help_open => PlayerAction::CloseHelp,
        _ => return None,
    };
    Some(action)
}

/// Arrows (and a presentation remote's Page keys) step, Home/End jump, Space plays, ? shows the
/// shortcuts, p toggles presenter mode. Installed once, for as long as the player is shown.
#[hook]
pub fn use_shortcuts(player: &UseReducerHandle<PlayerState>) {
    // Only Escape needs to know whether the dialog is open (it is not a shortcut otherwise).
    let help = use_memo((), |_| Cell::new(false));
    help.set(player.help());
    let dispatcher = player.dispatcher();
    let app = use_app_dispatch();
    use_effect_with((), move |_| {
        let help: Rc<Cell<bool>> = help;
        // Not passive: the shortcuts call preventDefault (space must not scroll the page).
        let options = gloo::events::EventListenerOptions::enable_prevent_default();
        let listener = gloo::events::EventListener::new_with_options(
            &gloo::utils::document(),
            "keydown",
            options,
            move |event| {
                let Some(event) = event.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                if !ours(event) {
                    return;
                }
                if matches!(event.key().as_str(), "p" | "P") {
                    app.dispatch(AppAction::TogglePresenter);
                } else if let Some(action) = shortcut(event, help.get()) {
                    dispatcher.dispatch(action);
                } else {
                    return;
                }
                event.prevent_default();
            },
        );
        move || drop(listener)
    });
}
