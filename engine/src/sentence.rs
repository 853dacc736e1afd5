//! The words of a trace: each outcome and each message label as the sentence a person reads,
//! rendered from the event's data and its own `op` and `action`.

use std::fmt::{self, Write};

use crate::fault::Action;
use crate::outcome::{Arrival, Label, NotSent, Outcome, Prior, Rejection, SubmitReply};
use crate::trace::Event;
use crate::world::WriteOutcome;

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
                keyed,
            } => {
                let how = match arrival {
                    Arrival::First => "receives",
                    Arrival::Restart => "restarts and receives",
                    Arrival::Redelivered => "receives again (redelivered)",
                };
                match key.as_str() {
                    _ if *keyed => write!(out, "{how} {op} {payload} (its key is set by the program)"),
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
            Outcome::Raised { error } => write!(
                out,
                "raises {}: no handler catches it, so the run stops",
                error.name()
            ),
            Outcome::LateCommit { reply } => match reply {
                SubmitReply::Created { receipt } => write!(
                    out,
                    "the timed-out request arrives late and commits: {receipt}"
                ),
                SubmitReply::Replayed { receipt } => write!(
                    out,
                    "the timed-out request arrives late; {receipt} exists, no new effect"
                ),
                SubmitReply::Rejected { status } => write!(
                    out,
                    "the timed-out request arrives late and is refused ({status})"
                ),
                SubmitReply::KeyMissing => out.write_str(
                    "the timed-out request arrives late and is refused (400: no Idempotency-Key header)",
                ),
                SubmitReply::SilentlyAccepted { receipt } => write!(
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
                SubmitReply::Created { receipt } => write!(out, "provider created {receipt}"),
                SubmitReply::Replayed { receipt } => {
                    write!(out, "provider replayed {receipt}: no new effect")
                }
                SubmitReply::SilentlyAccepted { receipt } => write!(
                    out,
                    "changed payload accepted silently: old {receipt} returned"
                ),
                SubmitReply::Rejected { status } => {
                    write!(out, "{status}: key reused with a different payload")
                }
                SubmitReply::KeyMissing => out.write_str("400: no Idempotency-Key header"),
            },
            Outcome::BacksOff { ticks, attempt } => write!(
                out,
                "backs off {ticks} {} before attempt {attempt}",
                if *ticks == 1 { "tick" } else { "ticks" }
            ),
            Outcome::Journal { status } => write!(out, "journal: {}", status.name()),
            Outcome::JournalRejected { why } => write!(out, "journal: failed ({})", why.text()),
            Outcome::RowWritten {
                write,
                unique,
                lost,
            } => written(out, write, *unique, *lost),
            Outcome::TrackingSaved { key, new, lost } => {
                match new {
                    true => write!(out, "dedup key {key} committed")?,
                    false => write!(out, "dedup key {key} was already committed")?,
                }
                if *lost {
                    out.write_str(", but the acknowledgment was lost: timeout")?;
                }
                Ok(())
            }
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
            Outcome::ClaimTakenOver { claimed_at } => write!(
                out,
                "the claim from tick {claimed_at} outlived its lease with no result stored: this request takes it over and owns the charge"
            ),
            Outcome::CheckFound { found } => {
                write!(out, "check: {}", if *found { "found" } else { "not found" })
            }
            Outcome::ResultRecorded => out.write_str("result recorded for replays"),
            Outcome::NotCharged => out.write_str("the gateway did not charge"),
            Outcome::Declined => out.write_str("card declined: nothing charged"),
            Outcome::ChargeReplayed => out.write_str(
                "the gateway knows this key: it replays its first charge, nothing new is charged",
            ),
            Outcome::Replayed { stored } => {
                write!(out, "returns \"replayed\": the stored result, {stored}")
            }
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
            Outcome::PriorRead { prior, kept } => {
                out.write_str("prior result: ")?;
                prior.write(out)?;
                match kept {
                    0 => Ok(()),
                    1 => out.write_str("; 1 stage kept its output"),
                    kept => write!(out, "; {kept} stages kept their output"),
                }
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
            Label::Record { key, result } => write!(out, "record {key} {result}"),
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
                SubmitReply::Created { receipt } => write!(out, "201 {receipt}"),
                SubmitReply::Replayed { receipt } => write!(out, "200 {receipt} (replay)"),
                SubmitReply::SilentlyAccepted { receipt } => write!(out, "200 {receipt}"),
                SubmitReply::Rejected { status } => write!(out, "{status} key reused"),
                SubmitReply::KeyMissing => out.write_str("400 key missing"),
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
            Label::CardDeclined => out.write_str("402 card declined"),
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
