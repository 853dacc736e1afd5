//! The app state and its reducer. The reducer builds the next state and does no IO: saving and
//! applying the theme happen in the provider's effects.

use std::rc::Rc;

use yew::prelude::*;

use super::progress::{Progress, PROGRESS_VERSION};
use super::settings::{Settings, Speed, Theme};
use super::versioned::{ReadError, Versioned};

/// Everything the app keeps between visits, and the notice about what could not be kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AppState {
    pub progress: Rc<Progress>,
    pub settings: Settings,
    /// Why saved data was set aside when the page loaded; shown until dismissed.
    pub notice: Option<String>,
    /// Why something could not be saved; shown until dismissed, and only for the first failure,
    /// so a full storage does not bring it back at every step.
    pub save_notice: Option<String>,
    /// Whether a save failure has been reported in this visit.
    pub save_failure_reported: bool,
    /// The progress just before the last import, which Undo restores exactly.
    pub before_import: Option<Rc<Progress>>,
}

/// What can happen to the app state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppAction {
    /// The learner is at `step` (1-based) of a lesson with `total` steps.
    Visit {
        lesson: String,
        step: u32,
        total: u32,
        /// When, in milliseconds since 1970: read by the caller, so the reducer stays pure.
        now_milliseconds: u64,
    },
    /// The learner answered, or skipped, the prediction of `part` (1-based) of a lesson.
    Predicted {
        lesson: String,
        part: u32,
        skipped: bool,
    },
    /// The learner changed a build task's board (of `part`, 1-based), saw a hint, or solved it.
    Boarded {
        lesson: String,
        part: u32,
        board: super::progress::BoardProgress,
    },
    /// The learner changed a challenge's board, saw a hint, checked, or solved it.
    Attempted {
        id: String,
        attempt: super::progress::ChallengeProgress,
    },
    SetTheme(Theme),
    TogglePresenter,
    SetSpeed(Speed),
    /// Merge an imported file into the progress, remembering the progress before for Undo.
    ImportProgress(Progress),
    /// Put back the progress from before the last import.
    UndoImport,
    /// Merge what another tab saved into the progress.
    MergeProgress(Progress),
    /// Replace all settings with the ones another tab saved: its choice is the newer one.
    ReplaceSettings(Settings),
    /// Saving failed; the message says what and why, in words.
    SaveFailed(String),
    /// Forget every lesson's progress.
    ResetProgress,
    DismissNotice,
}

impl AppState {
    /// The state the page starts with, from what was read out of storage.
    pub fn loaded(
        progress: (Progress, Option<Unreadable>),
        settings: (Settings, Option<Unreadable>),
        storage_available: bool,
    ) -> AppState {
        AppState {
            notice: load_notice(progress.1.as_ref(), settings.1.as_ref(), storage_available),
            progress: Rc::new(progress.0),
            settings: settings.0,
            ..AppState::default()
        }
    }

    /// Imported progress is checked again: parsing did it, but a caller could build one by hand.
    fn importable(progress: &Progress) -> bool {
        progress.version == PROGRESS_VERSION && progress.check().is_ok()
    }

    fn with_progress(self: &Rc<Self>, progress: Progress) -> Rc<Self> {
        if *self.progress == progress {
            return Rc::clone(self);
        }
        Rc::new(AppState {
            progress: Rc::new(progress),
            ..(**self).clone()
        })
    }

    fn with_settings(self: &Rc<Self>, settings: Settings) -> Rc<Self> {
        if self.settings == settings {
            return Rc::clone(self);
        }
        Rc::new(AppState {
            settings,
            ..(**self).clone()
        })
    }
}

impl Reducible for AppState {
    type Action = AppAction;

    /// Returns the same `Rc` when nothing changes, so nothing re-renders and nothing is saved.
    fn reduce(self: Rc<Self>, action: AppAction) -> Rc<Self> {
        let settings = self.settings;
        match action {
            AppAction::Visit {
                lesson,
                step,
                total,
                now_milliseconds,
            } => match self
                .progress
                .visited(&lesson, step, total, now_milliseconds)
            {
                Some(progress) => self.with_progress(progress),
                None => self,
            },
            AppAction::Predicted {
                lesson,
                part,
                skipped,
            } => match self.progress.predicted(&lesson, part, skipped) {
                Some(progress) => self.with_progress(progress),
                None => self,
            },
            AppAction::Boarded {
                lesson,
                part,
                board,
            } => match self.progress.boarded(&lesson, part, board) {
                Some(progress) => self.with_progress(progress),
                None => self,
            },
            AppAction::Attempted { id, attempt } => match self.progress.attempted(&id, attempt) {
                Some(progress) => self.with_progress(progress),
                None => self,
            },
            AppAction::SetTheme(theme) => self.with_settings(Settings { theme, ..settings }),
            AppAction::TogglePresenter => self.with_settings(Settings {
                presenter: !settings.presenter,
                ..settings
            }),
            AppAction::SetSpeed(speed) => self.with_settings(Settings { speed, ..settings }),
            AppAction::ImportProgress(progress) => {
                if !AppState::importable(&progress) {
                    return self;
                }
                let merged = self.progress.merged(&progress);
                let progress = if merged == *self.progress {
                    Rc::clone(&self.progress)
                } else {
                    Rc::new(merged)
                };
                Rc::new(AppState {
                    progress,
                    before_import: Some(Rc::clone(&self.progress)),
                    ..(*self).clone()
                })
            }
            AppAction::UndoImport => match &self.before_import {
                None => self,
                Some(before) => Rc::new(AppState {
                    progress: Rc::clone(before),
                    before_import: None,
                    ..(*self).clone()
                }),
            },
            AppAction::MergeProgress(progress) => {
                if !AppState::importable(&progress) {
                    return self;
                }
                let merged = self.progress.merged(&progress);
                self.with_progress(merged)
            }
            AppAction::ReplaceSettings(settings) => self.with_settings(settings),
            AppAction::SaveFailed(message) => {
                if self.save_failure_reported {
                    return self;
                }
                Rc::new(AppState {
                    save_notice: Some(message),
                    save_failure_reported: true,
                    ..(*self).clone()
                })
            }
            AppAction::ResetProgress => {
                let reset = self.with_progress(Progress::default());
                if reset.before_import.is_none() {
                    return reset;
                }
                Rc::new(AppState {
                    before_import: None,
                    ..(*reset).clone()
                })
            }
            AppAction::DismissNotice => {
                if self.notice.is_none() && self.save_notice.is_none() {
                    return self;
                }
                Rc::new(AppState {
                    notice: None,
                    save_notice: None,
                    ..(*self).clone()
                })
            }
        }
    }
}

/// Saved data that could not be read when the page loaded, and where it was kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    pub error: ReadError,
    pub kept: Kept,
}

/// Where unreadable saved data is: it is never deleted, so a person can recover it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Copied to this key, and removed from its own.
    Backup(String),
    /// Still under its own key, this one, because no backup could be written; the lab does not
    /// save over it.
    InPlace(String),
}

impl Unreadable {
    /// Completes "Your saved progress could not be read (…)." with where it is now.
    pub(crate) fn whereabouts(&self) -> String {
        match &self.kept {
            Kept::Backup(key) => format!(
                "It is kept, unchanged, under the key \"{key}\" in this browser's local storage"
            ),
            Kept::InPlace(key) => format!(
                "It was left as it is under the key \"{key}\" in this browser's local storage, because there was no room for a backup, and the lab will not save over it"
            ),
        }
    }
}

/// The notice about saved data that could not be used, if any, in words a learner can act on.
pub fn load_notice(
    progress: Option<&Unreadable>,
    settings: Option<&Unreadable>,
    storage_available: bool,
) -> Option<String> {
    if !storage_available {
        return Some(
            "This browser does not let the lab save anything, so your progress will be forgotten when you close the page. Lessons still work."
                .to_string(),
        );
    }
    let parts: Vec<String> = [
        progress.map(|unreadable| {
            format!(
                "Your saved progress could not be read ({}). {}, and your progress starts afresh. Lessons still work.",
                unreadable.error,
                unreadable.whereabouts()
            )
        }),
        settings.map(|unreadable| {
            format!(
                "Your saved settings could not be read ({}). {}, and the settings are back to the defaults.",
                unreadable.error,
                unreadable.whereabouts()
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The notice when saving fails: what could not be saved, why, and what still works.
pub fn save_failed_notice(what: &str, reason: &str) -> String {
    format!(
        "Your {what} could not be saved in this browser ({reason}). The lab keeps working, but what you do from now on will be forgotten when you close the page; export your progress to keep a copy."
    )
}
