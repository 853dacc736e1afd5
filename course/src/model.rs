//! The compiled course: what the app embeds. Built from `lessons/` by the authoring side at build
//! time; the app only deserializes it.

use std::collections::BTreeMap;

use lab_engine::{JobStatus, Scenario};
use std::sync::Arc;

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
    pub designs: Vec<Design>,
    /// The narrative, each step bound to a point of one design's trace.
    pub steps: Vec<Step>,
}

/// One design the player can show: a lesson's (one version of its scenario, with the claim the
/// checker holds it to), or a scenario of the learner's own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Design {
    pub id: String,
    /// A short name for the switch, e.g. "Resubmit blindly".
    pub label: String,
    /// Whether it is meant to show the bug or the fix: always one in a lesson, `None` for a
    /// scenario of the learner's own, which claims nothing.
    pub kind: Option<DesignKind>,
    /// Shared (`Arc`, so a loaded course can sit in a static), so the player's panels copy nothing
    /// however many records it has.
    pub scenario: Arc<Scenario>,
    pub expect: Expect,
    /// The budget under which the exhaustive explorer holds the design to its kind.
    #[serde(default)]
    pub explore: Explore,
}

impl Design {
    /// A scenario of the learner's own (the sandbox's, a shared one, a challenge's program):
    /// no claim, no expectations, the explorer's default budget.
    pub fn own(label: impl Into<String>, scenario: impl Into<Arc<Scenario>>) -> Design {
        Design {
            id: String::new(),
            label: label.into(),
            kind: None,
            scenario: scenario.into(),
            expect: Expect::default(),
            explore: Explore::default(),
        }
    }
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

/// Whether the design is meant to show the bug or the fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesignKind {
    /// Must break at least one invariant (and the ones `expect.breaks` lists).
    Unsafe,
    /// Must keep every invariant.
    Safe,
}

/// What a design's run must show; every field is optional.
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

impl Expect {
    /// What `trace` does not show of these expectations, each in words ("expected
    /// provider_records = 2, but the run gives 3"); the invariants (`breaks`) are not read here.
    pub fn unmet(&self, trace: &lab_engine::Trace) -> Vec<String> {
        let mut unmet = Vec::new();
        let last = trace.state_at(trace.len());
        let mut want = |field: &str, expected: String, actual: String| {
            if expected != actual {
                unmet.push(format!(
                    "expected {field} = {expected}, but the run gives {actual}"
                ));
            }
        };
        for (worker, results) in &self.results {
            let actual = trace
                .results()
                .into_iter()
                .find(|(name, _)| name == worker)
                .map(|(_, results)| format!("{results:?}"))
                .unwrap_or_else(|| "no such worker".into());
            want(&format!("results.{worker}"), format!("{results:?}"), actual);
        }
        let counts = [
            (
                "provider_records",
                self.provider_records,
                last.provider.len() as u32,
            ),
            ("table_rows", self.table_rows, last.table.rows.len() as u32),
            ("model_calls", self.model_calls, last.counts.model_calls),
            (
                "deepest_calls",
                self.deepest_calls,
                last.counts.deepest_calls,
            ),
        ];
        for (field, expected, actual) in counts {
            if let Some(expected) = expected {
                want(field, expected.to_string(), actual.to_string());
            }
        }
        for (sink, count) in &self.effects {
            let actual = last
                .effects
                .iter()
                .filter(|effect| &effect.sink == sink)
                .count();
            want(
                &format!("effects.{sink}"),
                count.to_string(),
                actual.to_string(),
            );
        }
        for (op, status) in &self.journal {
            let actual = last
                .journal
                .get(op.as_str())
                .map(|job| job.status.name())
                .unwrap_or("no row");
            want(
                &format!("journal.{op}"),
                status.name().to_string(),
                actual.to_string(),
            );
        }
        unmet
    }
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
    /// The design (index into `Lesson::designs`) and the cursor in its trace where it applies.
    pub design: u32,
    pub at: u32,
    pub questions: Vec<Question>,
    /// An action the learner is asked to take at this step, checked against the engine.
    #[serde(default, rename = "try")]
    pub try_it: Option<Task>,
}

/// What the learner does with their own hands at a step. The checker runs every outcome a task
/// promises before the course is built.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Set one of the design's switches on the lab and watch. With a goal, the step names only
    /// the goal (scaffolding fades): the learner may use any switch, and the task is done when
    /// the learner's own design, with every fault of the lesson's still in, holds every
    /// invariant; `switch` and `on` are then the lesson's own answer, checked to reach it.
    Flip {
        switch: lab_engine::Switch,
        /// The value to set it to.
        on: bool,
        /// What the changed run shows.
        expect: TryExpect,
        /// The goal in words, as plain text ("Make the operator's retry harmless.").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        goal: Option<String>,
    },
    /// Inject one fault into the design, predict what it does (the step asks a predict
    /// question), then step on and see.
    Inject {
        fault: lab_engine::FaultRule,
        expect: TryExpect,
        /// The invariant the fault breaks, by id, when the lesson names one.
        breaks: Option<String>,
    },
    /// Play or step the design's own run until an event the step names.
    Until {
        /// The event (1-based) of the step's design; the task is done once the cursor reaches it.
        event: u32,
        /// What happens there, in words ("At most one effect per logical operation breaks").
        what: String,
    },
    /// Choose one of several design changes; choosing one runs it.
    Choose {
        /// The question, as plain text (its accessible name) and as inline HTML.
        prompt: String,
        prompt_html: String,
        options: Vec<TaskOption>,
        /// For options that are retry policies: the contention experiment they run in.
        contention: Option<lab_engine::Contention>,
    },
    /// Build the design: arrange blocks from a bank into a program (a Parsons board), then
    /// check it against every schedule of faults within the budget.
    Build(Box<Build>),
    /// Hunt for the fault that beats the design: the learner picks where one fault strikes (an
    /// action of the design's own run, and which occurrence of it) and which fault, and the task
    /// is met when an invariant breaks.
    Hunt(Box<Hunt>),
    /// Pick the line of the code panel that is wrong.
    FindLine {
        /// The text of that line, as the code panel shows it for the step's design.
        line: String,
        /// Why it is wrong; shown once the learner picks it.
        explain_html: String,
    },
}

/// A hunt: the places the learner may strike, each with the faults on offer there, and what
/// counts as found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hunt {
    /// What to find, as plain text and as inline HTML.
    pub prompt: String,
    pub prompt_html: String,
    /// Every fault point of the design's own run (an action and its occurrence), each with the
    /// faults of the hunt's kinds that can strike there, in the run's order.
    pub points: Vec<lab_engine::FaultPoint>,
    /// The invariant that must break; without one, any.
    pub breaks: Option<lab_engine::Invariant>,
    /// Why it breaks, shown once the learner has found a placement that does (inline HTML).
    pub explain_html: String,
    /// The checker's figures: how many placements there are, and how many break.
    pub placements: u32,
    pub breaking: u32,
}

impl Hunt {
    /// The fault rule of a placement: `fault` at the `nth` occurrence of `at`.
    pub fn rule(
        point: &lab_engine::FaultPoint,
        fault: lab_engine::FaultKind,
    ) -> lab_engine::FaultRule {
        lab_engine::FaultRule {
            fault,
            at: point.at,
            nth: Some(point.nth),
            worker: None,
            chance_permille: None,
        }
    }

    /// Where the run with a placement counts as found: the event at which the named invariant
    /// (or, without one, any) first breaks.
    pub fn found_at(&self, trace: &lab_engine::Trace) -> Option<u32> {
        match self.breaks {
            None => trace.first_broken(),
            Some(wanted) => trace
                .verdicts
                .iter()
                .find(|verdict| verdict.invariant == wanted)
                .and_then(|verdict| verdict.broken_at),
        }
    }
}

/// A build task: the blocks on offer, where the learner starts, what must hold and under which
/// faults, and what the checker found when it explored every arrangement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
    /// What to build, as plain text (its accessible name) and as inline HTML.
    pub prompt: String,
    pub prompt_html: String,
    /// The bank: every block on offer beyond the starting lines, the right ones and the
    /// distractors, in the order the board shows them (shuffled when the course is built, so the
    /// order is not the answer).
    pub blocks: Vec<lab_engine::Block>,
    /// The lines on the board at the start (a broken program to repair, or none).
    pub start: Vec<Placed>,
    /// A program that holds: the answer the last hint shows.
    pub reference: lab_engine::Program,
    /// The invariants that must hold, in `Invariant::ALL` order.
    pub goal: Vec<lab_engine::Invariant>,
    /// The faults under which they must hold.
    pub explore: Explore,
    /// What the program's own run (the design's faults, no more) must still do: hold by doing
    /// nothing is not the job.
    #[serde(default)]
    pub expect: Expect,
    /// Known wrong arrangements, each with the misconception it shows.
    pub wrong: Vec<Wrong>,
    /// The author's own hints, as inline HTML, shown before the answer.
    pub hints_html: Vec<String>,
    /// The checker's figures, when it explored them (`lab check`, `lab tasks`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figures: Option<BuildFigures>,
}

/// A line on the board at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    pub block: lab_engine::Block,
    pub depth: u8,
    /// A locked line cannot be moved, indented or taken away.
    pub locked: bool,
}

/// A known wrong arrangement of a build task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wrong {
    pub program: lab_engine::Program,
    /// The misconception, in a few words.
    pub misconception: String,
    /// What the learner reads when their program is this one, as inline HTML.
    pub message_html: String,
    /// The checker's shortest counterexample, in words (when it explored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
}

/// What the checker found for a build task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildFigures {
    /// The distinct arrangements of the reference's blocks (the locked lines in place) that pass
    /// the structure check.
    pub arrangements: u64,
    /// How many of them hold within the budget.
    pub hold: u64,
}

/// One option of a "choose" task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskOption {
    /// Plain text: the option's button reads it.
    pub label: String,
    pub change: DesignChange,
    pub correct: bool,
    /// Why this option is right or wrong; shown once chosen.
    pub explain_html: String,
}

/// A change to a design that an option of a "choose" task stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesignChange {
    /// Set a switch.
    Switch {
        switch: lab_engine::Switch,
        on: bool,
    },
    /// Take the key from this source.
    Key { key: lab_engine::KeySource },
    /// Write rows this way (`INSERT`, `INSERT OR IGNORE`, `UPSERT`).
    Write { write: lab_engine::WriteMode },
    /// Retry under this policy, in the task's contention experiment (the lab's design is kept).
    Policy { policy: lab_engine::Policy },
}

impl DesignChange {
    /// The design with this change, or `None` for a change the lab's run does not show (a
    /// policy, which runs in the contention model instead).
    pub fn apply(&self, scenario: &Scenario) -> Option<Scenario> {
        match self {
            DesignChange::Switch { switch, on } => Some(switch.set(scenario, *on)),
            DesignChange::Key { key } => {
                let mut changed = scenario.clone();
                changed.switches.key = *key;
                Some(changed)
            }
            DesignChange::Write { write } => {
                let mut changed = scenario.clone();
                changed.switches.write = *write;
                Some(changed)
            }
            DesignChange::Policy { .. } => None,
        }
    }
}

/// The outcome a task promises.
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
    pub options: Vec<QuestionOption>,
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
pub struct QuestionOption {
    pub text_html: String,
    pub correct: bool,
    /// Why this option is right or wrong; shown once chosen.
    pub explain_html: String,
    /// The event (1-based) of the step's design that refutes it, which the explanation offers
    /// to show.
    #[serde(default)]
    pub shows: Option<u32>,
}

impl Course {
    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|lesson| lesson.id == id)
    }
}

impl Lesson {
    /// The design with this id.
    pub fn design(&self, id: &str) -> Option<&Design> {
        self.designs.iter().find(|design| design.id == id)
    }
}
