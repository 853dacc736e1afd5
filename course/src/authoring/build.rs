//! Build tasks: a Parsons board whose arrangement the explorer judges. Compiled from the file
//! form and held to what it promises: the blocks are the workflow's, the reference holds within
//! the budget, the starting program does not, every listed wrong arrangement breaks (with its
//! shortest counterexample), and, up to a stated bound, every arrangement of the reference's
//! blocks is explored and counted: a task that most arrangements solve teaches nothing. An
//! arrangement holds when its own run does the job (`expect`) and no schedule within the budget
//! breaks the goal.

use lab_engine::{Invariant, Program};

use super::files::BuildFile;
use super::task::Here;
use crate::build_task::{self, BuildTask};
use crate::markdown::{inline_markdown, plain_text};
use crate::model::{Build, Placed, Task, Wrong};
use crate::names::by_name;

/// The build task, compiled; with `here.explore`, every promise is held to the explorer
/// ([`BuildTask::judge`]), and every listed wrong arrangement must break.
pub(crate) fn compile_build(file: &BuildFile, here: &Here) -> Result<(Task, Vec<String>), String> {
    let scenario = &here.design.scenario;
    let offered = scenario.offered();
    let start = start_lines(&file.start)?;
    let reference =
        Program::parse(&file.reference).map_err(|error| format!("reference, {error}"))?;
    let goal = goal(&file.goal)?;
    let explore = file
        .explore
        .clone()
        .unwrap_or_else(|| here.design.explore.clone());
    let task = BuildTask {
        scenario,
        blocks: &file.blocks,
        start: &start,
        reference: &reference,
        goal: &goal,
        explore: &explore,
        expect: &file.expect,
    };
    let within = super::check::explore_text(&explore);
    let too_many = format!(
        " (arrangements = {}): lock more lines of the start, or raise the bound",
        file.arrangements
    );
    let words = build_task::Wording {
        reference: "the reference",
        within: &within,
        too_many: &too_many,
    };
    task.shape(&words)?;
    let pool = task.pool();
    let mut wrong = Vec::new();
    for (number, entry) in file.wrong.iter().enumerate() {
        let name = format!("wrong {} (\"{}\")", number + 1, entry.misconception);
        let program = Program::parse(&entry.program).map_err(|error| format!("{name}, {error}"))?;
        program
            .structure(&offered)
            .map_err(|error| format!("{name}, {error}"))?;
        if let Some(missing) = build_task::missing_from(&program, &pool) {
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
        let judged = task.judge(file.arrangements, &words, |_, _| {})?;
        for (entry, compiled) in file.wrong.iter().zip(&mut wrong) {
            let scenario = task.with(&compiled.program);
            if build_task::holds(&scenario, &explore, &goal)? != Some(false) {
                return Err(format!(
                    "wrong arrangement \"{}\" holds within the budget: it is not wrong",
                    entry.misconception
                ));
            }
            compiled.counterexample = Some(build_task::describe(&scenario, &explore)?);
        }
        warnings.extend(judged.warning);
        figures = Some(judged.figures);
    }
    let build = Build {
        prompt: plain_text(&file.build),
        prompt_html: inline_markdown(&file.build),
        blocks: build_task::shuffled(&file.blocks, here.seed),
        start,
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

/// The start in the program's text form, each line ending in `# locked` marked so.
fn start_lines(text: &str) -> Result<Vec<Placed>, String> {
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
        .map(|(line, locked)| Placed {
            block: line.block,
            depth: line.depth,
            locked,
        })
        .collect())
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
