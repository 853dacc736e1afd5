//! How the learner likes the page: colour theme, presenter mode, playback speed.

use serde::{Deserialize, Serialize};

use super::versioned::Versioned;

/// The settings format this build reads and writes.
pub const SETTINGS_VERSION: u32 = 1;

/// The learner's display settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The format version, [`SETTINGS_VERSION`].
    pub version: u32,
    pub theme: Theme,
    /// Larger text and a wider lab, for showing the lab on a projector.
    pub presenter: bool,
    pub speed: Speed,
}

impl Default for Settings {
    /// The system's theme, presenter mode off, normal speed.
    fn default() -> Self {
        Settings {
            version: SETTINGS_VERSION,
            theme: Theme::System,
            presenter: false,
            speed: Speed::Normal,
        }
    }
}

impl Versioned for Settings {
    const VERSION: u32 = SETTINGS_VERSION;
}

/// The colour theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follow the system's light or dark preference.
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    /// Every theme, in the order a menu lists them.
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    /// The name a person reads.
    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "System",
            Theme::Light => "Light",
            Theme::Dark => "Dark",
        }
    }

    /// The `data-theme` attribute of `<html>`; none lets the system preference decide.
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::System => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

/// How fast playback advances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
}

impl Speed {
    /// Every speed, slowest first.
    pub const ALL: [Speed; 3] = [Speed::Slow, Speed::Normal, Speed::Fast];

    /// What the speed control says.
    pub fn label(self) -> &'static str {
        match self {
            Speed::Slow => "Slow",
            Speed::Normal => "Normal",
            Speed::Fast => "Fast",
        }
    }

    /// The pause between two steps: slow 2000 ms, normal 1200 ms, fast 600 ms.
    pub fn delay_milliseconds(self) -> u32 {
        match self {
            Speed::Slow => 2_000,
            Speed::Normal => 1_200,
            Speed::Fast => 600,
        }
    }
}
