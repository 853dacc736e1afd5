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
    /// Why saved data was reset when the page loaded; shown until dismissed.
    pub notice: Option<String>,
}

/// What can happen to the app state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppAction {
    /// The learner is at `step` (1-based) of a lesson with `total` steps.
    Visit {
        lesson: String,
        step: u32,
        total: u32,
    },
    SetTheme(Theme),
    TogglePresenter,
    SetSpeed(Speed),
    /// Replace all progress, from an imported file or from another tab.
    ImportProgress(Progress),
    /// Replace all settings, from another tab.
    ReplaceSettings(Settings),
    /// Forget every lesson's progress.
    ResetProgress,
    DismissNotice,
}

impl AppState {
    /// The state the page starts with, from what was read out of storage.
    pub fn loaded(
        progress: (Progress, Option<ReadError>),
        settings: (Settings, Option<ReadError>),
        storage_available: bool,
    ) -> AppState {
        AppState {
            notice: load_notice(progress.1.as_ref(), settings.1.as_ref(), storage_available),
            progress: Rc::new(progress.0),
            settings: settings.0,
        }
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
            } => match self.progress.visited(&lesson, step, total) {
                Some(progress) => self.with_progress(progress),
                None => self,
            },
            AppAction::SetTheme(theme) => self.with_settings(Settings { theme, ..settings }),
            AppAction::TogglePresenter => self.with_settings(Settings {
                presenter: !settings.presenter,
                ..settings
            }),
            AppAction::SetSpeed(speed) => self.with_settings(Settings { speed, ..settings }),
            // Imports were parsed by the same checks; this only guards against a caller that
            // built a value by hand.
            AppAction::ImportProgress(progress) => {
                if progress.version == PROGRESS_VERSION && progress.check().is_ok() {
                    self.with_progress(progress)
                } else {
                    self
                }
            }
            AppAction::ReplaceSettings(settings) => self.with_settings(settings),
            AppAction::ResetProgress => self.with_progress(Progress::default()),
            AppAction::DismissNotice => {
                if self.notice.is_none() {
                    return self;
                }
                Rc::new(AppState {
                    notice: None,
                    ..(*self).clone()
                })
            }
        }
    }
}

/// The notice about saved data that could not be used, if any, in words a learner can act on.
pub fn load_notice(
    progress: Option<&ReadError>,
    settings: Option<&ReadError>,
    storage_available: bool,
) -> Option<String> {
    if !storage_available {
        return Some(
            "This browser does not let the lab save anything, so your progress will be forgotten when you close the page. Lessons still work."
                .to_string(),
        );
    }
    let parts: Vec<String> = [
        progress.map(|error| {
            format!(
                "Your saved progress could not be read ({error}) and was reset. Lessons still work."
            )
        }),
        settings.map(|error| {
            format!(
                "Your saved settings could not be read ({error}) and were reset to the defaults."
            )
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}
