//! The words of every trace stay the same: each event's outcome and each message's label, for
//! every design of every lesson, rendered as the app and `lab run` show them, match
//! `sentences.golden.txt` (and so do those of a generated batch per workflow), a snapshot taken before events carried structured data instead of
//! text. `GOLDEN_WRITE=1 cargo test -p lab-course --features authoring --test sentences` rewrites
//! the snapshot; do it only when a sentence is meant to change.

use std::fmt::Write;
use std::path::PathBuf;

use lab_course::authoring;
use lab_engine::{chance, BatchSpec, Engine, FaultKind, Trace, WorkflowKind};

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every event as one line (`index actor action: outcome`), each message below it. The trace's
/// JSON form reads back to the same trace, outcomes and labels included.
fn sentences(trace: &Trace, out: &mut String) {
    let json = serde_json::to_string(trace).expect("a trace serializes");
    let back: Trace = serde_json::from_str(&json).expect("a trace's JSON reads back");
    assert!(
        back == *trace,
        "the trace's JSON does not read back the same"
    );
    for event in &trace.events {
        let outcome = event.outcome_text();
        assert!(!outcome.is_empty(), "event {} has no outcome", event.index);
        let _ = writeln!(
            out,
            "{} {} {}: {outcome}",
            event.index,
            event.actor,
            event.action.name()
        );
        for message in &event.messages {
            let label = event.label_text(message);
            assert!(
                !label.is_empty(),
                "a message of event {} has no label",
                event.index
            );
            let lost = if message.lost { " (lost)" } else { "" };
            let _ = writeln!(out, "    {} -> {}: {label}{lost}", message.from, message.to);
        }
    }
}

#[test]
fn every_outcome_and_label_reads_as_before() {
    let loaded = authoring::load(&here().join("../lessons")).expect("lessons load");
    let mut text = String::new();
    for lesson in &loaded.course.lessons {
        for design in &lesson.designs {
            let trace = Engine::run(lab_engine::Scenario::clone(&design.scenario))
                .expect("a lesson's scenario runs");
            let _ = writeln!(text, "== {} / {}", lesson.id, design.id);
            sentences(&trace, &mut text);
        }
    }
    // A batch per workflow with every fault it declares (but cancel) striking now and then, so
    // the sentences no lesson reaches are pinned too.
    for workflow in WorkflowKind::ALL {
        let faults = workflow
            .fault_table()
            .iter()
            .flat_map(|(action, faults)| faults.iter().map(move |fault| (*action, *fault)))
            .filter(|(_, fault)| *fault != FaultKind::Cancel)
            .map(|(action, fault)| chance(fault, action, 60))
            .collect();
        let scenario = BatchSpec {
            workflow,
            faults,
            ..BatchSpec::reference(40)
        }
        .scenario();
        let trace = Engine::run(scenario).expect("a generated batch runs");
        let _ = writeln!(text, "== batch / {}", workflow.name());
        sentences(&trace, &mut text);
    }
    let golden = here().join("tests/sentences.golden.txt");
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&golden, &text).expect("the snapshot is writable");
        return;
    }
    let expected = std::fs::read_to_string(&golden).expect("the snapshot exists");
    if text != expected {
        let line = text
            .lines()
            .zip(expected.lines())
            .position(|(got, want)| got != want)
            .unwrap_or(text.lines().count().min(expected.lines().count()));
        panic!(
            "the sentences differ from the snapshot at line {}:\n got: {:?}\nwant: {:?}",
            line + 1,
            text.lines().nth(line),
            expected.lines().nth(line)
        );
    }
}
