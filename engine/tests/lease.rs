//! Seed 004's stored result and its claim: a retry after the result is stored gets it replayed
//! (status and body, a decline too); a claim whose owner is gone leaves its key "in progress"
//! for good, which `eventually_answered` catches when the run ends; a lease lets a retry take
//! it over; a lease that runs out under a live owner lets both charge, unless the gateway keeps
//! the key too.

use lab_engine::{Budget, Explorer, Invariant, Property, Trace};

mod scenarios;

use scenarios::{all_hold, broken, run, scenario};

fn results(trace: &Trace) -> Vec<Vec<String>> {
    trace
        .results()
        .into_iter()
        .map(|(_, results)| results)
        .collect()
}

/// The claim version, or `claim` replaced by `claim_with_lease`, or with the gateway's key too.
fn program(claim: &str, charge: &str) -> String {
    format!(
        r#"program = """
{claim}
if_not_claimed
  if_no_stored
    return_in_progress
  return_replayed
try
  {charge}
except_send_error
  return_failed
except_timeout
  return_unknown
record_result
return_charged
""""#
    )
}

/// Worker a's first charge crashes it (after its claim); worker b retries at tick 40, after
/// the lease (30 ticks, the default) has run out.
fn crashed_owner(program: &str) -> String {
    format!(
        r#"
workflow = "charge"
schedule = {{ kind = "round_robin" }}
{program}
faults = [{{ fault = "crash", at = "sink.send", nth = 1 }}]
[switches]
lease_ticks = 30
[[operations]]
id = "pay-1"
payload = {{ amount_eur = 20 }}
[[workers]]
name = "a"
runs = [{{ op = "pay-1" }}]
[[workers]]
name = "b"
runs = [{{ op = "pay-1", not_before = 40 }}]
"#
    )
}

#[test]
fn a_retry_after_the_result_is_stored_gets_it_replayed() {
    let text = crashed_owner("").replace("faults = [", "# faults = [");
    let trace = run(&text);
    assert_eq!(results(&trace), vec![vec!["charged"], vec!["replayed"]]);
    let last = trace.events.last().expect("events");
    assert_eq!(
        last.outcome_text(),
        "returns \"replayed\": the stored result, 200 ch-1"
    );
    assert!(all_hold(&trace));
}

#[test]
fn a_decline_is_stored_and_replayed_like_a_charge() {
    let text = crashed_owner("")
        .replace("faults = [", "# faults = [")
        .replace("amount_eur = 20", "amount_eur = 20, card = \"declined\"");
    let trace = run(&text);
    assert_eq!(results(&trace), vec![vec!["declined"], vec!["replayed"]]);
    let world = trace.state_at(trace.len());
    assert_eq!(world.sink_effects("charge", "pay-1"), 0);
    assert_eq!(world.table.rows[0].value.to_string(), "402 card declined");
    let last = trace.events.last().expect("events");
    assert_eq!(
        last.outcome_text(),
        "returns \"replayed\": the stored result, 402 card declined"
    );
    assert!(all_hold(&trace));
}

#[test]
fn a_claim_whose_owner_crashed_is_never_answered() {
    let trace = run(&crashed_owner(""));
    assert_eq!(
        results(&trace),
        vec![vec!["in_progress"], vec!["in_progress"]]
    );
    assert_eq!(
        broken(&trace, Invariant::EventuallyAnswered),
        Some(trace.len()),
        "judged when the run ends, at its last event"
    );
    // The retry that judged it ran on a copy: the run's own world has no charge, and the claim.
    let world = trace.state_at(trace.len());
    assert_eq!(world.sink_effects("charge", "pay-1"), 0);
    assert_eq!(world.table.rows.len(), 1);
    assert_eq!(world.table.rows[0].value.to_string(), "in progress");
    let last = trace.events.last().expect("events");
    assert_eq!(last.broke, vec![Invariant::EventuallyAnswered]);
}

#[test]
fn with_a_lease_the_retry_takes_the_claim_over_and_charges() {
    let trace = run(&crashed_owner(&program("claim_with_lease", "charge")));
    assert_eq!(results(&trace), vec![vec!["in_progress"], vec!["charged"]]);
    assert!(all_hold(&trace));
    let takeover = trace
        .events
        .iter()
        .find(|event| event.outcome_text().contains("takes it over"))
        .expect("a takeover");
    assert_eq!(takeover.actor.to_string(), "b");
    let world = trace.state_at(trace.len());
    assert_eq!(world.sink_effects("charge", "pay-1"), 1);
    assert_eq!(world.table.rows[0].value.to_string(), "200 ch-1");
}

#[test]
fn a_lease_shorter_than_the_owner_takes_lets_two_charge_unless_the_gateway_keeps_the_key() {
    // b arrives with a, and a is slow: b claims two ticks after a, past a one-tick lease.
    let concurrent = |program: &str| {
        crashed_owner(program)
            .replace(
                "faults = [{ fault = \"crash\", at = \"sink.send\", nth = 1 }]",
                "",
            )
            .replace("lease_ticks = 30", "lease_ticks = 1")
            .replace(", not_before = 40", "")
            .replace(
                "schedule = { kind = \"round_robin\" }",
                "schedule = { kind = \"explicit\", order = [0, 0, 1, 1, 1] }",
            )
    };
    let trace = run(&concurrent(&program("claim_with_lease", "charge")));
    assert!(broken(&trace, Invariant::OneEffect).is_some());
    let trace = run(&concurrent(&program("claim_with_lease", "charge_keyed")));
    assert!(all_hold(&trace));
    let world = trace.state_at(trace.len());
    assert_eq!(world.sink_effects("charge", "pay-1"), 1);
    assert_eq!(results(&trace), vec![vec!["charged"], vec!["charged"]]);
}

#[test]
fn the_judging_retry_leaves_the_run_deterministic() {
    for program in ["", &program("claim_with_lease", "charge")] {
        let text = crashed_owner(program).replace("round_robin", "seeded");
        let one = serde_json::to_string(&run(&text)).expect("serializes");
        let two = serde_json::to_string(&run(&text)).expect("serializes");
        assert!(one == two, "two runs of one scenario differ");
    }
}

fn explore(text: &str, kinds: &str) -> lab_engine::Report {
    let kinds = kinds
        .split(',')
        .map(|kind| serde_json::from_str(&format!("\"{kind}\"")).expect("a fault"))
        .collect();
    let budget = Budget {
        kinds: Some(kinds),
        ..Budget::default()
    };
    Explorer::run(scenario(text), budget).expect("explores")
}

fn holds(report: &lab_engine::Report, property: Property) -> bool {
    report
        .properties
        .iter()
        .find(|verdict| verdict.property == property)
        .expect("a verdict per property")
        .holds
}

#[test]
fn the_explorer_finds_the_stuck_claim_and_the_lease_closes_it() {
    let answered = Property::Always(Invariant::EventuallyAnswered);
    let no_crash = crashed_owner("").replace("faults = [", "# faults = [");
    let plain = explore(&no_crash, "crash");
    assert!(plain.extent.complete);
    assert!(!holds(&plain, answered), "a crash after the claim is stuck");
    let lease = crashed_owner(&program("claim_with_lease", "charge"));
    let leased = explore(&lease, "lose_request,busy,deliver_twice,change_payload");
    assert!(leased.extent.complete);
    assert!(
        leased.counterexample.is_none(),
        "{:?}",
        leased.counterexample
    );
}

#[test]
fn an_operation_left_in_progress_is_judged_even_when_its_worker_answers_another_after() {
    let trace = run(r#"
workflow = "charge"
faults = [{ fault = "crash", at = "sink.send", nth = 1 }]
[[operations]]
id = "pay-1"
payload = { amount_eur = 20 }
[[operations]]
id = "pay-2"
payload = { amount_eur = 30 }
[[workers]]
name = "a"
runs = [{ op = "pay-1" }, { op = "pay-2" }]
"#);
    assert_eq!(results(&trace), vec![vec!["in_progress", "charged"]]);
    let verdict = trace
        .verdicts
        .iter()
        .find(|verdict| verdict.invariant == Invariant::EventuallyAnswered)
        .expect("a verdict");
    assert_eq!(verdict.broken_at, Some(trace.len()));
    assert!(verdict
        .detail
        .as_deref()
        .unwrap_or("")
        .starts_with("pay-1 never"));
}
