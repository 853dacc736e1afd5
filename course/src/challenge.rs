//! A challenge: a build task an instructor makes in the page, over a scenario of their own, and
//! hands out by link (`share::Shared::Challenge`), as a lesson file, or embedded. It is the data
//! of a lesson's build task (the bank, the start, the reference, the goal, the budget) with a
//! title, a brief and hints in the lessons' Markdown, which the page draws as text
//! ([`crate::rich`]); what the learner's own run must still do is read off the reference's run
//! ([`Job`]), so it cannot contradict it.
//!
//! A link is text from anywhere: [`Challenge::open`] checks everything but what needs the
//! explorer (every bound, every block the workflow's, the reference well formed and within the
//! bank, the goal naming an invariant), and the second module holds the rest to the same
//! promises `lab check` holds a lesson's build task to (`build_task`). A learner's finished
//! challenge gives a [`Completion`] code an instructor can verify without a server.

use lab_engine::{fnv1a_bytes, Block, Engine, FaultKind, Invariant, Program, Scenario};
use serde::{Deserialize, Serialize};

use crate::build_task::{self, BuildTask};
use crate::model::{Build, Expect, Explore, Placed};
use crate::share::WholeScenario;

/// The longest title, in characters.
pub const TITLE_CHARS_MAX: usize = 100;
/// The longest brief, in characters.
pub const BRIEF_CHARS_MAX: usize = 3_000;
/// The most hints, and the longest, in characters.
pub const HINTS_MAX: usize = 5;
pub const HINT_CHARS_MAX: usize = 500;
/// The most blocks in the bank.
pub const BANK_BLOCKS_MAX: usize = 40;
/// The largest scenario a challenge runs: the explorer tries every schedule of it, on the
/// learner's machine, at every check.
pub const OPERATIONS_MAX: usize = 6;
pub const RUNS_MAX: usize = 12;
/// The largest budget: faults and preemptions in one run.
pub const FAULTS_MAX: u32 = 3;
pub const PREEMPTIONS_MAX: u32 = 3;
/// The most arrangements the builder explores before it asks for more locked lines.
pub const ARRANGEMENTS_MAX: u32 = 20_000;

/// A challenge as a link, a saved draft and the builder hold it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    /// Plain text.
    pub title: String,
    /// What to build and why, in the lessons' Markdown.
    pub brief: String,
    /// The design the learner's program runs in; its own program is not the learner's to see.
    pub scenario: WholeScenario,
    /// The bank: every block on offer beyond the starting lines, the ones the answer needs and
    /// the distractors.
    pub blocks: Vec<Block>,
    /// The lines on the board at the start: none, a scaffold of locked lines, or a broken
    /// program to repair.
    pub start: Vec<Placed>,
    /// A program that holds: the answer.
    pub reference: Program,
    /// The invariants that must hold, in `Invariant::ALL` order.
    pub goal: Vec<Invariant>,
    /// The faults under which they must hold.
    pub explore: Explore,
    pub job: Job,
    /// The instructor's own hints, in the lessons' Markdown, shown before the answer.
    pub hints: Vec<String>,
}

/// What the learner's own run must still do, as the reference's run does it: holding by doing
/// nothing is not the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Each worker's runs return what the reference's return.
    pub results: bool,
    /// The same external effects (charges, emails, notifications), sink by sink.
    pub effects: bool,
    /// As many provider records and table rows.
    pub records: bool,
}

impl Default for Job {
    fn default() -> Self {
        Job {
            results: false,
            effects: true,
            records: true,
        }
    }
}

/// A challenge's id: the same challenge has the same id in every browser, a changed one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChallengeId(pub u32);

impl std::fmt::Display for ChallengeId {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{:08x}", self.0)
    }
}

/// A challenge read and checked (all but the explorer's part): what the board needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Opened {
    pub id: ChallengeId,
    /// The design, with no program of its own.
    pub scenario: Scenario,
    /// The build task: the bank in an order drawn from the id, the reference's job as
    /// `expect`. Its prompt is the title; its texts are the page's to draw (they are not HTML).
    pub build: Build,
}

impl Opened {
    /// Its build task, as the checks read it.
    pub fn task(&self) -> BuildTask<'_> {
        let build = &self.build;
        BuildTask {
            scenario: &self.scenario,
            blocks: &build.blocks,
            start: &build.start,
            reference: &build.reference,
            goal: &build.goal,
            explore: &build.explore,
            expect: &build.expect,
        }
    }
}

impl Challenge {
    /// A first draft from a scenario (the sandbox's): its design's program is both the start (a
    /// program to repair) and the answer, until the instructor changes them.
    pub fn draft(scenario: &Scenario) -> Challenge {
        let program = scenario
            .program
            .clone()
            .unwrap_or_else(|| scenario.workflow.design_program(scenario));
        let mut bare = scenario.clone();
        bare.program = None;
        Challenge {
            title: String::new(),
            brief: String::new(),
            scenario: WholeScenario::of(&bare),
            blocks: Vec::new(),
            start: program
                .lines
                .iter()
                .map(|line| Placed {
                    block: line.block,
                    depth: line.depth,
                    locked: false,
                })
                .collect(),
            reference: program,
            goal: Invariant::applying(scenario),
            explore: Explore::default(),
            job: Job::default(),
            hints: Vec::new(),
        }
    }

    /// A lesson's build task (at `part`, 0-based) as a challenge: the step's design (without its
    /// program), the task's bank, start, answer, goal and budget, the lesson's title. `None`
    /// when the part is not a build task.
    pub fn of_lesson(lesson: &crate::model::Lesson, part: usize) -> Option<Challenge> {
        let step = lesson.steps.get(part)?;
        let Some(crate::model::Task::Build(build)) = &step.try_it else {
            return None;
        };
        let mut scenario = Scenario::clone(&lesson.designs.get(step.design as usize)?.scenario);
        scenario.program = None;
        Some(Challenge {
            title: lesson.title.clone(),
            brief: build.prompt.clone(),
            scenario: WholeScenario::of(&scenario),
            blocks: build.blocks.clone(),
            start: build.start.clone(),
            reference: build.reference.clone(),
            goal: build.goal.clone(),
            explore: build.explore.clone(),
            job: Job::default(),
            hints: Vec::new(),
        })
    }

    /// Its id, from its content.
    pub fn id(&self) -> ChallengeId {
        ChallengeId(fnv1a_bytes(&self.bytes()) as u32)
    }

    /// Its content as bytes: what its id and its codes' checksums are made from.
    fn bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("postcard writes every challenge")
    }

    /// The blocks the answer needs beyond the start's lines.
    pub fn needed(&self) -> Vec<Block> {
        let mut needed: Vec<Block> = self.reference.lines.iter().map(|line| line.block).collect();
        for line in &self.start {
            if let Some(index) = needed.iter().position(|block| *block == line.block) {
                needed.remove(index);
            }
        }
        needed
    }

    /// The bank's blocks that the answer does not need.
    pub fn distractors(&self) -> Vec<Block> {
        let mut needed = self.needed();
        self.blocks
            .iter()
            .copied()
            .filter(
                |block| match needed.iter().position(|known| known == block) {
                    Some(index) => {
                        needed.remove(index);
                        false
                    }
                    None => true,
                },
            )
            .collect()
    }

    /// The challenge with its bank made again from the answer and the start, and `distractors`.
    pub fn with_distractors(mut self, distractors: &[Block]) -> Challenge {
        self.blocks = self.needed();
        self.blocks.extend_from_slice(distractors);
        self
    }

    /// Every check but the explorer's, in the order a builder fixes them; the first problem in
    /// words when one fails.
    pub fn open(&self) -> Result<Opened, String> {
        self.check_texts()?;
        let scenario = self.scenario()?;
        self.check_budget()?;
        // Only what the scenario's runs can break: the others hold by construction, and a
        // learner told to keep them would look for a way to break them.
        let goal: Vec<Invariant> = Invariant::applying(&scenario)
            .into_iter()
            .filter(|invariant| self.goal.contains(invariant))
            .collect();
        if goal.is_empty() {
            return Err("the goal names no invariant this scenario's runs can break: choose at least one that must hold".into());
        }
        if self.blocks.len() > BANK_BLOCKS_MAX {
            return Err(format!(
                "the bank has {} blocks; a challenge offers at most {BANK_BLOCKS_MAX}",
                self.blocks.len()
            ));
        }
        let expect = Expect::default();
        let task = BuildTask {
            scenario: &scenario,
            blocks: &self.blocks,
            start: &self.start,
            reference: &self.reference,
            goal: &goal,
            explore: &self.explore,
            expect: &expect,
        };
        task.shape(&self.wording(&self.budget_words()))?;
        let expect = self.expect(&scenario)?;
        let id = self.id();
        let build = Build {
            prompt: self.title.trim().to_string(),
            prompt_html: String::new(),
            blocks: build_task::shuffled(&self.blocks, u64::from(id.0)),
            start: self.start.clone(),
            reference: self.reference.clone(),
            goal,
            explore: self.explore.clone(),
            expect,
            wrong: Vec::new(),
            hints_html: Vec::new(),
            figures: None,
        };
        Ok(Opened {
            id,
            scenario,
            build,
        })
    }

    fn check_texts(&self) -> Result<(), String> {
        let chars = |text: &str| text.chars().count();
        if self.title.trim().is_empty() {
            return Err("the challenge has no title".into());
        }
        if chars(&self.title) > TITLE_CHARS_MAX {
            return Err(format!(
                "the title is {} characters long; at most {TITLE_CHARS_MAX}",
                chars(&self.title)
            ));
        }
        if chars(&self.brief) > BRIEF_CHARS_MAX {
            return Err(format!(
                "the brief is {} characters long; at most {BRIEF_CHARS_MAX}",
                chars(&self.brief)
            ));
        }
        if self.hints.len() > HINTS_MAX {
            return Err(format!(
                "there are {} hints; at most {HINTS_MAX}",
                self.hints.len()
            ));
        }
        for (number, hint) in self.hints.iter().enumerate() {
            if hint.trim().is_empty() {
                return Err(format!("hint {} is empty", number + 1));
            }
            if chars(hint) > HINT_CHARS_MAX {
                return Err(format!(
                    "hint {} is {} characters long; at most {HINT_CHARS_MAX}",
                    number + 1,
                    chars(hint)
                ));
            }
        }
        Ok(())
    }

    /// The design, read as a link's scenario is, within a challenge's size.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let mut scenario = self
            .scenario
            .read()
            .map_err(|error| format!("the scenario cannot be used: {error}"))?;
        scenario.program = None;
        let runs: usize = scenario
            .workers
            .iter()
            .map(|worker| worker.runs.len())
            .sum();
        if scenario.operations.len() > OPERATIONS_MAX || runs > RUNS_MAX {
            return Err(format!(
                "the scenario has {} operations and {runs} runs; a challenge's has at most {OPERATIONS_MAX} operations and {RUNS_MAX} runs, since the explorer tries every schedule of it at each check: make it smaller in the sandbox",
                scenario.operations.len()
            ));
        }
        Ok(scenario)
    }

    fn check_budget(&self) -> Result<(), String> {
        let explore = &self.explore;
        if explore.faults > FAULTS_MAX || explore.preemptions > PREEMPTIONS_MAX {
            return Err(format!(
                "the budget is {} faults and {} preemptions; at most {FAULTS_MAX} and {PREEMPTIONS_MAX}",
                explore.faults, explore.preemptions
            ));
        }
        Ok(())
    }

    /// What the learner's own run must do: what the reference's own run does, as the job says.
    pub fn expect(&self, scenario: &Scenario) -> Result<Expect, String> {
        let mut with = scenario.clone();
        with.program = Some(self.reference.clone());
        let trace = Engine::run(with).map_err(|error| format!("the answer cannot run: {error}"))?;
        let last = trace.state_at(trace.len());
        let mut expect = Expect::default();
        if self.job.results {
            expect.results = trace.results().into_iter().collect();
        }
        if self.job.effects {
            for effect in &last.effects {
                *expect.effects.entry(effect.sink.to_string()).or_insert(0) += 1;
            }
        }
        if self.job.records {
            expect.provider_records = Some(last.provider.len() as u32);
            expect.table_rows = Some(last.table.rows.len() as u32);
        }
        Ok(expect)
    }

    /// How the checks word its problems for the builder and the learner: the reference is "the
    /// answer", the budget a sentence (`within`).
    pub fn wording<'a>(&self, within: &'a str) -> build_task::Wording<'a> {
        build_task::Wording {
            reference: "the answer",
            within,
            too_many: ": lock more lines of the start",
        }
    }

    /// The budget in words: "2 faults (any kind) and 2 preemptions".
    pub fn budget_words(&self) -> String {
        build_task::explore_words(&self.explore)
    }

    /// The fault kinds its workflow can suffer somewhere: what its budget may name.
    pub fn kinds_of(scenario: &Scenario) -> Vec<FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(|kind| scenario.workflow.actions_for(*kind).next().is_some())
            .collect()
    }
}

/// A learner's finished challenge, as a code they can hand in: the challenge's id, how many
/// checks they ran and how many hints they saw, and a checksum. Nothing proves who made it: a
/// classroom convenience a determined student could forge, not an exam.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    /// "Check my design" presses, the one that held included (at most 255).
    pub checks: u8,
    /// Hints shown (the answer is the last).
    pub hints: u8,
}

/// Why a pasted code is not this challenge's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error(
        "this is not a completion code: a code is 16 letters and digits, as “7K2Q-DM4X-9A1B-CEF0”"
    )]
    Malformed,
    #[error("this code is for another challenge")]
    OtherChallenge,
    #[error("this code was mistyped or altered: its checksum does not match")]
    Altered,
}

/// The code's bytes: the id (4), checks, hints, checksum (4): 80 bits, 16 characters of 5 bits.
const CODE_BYTES: usize = 10;
/// Its characters, in groups of four.
const CODE_CHARS: usize = 16;
const CODE_ALPHABET: base32::Alphabet = base32::Alphabet::Crockford;

impl Completion {
    /// The code, in four groups of four letters and digits.
    pub fn code(&self, challenge: &Challenge) -> String {
        let id = challenge.id();
        let mut bytes = id.0.to_be_bytes().to_vec();
        bytes.extend([self.checks, self.hints]);
        bytes.extend_from_slice(&checksum(challenge, &bytes));
        let text = base32::encode(CODE_ALPHABET, &bytes);
        text.as_bytes()
            .chunks(4)
            .map(|chunk| String::from_utf8_lossy(chunk).into_owned())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The completion a code says, if it is this challenge's and unaltered. Read as people type
    /// it: any case, with or without the dashes and spaces, O for 0 and I or L for 1.
    pub fn read(code: &str, challenge: &Challenge) -> Result<Completion, CodeError> {
        let cleaned: String = code
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        if cleaned.chars().count() != CODE_CHARS || !cleaned.is_ascii() {
            return Err(CodeError::Malformed);
        }
        let bytes = base32::decode(CODE_ALPHABET, &cleaned).ok_or(CodeError::Malformed)?;
        if bytes.len() != CODE_BYTES {
            return Err(CodeError::Malformed);
        }
        let id = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        if id != challenge.id().0 {
            return Err(CodeError::OtherChallenge);
        }
        if bytes[6..] != checksum(challenge, &bytes[..6]) {
            return Err(CodeError::Altered);
        }
        Ok(Completion {
            checks: bytes[4],
            hints: bytes[5],
        })
    }
}

/// Four bytes of a hash of the challenge and the code's other bytes.
fn checksum(challenge: &Challenge, fields: &[u8]) -> [u8; 4] {
    let mut bytes = challenge.bytes();
    bytes.extend_from_slice(b"completion 1");
    bytes.extend_from_slice(fields);
    let hash = fnv1a_bytes(&bytes).to_be_bytes();
    [hash[4], hash[5], hash[6], hash[7]]
}

/// A challenge as a lesson file: one design (the challenge's scenario, showing the start when the
/// start is a whole program) and one step, the build task. `lab check` accepts it as it accepts
/// the challenge; it drops into `lessons/` once its id is listed in `course.toml`.
#[cfg(feature = "scenario-text")]
pub mod lesson {
    use serde::Serialize;

    use super::Challenge;
    use crate::model::{Expect, Explore};

    #[derive(Serialize)]
    struct LessonOut<'a> {
        id: String,
        title: &'a str,
        summary: String,
        minutes: u32,
        scenario: toml::Value,
        designs: Vec<VariantOut<'a>>,
        steps: Vec<StepOut<'a>>,
    }

    #[derive(Serialize)]
    struct VariantOut<'a> {
        id: &'a str,
        label: &'a str,
        kind: &'a str,
        explore: &'a Explore,
    }

    #[derive(Serialize)]
    struct StepOut<'a> {
        title: &'a str,
        design: &'a str,
        at: &'a str,
        text: String,
        #[serde(rename = "try")]
        task: BuildOut<'a>,
    }

    #[derive(Serialize)]
    struct BuildOut<'a> {
        build: String,
        blocks: Vec<&'static str>,
        start: String,
        reference: String,
        goal: Vec<&'static str>,
        explore: &'a Explore,
        arrangements: u32,
        expect: Expect,
        hints: &'a [String],
    }

    /// The lesson file's text. `safe` says whether the design as it opens (the start, or the
    /// scenario's own program) holds within the budget: the file's one design declares it.
    pub fn text(challenge: &Challenge, safe: bool) -> Result<String, String> {
        let opened = challenge.open()?;
        let mut scenario = opened.scenario.clone();
        let start = crate::build_task::program_of(&challenge.start);
        if start.structure(&scenario.offered()).is_ok() {
            scenario.program = Some(start);
        }
        let scenario = toml::Value::try_from(&scenario)
            .map_err(|error| format!("the scenario cannot be written as TOML: {error}"))?;
        let id = slug(&challenge.title).unwrap_or_else(|| format!("challenge-{}", opened.id));
        let title = challenge.title.trim();
        let goal_words: Vec<String> = opened
            .build
            .goal
            .iter()
            .map(|invariant| format!("“{}”", invariant.statement()))
            .collect();
        let build = format!(
            "Arrange the blocks so that no schedule within the budget breaks {}.",
            goal_words.join(" or ")
        );
        let text = match challenge.brief.trim() {
            "" => build.clone(),
            brief => brief.to_string(),
        };
        let lesson = LessonOut {
            id,
            title,
            summary: format!("A challenge: {build}"),
            minutes: minutes(&text),
            scenario,
            designs: vec![VariantOut {
                id: "challenge",
                label: "The challenge's design",
                kind: if safe { "safe" } else { "unsafe" },
                explore: &challenge.explore,
            }],
            steps: vec![StepOut {
                title,
                design: "challenge",
                at: "start",
                text,
                task: BuildOut {
                    build,
                    blocks: challenge.blocks.iter().map(|block| block.name()).collect(),
                    start: start_text(challenge),
                    reference: challenge.reference.text(),
                    goal: opened.build.goal.iter().map(|goal| goal.id()).collect(),
                    explore: &challenge.explore,
                    arrangements: super::ARRANGEMENTS_MAX,
                    expect: opened.build.expect.clone(),
                    hints: &challenge.hints,
                },
            }],
        };
        let body = toml::to_string(&lesson)
            .map_err(|error| format!("the lesson cannot be written as TOML: {error}"))?;
        Ok(format!(
            "# A challenge made in Idempotency Lab's challenge builder, as a lesson file.\n\
             # Check it with `lab check FILE.toml`; to add it to the course, put it in lessons/ and\n\
             # list its id in a section of lessons/course.toml.\n\n{body}"
        ))
    }

    /// The start in the program's text form, each locked line marked `# locked`.
    fn start_text(challenge: &Challenge) -> String {
        challenge
            .start
            .iter()
            .map(|line| {
                format!(
                    "{}{}{}\n",
                    "  ".repeat(line.depth.into()),
                    line.block.name(),
                    if line.locked { "  # locked" } else { "" }
                )
            })
            .collect()
    }

    /// A lesson id from the title: lowercase words joined by dashes.
    fn slug(title: &str) -> Option<String> {
        let words: Vec<String> = title
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(|word| word.to_ascii_lowercase())
            .take(8)
            .collect();
        (!words.is_empty()).then(|| words.join("-"))
    }

    /// The lesson's minutes as the checker estimates them (lessons/README.md, "How long a
    /// lesson takes"): 200 words a minute, 30 seconds for the step, 180 for the build task.
    fn minutes(text: &str) -> u32 {
        let words = text.split_whitespace().count() as u32;
        let seconds = words * 60 / 200 + 30 + 180;
        ((seconds + 30) / 60).max(1)
    }
}
