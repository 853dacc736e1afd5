//! A retry budget per client (`retry_ratio_permille`, the switch `retry_budget`): against a
//! provider that is busy on every submit, ten reservations of three attempts put thirty submits on
//! it; with retries held to 10% of each client's requests, eleven. The budget is per worker, it
//! counts only the runs' later submits as retries, and the same scenario gives the same trace.

use lab_engine::{Budget, Engine, Explorer, Scenario, Switch, Trace};

/// `clients` workers, each reserving `runs` operations of its own against a provider that is
/// busy on every submit, three attempts each; the budget in thousandths.
fn overloaded(clients: u32, runs: u32, ratio_permille: u32) -> Scenario {
    let operations: Vec<String> = (0..clients * runs)
        .map(|index| format!(r#"{{"id":"OP-{index}"}}"#))
        .collect();
    let workers: Vec<String> = (0..clients)
        .map(|client| {
            let runs: Vec<String> = (0..runs)
                .map(|run| format!(r#"{{"op":"OP-{}"}}"#, client * runs + run))
                .collect();
            format!(
                r#"{{"name":"client-{client}","runs":[{}]}}"#,
                runs.join(",")
            )
        })
        .collect();
    let text = format!(
        r#"{{"workflow":"reserve","step_cap":5000,
            "switches":{{"reconcile":false,"retry":{{"attempts_max":3,"delay_base_ticks":1,
                "retry_ratio_permille":{ratio_permille}}}}},
            "operations":[{}],"workers":[{}],
            "faults":[{{"fault":"busy","at":"provider.submit"}}]}}"#,
        operations.join(","),
        workers.join(",")
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
fn a_ten_percent_budget_holds_the_retries_to_one_in_ten_requests() {
    assert_eq!(submits(&run(overloaded(1, 10, 0))), 30);
    let budgeted = run(overloaded(1, 10, 100));
    assert_eq!(submits(&budgeted), 11);
    let ledger = &budgeted.state_at(budgeted.len()).counts.retry_ledger;
    let (_, client) = ledger.iter().next().expect("the client's ledger");
    assert_eq!((client.requests, client.retries), (10, 1));
    // The one retry comes when the tenth request has been made, not before.
    let results = &budgeted.results()[0].1;
    assert_eq!(results.len(), 10);
    assert!(
        results.iter().all(|result| result == "gave_up"),
        "{results:?}"
    );
}

#[test]
fn the_budget_is_each_clients_own() {
    // Two clients of five requests each: neither reaches ten, so neither may retry at all.
    assert_eq!(submits(&run(overloaded(2, 5, 100))), 10);
    // Half of the requests may be retried: two retries per client of five.
    assert_eq!(submits(&run(overloaded(2, 5, 500))), 14);
}

#[test]
fn no_budget_keeps_no_ledger_and_the_switch_sets_ten_percent() {
    let plain = run(overloaded(1, 3, 0));
    assert!(plain.state_at(plain.len()).counts.retry_ledger.is_empty());
    let scenario = Switch::RetryBudget.set(&overloaded(1, 3, 0), true);
    assert_eq!(scenario.switches.retry.retry_ratio_permille, 100);
    assert!(Switch::RetryBudget.get(&scenario));
    assert!(!Switch::RetryBudget.get(&Switch::RetryBudget.set(&scenario, false)));
}

#[test]
fn a_budgeted_run_is_deterministic_and_explorable() {
    let first = serde_json::to_string(&run(overloaded(2, 5, 500))).unwrap();
    let second = serde_json::to_string(&run(overloaded(2, 5, 500))).unwrap();
    assert_eq!(first, second);
    let budget = Budget {
        faults_max: 1,
        preemptions_max: 1,
        ..Budget::default()
    };
    let report = Explorer::run(overloaded(2, 2, 500), budget).expect("the scenario is valid");
    assert!(report.extent.complete);
}

#[test]
fn a_ratio_above_one_is_refused() {
    let error = Engine::run(overloaded(1, 1, 1001)).unwrap_err().to_string();
    assert!(
        error
            .contains("switches.retry.retry_ratio_permille is 1001; it must be between 0 and 1000"),
        "{error}"
    );
}
