//! What the engine's scenario tests share: a scenario from TOML text, its run, where an invariant
//! breaks in it, and whether every one holds.

use lab_engine::{Engine, Invariant, Scenario, Trace};

pub fn scenario(text: &str) -> Scenario {
    toml::from_str(text).unwrap_or_else(|error| panic!("scenario parses: {error}"))
}

pub fn run(text: &str) -> Trace {
    Engine::run(scenario(text)).expect("scenario runs")
}

/// The event at which `invariant` breaks, if it does.
pub fn broken(trace: &Trace, invariant: Invariant) -> Option<u32> {
    trace
        .verdicts
        .iter()
        .find(|verdict| verdict.invariant == invariant)
        .and_then(|verdict| verdict.broken_at)
}

/// Every invariant holds throughout the run.
pub fn all_hold(trace: &Trace) -> bool {
    trace
        .verdicts
        .iter()
        .all(|verdict| verdict.broken_at.is_none())
}
