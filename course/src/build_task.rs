//! A build task held to its promises: its blocks are the workflow's, its reference does the job
//! and holds within the budget, its start does not, and, up to a bound, every arrangement of the
//! reference's blocks is explored and counted. `lab check` holds a lesson's build task to these
//! (`authoring::build`), and the challenge builder holds an instructor's challenge to the same,
//! in the lab's second module: one set of rules, so a challenge the page accepts is a lesson
//! `lab check` accepts.

use lab_engine::{arrangements, Block, Engine, Explorer, Invariant, Line, Program, Scenario};
use serde::{Deserialize, Serialize};

use crate::model::{BuildFigures, Expect, Explore, Placed};

/// Above this share of arrangements holding, the checker warns: the order barely matters, so the
/// task teaches little.
pub const HOLD_SHARE_WARNING_PERCENT: u64 = 25;

/// A build task as its checks read it: the design it runs in and what the board offers.
#[derive(Clone, Copy, Debug)]
pub struct BuildTask<'a> {
    /// The design the program runs in (its own program is replaced by the board's).
    pub scenario: &'a Scenario,
    /// The bank: every block on offer beyond the starting lines.
    pub blocks: &'a [Block],
    pub start: &'a [Placed],
    pub reference: &'a Program,
    pub goal: &'a [Invariant],
    pub explore: &'a Explore,
    /// What the program's own run must still do.
    pub expect: &'a Expect,
}

/// How a task's problems name what they are about: a lesson file's words for `lab check`, a
/// builder's for the page.
#[derive(Clone, Copy, Debug)]
pub struct Wording<'a> {
    /// The program that holds: "the reference" (the file's key) or "the answer".
    pub reference: &'a str,
    /// The budget: as the file writes it, or as a sentence.
    pub within: &'a str,
    /// What to do about too many arrangements, after "… have more than N arrangements".
    pub too_many: &'a str,
}

/// What the explorer found of a task that keeps its promises.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    pub figures: BuildFigures,
    /// The start's shortest counterexample, in words (none for an empty start).
    pub start_breaks: Option<String>,
    /// More than [`HOLD_SHARE_WARNING_PERCENT`] of the arrangements hold, in words.
    pub warning: Option<String>,
}

impl BuildTask<'_> {
    /// The structure the task promises, without the explorer: every block is the workflow's, the
    /// reference is a well-formed program of the bank's and the start's blocks, and it keeps the
    /// locked lines in order.
    pub fn shape(&self, words: &Wording) -> Result<(), String> {
        let reference = words.reference;
        let workflow = self.scenario.workflow;
        let offered = self.scenario.offered();
        if let Some(stranger) = self.blocks.iter().find(|block| !offered.contains(block)) {
            return Err(format!(
                "blocks: `{}` is not a block of the {} workflow; it offers {}",
                stranger.name(),
                workflow.name(),
                offered
                    .iter()
                    .map(|block| block.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if let Some(stranger) = self
            .start
            .iter()
            .find(|line| !offered.contains(&line.block))
        {
            return Err(format!(
                "start: `{}` is not a block of the {} workflow",
                stranger.block.name(),
                workflow.name()
            ));
        }
        self.reference
            .structure(&offered)
            .map_err(|error| format!("{reference}, {error}"))?;
        if let Some(missing) = missing_from(self.reference, &self.pool()) {
            return Err(format!(
                "{reference} uses `{missing}` more often than the bank and the start offer it"
            ));
        }
        if !keeps_in_order(self.reference, &self.locked()) {
            return Err(format!(
                "{reference} must hold every locked line of the start, in order, at its indentation"
            ));
        }
        Ok(())
    }

    /// Every block a program may use: the start's lines and the bank.
    pub fn pool(&self) -> Vec<Block> {
        self.start
            .iter()
            .map(|line| line.block)
            .chain(self.blocks.iter().copied())
            .collect()
    }

    /// The start's locked lines, in order.
    pub fn locked(&self) -> Vec<Line> {
        self.start
            .iter()
            .filter(|line| line.locked)
            .map(|line| Line {
                block: line.block,
                depth: line.depth,
            })
            .collect()
    }

    /// The program on the board at the start.
    pub fn start_program(&self) -> Program {
        program_of(self.start)
    }

    /// The design with `program` in place of its own.
    pub fn with(&self, program: &Program) -> Scenario {
        let mut changed = self.scenario.clone();
        changed.program = Some(program.clone());
        changed
    }

    /// What `program`'s own run falls short of in `expect`, in words; empty when it does the job.
    pub fn unmet(&self, program: &Program) -> Result<Vec<String>, String> {
        let trace = Engine::run(self.with(program))
            .map_err(|error| format!("the program does not run: {error}"))?;
        Ok(self.expect.unmet(&trace))
    }

    /// Whether `program` holds the goal within the budget: `None` when the explorer's transition
    /// limit cut the search.
    pub fn holds(&self, program: &Program) -> Result<Option<bool>, String> {
        holds(&self.with(program), self.explore, self.goal)
    }

    /// Whether `program` does the job and holds: what a learner's arrangement must do.
    pub fn solves(&self, program: &Program) -> Result<Option<bool>, String> {
        if !self.unmet(program)?.is_empty() {
            return Ok(Some(false));
        }
        self.holds(program)
    }

    /// The task held to every promise, with the explorer: the reference does the job and holds,
    /// the start (when it is a whole program) does not, and every arrangement of the reference's
    /// blocks, at most `arrangements_max` of them, is explored and counted. `counted` hears how
    /// many arrangements are explored of how many, as it goes.
    pub fn judge(
        &self,
        arrangements_max: u32,
        words: &Wording,
        mut counted: impl FnMut(u64, u64),
    ) -> Result<Judged, String> {
        let start_breaks = self.verify(words)?;
        let figures = self.count(arrangements_max, words, &mut counted)?;
        let warning = (figures.hold * 100 > figures.arrangements * HOLD_SHARE_WARNING_PERCENT)
            .then(|| {
                format!(
                    "{} of {} arrangements hold: more than {HOLD_SHARE_WARNING_PERCENT}%, so the order barely matters; lock fewer lines or offer blocks whose place matters",
                    figures.hold, figures.arrangements
                )
            });
        Ok(Judged {
            figures,
            start_breaks,
            warning,
        })
    }

    /// The promises a learner's board relies on, without counting arrangements: the shape, the
    /// reference doing the job and holding, the start (when it is a whole program) not doing
    /// both (a start that holds by doing nothing still leaves the job to build).
    /// The start's shortest counterexample, in words, when it has one.
    pub fn verify(&self, words: &Wording) -> Result<Option<String>, String> {
        self.shape(words)?;
        let (reference, within) = (words.reference, words.within);
        if let Some(unmet) = self.unmet(self.reference)?.first() {
            return Err(format!(
                "{reference}'s own run does not do the job: {unmet}"
            ));
        }
        if self.holds(self.reference)? != Some(true) {
            let why = describe(&self.with(self.reference), self.explore)?;
            return Err(format!("{reference} does not hold within {within}: {why}"));
        }
        let start = self.start_program();
        if start.lines.is_empty() || start.structure(&self.scenario.offered()).is_err() {
            return Ok(None);
        }
        if self.solves(&start)? == Some(true) {
            return Err(
                "the starting program already does the job and holds: there is nothing to build"
                    .into(),
            );
        }
        describe(&self.with(&start), self.explore).map(Some)
    }

    /// Every arrangement of the reference's blocks (the locked lines in place), up to `bound`,
    /// and how many solve the task.
    fn count(
        &self,
        bound: u32,
        words: &Wording,
        counted: &mut impl FnMut(u64, u64),
    ) -> Result<BuildFigures, String> {
        let locked = self.locked();
        let mut movable: Vec<Block> = self.reference.lines.iter().map(|line| line.block).collect();
        for line in &locked {
            if let Some(index) = movable.iter().position(|block| *block == line.block) {
                movable.remove(index);
            }
        }
        let bound = bound as usize;
        let offered = self.scenario.offered();
        let found = arrangements(&locked, &movable, &offered, bound + 1);
        if !found.complete || found.programs.len() > bound {
            return Err(format!(
                "{}'s blocks have more than {bound} arrangements{}",
                words.reference, words.too_many
            ));
        }
        let total = found.programs.len() as u64;
        let mut hold = 0;
        for (done, program) in found.programs.iter().enumerate() {
            match self.solves(program)? {
                Some(true) => hold += 1,
                Some(false) => {}
                None => {
                    return Err(format!(
                        "the explorer's transition limit cut the search of an arrangement:\n{}",
                        program.text()
                    ))
                }
            }
            counted(done as u64 + 1, total);
        }
        Ok(BuildFigures {
            arrangements: total,
            hold,
        })
    }
}

/// Whether the goal holds for `scenario` within `explore`: cheaper budgets first, since most
/// designs that break, break with fewer faults.
pub fn holds(
    scenario: &Scenario,
    explore: &Explore,
    goal: &[Invariant],
) -> Result<Option<bool>, String> {
    for faults in 0..=explore.faults {
        let budget = Explore {
            faults,
            ..explore.clone()
        }
        .budget();
        let verdict = Explorer::holds(scenario.clone(), budget, goal)
            .map_err(|error| format!("the program does not run: {error}"))?;
        if verdict != Some(true) {
            return Ok(verdict);
        }
    }
    Ok(Some(true))
}

/// The shortest counterexample within the budget, in words.
pub fn describe(scenario: &Scenario, explore: &Explore) -> Result<String, String> {
    let report = Explorer::run(scenario.clone(), explore.budget())
        .map_err(|error| format!("the program does not run: {error}"))?;
    Ok(report
        .counterexample
        .map(|found| found.description)
        .unwrap_or_else(|| "it holds".into()))
}

/// A budget in words: "2 faults (any kind) and 2 preemptions".
pub fn explore_words(explore: &Explore) -> String {
    let kinds = if explore.kinds.is_empty() {
        "any kind".to_string()
    } else {
        explore
            .kinds
            .iter()
            .map(|kind| kind.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{} fault{} ({kinds}) and {} preemption{}",
        explore.faults,
        if explore.faults == 1 { "" } else { "s" },
        explore.preemptions,
        if explore.preemptions == 1 { "" } else { "s" }
    )
}

/// A block `program` uses more often than `pool` holds it, if any.
pub fn missing_from(program: &Program, pool: &[Block]) -> Option<&'static str> {
    let mut left = pool.to_vec();
    for line in &program.lines {
        match left.iter().position(|block| *block == line.block) {
            Some(index) => {
                left.swap_remove(index);
            }
            None => return Some(line.block.name()),
        }
    }
    None
}

/// Whether `program` holds `locked` as a subsequence, each at its indentation.
pub fn keeps_in_order(program: &Program, locked: &[Line]) -> bool {
    let mut wanted = locked.iter().peekable();
    for line in &program.lines {
        if wanted.peek() == Some(&line) {
            wanted.next();
        }
    }
    wanted.peek().is_none()
}

/// The bank in an order drawn from `seed`: the author's order is often the answer's.
pub fn shuffled(blocks: &[Block], seed: u64) -> Vec<Block> {
    let mut shuffled = blocks.to_vec();
    let mut rng = lab_engine::Rng::new(seed);
    for index in (1..shuffled.len()).rev() {
        let other = rng.below(index as u32 + 1) as usize;
        shuffled.swap(index, other);
    }
    shuffled
}

/// The program of a board's starting lines.
pub fn program_of(start: &[Placed]) -> Program {
    Program {
        lines: start
            .iter()
            .map(|line| Line {
                block: line.block,
                depth: line.depth,
            })
            .collect(),
    }
}
