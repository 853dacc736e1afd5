//! The words of a trace, in one place. An event stores what happened as data ([`Outcome`]) and
//! each message what it said ([`Label`]); the English sentence is rendered only when someone
//! shows it, from that data and the event's own `op` and `action`. A run that records nothing
//! builds no sentence at all.

use std::borrow::Cow;
use std::fmt::{self, Write};

use serde::{Deserialize, Serialize};

use crate::fault::Action;
use crate::text::Text;
use crate::trace::Event;
use crate::world::{JobStatus, WriteOutcome};

/// What one event did. Each variant is one kind of sentence; `text` renders it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "say", rename_all = "snake_case")]
pub enum Outcome {
    // ---- the engine itself ----
    /// "receives OP PAYLOAD (key KEY)", or "restarts and receives ...", "receives again
    /// (redelivered) ...".
    Received {
        arrival: Arrival,
        payload: Text,
        key: Text,
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
    /// A timed-out request reaches the provider late: "the timed-out request arrives late and
    /// commits: RECEIPT", "...; RECEIPT exists, no new effect", "... and is refused (STATUS)",
    /// "...; accepted silently as RECEIPT".
    LateCommit { reply: Reply },

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
    Submitted { reply: Reply },
    /// "backs off TICKS tick(s) before attempt ATTEMPT".
    BacksOff { ticks: u32, attempt: u32 },
    /// "journal: STATUS".
    Journal { status: JobStatus },
    /// "journal: failed (WHY)".
    JournalRejected { why: Rejection },

    // ---- tables ----
    /// A write to the results table: "row inserted", "conflict on the key: ...", ..., followed
    /// by ", but the acknowledgment was lost: timeout" when `lost`.
    Written {
        write: WriteOutcome,
        unique: bool,
        lost: bool,
    },
    /// "database busy: nothing written".
    DatabaseBusy,
    /// "check in application code: 1 row" or "...: no row".
    Checked { exists: bool },
    /// "key claimed atomically: this request owns the charge".
    Claimed,
    /// "key already claimed: another attempt owns this charge".
    ClaimTaken,
    /// "check: found" or "check: not found".
    CheckFound { found: bool },
    /// "result recorded for replays".
    ResultRecorded,

    // ---- side effects ----
    /// "the gateway did not charge".
    NotCharged,
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
    /// "OP already succeeded: skipped at the boundary".
    SkippedSucceeded,
    /// "OP already succeeded, but this design processes it again".
    ProcessedAgain,
    /// "a model output is preserved, but this design starts over".
    StartsOver,
    /// "prior result: PRIOR; starting from the model call", or "prior result: PRIOR".
    PriorResult { prior: Prior, from_model: bool },
    /// "model output preserved: resuming at the downstream write".
    ResumesAtWrite,
    /// "write already done: resuming at the notification".
    ResumesAtNotification,
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
    /// A written record: the `Written` sentence, then "; dedup key committed with it" and
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

/// What the provider answered to a submit (the receipt, or the refusal's status code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Reply {
    Created {
        receipt: Text,
    },
    Replayed {
        receipt: Text,
    },
    Rejected {
        status: u16,
    },
    SilentlyAccepted {
        receipt: Text,
    },
    /// 400: the request had no idempotency key.
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
    /// "record KEY ch-CHARGE".
    Record { key: Text, charge: u32 },
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
    Provider { reply: Reply },
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

impl Outcome {
    /// The sentence, as the event card and `lab run` show it.
    pub fn text(&self, event: &Event) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write(&event.op, event.action, &mut out);
        out
    }

    fn write(&self, op: &str, action: Action, out: &mut String) -> fmt::Result {
        match self {
            Outcome::Received {
                arrival,
                payload,
                key,
            } => {
                let how = match arrival {
                    Arrival::First => "receives",
                    Arrival::Restart => "restarts and receives",
                    Arrival::Redelivered => "receives again (redelivered)",
                };
                match key.as_str() {
                    "" => write!(out, "{how} {op} {payload} (no key)"),
                    key => write!(out, "{how} {op} {payload} (key {key})"),
                }
            }
            Outcome::NotStarted { runs } => {
                write!(out, "cancel flag is up: {runs} run(s) not started")
            }
            Outcome::Crashed => write!(
                out,
                "crashes before {} of {op}: its memory is lost",
                action.name()
            ),
            Outcome::Cancelled { before } => write!(
                out,
                "cancel flag seen: stops before {}; it never begins",
                before.name()
            ),
            Outcome::CancelledUnresolved { before } => write!(
                out,
                "cancel flag seen: stops before {}; the submit already sent has no answer, so its outcome stays unknown",
                before.name()
            ),
            Outcome::Returned { result } => write!(out, "returns \"{result}\""),
            Outcome::LateCommit { reply } => match reply {
                Reply::Created { receipt } => write!(
                    out,
                    "the timed-out request arrives late and commits: {receipt}"
                ),
                Reply::Replayed { receipt } => write!(
                    out,
                    "the timed-out request arrives late; {receipt} exists, no new effect"
                ),
                Reply::Rejected { status } => write!(
                    out,
                    "the timed-out request arrives late and is refused ({status})"
                ),
                Reply::KeyMissing => out.write_str(
                    "the timed-out request arrives late and is refused (400: no Idempotency-Key header)",
                ),
                Reply::SilentlyAccepted { receipt } => write!(
                    out,
                    "the timed-out request arrives late; accepted silently as {receipt}"
                ),
            },
            Outcome::NoJournalRow => out.write_str("no journal row yet"),
            Outcome::JournalPayloadDiffers => out.write_str("journal row has a different payload"),
            Outcome::JournalRow { status } => write!(out, "journal row is {}", status.name()),
            Outcome::CheckpointSaved => out.write_str("checkpoint saved: pending"),
            Outcome::CheckpointRaced => {
                out.write_str("another worker saved this checkpoint first: insert ignored")
            }
            Outcome::LookupFailed => out.write_str("lookup failed: still unknown"),
            Outcome::ProviderPayloadDiffers => out.write_str("provider holds a different payload"),
            Outcome::AlreadyDone { receipt } => {
                write!(out, "already done at the provider: {receipt}")
            }
            Outcome::NotFoundUnresolved => {
                out.write_str("not found, but an earlier attempt is unresolved")
            }
            Outcome::NotFound => out.write_str("not found"),
            Outcome::SubmitRequestLost => {
                out.write_str("request lost: timeout, nothing happened (the worker cannot tell)")
            }
            Outcome::SubmitReplyLost => out.write_str("provider committed, reply lost: timeout"),
            Outcome::SubmitTimeout => {
                out.write_str("no answer in time: timeout (the request is still in flight)")
            }
            Outcome::SubmitBusy => out
                .write_str("503 busy: refused before any effect, by the provider's documentation"),
            Outcome::SubmitInvalid => out.write_str("400 invalid input: repeating it cannot help"),
            Outcome::SubmitForbidden => {
                out.write_str("403 forbidden: a person must fix the credential")
            }
            Outcome::Submitted { reply } => match reply {
                Reply::Created { receipt } => write!(out, "provider created {receipt}"),
                Reply::Replayed { receipt } => {
                    write!(out, "provider replayed {receipt}: no new effect")
                }
                Reply::SilentlyAccepted { receipt } => write!(
                    out,
                    "changed payload accepted silently: old {receipt} returned"
                ),
                Reply::Rejected { status } => {
                    write!(out, "{status}: key reused with a different payload")
                }
                Reply::KeyMissing => out.write_str("400: no Idempotency-Key header"),
            },
            Outcome::BacksOff { ticks, attempt } => write!(
                out,
                "backs off {ticks} {} before attempt {attempt}",
                if *ticks == 1 { "tick" } else { "ticks" }
            ),
            Outcome::Journal { status } => write!(out, "journal: {}", status.name()),
            Outcome::JournalRejected { why } => write!(out, "journal: failed ({})", why.text()),
            Outcome::Written {
                write,
                unique,
                lost,
            } => written(out, write, *unique, *lost),
            Outcome::DatabaseBusy => out.write_str("database busy: nothing written"),
            Outcome::Checked { exists } => write!(
                out,
                "check in application code: {}",
                if *exists { "1 row" } else { "no row" }
            ),
            Outcome::Claimed => {
                out.write_str("key claimed atomically: this request owns the charge")
            }
            Outcome::ClaimTaken => {
                out.write_str("key already claimed: another attempt owns this charge")
            }
            Outcome::CheckFound { found } => {
                write!(out, "check: {}", if *found { "found" } else { "not found" })
            }
            Outcome::ResultRecorded => out.write_str("result recorded for replays"),
            Outcome::NotCharged => out.write_str("the gateway did not charge"),
            Outcome::Charged { charges: 1 } => out.write_str("card charged"),
            Outcome::Charged { charges } => {
                write!(out, "card charged again: {charges} charges for one payment")
            }
            Outcome::AlreadyNotified => {
                write!(out, "skipping {op}: notification already sent")
            }
            Outcome::NotDoneYet => out.write_str("not done yet"),
            Outcome::Marked { key } => write!(out, "{key} marked done"),
            Outcome::NotificationNotSent => out.write_str("the notification was not sent"),
            Outcome::Notifying { sent: 1 } => write!(out, "sending notification for {op}"),
            Outcome::Notifying { sent } => {
                write!(out, "notification for {op} sent again: {sent} in all")
            }
            Outcome::SkippedSucceeded => {
                write!(out, "{op} already succeeded: skipped at the boundary")
            }
            Outcome::ProcessedAgain => write!(
                out,
                "{op} already succeeded, but this design processes it again"
            ),
            Outcome::StartsOver => {
                out.write_str("a model output is preserved, but this design starts over")
            }
            Outcome::PriorResult { prior, from_model } => {
                out.write_str("prior result: ")?;
                prior.write(out)?;
                if *from_model {
                    out.write_str("; starting from the model call")?;
                }
                Ok(())
            }
            Outcome::ResumesAtWrite => {
                out.write_str("model output preserved: resuming at the downstream write")
            }
            Outcome::ResumesAtNotification => {
                out.write_str("write already done: resuming at the notification")
            }
            Outcome::ModelFailed => out.write_str("the model call failed: nothing to preserve"),
            Outcome::ModelReturned { calls } => write!(
                out,
                "model returns summary-{op} (call {calls} in all); output preserved"
            ),
            Outcome::WriteBusyOutputKept => {
                out.write_str("database busy: nothing written; the model output stays preserved")
            }
            Outcome::WriteLostFailed { write, unique } => {
                written(out, write, *unique, true)?;
                out.write_str("; recorded as a failed write")
            }
            Outcome::NotificationSkipped => out.write_str("notification already sent: skipped"),
            Outcome::NotificationFailed => {
                out.write_str("the notification failed; the write stays done")
            }
            Outcome::NotificationReplyLost => {
                out.write_str("notification sent, but the reply was lost: the stage fails")
            }
            Outcome::NotificationSent { sent: 1 } => out.write_str("notification sent"),
            Outcome::NotificationSent { sent } => {
                write!(out, "notification sent again: {sent} for one item")
            }
            Outcome::ItemSucceeded => out.write_str("item result: success"),
            Outcome::DedupKey { key, seen: true } => {
                write!(out, "dedup key {key} already committed: skip the write")
            }
            Outcome::DedupKey { key, seen: false } => write!(out, "dedup key {key} not seen"),
            Outcome::Ingested {
                write,
                unique,
                lost,
                dedup_committed,
                duplicate_stored,
            } => {
                written(out, write, *unique, *lost)?;
                if *dedup_committed {
                    out.write_str("; dedup key committed with it")?;
                }
                if *duplicate_stored {
                    out.write_str("; readers will filter the duplicate, but it is stored")?;
                }
                Ok(())
            }
            Outcome::RolledBack => out.write_str("transaction rolled back: nothing written"),
            Outcome::EmailNotSent { why } => {
                out.write_str(match why {
                    NotSent::Busy => "503 busy: nothing sent",
                    NotSent::RequestLost => "request lost: nothing sent, timeout",
                })?;
                out.write_str("; the row stays, the email is owed")
            }
            Outcome::EmailSkipped => out.write_str("email already sent for this key: skipped"),
            Outcome::EmailReplyLost => out.write_str("email sent, but the reply was lost: timeout"),
            Outcome::EmailSent { sent: 1 } => out.write_str("email sent"),
            Outcome::EmailSent { sent } => write!(out, "email sent again: {sent} for one event"),
            Outcome::Progress { position } => {
                write!(out, "progress counter: {position} events done")
            }
        }
    }
}

/// A table write as a sentence, and whether its acknowledgment was lost.
fn written(out: &mut String, write: &WriteOutcome, unique: bool, lost: bool) -> fmt::Result {
    out.write_str(match (write, unique) {
        (WriteOutcome::Inserted, true) => "row inserted",
        (WriteOutcome::Inserted, false) => {
            "row inserted (no UNIQUE constraint to stop a duplicate)"
        }
        (WriteOutcome::Updated, _) => "conflict on the key: existing row updated, no new row",
        (WriteOutcome::Ignored, _) => "conflict on the key: ignored, no new row",
        (WriteOutcome::Conflict, _) => "UNIQUE constraint failed: the row already exists",
    })?;
    if lost {
        out.write_str(", but the acknowledgment was lost: timeout")?;
    }
    Ok(())
}

impl Rejection {
    /// Why, in words: also the reason the journal row keeps.
    pub fn text(&self) -> String {
        match self {
            Rejection::ProviderPayload => {
                "the provider holds another payload under this key".to_string()
            }
            Rejection::KeyReused { status } => {
                format!("{status}: key reused with a different payload")
            }
            Rejection::KeyMissing => "400: no Idempotency-Key header".to_string(),
        }
    }

    /// What a person may do next with the refused operation `op`.
    pub fn next_action(&self, op: &str) -> String {
        match self {
            Rejection::ProviderPayload | Rejection::KeyReused { .. } => format!(
                "compare the two payloads: the same intention resumes {op}; a new one needs a new id"
            ),
            Rejection::KeyMissing => {
                format!("send {op} again with its own id as the Idempotency-Key")
            }
        }
    }
}

impl Prior {
    fn write(&self, out: &mut String) -> fmt::Result {
        match self {
            Prior::Success => out.write_str("success"),
            Prior::FailedAt { stage } => write!(out, "failed at {stage}"),
            Prior::None => out.write_str("none"),
            Prior::Status { status } => out.write_str(status.name()),
        }
    }
}

impl Label {
    /// The words on the arrow, as the sequence diagram and the event card show them.
    pub fn text(&self, event: &Event) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.write(&event.op, &mut out);
        out
    }

    fn write(&self, op: &str, out: &mut String) -> fmt::Result {
        match self {
            Label::Get => write!(out, "get {op}"),
            Label::InsertPending => write!(out, "insert {op} pending"),
            Label::SetStatus { status } => write!(out, "set {op} {}", status.name()),
            Label::SetVerified { receipt } => write!(out, "set {op} verified {receipt}"),
            Label::MarkSuccess => write!(out, "mark_success {op}"),
            Label::Lookup { key } => write!(out, "lookup {key}"),
            Label::Submit { key, payload } => match key.as_str() {
                "" => write!(out, "submit {payload} (no key)"),
                key => write!(out, "submit {key} {payload}"),
            },
            Label::Write { key } => write!(out, "write {key}"),
            Label::Select { key } => write!(out, "SELECT {key}"),
            Label::SelectTracking { key } => write!(out, "SELECT tracking {key}"),
            Label::Claim { key } => write!(out, "claim {key}"),
            Label::Record { key, charge } => write!(out, "record {key} ch-{charge}"),
            Label::AlreadyDone { key } => write!(out, "already_done {key}"),
            Label::MarkDone { key } => write!(out, "mark_done {key}"),
            Label::Charge { payload } => write!(out, "charge {payload}"),
            Label::Notify => write!(out, "notify {op}"),
            Label::Email => write!(out, "email {op}"),
            Label::CallModel => write!(out, "call_model {op}"),
            Label::Save { position } => write!(out, "save {position}"),
            Label::Ok => out.write_str("ok"),
            Label::None => out.write_str("none"),
            Label::Status { status } => out.write_str(status.name()),
            Label::Success => out.write_str("success"),
            Label::FailedAt { stage } => write!(out, "failed at {stage}"),
            Label::RowExists => out.write_str("ignored: row exists"),
            Label::FoundReceipt { receipt } => write!(out, "found {receipt}"),
            Label::Found => out.write_str("found"),
            Label::NotFound => out.write_str("not found"),
            Label::Busy => out.write_str("503 busy"),
            Label::Provider { reply } => match reply {
                Reply::Created { receipt } => write!(out, "201 {receipt}"),
                Reply::Replayed { receipt } => write!(out, "200 {receipt} (replay)"),
                Reply::SilentlyAccepted { receipt } => write!(out, "200 {receipt}"),
                Reply::Rejected { status } => write!(out, "{status} key reused"),
                Reply::KeyMissing => out.write_str("400 key missing"),
            },
            Label::Invalid => out.write_str("400 invalid"),
            Label::Forbidden => out.write_str("403 forbidden"),
            Label::Locked => out.write_str("database is locked"),
            Label::WriteDone { write } => out.write_str(match write {
                WriteOutcome::Inserted => "inserted",
                WriteOutcome::Updated => "updated",
                WriteOutcome::Ignored => "ignored",
                WriteOutcome::Conflict => "conflict",
            }),
            Label::OneRow => out.write_str("1 row"),
            Label::NoRow => out.write_str("no row"),
            Label::RowClaimed => out.write_str("1 row claimed"),
            Label::KeyTaken => out.write_str("0 rows: key taken"),
            Label::Charged { charge } => write!(out, "charged ch-{charge}"),
            Label::Sent => out.write_str("sent"),
            Label::AlreadySent => out.write_str("skipped: already sent"),
            Label::InEmailLog => out.write_str("skipped: in the email log"),
            Label::Done => out.write_str("done"),
            Label::NotDone => out.write_str("not done"),
            Label::RateLimited => out.write_str("429 rate limited"),
            Label::Summary => write!(out, "summary-{op}"),
        }
    }
}

impl Reply {
    /// The reply as data, from the provider's answer (moving its receipt, no copy).
    pub(crate) fn from_submit(reply: crate::provider::SubmitReply) -> Reply {
        use crate::provider::SubmitReply;
        match reply {
            SubmitReply::Created { receipt } => Reply::Created { receipt },
            SubmitReply::Replayed { receipt } => Reply::Replayed { receipt },
            SubmitReply::Rejected { status } => Reply::Rejected { status },
            SubmitReply::SilentlyAccepted { receipt } => Reply::SilentlyAccepted { receipt },
            SubmitReply::KeyMissing => Reply::KeyMissing,
        }
    }
}
