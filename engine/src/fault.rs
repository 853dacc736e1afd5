//! Faults are verbs in the scenario. Each strikes at an action, either at its n-th occurrence
//! (a placement an explorer can enumerate) or with a seeded chance at every occurrence.

use serde::{Deserialize, Serialize};

/// Every kind of step a worker can take. A fault point is one occurrence of one of these. Which
/// faults can strike at which action is each workflow's declaration (`WorkflowKind::faults_at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// A message (event, webhook, queue item) reaches the worker and a run begins.
    #[serde(rename = "receive")]
    Receive,
    #[serde(rename = "journal.get")]
    JournalGet,
    #[serde(rename = "journal.insert")]
    JournalInsert,
    #[serde(rename = "journal.update")]
    JournalUpdate,
    #[serde(rename = "provider.lookup")]
    ProviderLookup,
    #[serde(rename = "provider.submit")]
    ProviderSubmit,
    #[serde(rename = "table.select")]
    TableSelect,
    #[serde(rename = "table.write")]
    TableWrite,
    #[serde(rename = "tracker.check")]
    TrackerCheck,
    #[serde(rename = "tracker.mark")]
    TrackerMark,
    #[serde(rename = "sink.send")]
    SinkSend,
    #[serde(rename = "model.call")]
    ModelCall,
    #[serde(rename = "progress.save")]
    ProgressSave,
    #[serde(rename = "sleep")]
    Sleep,
    #[serde(rename = "return")]
    Return,
}

impl Action {
    /// Every action, in a fixed order.
    pub const ALL: [Action; 15] = [
        Action::Receive,
        Action::JournalGet,
        Action::JournalInsert,
        Action::JournalUpdate,
        Action::ProviderLookup,
        Action::ProviderSubmit,
        Action::TableSelect,
        Action::TableWrite,
        Action::TrackerCheck,
        Action::TrackerMark,
        Action::SinkSend,
        Action::ModelCall,
        Action::ProgressSave,
        Action::Sleep,
        Action::Return,
    ];

    /// The dotted name used in scenario files and traces.
    pub fn name(self) -> &'static str {
        match self {
            Action::Receive => "receive",
            Action::JournalGet => "journal.get",
            Action::JournalInsert => "journal.insert",
            Action::JournalUpdate => "journal.update",
            Action::ProviderLookup => "provider.lookup",
            Action::ProviderSubmit => "provider.submit",
            Action::TableSelect => "table.select",
            Action::TableWrite => "table.write",
            Action::TrackerCheck => "tracker.check",
            Action::TrackerMark => "tracker.mark",
            Action::SinkSend => "sink.send",
            Action::ModelCall => "model.call",
            Action::ProgressSave => "progress.save",
            Action::Sleep => "sleep",
            Action::Return => "return",
        }
    }
}

/// The faults the engine can inject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The request never arrives: no effect, the caller times out.
    LoseRequest,
    /// The effect commits, then the reply is lost: the caller times out.
    LoseReply,
    /// The caller gives up waiting; the provider commits the effect a few ticks later.
    Timeout,
    /// The provider answers 503 before doing anything.
    Busy,
    /// The worker process dies just before the action; it restarts and runs the same run again.
    Crash,
    /// The incoming message is delivered a second time (a redelivered event or webhook).
    DeliverTwice,
    /// The lookup answers "not found" although the record exists.
    StaleLookup,
    /// The provider has forgotten the key (its retention window passed).
    ExpireKey,
    /// The run carries a changed payload under the same id.
    ChangePayload,
    /// The provider rejects the input as invalid (400).
    InvalidInput,
    /// The provider refuses the credential (403).
    PermissionDenied,
    /// The cancel flag is raised just before the action.
    Cancel,
}

impl FaultKind {
    /// Every fault kind, in a fixed order.
    pub const ALL: [FaultKind; 12] = [
        FaultKind::LoseRequest,
        FaultKind::LoseReply,
        FaultKind::Timeout,
        FaultKind::Busy,
        FaultKind::Crash,
        FaultKind::DeliverTwice,
        FaultKind::StaleLookup,
        FaultKind::ExpireKey,
        FaultKind::ChangePayload,
        FaultKind::InvalidInput,
        FaultKind::PermissionDenied,
        FaultKind::Cancel,
    ];

    /// The snake_case name used in scenario files.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::LoseRequest => "lose_request",
            FaultKind::LoseReply => "lose_reply",
            FaultKind::Timeout => "timeout",
            FaultKind::Busy => "busy",
            FaultKind::Crash => "crash",
            FaultKind::DeliverTwice => "deliver_twice",
            FaultKind::StaleLookup => "stale_lookup",
            FaultKind::ExpireKey => "expire_key",
            FaultKind::ChangePayload => "change_payload",
            FaultKind::InvalidInput => "invalid_input",
            FaultKind::PermissionDenied => "permission_denied",
            FaultKind::Cancel => "cancel",
        }
    }
}

/// One fault in the plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRule {
    /// What goes wrong.
    pub fault: FaultKind,
    /// The action at which it strikes.
    pub at: Action,
    /// Strike at the n-th occurrence of `at` (1-based). Without it, `chance_permille` decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
    /// Count only this worker's occurrences (by name). Default: every worker's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<String>,
    /// Chance per occurrence, in thousandths, drawn from the seeded RNG. Used when `nth` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance_permille: Option<u16>,
}

/// A place where a fault could strike in a given run: the n-th occurrence of an action.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FaultPoint {
    pub at: Action,
    pub nth: u32,
    /// The faults that can strike there: the workflow's own list, shared by every point at this
    /// action of a run (read back from JSON, a copy).
    pub faults: std::borrow::Cow<'static, [FaultKind]>,
}
