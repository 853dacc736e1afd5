//! The explorer against the lessons and against an independent brute force.
//!
//! The brute force uses only `Engine::run`: it re-runs the scenario from scratch with every
//! combination of `nth` fault rules and explicit worker orders within the budgets, reading the
//! fault points and the ready workers of each run from its trace, and counts distinct complete
//! runs.

use std::path::PathBuf;

use lab_engine::{
    Budget, Engine, Explorer, Operation, Payload, Property, Run, Scalar, Scenario, Schedule,
    WorkerPlan, WorkflowKind,
};

mod brute;
mod lessons;

use brute::compare;
use lessons::lessons;

// ---- lessons, read without the course crate (tables merge, as the authoring side does) ----

#[test]
fn the_explorer_finds_each_unsafe_lessons_known_bug_and_every_counterexample_replays() {
    let mut unsafe_designs = 0;
    let mut replayed = 0;
    for design in lessons() {
        let report = Explorer::run(design.scenario.clone(), design.budget.clone())
            .unwrap_or_else(|error| panic!("{}: {error}", design.name));
        assert!(
            report.extent.complete,
            "{}: the search was cut",
            design.name
        );
        if design.kind == "unsafe" {
            unsafe_designs += 1;
            assert!(report.counterexample.is_some(), "{}", design.name);
            for invariant in &design.breaks {
                let verdict = report
                    .properties
                    .iter()
                    .find(|verdict| verdict.property == Property::Always(*invariant))
                    .expect("a verdict per invariant");
                assert!(
                    !verdict.holds,
                    "{}: the lesson says {} breaks, the explorer did not find it",
                    design.name,
                    invariant.id()
                );
            }
        } else {
            assert!(
                report.counterexample.is_none(),
                "{}: a safe design breaks within its budget",
                design.name
            );
        }
        for verdict in &report.properties {
            let (Property::Always(invariant), Some(example)) =
                (verdict.property, &verdict.counterexample)
            else {
                continue;
            };
            let trace = Engine::run(example.scenario.clone()).expect("a valid replay");
            let broken_at = trace
                .verdicts
                .iter()
                .find(|replay| replay.invariant == invariant)
                .and_then(|replay| replay.broken_at);
            assert_eq!(
                broken_at,
                Some(example.events),
                "{}: the replay of {} breaks it elsewhere ({})",
                design.name,
                invariant.id(),
                example.description
            );
            let event = &trace.events[example.events as usize - 1];
            assert_eq!(event.broke, example.broke, "{}", design.name);
            let faults = trace.events[..example.events as usize]
                .iter()
                .filter(|event| event.fault.is_some())
                .count() as u32;
            // A rule with `nth` strikes once; one without it may strike at every occurrence.
            let own = design
                .scenario
                .faults
                .iter()
                .map(|rule| {
                    if rule.nth.is_some() {
                        1
                    } else {
                        example.events
                    }
                })
                .sum::<u32>();
            assert!(
                faults <= example.faults + own,
                "{}: {faults} faults shown in the replay",
                design.name
            );
            replayed += 1;
        }
    }
    assert!(unsafe_designs >= 17, "every lesson has an unsafe design");
    assert!(replayed > 20);
}

fn operation(id: &str) -> Operation {
    let mut payload = Payload::new();
    payload.insert("amount".into(), Scalar::Int(20));
    Operation {
        id: id.into(),
        payload,
        missing_id: false,
    }
}

fn plan(name: &str, ops: &[&str]) -> WorkerPlan {
    WorkerPlan {
        name: name.into(),
        runs: ops.iter().map(|op| Run::of(*op)).collect(),
    }
}

fn one_worker() -> Scenario {
    let mut scenario = Scenario {
        seed: 0,
        workflow: WorkflowKind::WriteResult,
        switches: Default::default(),
        provider: Default::default(),
        operations: vec![operation("rec-1")],
        workers: vec![plan("worker", &["rec-1", "rec-1"])],
        faults: Vec::new(),
        schedule: Schedule::Sequential,
        step_cap: 500,
        program: None,
    };
    scenario.switches.unique = false;
    scenario.switches.write = lab_engine::WriteMode::Insert;
    scenario.switches.check_first = true;
    scenario
}

fn two_workers() -> Scenario {
    let mut scenario = Scenario {
        seed: 0,
        workflow: WorkflowKind::Charge,
        switches: Default::default(),
        provider: Default::default(),
        operations: vec![operation("pay-1")],
        workers: vec![plan("worker-a", &["pay-1"]), plan("worker-b", &["pay-1"])],
        faults: Vec::new(),
        schedule: Schedule::RoundRobin,
        step_cap: 500,
        program: None,
    };
    scenario.switches.unique = false;
    scenario
}

#[test]
fn one_worker_schedules_match_the_brute_force() {
    for faults_max in 0..=2 {
        compare(one_worker(), faults_max, 0);
    }
}

#[test]
fn two_worker_schedules_match_the_brute_force() {
    for (faults_max, preemptions_max) in [(0, 0), (0, 2), (1, 1), (2, 1)] {
        compare(two_workers(), faults_max, preemptions_max);
    }
}

#[test]
fn no_faults_and_no_preemptions_give_exactly_one_schedule() {
    let budget = Budget {
        faults_max: 0,
        preemptions_max: 0,
        ..Budget::default()
    };
    let report = Explorer::run(one_worker(), budget).expect("valid");
    assert_eq!(report.extent.schedules, 1);
    assert!(report.extent.complete);
}

#[test]
fn advancing_in_slices_gives_the_same_report() {
    let budget = Budget::default();
    let whole = Explorer::run(two_workers(), budget.clone()).expect("valid");
    let mut explorer = Explorer::new(two_workers(), budget).expect("valid");
    let mut slices = 0;
    while !explorer.advance(50) {
        slices += 1;
        assert!(!explorer.progress().finished);
    }
    assert!(slices > 1);
    assert_eq!(explorer.report(), whole);
}

#[test]
fn the_parts_of_a_search_visit_its_schedules_between_them() {
    for (faults_max, preemptions_max) in [(0, 2), (1, 1), (2, 1)] {
        let budget = Budget {
            faults_max,
            preemptions_max,
            ..Budget::default()
        };
        let whole = Explorer::run(two_workers(), budget.clone()).expect("valid");
        let parts: Vec<_> = (0..2)
            .map(|part| {
                let mut explorer =
                    Explorer::part(two_workers(), budget.clone(), part, 2).expect("valid");
                while !explorer.advance(u32::MAX) {}
                explorer.report()
            })
            .collect();
        // Each part holds some schedules, and together exactly the whole's.
        assert!(parts.iter().all(|part| part.extent.schedules > 0));
        let schedules: u64 = parts.iter().map(|part| part.extent.schedules).sum();
        assert_eq!(
            schedules, whole.extent.schedules,
            "K={faults_max} P={preemptions_max}"
        );
        // A property breaks in the whole search exactly when it breaks in a part.
        for (index, verdict) in whole.properties.iter().enumerate() {
            let broken = parts.iter().any(|part| !part.properties[index].holds);
            assert_eq!(!verdict.holds, broken, "{:?}", verdict.property);
        }
    }
}

#[test]
fn a_search_cut_by_its_transition_limit_says_so() {
    let budget = Budget {
        transitions_max: 100,
        ..Budget::default()
    };
    let report = Explorer::run(two_workers(), budget).expect("valid");
    assert!(!report.extent.complete);
    assert!(report.extent.transitions >= 100);
}

#[test]
fn a_fault_budget_over_the_maximum_is_refused() {
    let budget = Budget {
        faults_max: 4,
        ..Budget::default()
    };
    assert!(Explorer::new(one_worker(), budget).is_err());
    // The explorer offers exactly the faults the workflow declares, action by action.
    for (action, faults) in WorkflowKind::Charge.fault_table() {
        assert_eq!(WorkflowKind::Charge.faults_at(action), faults);
    }
}

// ---- pinned reports: a faster explorer must find exactly what the current one finds ----

/// One line per lesson design: its figures, then every counterexample (property, faults,
/// events, broken invariants, the worker order and the description).
fn report_lines(name: &str, report: &lab_engine::Report) -> Vec<String> {
    let mut lines = vec![format!(
        "{name}: {} schedules, {} states, {} transitions, complete {}",
        report.extent.schedules,
        report.extent.states,
        report.extent.transitions,
        report.extent.complete
    )];
    for verdict in &report.properties {
        let Some(example) = &verdict.counterexample else {
            continue;
        };
        let broke: Vec<&str> = example
            .broke
            .iter()
            .map(|invariant| invariant.id())
            .collect();
        let order = match &example.scenario.schedule {
            Schedule::Explicit { order } => format!("{order:?}"),
            _ => "-".to_string(),
        };
        lines.push(format!(
            "  {}: {} faults, {} events, broke [{}], order {order}: {}",
            verdict.id,
            example.faults,
            example.events,
            broke.join(", "),
            example.description
        ));
    }
    lines
}

/// The bench's figures: lesson 17's safe design under every fault kind the workflow allows (its
/// lesson budget leaves out the expired key and the stale lookup, which break it).
#[test]
fn lesson_17_safe_reports_are_pinned() {
    let safe = lessons()
        .into_iter()
        .find(|design| design.name == "review / safe")
        .expect("lesson 17 has a safe design");
    let counterexamples = [
        "  one_effect: 1 faults, 9 events, broke [one_effect], order [0, 0, 0, 0, 1, 1, 1, 1, 0]: 1 fault: an expired key at provider.submit of worker-a (event 9); breaks the invariant “At most one effect per logical operation” at event 9",
        "  no_resubmit: 1 faults, 18 events, broke [no_resubmit], order [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1]: 1 fault: a stale lookup at provider.lookup of worker-b (event 17); breaks the invariant “A record that succeeded is never resubmitted” at event 18",
    ];
    for (faults_max, figures) in [
        (
            1,
            "review / safe: 4453 schedules, 20945 states, 22846 transitions, complete true",
        ),
        (
            2,
            "review / safe: 93650 schedules, 249212 states, 280398 transitions, complete true",
        ),
    ] {
        let budget = Budget {
            faults_max,
            preemptions_max: 2,
            ..Budget::default()
        };
        let report = Explorer::run(safe.scenario.clone(), budget).expect("valid");
        let mut pinned = vec![figures];
        pinned.extend(counterexamples);
        assert_eq!(
            report_lines(&safe.name, &report),
            pinned,
            "K={faults_max} P=2"
        );
    }
}

#[test]
fn every_lessons_report_is_pinned() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/explore_reports.txt");
    let mut lines = Vec::new();
    for design in lessons() {
        let report = Explorer::run(design.scenario.clone(), design.budget.clone())
            .unwrap_or_else(|error| panic!("{}: {error}", design.name));
        lines.extend(report_lines(&design.name, &report));
    }
    let found = lines.join("\n") + "\n";
    if std::env::var_os("PIN_EXPLORE_REPORTS").is_some() {
        std::fs::write(&path, &found).expect("writable");
    }
    let pinned = std::fs::read_to_string(&path).expect("tests/explore_reports.txt");
    assert!(
        found == pinned,
        "the explorer's reports changed; set PIN_EXPLORE_REPORTS=1 to rewrite the file if they \
         should have. Found:\n{found}"
    );
}
