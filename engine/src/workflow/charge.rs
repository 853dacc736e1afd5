//! Seed 004's payment service: an idempotency table (`processed_operations`) in front of a card
//! charge. Without a UNIQUE key the check and the insert are two steps, and two near-simultaneous
//! retries can both pass the check; with it, the service claims the key atomically first.

use crate::fault::{Action, FaultKind};
use crate::say::{Label, Outcome};
use crate::scenario::{Scenario, WriteMode};
use crate::text::Text;
use crate::world::WriteOutcome;

use super::{
    key_line, send_effect, Ctx, Flow, Listing, Lost, Sent, Start, Step, AT_RECEIVE, INSTEAD_OF_STEP,
};

/// Where faults can strike in this workflow. The claim and the record are plain statements
/// here, with no busy or lost-acknowledgment path, so only the charge meets network faults.
pub(crate) const FAULTS: &[(Action, &[FaultKind])] = &[
    (Action::Receive, AT_RECEIVE),
    (Action::TableSelect, INSTEAD_OF_STEP),
    (Action::TableWrite, INSTEAD_OF_STEP),
    (
        Action::SinkSend,
        &[
            FaultKind::LoseRequest,
            FaultKind::LoseReply,
            FaultKind::Busy,
            FaultKind::Crash,
            FaultKind::Cancel,
        ],
    ),
    (Action::Return, INSTEAD_OF_STEP),
];

pub(crate) fn listing(scenario: &Scenario) -> Listing {
    let mut code = Listing::default();
    code.named("def", "def charge_card(request):")
        .text(&key_line(scenario, "    ", "request.idempotency_key"));
    if scenario.design.unique {
        code.text("    # processed_operations.key is UNIQUE: the claim is atomic")
            .named("claim", "    claimed = db.execute(\"INSERT INTO processed_operations (key) VALUES (%s) ON CONFLICT DO NOTHING\", key).rowcount")
            .text("    if not claimed:")
            .text("        stored = stored_result(key)")
            .text("        if stored is None:  # the claim's owner has not recorded a result yet")
            .named("in_progress", "            return 409, \"a request with this key is in progress, retry later\"")
            .named("replay", "        return stored  # the SAME result, no new charge")
            .named("charge", "    result = payment_gateway.charge(request.amount)")
            .named("record", "    db.execute(\"UPDATE processed_operations SET result = %s WHERE key = %s\", result, key)")
            .named("done", "    return result");
    } else {
        code.named("select", "    existing = db.query(\"SELECT result FROM processed_operations WHERE key = %s\", key)")
            .text("    if existing:")
            .named("replay", "        return existing.result  # already done: the SAME result, no new charge")
            .named("charge", "    result = payment_gateway.charge(request.amount)")
            .named("record", "    db.execute(\"INSERT INTO processed_operations (key, result) VALUES (%s, %s)\", key, result)")
            .named("done", "    return result");
    }
    code
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pc {
    Check,
    Charge,
    Record,
    Return(&'static str, &'static str),
}

#[derive(Clone, Hash)]
pub(crate) struct Task {
    start: Start,
    pc: Pc,
    /// The key is claimed with an atomic insert (a write) rather than checked with a read.
    claim: bool,
}

impl Task {
    pub fn new(start: Start, scenario: &Scenario) -> Self {
        Task {
            start,
            pc: Pc::Check,
            claim: scenario.design.unique,
        }
    }
}

impl Flow for Task {
    fn hash_state(&self, hasher: &mut crate::fingerprint::Fingerprint) {
        std::hash::Hash::hash(self, hasher);
    }

    fn start(&self) -> &Start {
        &self.start
    }

    fn next_action(&self) -> Action {
        match self.pc {
            Pc::Check if self.claim => Action::TableWrite,
            Pc::Check => Action::TableSelect,
            Pc::Charge => Action::SinkSend,
            Pc::Record => Action::TableWrite,
            Pc::Return(..) => Action::Return,
        }
    }

    fn step(&mut self, ctx: &mut Ctx) -> Step {
        let key = self.start.key.clone();
        let unique = ctx.scenario.design.unique;
        let mut step = Step::default();
        step.flags.promises_unique_rows = unique;
        match self.pc {
            Pc::Check if unique => {
                let outcome = ctx.world.write_row(
                    WriteMode::InsertOrIgnore,
                    &key,
                    &Text::fixed("in progress"),
                    &self.start.op,
                );
                let claimed = outcome == WriteOutcome::Inserted;
                let reply = if claimed {
                    Label::RowClaimed
                } else {
                    Label::KeyTaken
                };
                step.messages = ctx.call("database", Lost::Nothing, || {
                    (Label::Claim { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(if claimed {
                    Outcome::Claimed
                } else {
                    Outcome::ClaimTaken
                });
                step.line = "claim";
                // A claim whose owner has not recorded a result yet has nothing to replay: answer
                // "in progress, retry later" (409 in the IETF Idempotency-Key draft, and at Stripe)
                // rather than invent a result.
                let pending = !claimed
                    && ctx
                        .world
                        .table
                        .rows
                        .iter()
                        .any(|row| *row.key == *key && row.value == "in progress");
                self.pc = match (claimed, pending) {
                    (true, _) => Pc::Charge,
                    (false, true) => Pc::Return("in_progress", "in_progress"),
                    (false, false) => Pc::Return("replayed", "replay"),
                };
            }
            Pc::Check => {
                let existing = ctx.world.table.contains(&key);
                let reply = if existing {
                    Label::Found
                } else {
                    Label::NotFound
                };
                step.messages = ctx.call("database", Lost::Nothing, || {
                    (Label::Select { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(Outcome::CheckFound { found: existing });
                step.line = "select";
                self.pc = if existing {
                    Pc::Return("replayed", "replay")
                } else {
                    Pc::Charge
                };
            }
            Pc::Charge => {
                step.line = "charge";
                let (op, payload) = (&self.start.op, &self.start.payload);
                let receipt = ctx.world.sink_effects("charge", op) + 1;
                let sent = send_effect(
                    ctx,
                    &mut step,
                    "charge",
                    &key,
                    op,
                    || Label::Charge {
                        payload: payload.clone(),
                    },
                    Label::Charged { charge: receipt },
                );
                self.pc = match sent {
                    Sent::NotSent(_) => {
                        // Nothing was charged: give the claimed key back so a retry can charge.
                        if self.claim {
                            ctx.world.delete_rows(&key, "in progress");
                        }
                        step.outcome = Some(Outcome::NotCharged);
                        Pc::Return("failed", "charge")
                    }
                    Sent::Done { lost } => {
                        let charges = ctx.world.sink_effects("charge", op);
                        step.outcome = Some(Outcome::Charged { charges });
                        if lost {
                            Pc::Return("unknown", "charge")
                        } else {
                            Pc::Record
                        }
                    }
                };
            }
            Pc::Record => {
                let mode = if unique {
                    WriteMode::Upsert
                } else {
                    WriteMode::Insert
                };
                let count = ctx.world.sink_effects("charge", &self.start.op);
                ctx.world
                    .write_row(mode, &key, &format!("ch-{count}").into(), &self.start.op);
                step.messages = ctx.call("database", Lost::Nothing, || {
                    let record = Label::Record {
                        key: key.clone(),
                        charge: count,
                    };
                    (record, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::ResultRecorded);
                step.line = "record";
                self.pc = Pc::Return("charged", "done");
            }
            Pc::Return(result, line) => {
                step.finish(result, line);
                if result == "replayed" && ctx.world.sink_effects("charge", &self.start.op) == 0 {
                    step.flags.missing_effect = Some(self.start.op.to_string());
                }
            }
        }
        step
    }
}
