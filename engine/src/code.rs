//! The code panel's words: each block as the Python-like line the sources write, and the lines
//! above a program (the function's header, where its key comes from). A block's line may read
//! the scenario (the SQL of a write names the table's constraint; a retry loop names its policy)
//! and its workflow (the same handler reads `except Busy:` at a provider and `except
//! DatabaseBusy:` at a database).

use crate::block::Block;
use crate::fault::FaultKind;
use crate::keys;
use crate::kind::WorkflowKind;
use crate::scenario::{Backoff, CancelCheck, Jitter, KeySource, RetryPolicy, Scenario, WriteMode};

/// One line above a program.
pub enum Preamble {
    /// The function's header: where a run's arrival points.
    Def(String),
    /// Where a cancelled run points: a comment on where the cancel flag is read.
    Cancel(String),
    /// Where the run's key comes from, by the design's key source: left out of a program that
    /// sets its key on a line of its own.
    Key(String),
    Text(String),
}

/// The header, the lines every run of the workflow begins with, and the comment on where the
/// cancel flag is read: when the scenario can raise the flag, and always when the code reads it
/// itself (`cancel_check = "in_code"`), since only its own checks can stop it.
pub(crate) fn preamble(scenario: &Scenario, def: &str, lines: &[String]) -> Vec<Preamble> {
    let mut preamble = vec![Preamble::Def(def.to_string())];
    preamble.extend(
        lines
            .iter()
            .cloned()
            .map(|line| match line.starts_with(KEY_LINE) {
                true => Preamble::Key(line),
                false => Preamble::Text(line),
            }),
    );
    match scenario.switches.cancel_check {
        CancelCheck::InCode => preamble.push(Preamble::Text(
            "    # the cancel flag is read only at `if cancel_requested()` lines: a step already running finishes".into(),
        )),
        CancelCheck::EveryStep
            if scenario
                .faults
                .iter()
                .any(|rule| rule.fault == FaultKind::Cancel) =>
        {
            preamble.push(Preamble::Cancel(
                "    # between steps: if cancel_requested(): record what is done, stop".into(),
            ));
        }
        CancelCheck::EveryStep => {}
    }
    preamble
}

/// How a key line begins, indented as a function's body.
const KEY_LINE: &str = "    key = ";

/// The line that names where a key comes from, indented as a function's body.
/// `id` is how this workflow's code names the source's own id (`operation_id`, `event.source_id`).
pub(crate) fn key_line(scenario: &Scenario, id: &str) -> String {
    if scenario
        .workers
        .iter()
        .flat_map(|worker| &worker.runs)
        .any(|run| run.key.is_some())
    {
        return "    key = request.idempotency_key  # chosen by the caller: may be reused".into();
    }
    format!("    {}", key_words(scenario, scenario.switches.key, id))
}

/// `key = ...` for `source`, as the code panel writes it (a key line of the program, or the line
/// above it).
fn key_words(scenario: &Scenario, source: KeySource, id: &str) -> String {
    let text = match source {
        KeySource::SourceId if scenario.operations.iter().any(|op| op.missing_id) => {
            &format!("key = str({id})  # the source's own id: \"None\" when it is missing")
        }
        KeySource::SourceId => &format!("key = {id}  # the source's own id"),
        KeySource::AutoIncrement => "key = next_sequence_value()  # the next number in a sequence",
        KeySource::ContentHash => "key = sha256(canonical_json(event))  # a hash of the content",
        KeySource::FreshRandom => "key = uuid4()  # a random UUID",
        KeySource::HashWithReceivedAt => {
            "key = sha256(canonical_json(event) + str(received_at))  # the content, and when it arrived"
        }
        KeySource::SavedUuid => {
            "key = intention.key  # a uuid4() drawn once, when the intention was born, and saved"
        }
        KeySource::None => "key = None  # no Idempotency-Key header is sent",
    };
    text.to_string()
}

/// The SQL of a write in `mode`. Without UNIQUE on `key`, SQLite refuses a conflict target
/// naming it, so the upsert is written without one: it then never finds a conflict.
pub(crate) fn write_sql(scenario: &Scenario, mode: WriteMode, table: &str) -> String {
    let target = if scenario.switches.unique {
        "(key)"
    } else {
        ""
    };
    match mode {
        WriteMode::Insert => format!("INSERT INTO {table} (key, value) VALUES (?, ?)"),
        WriteMode::InsertOrIgnore => {
            format!("INSERT OR IGNORE INTO {table} (key, value) VALUES (?, ?)")
        }
        WriteMode::Upsert => format!(
            "INSERT INTO {table} (key, value) VALUES (?, ?) ON CONFLICT{target} DO UPDATE SET value = excluded.value"
        ),
    }
}

/// The retry policy in one comment line. Neutral on purpose: what the layers add up to is for
/// the learner to work out.
fn policy_summary(policy: &RetryPolicy) -> String {
    let layers = match (policy.layers, policy.single_layer) {
        (1, _) => String::new(),
        (n, false) => format!(" in each of {n} nested layers"),
        (n, true) => format!(" at the outer of {n} layers, the inner ones fail fast"),
    };
    let backoff = match policy.backoff {
        Backoff::Constant => "constant",
        Backoff::Exponential => "exponential",
    };
    let jitter = match policy.jitter {
        Jitter::None => "no",
        Jitter::Full => "full",
        Jitter::Equal => "equal",
        Jitter::Decorrelated => "decorrelated",
    };
    let deadline = match policy.deadline_ticks {
        0 => String::new(),
        ticks => format!(", deadline {ticks} ticks"),
    };
    let budget = match policy.retry_ratio_permille {
        0 => String::new(),
        permille => format!(
            ", retries at most {}.{}% of this client's requests",
            permille / 10,
            permille % 10
        ),
    };
    format!(
        "# retry policy: {} attempts{layers}, {backoff} backoff from {} ticks, {jitter} jitter, cap {}{deadline}{budget}",
        policy.attempts_max, policy.delay_base_ticks, policy.delay_cap_ticks
    )
}

/// A block's line as the code panel prints it, split: the comment above it, if any, and the code.
pub fn words(block: Block, scenario: &Scenario) -> (Option<String>, String) {
    let text = text(block, scenario);
    match text.rsplit_once('\n') {
        Some((comment, code)) => (Some(comment.to_string()), code.to_string()),
        None => (None, text),
    }
}

/// The block as the code panel prints it (without indentation); a comment line may come first.
pub fn text(block: Block, scenario: &Scenario) -> String {
    use Block as B;
    use WorkflowKind as W;
    let workflow = scenario.workflow;
    let write = |mode: WriteMode| {
        let (connection, table, arguments) = match workflow {
            W::Pipeline => ("db", "results", "(record.record_id, output)"),
            W::Ingest => ("db", "records", "(key, event)"),
            W::Notify => ("conn", "results", "(record_id, output)"),
            _ => ("conn", "results", "(key, output)"),
        };
        format!(
            "{connection}.execute(\"{}\", {arguments})",
            write_sql(scenario, mode, table)
        )
    };
    let text: &str = match block {
        B::Else => "else:",
        B::Try => "try:",
        B::Transaction => "with db.transaction():",
        B::RetryLoop => {
            let policy = &scenario.switches.retry;
            return format!(
                "{}\nfor attempt in range({}):",
                policy_summary(policy),
                policy.attempts_max
            );
        }
        B::Sleep => "sleep(backoff(attempt)); continue  # then the next attempt",
        B::ExceptTimeout => match workflow {
            W::Reserve | W::Webhook => "except Timeout:  # unknown completion: it may have happened",
            W::Charge => "except Timeout:  # charged or not? the reply never came",
            _ => "except Timeout:  # committed or not? the caller cannot tell",
        },
        B::ExceptBusy => match workflow {
            W::Reserve | W::Webhook => "except Busy:  # temporary: nothing happened",
            W::Ingest => "except DatabaseBusy:  # rolled back, nothing written",
            _ => "except DatabaseBusy:  # nothing was written: safe to retry",
        },
        B::ExceptBusyOrTimeout => "except (Busy, Timeout):  # the lookup itself failed",
        B::ExceptRejected => {
            "except Rejected as error:  # the provider refused this request: repeating it cannot help"
        }
        B::ExceptInvalid => "except (Forbidden, Invalid) as error:  # the input or the credential must change",
        B::ExceptIntegrity => "except IntegrityError:  # the UNIQUE constraint refused the row",
        B::ExceptSendError => match workflow {
            W::Charge => "except GatewayError:  # nothing was charged: the claim is given back",
            W::Ingest => "except EmailError:  # the row stays; a retry sends the email",
            _ => "except SendError:  # nothing was sent",
        },
        B::ExceptAll => match workflow {
            W::Pipeline => {
                "except StageFailure as failure:  # recorded with its stage and the output so far"
            }
            _ => "except Exception:  # the caller will retry the whole handler",
        },
        B::ReturnVerified => "return \"verified\"",
        B::ReturnAlreadyVerified => "return \"already_verified\"",
        B::ReturnNeedsReview => "return \"needs_review\"",
        B::ReturnFailed => "return \"failed\"",
        B::ReturnUnknown => "return \"unknown\"",
        B::ReturnGaveUp => "return \"gave_up\"",
        B::ReturnExhausted => {
            "return \"gave_up\" if last_error_was_busy else \"unknown\"  # attempts or deadline used up"
        }
        B::ReturnExists => "return \"exists\"  # someone else may insert right after this check",
        B::ReturnConflict => "return \"conflict\"  # the row is already there",
        B::ReturnWritten => "return \"written\"",
        B::ReturnReplayed => "return stored  # the SAME result (status and body, a decline too), no new charge",
        B::ReturnInProgress => {
            "return 409, \"a request with this key is in progress, retry later\""
        }
        B::ReturnCharged => "return result",
        B::ReturnDone => "return \"done\"",
        B::ReturnSkipped => match workflow {
            W::Ingest => "return \"skipped\"  # the row was there; the email has its own check",
            _ => "return \"skipped\"  # already done: never re-submit",
        },
        B::ReturnIngested => "return \"ingested\"",
        B::ReturnSucceeded => "return \"succeeded\"",
        B::RaiseJournalDiffers => "raise ValueError(\"id reused with different content\")",
        B::RaiseProviderDiffers => "raise ValueError(\"provider record differs\")",
        B::RaiseRejected => "raise ValueError(error.status)",
        B::JournalGet => "row = journal.get(operation_id)",
        B::IfRowDiffers => "if row and row.payload != payload:",
        B::IfRowVerified => "if row and row.status == \"verified\":",
        B::IfNoRow => "if not row:",
        B::JournalInsert => "journal.insert(operation_id, payload, status=\"pending\")",
        B::Lookup => "found = provider.lookup(key)",
        B::IfFoundDiffers => "if found and found.payload != payload:",
        B::IfNotFoundUncertain => {
            "if not found and row and row.attempts > 0:  # \"not found\" may be stale: do not act again on a guess"
        }
        B::IfFound => "if found:",
        B::UseFoundReceipt => "receipt = found.receipt",
        B::Submit => "receipt = provider.submit(key, payload)",
        B::MarkVerified => "journal.update(operation_id, status=\"verified\", receipt=receipt)",
        B::MarkNeedsReview => "journal.update(operation_id, status=\"needs_review\")",
        B::MarkFailed => "journal.update(operation_id, status=\"failed\", reason=error)",
        B::MarkRejected => "journal.update(operation_id, status=\"failed\")  # with why it was refused, for a person",
        B::SelectExists => {
            "if conn.execute(\"SELECT 1 FROM results WHERE key = ?\", (key,)).fetchone():"
        }
        B::WriteInsert | B::SaveInsert => return write(WriteMode::Insert),
        B::WriteInsertOrIgnore | B::SaveInsertOrIgnore => return write(WriteMode::InsertOrIgnore),
        B::WriteUpsert | B::SaveUpsert => return write(WriteMode::Upsert),
        B::Claim => {
            let comment = match scenario.switches.unique {
                true => "# processed_operations.key is UNIQUE: the claim is atomic",
                false => "# no UNIQUE on processed_operations.key: ON CONFLICT has nothing to detect",
            };
            return format!("{comment}\nclaimed, stored = claim(key)  # INSERT ... ON CONFLICT DO NOTHING; on conflict, the stored result");
        }
        B::ClaimWithLease => {
            let lease = scenario.switches.lease_ticks;
            return format!(
                "# INSERT ... ON CONFLICT (key) DO UPDATE SET claimed_at = now WHERE claimed_at < now - lease AND result IS NULL\n\
                 claimed, stored = claim(key, lease={lease})  # takes over a claim older than the lease with no result; on conflict, the stored result"
            );
        }
        B::IfNotClaimed => "if not claimed:",
        B::IfNoStored => "if stored is None:  # its owner has not recorded a result yet",
        B::SelectStored => {
            "stored = db.query(\"SELECT result FROM processed_operations WHERE key = %s\", key)"
        }
        B::IfStored => "if stored:",
        B::Charge => "result = payment_gateway.charge(request.amount)",
        B::ChargeKeyed => {
            "result = payment_gateway.charge(request.amount, idempotency_key=key)  # the gateway replays its first charge"
        }
        B::RecordResult => {
            "db.execute(\"UPDATE processed_operations SET result = %s WHERE key = %s\", result, key)"
        }
        B::InsertResult => {
            "db.execute(\"INSERT INTO processed_operations (key, result) VALUES (%s, %s)\", key, result)"
        }
        B::IfNotDone => "if not tracker.already_done(key):",
        B::MarkDoneBefore => "tracker.mark_done(key)  # BEFORE the effect",
        B::MarkDoneAfter => "tracker.mark_done(key)  # after the effect definitely succeeded",
        B::SendNotification => "await actually_send_notification(record_id)",
        B::PriorGet => "prior = results.get(record.record_id)",
        B::IfPriorSuccess => "if prior and prior.success:",
        B::StagesToDo => {
            "todo = stages_to_do(prior)  # from the first stage without kept output; all of them for a new or succeeded record"
        }
        B::IfTodoModel => "if \"model_call\" in todo:",
        B::CallModel => "output = await client.call_model(record)",
        B::ReuseOutput => "output = prior.output  # the model call already succeeded: reuse it",
        B::IfTodoWrite => "if \"downstream_write\" in todo:",
        B::IfTodoNotify => "if \"notification\" in todo:",
        B::NotifyGuarded => "await send_notification_idempotently(tracker, record.record_id)",
        B::NotifyUnguarded => "await actually_send_notification(record.record_id)",
        B::MarkSuccess => "results.mark_success(record.record_id, output)",
        B::CheckTracking => {
            "committed = db.execute(\"SELECT 1 FROM tracking WHERE dedup_key = ?\", (key,)).fetchone()"
        }
        B::IfNotCommitted => "if not committed:",
        B::IfCommitted => "if committed:",
        B::InsertFilterOnRead => {
            "db.execute(\"INSERT INTO records (key, value) VALUES (?, ?)  -- duplicates filtered when reading\", (key, event))"
        }
        B::TrackingInsert => {
            "db.execute(\"INSERT INTO tracking (dedup_key) VALUES (?)\", (key,))"
        }
        B::SendEmailLogged => {
            "if not email_log.contains(key): send_email(event); email_log.add(key)"
        }
        B::SendEmail => "send_email(event)  # no dedup log",
        B::SaveProgress => "progress.save(position)  # an external counter, after the fact",
        B::CheckCancel => {
            "if cancel_requested(): stop()  # records what is done; what comes after never begins"
        }
        B::EmailReceipt => {
            "mailer.send_receipt(event.customer, receipt, idempotency_key=f\"receipt:{key}\")  # a repeat under a kept key sends nothing"
        }
        B::KeySourceId | B::KeyContentHash | B::KeyUuid4 | B::KeyWithReceivedAt | B::KeySaved => {
            // The source's own id, as the workflow's header names it.
            let id = match workflow {
                W::Reserve | W::Webhook => "operation_id",
                W::Charge => "request.idempotency_key",
                _ => "event.source_id",
            };
            let source = keys::source_of(block).expect("a key block has a key source");
            return key_words(scenario, source, id);
        }
    };
    text.to_string()
}
