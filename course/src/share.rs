//! Links to an exact state of the lab: what a learner sends a colleague. Encoded compactly and
//! versioned, decoded defensively: a link is text from anywhere.
//!
//! The text is `base64url(VERSION, deflate(postcard(Shared)))`, without padding. postcard writes
//! integers as varints and enums as their index, so a lesson with a flipped switch is a handful of
//! bytes. A whole scenario travels as the engine's own JSON form inside it (the form `lab run`
//! reads, with its defaults and field names): its serde shape has tagged and untagged enums that a
//! format without field names cannot read back, and deflate takes the repetition of names out.
//!
//! Decoding never panics and never trusts its input: the text is bounded
//! ([`LINK_CHARS_MAX`]), the inflated bytes too ([`PAYLOAD_BYTES_MAX`], so a small link cannot
//! inflate into a large one), the version must be [`SHARE_VERSION`], and a scenario must pass the
//! engine's validation before it is returned. Nothing in a link is ever run as code.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use lab_engine::{Action, FaultKind, FaultRule, Scenario, Schedule, Switch};
use serde::{Deserialize, Serialize};

/// The version of the link format this crate writes and reads.
pub const SHARE_VERSION: u8 = 1;
/// The longest link text read, in characters: past it a link is refused unread.
pub const LINK_CHARS_MAX: usize = 16_384;
/// The most bytes a link's content may inflate to.
pub const PAYLOAD_BYTES_MAX: usize = 262_144;
/// Deflate's strongest level: links are short, so its time does not matter.
const DEFLATE_LEVEL: u8 = 9;

/// What a link shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shared {
    /// A lesson's design as the learner changed it. The lesson and the step are in the address
    /// itself (`#/lesson/ID/STEP/CHANGES`), readable.
    Lesson {
        /// The design changed (its index in the lesson).
        variant: u32,
        changes: Changes,
    },
    /// A scenario of the learner's own (the sandbox's), at a step (1-based).
    Scenario { scenario: WholeScenario, step: u32 },
}

/// How a design differs from the one written in the lesson.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Changes {
    /// The learner flipped switches, took out or added faults, or fixed the schedule (a
    /// counterexample does): only those are written.
    Edits {
        /// Each switch whose value differs from the design's, with its value.
        switches: Vec<(Switch, bool)>,
        /// The whole fault plan, when it differs.
        faults: Option<Vec<Fault>>,
        /// The schedule, when it differs.
        schedule: Option<Order>,
    },
    /// Anything else: the whole scenario.
    Whole(WholeScenario),
}

/// A scenario in the engine's JSON form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WholeScenario(pub String);

/// A fault rule, field for field (the engine's form leaves out empty fields, which a format
/// without field names cannot do).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    pub fault: FaultKind,
    pub at: Action,
    pub nth: Option<u32>,
    pub worker: Option<String>,
    pub chance_permille: Option<u16>,
}

/// A schedule (the engine's form is tagged by a field name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Order {
    Sequential,
    RoundRobin,
    Explicit(Vec<u8>),
    Seeded,
}

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
    #[error("the link names design {variant}, which this lesson does not have")]
    NoSuchDesign { variant: u32 },
    #[error("the link's scenario cannot run: {0}")]
    Invalid(String),
}

/// Encodes what a link shows.
pub fn encode(shared: &Shared) -> String {
    let bytes = postcard::to_allocvec(shared).expect("postcard writes every Shared");
    let mut framed = vec![SHARE_VERSION];
    framed.extend(miniz_oxide::deflate::compress_to_vec(&bytes, DEFLATE_LEVEL));
    URL_SAFE_NO_PAD.encode(framed)
}

/// Decodes a link's text. A scenario in it is checked by the engine's validation; a lesson's
/// changes are checked when applied ([`Changes::apply`]).
pub fn decode(text: &str) -> Result<Shared, ShareError> {
    if text.len() > LINK_CHARS_MAX {
        return Err(ShareError::TooLong {
            chars: text.chars().count(),
            max: LINK_CHARS_MAX,
        });
    }
    let framed = URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| ShareError::Malformed)?;
    let (&version, deflated) = framed.split_first().ok_or(ShareError::Malformed)?;
    if version != SHARE_VERSION {
        return Err(ShareError::WrongVersion {
            found: version,
            expected: SHARE_VERSION,
        });
    }
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(deflated, PAYLOAD_BYTES_MAX)
        .map_err(|error| match error.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge {
                max: PAYLOAD_BYTES_MAX,
            },
            _ => ShareError::Malformed,
        })?;
    let shared: Shared = postcard::from_bytes(&bytes).map_err(|_| ShareError::Malformed)?;
    if let Shared::Scenario { scenario, .. } = &shared {
        scenario.read()?;
    }
    Ok(shared)
}

impl WholeScenario {
    pub fn of(scenario: &Scenario) -> WholeScenario {
        WholeScenario(serde_json::to_string(scenario).expect("a scenario always serializes"))
    }

    /// The scenario, read and validated as the engine would before running it.
    pub fn read(&self) -> Result<Scenario, ShareError> {
        let scenario: Scenario = serde_json::from_str(&self.0)
            .map_err(|error| ShareError::Invalid(error.to_string()))?;
        scenario
            .validate()
            .map_err(|error| ShareError::Invalid(error.to_string()))?;
        Ok(scenario)
    }
}

impl Changes {
    /// The changes that turn `original` into `changed`.
    pub fn between(original: &Scenario, changed: &Scenario) -> Changes {
        let switches: Vec<(Switch, bool)> = original
            .workflow
            .switches()
            .iter()
            .map(|&switch| (switch, switch.get(changed)))
            .filter(|&(switch, on)| switch.get(original) != on)
            .collect();
        let faults = (changed.faults != original.faults)
            .then(|| changed.faults.iter().map(Fault::of).collect());
        let schedule =
            (changed.schedule != original.schedule).then(|| Order::of(&changed.schedule));
        let edits = Changes::Edits {
            switches,
            faults,
            schedule,
        };
        // Anything the edits cannot say (a changed seed, a switch that reads two fields) goes
        // whole, so the link always names exactly this scenario.
        match edits.apply(original) {
            Ok(scenario) if &scenario == changed => edits,
            _ => Changes::Whole(WholeScenario::of(changed)),
        }
    }

    /// The design `original` with these changes, validated as the engine would.
    pub fn apply(&self, original: &Scenario) -> Result<Scenario, ShareError> {
        let scenario = match self {
            Changes::Whole(whole) => return whole.read(),
            Changes::Edits {
                switches,
                faults,
                schedule,
            } => {
                let mut scenario = original.clone();
                for &(switch, on) in switches {
                    scenario = switch.set(&scenario, on);
                }
                if let Some(faults) = faults {
                    scenario.faults = faults.iter().map(Fault::rule).collect();
                }
                if let Some(schedule) = schedule {
                    scenario.schedule = schedule.schedule();
                }
                scenario
            }
        };
        scenario
            .validate()
            .map_err(|error| ShareError::Invalid(error.to_string()))?;
        Ok(scenario)
    }
}

impl Fault {
    pub fn of(rule: &FaultRule) -> Fault {
        Fault {
            fault: rule.fault,
            at: rule.at,
            nth: rule.nth,
            worker: rule.worker.clone(),
            chance_permille: rule.chance_permille,
        }
    }

    pub fn rule(&self) -> FaultRule {
        FaultRule {
            fault: self.fault,
            at: self.at,
            nth: self.nth,
            worker: self.worker.clone(),
            chance_permille: self.chance_permille,
        }
    }
}

impl Order {
    pub fn of(schedule: &Schedule) -> Order {
        match schedule {
            Schedule::Sequential => Order::Sequential,
            Schedule::RoundRobin => Order::RoundRobin,
            Schedule::Explicit { order } => Order::Explicit(order.clone()),
            Schedule::Seeded => Order::Seeded,
        }
    }

    pub fn schedule(&self) -> Schedule {
        match self {
            Order::Sequential => Schedule::Sequential,
            Order::RoundRobin => Schedule::RoundRobin,
            Order::Explicit(order) => Schedule::Explicit {
                order: order.clone(),
            },
            Order::Seeded => Schedule::Seeded,
        }
    }
}
