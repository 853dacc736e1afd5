//! The file formats: what `course.toml` and a lesson file may say, as serde types with spans.

use lab_engine::Action;
use serde::Deserialize;
use toml::Spanned;

use crate::model::{Expect, QuestionKind, TryIt, VariantKind};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ManifestFile {
    pub(crate) format: Spanned<u32>,
    pub(crate) title: String,
    pub(crate) sections: Vec<SectionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SectionFile {
    pub(crate) title: String,
    pub(crate) lessons: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LessonFile {
    pub(crate) id: Spanned<String>,
    pub(crate) title: String,
    pub(crate) summary: String,
    pub(crate) minutes: Spanned<u32>,
    #[serde(default)]
    pub(crate) prerequisites: Vec<Spanned<String>>,
    /// The base scenario every variant starts from.
    pub(crate) scenario: toml::Table,
    /// The explorer's budget for every variant: `explore = { faults = 2 }`.
    #[serde(default)]
    pub(crate) explore: Option<Spanned<ExploreFile>>,
    pub(crate) variants: Vec<VariantFile>,
    pub(crate) steps: Vec<StepFile>,
}

/// `explore = { faults = N, preemptions = N, kinds = [...] }`; a variant's fields override the
/// lesson's, field by field.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExploreFile {
    #[serde(default)]
    pub(crate) faults: Option<u32>,
    #[serde(default)]
    pub(crate) preemptions: Option<u32>,
    #[serde(default)]
    pub(crate) kinds: Option<Vec<lab_engine::FaultKind>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct VariantFile {
    pub(crate) id: Spanned<String>,
    pub(crate) label: String,
    pub(crate) kind: VariantKind,
    /// Overrides merged into the base scenario (tables merge, everything else replaces).
    #[serde(default)]
    pub(crate) scenario: toml::Table,
    #[serde(default)]
    pub(crate) expect: Option<Spanned<Expect>>,
    /// Overrides the lesson's `explore` for this variant.
    #[serde(default)]
    pub(crate) explore: Option<Spanned<ExploreFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StepFile {
    pub(crate) title: String,
    /// The variant id; default the first.
    #[serde(default)]
    pub(crate) variant: Option<Spanned<String>>,
    pub(crate) at: Spanned<At>,
    pub(crate) text: String,
    #[serde(default)]
    pub(crate) questions: Vec<QuestionFile>,
    /// An action for the learner: `try = { switch = "provider_dedup", on = true, expect = "holds" }`.
    #[serde(default, rename = "try")]
    pub(crate) try_it: Option<Spanned<TryIt>>,
}

/// Where in a variant's trace a step applies.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum At {
    /// A cursor: 0 is before the first event, n is after event n.
    Index(u32),
    /// "start" or "end".
    Named(String),
    /// After (or just before) the n-th occurrence of an action, the first fault, or the event
    /// that first broke an invariant.
    Point(Point),
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Point {
    #[serde(default)]
    pub(crate) action: Option<Action>,
    #[serde(default = "one")]
    pub(crate) nth: u32,
    #[serde(default)]
    pub(crate) fault: Option<u32>,
    #[serde(default)]
    pub(crate) broke: Option<String>,
    /// Stop just before that event instead of after it (for predict questions).
    #[serde(default)]
    pub(crate) before: bool,
}

pub(crate) fn one() -> u32 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuestionFile {
    pub(crate) kind: QuestionKind,
    pub(crate) prompt: Spanned<String>,
    pub(crate) options: Vec<ChoiceFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChoiceFile {
    /// Inline Markdown.
    pub(crate) text: String,
    pub(crate) correct: bool,
    /// Inline Markdown: why this option is right or wrong.
    pub(crate) explain: String,
}
