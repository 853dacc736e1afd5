//! The sandbox's scenario as saved between visits: the learner's TOML text exactly as typed (valid
//! or not) and, while it is not valid, the last valid scenario the lab runs, so a reload loses
//! neither.

use lab_course::scenario_text;
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
    /// The last valid scenario's text, when `text` is not valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_valid: Option<String>,
}

impl SavedSandbox {
    /// What to save for this text and the last valid scenario's text.
    pub fn new(text: &str, valid: bool, last_valid: impl FnOnce() -> String) -> SavedSandbox {
        SavedSandbox {
            version: SANDBOX_VERSION,
            text: text.to_string(),
            last_valid: (!valid).then(last_valid),
        }
    }
}

impl Versioned for SavedSandbox {
    const VERSION: u32 = SANDBOX_VERSION;
    const BYTES_MAX: u64 = SANDBOX_BYTES_MAX;

    /// A saved text that is not valid needs a valid one beside it to run.
    fn check(&self) -> Result<(), String> {
        if self.text.is_empty() || scenario_text::parse(&self.text).is_ok() {
            return Ok(());
        }
        match &self.last_valid {
            None => Err("its scenario is not valid and no valid one was saved with it".into()),
            Some(last) => scenario_text::parse(last)
                .map(|_| ())
                .map_err(|error| format!("its last valid scenario is not valid ({error})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::versioned::{parse, to_json};

    const VALID: &str = "workflow = \"reserve\"\noperations = [{ id = \"A\" }]\n\n[[workers]]\nname = \"w\"\nruns = [{ op = \"A\" }]\n";

    #[test]
    fn a_saved_sandbox_reads_back() {
        let saved = SavedSandbox::new(VALID, true, || unreachable!("valid text"));
        assert_eq!(saved.last_valid, None);
        assert_eq!(parse::<SavedSandbox>(&to_json(&saved).unwrap()), Ok(saved));
        let typing = SavedSandbox::new("workflow = ", false, || VALID.to_string());
        assert_eq!(
            parse::<SavedSandbox>(&to_json(&typing).unwrap()),
            Ok(typing)
        );
    }

    #[test]
    fn invalid_text_without_a_valid_scenario_is_not_read() {
        let broken = SavedSandbox {
            version: SANDBOX_VERSION,
            text: "workflow = ".into(),
            last_valid: Some("nor = this".into()),
        };
        let text = to_json(&broken).unwrap();
        assert!(parse::<SavedSandbox>(&text).is_err());
    }

    #[test]
    fn a_large_sandbox_is_read_up_to_its_own_limit() {
        let batch = scenario_text::write(&lab_engine::BatchSpec::reference(10_000).scenario());
        let saved = SavedSandbox::new(&batch, true, String::new);
        let text = to_json(&saved).unwrap();
        assert!(
            text.len() as u64 > crate::store::TEXT_BYTES_MAX,
            "{}",
            text.len()
        );
        assert_eq!(parse::<SavedSandbox>(&text), Ok(saved));
    }
}
