//! Scenarios made by rule rather than written by hand: a batch of many records, for measuring the
//! engine (`make bench`, the app's engine page) and for learners who want a scenario at scale.

use crate::fault::{Action, FaultKind, FaultRule};
use crate::kind::WorkflowKind;
use crate::scenario::{Operation, Payload, Run, Scalar, Scenario, Schedule, WorkerPlan};

/// What a generated batch looks like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchSpec {
    /// The workflow every worker runs.
    pub workflow: WorkflowKind,
    /// How many operations (records); each is run once, by one worker.
    pub records: u32,
    /// How many workers share the records, in turn (record `i` goes to worker `i % workers`).
    pub workers: u32,
    /// The seed of the run.
    pub seed: u64,
    /// Faults drawn from the seed at every occurrence of their action.
    pub faults: Vec<FaultRule>,
}

impl BatchSpec {
    /// The engine's reference load: `records` reservations over two workers in round robin,
    /// with a lost reply and a busy provider each striking 5% of submits (seed 7).
    pub fn reference(records: u32) -> BatchSpec {
        BatchSpec {
            workflow: WorkflowKind::Reserve,
            records,
            workers: 2,
            seed: 7,
            faults: vec![
                chance(FaultKind::LoseReply, Action::ProviderSubmit, 50),
                chance(FaultKind::Busy, Action::ProviderSubmit, 50),
            ],
        }
    }

    /// The scenario: operations `evt-0` … with small varied payloads, the step cap at its
    /// maximum.
    pub fn scenario(&self) -> Scenario {
        let operations = (0..self.records)
            .map(|index| {
                let mut payload = Payload::new();
                payload.insert("amount".into(), Scalar::Int(i64::from(index % 97)));
                payload.insert("user".into(), Scalar::Text(format!("user-{}", index % 31)));
                Operation {
                    id: format!("evt-{index}"),
                    payload,
                    missing_id: false,
                }
            })
            .collect();
        let workers = self.workers.max(1);
        let workers = (0..workers)
            .map(|worker| WorkerPlan {
                name: format!("worker-{}", (b'a' + (worker % 26) as u8) as char)
                    + &if worker >= 26 {
                        (worker / 26).to_string()
                    } else {
                        String::new()
                    },
                // Record `i` goes to worker `i % workers`: every `workers`-th from its own.
                runs: (worker..self.records)
                    .step_by(workers as usize)
                    .map(|index| Run::of(format!("evt-{index}")))
                    .collect(),
            })
            .collect();
        Scenario {
            seed: self.seed,
            workflow: self.workflow,
            switches: Default::default(),
            provider: Default::default(),
            operations,
            workers,
            faults: self.faults.clone(),
            schedule: Schedule::RoundRobin,
            step_cap: crate::scenario::STEP_CAP_MAX,
            program: None,
        }
    }
}

/// A fault at every occurrence of `at`, with this chance in thousandths.
pub fn chance(fault: FaultKind, at: Action, chance_permille: u16) -> FaultRule {
    FaultRule {
        fault,
        at,
        nth: None,
        worker: None,
        chance_permille: Some(chance_permille),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_batch_validates_and_runs_every_record() {
        for workers in [1, 2, 3, 30] {
            let spec = BatchSpec {
                workers,
                ..BatchSpec::reference(61)
            };
            let scenario = spec.scenario();
            scenario.validate().expect("a generated batch is valid");
            let runs: usize = scenario.workers.iter().map(|plan| plan.runs.len()).sum();
            assert_eq!(runs, 61);
            let trace = crate::Engine::run(scenario).expect("valid");
            let results: usize = trace.results().iter().map(|(_, done)| done.len()).sum();
            assert_eq!(
                results, 61,
                "every record got an answer with {workers} workers"
            );
        }
    }
}
