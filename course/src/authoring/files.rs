//! The file formats: what `course.toml` and a lesson file may say, as serde types with spans.

use lab_engine::Action;
use serde::Deserialize;
use toml::Spanned;

use crate::model::{DesignKind, Expect, QuestionKind, TryExpect};

/// The manifest's file name inside the lessons folder.
pub const MANIFEST: &str = "course.toml";

/// The coverage map's file name inside the lessons folder: not a lesson, so the loader skips it.
pub const COVERAGE: &str = "coverage.toml";

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
    /// The base scenario every design starts from.
    pub(crate) scenario: Spanned<toml::Table>,
    /// The explorer's budget for every design: `explore = { faults = 2 }`.
    #[serde(default)]
    pub(crate) explore: Option<Spanned<ExploreFile>>,
    /// Read under its old name too (`[[variants]]`, the word before designs).
    #[serde(alias = "variants")]
    pub(crate) designs: Vec<DesignFile>,
    pub(crate) steps: Vec<StepFile>,
}

/// `explore = { faults = N, preemptions = N, kinds = [...] }`; a design's fields override the
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
pub(crate) struct DesignFile {
    pub(crate) id: Spanned<String>,
    pub(crate) label: String,
    pub(crate) kind: DesignKind,
    /// Overrides merged into the base scenario (tables merge, everything else replaces).
    #[serde(default)]
    pub(crate) scenario: toml::Table,
    #[serde(default)]
    pub(crate) expect: Option<Spanned<Expect>>,
    /// Overrides the lesson's `explore` for this design.
    #[serde(default)]
    pub(crate) explore: Option<Spanned<ExploreFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StepFile {
    pub(crate) title: String,
    /// The design id; default the first. Read under its old name too (`variant`).
    #[serde(default, alias = "variant")]
    pub(crate) design: Option<Spanned<String>>,
    pub(crate) at: Spanned<At>,
    pub(crate) text: String,
    #[serde(default)]
    pub(crate) questions: Vec<QuestionFile>,
    /// An action for the learner: `try = { switch = "provider_dedup", on = true, expect = "holds" }`,
    /// or one of the other task kinds (see [`TryFile`]).
    #[serde(default, rename = "try")]
    pub(crate) try_it: Option<Spanned<TryFile>>,
}

/// A step's task, told apart by the key that names its kind: `switch`, `inject`, `until`,
/// `choose` or `find_line`.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "toml::Table")]
pub(crate) enum TryFile {
    Flip(FlipFile),
    Inject(InjectFile),
    Until(UntilFile),
    Choose(ChooseFile),
    FindLine(FindLineFile),
    Build(Box<BuildFile>),
    Hunt(HuntFile),
}

/// The keys that name a task's kind, in the order the format documents them.
pub(crate) const TASK_KINDS: [&str; 7] = [
    "switch",
    "inject",
    "until",
    "choose",
    "find_line",
    "build",
    "hunt",
];

impl TryFrom<toml::Table> for TryFile {
    type Error = String;

    fn try_from(table: toml::Table) -> Result<Self, String> {
        let named: Vec<&str> = TASK_KINDS
            .into_iter()
            .filter(|kind| table.contains_key(*kind))
            .collect();
        let kind = match named.as_slice() {
            [kind] => *kind,
            [] => {
                return Err(format!(
                    "a task names its kind with one of the keys {}",
                    TASK_KINDS.join(", ")
                ))
            }
            several => {
                return Err(format!(
                    "a task has one kind, but this one names {}",
                    several.join(" and ")
                ))
            }
        };
        let value = toml::Value::Table(table);
        let read = |error: toml::de::Error| format!("try ({kind}): {}", error.message());
        Ok(match kind {
            "switch" => TryFile::Flip(value.try_into().map_err(read)?),
            "inject" => TryFile::Inject(value.try_into().map_err(read)?),
            "until" => TryFile::Until(value.try_into().map_err(read)?),
            "choose" => TryFile::Choose(value.try_into().map_err(read)?),
            "build" => TryFile::Build(Box::new(value.try_into().map_err(read)?)),
            "hunt" => TryFile::Hunt(value.try_into().map_err(read)?),
            _ => TryFile::FindLine(value.try_into().map_err(read)?),
        })
    }
}

/// `try = { switch = "reconcile", on = true, expect = "holds" }`; with `goal = "..."`, the card
/// gives only the goal, and the switch is the lesson's own answer (see `Task::Flip`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FlipFile {
    pub(crate) switch: lab_engine::Switch,
    pub(crate) on: bool,
    pub(crate) expect: TryExpect,
    #[serde(default)]
    pub(crate) goal: Option<String>,
}

/// `try = { inject = { fault = "stale_lookup", at = "provider.lookup", nth = 4 }, expect = "holds" }`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct InjectFile {
    pub(crate) inject: lab_engine::FaultRule,
    pub(crate) expect: TryExpect,
    #[serde(default)]
    pub(crate) breaks: Option<String>,
}

/// `try = { until = { broke = "one_effect" } }`: the same forms as a step's `at` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UntilFile {
    pub(crate) until: Point,
}

/// `try = { choose = "Which key?", options = [...] }`, with `contention = { .. }` when the
/// options are retry policies.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChooseFile {
    pub(crate) choose: String,
    pub(crate) options: Vec<TaskOptionFile>,
    #[serde(default)]
    pub(crate) contention: Option<lab_engine::Contention>,
    /// What the correct option's run shows, for options that change the design. Default holds.
    #[serde(default)]
    pub(crate) expect: Option<TryExpect>,
}

/// One option: a label, exactly one of `switch` (with `on`), `key` or `policy`, whether it is
/// the right one, and why.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TaskOptionFile {
    pub(crate) label: String,
    #[serde(default)]
    pub(crate) switch: Option<lab_engine::Switch>,
    #[serde(default)]
    pub(crate) on: Option<bool>,
    #[serde(default)]
    pub(crate) key: Option<lab_engine::KeySource>,
    #[serde(default)]
    pub(crate) write: Option<lab_engine::WriteMode>,
    #[serde(default)]
    pub(crate) policy: Option<lab_engine::Policy>,
    pub(crate) correct: bool,
    pub(crate) explain: String,
}

/// `[steps.try]` with `build = "..."`: a Parsons board whose arrangement the explorer judges.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BuildFile {
    /// What to build (inline Markdown).
    pub(crate) build: String,
    /// The bank: every block on offer beyond the starting lines, the right ones and the
    /// distractors (a block listed twice is offered twice).
    pub(crate) blocks: Vec<lab_engine::Block>,
    /// The lines on the board at the start, in the program's text form; a line ending in
    /// `# locked` cannot be moved, indented or taken away. Default: an empty board.
    #[serde(default)]
    pub(crate) start: String,
    /// A program that holds (the text form): the answer.
    pub(crate) reference: String,
    /// The invariants that must hold, by id. Default: every invariant.
    #[serde(default)]
    pub(crate) goal: Vec<String>,
    /// The faults under which they must hold. Default: the design's own `explore`.
    #[serde(default)]
    pub(crate) explore: Option<crate::model::Explore>,
    /// What the program's own run must still do (the form of a design's `expect`). Default:
    /// nothing more than holding.
    #[serde(default)]
    pub(crate) expect: crate::model::Expect,
    /// The most arrangements the checker explores; a task with more is refused. Default 10,000.
    #[serde(default = "arrangements_max")]
    pub(crate) arrangements: u32,
    /// Known wrong arrangements, each with the misconception it shows.
    #[serde(default)]
    pub(crate) wrong: Vec<WrongFile>,
    /// The author's own hints (inline Markdown), shown one at a time before the answer.
    #[serde(default)]
    pub(crate) hints: Vec<String>,
}

fn arrangements_max() -> u32 {
    10_000
}

/// `[[steps.try.wrong]]`: an arrangement that breaks, and what it shows.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrongFile {
    /// The program, in the text form.
    pub(crate) program: String,
    /// The misconception, in a few words.
    pub(crate) misconception: String,
    /// What the learner reads when their program is this one (inline Markdown).
    pub(crate) message: String,
}

/// `try = { hunt = "Find the fault that beats the tracker.", kinds = ["crash", "lose_reply"],
/// breaks = "one_effect", explain = "..." }`: one fault, placed by the learner.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HuntFile {
    pub(crate) hunt: String,
    /// The fault kinds on offer; without them, every kind the workflow allows.
    #[serde(default)]
    pub(crate) kinds: Vec<lab_engine::FaultKind>,
    #[serde(default)]
    pub(crate) breaks: Option<String>,
    pub(crate) explain: String,
}

/// `try = { find_line = "key = uuid4()", explain = "..." }`: the text of the wrong line.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindLineFile {
    pub(crate) find_line: String,
    pub(crate) explain: String,
}

/// Where in a design's trace a step applies.
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
    pub(crate) options: Vec<QuestionOptionFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct QuestionOptionFile {
    /// Inline Markdown.
    pub(crate) text: String,
    pub(crate) correct: bool,
    /// Inline Markdown: why this option is right or wrong.
    pub(crate) explain: String,
    /// The event of the step's design that refutes (or bears out) this option, in the place
    /// syntax of a step's `at` (`{ action = "sink.send", nth = 3 }`, `{ fault = 1 }`,
    /// `{ broke = "one_effect" }`): once chosen, its explanation offers to show that event.
    #[serde(default)]
    pub(crate) shows: Option<Spanned<Point>>,
}
