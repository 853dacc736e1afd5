//! Tasks: what a step asks the learner to do with their own hands. Each kind is compiled from its
//! file form and held to what it promises by running the engine: a switch flipped or a fault
//! injected gives the outcome the lesson says, a "run until" names an event of the design's own
//! run, exactly the right option of a choice gives the promised outcome, and a wrong line is a
//! line of the design's code panel.

use lab_engine::{Contention, Engine, Invariant, Scenario, Trace};

use super::cursor::point_event;
use super::files::{
    ChooseFile, FindLineFile, HuntFile, InjectFile, StepFile, TaskOptionFile, TryFile,
};
use crate::markdown::{inline_markdown, plain_text};
use crate::model::{Design, DesignChange, Hunt, QuestionKind, Task, TaskOption, TryExpect};
use crate::names::{by_name, name_of};

/// Where a step's task is checked: its design, that design's run, the step's cursor in it, and
/// the place of the next step that resolves.
pub(crate) struct Here<'a> {
    pub(crate) design: &'a Design,
    /// The design's index in the lesson.
    pub(crate) index: u32,
    pub(crate) trace: &'a Trace,
    pub(crate) cursor: u32,
    pub(crate) next: Option<(u32, u32)>,
    /// The costlier checks run (`lab check`): a build task's arrangements are explored.
    pub(crate) explore: bool,
    /// Drawn from the lesson and the step: what a task shuffles, it shuffles the same way each
    /// time the course is built.
    pub(crate) seed: u64,
}

/// The step's task, compiled and checked against the engine (a build task has its own module,
/// `build`, above this one).
pub(crate) fn compile_task(file: &TryFile, step: &StepFile, here: &Here) -> Result<Task, String> {
    match file {
        TryFile::Flip(flip) => {
            let scenario: &Scenario = &here.design.scenario;
            let switches = scenario.workflow.switches();
            if !switches.contains(&flip.switch) {
                let known: Vec<String> = switches.iter().map(name_of).collect();
                return Err(format!(
                    "this workflow has no such switch; it has {}",
                    known.join(", ")
                ));
            }
            if flip.switch.get(scenario) == flip.on {
                return Err(format!(
                    "the switch is already {} in this design: flipping it changes nothing",
                    if flip.on { "on" } else { "off" }
                ));
            }
            let trace = changed_run(&flip.switch.set(scenario, flip.on), here, "flipped")?;
            promised(flip.expect, None, &trace)?;
            if let Some(goal) = &flip.goal {
                check_goal(goal, flip.expect, here.trace)?;
            }
            Ok(Task::Flip {
                switch: flip.switch,
                on: flip.on,
                expect: flip.expect,
                goal: flip.goal.as_ref().map(|goal| goal.trim().to_string()),
            })
        }
        TryFile::Inject(inject) => compile_inject(inject, step, here),
        TryFile::Until(until) => {
            let event = point_event(&until.until, here.trace)?;
            if event <= here.cursor {
                return Err(format!(
                    "until names event {event}, but the step already shows the run up to event {}: name an event after it",
                    here.cursor
                ));
            }
            if let Some((design, cursor)) = here.next {
                if design == here.index && event > cursor {
                    return Err(format!(
                        "until names event {event}, past the next step (after event {cursor}): the learner would leave this step before reaching it; name an earlier event or move the next step"
                    ));
                }
            }
            Ok(Task::Until {
                event,
                what: describe(here.trace, event),
            })
        }
        TryFile::Choose(choose) => compile_choose(choose, here),
        TryFile::FindLine(find) => compile_find_line(find, here),
        TryFile::Hunt(hunt) => compile_hunt(hunt, here),
        TryFile::Build(_) => Err("a build task is compiled by build::compile_build".into()),
    }
}

fn compile_inject(inject: &InjectFile, step: &StepFile, here: &Here) -> Result<Task, String> {
    let scenario: &Scenario = &here.design.scenario;
    if !step
        .questions
        .iter()
        .any(|question| question.kind == QuestionKind::Predict)
    {
        return Err("an inject task asks the learner to predict first: give the step a question with kind = \"predict\"".into());
    }
    if scenario.faults.contains(&inject.inject) {
        return Err("the design already has this fault: injecting it changes nothing".into());
    }
    let mut changed = scenario.clone();
    changed.faults.push(inject.inject.clone());
    changed
        .validate()
        .map_err(|error| format!("the fault cannot be injected here: {error}"))?;
    let trace = changed_run(&changed, here, "injected")?;
    let strikes = |trace: &Trace| {
        trace
            .events
            .iter()
            .filter(|event| event.fault == Some(inject.inject.fault))
            .count()
    };
    if strikes(&trace) <= strikes(here.trace) {
        return Err(format!(
            "the {} fault never strikes in the changed run: no occurrence of {} matches it",
            inject.inject.fault.name(),
            inject.inject.at.name()
        ));
    }
    let breaks = inject.breaks.as_deref().map(invariant).transpose()?;
    promised(inject.expect, breaks, &trace)?;
    Ok(Task::Inject {
        fault: inject.inject.clone(),
        expect: inject.expect,
        breaks: inject.breaks.clone(),
    })
}

fn compile_choose(choose: &ChooseFile, here: &Here) -> Result<Task, String> {
    if choose.options.len() < 2 {
        return Err("a choice needs at least two options".into());
    }
    let correct = choose
        .options
        .iter()
        .filter(|option| option.correct)
        .count();
    if correct != 1 {
        return Err(format!(
            "exactly one option is correct = true in a task (this one has {correct}): the checker holds the lesson to that option alone"
        ));
    }
    let mut options = Vec::new();
    for option in &choose.options {
        if option.explain.trim().is_empty() {
            return Err(format!(
                "option \"{}\" has no explain: every option says why it is right or wrong",
                option.label
            ));
        }
        options.push(TaskOption {
            label: plain_text(&option.label),
            change: change_of(option)?,
            correct: option.correct,
            explain_html: inline_markdown(&option.explain),
        });
    }
    let policies = options
        .iter()
        .filter(|option| matches!(option.change, DesignChange::Policy { .. }))
        .count();
    match (policies, &choose.contention) {
        (0, Some(_)) => {
            return Err("contention is read only when the options are retry policies".into())
        }
        (0, None) => check_designs(&options, choose.expect.unwrap_or(TryExpect::Holds), here)?,
        (count, Some(contention)) if count == options.len() => {
            if choose.expect.is_some() {
                return Err("expect is read only when the options change the design; the right policy is the one with the fewest calls".into());
            }
            contention
                .check()
                .map_err(|error| format!("contention: {error}"))?;
            check_policies(&options, contention)?;
        }
        (count, None) if count == options.len() => {
            return Err("options that are retry policies need contention = { model = M, clients = N, seed = S }: the experiment they run in (model \"overlap\", the study's, or \"capacity\" with capacity_per_tick = C)".into())
        }
        _ => return Err("either every option is a retry policy or none is".into()),
    }
    Ok(Task::Choose {
        prompt: plain_text(&choose.choose),
        prompt_html: inline_markdown(&choose.choose),
        options,
        contention: choose.contention.clone(),
    })
}

fn change_of(option: &TaskOptionFile) -> Result<DesignChange, String> {
    let name = &option.label;
    let (switch, on, key, write, policy) = (
        option.switch,
        option.on,
        option.key,
        option.write,
        option.policy,
    );
    match (switch, on, key, write, policy) {
        (Some(switch), Some(on), None, None, None) => Ok(DesignChange::Switch { switch, on }),
        (None, None, Some(key), None, None) => Ok(DesignChange::Key { key }),
        (None, None, None, Some(write), None) => Ok(DesignChange::Write { write }),
        (None, None, None, None, Some(policy)) => Ok(DesignChange::Policy { policy }),
        (Some(_), None, None, None, None) => Err(format!(
            "option \"{name}\" names a switch but not on = true or false"
        )),
        _ => Err(format!(
            "option \"{name}\" changes one thing: a switch (switch and on), a key, a write or a policy"
        )),
    }
}

/// Each option's design is run: the right one gives the promised outcome, every other does not,
/// and each still reaches the step's event (choosing keeps the lab there).
fn check_designs(options: &[TaskOption], expect: TryExpect, here: &Here) -> Result<(), String> {
    let scenario: &Scenario = &here.design.scenario;
    for option in options {
        if let DesignChange::Switch { switch, .. } = option.change {
            if !scenario.workflow.switches().contains(&switch) {
                return Err(format!(
                    "option \"{}\": this workflow has no switch {}",
                    option.label,
                    serde_json::to_string(&switch).unwrap_or_default()
                ));
            }
        }
        let changed = option
            .change
            .apply(scenario)
            .unwrap_or_else(|| scenario.clone());
        let trace = changed_run(&changed, here, "chosen")
            .map_err(|message| format!("option \"{}\": {message}", option.label))?;
        let kept = promised(expect, None, &trace).is_ok();
        match (option.correct, kept) {
            (true, false) => {
                return Err(format!(
                    "option \"{}\" is the correct one, but its run does not show what the task promises ({})",
                    option.label,
                    promise(expect)
                ))
            }
            (false, true) => {
                return Err(format!(
                    "option \"{}\" is marked wrong, but its run also shows what the task promises ({}): only the correct option may",
                    option.label,
                    promise(expect)
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every policy runs in the task's experiment; the one marked correct does the fewest calls,
/// strictly.
fn check_policies(options: &[TaskOption], contention: &Contention) -> Result<(), String> {
    let mut runs = Vec::new();
    for option in options {
        let DesignChange::Policy { policy } = option.change else {
            continue;
        };
        runs.push((option, contention.run(policy)));
    }
    let Some((right, best)) = runs.iter().find(|(option, _)| option.correct) else {
        return Ok(());
    };
    for (option, run) in &runs {
        if !option.correct && run.calls <= best.calls {
            return Err(format!(
                "option \"{}\" is marked correct with {} calls, but \"{}\" makes {} at {} clients, {} model, seed {}: the correct policy must do the least work",
                right.label,
                best.calls,
                option.label,
                run.calls,
                contention.clients,
                contention.model.name(),
                contention.seed
            ));
        }
    }
    Ok(())
}

/// A hunt starts from a design that holds, offers every fault point of its own run with the
/// faults of the hunt's kinds that strike there, and is fair: at least one placement breaks (the
/// named invariant, when it names one). Every placement is run, and counted.
fn compile_hunt(file: &HuntFile, here: &Here) -> Result<Task, String> {
    let scenario: &Scenario = &here.design.scenario;
    if here.trace.first_broken().is_some() {
        return Err("a hunt starts from a design that holds, but this design's own run already breaks an invariant".into());
    }
    if file.explain.trim().is_empty() {
        return Err("a hunt needs an explain: why the fault it finds breaks the design".into());
    }
    let allowed: Vec<lab_engine::FaultKind> = scenario
        .workflow
        .fault_table()
        .iter()
        .flat_map(|(_, faults)| faults.iter().copied())
        .collect();
    if let Some(stranger) = file.kinds.iter().find(|kind| !allowed.contains(kind)) {
        return Err(format!(
            "kinds: {} cannot strike anywhere in this workflow",
            stranger.name()
        ));
    }
    let offered = |kind: &lab_engine::FaultKind| file.kinds.is_empty() || file.kinds.contains(kind);
    // A fault the design already has at that point is no placement: striking it changes nothing.
    let new_at = |point: &lab_engine::FaultPoint, kind: lab_engine::FaultKind| {
        !scenario.faults.contains(&Hunt::rule(point, kind))
    };
    let points: Vec<lab_engine::FaultPoint> = here
        .trace
        .fault_points
        .iter()
        .map(|point| lab_engine::FaultPoint {
            at: point.at,
            nth: point.nth,
            faults: point
                .faults
                .iter()
                .copied()
                .filter(|kind| offered(kind) && new_at(point, *kind))
                .collect::<Vec<_>>()
                .into(),
        })
        .filter(|point| !point.faults.is_empty())
        .collect();
    let breaks = file.breaks.as_deref().map(invariant).transpose()?;
    let mut hunt = Hunt {
        prompt: plain_text(&file.hunt),
        prompt_html: inline_markdown(&file.hunt),
        points,
        breaks,
        explain_html: inline_markdown(&file.explain),
        placements: 0,
        breaking: 0,
    };
    for point in &hunt.points {
        for &fault in point.faults.iter() {
            let mut changed = scenario.clone();
            changed.faults.push(Hunt::rule(point, fault));
            let placed = format!(
                "{} at {} (occurrence {})",
                fault.name(),
                point.at.name(),
                point.nth
            );
            let trace = changed_run(&changed, here, &format!("struck with {placed}"))
                .map_err(|problem| format!("{placed}: {problem}"))?;
            hunt.placements += 1;
            hunt.breaking += u32::from(hunt.found_at(&trace).is_some());
        }
    }
    if hunt.breaking == 0 {
        return Err(format!(
            "none of the {} placements of one fault breaks {}: there is nothing to find",
            hunt.placements,
            breaks.map_or("an invariant".to_string(), |invariant| format!(
                "\"{}\"",
                invariant.statement()
            ))
        ));
    }
    Ok(Task::Hunt(Box::new(hunt)))
}

fn compile_find_line(find: &FindLineFile, here: &Here) -> Result<Task, String> {
    if find.explain.trim().is_empty() {
        return Err("find_line needs an explain: why the line is wrong".into());
    }
    let wanted = find.find_line.trim();
    let lines: Vec<&String> = here
        .trace
        .code
        .iter()
        .filter(|line| line.contains(wanted))
        .collect();
    let line = match lines.as_slice() {
        [line] => line.trim().to_string(),
        [] => {
            return Err(format!(
                "no line of this design's code panel contains \"{wanted}\"; its lines are: {}",
                here.trace
                    .code
                    .iter()
                    .map(|line| line.trim())
                    .filter(|line| !line.is_empty())
                    .collect::<Vec<_>>()
                    .join(" | ")
            ))
        }
        several => {
            return Err(format!(
                "{} lines of this design's code panel contain \"{wanted}\"; quote more of the one that is wrong",
                several.len()
            ))
        }
    };
    Ok(Task::FindLine {
        line,
        explain_html: inline_markdown(&find.explain),
    })
}

/// The changed design's run, which must still reach the step's event: the lab stays there.
fn changed_run(changed: &Scenario, here: &Here, how: &str) -> Result<Trace, String> {
    let trace = Engine::run(changed.clone())
        .map_err(|error| format!("the changed scenario does not run: {error}"))?;
    let events = trace.events.len();
    if events < here.cursor as usize {
        return Err(format!(
            "the changed run has {events} events, and this step is after event {}: the lab cannot stay at the step's event, and the task would vanish when {how}; put the task on an earlier step",
            here.cursor
        ));
    }
    Ok(trace)
}

/// The run shows what the task promises: every invariant holding, or one breaking (this one,
/// when named).
/// The most characters a goal may take: one sentence on the task card.
const GOAL_CHARS_MAX: usize = 160;

/// A goal is something to make hold, in one sentence, on a design that does not hold yet.
fn check_goal(goal: &str, expect: TryExpect, own: &Trace) -> Result<(), String> {
    let goal = goal.trim();
    if goal.is_empty() {
        return Err("goal is empty: say in one sentence what the learner must make hold".into());
    }
    if goal.chars().count() > GOAL_CHARS_MAX {
        return Err(format!(
            "goal has {} characters; keep it to one sentence of at most {GOAL_CHARS_MAX}",
            goal.chars().count()
        ));
    }
    if expect != TryExpect::Holds {
        return Err(
            "a goal is reached when every invariant holds: expect must be \"holds\"".into(),
        );
    }
    if own.first_broken().is_none() {
        return Err("the design already holds every invariant, so its goal is reached before the learner acts: give the goal on a design that breaks".into());
    }
    Ok(())
}

fn promised(expect: TryExpect, breaks: Option<Invariant>, trace: &Trace) -> Result<(), String> {
    let broken = trace.first_broken().is_some();
    match (expect, broken) {
        (TryExpect::Holds, true) => {
            return Err("expect = \"holds\", but the changed run breaks an invariant".into())
        }
        (TryExpect::Breaks, false) => {
            return Err("expect = \"breaks\", but every invariant holds in the changed run".into())
        }
        _ => {}
    }
    if let Some(invariant) = breaks {
        if expect == TryExpect::Holds {
            return Err("breaks names an invariant, so expect must be \"breaks\"".into());
        }
        let breaks_it = trace
            .verdicts
            .iter()
            .any(|verdict| verdict.invariant == invariant && verdict.broken_at.is_some());
        if !breaks_it {
            return Err(format!(
                "breaks = \"{}\", but that invariant holds in the changed run",
                invariant.id()
            ));
        }
    }
    Ok(())
}

fn promise(expect: TryExpect) -> &'static str {
    match expect {
        TryExpect::Holds => "every invariant holds",
        TryExpect::Breaks => "an invariant breaks",
    }
}

fn invariant(id: &str) -> Result<Invariant, String> {
    by_name("invariant", id)
}

/// What happens at an event, in the words the lab shows: its outcome, and any invariant that
/// first breaks there.
fn describe(trace: &Trace, event: u32) -> String {
    let Some(found) = trace.events.get(event as usize - 1) else {
        return format!("event {event}");
    };
    let mut what = found.outcome_text();
    for invariant in &found.broke {
        what.push_str(&format!("; breaks: {}", invariant.statement()));
    }
    what
}
