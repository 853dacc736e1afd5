//! Every design switch of every workflow round-trips and still runs: flipping it changes the
//! program or the settings the engine reads, never breaks the scenario.

use lab_engine::{Engine, Scenario, WorkflowKind};

fn scenario(workflow: WorkflowKind) -> Scenario {
    let text = format!(
        r#"{{"workflow":"{}","operations":[{{"id":"A"}}],"workers":[{{"name":"w","runs":[{{"op":"A"}},{{"op":"A"}}]}}]}}"#,
        workflow.name()
    );
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_switch_round_trips_and_runs() {
    for workflow in WorkflowKind::ALL {
        let base = scenario(workflow);
        for &switch in workflow.switches() {
            for on in [false, true] {
                let flipped = switch.set(&base, on);
                assert_eq!(switch.get(&flipped), on, "{workflow:?} {switch:?}");
                Engine::run(flipped).expect("a flipped scenario still runs");
            }
        }
    }
}
