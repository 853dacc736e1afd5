//! A whole scenario in a link: its operations and workers as they differ from what the engine's
//! generator (`lab_engine::BatchSpec`) makes for as many records and workers, and everything
//! else in the engine's JSON form, as the fields that differ from the generator's. A generated
//! batch of 10,000 records takes a few dozen bytes; a batch with a few records edited by hand
//! lists only those. Read back bounded ([`OPERATIONS_MAX`], [`WORKERS_MAX`], [`RUNS_MAX`]) and
//! validated as the engine would before running it. Links (`share`) and challenges
//! (`challenge`) carry scenarios in this form.

use lab_engine::{BatchSpec, Scenario, WorkflowKind};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The most operations a link's scenario may have: the generator makes them before the scenario
/// is checked.
pub const OPERATIONS_MAX: u32 = 50_000;
/// The most workers a link's scenario may have (an explicit schedule names them by a byte).
pub const WORKERS_MAX: u32 = 256;
/// The most runs, over all workers, a link's scenario may have.
pub const RUNS_MAX: u32 = 100_000;
/// Why a link cannot be shown. Each message is for the learner; none repeats the link's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    #[error("the link is too long ({chars} characters; links of this lab are at most {max})")]
    TooLong { chars: usize, max: usize },
    #[error("the link is damaged or incomplete (it may have been cut when it was copied)")]
    Malformed,
    #[error("the link holds more than this lab reads ({max} bytes at most)")]
    TooLarge { max: usize },
    #[error("the link was made by another version of the lab (link format {found}; this lab reads format {expected})")]
    WrongVersion { found: u8, expected: u8 },
    #[error("the link names design {design}, which this lesson does not have")]
    NoSuchDesign { design: u32 },
    #[error("the link's scenario cannot run: {0}")]
    Invalid(String),
}

/// A whole scenario: its operations and workers as they differ from the generator's batch of as
/// many records over as many workers, and everything else in the engine's JSON form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WholeScenario {
    /// The scenario with no operations and no workers, as it differs from the generator's.
    settings: Settings,
    operations: Listed,
    workers: Vec<Worker>,
}

/// A list as it differs from the generator's: its length, and each item that is not the
/// generator's at its index, as the engine's JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Listed {
    len: u32,
    changed: Vec<(u32, String)>,
}

/// A scenario's settings (design, provider, faults, schedule, seed...) as they differ from the
/// generator's, in the engine's JSON form: the fields that differ, at any depth of its objects,
/// and the paths of those the generator's has and this one does not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Settings {
    changed: String,
    absent: Vec<Vec<String>>,
}

/// A worker as it differs from the generator's at its index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Worker {
    /// `None` when it is the generator's name.
    name: Option<String>,
    runs: Listed,
}

impl WholeScenario {
    pub fn of(scenario: &Scenario) -> WholeScenario {
        let batch = generated(
            scenario.operations.len() as u32,
            scenario.workers.len() as u32,
        );
        let settings = Scenario {
            seed: scenario.seed,
            workflow: scenario.workflow,
            switches: scenario.switches.clone(),
            provider: scenario.provider.clone(),
            operations: Vec::new(),
            workers: Vec::new(),
            faults: scenario.faults.clone(),
            schedule: scenario.schedule.clone(),
            step_cap: scenario.step_cap,
            program: scenario.program.clone(),
        };
        let workers = scenario
            .workers
            .iter()
            .zip(&batch.workers)
            .map(|(worker, made)| Worker {
                name: (worker.name != made.name).then(|| worker.name.clone()),
                runs: Listed::of(&made.runs, &worker.runs),
            })
            .collect();
        WholeScenario {
            settings: Settings::of(&settings),
            operations: Listed::of(&batch.operations, &scenario.operations),
            workers,
        }
    }

    /// As text for saving (postcard, base64url): no length limit, since it is not a link.
    /// [`WholeScenario::from_text`] reads it back.
    pub fn to_text(&self) -> String {
        use base64::Engine as _;
        let bytes = postcard::to_allocvec(self).expect("postcard writes every WholeScenario");
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The whole scenario [`WholeScenario::to_text`] wrote; its counts are checked by
    /// [`WholeScenario::read`].
    pub fn from_text(text: &str) -> Result<WholeScenario, ShareError> {
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(text)
            .map_err(|_| ShareError::Malformed)?;
        postcard::from_bytes(&bytes).map_err(|_| ShareError::Malformed)
    }

    /// The scenario, read and validated as the engine would before running it.
    pub fn read(&self) -> Result<Scenario, ShareError> {
        let invalid = |error: serde_json::Error| ShareError::Invalid(error.to_string());
        let mut scenario: Scenario =
            serde_json::from_value(self.settings.read()?).map_err(invalid)?;
        self.check_counts()?;
        let batch = generated(self.operations.len, self.workers.len() as u32);
        scenario.operations = self.operations.apply(batch.operations)?;
        scenario.workers = self
            .workers
            .iter()
            .zip(batch.workers)
            .map(|(worker, made)| {
                Ok(lab_engine::WorkerPlan {
                    name: worker.name.clone().unwrap_or(made.name),
                    runs: worker.runs.apply(made.runs)?,
                })
            })
            .collect::<Result<_, ShareError>>()?;
        scenario
            .validate()
            .map_err(|error| ShareError::Invalid(error.to_string()))?;
        Ok(scenario)
    }
}

impl WholeScenario {
    /// Refuses more records, workers or runs than a link may ask the generator for.
    pub(crate) fn check_counts(&self) -> Result<(), ShareError> {
        let runs: u64 = self.workers.iter().map(|w| u64::from(w.runs.len)).sum();
        let counts = [
            ("operations", u64::from(self.operations.len), OPERATIONS_MAX),
            ("workers", self.workers.len() as u64, WORKERS_MAX),
            ("runs", runs, RUNS_MAX),
        ];
        match counts
            .into_iter()
            .find(|(_, count, max)| *count > u64::from(*max))
        {
            Some((what, count, max)) => Err(ShareError::Invalid(format!(
                "it has {count} {what}, and a link holds at most {max}"
            ))),
            None => Ok(()),
        }
    }
}

/// What the generator makes for this many records over this many workers: the operations and
/// runs a scenario is written against.
fn generated(records: u32, workers: u32) -> Scenario {
    BatchSpec {
        workflow: WorkflowKind::Reserve,
        records,
        workers,
        seed: 0,
        faults: Vec::new(),
    }
    .scenario()
}

/// A scenario's switches, by the name links have written them under since they were renamed
/// (`SWITCHES`), and before (`SWITCHES_WAS`, still read).
const SWITCHES: &str = "switches";
const SWITCHES_WAS: &str = "design";

/// The settings every scenario is written against: the generator's, with no records.
fn generated_settings() -> Value {
    serde_json::to_value(generated(0, 0)).expect("a scenario always serializes")
}

impl Settings {
    fn of(scenario: &Scenario) -> Settings {
        let value = serde_json::to_value(scenario).expect("a scenario always serializes");
        let mut absent = Vec::new();
        let changed = difference(&generated_settings(), &value, &mut Vec::new(), &mut absent)
            .unwrap_or_else(|| Value::Object(Map::new()));
        Settings {
            changed: changed.to_string(),
            absent,
        }
    }

    /// The scenario's JSON: the generator's settings with these changes.
    fn read(&self) -> Result<Value, ShareError> {
        let mut changed: Value = serde_json::from_str(&self.changed)
            .map_err(|error| ShareError::Invalid(error.to_string()))?;
        if let Some(object) = changed.as_object_mut() {
            if let Some(switches) = object.remove(SWITCHES_WAS) {
                object.insert(SWITCHES.into(), switches);
            }
        }
        let mut value = generated_settings();
        merge(&mut value, changed);
        for path in &self.absent {
            let path: Vec<&str> = path
                .iter()
                .enumerate()
                .map(|(at, key)| match (at, key.as_str()) {
                    (0, SWITCHES_WAS) => SWITCHES,
                    (_, key) => key,
                })
                .collect();
            let (last, parents) = path.split_last().ok_or(ShareError::Malformed)?;
            let mut object = &mut value;
            for key in parents {
                object = object.get_mut(*key).ok_or(ShareError::Malformed)?;
            }
            object
                .as_object_mut()
                .and_then(|object| object.remove(*last))
                .ok_or(ShareError::Malformed)?;
        }
        Ok(value)
    }
}

/// What of `value` differs from `made`: objects field by field, anything else whole. The paths
/// of fields `made` has and `value` does not go to `absent`.
fn difference(
    made: &Value,
    value: &Value,
    path: &mut Vec<String>,
    absent: &mut Vec<Vec<String>>,
) -> Option<Value> {
    if made == value {
        return None;
    }
    let (Value::Object(made), Value::Object(object)) = (made, value) else {
        return Some(value.clone());
    };
    let mut changed = Map::new();
    for (key, field) in object {
        path.push(key.clone());
        let differs = match made.get(key) {
            Some(was) => difference(was, field, path, absent),
            None => Some(field.clone()),
        };
        path.pop();
        if let Some(differs) = differs {
            changed.insert(key.clone(), differs);
        }
    }
    for key in made.keys().filter(|key| !object.contains_key(*key)) {
        let mut gone = path.clone();
        gone.push(key.clone());
        absent.push(gone);
    }
    Some(Value::Object(changed))
}

/// `changed` written over `value`: objects field by field, anything else whole.
fn merge(value: &mut Value, changed: Value) {
    match (value, changed) {
        (Value::Object(object), Value::Object(changed)) => {
            for (key, field) in changed {
                match object.get_mut(&key) {
                    Some(was) => merge(was, field),
                    None => {
                        object.insert(key, field);
                    }
                }
            }
        }
        (value, changed) => *value = changed,
    }
}

impl Listed {
    /// `items` as they differ from `made`.
    fn of<T: Serialize + PartialEq>(made: &[T], items: &[T]) -> Listed {
        let changed = items
            .iter()
            .enumerate()
            .filter(|&(index, item)| made.get(index) != Some(item))
            .map(|(index, item)| {
                let json = serde_json::to_string(item).expect("the engine's types serialize");
                (index as u32, json)
            })
            .collect();
        Listed {
            len: items.len() as u32,
            changed,
        }
    }

    /// The list: `made` cut or grown to the length, with the changed items in place. An item
    /// past the generator's that the link does not give is a damaged link.
    fn apply<T: DeserializeOwned>(&self, made: Vec<T>) -> Result<Vec<T>, ShareError> {
        let len = self.len as usize;
        let mut items: Vec<Option<T>> = made.into_iter().take(len).map(Some).collect();
        items.resize_with(len, || None);
        for (index, json) in &self.changed {
            let slot = items
                .get_mut(*index as usize)
                .ok_or(ShareError::Malformed)?;
            *slot = Some(
                serde_json::from_str(json)
                    .map_err(|error| ShareError::Invalid(error.to_string()))?,
            );
        }
        items
            .into_iter()
            .collect::<Option<Vec<T>>>()
            .ok_or(ShareError::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link written before the switches had their name reads them under the old one, changed
    /// fields and absent ones alike.
    #[test]
    fn a_link_with_the_old_name_of_the_switches_reads() {
        let mut scenario = generated(3, 2);
        scenario.switches.reconcile = false;
        scenario.switches.review_owner = Some("payments team".into());
        let mut whole = WholeScenario::of(&scenario);
        assert!(whole.settings.changed.contains("\"switches\""));
        whole.settings.changed = whole.settings.changed.replace("\"switches\"", "\"design\"");
        let mut gone = WholeScenario::of(&scenario);
        gone.settings
            .absent
            .push(vec!["design".into(), "review_owner".into()]);
        gone.settings.changed = gone.settings.changed.replace("\"switches\"", "\"design\"");
        assert_eq!(whole.read().expect("reads"), scenario);
        let read = gone.read().expect("reads");
        assert_eq!(read.switches.review_owner, None);
        assert!(!read.switches.reconcile);
    }

    #[test]
    fn a_whole_scenario_as_saved_text_reads_back_whatever_its_size() {
        let mut scenario = generated(10_000, 4);
        scenario.seed = 7;
        scenario.operations[3]
            .payload
            .insert("note".into(), lab_engine::Scalar::Text("mine".into()));
        let text = WholeScenario::of(&scenario).to_text();
        let read = WholeScenario::from_text(&text).expect("reads");
        assert_eq!(read.read().expect("valid"), scenario);
        assert_eq!(
            WholeScenario::from_text(&text[..text.len() / 2]),
            Err(ShareError::Malformed)
        );
    }
}
