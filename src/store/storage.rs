//! Local storage, the only place the store does IO. Every call survives a browser that refuses
//! storage (private modes, blocked cookies, a sandboxed frame): the lab then runs unsaved.

use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use yew::prelude::*;

use super::progress::Progress;
use super::settings::Settings;
use super::state::{AppAction, AppState};
use super::versioned::{parse, restore, ReadError, Versioned};

/// Where progress is saved.
pub const PROGRESS_KEY: &str = "idempotency-lab/progress";
/// Where settings are saved.
pub const SETTINGS_KEY: &str = "idempotency-lab/settings";

/// Whether local storage can be used. Checked before every gloo call, because gloo throws when
/// there is none.
fn available() -> bool {
    web_sys::window()
        .and_then(|window| window.local_storage().ok().flatten())
        .is_some()
}

/// The text saved under `key`, if any.
fn read(key: &str) -> Option<String> {
    if !available() {
        return None;
    }
    LocalStorage::raw().get_item(key).ok().flatten()
}

/// Reads a saved value; one that cannot be used is removed, so its notice shows only once.
fn load_one<T: Versioned + Default>(key: &str) -> (T, Option<ReadError>) {
    let (value, error) = restore::<T>(read(key).as_deref());
    if error.is_some() {
        LocalStorage::delete(key);
    }
    (value, error)
}

/// The state the page starts with.
pub fn load() -> AppState {
    let storage_available = available();
    AppState::loaded(
        load_one::<Progress>(PROGRESS_KEY),
        load_one::<Settings>(SETTINGS_KEY),
        storage_available,
    )
}

/// Saves a value; a failure (storage full or refused) is logged, and the lab carries on.
pub fn save<T: Versioned>(key: &str, value: &T) {
    if !available() {
        return;
    }
    if let Err(error) = LocalStorage::set(key, value) {
        gloo::console::warn!(format!("Idempotency Lab could not save {key}: {error}"));
    }
}

/// Follows changes another tab saves, so two open tabs do not overwrite each other's progress.
/// The browser sends the `storage` event only to the other tabs. A value that is missing or cannot
/// be read is ignored: this tab keeps its state and saves it again on its next change.
pub fn follow_other_tabs(dispatcher: UseReducerDispatcher<AppState>) -> Option<EventListener> {
    let window = web_sys::window()?;
    Some(EventListener::new(&window, "storage", move |_| {
        if let Some(progress) = read_valid::<Progress>(PROGRESS_KEY) {
            dispatcher.dispatch(AppAction::ImportProgress(progress));
        }
        if let Some(settings) = read_valid::<Settings>(SETTINGS_KEY) {
            dispatcher.dispatch(AppAction::ReplaceSettings(settings));
        }
    }))
}

fn read_valid<T: Versioned>(key: &str) -> Option<T> {
    read(key).and_then(|text| parse::<T>(&text).ok())
}
