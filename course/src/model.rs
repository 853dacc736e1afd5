//! The compiled course: what the app embeds. Built from `lessons/` by the authoring side at build
//! time; the app only deserializes it.

use std::collections::BTreeMap;

use lab_engine::{JobStatus, Scenario};
use serde::{Deserialize, Serialize};

/// The version of the lesson file format this crate reads.
pub const FORMAT_VERSION: u32 = 1;

/// The whole course, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Course {
    pub format: u32,
    pub title: String,
    pub sections: Vec<Section>,
    pub lessons: Vec<Lesson>,
}

/// A group of lessons on the course map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub title: String,
    /// Lesson ids, in order.
    pub lessons: Vec<String>,
}

/// One lesson, ready to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub minutes: u32,
    pub prerequisites: Vec<String>,
    /// The file it came from, relative to `lessons/`.
    pub file: String,
    /// The scenarios the learner runs, in order: usually an unsafe design, then the safe one.
    pub variants: Vec<Variant>,
    /// The narrative, each step bound to a point of one variant's trace.
    pub steps: Vec<Step>,
}

/// One design of the lesson's scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub id: String,
    /// A short name for the switch, e.g. "Resubmit blindly".
    pub label: String,
    pub kind: VariantKind,
    pub scenario: Scenario,
    pub expect: Expect,
    /// The budget under which the exhaustive explorer holds the variant to its kind.
    #[serde(default)]
    pub explore: Explore,
}

/// The budget under which a design's claim is checked by the exhaustive explorer: a safe design
/// breaks no invariant in any schedule with at most `faults` injected faults (of `kinds`) and
/// `preemptions` preemptions; an unsafe one breaks one in at least one of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Explore {
    /// Faults the explorer injects into one run, besides the scenario's own. Default 2, at most 3.
    pub faults: u32,
    /// Preemptions in one run (switching away from a worker that could go on). Default 2.
    pub preemptions: u32,
    /// The faults it may inject; empty (the default) for every fault the workflow allows.
    pub kinds: Vec<lab_engine::FaultKind>,
}

impl Default for Explore {
    fn default() -> Self {
        Explore {
            faults: 2,
            preemptions: 2,
            kinds: Vec::new(),
        }
    }
}

impl Explore {
    /// The engine's budget for this.
    pub fn budget(&self) -> lab_engine::Budget {
        lab_engine::Budget {
            faults_max: self.faults,
            preemptions_max: self.preemptions,
            kinds: (!self.kinds.is_empty()).then(|| self.kinds.clone()),
            ..lab_engine::Budget::default()
        }
    }
}

/// Whether the variant is meant to show the bug or the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VariantKind {
    /// Must break at least one invariant (and the ones `expect.breaks` lists).
    Unsafe,
    /// Must keep every invariant.
    Safe,
}

/// What a variant's run must show; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Expect {
    /// What each worker's runs return, by worker name.
    pub results: BTreeMap<String, Vec<String>>,
    /// Records the provider holds at the end.
    pub provider_records: Option<u32>,
    /// Rows in the results table at the end.
    pub table_rows: Option<u32>,
    /// External effects at the end, by sink ("email", "notification", "charge").
    pub effects: BTreeMap<String, u32>,
    /// Calls that reached the model.
    pub model_calls: Option<u32>,
    /// Calls that reached the deepest layer.
    pub deepest_calls: Option<u32>,
    /// Journal status per operation id at the end.
    pub journal: BTreeMap<String, JobStatus>,
    /// Invariants that must break, by id, each optionally at a given event.
    pub breaks: BTreeMap<String, BreakAt>,
}

/// Where an invariant must break.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BreakAt {
    /// `true`: breaks somewhere; `false`: must hold throughout.
    Anywhere(bool),
    /// At exactly this event (1-based).
    Event(u32),
}

/// One step of the narrative.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub title: String,
    /// The narrative, rendered from Markdown at build time (raw HTML escaped).
    pub html: String,
    /// The variant (index into `Lesson::variants`) and the cursor in its trace where it applies.
    pub variant: u32,
    pub at: u32,
    pub questions: Vec<Question>,
    /// An action the learner is asked to take at this step: flip a switch and watch.
    #[serde(default, rename = "try")]
    pub try_it: Option<TryIt>,
}

/// "Flip this switch": the learner sets one of the design's switches on the lab.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TryIt {
    pub switch: lab_engine::Switch,
    /// The value to set it to.
    pub on: bool,
    /// What the changed run shows; the checker runs it and holds the lesson to this.
    pub expect: TryExpect,
}

/// The outcome a "try it" promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TryExpect {
    /// Every invariant holds in the changed run.
    Holds,
    /// At least one invariant breaks in the changed run.
    Breaks,
}

/// A question shown with a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub kind: QuestionKind,
    /// The question as plain text (for accessible names).
    pub prompt: String,
    /// The question rendered from inline Markdown.
    pub prompt_html: String,
    pub options: Vec<Choice>,
}

/// When a question is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// Before the learner runs the step: what will happen?
    Predict,
    /// After: a check of understanding.
    Choice,
}

/// One option of a question, rendered from inline Markdown at build time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub text_html: String,
    pub correct: bool,
    /// Why this option is right or wrong; shown once chosen.
    pub explain_html: String,
}

impl Course {
    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|lesson| lesson.id == id)
    }
}

impl Lesson {
    /// The variant with this id.
    pub fn variant(&self, id: &str) -> Option<&Variant> {
        self.variants.iter().find(|variant| variant.id == id)
    }
}
