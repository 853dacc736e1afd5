//! The app's persistent state: how far the learner got and how they like the page, saved in the
//! browser's local storage and versioned so a value the app cannot read is reset with a notice.
//!
//! Parsing and the reducer are pure and tested natively; only `storage` and `provider` touch the
//! browser.

mod progress;
mod provider;
mod settings;
mod state;
mod storage;
mod versioned;

pub use progress::{LessonProgress, Progress, PROGRESS_VERSION};
pub use provider::{
    use_app, use_app_dispatch, AppContext, AppDispatcher, LoadNotice, StoreProvider,
};
pub use settings::{Settings, Speed, Theme, SETTINGS_VERSION};
pub use state::{AppAction, AppState};
pub use versioned::{parse, to_json, ReadError, Versioned, TEXT_BYTES_MAX};
