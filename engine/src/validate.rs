//! Validation: every rule the engine relies on, checked before a scenario runs. A rule that
//! depends on what a workflow is (which faults strike where, which names its lanes take) reads
//! the workflow's declaration.

use crate::error::ScenarioError;
use crate::fault::{Action, FaultRule};
use crate::kind::WorkflowKind;
use crate::scenario::{
    canonical_json, Payload, Scenario, Schedule, ATTEMPTS_MAX, LAYERS_MAX, STEP_CAP_MAX, TICKS_MAX,
    WORKERS_MAX,
};

impl Scenario {
    /// Checks every rule the engine relies on; the first broken one is returned.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.workers.is_empty() {
            return Err(ScenarioError::NoWorkers);
        }
        unique(
            "worker",
            self.workers.iter().map(|worker| worker.name.as_str()),
        )?;
        unique(
            "operation",
            self.operations
                .iter()
                .map(|operation| operation.id.as_str()),
        )?;
        range("step_cap", self.step_cap.into(), 1, STEP_CAP_MAX.into())?;
        let retry = &self.switches.retry;
        range(
            "switches.retry.attempts_max",
            retry.attempts_max.into(),
            1,
            ATTEMPTS_MAX.into(),
        )?;
        range(
            "switches.retry.layers",
            retry.layers.into(),
            1,
            LAYERS_MAX.into(),
        )?;
        range(
            "switches.retry.retry_ratio_permille",
            retry.retry_ratio_permille.into(),
            0,
            1000,
        )?;
        // Ticks are bounded so every sum of them stays far from u32::MAX.
        let ticks = [
            ("switches.retry.delay_base_ticks", retry.delay_base_ticks),
            ("switches.retry.delay_cap_ticks", retry.delay_cap_ticks),
            ("switches.retry.deadline_ticks", retry.deadline_ticks),
            ("provider.retention_ticks", self.provider.retention_ticks),
            (
                "provider.lookup_stale_ticks",
                self.provider.lookup_stale_ticks,
            ),
        ];
        for (field, value) in ticks {
            range(field, value.into(), 0, TICKS_MAX.into())?;
        }
        if let Some(worker) = self
            .workers
            .iter()
            .find(|worker| reserved_name(&worker.name))
        {
            return Err(ScenarioError::ReservedName {
                name: worker.name.clone(),
            });
        }
        range("workers", self.workers.len() as i64, 1, WORKERS_MAX.into())?;
        if !self.switches.key.allowed_in(self.workflow) {
            return Err(ScenarioError::NoKeyOutsideReserve {
                workflow: self.workflow.name().to_string(),
            });
        }
        // Hashed: validation costs O(1) a run, so a scenario's checks grow linearly with it.
        let known: std::collections::HashMap<&str, &Payload, Hashed> = self
            .operations
            .iter()
            .map(|operation| (operation.id.as_str(), &operation.payload))
            .collect();
        for run in self.workers.iter().flat_map(|worker| &worker.runs) {
            range(
                "not_before of a run",
                run.not_before.into(),
                0,
                TICKS_MAX.into(),
            )?;
        }
        for worker in &self.workers {
            range(
                &format!("runs of worker {}", worker.name),
                worker.runs.len() as i64,
                0,
                100_000,
            )?;
            if let Some(run) = worker
                .runs
                .iter()
                .find(|run| !known.contains_key(run.op.as_str()))
            {
                // In order, as the message lists them.
                let mut known: Vec<&str> = known.keys().copied().collect();
                known.sort_unstable();
                return Err(ScenarioError::UnknownOperation {
                    worker: worker.name.clone(),
                    op: run.op.clone(),
                    known: known.join(", "),
                });
            }
        }
        check_bodies(self, &known)?;
        for rule in &self.faults {
            check_rule(self, rule)?;
        }
        crate::interpret::check_program(self)?;
        if let Schedule::Explicit { order } = &self.schedule {
            for &index in order {
                range(
                    "schedule.order entry",
                    index.into(),
                    0,
                    self.workers.len() as i64 - 1,
                )?;
            }
        }
        Ok(())
    }
}

/// A run's `body` is its payload as one caller wrote it: JSON that means exactly the payload.
fn check_bodies(
    scenario: &Scenario,
    payloads: &std::collections::HashMap<&str, &Payload, Hashed>,
) -> Result<(), ScenarioError> {
    for worker in &scenario.workers {
        for (index, run) in worker.runs.iter().enumerate() {
            let Some(body) = &run.body else { continue };
            let bad = |message: String| ScenarioError::BadBody {
                worker: worker.name.clone(),
                run: index + 1,
                message,
            };
            let read = crate::scenario::payload_of_body(body).map_err(bad)?;
            let payload = match &run.payload {
                Some(own) => own,
                // Every run's operation is known: checked before the bodies.
                None => payloads[run.op.as_str()],
            };
            if &read != payload {
                return Err(bad(format!(
                    "means {}, but the run's payload is {}: a body is the same payload written another way",
                    canonical_json(&read),
                    canonical_json(payload)
                )));
            }
        }
    }
    Ok(())
}

fn check_rule(scenario: &Scenario, rule: &FaultRule) -> Result<(), ScenarioError> {
    let workflow = scenario.workflow;
    if !workflow.faults_at(rule.at).contains(&rule.fault) {
        let allowed: Vec<&str> = workflow.actions_for(rule.fault).map(Action::name).collect();
        return Err(ScenarioError::FaultDoesNotApply {
            fault: rule.fault.name().to_string(),
            at: rule.at.name().to_string(),
            workflow: workflow.name().to_string(),
            allowed: allowed.join(", "),
        });
    }
    if let Some(worker) = &rule.worker {
        if !scenario.workers.iter().any(|plan| &plan.name == worker) {
            return Err(ScenarioError::UnknownWorker {
                fault: rule.fault.name().to_string(),
                worker: worker.clone(),
            });
        }
    }
    if let Some(nth) = rule.nth {
        range(
            &format!("nth of fault {}", rule.fault.name()),
            nth.into(),
            1,
            i64::from(u32::MAX),
        )?;
    }
    if let Some(permille) = rule.chance_permille {
        range(
            &format!("chance_permille of fault {}", rule.fault.name()),
            permille.into(),
            0,
            1000,
        )?;
    }
    Ok(())
}

fn unique<'a>(
    what: &'static str,
    names: impl Iterator<Item = &'a str>,
) -> Result<(), ScenarioError> {
    let mut seen = std::collections::HashSet::<&str, Hashed>::default();
    for name in names {
        if !seen.insert(name) {
            return Err(ScenarioError::Duplicate {
                what,
                name: name.to_string(),
            });
        }
    }
    Ok(())
}

/// The hasher of validation's sets: membership only, never iterated in an order that shows.
type Hashed = std::hash::BuildHasherDefault<std::hash::DefaultHasher>;

fn range(field: &str, value: i64, min: i64, max: i64) -> Result<(), ScenarioError> {
    if value < min || value > max {
        return Err(ScenarioError::OutOfRange {
            field: field.to_string(),
            value,
            min,
            max,
        });
    }
    Ok(())
}

/// Whether a worker may not take this name: it is the id of a lane some workflow declares
/// besides its workers, so an event's actor could be read as that lane.
pub(crate) fn reserved_name(name: &str) -> bool {
    WorkflowKind::ALL
        .iter()
        .any(|workflow| workflow.lanes().iter().any(|lane| lane.id == name))
}
