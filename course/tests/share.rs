//! Links to a state of the lab: every state round-trips, links stay short, and no text at all
//! (random, cut, mutated, hostile) makes the decoder panic or hand back a scenario that cannot run.

use std::path::PathBuf;
use std::sync::OnceLock;

use lab_course::share::{
    decode, encode, Changes, Fault, Order, ShareError, Shared, WholeScenario, LINK_CHARS_MAX,
    SHARE_VERSION,
};
use lab_course::Course;
use lab_engine::{
    Action, BatchSpec, FaultKind, Operation, Payload, Run, Scalar, Scenario, Schedule, Switch,
    WorkerPlan, WorkflowKind,
};
use proptest::prelude::*;
use proptest::sample::{select, subsequence};

fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons");
        lab_course::authoring::load(&dir)
            .unwrap_or_else(|errors| panic!("lessons load: {errors:?}"))
            .course
    })
}

/// Every design of every lesson.
fn designs() -> Vec<(String, u32, Scenario)> {
    course()
        .lessons
        .iter()
        .flat_map(|lesson| {
            lesson
                .variants
                .iter()
                .enumerate()
                .map(|(index, variant)| (lesson.id.clone(), index as u32, variant.scenario.clone()))
        })
        .collect()
}

/// The address of a lesson's step with changes, as the app writes it.
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
                })
                .collect();
            let workers = (0..workers)
                .map(|worker| WorkerPlan {
                    name: format!("w{worker}"),
                    runs: operations
                        .iter()
                        .skip(worker)
                        .step_by(workers)
                        .map(|operation| Run {
                            op: operation.id.clone(),
                            payload: None,
                            not_before: 0,
                            key: None,
                        })
                        .collect(),
                })
                .collect();
            Scenario {
                seed,
                workflow,
                design: Default::default(),
                provider: Default::default(),
                operations,
                workers,
                faults: Vec::new(),
                schedule,
                step_cap,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_lessons_changes_round_trip(
        variant in 0u32..8,
        switches in switch_strategy(),
        faults in proptest::option::of(proptest::collection::vec(fault_strategy(), 0..6)),
        schedule in proptest::option::of(order_strategy()),
    ) {
        let shared = Shared::Lesson { variant, changes: Changes::Edits { switches, faults, schedule } };
        prop_assert_eq!(decode(&encode(&shared)), Ok(shared));
    }

    #[test]
    fn a_scenario_round_trips(scenario in scenario_strategy(), step in any::<u32>()) {
        let shared = Shared::Scenario { scenario: WholeScenario::of(&scenario), step };
        let decoded = decode(&encode(&shared)).expect("a valid scenario decodes");
        prop_assert_eq!(&decoded, &shared);
        let Shared::Scenario { scenario: whole, .. } = decoded else { unreachable!() };
        prop_assert_eq!(whole.read().expect("it reads back"), scenario);
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
        let mut changed = original.clone();
        let switches = original.workflow.switches();
        for flip in flips {
            let switch = switches[flip.index(switches.len())];
            changed = switch.set(&changed, !switch.get(&changed));
        }
        for drop in dropped {
            if !changed.faults.is_empty() {
                let at = drop.index(changed.faults.len());
                changed.faults.remove(at);
            }
        }
        if changed.workers.len() > 1 && !order.is_empty() {
            changed.schedule = Schedule::Explicit { order };
        }
        let changes = Changes::between(original, &changed);
        let shared = Shared::Lesson { variant: 0, changes };
        let Ok(Shared::Lesson { changes, .. }) = decode(&encode(&shared)) else {
            panic!("the link decodes");
        };
        prop_assert_eq!(changes.apply(original), Ok(changed));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

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
        scenario in scenario_strategy(),
        position in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
        how in 0u8..3,
    ) {
        let good = encode(&Shared::Scenario { scenario: WholeScenario::of(&scenario), step: 3 });
        let mut bytes = base64_bytes(&good);
        match how {
            0 => { let at = position.index(bytes.len()); bytes[at] = byte; }
            1 => bytes.truncate(cut.index(bytes.len())),
            _ => bytes.insert(position.index(bytes.len()), byte),
        }
        let text = rebase64(&bytes);
        match decode(&text) {
            Ok(Shared::Scenario { scenario, .. }) => prop_assert!(scenario.read().is_ok()),
            Ok(Shared::Lesson { .. }) | Err(_) => {}
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
    let link = encode(&Shared::Scenario {
        scenario: WholeScenario::of(&invalid),
        step: 1,
    });
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
    for (id, variant, original) in designs() {
        // Every switch of the design flipped, and its first fault taken out: more than a
        // learner changes at once.
        let mut changed = original.clone();
        for &switch in original.workflow.switches() {
            changed = switch.set(&changed, !switch.get(&changed));
        }
        if !changed.faults.is_empty() {
            changed.faults.remove(0);
        }
        let code = encode(&Shared::Lesson {
            variant,
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
        variant: 0,
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
    let code = encode(&Shared::Scenario {
        scenario: WholeScenario::of(&ten),
        step: 1,
    });
    println!("a 10-record scenario: {} characters", code.len());
    assert!(code.len() < 1_000, "{}", code.len());
}
