//! What the workflows emit, as data: what an event did ([`Outcome`]), what a message said
//! ([`Label`]) and the message itself ([`Message`]). The sentences a person reads are rendered
//! from this data only when someone shows them (`sentence.rs`); a run that records nothing
//! builds no sentence at all.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::block::Raised;
use crate::fault::Action;
use crate::text::Text;
use crate::world::{JobStatus, WriteOutcome};

/// What one event did. Each variant is one kind of sentence; `text` renders it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "snake_case")]
pub enum Outcome {
    // ---- the engine itself ----
    /// "receives OP PAYLOAD (key KEY)", or "restarts and receives ...", "receives again
    /// (redelivered) ..."; "(its key is set by the program)" when a key line makes it.
    Received {
        arrival: Arrival,
        payload: Text,
        key: Text,
        /// The program sets the key on a line of its own: "(its key is set by the program)".
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        keyed: bool,
    },
    /// "cancel flag is up: RUNS run(s) not started".
    NotStarted { runs: u32 },
    /// "crashes before ACTION of OP: its memory is lost" (the event's action and op).
    Crashed,
    /// "cancel flag seen: stops before BEFORE; it never begins".
    Cancelled { before: Action },
    /// "cancel flag seen: stops before BEFORE; the submit already sent has no answer, so its
    /// outcome stays unknown" (the journal row becomes `unknown`).
    CancelledUnresolved { before: Action },
    /// "returns \"RESULT\"".
    Returned { result: Cow<'static, str> },
    /// "raises ERROR: no handler catches it, so the run stops".
    Raised { error: Raised },
    /// A timed-out request reaches the provider late: "the timed-out request arrives late and
    /// commits: RECEIPT", "...; RECEIPT exists, no new effect", "... and is refused (STATUS)",
    /// "...; accepted silently as RECEIPT".
    LateCommit { reply: SubmitReply },

    // ---- reserve: journal, lookup, submit ----
    /// "no journal row yet".
    NoJournalRow,
    /// "journal row has a different payload".
    JournalPayloadDiffers,
    /// "journal row is STATUS".
    JournalRow { status: JobStatus },
    /// "checkpoint saved: pending".
    CheckpointSaved,
    /// "another worker saved this checkpoint first: insert ignored".
    CheckpointRaced,
    /// "lookup failed: still unknown".
    LookupFailed,
    /// "provider holds a different payload".
    ProviderPayloadDiffers,
    /// "already done at the provider: RECEIPT".
    AlreadyDone { receipt: Text },
    /// "not found, but an earlier attempt is unresolved".
    NotFoundUnresolved,
    /// "not found".
    NotFound,
    /// "request lost: timeout, nothing happened (the worker cannot tell)".
    SubmitRequestLost,
    /// "provider committed, reply lost: timeout".
    SubmitReplyLost,
    /// "no answer in time: timeout (the request is still in flight)".
    SubmitTimeout,
    /// "503 busy: refused before any effect, by the provider's documentation".
    SubmitBusy,
    /// "400 invalid input: repeating it cannot help".
    SubmitInvalid,
    /// "403 forbidden: a person must fix the credential".
    SubmitForbidden,
    /// The provider answered a submit: "provider created RECEIPT", "provider replayed RECEIPT: no
    /// new effect", "changed payload accepted silently: old RECEIPT returned", "STATUS: key
    /// reused with a different payload".
    Submitted { reply: SubmitReply },
    /// "backs off TICKS tick(s) before attempt ATTEMPT".
    BacksOff { ticks: u32, attempt: u32 },
    /// "journal: STATUS".
    Journal { status: JobStatus },
    /// "journal: failed (WHY)".
    JournalRejected { why: Rejection },

    // ---- tables ----
    /// A write to the results table: "row inserted", "conflict on the key: ...", ..., followed
    /// by ", but the acknowledgment was lost: timeout" when `lost`.
    RowWritten {
        write: WriteOutcome,
        unique: bool,
        lost: bool,
    },
    /// "dedup key KEY committed" (or "was already committed"), with ", but the acknowledgment
    /// was lost: timeout" when `lost`.
    TrackingSaved { key: Text, new: bool, lost: bool },
    /// "database busy: nothing written".
    DatabaseBusy,
    /// "check in application code: 1 row" or "...: no row".
    Checked { exists: bool },
    /// "key claimed atomically: this request owns the charge".
    Claimed,
    /// "key already claimed: another attempt owns this charge".
    ClaimTaken,
    /// "the claim from tick CLAIMED_AT outlived its lease with no result stored: this request
    /// takes it over and owns the charge".
    ClaimTakenOver { claimed_at: u32 },
    /// "check: found" or "check: not found".
    CheckFound { found: bool },
    /// "result recorded for replays".
    ResultRecorded,

    // ---- side effects ----
    /// "the gateway did not charge".
    NotCharged,
    /// "card declined: nothing charged".
    Declined,
    /// "the gateway knows this key: it replays its first charge, nothing new is charged".
    ChargeReplayed,
    /// "returns \"replayed\": the stored result, STORED" (its status and body, an error as
    /// much as a charge).
    Replayed { stored: Text },
    /// "card charged", or "card charged again: CHARGES charges for one payment".
    Charged { charges: u32 },
    /// "skipping OP: notification already sent".
    AlreadyNotified,
    /// "not done yet".
    NotDoneYet,
    /// "KEY marked done".
    Marked { key: Text },
    /// "the notification was not sent".
    NotificationNotSent,
    /// "sending notification for OP", or "notification for OP sent again: SENT in all".
    Notifying { sent: u32 },

    // ---- pipeline ----
    /// "prior result: PRIOR", and how many stages kept their output.
    PriorRead { prior: Prior, kept: u32 },
    /// "the model call failed: nothing to preserve".
    ModelFailed,
    /// "model returns summary-OP (call CALLS in all); output preserved".
    ModelReturned { calls: u32 },
    /// "database busy: nothing written; the model output stays preserved".
    WriteBusyOutputKept,
    /// A written row whose acknowledgment was lost: "WRITE, but the acknowledgment was lost:
    /// timeout; recorded as a failed write".
    WriteLostFailed { write: WriteOutcome, unique: bool },
    /// "notification already sent: skipped".
    NotificationSkipped,
    /// "the notification failed; the write stays done".
    NotificationFailed,
    /// "notification sent, but the reply was lost: the stage fails".
    NotificationReplyLost,
    /// "notification sent", or "notification sent again: SENT for one item".
    NotificationSent { sent: u32 },
    /// "item result: success".
    ItemSucceeded,

    // ---- ingest ----
    /// "dedup key KEY already committed: skip the write", or "dedup key KEY not seen".
    DedupKey { key: Text, seen: bool },
    /// A written record: the `RowWritten` sentence, then "; dedup key committed with it" and
    /// "; readers will filter the duplicate, but it is stored" when they apply.
    Ingested {
        write: WriteOutcome,
        unique: bool,
        lost: bool,
        dedup_committed: bool,
        duplicate_stored: bool,
    },
    /// "transaction rolled back: nothing written".
    RolledBack,
    /// "503 busy: nothing sent; the row stays, the email is owed", or "request lost: nothing
    /// sent, timeout; ...".
    EmailNotSent { why: NotSent },
    /// "email already sent for this key: skipped".
    EmailSkipped,
    /// "email sent, but the reply was lost: timeout".
    EmailReplyLost,
    /// "email sent", or "email sent again: SENT for one event".
    EmailSent { sent: u32 },
    /// "progress counter: POSITION events done".
    Progress { position: u32 },
}

/// How a run arrived at its worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    First,
    /// After a crash.
    Restart,
    /// A second delivery of the same message.
    Redelivered,
}

/// What the provider answered to a submit that reached it (the receipt, or the refusal's
/// status code): what the provider decides, and what a trace says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum SubmitReply {
    /// A new effect was committed.
    Created { receipt: Text },
    /// The key was seen before with the same payload: the same receipt, no new effect.
    Replayed { receipt: Text },
    /// The key was seen before with another payload and the provider refused (status code).
    Rejected { status: u16 },
    /// The key was seen before with another payload and the provider said nothing about it.
    SilentlyAccepted { receipt: Text },
    /// The request carried no idempotency key and the provider requires one: 400.
    KeyMissing,
}

/// Why a run refused to go on with a changed payload.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Rejection {
    /// "the provider holds another payload under this key".
    ProviderPayload,
    /// "STATUS: key reused with a different payload".
    KeyReused { status: u16 },
    /// "400: no Idempotency-Key header".
    KeyMissing,
}

/// Why a send to a sink never happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotSent {
    /// "503 busy: nothing sent".
    Busy,
    /// "request lost: nothing sent, timeout".
    RequestLost,
}

/// What a pipeline item's journal row said about an earlier run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "prior", rename_all = "snake_case")]
pub enum Prior {
    /// "success".
    Success,
    /// "failed at STAGE".
    FailedAt { stage: Text },
    /// "none".
    None,
    /// The row's status.
    Status { status: JobStatus },
}

/// What one message said. Requests name the event's `op` where they say it; `text` renders it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "snake_case")]
pub enum Label {
    // ---- requests ----
    /// "get OP".
    Get,
    /// "insert OP pending".
    InsertPending,
    /// "set OP STATUS".
    SetStatus { status: JobStatus },
    /// "set OP verified RECEIPT".
    SetVerified { receipt: Text },
    /// "mark_success OP".
    MarkSuccess,
    /// "lookup KEY".
    Lookup { key: Text },
    /// "submit KEY PAYLOAD".
    Submit { key: Text, payload: Text },
    /// "write KEY".
    Write { key: Text },
    /// "SELECT KEY".
    Select { key: Text },
    /// "SELECT tracking KEY".
    SelectTracking { key: Text },
    /// "claim KEY".
    Claim { key: Text },
    /// "record KEY RESULT": the result's status and body, "200 ch-1" or "402 card declined".
    Record { key: Text, result: Text },
    /// "already_done KEY".
    AlreadyDone { key: Text },
    /// "mark_done KEY".
    MarkDone { key: Text },
    /// "charge PAYLOAD".
    Charge { payload: Text },
    /// "notify OP".
    Notify,
    /// "email OP".
    Email,
    /// "call_model OP".
    CallModel,
    /// "save POSITION".
    Save { position: u32 },

    // ---- replies ----
    /// "ok".
    Ok,
    /// "none".
    None,
    /// The status's name.
    Status { status: JobStatus },
    /// "success".
    Success,
    /// "failed at STAGE".
    FailedAt { stage: Text },
    /// "ignored: row exists".
    RowExists,
    /// "found RECEIPT".
    FoundReceipt { receipt: Text },
    /// "found".
    Found,
    /// "not found".
    NotFound,
    /// "503 busy".
    Busy,
    /// "201 RECEIPT", "200 RECEIPT (replay)", "200 RECEIPT", "STATUS key reused".
    Provider { reply: SubmitReply },
    /// "400 invalid".
    Invalid,
    /// "403 forbidden".
    Forbidden,
    /// "database is locked".
    Locked,
    /// "inserted", "updated", "ignored" or "conflict".
    WriteDone { write: WriteOutcome },
    /// "1 row".
    OneRow,
    /// "no row".
    NoRow,
    /// "1 row claimed".
    RowClaimed,
    /// "0 rows: key taken".
    KeyTaken,
    /// "charged ch-CHARGE".
    Charged { charge: u32 },
    /// "402 card declined".
    CardDeclined,
    /// "sent".
    Sent,
    /// "skipped: already sent".
    AlreadySent,
    /// "skipped: in the email log".
    InEmailLog,
    /// "done".
    Done,
    /// "not done".
    NotDone,
    /// "429 rate limited".
    RateLimited,
    /// "summary-OP".
    Summary,
}

/// A message between two lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub from: Text,
    pub to: Text,
    /// What the message said, as data; `Label::text` (or `Event::label_text`) says it in words.
    pub label: Label,
    /// The message was lost on the way.
    pub lost: bool,
}
