//! An independent brute force over the explorer's budgets, shared by the tests that hold the
//! explorer to it. It uses only `Engine::run`: it re-runs the scenario from scratch with every
//! combination of `nth` fault rules and explicit worker orders within the budgets, reading the
//! fault points and the ready workers of each run from its trace, and counts distinct complete
//! runs.

use std::collections::BTreeSet;

use lab_engine::{Budget, Engine, Explorer, FaultKind, FaultRule, Scenario, Schedule, WorkerState};

struct Brute {
    scenario: Scenario,
    kinds: Vec<FaultKind>,
    faults_max: u32,
    preemptions_max: u32,
    /// Each complete run: every event as the trace shows it (actor, action, fault, outcome) and
    /// the state after it.
    runs: BTreeSet<String>,
    /// The fewest faults, then the fewest events, to the first broken invariant.
    shortest: Option<(u32, u32)>,
}

impl Brute {
    fn run(&self, rules: &[FaultRule], order: &[u8]) -> lab_engine::Trace {
        let mut scenario = self.scenario.clone();
        scenario.faults.extend_from_slice(rules);
        if scenario.workers.len() > 1 {
            scenario.schedule = Schedule::Explicit {
                order: order.to_vec(),
            };
        }
        Engine::run(scenario).expect("valid")
    }

    fn enumerate(
        &mut self,
        rules: Vec<FaultRule>,
        order: Vec<u8>,
        preemptions: u32,
        last: Option<u8>,
    ) {
        let trace = self.run(&rules, &order);
        let worker_events: Vec<usize> = (0..trace.events.len())
            .filter(|&index| trace.events[index].actor != "provider")
            .collect();
        let decided = order.len();
        if worker_events.len() == decided {
            let signature: Vec<String> = trace
                .events
                .iter()
                .map(|event| {
                    let state =
                        serde_json::to_string(&trace.state_at(event.index)).expect("serializes");
                    format!(
                        "{}|{}|{:?}|{}|{state}",
                        event.actor,
                        event.action.name(),
                        event.fault,
                        event.outcome_text()
                    )
                })
                .collect();
            self.runs.insert(signature.join("\n"));
            let first_break = trace
                .verdicts
                .iter()
                .filter_map(|verdict| verdict.broken_at)
                .min();
            if let Some(event) = first_break {
                let candidate = (rules.len() as u32, event);
                if self.shortest.is_none_or(|best| candidate < best) {
                    self.shortest = Some(candidate);
                }
            }
            return;
        }
        let next = worker_events[decided];
        let before = trace.state_at(next as u32);
        // No sleeps, crashes or late starts in these scenarios: a worker with work is ready.
        let ready: Vec<u8> = before
            .workers
            .iter()
            .enumerate()
            .filter(|(_, view)| matches!(view.state, WorkerState::Idle | WorkerState::Running))
            .map(|(index, _)| index as u8)
            .collect();
        for &worker in &ready {
            let preempts = last.is_some_and(|last| last != worker && ready.contains(&last));
            let preemptions = preemptions + u32::from(preempts);
            if preemptions > self.preemptions_max {
                continue;
            }
            let mut order = order.clone();
            order.push(worker);
            let trace = self.run(&rules, &order);
            // One fault point per worker step in these workflows.
            let point = trace.fault_points[decided].clone();
            self.enumerate(rules.clone(), order.clone(), preemptions, Some(worker));
            if rules.len() as u32 >= self.faults_max {
                continue;
            }
            for &fault in point.faults.iter() {
                if !self.kinds.contains(&fault) {
                    continue;
                }
                let mut rules = rules.clone();
                rules.push(FaultRule {
                    fault,
                    at: point.at,
                    nth: Some(point.nth),
                    worker: None,
                    chance_permille: None,
                });
                self.enumerate(rules, order.clone(), preemptions, Some(worker));
            }
        }
    }
}

/// Faults that neither stop a worker for a while nor change which workers are ready.
const KINDS: [FaultKind; 5] = [
    FaultKind::LoseRequest,
    FaultKind::LoseReply,
    FaultKind::Busy,
    FaultKind::DeliverTwice,
    FaultKind::Cancel,
];

pub fn compare(scenario: Scenario, faults_max: u32, preemptions_max: u32) {
    let mut brute = Brute {
        scenario: scenario.clone(),
        kinds: KINDS.to_vec(),
        faults_max,
        preemptions_max,
        runs: BTreeSet::new(),
        shortest: None,
    };
    brute.enumerate(Vec::new(), Vec::new(), 0, None);
    let budget = Budget {
        faults_max,
        preemptions_max,
        kinds: Some(KINDS.to_vec()),
        ..Budget::default()
    };
    let report = Explorer::run(scenario, budget).expect("valid");
    assert!(report.extent.complete);
    assert_eq!(
        report.extent.schedules,
        brute.runs.len() as u64,
        "K={faults_max} P={preemptions_max}"
    );
    let shortest = report
        .counterexample
        .as_ref()
        .map(|example| (example.faults, example.events));
    assert_eq!(
        shortest, brute.shortest,
        "K={faults_max} P={preemptions_max}"
    );
}
