//! The capstone: a payment webhook. The sender (a shop's billing system) posts "charge this
//! order" and redelivers until it gets a 2xx; the handler charges the card through a provider
//! that takes an idempotency key, and emails the customer a receipt through a mail API that
//! takes one too. It is seed 002's recovery (checkpoint, reconcile by lookup, submit once,
//! verify) with a second effect, the receipt, which must follow the charge and come before the
//! checkpoint that says the work is done.

use super::declaration::{Declaration, UNSTAGED};
use super::reserve;
use crate::block::Block as B;
use crate::code::{key_line, preamble};
use crate::lane::LaneKind;
use crate::program::{Line, Program};
use crate::scenario::Scenario;

const RESERVE: &[B] = reserve::BLOCKS;

/// The recovery's blocks, with the receipt just before the checkpoint that marks it verified.
pub(super) const BLOCKS: &[B] = &with_receipt();

const fn with_receipt() -> [B; RESERVE.len() + 1] {
    let mut blocks = [B::EmailReceipt; RESERVE.len() + 1];
    let (mut from, mut to) = (0, 0);
    while from < RESERVE.len() {
        if matches!(RESERVE[from], B::MarkVerified) {
            to += 1; // the receipt keeps the place before it
        }
        blocks[to] = RESERVE[from];
        from += 1;
        to += 1;
    }
    blocks
}

/// The sink the receipt goes to (a lane, and the effects the invariants count).
pub(crate) const RECEIPT: &str = "receipt";

pub(super) static DECLARATION: Declaration = Declaration {
    name: "webhook",
    lanes: &[
        ("journal", "Journal", LaneKind::Journal),
        ("provider", "Card processor", LaneKind::Provider),
        (RECEIPT, "Receipt emails", LaneKind::Sink),
    ],
    blocks: BLOCKS,
    switches: reserve::SWITCHES,
    rows_are_effects: true,
    receipt: Some(RECEIPT),
    promises_unique_rows: |_, _| false,
    program,
    preamble: |scenario| {
        preamble(
            scenario,
            "def handle_payment_webhook(journal, provider, mailer, event):",
            &[
                "    operation_id = event.id  # the sender's own id for this payment".into(),
                "    payload = canonical_json(event.payment)".into(),
                key_line(scenario, "operation_id"),
            ],
        )
    },
    ..UNSTAGED
};

/// The recovery as the design has it, and the receipt before the last checkpoint: the
/// operation is verified only once its customer has been told.
fn program(scenario: &Scenario) -> Program {
    let mut program = reserve::program(scenario);
    let at = program
        .lines
        .iter()
        .rposition(|line| line.block == B::MarkVerified)
        .expect("the recovery marks its operation verified");
    let depth = program.lines[at].depth;
    program.lines.insert(
        at,
        Line {
            block: B::EmailReceipt,
            depth,
        },
    );
    program
}
