//! Links to a state of the lab: every state round-trips, links stay short, and no text at all
//! (random, cut, mutated, hostile) makes the decoder panic or hand back a scenario that cannot run.

mod common;

use common::course;
use lab_course::share::{
    decode, encode, encode_within, Changes, Fault, Order, ShareError, Shared, WholeScenario,
    LINK_CHARS_MAX, OPERATIONS_MAX, SHARE_VERSION,
};
use lab_engine::{
    Action, BatchSpec, FaultKind, Operation, Payload, Run, Scalar, Scenario, Schedule, Switch,
    WorkerPlan, WorkflowKind,
};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

/// Every design of every lesson.
fn designs() -> Vec<(String, u32, Scenario)> {
    course()
        .lessons
        .iter()
        .flat_map(|lesson| {
            lesson.designs.iter().enumerate().map(|(index, design)| {
                (
                    lesson.id.clone(),
                    index as u32,
                    Scenario::clone(&design.scenario),
                )
            })
        })
        .collect()
}

/// The address of a lesson's step with changes, as the app writes it.
/// A whole scenario shared at `step`, as the sandbox's address carries it.
fn shared_scenario(scenario: &Scenario, step: u32) -> Shared {
    Shared::Scenario {
        scenario: WholeScenario::of(scenario),
        step,
    }
}

/// `original` with the switches `flips` picks flipped, in turn.
fn flipped(original: &Scenario, flips: Vec<prop::sample::Index>) -> Scenario {
    let switches = original.workflow.switches();
    flips.into_iter().fold(original.clone(), |changed, flip| {
        let switch = switches[flip.index(switches.len())];
        switch.set(&changed, !switch.get(&changed))
    })
}

/// `scenario` at `step`, encoded as a link, decodes to itself and reads back whole.
fn round_trips(scenario: &Scenario, step: u32) -> Result<(), TestCaseError> {
    let shared = shared_scenario(scenario, step);
    let decoded = decode(&encode(&shared)).expect("a valid scenario decodes");
    prop_assert_eq!(&decoded, &shared);
    let Shared::Scenario {
        scenario: whole, ..
    } = decoded
    else {
        unreachable!()
    };
    prop_assert_eq!(&whole.read().expect("it reads back"), scenario);
    Ok(())
}

fn lesson_address(id: &str, step: u32, code: &str) -> String {
    format!("#/lesson/{id}/{step}/{code}")
}

fn fault_strategy() -> impl Strategy<Value = Fault> {
    (
        select(FaultKind::ALL.to_vec()),
        select(Action::ALL.to_vec()),
        proptest::option::of(1u32..1_000),
        proptest::option::of("[a-z0-9-]{1,12}"),
        proptest::option::of(0u16..=1000),
    )
        .prop_map(|(fault, at, nth, worker, chance_permille)| Fault {
            fault,
            at,
            nth,
            worker,
            chance_permille,
        })
}

fn order_strategy() -> impl Strategy<Value = Order> {
    prop_oneof![
        Just(Order::Sequential),
        Just(Order::RoundRobin),
        Just(Order::Seeded),
        proptest::collection::vec(0u8..4, 0..40).prop_map(Order::Explicit),
    ]
}

fn switch_strategy() -> impl Strategy<Value = Vec<(Switch, bool)>> {
    let all = vec![
        Switch::Reconcile,
        Switch::TrustNotFound,
        Switch::ProviderDedup,
        Switch::RejectChangedPayload,
        Switch::ProviderLookup,
        Switch::Unique,
        Switch::CheckFirst,
        Switch::Upsert,
        Switch::MarkAfter,
        Switch::Tracker,
        Switch::SameTransaction,
        Switch::SkipSucceeded,
        Switch::Resume,
        Switch::DedupOnWrite,
        Switch::StableKey,
    ];
    let count = all.len();
    (
        subsequence(all, 0..=count),
        proptest::collection::vec(any::<bool>(), count),
    )
        .prop_map(|(switches, values)| switches.into_iter().zip(values).collect())
}

fn scalar_strategy() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        any::<bool>().prop_map(Scalar::Bool),
        any::<i64>().prop_map(Scalar::Int),
        // Any text at all, quotes, markup and non-ASCII included.
        ".{0,16}".prop_map(Scalar::Text),
    ]
}

/// A valid scenario of up to 12 records over up to 3 workers.
fn scenario_strategy() -> impl Strategy<Value = Scenario> {
    (
        select(WorkflowKind::ALL.to_vec()),
        any::<u64>(),
        proptest::collection::vec(
            proptest::collection::btree_map("[a-z]{1,6}", scalar_strategy(), 0..4),
            1..12,
        ),
        1usize..4,
        select(vec![
            Schedule::Sequential,
            Schedule::RoundRobin,
            Schedule::Seeded,
        ]),
        1u32..2_000,
    )
        .prop_map(|(workflow, seed, payloads, workers, schedule, step_cap)| {
            let operations: Vec<Operation> = payloads
                .into_iter()
                .enumerate()
                .map(|(index, payload): (usize, Payload)| Operation {
                    id: format!("op-{index}"),
                    payload,
                    missing_id: index % 3 == 2,
                })
                .collect();
            let workers = (0..workers)
                .map(|worker| WorkerPlan {
                    name: format!("w{worker}"),
                    runs: operations
                        .iter()
                        .skip(worker)
                        .step_by(workers)
                        .map(|operation| Run::of(operation.id.clone()))
                        .collect(),
                })
                .collect();
            Scenario {
                seed,
                workflow,
                switches: Default::default(),
                provider: Default::default(),
                operations,
                workers,
                faults: Vec::new(),
                schedule,
                step_cap,
                program: None,
            }
        })
}

/// One hand edit of a generated batch, at positions given as fractions of its lists.
#[derive(Clone, Debug)]
enum Touch {
    /// A record's payload changed.
    Payload(prop::sample::Index, Payload),
    /// A record renamed (its runs follow).
    Rename(prop::sample::Index, String),
    /// A record added at the end, run by a worker.
    Add(prop::sample::Index, Payload),
    /// A run taken out.
    Drop(prop::sample::Index, prop::sample::Index),
    /// A run given its own payload and start tick.
    Retry(prop::sample::Index, prop::sample::Index, u32),
    /// A worker renamed.
    Worker(prop::sample::Index, String),
}

fn payload_strategy() -> impl Strategy<Value = Payload> {
    proptest::collection::btree_map("[a-z]{1,6}", scalar_strategy(), 0..4)
}

fn touch_strategy() -> impl Strategy<Value = Touch> {
    let at = any::<prop::sample::Index>;
    prop_oneof![
        (at(), payload_strategy()).prop_map(|(at, payload)| Touch::Payload(at, payload)),
        (at(), "[a-z]{1,8}").prop_map(|(at, id)| Touch::Rename(at, format!("mine-{id}"))),
        (at(), payload_strategy()).prop_map(|(at, payload)| Touch::Add(at, payload)),
        (at(), at()).prop_map(|(worker, run)| Touch::Drop(worker, run)),
        (at(), at(), 0u32..1_000).prop_map(|(worker, run, tick)| Touch::Retry(worker, run, tick)),
        (at(), "[a-z]{1,8}").prop_map(|(at, name)| Touch::Worker(at, format!("mine-{name}"))),
    ]
}

/// `scenario` after the touches; each keeps it valid.
fn touched(mut scenario: Scenario, touches: &[Touch]) -> Scenario {
    for touch in touches {
        match touch {
            Touch::Payload(at, payload) => {
                let index = at.index(scenario.operations.len());
                scenario.operations[index].payload = payload.clone();
            }
            Touch::Rename(at, id) => {
                if scenario
                    .operations
                    .iter()
                    .any(|operation| &operation.id == id)
                {
                    continue;
                }
                let index = at.index(scenario.operations.len());
                let old = std::mem::replace(&mut scenario.operations[index].id, id.clone());
                for run in scenario
                    .workers
                    .iter_mut()
                    .flat_map(|worker| &mut worker.runs)
                {
                    if run.op == old {
                        run.op = id.clone();
                    }
                }
            }
            Touch::Add(at, payload) => {
                let id = format!("added-{}", scenario.operations.len());
                scenario.operations.push(Operation {
                    id: id.clone(),
                    payload: payload.clone(),
                    missing_id: false,
                });
                let worker = at.index(scenario.workers.len());
                scenario.workers[worker].runs.push(Run::of(id));
            }
            Touch::Drop(worker, run) => {
                let count = scenario.workers.len();
                let worker = &mut scenario.workers[worker.index(count)];
                if worker.runs.len() > 1 {
                    worker.runs.remove(run.index(worker.runs.len()));
                }
            }
            Touch::Retry(worker, run, tick) => {
                let count = scenario.workers.len();
                let worker = &mut scenario.workers[worker.index(count)];
                if !worker.runs.is_empty() {
                    let at = run.index(worker.runs.len());
                    let mut again = worker.runs[at].clone();
                    again.payload = Some(Payload::new());
                    again.not_before = *tick;
                    worker.runs.insert(at, again);
                }
            }
            Touch::Worker(at, name) => {
                if scenario.workers.iter().all(|worker| &worker.name != name) {
                    let index = at.index(scenario.workers.len());
                    scenario.workers[index].name = name.clone();
                }
            }
        }
    }
    scenario
}

/// A generated batch of up to 300 records over up to 5 workers, with up to 8 hand edits.
fn generated_strategy() -> impl Strategy<Value = Scenario> {
    (
        1u32..300,
        1u32..6,
        any::<u64>(),
        proptest::collection::vec(touch_strategy(), 0..8),
    )
        .prop_map(|(records, workers, seed, touches)| {
            let batch = BatchSpec {
                workers,
                seed,
                ..BatchSpec::reference(records)
            }
            .scenario();
            touched(batch, &touches)
        })
}

/// `cases` cases; no failure file (an integration test has no lib.rs beside it to put one by).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn a_lessons_changes_round_trip(
        design in 0u32..8,
        switches in switch_strategy(),
        faults in proptest::option::of(proptest::collection::vec(fault_strategy(), 0..6)),
        schedule in proptest::option::of(order_strategy()),
    ) {
        let shared = Shared::Lesson { design, changes: Changes::Edits { switches, faults, schedule } };
        prop_assert_eq!(decode(&encode(&shared)), Ok(shared));
    }

    #[test]
    fn a_generated_scenario_edited_by_hand_round_trips(scenario in generated_strategy(), step in any::<u32>()) {
        scenario.validate().expect("the touches keep it valid");
        round_trips(&scenario, step)?;
    }

    #[test]
    fn a_scenario_round_trips(scenario in scenario_strategy(), step in any::<u32>()) {
        round_trips(&scenario, step)?;
    }

    /// Every lesson's design, with switches flipped and another seed, comes back whole: its
    /// settings differ from the generator's in every way a lesson writes.
    #[test]
    fn every_design_comes_back_whole(
        pick in any::<prop::sample::Index>(),
        flips in proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
        seed in any::<u64>(),
    ) {
        let designs = designs();
        let (_, _, original) = &designs[pick.index(designs.len())];
        let mut changed = flipped(original, flips);
        changed.seed = seed;
        // Flips the engine refuses (a program that calls what a switch took away) share nothing.
        prop_assume!(changed.validate().is_ok());
        prop_assert_eq!(WholeScenario::of(&changed).read(), Ok(changed));
    }

    /// What the learner can do to a lesson's design comes back exactly from its link.
    #[test]
    fn every_change_to_a_design_comes_back_from_its_link(
        pick in any::<prop::sample::Index>(),
        flips in proptest::collection::vec(any::<prop::sample::Index>(), 0..4),
        dropped in proptest::collection::vec(any::<prop::sample::Index>(), 0..2),
        order in proptest::collection::vec(0u8..2, 0..20),
    ) {
        let designs = designs();
        let (_, _, original) = &designs[pick.index(designs.len())];
        let mut changed = flipped(original, flips);
        for drop in dropped {
            if !changed.faults.is_empty() {
                let at = drop.index(changed.faults.len());
                changed.faults.remove(at);
            }
        }
        if changed.workers.len() > 1 && !order.is_empty() {
            changed.schedule = Schedule::Explicit { order };
        }
        prop_assume!(changed.validate().is_ok());
        let changes = Changes::between(original, &changed);
        let shared = Shared::Lesson { design: 0, changes };
        let Ok(Shared::Lesson { changes, .. }) = decode(&encode(&shared)) else {
            panic!("the link decodes");
        };
        prop_assert_eq!(changes.apply(original), Ok(changed));
    }
}

proptest! {
    #![proptest_config(config(10_000))]

    /// Any text at all: an error or a state, never a panic.
    #[test]
    fn random_text_never_panics(text in ".{0,200}") {
        let _ = decode(&text);
    }

    /// Text in the link alphabet gets past the first check, so it reaches the inflater and the
    /// reader.
    #[test]
    fn random_link_alphabet_never_panics(text in "[A-Za-z0-9_-]{0,300}") {
        if let Ok(Shared::Scenario { scenario, .. }) = decode(&text) {
            prop_assert!(scenario.read().is_ok(), "a decoded scenario is valid");
        }
    }

    /// A real link with a byte changed, cut, or grown: an error or a valid state.
    #[test]
    fn mutated_links_never_panic(
        scenario in prop_oneof![scenario_strategy(), generated_strategy()],
        position in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        how in 0u8..3,
    ) {
        let good = encode(&shared_scenario(&scenario, 3));
        let mut bytes = base64_bytes(&good);
        match how {
            0 => { let at = position.index(bytes.len()); bytes[at] = byte; }
            1 => bytes.truncate(cut.index(bytes.len())),
            _ => bytes.insert(position.index(bytes.len()), byte),
        }
        let text = rebase64(&bytes);
        match decode(&text) {
            Ok(Shared::Scenario { scenario, .. }) => prop_assert!(scenario.read().is_ok()),
            Ok(Shared::Lesson { .. } | Shared::Built { .. } | Shared::Challenge(_)) | Err(_) => {}
        }
    }
}

fn base64_bytes(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .expect("our own link decodes")
}

fn rebase64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn hostile_and_broken_links_are_refused_with_a_reason() {
    let good = encode(&Shared::Scenario {
        scenario: WholeScenario::of(&BatchSpec::reference(3).scenario()),
        step: 1,
    });
    assert!(decode(&good).is_ok());
    for hostile in [
        "<script>alert(1)</script>",
        "javascript:alert(1)",
        "\"><img src=x onerror=alert(1)>",
        "",
        "%3Cscript%3E",
    ] {
        assert_eq!(
            decode(hostile).unwrap_err(),
            ShareError::Malformed,
            "{hostile}"
        );
    }
    // Cut short: the deflate stream ends early.
    assert_eq!(
        decode(&good[..good.len() / 2]).unwrap_err(),
        ShareError::Malformed
    );
    // Another version.
    let mut bytes = base64_bytes(&good);
    bytes[0] = SHARE_VERSION + 1;
    assert_eq!(
        decode(&rebase64(&bytes)).unwrap_err(),
        ShareError::WrongVersion {
            found: SHARE_VERSION + 1,
            expected: SHARE_VERSION
        }
    );
    // Oversized text, and a small link that inflates past the limit.
    let long = "A".repeat(LINK_CHARS_MAX + 1);
    assert!(matches!(decode(&long), Err(ShareError::TooLong { .. })));
    let mut bomb = vec![SHARE_VERSION];
    bomb.extend(miniz_oxide::deflate::compress_to_vec(
        &vec![0u8; 4 << 20],
        9,
    ));
    assert!(rebase64(&bomb).len() < LINK_CHARS_MAX);
    assert!(matches!(
        decode(&rebase64(&bomb)),
        Err(ShareError::TooLarge { .. })
    ));
    // A scenario the engine would refuse is refused by the decoder.
    let mut invalid = BatchSpec::reference(3).scenario();
    invalid.workers.clear();
    let link = encode(&shared_scenario(&invalid, 1));
    assert!(matches!(decode(&link), Err(ShareError::Invalid(_))));
    // A design's changes that break the engine's rules are refused when applied.
    let changes = Changes::Edits {
        switches: Vec::new(),
        faults: Some(vec![Fault {
            fault: FaultKind::Crash,
            at: Action::Receive,
            nth: Some(1),
            worker: Some("nobody".into()),
            chance_permille: None,
        }]),
        schedule: None,
    };
    assert!(matches!(
        changes.apply(&BatchSpec::reference(3).scenario()),
        Err(ShareError::Invalid(_))
    ));
}

/// The lengths the issue sets: a lesson with flipped switches under 200 characters (the whole
/// address), a 10-record scenario under 1,000 (its code). Printed for the notes.
#[test]
fn links_stay_short() {
    let mut longest = (0, String::new());
    for (id, design, original) in designs() {
        // Every switch of the design flipped, and its first fault taken out: more than a
        // learner changes at once.
        let mut changed = original.clone();
        for &switch in original.workflow.switches() {
            changed = switch.set(&changed, !switch.get(&changed));
        }
        if !changed.faults.is_empty() {
            changed.faults.remove(0);
        }
        // A design whose own program calls what a flipped switch takes away (a lookup on a
        // provider without one) is refused by the engine: no page can share it.
        if changed.validate().is_err() {
            continue;
        }
        let code = encode(&Shared::Lesson {
            design,
            changes: Changes::between(&original, &changed),
        });
        let address = lesson_address(&id, 99, &code);
        if address.len() > longest.0 {
            longest = (address.len(), address);
        }
    }
    println!(
        "longest lesson address with every switch flipped: {} characters: {}",
        longest.0, longest.1
    );
    assert!(longest.0 < 200, "{longest:?}");
    let one = encode(&Shared::Lesson {
        design: 0,
        changes: Changes::Edits {
            switches: vec![(Switch::ProviderDedup, true)],
            faults: None,
            schedule: None,
        },
    });
    println!(
        "lost-reply with one switch flipped: {}",
        lesson_address("lost-reply", 9, &one)
    );
    let ten = BatchSpec::reference(10).scenario();
    let code = encode(&shared_scenario(&ten, 1));
    println!("a generated 10-record scenario: {} characters", code.len());
    assert!(code.len() < 1_000, "{}", code.len());
    // Every lesson design written by hand, none from the generator: the longest.
    let longest = designs()
        .into_iter()
        .map(|(id, _, scenario)| {
            let code = encode(&shared_scenario(&scenario, 1));
            (code.len(), id, scenario.operations.len())
        })
        .max()
        .expect("lessons");
    println!(
        "the longest lesson design as a sandbox scenario: {} characters ({}, {} records)",
        longest.0, longest.1, longest.2
    );
    assert!(longest.0 < 1_000, "{longest:?}");
}

/// Links made by format 1 (a scenario as its JSON), as the lab wrote them before format 2: they
/// are in the wild, and still open to the same state.
#[test]
fn links_of_the_first_format_still_open() {
    const SCENARIO: &str = "AZWVWY7bMAyGUaCvvQSfM0X2xVcZDARZpjMa25KrJWkQ5Ao9c0kn9sQew8DkIQt_fr9IRaJ__Pt1BY-YQbKbwdm6Ii_tGRJw6NGdEGaQoddHA8mVYsoapUuEJLiIM6B3H4SxQeQ2mqwNF3ghB2-jUyh0Rh5npwNREGtyDRSIRv-JnY96R1WIXDsfIMll6SlWSVcImQd0bZaXFYrgpPFSBW1NFy90LXxUitrArghqIFbdCiTEWlgjHpW09UtVfC7gMLgLNypDwKoOXlTyLySLGWCpjzrlxl-BJeskZb6xbykvIpWeKtOq8E12Sq42z6lf2i8fpOGOP3RoegFjzX1bmVSybsHtmoMyK7XpzOYzoCx07Hu7zaB29qQztrneW_os_QNVEOpdmiNmopaX0spsoFIpIZIVrOcHaNpFwxv5vJq1BW0UZZb4JXy3ozJsjU4ySerrFegvTgBP4WVOrt3StI0VnYrQGETf9M4flEWtPFGLcWrRpxYDajlOLfvUckCtxqlVn1oNqPU4te5T6wG1Gac2fWozoLbj1LZPbQfUbpza9andgNqPU_s-tR9Qh3Hq0KcORL3dR0pzfumcGMkX8hF6kXwE4-MI2frpCPFASTG3jrLnvHSnLifV9aS6nVT3X9Q31vslp6MlLyaNV5PqZlLdTaqHkZJpx3MZy3AvsflK2aWl-eSwLi-ESI60g-S3j2mleT7x6KBxTTe70iVPuk2zWmuRRv9NmErxNNizyL-vUGh-QIDjB4VwNtUGaJL4gDUPQbq4c37dfv4H";
    const LESSON: &str = "AWNgZGBkAmJGAA";
    const WHOLE: &str = "AZVTS3LbMAxNdz0H1krH9qTtVFfJeDgQBTmMKJLlx67H48v1ZAEkS7ETb-KFJQF4j-8B4MPDt__fT5CIWqh_V3Dwse-sP0ANkRLFPUEFLSWzc1CfOKa908YS1DkWqoD_U1bOZ9X54to53NORGZIvUZMyLXMcosmMghKYNXOgOPO3LDz6hXSvOhNThrpDmzg2YOwVdpniXJVwIJUjuoQ6G--WeG-CSkVrtkGLCDZQhuUETpSgvFMXJbN-1P37AZFyPIpRzJmGkJMa8B_U6wrImp1pxPgzSMpH5Mqt8Fo8qgYTKzO6T2N1w6y-69gv9ytldOL41eTRCzjvprYKUmOYgb-eJIitNW4hW1XAVRSF93yuIES_N63QnCZL79JfSWelX9DtqFUBj9Zj-yHLUnJhKnha_YHRLjlp5PVp3vfcKK609Ck80bEMHyiiIDn7fAIecQ20z48rZl2O5jYOvBV5JChp9C4PrmIrV6j1fdT6FrX-gNrcR21uURtGbafFHrvIah3KWlxCjyiNKBcjPlwZkbVuqPORq1dy9JLdfMpuJX9L3NwlXt-Bsr4Oi81T6fjK1dbzTkUK9sgQlMg8_B-pNIORnZJx8xXjaQzGynb-HIXOFE1JXwSzlMSXsS3yfYLeyKWGKJdbRd8YBzz9lCnI4nKzV_I7vwE";
    assert_eq!(base64_bytes(SCENARIO)[0], 1, "a format 1 link");
    assert_eq!(
        decode(SCENARIO),
        Ok(Shared::Scenario {
            scenario: WholeScenario::of(&BatchSpec::reference(10).scenario()),
            step: 4
        })
    );
    assert_eq!(
        decode(LESSON),
        Ok(Shared::Lesson {
            design: 1,
            changes: Changes::Edits {
                switches: vec![(Switch::ProviderDedup, true)],
                faults: None,
                schedule: Some(Order::RoundRobin),
            }
        })
    );
    let Ok(Shared::Lesson { changes, .. }) = decode(WHOLE) else {
        panic!("the whole-scenario lesson link decodes");
    };
    let any = BatchSpec::reference(1).scenario();
    assert_eq!(changes.apply(&any), Ok(BatchSpec::reference(3).scenario()));
}

/// A generated batch of any size the sandbox makes fits a link, with a few records edited by
/// hand; 10,000 records that all differ from the generator's do not, and say so by their length.
#[test]
fn generated_scenarios_of_any_size_fit() {
    for records in [1, 10, 1_000, 10_000, OPERATIONS_MAX] {
        let batch = BatchSpec::reference(records).scenario();
        let code = encode(&shared_scenario(&batch, 40_000));
        println!(
            "a generated {records}-record scenario: {} characters",
            code.len()
        );
        assert!(code.len() < 300, "{records}: {}", code.len());
        let Ok(Shared::Scenario { scenario, .. }) = decode(&code) else {
            panic!("decodes")
        };
        assert_eq!(scenario.read(), Ok(batch));
    }
    let mut edited = BatchSpec::reference(10_000).scenario();
    for n in 0..20 {
        edited.operations[n * 497].payload = [("amount".to_string(), Scalar::Int(n as i64))].into();
    }
    let code = encode(&shared_scenario(&edited, 1));
    println!(
        "a generated 10,000-record scenario with 20 payloads edited: {} characters",
        code.len()
    );
    assert!(code.len() < 1_000, "{}", code.len());
    let mut different = BatchSpec::reference(10_000).scenario();
    for (index, operation) in different.operations.iter_mut().enumerate() {
        operation.payload.insert(
            "note".into(),
            Scalar::Text(format!("hand-{}", index * 7919 % 10_007)),
        );
    }
    let shared = shared_scenario(&different, 1);
    let code = encode(&shared);
    println!("10,000 hand-different payloads: {} characters", code.len());
    assert!(code.len() > LINK_CHARS_MAX, "{}", code.len());
    assert!(matches!(
        encode_within(&shared),
        Err(ShareError::TooLong { .. } | ShareError::TooLarge { .. })
    ));
}

/// A link whose scenario names more records than a link may hold is refused before the
/// generator makes them.
#[test]
fn a_link_cannot_ask_for_millions_of_records() {
    let huge = BatchSpec::reference(OPERATIONS_MAX + 1).scenario();
    let shared = shared_scenario(&huge, 1);
    assert!(
        matches!(encode_within(&shared), Err(ShareError::Invalid(_))),
        "not made"
    );
    let code = encode(&shared);
    assert!(
        matches!(decode(&code), Err(ShareError::Invalid(message)) if message.contains("operations"))
    );
}

/// Every build task's reference and start, as a board in a link, come back whole: the board
/// travels in postcard, where a program is its text form.
#[test]
fn a_board_in_a_link_round_trips() {
    let mut boards = 0;
    for lesson in &course().lessons {
        for (part, step) in lesson.steps.iter().enumerate() {
            let Some(lab_course::Task::Build(build)) = &step.try_it else {
                continue;
            };
            let start = lab_engine::Program {
                lines: build
                    .start
                    .iter()
                    .map(|placed| lab_engine::Line {
                        block: placed.block,
                        depth: placed.depth,
                    })
                    .collect(),
            };
            for board in [build.reference.clone(), start] {
                let shared = Shared::Built {
                    part: part as u32,
                    design: None,
                    board,
                };
                let code = encode(&shared);
                assert_eq!(decode(&code), Ok(shared), "{} part {}", lesson.id, part + 1);
                boards += 1;
            }
        }
    }
    assert!(boards >= 2, "the course has build tasks");
}
