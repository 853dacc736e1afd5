//! Laws every run keeps, whatever the scenario: the engine never panics or refuses a valid
//! scenario, the trace is well formed, the same scenario gives the same trace and the same JSON
//! bytes, and the quiet run ends where the trace ends. Then `validate`'s errors, one rule each,
//! and the reproductions of engine bugs this file found.
//!
//! The strategies below build random but valid scenarios: small enough that one case stays in the
//! low milliseconds in a debug build, varied enough to reach every workflow, design switch and
//! schedule, and every (fault, action) pair the engine accepts.

use std::collections::{BTreeMap, BTreeSet};

use lab_engine::{
    lane_id, Action, Backoff, CancelCheck, Engine, FailureClass, FaultKind, FaultRule, Invariant,
    Jitter, KeySource, LaneKind, Operation, Payload, ProviderConfig, RejectStatus, RetryPolicy,
    Run, Scalar, Scenario, ScenarioError, Schedule, Stop, Switches, Trace, WorkerPlan, WorkerState,
    WorkflowKind, World, WriteMode, TICKS_MAX,
};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};
use proptest::test_runner::TestCaseError;

/// Worker names that are not lane ids, so a mix-up of name and lane shows.
const WORKER_NAMES: [&str; 3] = ["coordinator", "retrier", "webhook"];

/// Field names of payloads: few, so two payloads often share fields.
const FIELD_NAMES: [&str; 4] = ["item", "quantity", "note", "sku"];

/// Texts that exercise canonical JSON's escaping as well as plain words.
const TEXTS: [&str; 7] = [
    "",
    "notebook",
    "pen",
    "say \"hi\"",
    "back\\slash",
    "two\nlines",
    "café",
];

/// Keys a run may reuse on purpose: one collides with an operation id, one with nothing.
const REUSED_KEYS: [&str; 3] = ["OP-1", "shared-key", "k"];

/// The actor of the event in which a timed-out request commits late.
const LATE_COMMIT_ACTOR: &str = "provider";

/// The step cap of generated scenarios; high enough for retries and crash loops to finish.
const STEP_CAP_GENERATED_MAX: u32 = 400;

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        4 => (-3i64..50).prop_map(Scalar::Int),
        4 => select(&TEXTS[..]).prop_map(|text| Scalar::Text(text.to_string())),
        1 => any::<bool>().prop_map(Scalar::Bool),
    ]
}

fn payload() -> impl Strategy<Value = Payload> {
    prop::collection::btree_map(
        select(&FIELD_NAMES[..]).prop_map(str::to_string),
        scalar(),
        0..=3,
    )
}

fn operation_id(index: usize) -> String {
    format!("OP-{}", index + 1)
}

fn run(operation_count: usize) -> impl Strategy<Value = Run> {
    (
        0..operation_count,
        prop::option::weighted(0.2, payload()),
        prop_oneof![3 => Just(0u32), 1 => 0u32..=30],
        prop::option::weighted(0.15, select(&REUSED_KEYS[..])),
        any::<bool>(),
    )
        .prop_map(|(operation, payload, not_before, key, rewritten)| Run {
            op: operation_id(operation),
            body: payload
                .as_ref()
                .filter(|_| rewritten)
                .map(written_another_way),
            payload,
            not_before,
            key: key.map(str::to_string),
        })
}

/// The payload as a caller might write it: its fields in reverse order, with spaces.
fn written_another_way(payload: &lab_engine::Payload) -> String {
    let fields: Vec<String> = payload
        .iter()
        .rev()
        .map(|(name, value)| {
            let value = serde_json::to_string(value).expect("a scalar is JSON");
            format!(
                "{}: {value}",
                serde_json::to_string(name).expect("a name is JSON")
            )
        })
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

prop_compose! {
    fn retry_policy()(
        attempts_max in 1u32..=5,
        eligible in subsequence(
            vec![
                FailureClass::InvalidInput,
                FailureClass::Permission,
                FailureClass::Temporary,
                FailureClass::UnknownCompletion,
            ],
            0..=4,
        ),
        delay_base_ticks in 0u32..=4,
        backoff in select(vec![Backoff::Constant, Backoff::Exponential]),
        jitter in select(vec![Jitter::None, Jitter::Full, Jitter::Equal, Jitter::Decorrelated]),
        delay_cap_ticks in 0u32..=16,
        deadline_ticks in 0u32..=40,
        layers in 1u32..=3,
        single_layer in any::<bool>(),
        retry_ratio_permille in select(vec![0u32, 100, 500]),
    ) -> RetryPolicy {
        RetryPolicy {
            attempts_max,
            eligible,
            delay_base_ticks,
            backoff,
            jitter,
            delay_cap_ticks,
            deadline_ticks,
            layers,
            single_layer,
            retry_ratio_permille,
        }
    }
}

fn design() -> impl Strategy<Value = Switches> {
    let five_switches = || {
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        )
    };
    (
        five_switches(),
        five_switches(),
        select(vec![
            KeySource::SourceId,
            KeySource::AutoIncrement,
            KeySource::ContentHash,
            KeySource::FreshRandom,
            KeySource::HashWithReceivedAt,
            KeySource::SavedUuid,
        ]),
        select(vec![
            WriteMode::Insert,
            WriteMode::InsertOrIgnore,
            WriteMode::Upsert,
        ]),
        retry_policy(),
        any::<bool>(),
        select(CancelCheck::ALL.to_vec()),
    )
        .prop_map(
            |(
                (reconcile, trust_not_found, unique, check_first, mark_after),
                (same_transaction, skip_succeeded, resume, dedup_on_write, tracker),
                key,
                write,
                retry,
                raw,
                cancel_check,
            )| Switches {
                reconcile,
                trust_not_found,
                key,
                write,
                unique,
                check_first,
                mark_after,
                same_transaction,
                skip_succeeded,
                resume,
                dedup_on_write,
                tracker,
                retry,
                review_owner: None,
                lease_ticks: 30,
                canonical_payload: !raw,
                cancel_check,
            },
        )
}

prop_compose! {
    fn provider_config()(
        dedup in any::<bool>(),
        reject_changed_payload in any::<bool>(),
        reject_status in select(vec![
            RejectStatus::BadRequest400,
            RejectStatus::Conflict409,
            RejectStatus::Unprocessable422,
        ]),
        retention_ticks in 0u32..=20,
        lookup_stale_ticks in 0u32..=5,
        lookup in any::<bool>(),
        require_key in any::<bool>(),
    ) -> ProviderConfig {
        ProviderConfig {
            dedup,
            reject_changed_payload,
            reject_status,
            retention_ticks,
            lookup_stale_ticks,
            lookup,
            require_key,
        }
    }
}

fn schedule(worker_count: usize) -> impl Strategy<Value = Schedule> {
    prop_oneof![
        Just(Schedule::Sequential),
        Just(Schedule::RoundRobin),
        Just(Schedule::Seeded),
        prop::collection::vec(0..worker_count as u8, 0..=12)
            .prop_map(|order| Schedule::Explicit { order }),
    ]
}

/// Every (fault, action) pair the workflow declares, in a fixed order.
fn applicable_pairs(workflow: WorkflowKind) -> Vec<(FaultKind, Action)> {
    workflow
        .fault_table()
        .iter()
        .flat_map(|&(action, faults)| faults.iter().map(move |&fault| (fault, action)))
        .collect()
}

fn fault_rule(workflow: WorkflowKind, worker_count: usize) -> impl Strategy<Value = FaultRule> {
    // A rule without `nth` or `chance_permille` strikes at every occurrence: valid, and the
    // quickest way to a crash loop that only the step cap ends, so it is kept but rare.
    let when = prop_oneof![
        5 => (1u32..=4).prop_map(|nth| (Some(nth), None)),
        5 => (0u16..=1000).prop_map(|permille| (None, Some(permille))),
        1 => Just((None, None)),
    ];
    (
        select(applicable_pairs(workflow)),
        when,
        prop::option::weighted(0.3, 0..worker_count),
    )
        .prop_map(|((fault, at), (nth, chance_permille), worker)| FaultRule {
            fault,
            at,
            nth,
            worker: worker.map(|index| WORKER_NAMES[index].to_string()),
            chance_permille,
        })
}

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        // Every workflow there is: a new one is generated here as soon as `ALL` lists it.
        select(WorkflowKind::ALL.to_vec()),
        1usize..=4,
        1usize..=WORKER_NAMES.len(),
    )
        .prop_flat_map(|(workflow, operation_count, worker_count)| {
            (
                Just(workflow),
                any::<u64>(),
                design(),
                provider_config(),
                prop::collection::vec(payload(), operation_count),
                prop::collection::vec(
                    prop::collection::vec(run(operation_count), 1..=6),
                    worker_count,
                ),
                prop::collection::vec(fault_rule(workflow, worker_count), 0..=4),
                schedule(worker_count),
                1u32..=STEP_CAP_GENERATED_MAX,
            )
                .prop_map(
                    |(
                        workflow,
                        seed,
                        design,
                        provider,
                        payloads,
                        runs,
                        faults,
                        schedule,
                        step_cap,
                    )| {
                        Scenario {
                            seed,
                            workflow,
                            switches: design,
                            provider,
                            operations: payloads
                                .into_iter()
                                .enumerate()
                                .map(|(index, payload)| Operation {
                                    id: operation_id(index),
                                    payload,
                                    // Now and then, events that arrived without the source's
                                    // id: their source-id keys collide.
                                    missing_id: index > 0 && seed % 4 == 0,
                                })
                                .collect(),
                            workers: runs
                                .into_iter()
                                .enumerate()
                                .map(|(index, runs)| WorkerPlan {
                                    name: WORKER_NAMES[index].to_string(),
                                    runs,
                                })
                                .collect(),
                            faults,
                            schedule,
                            step_cap,
                            program: None,
                        }
                    },
                )
        })
}

/// The state after the whole run as the trace shows it.
fn last_state(trace: &Trace) -> World {
    trace.state_at(trace.len())
}

/// The structural laws of one trace.
fn check_trace(scenario: &Scenario, trace: &Trace) -> Result<(), TestCaseError> {
    let length = trace.len();
    prop_assert!(length <= scenario.step_cap, "{length} events over the cap");
    if trace.stop == Stop::StepCap {
        prop_assert_eq!(length, scenario.step_cap, "stopped by the cap before it");
    } else if trace.stop == Stop::TimeLimit {
        // The clock stops a run only while something is still to happen.
        let last = last_state(trace);
        prop_assert!(
            !last.in_flight.is_empty()
                || last
                    .workers
                    .iter()
                    .any(|worker| worker.state != WorkerState::Done),
            "stopped by the clock with nothing left to do"
        );
    } else {
        // Every worker has at least one run, so a finished run leaves every worker done.
        let last = last_state(trace);
        prop_assert!(
            last.workers
                .iter()
                .all(|worker| worker.state == WorkerState::Done),
            "finished with workers {:?}",
            last.workers
        );
    }

    let lane_ids: BTreeSet<&str> = trace.lanes.iter().map(|lane| lane.id.as_str()).collect();
    let mut tick_before = trace.initial.tick;
    for (position, event) in trace.events.iter().enumerate() {
        prop_assert_eq!(event.index, position as u32 + 1);
        prop_assert!(
            event.tick >= tick_before,
            "event {} at tick {} is before the state it starts from (tick {})",
            event.index,
            event.tick,
            tick_before
        );
        let after = trace.state_at(event.index);
        prop_assert!(
            after.tick > event.tick,
            "event {} at tick {} leaves the state at tick {}",
            event.index,
            event.tick,
            after.tick
        );
        tick_before = after.tick;
        // A late commit of a timed-out request is the provider's own event, outside any run.
        let runs = match scenario
            .workers
            .iter()
            .find(|plan| plan.name == event.actor)
        {
            Some(plan) => 1..=plan.runs.len() as u32,
            None => 0..=0,
        };
        prop_assert!(
            scenario.workers.iter().any(|plan| plan.name == event.actor)
                || (event.actor == LATE_COMMIT_ACTOR && lane_ids.contains(LATE_COMMIT_ACTOR)),
            "event {} is by {}, who is neither a worker nor the provider",
            event.index,
            event.actor
        );
        // The engine names the actor's lane: the worker's own, or the provider's for a late commit.
        let lane = match scenario
            .workers
            .iter()
            .position(|plan| plan.name == event.actor)
        {
            Some(index) => lane_id(index),
            None => LATE_COMMIT_ACTOR.to_string(),
        };
        prop_assert_eq!(
            &event.lane,
            &lane,
            "event {} by {} is on the wrong lane",
            event.index,
            &event.actor
        );
        prop_assert!(
            lane_ids.contains(event.lane.as_str()),
            "event {} is on lane {}, which the trace does not list",
            event.index,
            &event.lane
        );
        prop_assert!(
            runs.contains(&event.run),
            "event {} by {} is run {}, outside {:?}",
            event.index,
            event.actor,
            event.run,
            runs
        );
        for message in &event.messages {
            prop_assert!(
                lane_ids.contains(message.from.as_str()) && lane_ids.contains(message.to.as_str()),
                "event {} message {:?} names a lane that does not exist",
                event.index,
                message
            );
        }
        if let Some(fault) = event.fault {
            // A cancel the engine reads before every step is recorded as the journal update
            // that stops the run, wherever it struck; one read in code, at the step it struck,
            // which finishes.
            let in_code = scenario.switches.cancel_check == CancelCheck::InCode;
            let declared = match fault {
                FaultKind::Cancel if in_code => {
                    scenario.workflow.faults_at(event.action).contains(&fault)
                }
                FaultKind::Cancel => event.action == Action::JournalUpdate,
                _ => scenario.workflow.faults_at(event.action).contains(&fault),
            };
            prop_assert!(
                declared,
                "event {} reports {:?} at {:?}",
                event.index,
                fault,
                event.action
            );
            prop_assert!(
                scenario.faults.iter().any(|rule| rule.fault == fault),
                "event {} reports {:?}, which no rule plans",
                event.index,
                fault
            );
        }
    }

    let order: Vec<Invariant> = trace
        .verdicts
        .iter()
        .map(|verdict| verdict.invariant)
        .collect();
    prop_assert_eq!(order, Invariant::ALL.to_vec());
    let mut reported = BTreeSet::new();
    for event in &trace.events {
        for &invariant in &event.broke {
            prop_assert!(
                reported.insert(invariant),
                "{:?} broke twice, the second time at event {}",
                invariant,
                event.index
            );
            let position = Invariant::ALL.iter().position(|&each| each == invariant);
            let verdict = &trace.verdicts[position.expect("ALL lists every invariant")];
            prop_assert_eq!(verdict.broken_at, Some(event.index));
        }
    }
    for verdict in &trace.verdicts {
        prop_assert_eq!(verdict.detail.is_some(), verdict.broken_at.is_some());
        if let Some(index) = verdict.broken_at {
            prop_assert!(
                (1..=length).contains(&index),
                "{:?} broke at {} of {}",
                verdict.invariant,
                index,
                length
            );
            prop_assert!(
                trace.events[index as usize - 1]
                    .broke
                    .contains(&verdict.invariant),
                "{:?} broke at {} but that event does not say so",
                verdict.invariant,
                index
            );
        }
    }

    // The stage order is the workflow's, and every stage a journal row records is in it.
    let stages: Vec<&str> = trace.stages.iter().map(String::as_str).collect();
    prop_assert_eq!(&stages[..], scenario.workflow.stages());
    let last = last_state(trace);
    for job in last.journal.values() {
        for stage in job.stages.keys() {
            prop_assert!(
                stages.contains(&stage.as_str()),
                "{} records stage {}, which the trace does not list",
                &job.id,
                stage
            );
        }
    }
    // Every tracker entry names an operation of the scenario.
    for (key, operation) in &last.tracker {
        prop_assert!(
            scenario
                .operations
                .iter()
                .any(|known| known.id == *operation),
            "tracker key {} names {}, which is no operation",
            key,
            operation
        );
    }

    // Each call of the fault planner counts one more occurrence of its action, so the n-th
    // values of one action run 1, 2, 3, .. with no gap.
    let mut nth_last = BTreeMap::new();
    for point in &trace.fault_points {
        prop_assert!(!point.faults.is_empty(), "{:?}", point);
        prop_assert_eq!(
            &point.faults[..],
            scenario.workflow.faults_at(point.at),
            "{:?}",
            point
        );
        let last = nth_last.entry(point.at).or_insert(0);
        prop_assert_eq!(point.nth, *last + 1, "{:?}", point);
        *last = point.nth;
    }
    Ok(())
}

fn run_and_check(scenario: Scenario) -> Result<(), TestCaseError> {
    prop_assert_eq!(scenario.validate(), Ok(()));
    let trace = Engine::run(scenario.clone());
    prop_assert!(
        trace.is_ok(),
        "a valid scenario was refused: {:?}",
        trace.as_ref().err()
    );
    let trace = trace.unwrap();
    check_trace(&scenario, &trace)?;

    // Value equality here; byte equality of the JSON form is its own, smaller property, because
    // in a debug build serializing a trace costs about six times as much as running it.
    let again = Engine::run(scenario.clone()).expect("ran once, so runs again");
    prop_assert!(again == trace, "two runs of one scenario differ");

    // `run_quiet` is the same run without recording, so it must end where the trace ends: no
    // state may change outside an event.
    let scenario_for_replay = scenario.clone();
    let (count, world, verdicts) = Engine::run_quiet(scenario).expect("ran, so runs quietly");
    prop_assert_eq!(count, trace.len());
    prop_assert!(
        world == last_state(&trace),
        "the quiet run ends in {:?}, the trace in {:?}",
        world,
        last_state(&trace)
    );
    prop_assert_eq!(&verdicts, &trace.verdicts);

    // The trace stores changes, not states: the state it rebuilds at every cursor must be the
    // state the engine really had there, and so must a trace read back from its JSON form.
    let mut engine = Engine::new(scenario_for_replay).expect("ran, so starts again");
    prop_assert!(
        *engine.world() == trace.state_at(0),
        "the initial states differ"
    );
    while let Some(event) = engine.step() {
        prop_assert!(
            *engine.world() == trace.state_at(event.index),
            "the state rebuilt after event {} differs from the engine's",
            event.index
        );
    }
    Ok(())
}

/// `cases` cases. A failure is turned into a plain #[test] by hand (as below), so no regression
/// file is written next to the sources.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    #[test]
    fn every_valid_scenario_runs_to_a_well_formed_deterministic_trace(scenario in scenario()) {
        run_and_check(scenario)?;
    }
}

proptest! {
    #![proptest_config(config(1_000))]

    /// The bytes a browser and a native run compare: a map iterated in hash order, for one,
    /// would keep the traces equal as values and still change these bytes.
    #[test]
    fn the_same_scenario_gives_the_same_json_bytes(scenario in scenario()) {
        let one = Engine::run(scenario.clone()).expect("a valid scenario runs");
        let two = Engine::run(scenario).expect("a valid scenario runs");
        let one = serde_json::to_string(&one).expect("a trace serializes");
        let two = serde_json::to_string(&two).expect("a trace serializes");
        prop_assert!(one == two, "two runs of one scenario serialize differently");
    }
}

/// One worker, one operation, the default design: a valid start that each test below changes.
fn base() -> Scenario {
    Scenario {
        seed: 1,
        workflow: WorkflowKind::Reserve,
        switches: Switches::default(),
        provider: ProviderConfig::default(),
        operations: vec![Operation {
            id: "OP-1".to_string(),
            payload: Payload::from([("quantity".to_string(), Scalar::Int(1))]),
            missing_id: false,
        }],
        workers: vec![WorkerPlan {
            name: "coordinator".to_string(),
            runs: vec![Run::of("OP-1")],
        }],
        faults: Vec::new(),
        schedule: Schedule::Sequential,
        step_cap: 100,
        program: None,
    }
}

fn rule(fault: FaultKind, at: Action) -> FaultRule {
    FaultRule {
        fault,
        at,
        nth: Some(1),
        worker: None,
        chance_permille: None,
    }
}

/// The error `validate` and `Engine::new` give, which must agree, and its message.
fn refused(scenario: Scenario) -> (ScenarioError, String) {
    let error = scenario.validate().expect_err("the scenario breaks a rule");
    let from_engine = Engine::run(scenario).expect_err("the engine refuses it too");
    assert_eq!(error, from_engine);
    let message = error.to_string();
    (error, message)
}

/// The message says `part`.
fn says(message: &str, part: &str) {
    assert!(message.contains(part), "{message}");
}

/// The message of a refusal that must be exactly `expected`.
fn refused_as(scenario: Scenario, expected: ScenarioError) -> String {
    let (error, message) = refused(scenario);
    assert_eq!(error, expected);
    message
}

#[test]
fn the_base_scenario_is_valid() {
    assert_eq!(base().validate(), Ok(()));
}

#[test]
fn an_unknown_operation_is_named() {
    let mut scenario = base();
    scenario.workers[0].runs[0].op = "OP-404".to_string();
    let (error, message) = refused(scenario);
    assert!(
        matches!(&error, ScenarioError::UnknownOperation { worker, op, known }
            if worker == "coordinator" && op == "OP-404" && known == "OP-1"),
        "{error:?}"
    );
    assert!(message.contains("\"OP-404\""), "{message}");
    assert!(message.contains("\"coordinator\""), "{message}");
    assert!(message.contains("known: OP-1"), "{message}");
}

#[test]
fn a_duplicate_worker_name_is_named() {
    let mut scenario = base();
    scenario.workers.push(scenario.workers[0].clone());
    let message = refused_as(
        scenario,
        ScenarioError::Duplicate {
            what: "worker",
            name: "coordinator".to_string(),
        },
    );
    says(&message, "worker \"coordinator\" is defined twice");
}

#[test]
fn a_fault_that_cannot_strike_there_is_named_with_where_it_can() {
    let mut scenario = base();
    scenario
        .faults
        .push(rule(FaultKind::LoseReply, Action::JournalGet));
    let message = refused_as(
        scenario,
        ScenarioError::FaultDoesNotApply {
            fault: "lose_reply".to_string(),
            at: "journal.get".to_string(),
            workflow: "reserve".to_string(),
            allowed: "provider.submit".to_string(),
        },
    );
    assert_eq!(
        message,
        "fault lose_reply cannot strike at journal.get in the reserve workflow; \
         there it can strike at: provider.submit"
    );
}

/// No worker may take the id of a lane a workflow declares besides its workers, in any workflow:
/// each such lane of each workflow's trace is refused as a worker name, with the same message.
#[test]
fn every_lane_but_a_workers_is_a_reserved_name() {
    let mut refused_names = BTreeSet::new();
    for workflow in WorkflowKind::ALL {
        let mut scenario = base();
        scenario.workflow = workflow;
        let trace = Engine::run(scenario.clone()).expect("the base runs in every workflow");
        for lane in trace
            .lanes
            .iter()
            .filter(|lane| lane.kind != LaneKind::Worker)
        {
            let mut named = scenario.clone();
            named.workers[0].name = lane.id.clone();
            let (error, message) = refused(named);
            assert_eq!(
                error,
                ScenarioError::ReservedName {
                    name: lane.id.clone()
                }
            );
            assert_eq!(
                message,
                format!(
                    "a worker cannot be called \"{}\": that name belongs to a lane of the diagram; choose another",
                    lane.id
                )
            );
            refused_names.insert(lane.id.clone());
        }
    }
    // The names the hand-kept list held before the lanes declared them.
    let listed = [
        "provider",
        "journal",
        "database",
        "tracker",
        "model",
        "progress",
        "notification",
        "email",
        "charge",
        "receipt",
    ];
    assert_eq!(
        refused_names,
        listed.iter().map(|name| name.to_string()).collect()
    );
}

#[test]
fn nth_zero_is_out_of_range() {
    let mut scenario = base();
    scenario.faults.push(FaultRule {
        nth: Some(0),
        ..rule(FaultKind::LoseReply, Action::ProviderSubmit)
    });
    let (error, message) = refused(scenario);
    assert!(
        matches!(&error, ScenarioError::OutOfRange { field, value: 0, min: 1, .. }
            if field == "nth of fault lose_reply"),
        "{error:?}"
    );
    says(&message, "nth of fault lose_reply is 0");
}

#[test]
fn a_chance_over_a_thousand_permille_is_out_of_range() {
    let mut scenario = base();
    scenario.faults.push(FaultRule {
        nth: None,
        chance_permille: Some(1001),
        ..rule(FaultKind::Busy, Action::ProviderSubmit)
    });
    let message = refused_as(
        scenario,
        ScenarioError::OutOfRange {
            field: "chance_permille of fault busy".to_string(),
            value: 1001,
            min: 0,
            max: 1000,
        },
    );
    says(&message, "chance_permille of fault busy is 1001");
    assert!(message.contains("between 0 and 1000"), "{message}");
}

#[test]
fn a_step_cap_of_zero_is_out_of_range() {
    let mut scenario = base();
    scenario.step_cap = 0;
    let (error, message) = refused(scenario);
    assert!(
        matches!(&error, ScenarioError::OutOfRange { field, value: 0, min: 1, .. }
            if field == "step_cap"),
        "{error:?}"
    );
    assert!(message.contains("step_cap is 0"), "{message}");
}

/// A request still in flight when the workers are done commits in an event of its own. Before
/// cb23b2b the engine committed it after the last event (`drain_in_flight`), so the trace's last
/// state and every verdict missed an effect that happened. Here the second submit times out
/// with its request in flight; without provider dedup its late commit is a second effect of
/// OP-1, which `one_effect` exists to catch.
#[test]
fn a_request_still_in_flight_at_the_end_is_not_hidden_from_the_trace() {
    let mut scenario = base();
    scenario.switches.reconcile = false;
    scenario.provider.dedup = false;
    let again = scenario.workers[0].runs[0].clone();
    scenario.workers[0].runs.push(again);
    scenario.faults = vec![
        rule(FaultKind::LoseReply, Action::ProviderSubmit),
        FaultRule {
            nth: Some(2),
            ..rule(FaultKind::Timeout, Action::ProviderSubmit)
        },
    ];
    let trace = Engine::run(scenario.clone()).expect("a valid scenario runs");
    let (_, world, _) = Engine::run_quiet(scenario).expect("a valid scenario runs");
    let shown = last_state(&trace);
    assert_eq!(
        (shown.provider.len(), shown.in_flight.len(), shown.tick),
        (world.provider.len(), world.in_flight.len(), world.tick),
        "(provider records, requests in flight, tick): the trace ends before the run does"
    );
    assert_eq!(
        world.provider_effects("OP-1"),
        2,
        "a lost reply, then a late commit"
    );
    let late = trace
        .events
        .iter()
        .find(|event| event.actor == LATE_COMMIT_ACTOR)
        .expect("the late commit is an event");
    assert_eq!(late.action, Action::ProviderSubmit);
    assert_eq!(
        late.lane, "provider",
        "the late commit is on the provider's lane"
    );
    assert_eq!(trace.state_at(late.index).provider_effects("OP-1"), 2);
    let one_effect = &trace.verdicts[0];
    assert_eq!(one_effect.invariant, Invariant::OneEffect);
    assert_eq!(
        one_effect.broken_at,
        Some(late.index),
        "the second effect is the late commit's"
    );
}

/// Retries that back off for the longest delay `validate` allows (`TICKS_MAX`), with an attempt
/// budget it also allows (100 attempts in each of 6 layers), against a provider that fails every
/// submit: a few thousand back-offs carry the clock past `u32::MAX`. The engine before the
/// `TimeLimit` stop added each delay to the clock with plain `+`, so every case here panicked
/// with "attempt to add with overflow" in a debug build (and wrapped in a release build, waking
/// the worker in the past). The run must stop with `Stop::TimeLimit` instead, keep every law of
/// a trace, and end where its quiet run ends.
#[test]
fn back_offs_that_validate_stop_at_the_clock_limit_instead_of_overflowing() {
    let every_submit = |fault| FaultRule {
        nth: None,
        ..rule(fault, Action::ProviderSubmit)
    };
    let mut longest = base();
    longest.step_cap = lab_engine::STEP_CAP_MAX;
    longest.switches.reconcile = false;
    longest.switches.retry = RetryPolicy {
        attempts_max: 100,
        layers: 6,
        eligible: vec![FailureClass::Temporary, FailureClass::UnknownCompletion],
        delay_base_ticks: TICKS_MAX,
        delay_cap_ticks: TICKS_MAX,
        ..RetryPolicy::default()
    };
    longest.faults = vec![every_submit(FaultKind::Busy)];
    let mut cases: Vec<(&str, Scenario)> = vec![("constant back-off", longest.clone())];

    let mut scenario = longest.clone();
    scenario.switches.retry.delay_base_ticks = 1;
    scenario.switches.retry.backoff = Backoff::Exponential;
    cases.push(("exponential back-off up to the cap", scenario));

    let mut scenario = longest.clone();
    scenario.switches.retry.jitter = Jitter::Equal;
    cases.push(("equal jitter", scenario));

    // A run that starts as late as validate allows, and reconciles before every retry.
    let mut scenario = longest.clone();
    scenario.workers[0].runs[0].not_before = TICKS_MAX;
    scenario.switches.reconcile = true;
    cases.push(("late start, lookup before each retry", scenario));

    // Every submit times out, so a request is in flight (committing 3 ticks later) at each one.
    let mut scenario = longest;
    scenario.faults = vec![every_submit(FaultKind::Timeout)];
    cases.push(("timeouts with late commits", scenario));

    for (name, scenario) in cases {
        assert_eq!(scenario.validate(), Ok(()), "{name}");
        let outcome = std::panic::catch_unwind(|| {
            let trace = Engine::run(scenario.clone()).expect("a valid scenario runs");
            let quiet = Engine::run_quiet(scenario.clone()).expect("a valid scenario runs");
            (trace, quiet)
        });
        let Ok((trace, (count, world, _))) = outcome else {
            panic!("{name}: a valid scenario panicked");
        };
        assert_eq!(trace.stop, Stop::TimeLimit, "{name}");
        check_trace(&scenario, &trace).unwrap_or_else(|error| panic!("{name}: {error}"));
        assert_eq!(count, trace.len(), "{name}");
        assert!(
            world == last_state(&trace),
            "{name}: the quiet run ends elsewhere"
        );
        let last = trace.events.last().expect("the run took steps");
        assert!(
            last.tick > u32::MAX - 2 * TICKS_MAX,
            "{name}: stopped at tick {}, far from the limit",
            last.tick
        );
    }
}
