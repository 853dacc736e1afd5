//! Build tasks: a Parsons board whose arrangement the explorer judges. Compiled from the file
//! form and held to what it promises: the blocks are the workflow's, the reference holds within
//! the budget, the starting program does not, every listed wrong arrangement breaks (with its
//! shortest counterexample), and, up to a stated bound, every arrangement of the reference's
//! blocks is explored and counted: a task that most arrangements solve teaches nothing. An
//! arrangement holds when its own run does the job (`expect`) and no schedule within the budget
//! breaks the goal.

use lab_engine::{arrangements, Block, Explorer, Invariant, Line, Program, Rng, Scenario};

use super::files::BuildFile;
use super::markdown::{inline_markdown, plain_text};
use super::task::Here;
use crate::model::{Build, BuildFigures, Explore, Placed, Task, Wrong};
use crate::names::by_name;

/// Above this share of arrangements holding, the checker warns: the order barely matters, so the
/// task teaches little.
pub const HOLD_SHARE_WARNING_PERCENT: u64 = 25;

/// The build task, compiled; with `here.explore`, every promise is held to the explorer.
pub(crate) fn compile_build(file: &BuildFile, here: &Here) -> Result<(Task, Vec<String>), String> {
    let scenario = &here.variant.scenario;
    let workflow = scenario.workflow;
    let offered = workflow.offered();
    if let Some(stranger) = file.blocks.iter().find(|block| !offered.contains(block)) {
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
    let start = start_lines(&file.start)?;
    if let Some(stranger) = start.iter().find(|line| !offered.contains(&line.block)) {
        return Err(format!(
            "start: `{}` is not a block of the {} workflow",
            stranger.block.name(),
            workflow.name()
        ));
    }
    let reference =
        Program::parse(&file.reference).map_err(|error| format!("reference, {error}"))?;
    reference
        .structure(offered)
        .map_err(|error| format!("reference, {error}"))?;
    let on_board: Vec<Block> = start.iter().map(|line| line.block).collect();
    let pool: Vec<Block> = on_board.iter().chain(&file.blocks).copied().collect();
    if let Some(missing) = missing_from(&reference, &pool) {
        return Err(format!(
            "the reference uses `{missing}` more often than the bank and the start offer it"
        ));
    }
    let locked: Vec<Line> = start
        .iter()
        .filter(|line| line.locked)
        .map(|line| Line {
            block: line.block,
            depth: line.depth,
        })
        .collect();
    if !keeps_in_order(&reference, &locked) {
        return Err(
            "the reference must hold every locked line of the start, in order, at its indentation"
                .into(),
        );
    }
    let goal = goal(&file.goal)?;
    let explore = file
        .explore
        .clone()
        .unwrap_or_else(|| here.variant.explore.clone());
    let mut wrong = Vec::new();
    for (number, entry) in file.wrong.iter().enumerate() {
        let name = format!("wrong {} (\"{}\")", number + 1, entry.misconception);
        let program = Program::parse(&entry.program).map_err(|error| format!("{name}, {error}"))?;
        program
            .structure(offered)
            .map_err(|error| format!("{name}, {error}"))?;
        if let Some(missing) = missing_from(&program, &pool) {
            return Err(format!(
                "{name} uses `{missing}` more often than the bank and the start offer it"
            ));
        }
        if entry.message.trim().is_empty() {
            return Err(format!("{name} has no message for the learner"));
        }
        wrong.push(Wrong {
            program,
            misconception: entry.misconception.clone(),
            message_html: inline_markdown(&entry.message),
            counterexample: None,
        });
    }
    let mut warnings = Vec::new();
    let mut figures = None;
    if here.explore {
        let with = |program: &Program| {
            let mut changed = scenario.clone();
            changed.program = Some(program.clone());
            changed
        };
        let does = |program: &Program| -> Result<Vec<String>, String> {
            let trace = lab_engine::Engine::run(with(program))
                .map_err(|error| format!("the program does not run: {error}"))?;
            Ok(file.expect.unmet(&trace))
        };
        if let Some(unmet) = does(&reference)?.first() {
            return Err(format!(
                "the reference's own run does not do the job: {unmet}"
            ));
        }
        if holds(&with(&reference), &explore, &goal)? != Some(true) {
            let why = describe(&with(&reference), &explore)?;
            return Err(format!(
                "the reference does not hold within {}: {why}",
                super::check::explore_text(&explore)
            ));
        }
        let start_program = Program {
            lines: start
                .iter()
                .map(|line| Line {
                    block: line.block,
                    depth: line.depth,
                })
                .collect(),
        };
        if !start.is_empty()
            && start_program.structure(offered).is_ok()
            && holds(&with(&start_program), &explore, &goal)? == Some(true)
        {
            return Err("the starting program already holds: there is nothing to build".into());
        }
        for (entry, compiled) in file.wrong.iter().zip(&mut wrong) {
            if holds(&with(&compiled.program), &explore, &goal)? != Some(false) {
                return Err(format!(
                    "wrong arrangement \"{}\" holds within the budget: it is not wrong",
                    entry.misconception
                ));
            }
            compiled.counterexample = Some(describe(&with(&compiled.program), &explore)?);
        }
        let counted = count(file, &reference, &locked, offered, |program| {
            if !does(program)?.is_empty() {
                return Ok(Some(false));
            }
            holds(&with(program), &explore, &goal)
        })?;
        if counted.hold * 100 > counted.arrangements * HOLD_SHARE_WARNING_PERCENT {
            warnings.push(format!(
                "{} of {} arrangements hold: more than {HOLD_SHARE_WARNING_PERCENT}%, so the order barely matters; lock fewer lines or offer blocks whose place matters",
                counted.hold, counted.arrangements
            ));
        }
        figures = Some(counted);
    }
    let placed = start
        .iter()
        .map(|line| Placed {
            block: line.block,
            depth: line.depth,
            locked: line.locked,
        })
        .collect();
    let build = Build {
        prompt: plain_text(&file.build),
        prompt_html: inline_markdown(&file.build),
        blocks: shuffled(&file.blocks, here.seed),
        start: placed,
        reference,
        goal,
        explore,
        expect: file.expect.clone(),
        wrong,
        hints_html: file
            .hints
            .iter()
            .map(|hint| inline_markdown(hint))
            .collect(),
        figures,
    };
    Ok((Task::Build(Box::new(build)), warnings))
}

/// A start line: a block at an indentation, locked or not.
struct StartLine {
    block: Block,
    depth: u8,
    locked: bool,
}

/// The start in the program's text form, each line ending in `# locked` marked so.
fn start_lines(text: &str) -> Result<Vec<StartLine>, String> {
    let program = Program::parse(text).map_err(|error| format!("start, {error}"))?;
    let locked = text
        .lines()
        .filter(|line| !line.split('#').next().unwrap_or("").trim().is_empty())
        .map(|line| {
            line.split_once('#')
                .is_some_and(|(_, comment)| comment.trim() == "locked")
        });
    Ok(program
        .lines
        .iter()
        .zip(locked)
        .map(|(line, locked)| StartLine {
            block: line.block,
            depth: line.depth,
            locked,
        })
        .collect())
}

/// A block `program` uses more often than `pool` holds it, if any.
fn missing_from(program: &Program, pool: &[Block]) -> Option<&'static str> {
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
fn keeps_in_order(program: &Program, locked: &[Line]) -> bool {
    let mut wanted = locked.iter().peekable();
    for line in &program.lines {
        if wanted.peek() == Some(&line) {
            wanted.next();
        }
    }
    wanted.peek().is_none()
}

/// The goal's invariants, by id, in `Invariant::ALL` order; every invariant when none is named.
fn goal(ids: &[String]) -> Result<Vec<Invariant>, String> {
    if ids.is_empty() {
        return Ok(Invariant::ALL.to_vec());
    }
    let mut goal = Vec::new();
    for id in ids {
        goal.push(by_name::<Invariant>("invariant", id).map_err(|why| format!("goal: {why}"))?);
    }
    Ok(Invariant::ALL
        .into_iter()
        .filter(|invariant| goal.contains(invariant))
        .collect())
}

/// Whether the goal holds for `scenario` within `explore`: cheaper budgets first, since most
/// designs that break, break with fewer faults.
fn holds(
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
fn describe(scenario: &Scenario, explore: &Explore) -> Result<String, String> {
    let report = Explorer::run(scenario.clone(), explore.budget())
        .map_err(|error| format!("the program does not run: {error}"))?;
    Ok(report
        .counterexample
        .map(|found| found.description)
        .unwrap_or_else(|| "it holds".into()))
}

/// Every arrangement of the reference's blocks (the locked lines in place), up to the file's
/// bound, and how many hold.
fn count(
    file: &BuildFile,
    reference: &Program,
    locked: &[Line],
    offered: &[Block],
    mut holds: impl FnMut(&Program) -> Result<Option<bool>, String>,
) -> Result<BuildFigures, String> {
    let mut movable: Vec<Block> = reference.lines.iter().map(|line| line.block).collect();
    for line in locked {
        if let Some(index) = movable.iter().position(|block| *block == line.block) {
            movable.remove(index);
        }
    }
    let bound = file.arrangements as usize;
    let found = arrangements(locked, &movable, offered, bound + 1);
    if !found.complete || found.programs.len() > bound {
        return Err(format!(
            "the reference's blocks have more than {bound} arrangements (arrangements = {bound}): lock more lines of the start, or raise the bound"
        ));
    }
    let mut hold = 0;
    for program in &found.programs {
        match holds(program)? {
            Some(true) => hold += 1,
            Some(false) => {}
            None => {
                return Err(format!(
                    "the explorer's transition limit cut the search of an arrangement:\n{}",
                    program.text()
                ))
            }
        }
    }
    Ok(BuildFigures {
        arrangements: found.programs.len() as u64,
        hold,
    })
}

/// The bank in an order drawn from `seed`: the file's order is the author's, often the answer's.
fn shuffled(blocks: &[Block], seed: u64) -> Vec<Block> {
    let mut shuffled = blocks.to_vec();
    let mut rng = Rng::new(seed);
    for index in (1..shuffled.len()).rev() {
        let other = rng.below(index as u32 + 1) as usize;
        shuffled.swap(index, other);
    }
    shuffled
}
