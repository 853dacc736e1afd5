//! The challenge builder's drafts as saved between visits: the most recent first, so a draft the
//! instructor leaves (for the sandbox, another draft, another tab) is never lost. The builder's
//! address holds the draft it shows; every change saves it here too. A draft is kept as its
//! link's text (`lab_course::share`), the one form a challenge is read from, so the page carries
//! one reader of challenges, not a second one for JSON.

use lab_course::challenge::Challenge;
use lab_course::share::{decode, encode, Shared};
use serde::{Deserialize, Serialize};

use super::versioned::Versioned;

/// The saved-drafts format this build reads and writes.
pub const DRAFTS_VERSION: u32 = 1;

/// The most drafts kept: a new one past it drops the oldest.
pub const DRAFTS_MAX: usize = 10;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedDrafts {
    /// The format version, [`DRAFTS_VERSION`].
    pub version: u32,
    /// Each draft's link text, the most recent first.
    pub drafts: Vec<String>,
}

impl Default for SavedDrafts {
    fn default() -> Self {
        SavedDrafts {
            version: DRAFTS_VERSION,
            drafts: Vec::new(),
        }
    }
}

impl SavedDrafts {
    /// The drafts after `before` became `after`: the draft that was `before` (or is already
    /// `after`) is replaced and comes first; a draft not saved yet goes first; the oldest past
    /// [`DRAFTS_MAX`] are dropped.
    pub fn updated(&self, before: &Challenge, after: &Challenge) -> SavedDrafts {
        let (before, after) = (text_of(before), text_of(after));
        let mut drafts = self.drafts.clone();
        if let Some(at) = drafts
            .iter()
            .position(|draft| *draft == before || *draft == after)
        {
            drafts.remove(at);
        }
        drafts.insert(0, after);
        drafts.truncate(DRAFTS_MAX);
        SavedDrafts {
            version: DRAFTS_VERSION,
            drafts,
        }
    }

    /// The drafts that still read, the most recent first.
    pub fn read(&self) -> Vec<Challenge> {
        self.drafts
            .iter()
            .filter_map(|text| match decode(text) {
                Ok(Shared::Challenge(challenge)) => Some(*challenge),
                _ => None,
            })
            .collect()
    }
}

fn text_of(draft: &Challenge) -> String {
    encode(&Shared::Challenge(Box::new(draft.clone())))
}

impl Versioned for SavedDrafts {
    const VERSION: u32 = DRAFTS_VERSION;

    fn check(&self) -> Result<(), String> {
        match self.drafts.len() > DRAFTS_MAX {
            true => Err(format!(
                "it keeps {} drafts, and the lab keeps at most {DRAFTS_MAX}",
                self.drafts.len()
            )),
            false => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::versioned::{parse, to_json};

    fn draft(title: &str) -> Challenge {
        let scenario = lab_engine::BatchSpec::reference(1).scenario();
        Challenge {
            title: title.into(),
            ..Challenge::draft(&scenario)
        }
    }

    #[test]
    fn an_edited_draft_replaces_itself_and_a_new_one_goes_first() {
        let saved = SavedDrafts::default()
            .updated(&draft("a"), &draft("a"))
            .updated(&draft("b"), &draft("b"));
        assert_eq!(saved.read(), [draft("b"), draft("a")]);
        let edited = saved.updated(&draft("a"), &draft("a2"));
        assert_eq!(edited.read(), [draft("a2"), draft("b")]);
        assert_eq!(parse::<SavedDrafts>(&to_json(&edited).unwrap()), Ok(edited));
        let mut many = SavedDrafts::default();
        for number in 0..DRAFTS_MAX + 3 {
            let title = number.to_string();
            many = many.updated(&draft(&title), &draft(&title));
        }
        assert_eq!(many.drafts.len(), DRAFTS_MAX);
        assert_eq!(many.read()[0].title, (DRAFTS_MAX + 2).to_string());
    }
}
