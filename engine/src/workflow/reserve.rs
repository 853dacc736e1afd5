//! Seed 002's recovery lab `run()`: checkpoint in the journal, reconcile by lookup, submit once,
//! verify. Design switches: reconcile or not, trust a "not found" or send it to review, the key's
//! source, and the retry policy around the submit.

use crate::fault::{Action, FaultKind};
use crate::provider::{self, SubmitReply};
use crate::retry;
use crate::say::{Label, Outcome, Rejection, Reply};
use crate::scenario::{FailureClass, Scenario};
use crate::text::Text;
use crate::world::{JobRow, JobStatus, Review};

use super::{key_line, Ctx, Flow, Listing, Lost, Start, Step, AT_RECEIVE, INSTEAD_OF_STEP};

/// The most retry layers a policy may stack (`design.retry.layers` is validated to 1..=6).
const LAYERS: usize = 6;

/// Where faults can strike in this workflow. A back-off is the worker waiting: nothing strikes.
pub(crate) const FAULTS: &[(Action, &[FaultKind])] = &[
    (Action::Receive, AT_RECEIVE),
    (Action::JournalGet, INSTEAD_OF_STEP),
    (Action::JournalInsert, INSTEAD_OF_STEP),
    (
        Action::ProviderLookup,
        &[
            FaultKind::LoseRequest,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::StaleLookup,
            FaultKind::Cancel,
        ],
    ),
    (
        Action::ProviderSubmit,
        &[
            FaultKind::LoseRequest,
            FaultKind::LoseReply,
            FaultKind::Timeout,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::ExpireKey,
            FaultKind::InvalidInput,
            FaultKind::PermissionDenied,
            FaultKind::Cancel,
        ],
    ),
    (Action::Sleep, &[]),
    (Action::JournalUpdate, INSTEAD_OF_STEP),
    (Action::Return, INSTEAD_OF_STEP),
];

/// The listing the code panel shows for this scenario's design.
pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let design = &scenario.design;
    let retrying = design.retry.attempts_max > 1;
    let mut code = Listing::default();
    code.named("def", "def run(journal, provider, operation_id, order):")
        .text("    payload = canonical_json(order)")
        .text(&key_line(scenario, "    ", "operation_id"))
        .named("get", "    row = journal.get(operation_id)")
        .text("    if row and row.payload != payload:")
        .named(
            "reject_journal",
            "        raise ValueError(\"id reused with different content\")",
        )
        .text("    if row and row.status == \"verified\":")
        .named("already", "        return \"already_verified\"")
        .text("    if not row:")
        .named(
            "insert",
            "        journal.insert(operation_id, payload, status=\"pending\")",
        );
    if scenario
        .faults
        .iter()
        .any(|rule| rule.fault == FaultKind::Cancel)
    {
        code.named(
            "cancel",
            "    # between steps: if cancel_requested(): mark cancelled, stop",
        );
    }
    let reconcile = design.reconcile && scenario.provider.lookup;
    if reconcile {
        code.named("lookup", "    found = provider.lookup(key)")
            .text("    if found and found.payload != payload:")
            .named(
                "reject_found",
                "        raise ValueError(\"provider record differs\")",
            );
        if !design.trust_not_found {
            code.text("    if not found and row and row.attempts > 0:")
                .text("        # 'not found' may be stale: do not act again on a guess")
                .named(
                    "review",
                    "        journal.update(operation_id, status=\"needs_review\")",
                )
                .named("review_return", "        return \"needs_review\"");
        }
        code.text("    if found:")
            .text("        receipt = found.receipt")
            .text("    else:");
    }
    let pad = if reconcile { "    " } else { "" };
    let line = |text: &str| format!("{pad}{text}");
    if retrying {
        let policy = &design.retry;
        let eligible = |class| policy.eligible.contains(&class);
        code.text(&line(&format!("    # {}", policy_summary(policy))))
            .text(&line(&format!(
                "    for attempt in range({}):",
                policy.attempts_max
            )))
            .text(&line("        try:"))
            .named(
                "submit",
                &line("            receipt = provider.submit(key, payload)"),
            )
            .text(&line("            break"))
            .text(&line("        except Busy:  # temporary: nothing happened"));
        if eligible(FailureClass::Temporary) {
            code.named(
                "sleep",
                &line("            sleep(backoff(attempt))  # then try again"),
            );
        } else {
            code.named("gave_up", &line("            return \"gave_up\""));
        }
        code.text(&line(
            "        except Timeout:  # unknown completion: it may have happened",
        ));
        if eligible(FailureClass::UnknownCompletion) {
            let then = if reconcile {
                "then look it up before resubmitting"
            } else {
                "then resubmit blindly"
            };
            code.named(
                "sleep_unknown",
                &line(&format!("            sleep(backoff(attempt))  # {then}")),
            );
        } else {
            code.named("unknown", &line("            return \"unknown\""));
        }
        code.named(
            "exhausted",
            &line("    else: return \"gave_up\"  # attempts or deadline used up"),
        );
    } else {
        code.text(&line("    try:"))
            .named(
                "submit",
                &line("        receipt = provider.submit(key, payload)"),
            )
            .text(&line("    except Timeout:"))
            .named("unknown", &line("        return \"unknown\""))
            .text(&line("    except Busy:"))
            .named("gave_up", &line("        return \"gave_up\""));
    }
    code.text(&line(
        "    except Rejected as error:  # 4xx: retrying cannot help",
    ))
    .named(
        "reject_submit",
        &line("        raise ValueError(error.status)"),
    )
    .text(&line("    except Forbidden, Invalid as error:"))
    .named(
        "fail",
        &line("        journal.update(operation_id, status=\"failed\", reason=error)"),
    )
    .named("fail_return", &line("        return \"failed\""))
    .named(
        "update",
        "    journal.update(operation_id, status=\"verified\", receipt=receipt)",
    )
    .named("verified", "    return \"verified\"");
    code
}

/// The retry policy in one comment line.
fn policy_summary(policy: &crate::scenario::RetryPolicy) -> String {
    use crate::scenario::{Backoff, Jitter};
    // Neutral on purpose: what the layers add up to is for the learner to work out.
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
    format!(
        "retry policy: {} attempts{layers}, {backoff} backoff from {} ticks, {jitter} jitter, cap {}{deadline}",
        policy.attempts_max, policy.delay_base_ticks, policy.delay_cap_ticks
    )
}

/// Where the run is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Get,
    Insert,
    Lookup,
    Submit,
    /// Back off this many ticks; the line says which failure class is being retried.
    Sleep(u32, &'static str),
    Review,
    Fail(String),
    /// Refused for a changed payload: recorded as failed with why, then the run returns.
    Reject(Rejection, &'static str),
    Update,
    Return(&'static str, &'static str),
}

/// One run of `run()`.
#[derive(Debug)]
pub(crate) struct Task {
    pub start: Start,
    pc: Pc,
    /// The submit attempts of the journal row as read at the start of the run; `None` when
    /// there was no row.
    row_attempts: Option<u32>,
    /// The whole row's fingerprint as read: the row itself is not kept, only what the run
    /// reads of it later, but states still differ by every field of the row they read.
    row_fingerprint: u64,
    receipt: Option<Text>,
    /// Submits made in this run.
    attempts: u32,
    /// Attempts each retry layer has made in its current round, innermost first: a layer that
    /// retries starts every layer inside it afresh, as a real stack of retry loops does.
    tries: [u32; LAYERS],
    /// The last pause each layer took (decorrelated jitter grows from it).
    last_delays: [u32; LAYERS],
    /// A reply or lookup in this run proved the effect.
    evidence: bool,
}

impl Task {
    pub fn new(start: Start) -> Self {
        Task {
            start,
            pc: Pc::Get,
            row_attempts: None,
            row_fingerprint: 0,
            receipt: None,
            attempts: 0,
            tries: [1; LAYERS],
            last_delays: [0; LAYERS],
            evidence: false,
        }
    }
}

crate::world::clone_by_fields!(Task {
    start,
    pc,
    row_attempts,
    row_fingerprint,
    receipt,
    attempts,
    tries,
    last_delays,
    evidence
});

impl Flow for Task {
    fn hash_state(&self, hasher: &mut crate::fingerprint::Fingerprint) {
        use std::hash::{Hash, Hasher};
        self.start.hash(hasher);
        // The row as read, by the fingerprint taken when it was read.
        hasher.write_u64(self.row_fingerprint);
        // Small numbers two to a word, fewer words to mix; the flags say which text follows.
        let flags = u64::from(self.evidence) | u64::from(self.receipt.is_some()) << 1;
        hasher.write_u64(u64::from(self.attempts) | flags << 32);
        const { assert!(LAYERS % 2 == 0, "the layers go two to a word") };
        for layer in (0..LAYERS).step_by(2) {
            let pair = |numbers: &[u32; LAYERS]| {
                u64::from(numbers[layer]) | u64::from(numbers[layer + 1]) << 32
            };
            hasher.write_pair(pair(&self.tries), pair(&self.last_delays));
        }
        if let Some(receipt) = &self.receipt {
            hasher.write_text(receipt);
        }
        self.pc.hash(hasher);
    }

    fn start(&self) -> &Start {
        &self.start
    }

    /// A cancel after a submit nobody has an answer for leaves the row `unknown`, not
    /// `cancelled`: the provider may have the request.
    fn cancel(&mut self, ctx: &mut Ctx) -> Step {
        let unresolved = self.uncertain() && !self.evidence;
        super::cancel_run(ctx, &self.start.op, self.next_action(), unresolved)
    }

    fn next_action(&self) -> Action {
        match self.pc {
            Pc::Get => Action::JournalGet,
            Pc::Insert => Action::JournalInsert,
            Pc::Lookup => Action::ProviderLookup,
            Pc::Submit => Action::ProviderSubmit,
            Pc::Sleep(..) => Action::Sleep,
            Pc::Review | Pc::Fail(_) | Pc::Reject(..) | Pc::Update => Action::JournalUpdate,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        match self.pc.clone() {
            Pc::Get => self.get(ctx),
            Pc::Insert => self.insert(ctx),
            Pc::Lookup => self.lookup(ctx),
            Pc::Submit => self.submit(ctx),
            Pc::Sleep(ticks, line) => self.sleep(ctx, ticks, line),
            Pc::Review => {
                let op = &self.start.op;
                let next = format!("settle {op} through the provider's own recovery channel (support, statement), then record its receipt or resume {op}; never resubmit");
                self.mark(
                    ctx,
                    JobStatus::NeedsReview,
                    "review",
                    Some(("lookup inconclusive", next)),
                )
            }
            Pc::Fail(reason) => {
                let op = &self.start.op;
                let next = format!(
                    "correct the input or the credential, then resume {op} under its own id"
                );
                self.mark(
                    ctx,
                    JobStatus::Failed,
                    "fail",
                    Some((reason.as_str(), next)),
                )
            }
            Pc::Reject(why, line) => {
                let reason = why.text();
                let next = why.next_action(&self.start.op);
                let mut step =
                    self.mark(ctx, JobStatus::Failed, line, Some((reason.as_str(), next)));
                step.outcome = Some(Outcome::JournalRejected { why });
                self.pc = Pc::Return("rejected", line);
                step
            }
            Pc::Update => self.mark(ctx, JobStatus::Verified, "update", None),
            Pc::Return(result, line) => {
                let mut step = Step::default();
                step.finish(result, line);
                step
            }
        }
    }
}

impl Task {
    /// An earlier attempt, in an earlier run or in this one, may have taken effect.
    fn uncertain(&self) -> bool {
        self.attempts > 0 || self.row_attempts.is_some_and(|attempts| attempts > 0)
    }

    fn get(&mut self, ctx: &mut Ctx) -> Step {
        let found = ctx.world.journal.get_at(&self.start.op);
        // No row reads as 0: a row's fingerprint is a hash, 0 only by a 2^-64 chance.
        self.row_fingerprint = found.map_or(0, |(position, _)| ctx.world.job_fingerprint(position));
        let row = found.map(|(_, row)| row);
        self.row_attempts = row.map(|row| row.attempts);
        let answer = match row {
            None => Label::None,
            Some(row) => Label::Status { status: row.status },
        };
        let read = row.map(|row| (row.status, *row.payload == *self.start.payload));
        let messages = ctx.call("journal", Lost::Nothing, || (Label::Get, Some(answer)));
        self.pc = match read {
            Some((_, false)) => Pc::Return("rejected", "reject_journal"),
            Some((JobStatus::Verified, true)) => Pc::Return("already_verified", "already"),
            None => Pc::Insert,
            Some(_) => self.after_checkpoint(ctx.scenario),
        };
        let outcome = match (read, &self.pc) {
            (None, _) => Outcome::NoJournalRow,
            (Some(_), Pc::Return("rejected", _)) => Outcome::JournalPayloadDiffers,
            (Some((status, _)), _) => Outcome::JournalRow { status },
        };
        Step {
            messages,
            outcome: Some(outcome),
            line: "get",
            ..Step::default()
        }
    }

    fn after_checkpoint(&self, scenario: &Scenario) -> Pc {
        if scenario.design.reconcile && scenario.provider.lookup {
            Pc::Lookup
        } else {
            Pc::Submit
        }
    }

    fn insert(&mut self, ctx: &mut Ctx) -> Step {
        let op = self.start.op.clone();
        // INSERT OR IGNORE: a racing worker may have written the row since our read.
        let existed = ctx.world.journal.contains_key(&op);
        ctx.world.job_insert_or_ignore(JobRow {
            id: op.clone(),
            payload: self.start.payload.clone(),
            status: JobStatus::Pending,
            receipt: None,
            attempts: 0,
            stages: Default::default(),
            failed_stage: None,
            reason: None,
            review: None,
        });
        let reply = if existed { Label::RowExists } else { Label::Ok };
        let messages = ctx.call("journal", Lost::Nothing, || {
            (Label::InsertPending, Some(reply))
        });
        self.pc = self.after_checkpoint(ctx.scenario);
        let outcome = if existed {
            Outcome::CheckpointRaced
        } else {
            Outcome::CheckpointSaved
        };
        Step {
            messages,
            outcome: Some(outcome),
            line: "insert",
            ..Step::default()
        }
    }

    fn lookup(&mut self, ctx: &mut Ctx) -> Step {
        let key = self.start.key.clone();
        let request = || Label::Lookup { key: key.clone() };
        let mut step = Step {
            line: "lookup",
            ..Step::default()
        };
        if matches!(ctx.fault, Some(FaultKind::LoseRequest | FaultKind::Busy)) {
            step.fault_used = true;
            let lost = ctx.fault == Some(FaultKind::LoseRequest);
            let reply = (!lost).then_some(Label::Busy);
            let how = if lost { Lost::Request } else { Lost::Nothing };
            step.messages = ctx.call("provider", how, || (request(), reply));
            step.outcome = Some(Outcome::LookupFailed);
            self.pc = Pc::Return("unknown", "unknown");
            return step;
        }
        let stale = ctx.fault == Some(FaultKind::StaleLookup);
        step.fault_used = stale;
        let found = provider::lookup(ctx.world, &ctx.scenario.provider, &key).filter(|_| !stale);
        match found {
            Some(found) if *found.payload != *self.start.payload => {
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    let receipt = found.receipt.clone();
                    (request(), Some(Label::FoundReceipt { receipt }))
                });
                step.outcome = Some(Outcome::ProviderPayloadDiffers);
                self.pc = Pc::Reject(Rejection::ProviderPayload, "reject_found");
            }
            Some(found) => {
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    let receipt = found.receipt.clone();
                    (request(), Some(Label::FoundReceipt { receipt }))
                });
                let receipt = ctx.text(&found.receipt);
                step.outcome = Some(Outcome::AlreadyDone { receipt });
                self.receipt = Some(found.receipt);
                self.evidence = true;
                self.pc = Pc::Update;
            }
            None => {
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::NotFound))
                });
                if self.uncertain() && !ctx.scenario.design.trust_not_found {
                    step.outcome = Some(Outcome::NotFoundUnresolved);
                    self.pc = Pc::Review;
                } else {
                    step.outcome = Some(Outcome::NotFound);
                    self.pc = Pc::Submit;
                }
            }
        }
        step
    }

    fn submit(&mut self, ctx: &mut Ctx) -> Step {
        let op = self.start.op.clone();
        let key = self.start.key.clone();
        let payload = self.start.payload.clone();
        let mut step = Step {
            line: "submit",
            fault_used: ctx.fault.is_some(),
            ..Step::default()
        };
        if let Some(job) = ctx.world.job_mut(&op) {
            step.flags.resubmitted = job.status.is_success();
            job.attempts += 1;
        }
        self.attempts += 1;
        ctx.world.count_deepest_call();
        let config = ctx.scenario.provider.clone();
        let request = || Label::Submit {
            key: key.clone(),
            payload: payload.clone(),
        };
        let failure = match ctx.fault {
            Some(FaultKind::LoseRequest) => {
                step.messages = ctx.call("provider", Lost::Request, || (request(), None));
                step.outcome = Some(Outcome::SubmitRequestLost);
                Some(FailureClass::UnknownCompletion)
            }
            Some(FaultKind::LoseReply) => {
                let reply = provider::submit(ctx.world, &config, &key, &payload, &op);
                step.messages = ctx.call("provider", Lost::Reply, || {
                    let reply = Reply::from_submit(reply);
                    (request(), Some(Label::Provider { reply }))
                });
                step.outcome = Some(Outcome::SubmitReplyLost);
                Some(FailureClass::UnknownCompletion)
            }
            Some(FaultKind::Timeout) => {
                ctx.world.push_in_flight(crate::world::InFlight {
                    key: key.clone(),
                    payload: payload.clone(),
                    operation: op.clone(),
                    commit_tick: ctx.world.tick.saturating_add(3),
                });
                step.messages = ctx.call("provider", Lost::Nothing, || (request(), None));
                step.outcome = Some(Outcome::SubmitTimeout);
                Some(FailureClass::UnknownCompletion)
            }
            Some(FaultKind::Busy) => {
                step.messages =
                    ctx.call("provider", Lost::Nothing, || (request(), Some(Label::Busy)));
                step.outcome = Some(Outcome::SubmitBusy);
                Some(FailureClass::Temporary)
            }
            Some(FaultKind::InvalidInput) => {
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::Invalid))
                });
                step.outcome = Some(Outcome::SubmitInvalid);
                Some(FailureClass::InvalidInput)
            }
            Some(FaultKind::PermissionDenied) => {
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::Forbidden))
                });
                step.outcome = Some(Outcome::SubmitForbidden);
                Some(FailureClass::Permission)
            }
            other => {
                if other == Some(FaultKind::ExpireKey) {
                    ctx.world.expire_key(&key);
                }
                let reply = provider::submit(ctx.world, &config, &key, &payload, &op);
                step.messages = ctx.call("provider", Lost::Nothing, || {
                    let reply = Reply::from_submit(reply.clone());
                    (request(), Some(Label::Provider { reply }))
                });
                self.accept(reply, &mut step);
                None
            }
        };
        if let Some(class) = failure {
            self.pc = self.after_failure(ctx, class);
        }
        step
    }

    /// The provider answered.
    fn accept(&mut self, reply: SubmitReply, step: &mut Step) {
        match &reply {
            SubmitReply::Created { receipt } | SubmitReply::Replayed { receipt } => {
                self.receipt = Some(receipt.clone());
                self.evidence = true;
                self.pc = Pc::Update;
            }
            SubmitReply::SilentlyAccepted { receipt } => {
                step.flags.silent_change = true;
                self.receipt = Some(receipt.clone());
                self.evidence = true;
                self.pc = Pc::Update;
            }
            SubmitReply::Rejected { status } => {
                let status = *status;
                self.pc = Pc::Reject(Rejection::KeyReused { status }, "reject_submit");
            }
            SubmitReply::KeyMissing => {
                self.pc = Pc::Reject(Rejection::KeyMissing, "reject_submit");
            }
        }
        // The provider's answer already holds the receipt: the outcome takes it, no copy.
        step.outcome = Some(Outcome::Submitted {
            reply: Reply::from_submit(reply),
        });
    }

    /// Classify, then respond as the class allows.
    fn after_failure(&mut self, ctx: &mut Ctx, class: FailureClass) -> Pc {
        let policy = &ctx.scenario.design.retry;
        match class {
            FailureClass::InvalidInput => return Pc::Fail("invalid input".into()),
            FailureClass::Permission => return Pc::Fail("permission denied".into()),
            _ => {}
        }
        // The innermost layer with attempts left retries; with none left, the outermost layer
        // has given up (its pause is still drawn, so the RNG stream does not depend on it).
        let layers = if policy.single_layer {
            1
        } else {
            policy.layers.clamp(1, LAYERS as u32) as usize
        };
        let retrying_layer = (0..layers).find(|&layer| self.tries[layer] < policy.attempts_max);
        let layer = retrying_layer.unwrap_or(layers - 1);
        let eligible = policy.eligible.contains(&class);
        let delay = retry::delay_ticks(
            policy,
            self.tries[layer] - 1,
            self.last_delays[layer],
            ctx.rng,
        );
        let elapsed = ctx
            .world
            .tick
            .saturating_add(delay)
            .saturating_sub(self.start.tick);
        let in_time = policy.deadline_ticks == 0 || elapsed <= policy.deadline_ticks;
        if eligible && retrying_layer.is_some() && in_time {
            self.tries[layer] += 1;
            self.last_delays[layer] = delay;
            for inner in 0..layer {
                self.tries[inner] = 1;
                self.last_delays[inner] = 0;
            }
            let line = if class == FailureClass::Temporary {
                "sleep"
            } else {
                "sleep_unknown"
            };
            return Pc::Sleep(delay, line);
        }
        let retrying = policy.attempts_max > 1;
        match (class, eligible && retrying) {
            (FailureClass::Temporary, true) => Pc::Return("gave_up", "exhausted"),
            (FailureClass::Temporary, false) => Pc::Return("gave_up", "gave_up"),
            (_, true) => Pc::Return("unknown", "exhausted"),
            (_, false) => Pc::Return("unknown", "unknown"),
        }
    }

    fn sleep(&mut self, ctx: &mut Ctx, ticks: u32, line: &'static str) -> Step {
        // After an unknown completion, reconcile before resubmitting.
        self.pc = self.after_checkpoint(ctx.scenario);
        Step {
            outcome: Some(Outcome::BacksOff {
                ticks,
                attempt: self.attempts + 1,
            }),
            line,
            sleep_ticks: ticks,
            ..Step::default()
        }
    }

    /// Records `status`; `handover` is the reason and the next permitted action of a row this
    /// run leaves to a person.
    fn mark(
        &mut self,
        ctx: &mut Ctx,
        status: JobStatus,
        line: &'static str,
        handover: Option<(&str, String)>,
    ) -> Step {
        let op = self.start.op.clone();
        let mut step = Step {
            line,
            ..Step::default()
        };
        let (reason, review) = match handover {
            Some((reason, next_action)) => (
                Some(reason.into()),
                Some(Box::new(Review {
                    owner: ctx.scenario.design.review_owner.as_deref().map(Text::from),
                    next_action: next_action.into(),
                })),
            ),
            None => (None, None),
        };
        if let Some(job) = ctx.world.job_mut(&op) {
            job.status = status;
            job.reason = reason;
            job.review = review;
            if status == JobStatus::Verified {
                job.receipt = self.receipt.clone();
                step.flags.unproven_success = !self.evidence;
            }
        }
        let receipt = &self.receipt;
        step.messages = ctx.call("journal", Lost::Nothing, || {
            let detail = match (receipt, status) {
                (Some(receipt), JobStatus::Verified) => Label::SetVerified {
                    receipt: receipt.clone(),
                },
                _ => Label::SetStatus { status },
            };
            (detail, Some(Label::Ok))
        });
        step.outcome = Some(Outcome::Journal { status });
        self.pc = match status {
            JobStatus::Verified => Pc::Return("verified", "verified"),
            JobStatus::NeedsReview => Pc::Return("needs_review", "review_return"),
            _ => Pc::Return("failed", "fail_return"),
        };
        step
    }
}
