//! What goes into the engine: operations, workers, design choices, faults and a seed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::fault::FaultRule;
use crate::kind::WorkflowKind;
use crate::program::Program;

/// A whole simulation input. Same scenario and seed give the same trace, byte for byte.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Seeds the one RNG of the run (probabilistic faults, jitter, random keys, seeded schedule).
    #[serde(default)]
    pub seed: u64,
    /// Which workflow every worker runs.
    pub workflow: WorkflowKind,
    /// The design choices of the workflow; every switch a lesson or learner can flip.
    #[serde(default, alias = "design")]
    pub switches: Switches,
    /// How the remote provider behaves.
    #[serde(default)]
    pub provider: ProviderConfig,
    /// The logical operations (intentions): one id and one payload each.
    pub operations: Vec<Operation>,
    /// The workers and the runs each one performs, in order.
    pub workers: Vec<WorkerPlan>,
    /// Faults to inject, by point or by seeded probability.
    #[serde(default)]
    pub faults: Vec<FaultRule>,
    /// How the scheduler interleaves workers.
    #[serde(default)]
    pub schedule: Schedule,
    /// Hard limit on events; the run stops with a `step_cap` verdict when reached. Default 500.
    #[serde(default = "default_step_cap")]
    pub step_cap: u32,
    /// The program every worker runs, as blocks of the workflow; without one, the program the
    /// design describes (`WorkflowKind::design_program`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<Program>,
}

impl Scenario {
    /// The operation with this id. Call only after `validate`.
    pub fn operation(&self, id: &str) -> &Operation {
        self.operations
            .iter()
            .find(|operation| operation.id == id)
            .expect("validate() checked that every run names an operation")
    }
}

fn default_step_cap() -> u32 {
    500
}

/// The largest number of ticks any tick-valued field may hold.
pub const TICKS_MAX: u32 = 1_000_000;

/// The most retry layers a policy may stack (`design.retry.layers`).
pub const LAYERS_MAX: u32 = 6;

/// The upper bound of `step_cap` a scenario may ask for.
pub const STEP_CAP_MAX: u32 = 200_000;

/// The most workers a scenario may have: a worker index fits the explorer's budget word.
pub const WORKERS_MAX: u32 = 64;

/// The most attempts a retry policy may make in all (`design.retry.attempts_max`).
pub const ATTEMPTS_MAX: u32 = 100;

/// One logical operation: the thing that must happen exactly once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// The source's own identity for this intention (event id, order id).
    pub id: String,
    /// What the operation means; compared field by field when a key is reused.
    #[serde(default)]
    pub payload: Payload,
    /// The event reached us malformed, without the source's id: a key taken from the source's
    /// id is then `"None"` (what `str(event.get("id"))` gives), the same for every such event.
    /// `id` stays the lab's own name for the operation. Default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missing_id: bool,
}

/// A payload is a flat map of named scalars, rendered as canonical JSON (sorted keys, no spaces),
/// exactly as the source's `json.dumps(order, sort_keys=True, separators=(",", ":"))`.
pub type Payload = BTreeMap<String, Scalar>;

/// One payload value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Text(String),
}

/// Canonical JSON of a payload; equal payloads give equal strings.
pub fn canonical_json(payload: &Payload) -> String {
    let fields: Vec<String> = payload
        .iter()
        .map(|(name, value)| format!("{}:{}", json_string(name), scalar_json(value)))
        .collect();
    format!("{{{}}}", fields.join(","))
}

fn scalar_json(value: &Scalar) -> String {
    match value {
        Scalar::Bool(flag) => flag.to_string(),
        Scalar::Int(number) => number.to_string(),
        Scalar::Text(text) => json_string(text),
    }
}

fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A worker and its queue of runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerPlan {
    /// Shown on the worker's lane, e.g. "worker-1".
    pub name: String,
    /// The runs, in order. Each run is one call of the workflow for one operation.
    pub runs: Vec<Run>,
}

/// One invocation of the workflow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The operation this run performs (an `operations[].id`).
    pub op: String,
    /// A payload that replaces the operation's own: the same id with a changed intention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Payload>,
    /// The tick before which the run does not start (a retry that comes later). Default 0.
    #[serde(default)]
    pub not_before: u32,
    /// A key the caller reuses on purpose (one key for two intentions). Default: from `design.key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The request body exactly as this caller wrote it (JSON: field order and spacing its
    /// own), meaning the same as its payload. A design that compares raw bytes
    /// (`switches.canonical_payload = false`) sends and compares this text; one that compares
    /// canonical JSON never sees the difference. Default: the canonical text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

impl Run {
    /// A run of operation `op` with its own payload, from the start, keyed as the design says.
    pub fn of(op: impl Into<String>) -> Run {
        Run {
            op: op.into(),
            payload: None,
            not_before: 0,
            key: None,
            body: None,
        }
    }
}

/// How the scheduler picks the next worker to step.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Schedule {
    /// Each worker finishes all its runs before the next starts (default).
    #[default]
    Sequential,
    /// One step per ready worker in turn.
    RoundRobin,
    /// Worker indices (0-based) in the order they step; when the list ends, round robin.
    Explicit { order: Vec<u8> },
    /// A ready worker chosen by the seeded RNG at every step.
    Seeded,
}

impl Schedule {
    /// One schedule of each kind, in declaration order (the explicit one with no order): what a
    /// form offers.
    pub const ALL: [Schedule; 4] = [
        Schedule::Sequential,
        Schedule::RoundRobin,
        Schedule::Explicit { order: Vec::new() },
        Schedule::Seeded,
    ];
}

/// The design choices. Defaults are the safe design of the source documents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Switches {
    /// Look the operation up at the provider before submitting (reconcile), or submit blindly. Default true.
    pub reconcile: bool,
    /// Treat a lookup's "not found" after an earlier uncertain attempt as proof of absence (true),
    /// or stop in `needs_review` (false). Default true.
    pub trust_not_found: bool,
    /// Where the idempotency key comes from. Default `source_id`.
    pub key: KeySource,
    /// Database write mode. Default `upsert`.
    pub write: WriteMode,
    /// The results table has UNIQUE on its key column. Default true.
    pub unique: bool,
    /// Check in application code whether the row exists before writing. Default false.
    pub check_first: bool,
    /// Tracker: mark the key done after the effect (true) or before it (false). Default true.
    pub mark_after: bool,
    /// Write the dedup key in the same transaction as the row (true), or advance an external
    /// progress counter after the batch item (false). Default true.
    pub same_transaction: bool,
    /// Skip records that already succeeded when building the retry batch. Default true.
    pub skip_succeeded: bool,
    /// Resume a failed item from its failed stage with the preserved output. Default true.
    pub resume: bool,
    /// Deduplicate when writing (true) or leave duplicates and filter when reading (false). Default true.
    pub dedup_on_write: bool,
    /// Use the idempotency tracker in front of side effects. Default true.
    pub tracker: bool,
    /// The retry policy of the innermost call.
    pub retry: RetryPolicy,
    /// Compare and send a request's payload as canonical JSON (sorted keys, no spaces), so a
    /// caller's field order or spacing is no change (true), or as the raw bytes of its `body`
    /// (false). Default true; written only when false.
    #[serde(skip_serializing_if = "is_true")]
    pub canonical_payload: bool,
    /// Who owns the review items this design raises (a person or a team), named in every item.
    /// Default none: an item nobody owns.
    pub review_owner: Option<String>,
    /// How long a claim on a key (`claim_with_lease`) holds, in ticks: a claim older than this
    /// with no result stored is taken over by the next request under the key. Default 30: far
    /// longer than a charge takes, so only an owner that is gone loses its claim.
    pub lease_ticks: u32,
    /// Where a worker reads its cancel flag. Default `every_step`: the engine checks it before
    /// every step.
    pub cancel_check: CancelCheck,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            reconcile: true,
            trust_not_found: true,
            key: KeySource::SourceId,
            write: WriteMode::Upsert,
            unique: true,
            check_first: false,
            mark_after: true,
            same_transaction: true,
            skip_succeeded: true,
            resume: true,
            dedup_on_write: true,
            tracker: true,
            retry: RetryPolicy::default(),
            review_owner: None,
            lease_ticks: 30,
            canonical_payload: true,
            cancel_check: CancelCheck::EveryStep,
        }
    }
}

fn is_true(flag: &bool) -> bool {
    *flag
}

/// Reads a request body: a JSON object of scalars (booleans, integers, strings), as a payload.
pub fn payload_of_body(body: &str) -> Result<Payload, String> {
    let value: serde_json::Value =
        serde_json::from_str(body).map_err(|error| format!("is not JSON ({error})"))?;
    let serde_json::Value::Object(fields) = value else {
        return Err("must be a JSON object, like {\"item\": \"lab-kit\"}".into());
    };
    fields
        .into_iter()
        .map(|(name, value)| {
            let scalar = match value {
                serde_json::Value::Bool(flag) => Scalar::Bool(flag),
                serde_json::Value::Number(number) => {
                    Scalar::Int(number.as_i64().ok_or_else(|| {
                        format!("field \"{name}\" is {number}: numbers are whole (i64)")
                    })?)
                }
                serde_json::Value::String(text) => Scalar::Text(text),
                other => {
                    return Err(format!(
                    "field \"{name}\" is {other}: a field is a boolean, a whole number or a string"
                ))
                }
            };
            Ok((name, scalar))
        })
        .collect()
}

/// Where a worker reads its cancel flag: cancellation is cooperative, and the code says where it
/// cooperates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelCheck {
    /// Before every step, by the engine: a raised flag stops the run before its next step.
    #[default]
    EveryStep,
    /// Only at the program's `check_cancel` lines (and when a run arrives, so the next run of
    /// a batch never starts): a flag raised during a step lets that step finish, and the run
    /// goes on until its next check.
    InCode,
}

impl CancelCheck {
    /// Both, in declaration order.
    pub const ALL: [CancelCheck; 2] = [CancelCheck::EveryStep, CancelCheck::InCode];
}

/// Where a dedup or idempotency key comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    /// The source system's own id for the event: the same on every retry.
    SourceId,
    /// An auto-increment id assigned while processing: new on every attempt.
    AutoIncrement,
    /// A hash of the payload's content: the same for the same content.
    ContentHash,
    /// A fresh random key per attempt.
    FreshRandom,
    /// A hash of the content and of the tick this delivery was received at: a per-delivery
    /// field, so a redelivery hashes to a new key.
    HashWithReceivedAt,
    /// A random UUID drawn once, when the intention is born, saved with it and sent on every
    /// attempt: the same for every retry of one operation, new for another.
    SavedUuid,
    /// No key at all: the request carries no `Idempotency-Key` header (the `reserve` workflow
    /// only, since only a provider request has a header to leave out).
    None,
}

impl KeySource {
    /// Every key source, in declaration order.
    pub const ALL: [KeySource; 7] = [
        KeySource::SourceId,
        KeySource::AutoIncrement,
        KeySource::ContentHash,
        KeySource::FreshRandom,
        KeySource::HashWithReceivedAt,
        KeySource::SavedUuid,
        KeySource::None,
    ];

    /// Whether `workflow` may take this key source: only a provider request (`reserve`,
    /// `webhook`) has a header to leave out, so `None` is for them alone (the rule
    /// `Scenario::validate` enforces, and the scenario form's choices follow).
    pub fn allowed_in(self, workflow: WorkflowKind) -> bool {
        self != KeySource::None || matches!(workflow, WorkflowKind::Reserve | WorkflowKind::Webhook)
    }
}

/// How a row is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteMode {
    /// `INSERT`: fails on a UNIQUE conflict, duplicates without one.
    Insert,
    /// `INSERT OR IGNORE`: keeps the first row on a UNIQUE conflict.
    InsertOrIgnore,
    /// `INSERT .. ON CONFLICT(key) DO UPDATE`: overwrites on a UNIQUE conflict.
    Upsert,
}

/// When, how often and how long to retry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetryPolicy {
    /// Attempts in all, the first included. Default 1 (no retry), as in the source's lab.
    pub attempts_max: u32,
    /// Which failure classes are retried. Default: temporary only.
    pub eligible: Vec<FailureClass>,
    /// Delay before the first retry, in ticks. Default 1.
    pub delay_base_ticks: u32,
    /// Growth of the delay. Default constant.
    pub backoff: Backoff,
    /// Randomness added to the delay. Default none.
    pub jitter: Jitter,
    /// Largest delay, in ticks. Default 64.
    pub delay_cap_ticks: u32,
    /// No attempt starts after this many ticks from the run's start; 0 means no deadline. Default 0.
    pub deadline_ticks: u32,
    /// Nested retry layers, each making `attempts_max` attempts of the layer below. Default 1.
    pub layers: u32,
    /// Only the outermost layer retries; the layers inside it make one attempt each and fail
    /// fast. Default false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub single_layer: bool,
    /// A retry budget per client (per worker), in thousandths: a retry starts only while the
    /// worker's retries, this one included, stay within this share of its requests (the runs'
    /// first submits so far). 100 is the SRE book's 10%. 0, the default, sets no budget.
    #[serde(skip_serializing_if = "is_zero")]
    pub retry_ratio_permille: u32,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts_max: 1,
            eligible: vec![FailureClass::Temporary],
            delay_base_ticks: 1,
            backoff: Backoff::Constant,
            jitter: Jitter::None,
            delay_cap_ticks: 64,
            deadline_ticks: 0,
            layers: 1,
            single_layer: false,
            retry_ratio_permille: 0,
        }
    }
}

/// Delay growth between attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backoff {
    Constant,
    Exponential,
}

impl Backoff {
    /// Every backoff, in declaration order.
    pub const ALL: [Backoff; 2] = [Backoff::Constant, Backoff::Exponential];
}

/// Jitter strategies (AWS architecture blog names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Jitter {
    None,
    Full,
    Equal,
    Decorrelated,
}

impl Jitter {
    /// Every jitter strategy, in declaration order.
    pub const ALL: [Jitter; 4] = [
        Jitter::None,
        Jitter::Full,
        Jitter::Equal,
        Jitter::Decorrelated,
    ];
}

/// The four failure classes of the source, each with its allowed response.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// The request is wrong; repeating it cannot help. Response: fail, fix the input.
    InvalidInput,
    /// The credential lacks permission. Response: fail, a person changes access.
    Permission,
    /// Refused before any effect, by the service's own documentation (503 busy, 429). Response:
    /// retry with backoff, within bounds. A dropped connection or a timeout is not this class: the
    /// effect may have happened, so it is `UnknownCompletion`.
    Temporary,
    /// The effect may have happened. Response: reconcile by lookup before any resubmit.
    UnknownCompletion,
}

impl FailureClass {
    /// Every failure class, in declaration order.
    pub const ALL: [FailureClass; 4] = [
        FailureClass::InvalidInput,
        FailureClass::Permission,
        FailureClass::Temporary,
        FailureClass::UnknownCompletion,
    ];
}

impl FailureClass {
    /// The response the source allows for this class.
    pub fn allowed_response(self) -> &'static str {
        match self {
            FailureClass::InvalidInput => "fail: repeating an invalid request cannot repair it",
            FailureClass::Permission => "fail: a person must change the credential or account",
            FailureClass::Temporary => "retry with backoff, within attempt and deadline bounds",
            FailureClass::UnknownCompletion => "reconcile by lookup before any resubmit",
        }
    }
}

/// How the remote provider behaves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProviderConfig {
    /// Deduplicate submissions by idempotency key. Default true.
    pub dedup: bool,
    /// Reject a reused key with a different payload (true) or accept it silently (false). Default true.
    pub reject_changed_payload: bool,
    /// The status of that rejection: "400", "409" or "422". Default "409" (Brandur's design).
    pub reject_status: RejectStatus,
    /// Keys are forgotten this many ticks after their commit; 0 keeps them forever. Default 0.
    pub retention_ticks: u32,
    /// Lookups answer "not found" for this many ticks after a commit; 0 is authoritative. Default 0.
    pub lookup_stale_ticks: u32,
    /// The provider offers a lookup by id at all. Default true.
    pub lookup: bool,
    /// Refuse a submit that carries no idempotency key with 400, as the IETF draft does for a
    /// resource that requires one (true), or process it with no duplicate prevention at all
    /// (false). Default true.
    pub require_key: bool,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        ProviderConfig {
            dedup: true,
            reject_changed_payload: true,
            reject_status: RejectStatus::Conflict409,
            retention_ticks: 0,
            lookup_stale_ticks: 0,
            lookup: true,
            require_key: true,
        }
    }
}

/// How a provider answers a reused key with a changed payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RejectStatus {
    /// Stripe: 400 Bad Request ("keys are for the same request").
    #[serde(rename = "400")]
    BadRequest400,
    /// Brandur Leach's design: 409 Conflict.
    #[serde(rename = "409")]
    Conflict409,
    /// IETF Idempotency-Key draft: 422 Unprocessable Content.
    #[serde(rename = "422")]
    Unprocessable422,
}

impl RejectStatus {
    /// Every status, in declaration order.
    pub const ALL: [RejectStatus; 3] = [
        RejectStatus::BadRequest400,
        RejectStatus::Conflict409,
        RejectStatus::Unprocessable422,
    ];
}

impl RejectStatus {
    /// The HTTP status code.
    pub fn code(self) -> u16 {
        match self {
            RejectStatus::BadRequest400 => 400,
            RejectStatus::Conflict409 => 409,
            RejectStatus::Unprocessable422 => 422,
        }
    }
}
