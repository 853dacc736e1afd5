//! The source documents' own examples and test lists, as engine scenarios.

use lab_engine::{Action, Engine, Invariant, JobStatus, Schedule, Trace};

mod scenarios;

use scenarios::{all_hold, broken, run, scenario};

fn last(trace: &Trace) -> lab_engine::World {
    trace.state_at(trace.len())
}

// ---- seed 000 ----

const NOTIFY_TWICE: &str = r#"
workflow = "notify"
[[operations]]
id = "1"
[[workers]]
name = "worker"
runs = [{ op = "1" }, { op = "1" }]
"#;

/// 000: `test_idempotency_tracker_prevents_duplicate_action`: not done, mark, done.
#[test]
fn tracker_remembers_completed_operations() {
    let trace = run(NOTIFY_TWICE);
    let checks: Vec<String> = trace
        .events
        .iter()
        .filter(|event| event.action == Action::TrackerCheck)
        .map(|event| event.label_text(&event.messages[1]))
        .collect::<Vec<String>>();
    assert_eq!(checks, vec!["not done", "done"]);
    assert!(last(&trace).tracker.contains_key("notify:1"));
    assert_eq!(last(&trace).sink_effects("notification", "1"), 1);
    assert!(all_hold(&trace));
}

#[test]
fn without_the_tracker_the_retry_notifies_twice() {
    let mut unguarded = scenario(NOTIFY_TWICE);
    unguarded.switches.tracker = false;
    let trace = Engine::run(unguarded).unwrap();
    assert_eq!(last(&trace).sink_effects("notification", "1"), 2);
    assert!(broken(&trace, Invariant::OneEffect).is_some());
}

/// 000: the window that remains: a crash between the effect and mark_done.
#[test]
fn a_crash_between_send_and_mark_done_still_duplicates() {
    let mut text = scenario(NOTIFY_TWICE);
    text.workers[0].runs.truncate(1);
    text.faults = vec![toml::from_str(
        r#"fault = "crash"
at = "tracker.mark"
nth = 1"#,
    )
    .unwrap()];
    let trace = Engine::run(text.clone()).unwrap();
    assert_eq!(
        last(&trace).sink_effects("notification", "1"),
        2,
        "the window the source says cannot be closed"
    );
    // Marking before the effect trades the duplicate for a lost notification.
    text.switches.mark_after = false;
    text.faults[0].at = Action::SinkSend;
    let trace = Engine::run(text).unwrap();
    assert_eq!(last(&trace).sink_effects("notification", "1"), 0);
    assert!(broken(&trace, Invariant::NoSuccessWithoutEffect).is_some());
}

const WRITE_RETRY: &str = r#"
workflow = "write_result"
switches = { write = "insert", unique = false }
[[operations]]
id = "42"
payload = { output = "done" }
[[workers]]
name = "worker"
runs = [{ op = "42" }, { op = "42" }]
[[faults]]
fault = "lose_reply"
at = "table.write"
nth = 1
"#;

/// 000: a plain INSERT retried after a lost acknowledgment duplicates; UPSERT with UNIQUE does not;
/// UPSERT without UNIQUE degrades to a plain insert.
#[test]
fn insert_duplicates_upsert_needs_the_unique_constraint() {
    let trace = run(WRITE_RETRY);
    assert_eq!(last(&trace).table.rows.len(), 2);
    assert!(broken(&trace, Invariant::OneEffect).is_some());

    let mut upsert = scenario(WRITE_RETRY);
    upsert.switches.write = lab_engine::WriteMode::Upsert;
    upsert.switches.unique = true;
    let trace = Engine::run(upsert.clone()).unwrap();
    assert_eq!(last(&trace).table.rows.len(), 1);
    assert!(all_hold(&trace));

    upsert.switches.unique = false;
    let trace = Engine::run(upsert).unwrap();
    assert_eq!(
        last(&trace).table.rows.len(),
        2,
        "ON CONFLICT has nothing to detect a conflict against"
    );
    assert!(broken(&trace, Invariant::OneRowPerKey).is_some());
}

/// 000: two workers both check, both see nothing, both insert.
#[test]
fn check_then_insert_races_without_unique() {
    let text = r#"
workflow = "write_result"
switches = { write = "insert", unique = false, check_first = true }
schedule = { kind = "round_robin" }
[[operations]]
id = "42"
[[workers]]
name = "worker-a"
runs = [{ op = "42" }]
[[workers]]
name = "worker-b"
runs = [{ op = "42" }]
"#;
    let trace = run(text);
    assert_eq!(last(&trace).table.rows.len(), 2);
    let mut safe = scenario(text);
    safe.switches.unique = true;
    let trace = Engine::run(safe).unwrap();
    assert_eq!(last(&trace).table.rows.len(), 1);
    assert!(trace
        .results()
        .iter()
        .any(|(_, results)| results.contains(&"conflict".to_string())));
}

const PIPELINE: &str = r#"
workflow = "pipeline"
[[operations]]
id = "0"
[[operations]]
id = "1"
[[operations]]
id = "2"
[[workers]]
name = "batch"
runs = [{ op = "0" }, { op = "1" }, { op = "2" }, { op = "0" }, { op = "1" }, { op = "2" }]
[[faults]]
fault = "busy"
at = "table.write"
nth = 2
"#;

/// The pipeline's trace lists its stages in the order an item runs them; other workflows have
/// none.
#[test]
fn the_pipeline_lists_its_stages_in_order() {
    let trace = run(PIPELINE);
    assert_eq!(
        trace.stages,
        vec!["model_call", "downstream_write", "notification"]
    );
    assert!(run(NOTIFY_TWICE).stages.is_empty());
}

/// 000: `retry_item` reuses the preserved output: zero extra model calls.
#[test]
fn retry_from_preserved_output_makes_no_model_call() {
    let trace = run(PIPELINE);
    let after_first_pass = trace
        .events
        .iter()
        .filter(|event| event.action == Action::Return)
        .nth(2)
        .map(|event| trace.state_at(event.index).counts.model_calls)
        .unwrap();
    assert_eq!(after_first_pass, 3);
    assert_eq!(
        last(&trace).counts.model_calls,
        3,
        "item 1 resumed at the write with its preserved output"
    );
    assert_eq!(
        trace.results()[0].1,
        vec![
            "succeeded",
            "failed",
            "succeeded",
            "skipped",
            "succeeded",
            "skipped"
        ]
    );
    assert!(all_hold(&trace));

    let mut from_scratch = scenario(PIPELINE);
    from_scratch.switches.resume = false;
    let trace = Engine::run(from_scratch).unwrap();
    assert_eq!(
        last(&trace).counts.model_calls,
        4,
        "starting over pays for the model call again"
    );
}

/// 000: a retry batch that does not skip succeeded records re-submits them.
#[test]
fn not_skipping_succeeded_records_resubmits_them() {
    let mut no_skip = scenario(PIPELINE);
    no_skip.switches.skip_succeeded = false;
    let trace = Engine::run(no_skip.clone()).unwrap();
    assert!(broken(&trace, Invariant::NoResubmit).is_some());
    assert_eq!(last(&trace).counts.model_calls, 5);
    assert_eq!(
        last(&trace).sink_effects("notification", "0"),
        1,
        "the tracker still guards the notification"
    );
    no_skip.switches.tracker = false;
    let trace = Engine::run(no_skip).unwrap();
    assert_eq!(
        last(&trace).sink_effects("notification", "0"),
        2,
        "unguarded, it goes out twice"
    );
}

/// 002 stretch: a cancel flag between two steps: the first stays recorded, the second never begins.
#[test]
fn cancellation_between_stages_keeps_the_finished_stage() {
    let text = r#"
workflow = "pipeline"
[[operations]]
id = "0"
[[workers]]
name = "batch"
runs = [{ op = "0" }]
[[faults]]
fault = "cancel"
at = "table.write"
nth = 1
"#;
    let trace = run(text);
    let job = &last(&trace).journal["0"];
    assert_eq!(job.status, JobStatus::Cancelled);
    assert!(
        job.stages.contains_key("model_call"),
        "the completed first step remains recorded"
    );
    assert!(
        last(&trace).table.rows.is_empty(),
        "the second step does not begin"
    );
    assert_eq!(trace.results()[0].1, vec!["cancelled"]);
}

// ---- seed 004 ----

const RACE: &str = r#"
workflow = "charge"
switches = { unique = false }
[[operations]]
id = "pay-1"
payload = { amount = 20 }
[[workers]]
name = "retry-a"
runs = [{ op = "pay-1" }]
[[workers]]
name = "retry-b"
runs = [{ op = "pay-1" }]
"#;

/// Every interleaving of two workers with `steps` steps each, as explicit schedules.
fn interleavings(steps: usize) -> Vec<Vec<u8>> {
    fn go(a: usize, b: usize, prefix: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if a == 0 && b == 0 {
            out.push(prefix.clone());
            return;
        }
        for (worker, left) in [(0u8, a), (1u8, b)] {
            if left > 0 {
                prefix.push(worker);
                let (a, b) = if worker == 0 { (a - 1, b) } else { (a, b - 1) };
                go(a, b, prefix, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(steps, steps, &mut Vec::new(), &mut out);
    out
}

/// 004: two near-simultaneous retries without a unique key: two charges in some interleaving;
/// with the atomic claim: never.
#[test]
fn racing_retries_charge_twice_only_without_the_unique_key() {
    let orders = interleavings(5);
    assert_eq!(orders.len(), 252);
    let charges = |unique: bool| -> Vec<u32> {
        orders
            .iter()
            .map(|order| {
                let mut race = scenario(RACE);
                race.switches.unique = unique;
                race.schedule = Schedule::Explicit {
                    order: order.clone(),
                };
                let trace = Engine::run(race).unwrap();
                last(&trace).sink_effects("charge", "pay-1")
            })
            .collect()
    };
    let without = charges(false);
    assert!(without.contains(&2), "some interleaving charges twice");
    assert!(
        without.contains(&1),
        "and some does not: the race is about timing"
    );
    assert!(
        charges(true).iter().all(|&count| count == 1),
        "with the unique key, never"
    );
}

/// Each event names its actor's lane: two workers, each on its own, whatever their names.
#[test]
fn each_event_is_on_its_workers_lane() {
    let mut race = scenario(RACE);
    race.schedule = Schedule::RoundRobin;
    let trace = Engine::run(race).unwrap();
    for event in &trace.events {
        let expected = match event.actor.as_str() {
            "retry-a" => "worker-1",
            "retry-b" => "worker-2",
            other => panic!("event {} by {other}, who is no worker", event.index),
        };
        assert_eq!(event.lane, expected, "event {}", event.index);
    }
    let lanes: Vec<&str> = trace
        .events
        .iter()
        .map(|event| event.lane.as_str())
        .collect();
    assert!(lanes.contains(&"worker-1") && lanes.contains(&"worker-2"));
}

/// 004: a fresh key per attempt defeats the purpose, even with the unique key.
#[test]
fn a_fresh_key_per_attempt_charges_twice() {
    let mut fresh = scenario(RACE);
    fresh.switches.unique = true;
    fresh.switches.key = lab_engine::KeySource::FreshRandom;
    let trace = Engine::run(fresh).unwrap();
    assert_eq!(last(&trace).sink_effects("charge", "pay-1"), 2);
}

// ---- seed 001 ----

const BATCH: &str = r#"
workflow = "ingest"
[[operations]]
id = "evt-1"
payload = { user = "ana", amount = 5 }
[[operations]]
id = "evt-2"
payload = { user = "ben", amount = 7 }
[[operations]]
id = "evt-3"
payload = { user = "cy", amount = 9 }
[[workers]]
name = "ingester"
runs = [{ op = "evt-1" }, { op = "evt-2" }, { op = "evt-3" }]
"#;

fn rows(world: &lab_engine::World) -> Vec<(String, String)> {
    world
        .table
        .rows
        .iter()
        .map(|row| (row.key.to_string(), row.value.to_string()))
        .collect()
}

/// 001: replay the same batch twice: the data is identical, not just error-free.
#[test]
fn replaying_a_batch_gives_identical_data() {
    let once = run(BATCH);
    let mut twice = scenario(BATCH);
    let runs = twice.workers[0].runs.clone();
    twice.workers[0].runs.extend(runs);
    let twice = Engine::run(twice).unwrap();
    assert_eq!(rows(&last(&once)), rows(&last(&twice)));
    assert_eq!(last(&twice).effects.len(), 3);
    assert!(all_hold(&twice));
}

/// 001: kill the worker mid-batch: the retry completes without duplicates.
#[test]
fn killing_a_worker_mid_batch_duplicates_nothing() {
    let kill = r#"
[[faults]]
fault = "crash"
at = "sink.send"
nth = 2
"#;
    let text = format!("{BATCH}{kill}");
    let trace = run(&text);
    assert!(trace
        .events
        .iter()
        .any(|event| event.outcome_text().starts_with("crashes")));
    assert_eq!(last(&trace).table.rows.len(), 3);
    assert!(all_hold(&trace), "{:?}", trace.verdicts);

    // With an external progress counter and a plain insert, the same kill duplicates.
    let mut counter = scenario(&text);
    counter.switches.same_transaction = false;
    counter.switches.write = lab_engine::WriteMode::Insert;
    counter.switches.unique = false;
    counter.switches.tracker = false;
    counter.faults[0].at = Action::ProgressSave;
    let trace = Engine::run(counter).unwrap();
    assert_eq!(last(&trace).table.rows.len(), 4);
    assert!(broken(&trace, Invariant::OneEffect).is_some());
}

/// 001: a duplicate webhook fires one side effect.
#[test]
fn a_duplicate_delivery_fires_one_side_effect() {
    let twice = r#"
[[faults]]
fault = "deliver_twice"
at = "receive"
nth = 1
"#;
    let text = format!("{BATCH}{twice}");
    let trace = run(&text);
    assert_eq!(
        trace.results()[0].1.len(),
        4,
        "the event was delivered twice"
    );
    assert_eq!(last(&trace).sink_effects("email", "evt-1"), 1);
    let mut unguarded = scenario(&text);
    unguarded.switches.same_transaction = false;
    unguarded.switches.tracker = false;
    let trace = Engine::run(unguarded).unwrap();
    assert_eq!(last(&trace).sink_effects("email", "evt-1"), 2);
}

/// 001: an auto-increment key duplicates on retry; the source event's id does not.
#[test]
fn auto_increment_keys_duplicate_source_keys_do_not() {
    let mut retried = scenario(BATCH);
    retried.workers[0].runs.push(lab_engine::Run::of("evt-2"));
    let trace = Engine::run(retried.clone()).unwrap();
    assert_eq!(last(&trace).table_rows("evt-2"), 1);
    retried.switches.key = lab_engine::KeySource::AutoIncrement;
    let trace = Engine::run(retried).unwrap();
    assert_eq!(last(&trace).table_rows("evt-2"), 2);
    assert!(broken(&trace, Invariant::OneEffect).is_some());
    assert!(
        broken(&trace, Invariant::OneRowPerKey).is_none(),
        "each key is unique: the key itself is wrong"
    );
}

/// The tracker records the operation that marked each key, also when the key does not contain
/// the operation's id (an auto-increment key), and so does each event's change.
#[test]
fn tracker_entries_name_their_operation() {
    let mut keyed = scenario(BATCH);
    keyed.switches.key = lab_engine::KeySource::AutoIncrement;
    let trace = Engine::run(keyed).unwrap();
    let last = last(&trace);
    let entries: Vec<(&str, &str)> = last
        .tracker
        .iter()
        .map(|(key, operation)| (key.as_str(), operation.as_str()))
        .collect();
    assert_eq!(
        entries,
        vec![
            ("email:seq-1", "evt-1"),
            ("email:seq-2", "evt-2"),
            ("email:seq-3", "evt-3"),
        ]
    );
    let marks: Vec<(&str, &str)> = trace
        .events
        .iter()
        .flat_map(|event| &event.changes)
        .filter_map(|change| match change {
            lab_engine::Change::Tracker { key, operation } => {
                Some((key.as_str(), operation.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(marks, entries);
}

/// 001: a content hash that looks unique on clean data collides on real data: two different
/// events with equal content share a key, and the second is silently dropped.
#[test]
fn a_content_hash_collides_on_equal_content() {
    let mut same_content = scenario(BATCH);
    same_content.switches.key = lab_engine::KeySource::ContentHash;
    same_content.operations[1].payload = same_content.operations[0].payload.clone();
    let trace = Engine::run(same_content).unwrap();
    assert_eq!(last(&trace).table_rows("evt-2"), 0);
    assert!(broken(&trace, Invariant::NoSuccessWithoutEffect).is_some());
}

/// 001: a content hash done right, over the fields that make an event unique (here a sequence
/// number the source assigns): a redelivery matches, a look-alike payment does not. Add a
/// per-delivery field (the tick it was received at) and the redelivery no longer matches.
#[test]
fn a_hash_of_the_unique_fields_matches_redeliveries_a_received_at_does_not() {
    let mut sample = scenario(BATCH);
    sample.operations[1].payload = sample.operations[0].payload.clone();
    for (sequence, operation) in sample.operations.iter_mut().enumerate() {
        operation
            .payload
            .insert("seq".into(), lab_engine::Scalar::Int(sequence as i64));
    }
    sample.faults = vec![
        toml::from_str("fault = \"deliver_twice\"\nat = \"receive\"\nnth = 1")
            .expect("a fault rule parses"),
    ];
    sample.switches.key = lab_engine::KeySource::ContentHash;
    let trace = Engine::run(sample.clone()).unwrap();
    assert!(
        all_hold(&trace),
        "the look-alike is kept, the redelivery skipped"
    );
    assert_eq!(last(&trace).table_rows("evt-2"), 1);
    sample.switches.key = lab_engine::KeySource::HashWithReceivedAt;
    let trace = Engine::run(sample.clone()).unwrap();
    assert_eq!(
        last(&trace).table_rows("evt-1"),
        2,
        "the redelivery is written again"
    );
    assert!(broken(&trace, Invariant::OneEffect).is_some());
    assert_eq!(
        Engine::run(sample).unwrap(),
        trace,
        "the key of a delivery is a function of the scenario"
    );
}

/// 001: check the key against malformed events: two events without the source's id both get
/// the key `"None"`, and the second is dropped as done; a hash of their fields keeps both.
#[test]
fn events_without_an_id_collide_on_a_source_id_key() {
    let mut malformed = scenario(BATCH);
    malformed.operations[1].missing_id = true;
    malformed.operations[2].missing_id = true;
    let trace = Engine::run(malformed.clone()).unwrap();
    assert_eq!(last(&trace).table_rows("evt-3"), 0);
    assert!(broken(&trace, Invariant::NoSuccessWithoutEffect).is_some());
    assert!(trace
        .code
        .iter()
        .any(|line| line.contains("str(event.source_id)")));
    malformed.switches.key = lab_engine::KeySource::ContentHash;
    assert!(all_hold(&Engine::run(malformed).unwrap()));
}

/// 004: a UUID drawn once, when the intention is born, and saved: every attempt sends it, so a
/// retry after a lost reply finds the first reservation; a UUID drawn per attempt does not.
#[test]
fn a_uuid_saved_with_the_intention_survives_a_retry() {
    let mut retried = scenario(
        r#"
workflow = "reserve"
seed = 3
[[operations]]
id = "order-1"
[[operations]]
id = "order-2"
[[workers]]
name = "page"
runs = [{ op = "order-1" }, { op = "order-1" }, { op = "order-2" }]
[[faults]]
fault = "lose_reply"
at = "provider.submit"
nth = 1
"#,
    );
    retried.switches.key = lab_engine::KeySource::FreshRandom;
    assert!(broken(&Engine::run(retried.clone()).unwrap(), Invariant::OneEffect).is_some());
    retried.switches.key = lab_engine::KeySource::SavedUuid;
    let trace = Engine::run(retried.clone()).unwrap();
    assert!(all_hold(&trace));
    let keys: Vec<String> = last(&trace)
        .provider
        .iter()
        .map(|record| record.key.to_string())
        .collect();
    assert_eq!(keys.len(), 2, "one reservation per intention");
    assert_ne!(keys[0], keys[1], "a new intention draws a new key");
    assert!(keys.iter().all(|key| key.starts_with("u-")));
    retried.seed = 4;
    let other = Engine::run(retried).unwrap();
    assert_ne!(
        last(&other).provider[0].key,
        last(&trace).provider[0].key,
        "drawn from the seed, not derived from the id"
    );
}

/// 001: deduplicating on read leaves the duplicate in storage.
#[test]
fn dedup_on_read_leaves_duplicates_stored() {
    let mut on_read = scenario(BATCH);
    on_read.switches.dedup_on_write = false;
    on_read.switches.same_transaction = false;
    on_read.switches.unique = false;
    let runs = on_read.workers[0].runs.clone();
    on_read.workers[0].runs.extend(runs);
    let trace = Engine::run(on_read).unwrap();
    assert_eq!(last(&trace).table.rows.len(), 6);
    assert!(broken(&trace, Invariant::OneRowPerKey).is_some());
}

/// A charge that failed before reaching the card gives its claimed key back, so the retry
/// charges; it must not replay a result that never existed.
#[test]
fn a_failed_charge_releases_its_claim() {
    let text = r#"
workflow = "charge"
[[operations]]
id = "pay-1"
payload = { amount = 20 }
[[workers]]
name = "client"
runs = [{ op = "pay-1" }, { op = "pay-1" }]
[[faults]]
fault = "busy"
at = "sink.send"
nth = 1
"#;
    let trace = run(text);
    assert_eq!(trace.results()[0].1, vec!["failed", "charged"]);
    assert_eq!(last(&trace).sink_effects("charge", "pay-1"), 1);
    assert!(all_hold(&trace), "{:?}", trace.verdicts);
}

/// A run that needs exactly step_cap events has finished; it was not cut off.
#[test]
fn a_run_of_exactly_step_cap_events_finishes() {
    let full = run(NOTIFY_TWICE);
    let mut exact = scenario(NOTIFY_TWICE);
    exact.step_cap = full.len();
    assert_eq!(
        Engine::run(exact.clone()).unwrap().stop,
        lab_engine::Stop::Finished
    );
    exact.step_cap = full.len() - 1;
    assert_eq!(Engine::run(exact).unwrap().stop, lab_engine::Stop::StepCap);
}
