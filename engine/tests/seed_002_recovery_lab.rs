//! Seed 002's recovery_lab.py, reproduced step for step: lost reply, reconcile, replay, changed
//! payload rejected, one provider record.

use lab_engine::{Engine, Invariant, JobStatus, Scenario, Trace};

const LAB: &str = r#"
workflow = "reserve"
seed = 1

[[operations]]
id = "OP-001"
payload = { item = "practice-notebook", quantity = 1 }

[[workers]]
name = "coordinator"
runs = [
  { op = "OP-001" },
  { op = "OP-001" },
  { op = "OP-001" },
  { op = "OP-001", payload = { item = "practice-notebook", quantity = 2 } },
]

[[faults]]
fault = "lose_reply"
at = "provider.submit"
nth = 1
"#;

fn lab() -> Scenario {
    toml::from_str(LAB).expect("the lab scenario parses")
}

/// The cursor just after the n-th run returned.
fn after_run(trace: &Trace, run: usize) -> u32 {
    trace
        .events
        .iter()
        .filter(|event| event.action == lab_engine::Action::Return)
        .nth(run - 1)
        .map(|event| event.index)
        .expect("the run returned")
}

#[test]
fn reproduces_the_seed_sequence() {
    let trace = Engine::run(lab()).expect("runs");
    let results = &trace.results()[0].1;
    assert_eq!(
        results,
        &["unknown", "verified", "already_verified", "rejected"]
    );

    let first = trace.state_at(after_run(&trace, 1));
    assert_eq!(first.journal["OP-001"].status, JobStatus::Pending);
    assert_eq!(
        first.provider.len(),
        1,
        "the provider committed before the reply was lost"
    );

    let second = trace.state_at(after_run(&trace, 2));
    assert_eq!(second.journal["OP-001"].status, JobStatus::Verified);
    assert_eq!(
        second.journal["OP-001"].receipt.as_deref(),
        Some("receipt-OP-001")
    );

    let last = trace.state_at(trace.len());
    assert_eq!(
        last.provider.len(),
        1,
        "exactly one provider record at the end"
    );
    assert_eq!(
        last.provider[0].payload,
        r#"{"item":"practice-notebook","quantity":1}"#
    );
    assert!(
        trace
            .verdicts
            .iter()
            .all(|verdict| verdict.broken_at.is_none()),
        "{:?}",
        trace.verdicts
    );
}

#[test]
fn the_second_run_reconciles_instead_of_resubmitting() {
    let trace = Engine::run(lab()).expect("runs");
    let submits: Vec<u32> = trace
        .events
        .iter()
        .filter(|event| event.action == lab_engine::Action::ProviderSubmit)
        .map(|event| event.run)
        .collect();
    assert_eq!(submits, vec![1], "only the first run submits");
    let lost = trace
        .events
        .iter()
        .find(|event| event.fault.is_some())
        .expect("a fault struck");
    assert_eq!(lost.messages.len(), 2);
    assert!(
        !lost.messages[0].lost && lost.messages[1].lost,
        "the reply, not the request, is lost"
    );
}

#[test]
fn without_reconcile_the_lost_reply_is_harmless_only_because_the_provider_dedups() {
    let mut scenario = lab();
    scenario.switches.reconcile = false;
    let trace = Engine::run(scenario.clone()).expect("runs");
    assert_eq!(trace.state_at(trace.len()).provider.len(), 1);
    scenario.provider.dedup = false;
    let trace = Engine::run(scenario).expect("runs");
    assert_eq!(
        trace.state_at(trace.len()).provider.len(),
        2,
        "blind resubmit duplicates"
    );
    let broken = trace
        .verdicts
        .iter()
        .find(|verdict| verdict.invariant == Invariant::OneEffect)
        .unwrap();
    assert!(broken.broken_at.is_some());
    let event = &trace.events[broken.broken_at.unwrap() as usize - 1];
    assert_eq!(event.action, lab_engine::Action::ProviderSubmit);
    assert_eq!(event.broke, vec![Invariant::OneEffect]);
}

#[test]
fn same_scenario_same_bytes() {
    let one = serde_json::to_string(&Engine::run(lab()).unwrap()).unwrap();
    let two = serde_json::to_string(&Engine::run(lab()).unwrap()).unwrap();
    assert_eq!(one, two);
}
