//! Stacked retry layers in the `reserve` workflow are real layers: against a provider that is
//! busy on every submit, L layers of A attempts put exactly A^L submits on the provider, each
//! layer paces its own retries, and an outer retry starts the inner loops afresh. Retrying at one
//! layer only puts A submits there.

use lab_engine::{Action, Engine, Scenario, Trace};

fn layered(layers: u32, attempts: u32, single_layer: bool) -> Scenario {
    let text = format!(
        r#"{{"workflow":"reserve","step_cap":20000,
            "design":{{"reconcile":false,"retry":{{"attempts_max":{attempts},"layers":{layers},
                "single_layer":{single_layer},"delay_base_ticks":1,"backoff":"exponential"}}}},
            "operations":[{{"id":"A"}}],"workers":[{{"name":"w","runs":[{{"op":"A"}}]}}],
            "faults":[{{"fault":"busy","at":"provider.submit"}}]}}"#
    );
    serde_json::from_str(&text).unwrap()
}

fn run(scenario: Scenario) -> Trace {
    Engine::run(scenario).expect("the scenario is valid")
}

fn submits(trace: &Trace) -> u32 {
    trace.state_at(trace.len()).counts.deepest_calls
}

#[test]
fn every_layer_retrying_puts_a_to_the_l_submits_on_the_provider() {
    for layers in 1..=4 {
        for attempts in 1..=4 {
            let trace = run(layered(layers, attempts, false));
            assert_eq!(submits(&trace), attempts.pow(layers), "{attempts}^{layers}");
            assert_eq!(trace.results()[0].1, vec!["gave_up".to_string()]);
            let single = run(layered(layers, attempts, true));
            assert_eq!(submits(&single), attempts, "one layer of {attempts}");
        }
    }
}

#[test]
fn each_layer_paces_its_own_retries() {
    // Exponential backoff from 1 tick, no jitter: the innermost layer sleeps 1 then 2 ticks; the
    // middle layer's first retry sleeps 1 tick and restarts the inner loop, which sleeps 1, 2
    // again. A flat loop of 9 would have slept 1, 2, 4, 8, .. instead.
    let trace = run(layered(2, 3, false));
    let sleeps: Vec<String> = trace
        .events
        .iter()
        .filter(|event| event.action == Action::Sleep)
        .map(|event| event.outcome_text())
        .collect();
    let ticks: Vec<u32> = sleeps
        .iter()
        .map(|text| {
            let digits: String = text
                .split_whitespace()
                .find(|word| word.chars().all(|c| c.is_ascii_digit()))
                .unwrap_or_else(|| panic!("a pause in ticks: {text}"))
                .into();
            digits.parse().unwrap()
        })
        .collect();
    assert_eq!(ticks, vec![1, 2, 1, 1, 2, 2, 1, 2], "{sleeps:?}");
}
