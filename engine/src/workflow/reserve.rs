//! Seed 002's recovery lab `run()`: checkpoint in the journal, reconcile by lookup, submit once,
//! verify. Design switches: reconcile or not, trust a "not found" or hand it to review, the key's
//! source, the provider's guarantees, and the retry policy around the submit.

use super::declaration::{Builder, Declaration, UNSTAGED};
use crate::block::Block as B;
use crate::code::{key_line, preamble};
use crate::lane::LaneKind;
use crate::program::Program;
use crate::scenario::{FailureClass, Scenario};
use crate::switch::Switch as S;

pub(super) const BLOCKS: &[B] = &[
    B::JournalGet,
    B::IfRowDiffers,
    B::RaiseJournalDiffers,
    B::IfRowVerified,
    B::ReturnAlreadyVerified,
    B::IfNoRow,
    B::JournalInsert,
    B::RetryLoop,
    B::Try,
    B::Lookup,
    B::ExceptBusyOrTimeout,
    B::IfFoundDiffers,
    B::MarkRejected,
    B::RaiseProviderDiffers,
    B::IfNotFoundUncertain,
    B::MarkNeedsReview,
    B::ReturnNeedsReview,
    B::IfFound,
    B::UseFoundReceipt,
    B::Else,
    B::Submit,
    B::ExceptBusy,
    B::ExceptTimeout,
    B::Sleep,
    B::ReturnGaveUp,
    B::ReturnUnknown,
    B::ExceptRejected,
    B::RaiseRejected,
    B::ExceptInvalid,
    B::MarkFailed,
    B::ReturnFailed,
    B::ReturnExhausted,
    B::MarkVerified,
    B::ReturnVerified,
    // Where the key comes from, as a line of the program (see `keys.rs`).
    B::KeySourceId,
    B::KeySaved,
    B::KeyUuid4,
];

/// The design switches, in the order a learner meets them.
pub(super) const SWITCHES: &[S] = &[
    S::Reconcile,
    S::ProviderDedup,
    S::RejectChangedPayload,
    S::TrustNotFound,
    S::ProviderLookup,
    S::StableKey,
    S::SingleLayer,
    S::RetryBudget,
    S::CanonicalPayload,
];

pub(super) static DECLARATION: Declaration = Declaration {
    name: "reserve",
    lanes: &[
        ("journal", "Journal", LaneKind::Journal),
        ("provider", "Provider", LaneKind::Provider),
    ],
    blocks: BLOCKS,
    switches: SWITCHES,
    rows_are_effects: true,
    promises_unique_rows: |_, _| false,
    program,
    preamble: |scenario| {
        preamble(
            scenario,
            "def run(journal, provider, operation_id, order):",
            &[
                match scenario.switches.canonical_payload {
                    true => "    payload = canonical_json(order)".into(),
                    false => {
                        "    payload = request.body  # the bytes as this caller wrote them".into()
                    }
                },
                key_line(scenario, "operation_id"),
            ],
        )
    },
    ..UNSTAGED
};

/// The recovery lab's `run()` as the design has it: the lookup and its branches when it
/// reconciles (and the provider offers a lookup), the review branch when it distrusts a "not
/// found", a retry loop when its policy makes more than one attempt, and in each handler a
/// back-off when the policy retries that failure class.
pub(super) fn program(scenario: &Scenario) -> Program {
    let design = &scenario.switches;
    let policy = &design.retry;
    let retrying = policy.attempts_max > 1;
    let reconcile = design.reconcile && scenario.provider.lookup;
    let mut code = Builder::default();
    code.line(B::JournalGet)
        .under(B::IfRowDiffers, B::RaiseJournalDiffers)
        .under(B::IfRowVerified, B::ReturnAlreadyVerified)
        .under(B::IfNoRow, B::JournalInsert);
    if retrying {
        code.line(B::RetryLoop);
    }
    if reconcile {
        code.line(B::Try)
            .line(B::Lookup)
            .close()
            .under(B::ExceptBusyOrTimeout, B::ReturnUnknown)
            .line(B::IfFoundDiffers)
            .lines(&[B::MarkRejected, B::RaiseProviderDiffers])
            .close();
        if !design.trust_not_found {
            code.line(B::IfNotFoundUncertain)
                .lines(&[B::MarkNeedsReview, B::ReturnNeedsReview])
                .close();
        }
        code.under(B::IfFound, B::UseFoundReceipt).line(B::Else);
    }
    let backs_off = |class| retrying && policy.eligible.contains(&class);
    code.line(B::Try).line(B::Submit).close();
    code.line(B::ExceptBusy)
        .line(match backs_off(FailureClass::Temporary) {
            true => B::Sleep,
            false => B::ReturnGaveUp,
        })
        .close();
    code.line(B::ExceptTimeout)
        .line(match backs_off(FailureClass::UnknownCompletion) {
            true => B::Sleep,
            false => B::ReturnUnknown,
        })
        .close();
    code.line(B::ExceptRejected)
        .lines(&[B::MarkRejected, B::RaiseRejected])
        .close();
    code.line(B::ExceptInvalid)
        .lines(&[B::MarkFailed, B::ReturnFailed])
        .close();
    if reconcile {
        code.close();
    }
    if retrying {
        code.close().under(B::Else, B::ReturnExhausted);
    }
    code.lines(&[B::MarkVerified, B::ReturnVerified]);
    code.build()
}
