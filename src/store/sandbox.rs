//! The sandbox's scenario as saved between visits: the learner's TOML text exactly as typed (valid
//! or not) and the scenario the lab runs (the last valid one), so a reload loses neither. The
//! scenario is saved in the share codec's compact form, so the page reads it back without the
//! TOML reader (which is in the second module).

use lab_course::share::WholeScenario;
use lab_engine::Scenario;
use serde::{Deserialize, Serialize};

use super::versioned::Versioned;

/// The saved-sandbox format this build reads and writes.
pub const SANDBOX_VERSION: u32 = 1;

/// The largest saved sandbox read back, in bytes: a generated batch of 10,000 records is about
/// 1.3 MB of TOML, and a browser's local storage holds about 5 MB per site.
pub const SANDBOX_BYTES_MAX: u64 = 4 * 1024 * 1024;

/// The learner's sandbox.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedSandbox {
    /// The format version, [`SANDBOX_VERSION`].
    pub version: u32,
    /// The scenario text as the learner left it; empty for a first visit.
    pub text: String,
    /// The scenario the lab runs, [`WholeScenario::to_text`]. A sandbox saved before this field
    /// has none: its text is read when it is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The last valid scenario's text, when `text` is not valid: written by the lab before
    /// `scenario`, and no longer read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_valid: Option<String>,
}

impl SavedSandbox {
    /// What to save for this text and the scenario the lab runs.
    pub fn new(text: &str, scenario: &Scenario) -> SavedSandbox {
        SavedSandbox {
            version: SANDBOX_VERSION,
            text: text.to_string(),
            scenario: Some(WholeScenario::of(scenario).to_text()),
            last_valid: None,
        }
    }

    /// The scenario the lab ran, if it was saved (and reads, which [`Versioned::check`] held).
    pub fn scenario(&self) -> Option<Scenario> {
        let saved = WholeScenario::from_text(self.scenario.as_deref()?).ok()?;
        saved.read().ok()
    }
}

impl Versioned for SavedSandbox {
    const VERSION: u32 = SANDBOX_VERSION;
    const BYTES_MAX: u64 = SANDBOX_BYTES_MAX;

    /// The saved scenario must run; the text is read (and its errors shown) when it is shown.
    fn check(&self) -> Result<(), String> {
        let Some(saved) = &self.scenario else {
            return Ok(());
        };
        WholeScenario::from_text(saved)
            .and_then(|whole| whole.read())
            .map(|_| ())
            .map_err(|error| format!("its scenario is not valid ({error})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::versioned::{parse, to_json};

    const VALID: &str = "workflow = \"reserve\"\noperations = [{ id = \"A\" }]\n\n[[workers]]\nname = \"w\"\nruns = [{ op = \"A\" }]\n";

    fn valid() -> Scenario {
        lab_course::scenario_text::parse(VALID).expect("valid")
    }

    #[test]
    fn a_saved_sandbox_reads_back() {
        let saved = SavedSandbox::new(VALID, &valid());
        assert_eq!(
            parse::<SavedSandbox>(&to_json(&saved).unwrap()),
            Ok(saved.clone())
        );
        assert_eq!(saved.scenario(), Some(valid()));
        let typing = SavedSandbox::new("workflow = ", &valid());
        assert_eq!(
            parse::<SavedSandbox>(&to_json(&typing).unwrap()),
            Ok(typing.clone())
        );
        assert_eq!(typing.scenario(), Some(valid()), "the scenario that ran");
    }

    #[test]
    fn a_saved_scenario_that_does_not_run_is_not_read() {
        let mut broken = SavedSandbox::new(VALID, &valid());
        broken.scenario = broken
            .scenario
            .map(|text| text[..text.len() - 3].to_string());
        let text = to_json(&broken).unwrap();
        assert!(parse::<SavedSandbox>(&text).is_err());
        // One saved before scenarios were saved: its text is read when shown.
        let older = SavedSandbox {
            version: SANDBOX_VERSION,
            text: "workflow = ".into(),
            scenario: None,
            last_valid: Some(VALID.into()),
        };
        assert_eq!(parse::<SavedSandbox>(&to_json(&older).unwrap()), Ok(older));
    }

    #[test]
    fn a_large_sandbox_is_read_up_to_its_own_limit() {
        let scenario = lab_engine::BatchSpec::reference(10_000).scenario();
        let batch = lab_course::scenario_text::write(&scenario);
        let saved = SavedSandbox::new(&batch, &scenario);
        let text = to_json(&saved).unwrap();
        assert!(
            text.len() as u64 > crate::store::TEXT_BYTES_MAX,
            "{}",
            text.len()
        );
        assert_eq!(parse::<SavedSandbox>(&text), Ok(saved));
    }
}
