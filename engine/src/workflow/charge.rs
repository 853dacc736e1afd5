//! Seed 004's payment service: an idempotency table (`processed_operations`) in front of a card
//! charge. Without a UNIQUE key the check and the insert are two steps, and two near-simultaneous
//! retries can both pass the check; with it, the service claims the key atomically first. A
//! claim whose owner is gone stays "in progress" for good unless it has a lease
//! (`claim_with_lease`); a lease short enough to expire under a slow owner lets two requests
//! charge, unless the gateway keeps the key too (`charge_keyed`). A payload with
//! `"card": "declined"` is declined (402), and the decline is stored and replayed like a charge.

use super::declaration::{Builder, Declaration, UNSTAGED};
use crate::block::Block as B;
use crate::code::{key_line, preamble};
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::Scenario;
use crate::switch::Switch as S;

pub(super) const BLOCKS: &[B] = &[
    B::Claim,
    B::ClaimWithLease,
    B::IfNotClaimed,
    B::IfNoStored,
    B::ReturnInProgress,
    B::ReturnReplayed,
    B::SelectStored,
    B::IfStored,
    B::Try,
    B::Charge,
    B::ChargeKeyed,
    B::ExceptSendError,
    B::ReturnFailed,
    B::ExceptTimeout,
    B::ReturnUnknown,
    B::RecordResult,
    B::InsertResult,
    B::ReturnCharged,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "charge",
    lanes: &[
        ("database", "processed_operations", LaneKind::Database),
        ("charge", "Payment gateway", LaneKind::Sink),
    ],
    blocks: BLOCKS,
    switches: &[S::Unique, S::StableKey],
    // processed_operations is bookkeeping: its rows are not effects.
    rows_are_effects: false,
    program,
    preamble: |scenario| {
        preamble(
            scenario,
            "def charge_card(request):",
            &[key_line(scenario, "request.idempotency_key")],
        )
    },
    ..UNSTAGED
};

/// With UNIQUE on the key, the service claims it atomically before charging; without it, it
/// checks for a stored result, charges, then inserts one.
fn program(scenario: &Scenario) -> Program {
    let mut code = Builder::default();
    if scenario.switches.unique {
        code.line(B::Claim)
            .line(B::IfNotClaimed)
            .under(B::IfNoStored, B::ReturnInProgress)
            .line(B::ReturnReplayed)
            .close();
    } else {
        code.line(B::SelectStored)
            .under(B::IfStored, B::ReturnReplayed);
    }
    code.under(B::Try, B::Charge)
        .under(B::ExceptSendError, B::ReturnFailed)
        .under(B::ExceptTimeout, B::ReturnUnknown);
    code.line(match scenario.switches.unique {
        true => B::RecordResult,
        false => B::InsertResult,
    })
    .line(B::ReturnCharged);
    code.build()
}
