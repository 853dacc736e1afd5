//! Links to an exact state of the lab: what a learner sends a colleague. Encoded compactly and
//! versioned, decoded defensively: a link is text from anywhere.
//!
//! The text is `base64url(VERSION, deflate(postcard(Shared)))`, without padding. postcard writes
//! integers as varints and enums as their index, so a lesson with a flipped switch is a handful of
//! bytes. A whole scenario ([`WholeScenario`]) is written against what the engine's generator
//! (`lab_engine::BatchSpec`) makes for as many records and workers: its operations and runs are
//! not written where they are the generator's, so a generated batch of 10,000 records takes a few
//! dozen bytes, and a batch with a few records edited by hand lists only those. The rest of the
//! scenario travels in the engine's own JSON form (the form `lab run` reads): its serde shape has
//! tagged and untagged enums that a format without field names cannot read back, and deflate
//! takes the repetition of names out.
//!
//! Format 1 wrote a whole scenario as its JSON; links made then are still read
//! ([`SHARE_VERSION_FIRST`]).
//!
//! Decoding never panics and never trusts its input: the text is bounded
//! ([`LINK_CHARS_MAX`]), the inflated bytes too ([`PAYLOAD_BYTES_MAX`], so a small link cannot
//! inflate into a large one), so are the operations, workers and runs a scenario may name before
//! the generator makes them ([`OPERATIONS_MAX`], [`WORKERS_MAX`], [`RUNS_MAX`]), the version must
//! be one this lab reads, and a scenario must pass the engine's validation before it is returned.
//! Nothing in a link is ever run as code.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use lab_engine::{Action, FaultKind, FaultRule, Scenario, Schedule, Switch};
use serde::{Deserialize, Serialize};

mod whole;

use crate::challenge::Challenge;

pub use whole::{ShareError, WholeScenario, OPERATIONS_MAX, RUNS_MAX, WORKERS_MAX};

/// The version of the link format this crate writes (and reads).
pub const SHARE_VERSION: u8 = 2;
/// The first link format, still read: a whole scenario as the engine's JSON.
pub const SHARE_VERSION_FIRST: u8 = 1;
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
        design: u32,
        changes: Changes,
    },
    /// A scenario of the learner's own (the sandbox's), at a step (1-based).
    Scenario { scenario: WholeScenario, step: u32 },
    /// A lesson's build task as the learner left its board (the lines placed, in order, which
    /// need not be a whole program yet), with the design as they changed it, if they did. The
    /// lesson and the step are in the address itself.
    Built {
        /// The build task's part (0-based) in the lesson.
        part: u32,
        design: Option<(u32, Changes)>,
        board: lab_engine::Program,
    },
    /// A challenge an instructor made (`#/challenge/…`), or their draft of one in the builder
    /// (`#/make-challenge/…`): checked when it is opened ([`Challenge::open`]), not here.
    Challenge(Box<Challenge>),
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

/// Encodes what a link shows.
pub fn encode(shared: &Shared) -> String {
    let bytes = postcard::to_allocvec(shared).expect("postcard writes every Shared");
    let mut framed = vec![SHARE_VERSION];
    framed.extend(miniz_oxide::deflate::compress_to_vec(&bytes, DEFLATE_LEVEL));
    URL_SAFE_NO_PAD.encode(framed)
}

/// Encodes what a link shows, if a link can hold it: what [`decode`] would refuse (too many
/// characters, too many bytes inflated, too many records) is the error it would give.
pub fn encode_within(shared: &Shared) -> Result<String, ShareError> {
    match shared {
        Shared::Scenario { scenario, .. } => scenario.check_counts()?,
        Shared::Challenge(challenge) => challenge.scenario.check_counts()?,
        _ => {}
    }
    let bytes = postcard::to_allocvec(shared).expect("postcard writes every Shared");
    if bytes.len() > PAYLOAD_BYTES_MAX {
        return Err(ShareError::TooLarge {
            max: PAYLOAD_BYTES_MAX,
        });
    }
    let text = encode(shared);
    match text.len() > LINK_CHARS_MAX {
        true => Err(ShareError::TooLong {
            chars: text.len(),
            max: LINK_CHARS_MAX,
        }),
        false => Ok(text),
    }
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
    if version != SHARE_VERSION && version != SHARE_VERSION_FIRST {
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
    let shared: Shared = match version {
        SHARE_VERSION_FIRST => first::read(&bytes)?,
        _ => postcard::from_bytes(&bytes).map_err(|_| ShareError::Malformed)?,
    };
    if let Shared::Scenario { scenario, .. } = &shared {
        scenario.read()?;
    }
    Ok(shared)
}

/// Format 1, as links made with it hold it: a whole scenario was its JSON.
mod first {
    use super::{Fault, Order, ShareError, Switch};
    use serde::Deserialize;

    #[derive(Deserialize)]
    enum Shared {
        Lesson { design: u32, changes: Changes },
        Scenario { scenario: String, step: u32 },
    }

    #[derive(Deserialize)]
    enum Changes {
        Edits {
            switches: Vec<(Switch, bool)>,
            faults: Option<Vec<Fault>>,
            schedule: Option<Order>,
        },
        Whole(String),
    }

    /// A format 1 link's content in today's form.
    pub(super) fn read(bytes: &[u8]) -> Result<super::Shared, ShareError> {
        let whole = |json: &str| {
            let scenario = serde_json::from_str(json)
                .map_err(|error| ShareError::Invalid(error.to_string()))?;
            Ok::<_, ShareError>(super::WholeScenario::of(&scenario))
        };
        let shared: Shared = postcard::from_bytes(bytes).map_err(|_| ShareError::Malformed)?;
        Ok(match shared {
            Shared::Scenario { scenario, step } => super::Shared::Scenario {
                scenario: whole(&scenario)?,
                step,
            },
            Shared::Lesson { design, changes } => super::Shared::Lesson {
                design,
                changes: match changes {
                    Changes::Edits {
                        switches,
                        faults,
                        schedule,
                    } => super::Changes::Edits {
                        switches,
                        faults,
                        schedule,
                    },
                    Changes::Whole(json) => super::Changes::Whole(whole(&json)?),
                },
            },
        })
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
