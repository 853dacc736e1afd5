//! Any program of a workflow's blocks runs: random arrangements of every workflow's blocks, kept
//! when their structure checks, never panic, never run past their step cap, and the explorer's
//! verdict on them is the brute force's (the same schedules, the same shortest counterexample)
//! on small scenarios.

mod brute;

use lab_engine::{
    Block, Engine, Operation, Payload, Program, Run, Scalar, Scenario, Schedule, Shape, Stop,
    WorkerPlan, WorkflowKind,
};
use proptest::prelude::*;

/// A program drawn as (block, indentation) choices: each line's block from the workflow's offer
/// and its indentation as deep as the line before allows (a header's body is one deeper).
fn program(workflow: WorkflowKind) -> impl Strategy<Value = Program> {
    let offered = workflow.offered().to_vec();
    prop::collection::vec((0..offered.len(), 0u8..4), 1..=9).prop_map(move |choices| {
        let mut lines: Vec<(Block, u8)> = Vec::new();
        let last = choices.len() - 1;
        for (position, (index, outdent)) in choices.into_iter().enumerate() {
            let block = offered[index];
            let depth = match lines.last() {
                None => 0,
                Some((before, depth)) if before.spec().shape.opens_body() => depth + 1,
                Some((_, depth)) => depth.saturating_sub(outdent),
            };
            // A return at the top ends the program: only the last line may be one.
            if depth == 0 && block.spec().shape == Shape::Return && position != last {
                continue;
            }
            lines.push((block, depth));
        }
        // A header still open at the end takes a return as its body.
        if let Some(&(last, depth)) = lines.last() {
            if last.spec().shape.opens_body() {
                let end = offered
                    .iter()
                    .copied()
                    .find(|block| {
                        block.spec().shape == Shape::Return && block.spec().uses.is_empty()
                    })
                    .expect("every workflow offers a return");
                lines.push((end, depth + 1));
            }
        }
        Program::of(&lines)
    })
}

fn operation(id: &str) -> Operation {
    Operation {
        id: id.into(),
        payload: Payload::from([("amount".to_string(), Scalar::Int(20))]),
        missing_id: false,
    }
}

fn plan(name: &str, runs: usize) -> WorkerPlan {
    WorkerPlan {
        name: name.into(),
        runs: (0..runs).map(|_| Run::of("op-1")).collect(),
    }
}

/// One operation, one or two workers of one or two runs each, the workflow's default settings
/// but for a table without UNIQUE (so a duplicate can show).
fn scenario(workflow: WorkflowKind, program: Program, workers: usize, runs: usize) -> Scenario {
    let mut scenario = Scenario {
        seed: 3,
        workflow,
        switches: Default::default(),
        provider: Default::default(),
        operations: vec![operation("op-1")],
        workers: (0..workers)
            .map(|index| plan(["worker-a", "worker-b"][index], runs))
            .collect(),
        faults: Vec::new(),
        schedule: Schedule::RoundRobin,
        step_cap: 120,
        program: Some(program),
    };
    scenario.switches.unique = false;
    scenario
}

fn workflows() -> impl Strategy<Value = WorkflowKind> {
    prop::sample::select(WorkflowKind::ALL.to_vec())
}

/// A workflow and one of its programs whose structure checks.
fn checked_program() -> impl Strategy<Value = (WorkflowKind, Program)> {
    workflows()
        .prop_flat_map(|workflow| (Just(workflow), program(workflow)))
        .prop_filter("the structure checks", |(workflow, program)| {
            program.structure(workflow.offered()).is_ok()
        })
}

/// The same without sleeps: the brute force reads the ready workers from the trace and assumes
/// no worker waits.
fn checked_program_without_sleep() -> impl Strategy<Value = (WorkflowKind, Program)> {
    checked_program().prop_filter("no sleep", |(_, program)| !program.has(Block::Sleep))
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_global_rejects: 1_000_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn a_random_program_runs_within_its_step_cap(
        (workflow, program) in checked_program(),
        workers in 1usize..=2,
        runs in 1usize..=3,
    ) {
        let scenario = scenario(workflow, program.clone(), workers, runs);
        let trace = Engine::run(scenario.clone())
            .map_err(|error| TestCaseError::fail(format!("{error}\n{}", program.text())))?;
        prop_assert!(trace.len() <= scenario.step_cap);
        prop_assert!(trace.stop != Stop::StepCap, "cut by the step cap:\n{}", program.text());
        // Every run ends: each worker has a result for each of its runs.
        let results = trace.results();
        for (_, results) in &results {
            prop_assert_eq!(results.len(), runs, "{}", program.text());
        }
    }
}

proptest! {
    #![proptest_config(config(120))]

    #[test]
    fn the_explorer_agrees_with_the_brute_force_on_random_programs(
        (workflow, program) in checked_program_without_sleep(),
        workers in 1usize..=2,
    ) {
        let scenario = scenario(workflow, program, workers, 1);
        for (faults_max, preemptions_max) in [(1, 0), (1, 1)] {
            brute::compare(scenario.clone(), faults_max, preemptions_max);
        }
    }
}
