//! A request body written another way (`runs[].body`: the same fields in another order, with
//! spaces): a design that compares canonical JSON sees the same order and answers
//! `already_verified`; one that compares the raw bytes (`switches.canonical_payload = false`)
//! refuses a harmless retry as a changed order. Validation holds a body to its payload.

use lab_engine::{Engine, Scenario, ScenarioError, Switch};

fn scenario(body: &str, canonical: bool) -> Scenario {
    let text = format!(
        r#"
workflow = "reserve"
[switches]
canonical_payload = {canonical}
[[operations]]
id = "OP-001"
payload = {{ item = "practice-notebook", quantity = 1 }}
[[workers]]
name = "coordinator"
runs = [{{ op = "OP-001" }}, {{ op = "OP-001", not_before = 20, body = '{body}' }}]
"#
    );
    toml::from_str(&text).expect("the scenario reads")
}

const REWRITTEN: &str = r#"{"quantity": 1, "item": "practice-notebook"}"#;

fn results(scenario: Scenario) -> Vec<String> {
    let trace = Engine::run(scenario).expect("the scenario is valid");
    assert!(trace.first_broken().is_none(), "every invariant holds");
    trace.results().remove(0).1
}

#[test]
fn canonical_comparison_takes_a_rewritten_body_for_the_same_order() {
    assert_eq!(
        results(scenario(REWRITTEN, true)),
        ["verified", "already_verified"]
    );
}

#[test]
fn raw_comparison_refuses_a_harmless_retry_as_a_changed_order() {
    let raw = results(scenario(REWRITTEN, false));
    assert_eq!(raw[0], "verified");
    assert_ne!(raw[1], "already_verified", "{raw:?}");
    // Written exactly as the canonical text, the raw bytes agree again.
    let same = r#"{"item":"practice-notebook","quantity":1}"#;
    assert_eq!(
        results(scenario(same, false)),
        ["verified", "already_verified"]
    );
}

#[test]
fn the_switch_is_offered_only_where_a_body_is_written_another_way() {
    let with_body = scenario(REWRITTEN, true);
    assert!(Switch::CanonicalPayload.applies(&with_body));
    let mut without = with_body.clone();
    without.workers[0].runs[1].body = None;
    assert!(!Switch::CanonicalPayload.applies(&without));
    let flipped = Switch::CanonicalPayload.set(&with_body, false);
    assert!(!Switch::CanonicalPayload.get(&flipped));
}

#[test]
fn a_body_that_means_another_payload_is_refused_with_its_run() {
    let error = scenario(r#"{"quantity": 2, "item": "practice-notebook"}"#, true)
        .validate()
        .unwrap_err();
    assert!(
        matches!(error, ScenarioError::BadBody { run: 2, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("coordinator"), "{error}");
    assert!(error.to_string().contains("\"quantity\":1"), "{error}");
    for (body, words) in [
        ("not json", "is not JSON"),
        ("[1, 2]", "must be a JSON object"),
        (r#"{"item": [1]}"#, "a boolean, a whole number or a string"),
        (r#"{"quantity": 1.5}"#, "numbers are whole"),
    ] {
        let error = scenario(body, true).validate().unwrap_err().to_string();
        assert!(error.contains(words), "{body}: {error}");
    }
}

#[test]
fn the_default_writes_no_new_field() {
    let text = serde_json::to_string(&scenario(REWRITTEN, true).switches).unwrap();
    assert!(!text.contains("canonical_payload"), "{text}");
    let raw = serde_json::to_string(&scenario(REWRITTEN, false).switches).unwrap();
    assert!(raw.contains("\"canonical_payload\":false"), "{raw}");
}
