//! The engine's cost is linear in the work: checked on sizes that do not depend on the machine
//! (bytes and counts, never time; `make bench` prints the times).

use lab_engine::{BatchSpec, Engine};

/// The serialized trace and the number of events of the reference batch at `records`.
fn trace_of(records: u32) -> (usize, u32) {
    let trace = Engine::run(BatchSpec::reference(records).scenario()).expect("valid");
    let json = serde_json::to_string(&trace).expect("a trace serializes");
    (json.len(), trace.len())
}

#[test]
fn a_trace_grows_with_events_and_records_not_their_product() {
    let (small_bytes, small_events) = trace_of(100);
    let (large_bytes, large_events) = trace_of(1_000);
    let per_item =
        |bytes: usize, events: u32, records: u32| bytes as f64 / f64::from(events + records);
    let small = per_item(small_bytes, small_events, 100);
    let large = per_item(large_bytes, large_events, 1_000);
    // A copy of the world per event (format 1) made this ratio about 10 here.
    assert!(
        large / small < 1.25,
        "bytes per event and record: {small:.0} at 100 records, {large:.0} at 1,000"
    );
}

#[test]
fn seeking_rebuilds_the_same_state_from_any_checkpoint() {
    let trace = Engine::run(BatchSpec::reference(300).scenario()).expect("valid");
    // Walking forward one event at a time and jumping straight there agree everywhere.
    let mut engine = Engine::new(BatchSpec::reference(300).scenario()).expect("valid");
    let mut cursor = 0;
    while let Some(event) = engine.step() {
        cursor = event.index;
        if cursor % 97 == 0 || cursor == trace.len() {
            assert!(
                *engine.world() == trace.state_at(cursor),
                "state after event {cursor}"
            );
        }
    }
    assert_eq!(cursor, trace.len());
    assert!(trace.state_at(trace.len() + 5) == trace.state_at(trace.len()));

    // A trace read back from JSON rebuilds its checkpoints by replaying its events: it seeks to
    // the same states as the run's own, which took them from the live world.
    let json = serde_json::to_string(&trace).expect("serializes");
    let read: lab_engine::Trace = serde_json::from_str(&json).expect("reads back");
    for cursor in (0..=trace.len()).step_by(89) {
        assert!(
            read.state_at(cursor) == trace.state_at(cursor),
            "after event {cursor}"
        );
    }
}
