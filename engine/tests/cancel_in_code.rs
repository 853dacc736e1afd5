//! Cancellation read in code (`cancel_check = "in_code"`): a flag raised during a step lets that
//! step finish, and only a `check_cancel` line stops the run; without one the run goes on, and
//! `stops_when_cancelled` says so. Where the engine reads the flag before every step (the
//! default), nothing changes and the invariant does not apply.

use lab_engine::{Budget, Engine, Explorer, FaultKind, Invariant, Property, Scenario, Trace};

mod scenarios;

use scenarios::{all_hold, broken, run, scenario};

/// The seed's stretch in the pipeline: two reports in one batch, the cancel flag raised while
/// the first report's model call runs.
fn batch(check: &str, checked: &[&str], cancel_at: &str) -> String {
    let program = item(checked);
    format!(
        r#"
workflow = "pipeline"
program = """
{program}
"""
faults = [{{ fault = "cancel", at = "{cancel_at}", nth = 1 }}]
[switches]
{check}
[[operations]]
id = "report-7"
payload = {{ title = "Week 7 lab report" }}
[[operations]]
id = "report-8"
payload = {{ title = "Week 8 lab report" }}
[[workers]]
name = "batch-worker"
runs = [{{ op = "report-7" }}, {{ op = "report-8" }}]
"#
    )
}

const IN_CODE: &str = "cancel_check = \"in_code\"";

/// The item's program (each stage run, no resuming), with a `check_cancel` line before each of
/// the stages named in `checked`.
fn item(checked: &[&str]) -> String {
    let mut lines = vec!["prior_get", "try"];
    for stage in ["call_model", "save_upsert", "notify_guarded"] {
        if checked.contains(&stage) {
            lines.push("  check_cancel");
        }
        lines.push(match stage {
            "call_model" => "  call_model",
            "save_upsert" => "  save_upsert",
            _ => "  notify_guarded",
        });
    }
    lines.extend([
        "  mark_success",
        "  return_succeeded",
        "except_all",
        "  return_failed",
    ]);
    lines.join("\n")
}

/// No check at all.
const NO_CHECK: &[&str] = &[];
/// A check before every stage: a cancel during any step stops the run before the next stage.
const CHECKED: &[&str] = &["call_model", "save_upsert", "notify_guarded"];
/// One check, between the model call and the write only.
const ONE_CHECK: &[&str] = &["save_upsert"];

fn results(trace: &Trace) -> Vec<String> {
    trace
        .results()
        .into_iter()
        .flat_map(|(_, results)| results)
        .collect()
}

/// The event (1-based) of the first step taking `action`.
fn first(trace: &Trace, action: &str) -> u32 {
    let index = trace
        .events
        .iter()
        .position(|event| event.action.name() == action)
        .unwrap_or_else(|| panic!("no {action}"));
    index as u32 + 1
}

#[test]
fn a_check_stops_the_run_at_the_check_and_keeps_what_is_done() {
    let trace = run(&batch(IN_CODE, CHECKED, "model.call"));
    assert_eq!(results(&trace), ["cancelled", "not_started"]);
    // The model call the flag went up during finished: its output is kept.
    let model = &trace.events[2];
    assert_eq!(model.action.name(), "model.call");
    assert_eq!(model.fault, Some(FaultKind::Cancel));
    let stop = &trace.events[3];
    assert_eq!(
        stop.outcome_text(),
        "cancel flag seen: stops before table.write; it never begins"
    );
    // The stop points at the check itself, the line that read the flag.
    let line = stop.line.expect("the stop has a line") as usize;
    assert!(
        trace.code[line].contains("cancel_requested()"),
        "{}",
        trace.code[line]
    );
    let world = trace.state_at(trace.len());
    assert_eq!(world.counts.model_calls, 1);
    assert_eq!(world.table.rows.len(), 0);
    assert_eq!(world.effects.len(), 0);
    let row = world.journal.get("report-7").expect("a row for report-7");
    assert_eq!(row.status.name(), "cancelled");
    assert!(row.stages.contains_key("model_call"), "{:?}", row.stages);
    assert!(world.journal.get("report-8").is_none());
    assert!(all_hold(&trace));
}

#[test]
fn without_a_check_the_run_goes_on_and_the_invariant_breaks() {
    let trace = run(&batch(IN_CODE, NO_CHECK, "model.call"));
    // The run finishes its item; only the next item's arrival reads the flag.
    assert_eq!(results(&trace), ["succeeded", "not_started"]);
    let write = first(&trace, "table.write");
    assert_eq!(broken(&trace, Invariant::StopsWhenCancelled), Some(write));
    let verdict = trace
        .verdicts
        .iter()
        .find(|verdict| verdict.invariant == Invariant::StopsWhenCancelled)
        .expect("a verdict");
    assert_eq!(
        verdict.detail.as_deref(),
        Some("report-7's table.write began after the cancel flag went up: no check stopped it")
    );
}

#[test]
fn one_check_before_the_write_misses_a_cancel_during_the_write() {
    let before_write = run(&batch(IN_CODE, ONE_CHECK, "model.call"));
    assert!(all_hold(&before_write));
    let during_write = run(&batch(IN_CODE, ONE_CHECK, "table.write"));
    assert_eq!(results(&during_write), ["succeeded", "not_started"]);
    let send = first(&during_write, "sink.send");
    assert_eq!(
        broken(&during_write, Invariant::StopsWhenCancelled),
        Some(send)
    );
    let checked = run(&batch(IN_CODE, CHECKED, "table.write"));
    assert_eq!(results(&checked), ["cancelled", "not_started"]);
    assert!(all_hold(&checked));
}

/// The explorer, given the cancel among its kinds, finds the missing check and clears the
/// checked program.
#[test]
fn the_explorer_judges_every_placement_of_the_cancel() {
    let budget = Budget {
        faults_max: 1,
        preemptions_max: 0,
        kinds: Some(vec![FaultKind::Cancel]),
        ..Budget::default()
    };
    let judge = |program: &[&str]| {
        let mut unfaulted = scenario(&batch(IN_CODE, program, "model.call"));
        unfaulted.faults.clear();
        let mut explorer = Explorer::new(unfaulted, budget.clone()).expect("explorable");
        while !explorer.advance(100_000) {}
        let report = explorer.report();
        report
            .properties
            .into_iter()
            .find(|verdict| verdict.property == Property::Always(Invariant::StopsWhenCancelled))
            .expect("a verdict")
    };
    let missing = judge(NO_CHECK);
    assert!(missing.applies && !missing.holds);
    assert!(!judge(ONE_CHECK).holds);
    assert!(judge(CHECKED).holds);
}

/// Where the engine reads the flag before every step, the run stops before the write with no
/// check in the code, exactly as before the setting existed, and the invariant does not apply.
#[test]
fn every_step_is_the_default_and_unchanged() {
    let default = scenario(&batch("", NO_CHECK, "model.call"));
    let explicit = scenario(&batch(
        "cancel_check = \"every_step\"",
        NO_CHECK,
        "model.call",
    ));
    assert_eq!(default, explicit);
    let trace = Engine::run(default.clone()).expect("runs");
    assert_eq!(results(&trace), ["cancelled", "not_started"]);
    // The model call never began: the engine stopped the run before it.
    assert_eq!(trace.state_at(trace.len()).counts.model_calls, 0);
    assert!(!Invariant::StopsWhenCancelled.applies(&default));
    let in_code = scenario(&batch(IN_CODE, NO_CHECK, "model.call"));
    assert!(Invariant::StopsWhenCancelled.applies(&in_code));
    assert!(trace.code.iter().any(|line| line.contains("between steps")));
    let code = Engine::run(in_code).expect("runs").code;
    assert!(!code.iter().any(|line| line.contains("between steps")));
    assert!(code.iter().any(|line| line.contains("read only at")));
}

#[test]
fn a_check_in_a_scenario_that_checks_every_step_is_refused_with_its_line() {
    let text = batch("", CHECKED, "model.call");
    let error = scenario(&text).validate().expect_err("refused");
    let said = error.to_string();
    assert!(said.contains("line 3"), "{said}");
    assert!(said.contains("cancel_check = \"in_code\""), "{said}");
}

#[test]
fn a_bad_value_of_the_setting_says_which_are_allowed() {
    let text = batch("cancel_check = \"sometimes\"", NO_CHECK, "model.call");
    let error = toml::from_str::<Scenario>(&text).expect_err("refused");
    let said = error.to_string();
    assert!(said.contains("cancel_check"), "{said}");
    assert!(
        said.contains("every_step") && said.contains("in_code"),
        "{said}"
    );
}
