//! An honest fault model: every (fault, action) pair a workflow declares changes what happens
//! when it strikes, and every pair it does not declare is refused. A fault that validated and
//! then did nothing would teach the learner that their design survived it.

use lab_engine::{
    Action, Block, Engine, FaultKind, FaultRule, Name, Operation, Payload, Program, Run, Scalar,
    Scenario, ScenarioError, Shape, Trace, WorkerPlan, WorkflowKind,
};

/// The worker whose occurrences the rules count. In `reserve` it runs after another worker has
/// already committed its key at the provider, so that a forgotten key or a stale lookup matters.
const STRUCK: &str = "second";

fn run(op: &str, key: Option<&str>) -> Run {
    Run {
        key: key.map(str::to_string),
        ..Run::of(op)
    }
}

/// A scenario of `workflow` whose fault-free run takes `action` at least once in the worker
/// `STRUCK`, with a design chosen so the action is reached.
fn scenario(workflow: WorkflowKind, action: Action) -> Scenario {
    let payload = Payload::from([("quantity".to_string(), Scalar::Int(1))]);
    let operation = |id: &str| Operation {
        id: id.to_string(),
        payload: payload.clone(),
        missing_id: false,
    };
    let mut scenario = Scenario {
        seed: 7,
        workflow,
        switches: Default::default(),
        provider: Default::default(),
        operations: vec![operation("OP-1")],
        workers: vec![WorkerPlan {
            name: STRUCK.to_string(),
            runs: vec![run("OP-1", None)],
        }],
        faults: Vec::new(),
        schedule: Default::default(),
        step_cap: 200,
        program: None,
    };
    let design = &mut scenario.switches;
    match workflow {
        WorkflowKind::Reserve | WorkflowKind::Webhook => {
            // Another operation has already committed the same key with the same payload.
            scenario.operations.push(operation("OP-2"));
            scenario.workers.insert(
                0,
                WorkerPlan {
                    name: "first".to_string(),
                    runs: vec![run("OP-1", None)],
                },
            );
            scenario.workers[1].runs = vec![run("OP-2", Some("OP-1"))];
            // Reconciling finds that record, so the submit is reached only without a lookup.
            design.reconcile = action != Action::ProviderSubmit;
        }
        WorkflowKind::WriteResult => design.check_first = true,
        // The claim is a write; the plain check is a select.
        WorkflowKind::Charge => design.unique = action != Action::TableSelect,
        WorkflowKind::Notify | WorkflowKind::Pipeline => {}
        // The tracking table is read first; the progress counter exists only without it.
        WorkflowKind::Ingest => design.same_transaction = action != Action::ProgressSave,
    }
    scenario
}

fn strike(fault: FaultKind, at: Action) -> FaultRule {
    FaultRule {
        fault,
        at,
        nth: Some(1),
        worker: Some(STRUCK.to_string()),
        chance_permille: None,
    }
}

/// What a run did, without the markers that say where a fault struck: a fault that only marked
/// its event and changed nothing else leaves this equal to the fault-free run's.
fn what_happened(trace: &Trace) -> serde_json::Value {
    let mut events = trace.events.clone();
    for event in &mut events {
        event.fault = None;
    }
    serde_json::json!({
        "events": events,
        "verdicts": trace.verdicts,
        "stop": trace.stop,
    })
}

#[test]
fn every_workflow_declares_where_faults_strike() {
    for workflow in WorkflowKind::ALL {
        let table = workflow.fault_table();
        assert!(!table.is_empty(), "{workflow:?} declares nothing");
        for &(action, faults) in &table {
            let expected_in_order = faults.windows(2).all(|pair| pair[0] < pair[1]);
            assert!(
                expected_in_order,
                "{workflow:?} at {action:?}: {faults:?} is not in FaultKind::ALL order"
            );
            assert_eq!(workflow.faults_at(action), faults);
            // The engine replaces any step with a crash or a cancel, but never a receive or a
            // back-off; receive is where a message is redelivered or changed.
            let instead_of_step = !matches!(action, Action::Receive | Action::Sleep);
            for fault in [FaultKind::Crash, FaultKind::Cancel] {
                assert_eq!(
                    faults.contains(&fault),
                    instead_of_step,
                    "{workflow:?}: {fault:?} at {action:?}"
                );
            }
            if action == Action::Receive {
                assert_eq!(faults, [FaultKind::DeliverTwice, FaultKind::ChangePayload]);
            }
        }
        let actions: Vec<Action> = table.iter().map(|&(action, _)| action).collect();
        let mut unique = actions.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            actions.len(),
            "{workflow:?} lists an action twice"
        );
        assert!(actions.contains(&Action::Receive) && actions.contains(&Action::Return));
    }
}

#[test]
fn every_declared_fault_changes_the_run_where_it_strikes() {
    let mut checked = 0;
    for workflow in WorkflowKind::ALL {
        for (action, faults) in workflow.fault_table() {
            if faults.is_empty() {
                continue;
            }
            let fault_free = scenario(workflow, action);
            let clean = Engine::run(fault_free.clone()).expect("the fault-free scenario runs");
            let reached = clean
                .events
                .iter()
                .any(|event| event.action == action && event.actor == STRUCK);
            assert!(
                reached,
                "{workflow:?}: the scenario never reaches {action:?}"
            );
            for &fault in faults {
                let mut faulty = fault_free.clone();
                faulty.faults = vec![strike(fault, action)];
                let name = format!("{} at {} in {:?}", fault.name(), action.name(), workflow);
                let trace = Engine::run(faulty).unwrap_or_else(|error| panic!("{name}: {error}"));
                assert!(
                    trace.events.iter().any(|event| event.fault == Some(fault)),
                    "{name}: the trace shows no {fault:?}, so the step did not use it"
                );
                assert!(
                    what_happened(&trace) != what_happened(&clean),
                    "{name}: the run is the same as without the fault"
                );
                checked += 1;
            }
        }
    }
    // Catches a table that lost its entries along with their checks.
    assert!(checked >= 60, "only {checked} pairs checked");
}

#[test]
fn a_pair_a_workflow_does_not_declare_is_refused_with_where_it_can_strike() {
    for workflow in WorkflowKind::ALL {
        let undeclared = FaultKind::ALL.into_iter().find_map(|fault| {
            Action::ALL
                .into_iter()
                .find(|&action| !workflow.faults_at(action).contains(&fault))
                .map(|action| (fault, action))
        });
        let (fault, at) = undeclared.expect("no workflow allows everything everywhere");
        let mut refused = scenario(workflow, at);
        refused.faults = vec![strike(fault, at)];
        let error = refused
            .validate()
            .expect_err("an undeclared pair is refused");
        assert!(
            matches!(&error, ScenarioError::FaultDoesNotApply { workflow: named, .. }
                if named == workflow.name()),
            "{workflow:?}: {error:?}"
        );
        assert_eq!(Engine::run(refused).err(), Some(error));
    }

    let mut charge = scenario(WorkflowKind::Charge, Action::TableWrite);
    charge.faults = vec![strike(FaultKind::LoseReply, Action::TableWrite)];
    assert_eq!(
        charge.validate().unwrap_err().to_string(),
        "fault lose_reply cannot strike at table.write in the charge workflow; \
         there it can strike at: sink.send"
    );
    let mut ingest = scenario(WorkflowKind::Ingest, Action::TableWrite);
    ingest.faults = vec![strike(FaultKind::StaleLookup, Action::TableWrite)];
    assert_eq!(
        ingest.validate().unwrap_err().to_string(),
        "fault stale_lookup cannot strike at table.write in the ingest workflow; \
         it can strike nowhere in this workflow"
    );
}

/// The smallest program that reaches `block` of `workflow`: the lines that set the names it
/// reads, the block (with a one-line body if it takes one), then a return. In `reserve` a submit
/// comes first, so a lookup finds a record and a reused key is one the provider has seen.
fn reaching(workflow: WorkflowKind, block: Block) -> Program {
    let offered = workflow.offered();
    let end = *offered
        .iter()
        .find(|block| {
            let spec = block.spec();
            spec.shape == Shape::Return && spec.result.is_some() && spec.uses.is_empty()
        })
        .expect("every workflow offers a return");
    let mut lines: Vec<(Block, u8)> = Vec::new();
    if matches!(workflow, WorkflowKind::Reserve | WorkflowKind::Webhook) && block != Block::Submit {
        lines.push((Block::Submit, 0));
    }
    fn set(name: Name, offered: &[Block], lines: &mut Vec<(Block, u8)>) {
        // The line above the program sets the key of a program without a key line.
        if name == Name::Key {
            return;
        }
        let setter = *offered
            .iter()
            .find(|block| block.spec().sets.contains(&name))
            .expect("a workflow offers a setter for every name it reads");
        for &used in setter.spec().uses {
            set(used, offered, lines);
        }
        if !lines.iter().any(|(block, _)| *block == setter) {
            lines.push((setter, 0));
        }
    }
    for &name in block.spec().uses {
        set(name, offered, &mut lines);
    }
    lines.push((block, 0));
    if block.spec().shape.opens_body() {
        lines.push((end, 1));
    }
    lines.push((end, 0));
    Program::of(&lines)
}

/// Faults belong to blocks: at every block of every workflow that takes an action, each fault
/// the block declares changes the run where that block runs.
#[test]
fn every_blocks_declared_faults_change_the_run_where_it_runs() {
    let mut checked = 0;
    for workflow in WorkflowKind::ALL {
        for &block in workflow.offered() {
            let spec = block.spec();
            let Some(action) = spec.action.filter(|_| !spec.faults.is_empty()) else {
                continue;
            };
            let mut fault_free = scenario(workflow, action);
            fault_free.program = Some(reaching(workflow, block));
            let name = |fault: FaultKind| format!("{} at {block:?} in {workflow:?}", fault.name());
            let clean = Engine::run(fault_free.clone())
                .unwrap_or_else(|error| panic!("{block:?} in {workflow:?}: {error}"));
            let first = clean
                .events
                .iter()
                .find(|event| event.action == action && event.actor == STRUCK)
                .unwrap_or_else(|| panic!("{block:?} in {workflow:?}: never reached"));
            let text = &clean.code[first.line.expect("a block's event has a line") as usize];
            assert!(
                text.trim()
                    == lab_engine::block_text(block, &fault_free)
                        .lines()
                        .last()
                        .unwrap(),
                "{block:?} in {workflow:?}: the first {action:?} is another line: {text}"
            );
            for &fault in spec.faults {
                let mut faulty = fault_free.clone();
                faulty.faults = vec![strike(fault, action)];
                let trace =
                    Engine::run(faulty).unwrap_or_else(|error| panic!("{}: {error}", name(fault)));
                assert!(
                    what_happened(&trace) != what_happened(&clean),
                    "{}: the run is the same as without the fault",
                    name(fault)
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 150,
        "only {checked} (block, fault) pairs checked"
    );
}
