//! `make bench`: events per second for 1,000-record batches with faults, natively. Prints
//! figures; asserts nothing about speed.

use std::time::{Duration, Instant};

use lab_engine::{
    Action, Engine, FaultKind, FaultRule, Operation, Payload, Run, Scalar, Scenario, Schedule,
    WorkerPlan, WorkflowKind,
};

const RECORDS: u32 = 1_000;

fn rule(fault: FaultKind, at: Action, chance_permille: u16) -> FaultRule {
    FaultRule {
        fault,
        at,
        nth: None,
        worker: None,
        chance_permille: Some(chance_permille),
    }
}

/// A batch of `RECORDS` operations over two workers, with faults drawn from the seed.
fn batch(workflow: WorkflowKind, faults: Vec<FaultRule>) -> Scenario {
    let operations: Vec<Operation> = (0..RECORDS)
        .map(|index| {
            let mut payload = Payload::new();
            payload.insert("amount".into(), Scalar::Int(i64::from(index % 97)));
            payload.insert("user".into(), Scalar::Text(format!("user-{}", index % 31)));
            Operation {
                id: format!("evt-{index}"),
                payload,
            }
        })
        .collect();
    let runs = |parity: u32| -> Vec<Run> {
        (0..RECORDS)
            .filter(|index| index % 2 == parity)
            .map(|index| Run {
                op: format!("evt-{index}"),
                payload: None,
                not_before: 0,
                key: None,
            })
            .collect()
    };
    Scenario {
        seed: 7,
        workflow,
        design: Default::default(),
        provider: Default::default(),
        operations,
        workers: vec![
            WorkerPlan {
                name: "worker-a".into(),
                runs: runs(0),
            },
            WorkerPlan {
                name: "worker-b".into(),
                runs: runs(1),
            },
        ],
        faults,
        schedule: Schedule::RoundRobin,
        step_cap: lab_engine::STEP_CAP_MAX,
    }
}

fn measure(name: &str, scenario: &Scenario) {
    let rounds = 3;
    let mut quiet = Duration::ZERO;
    let mut traced = Duration::ZERO;
    let mut events = 0;
    for _ in 0..rounds {
        let start = Instant::now();
        let (count, _, _) =
            Engine::run_quiet(scenario.clone()).expect("the benchmark scenario is valid");
        quiet += start.elapsed();
        events = count;
        let start = Instant::now();
        let trace = Engine::run(scenario.clone()).expect("the benchmark scenario is valid");
        traced += start.elapsed();
        assert_eq!(trace.len(), count, "both modes run the same events");
    }
    let rate = |total: Duration| f64::from(events * rounds) / total.as_secs_f64();
    println!(
        "{name:<34} {events:>6} events   {:>12.0} events/s without snapshots   {:>10.0} events/s with a full state per event",
        rate(quiet),
        rate(traced)
    );
}

fn main() {
    println!("lab-engine benchmark: {RECORDS} records, 2 workers, round robin, seeded faults (best of {} rounds summed)", 3);
    measure(
        "ingest + crash/redelivery/lost ack",
        &batch(
            WorkflowKind::Ingest,
            vec![
                rule(FaultKind::Crash, Action::SinkSend, 20),
                rule(FaultKind::DeliverTwice, Action::Receive, 30),
                rule(FaultKind::LoseReply, Action::TableWrite, 30),
            ],
        ),
    );
    measure(
        "reserve + lost replies/busy",
        &batch(
            WorkflowKind::Reserve,
            vec![
                rule(FaultKind::LoseReply, Action::ProviderSubmit, 50),
                rule(FaultKind::Busy, Action::ProviderSubmit, 50),
            ],
        ),
    );
    measure(
        "pipeline + busy writes",
        &batch(
            WorkflowKind::Pipeline,
            vec![rule(FaultKind::Busy, Action::TableWrite, 50)],
        ),
    );
}
