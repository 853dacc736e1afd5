//! Local storage, the only place the store does IO. Every call survives a browser that refuses
//! storage (private modes, blocked cookies, a sandboxed frame, a full quota): the lab then runs
//! in memory and says so.

use std::cell::RefCell;
use std::collections::BTreeSet;

use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::drafts::SavedDrafts;
use super::progress::Progress;
use super::sandbox::SavedSandbox;
use super::settings::Settings;
use super::state::{AppAction, AppState, Kept, Unreadable};
use super::versioned::{parse, restore, Versioned};

/// The name progress is saved under, before the site's namespace.
pub const PROGRESS_NAME: &str = "idempotency-lab/progress";
/// The name settings are saved under, before the site's namespace.
pub const SETTINGS_NAME: &str = "idempotency-lab/settings";
/// The name the sandbox's scenario is saved under, before the site's namespace.
pub const SANDBOX_NAME: &str = "idempotency-lab/sandbox";
/// The name the challenge builder's drafts are saved under, before the site's namespace.
pub const DRAFTS_NAME: &str = "idempotency-lab/challenge-drafts";
/// How many backups of unreadable data one key keeps; past this, the data stays where it is.
const BACKUPS_MAX: u32 = 20;

thread_local! {
    /// Keys holding unreadable data that could not be backed up: never saved over.
    static HELD: RefCell<BTreeSet<String>> = const { RefCell::new(BTreeSet::new()) };
}

/// The prefix of every key for a site whose base URL is `base_uri`: empty at the root of an
/// origin, so the keys of a root build are what they always were, and the base URL's directory
/// (e.g. `/lab/`) under a sub-path, so two builds on one origin never share data. The theme script
/// (static/theme.js) computes the same prefix.
pub fn key_prefix(base_uri: &str) -> String {
    let after_scheme = base_uri
        .split_once("://")
        .map_or(base_uri, |(_, rest)| rest);
    let path = after_scheme
        .find('/')
        .map_or("/", |start| &after_scheme[start..]);
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let directory = path.rfind('/').map_or("/", |end| &path[..=end]);
    if directory == "/" {
        String::new()
    } else {
        directory.to_string()
    }
}

/// The key a value named `name` is saved under in this site's namespace.
pub fn key(name: &str) -> String {
    let base = gloo::utils::document().base_uri().ok().flatten();
    format!("{}{name}", key_prefix(base.as_deref().unwrap_or("/")))
}

/// The backup key number `number` of `key`.
pub fn backup_key(key: &str, number: u32) -> String {
    format!("{key}.backup-{number}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|window| window.local_storage().ok().flatten())
}

/// Whether local storage can be used. Checked before every gloo call, because gloo throws when
/// there is none.
fn available() -> bool {
    storage().is_some()
}

/// The text saved under `key`, if any.
fn read(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Copies unreadable `text` to the first free backup key of `key`, then removes it from `key`;
/// when no backup can be written, the text stays under `key`, which is then never saved over.
fn set_aside(key: &str, text: &str) -> Kept {
    let Some(storage) = storage() else {
        return Kept::InPlace(key.to_string());
    };
    for number in 1..=BACKUPS_MAX {
        let backup = backup_key(key, number);
        if storage.get_item(&backup).ok().flatten().is_some() {
            continue;
        }
        if storage.set_item(&backup, text).is_ok() {
            let _ = storage.remove_item(key);
            return Kept::Backup(backup);
        }
        break;
    }
    HELD.with(|held| held.borrow_mut().insert(key.to_string()));
    Kept::InPlace(key.to_string())
}

/// Reads a saved value; one that cannot be used is set aside, never deleted.
fn load_one<T: Versioned + Default>(key: &str) -> (T, Option<Unreadable>) {
    let text = read(key);
    let (value, error) = restore::<T>(text.as_deref());
    let unreadable = error.map(|error| Unreadable {
        error,
        kept: set_aside(key, text.as_deref().unwrap_or_default()),
    });
    (value, unreadable)
}

/// The state the page starts with.
pub fn load() -> AppState {
    let storage_available = available();
    AppState::loaded(
        load_one::<Progress>(&key(PROGRESS_NAME)),
        load_one::<Settings>(&key(SETTINGS_NAME)),
        storage_available,
    )
}

/// The sandbox as last saved; one that cannot be read is set aside under a backup key, and the
/// notice says where.
pub fn load_sandbox() -> (SavedSandbox, Option<String>) {
    let (saved, unreadable) = load_one::<SavedSandbox>(&key(SANDBOX_NAME));
    let notice = unreadable.map(|unreadable| {
        format!(
            "Your saved sandbox could not be read ({}). {}, and the sandbox starts afresh.",
            unreadable.error,
            unreadable.whereabouts()
        )
    });
    (saved, notice)
}

/// Saves the sandbox; Err says why it could not be saved.
pub fn save_sandbox(saved: &SavedSandbox) -> Result<(), String> {
    save(&key(SANDBOX_NAME), saved)
}

/// The challenge builder's drafts; unreadable ones are set aside as the sandbox's are.
pub fn load_drafts() -> (SavedDrafts, Option<String>) {
    let (saved, unreadable) = load_one::<SavedDrafts>(&key(DRAFTS_NAME));
    let notice = unreadable.map(|unreadable| {
        format!(
            "Your saved challenge drafts could not be read ({}). {}, and the builder starts afresh.",
            unreadable.error,
            unreadable.whereabouts()
        )
    });
    (saved, notice)
}

/// Saves the challenge builder's drafts; Err says why they could not be saved.
pub fn save_drafts(saved: &SavedDrafts) -> Result<(), String> {
    save(&key(DRAFTS_NAME), saved)
}

/// Saves a value under `key`. Err says why it could not be saved (storage full or refused); the
/// lab then carries on in memory. Without any storage, which the load notice already reported,
/// or over unreadable data that could not be backed up, nothing is written and nothing is said.
pub fn save<T: Versioned>(key: &str, value: &T) -> Result<(), String> {
    if !available() || HELD.with(|held| held.borrow().contains(key)) {
        return Ok(());
    }
    LocalStorage::set(key, value).map_err(|error| {
        gloo::console::warn!(format!("Idempotency Lab could not save {key}: {error}"));
        error.to_string()
    })
}

/// Follows changes another tab saves, so two open tabs do not overwrite each other: progress is
/// merged, and settings take the other tab's choice, the newer one. The browser sends the
/// `storage` event only to the other tabs. A value that is missing or cannot be read is ignored:
/// this tab keeps its state and saves it again on its next change.
pub fn follow_other_tabs(dispatcher: UseReducerDispatcher<AppState>) -> Option<EventListener> {
    let window = web_sys::window()?;
    let progress_key = key(PROGRESS_NAME);
    let settings_key = key(SETTINGS_NAME);
    Some(EventListener::new(&window, "storage", move |event| {
        let Some(event) = event.dyn_ref::<web_sys::StorageEvent>() else {
            return;
        };
        let (Some(changed), Some(text)) = (event.key(), event.new_value()) else {
            return;
        };
        if changed == progress_key {
            if let Ok(progress) = parse::<Progress>(&text) {
                dispatcher.dispatch(AppAction::MergeProgress(progress));
            }
        } else if changed == settings_key {
            if let Ok(settings) = parse::<Settings>(&text) {
                dispatcher.dispatch(AppAction::ReplaceSettings(settings));
            }
        }
    }))
}
