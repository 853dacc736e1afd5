//! The laws a safe design keeps. Checked after every event, on the records of the operation the
//! event touched (by index, so a check costs the same at any size); each verdict names the event
//! that first broke it. One is judged once, when the run ends (`EventuallyAnswered`: see
//! `Engine::unanswered`), and counts as broken by the last event.

use serde::{Deserialize, Serialize};

use crate::fault::Action;
use crate::scenario::{CancelCheck, Scenario};
use crate::workflow::WorkflowKind;
use crate::world::World;

/// The invariants, in the order the invariants panel lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    /// At most one effect per logical operation (provider record, charge, email, notification).
    OneEffect,
    /// A verified job has its operation at the provider, with an equal payload.
    VerifiedHasEffect,
    /// No record is marked succeeded without its effect.
    NoSuccessWithoutEffect,
    /// A changed payload under a used key is never accepted silently.
    NoSilentChange,
    /// Unknown completion never becomes success without evidence.
    NoUnprovenSuccess,
    /// A record that already succeeded is never resubmitted.
    NoResubmit,
    /// One row per dedup key wherever the design promises it.
    OneRowPerKey,
    /// Every operation eventually gets a final answer: when the run ends, a fault-free retry
    /// after every lease has run out gets one (charged, declined, or the stored result), where
    /// an unfinished claim would otherwise answer "in progress" for good.
    EventuallyAnswered,
    /// Where workers read their cancel flag in code (`cancel_check = "in_code"`): once a step
    /// during which the flag went up has finished, the run begins no further work (a model
    /// call, a row, a message, a submit).
    StopsWhenCancelled,
}

impl Invariant {
    pub const ALL: [Invariant; 9] = [
        Invariant::OneEffect,
        Invariant::VerifiedHasEffect,
        Invariant::NoSuccessWithoutEffect,
        Invariant::NoSilentChange,
        Invariant::NoUnprovenSuccess,
        Invariant::NoResubmit,
        Invariant::OneRowPerKey,
        Invariant::EventuallyAnswered,
        Invariant::StopsWhenCancelled,
    ];

    /// The snake_case id used in lesson files.
    pub fn id(self) -> &'static str {
        match self {
            Invariant::OneEffect => "one_effect",
            Invariant::VerifiedHasEffect => "verified_has_effect",
            Invariant::NoSuccessWithoutEffect => "no_success_without_effect",
            Invariant::NoSilentChange => "no_silent_change",
            Invariant::NoUnprovenSuccess => "no_unproven_success",
            Invariant::NoResubmit => "no_resubmit",
            Invariant::OneRowPerKey => "one_row_per_key",
            Invariant::EventuallyAnswered => "eventually_answered",
            Invariant::StopsWhenCancelled => "stops_when_cancelled",
        }
    }

    /// One sentence a learner reads in the invariants panel.
    pub fn statement(self) -> &'static str {
        match self {
            Invariant::OneEffect => "At most one effect per logical operation",
            Invariant::VerifiedHasEffect => {
                "Verified means the provider holds the operation with the same payload"
            }
            Invariant::NoSuccessWithoutEffect => "No record is marked succeeded without its effect",
            Invariant::NoSilentChange => "A changed payload is never accepted silently",
            Invariant::NoUnprovenSuccess => "Unknown never becomes success without evidence",
            Invariant::NoResubmit => "A record that succeeded is never resubmitted",
            Invariant::OneRowPerKey => "One row per dedup key where the design promises it",
            Invariant::EventuallyAnswered => "Every operation eventually gets a final answer",
            Invariant::StopsWhenCancelled => "After a cancel, the run begins no new work",
        }
    }

    /// The workflows whose runs can break it: every workflow, but for `eventually_answered`,
    /// which only a program that can answer "in progress" (409) can break.
    pub fn workflows(self) -> &'static [WorkflowKind] {
        match self {
            Invariant::EventuallyAnswered => &[WorkflowKind::Charge],
            _ => &WorkflowKind::ALL,
        }
    }

    /// Whether a run of `scenario` can break it: the one place the Invariants panel, the
    /// explorer's report and the lesson checker ask. Its workflow must be one of `workflows`,
    /// and `stops_when_cancelled` applies only where workers read their cancel flag in code:
    /// where the engine checks it before every step, no work can begin after it.
    pub fn applies(self, scenario: &Scenario) -> bool {
        let cancel_in_code = scenario.switches.cancel_check == CancelCheck::InCode;
        self.workflows().contains(&scenario.workflow)
            && (self != Invariant::StopsWhenCancelled || cancel_in_code)
    }

    /// Every invariant a run of `scenario` can break ([`Invariant::applies`]), in `ALL` order.
    pub fn applying(scenario: &Scenario) -> Vec<Invariant> {
        Invariant::ALL
            .into_iter()
            .filter(|invariant| invariant.applies(scenario))
            .collect()
    }
}

/// A set of invariants, one bit each in `Invariant::ALL` order: what an event broke for the first
/// time. It lists, compares and serializes as the list of its invariants in that order (the
/// list a trace stored before), in one byte where a list took 24 in every event.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Invariants(u16);

/// `Invariant::ALL` at a fixed place, so a set lists references to it.
static ALL: [Invariant; 9] = Invariant::ALL;

impl Invariants {
    fn bit(invariant: Invariant) -> u16 {
        let position = ALL.iter().position(|known| *known == invariant);
        1 << position.expect("Invariant::ALL lists every invariant")
    }

    /// The invariants in the set, in `Invariant::ALL` order.
    pub fn iter(&self) -> impl Iterator<Item = &'static Invariant> + '_ {
        let mask = self.0;
        ALL.iter()
            .enumerate()
            .filter(move |(position, _)| mask & 1 << position != 0)
            .map(|(_, invariant)| invariant)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether `invariant` is in the set (by reference, as a list's `contains`).
    pub fn contains(&self, invariant: &Invariant) -> bool {
        self.0 & Invariants::bit(*invariant) != 0
    }

    /// Adds `invariant`; false when it was in the set.
    pub fn insert(&mut self, invariant: Invariant) -> bool {
        let new = !self.contains(&invariant);
        self.0 |= Invariants::bit(invariant);
        new
    }
}

impl FromIterator<Invariant> for Invariants {
    fn from_iter<I: IntoIterator<Item = Invariant>>(invariants: I) -> Self {
        let mut set = Invariants::default();
        for invariant in invariants {
            set.insert(invariant);
        }
        set
    }
}

impl<'a> IntoIterator for &'a Invariants {
    type Item = &'static Invariant;
    type IntoIter = Box<dyn Iterator<Item = &'static Invariant> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// Equal to the list of the same invariants in `Invariant::ALL` order.
impl PartialEq<Vec<Invariant>> for Invariants {
    fn eq(&self, list: &Vec<Invariant>) -> bool {
        self.iter().eq(list.iter())
    }
}

impl std::fmt::Debug for Invariants {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Invariants {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// Read from a list in any order; a repeated invariant counts once.
impl<'de> Deserialize<'de> for Invariants {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Invariants, D::Error> {
        Vec::<Invariant>::deserialize(deserializer).map(|list| list.into_iter().collect())
    }
}

/// The verdict on one invariant for a whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    pub invariant: Invariant,
    /// The event (1-based) that first broke it; `None` if it held throughout.
    pub broken_at: Option<u32>,
    /// What was wrong, when broken.
    pub detail: Option<String>,
}

/// Facts about one step that the state alone does not show; set by the workflow.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepFlags {
    /// The provider accepted a changed payload under a used key without saying so.
    pub silent_change: bool,
    /// A job was marked succeeded without evidence from the provider in this run.
    pub unproven_success: bool,
    /// The step resubmitted work for a record that had already succeeded.
    pub resubmitted: bool,
    /// The design promises one row per key in the results table.
    pub promises_unique_rows: bool,
    /// The workflow's receipt sink, if it sends one (see `Declaration::receipt`).
    pub receipt: Option<&'static str>,
    /// Work this step began although its worker's cancel flag went up during an earlier step
    /// (only where the flag is read in code).
    pub began_after_cancel: Option<Action>,
    /// A run reported success (done, skipped as done) for an operation whose effect does not exist.
    pub missing_effect: Option<String>,
}

/// Tracks verdicts across a run.
#[derive(Debug)]
pub struct Checker {
    /// One per invariant, in `Invariant::ALL` order: an array, so an explorer's copy of the
    /// engine copies it without allocating.
    verdicts: [Verdict; 9],
}

/// `clone_from` copies into the verdicts in place: an explorer branches an engine into a spare
/// at every branch, and most verdicts hold no detail, so the copy writes a few numbers.
impl Clone for Checker {
    fn clone(&self) -> Self {
        Checker {
            verdicts: self.verdicts.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        for (verdict, theirs) in self.verdicts.iter_mut().zip(&source.verdicts) {
            verdict.invariant = theirs.invariant;
            verdict.broken_at = theirs.broken_at;
            verdict.detail.clone_from(&theirs.detail);
        }
    }
}

impl Default for Checker {
    fn default() -> Self {
        Checker {
            verdicts: Invariant::ALL.map(|invariant| Verdict {
                invariant,
                broken_at: None,
                detail: None,
            }),
        }
    }
}

impl Checker {
    /// Checks every invariant after event `index`; returns those that broke for the first time.
    pub fn check(
        &mut self,
        index: u32,
        world: &World,
        flags: &StepFlags,
        op: &str,
    ) -> Vec<Invariant> {
        let mut broke = Vec::new();
        for (invariant, detail) in violations(world, flags, op) {
            if self.broke(index, invariant, detail) {
                broke.push(invariant);
            }
        }
        broke
    }

    /// Records that `invariant` broke at event `index` (also for one judged apart from the
    /// records an event touched, when the run ends); false when it had broken before.
    pub fn broke(&mut self, index: u32, invariant: Invariant, detail: String) -> bool {
        let verdict = self
            .verdicts
            .iter_mut()
            .find(|verdict| verdict.invariant == invariant)
            .expect("every invariant has a verdict");
        let first = verdict.broken_at.is_none();
        if first {
            verdict.broken_at = Some(index);
            verdict.detail = Some(detail);
        }
        first
    }

    /// The verdicts, in `Invariant::ALL` order.
    pub fn verdicts(&self) -> Vec<Verdict> {
        self.verdicts.to_vec()
    }
}

/// Every invariant that does not hold for operation `op` in this state, with why. A step changes
/// only its own operation's records, so checking that operation after each step checks them all.
fn violations(world: &World, flags: &StepFlags, op: &str) -> Vec<(Invariant, String)> {
    let mut found = Vec::new();
    if let Some(detail) = duplicate_effect(world, op) {
        found.push((Invariant::OneEffect, detail));
    }
    if let Some(job) = world.journal.get(op).filter(|job| job.status.is_success()) {
        let mut held = world.provider_records_of(&job.id).peekable();
        let has_row = world.table.rows_are_effects && world.table_rows(&job.id) > 0;
        let has_sink = world.effects_of(&job.id).next().is_some();
        if held.peek().is_some() {
            if !held.any(|record| record.payload == job.payload) {
                let detail = format!(
                    "{} is verified but the provider holds another payload",
                    job.id
                );
                found.push((Invariant::VerifiedHasEffect, detail));
            }
        } else if !has_row && !has_sink {
            let detail = format!("{} is marked verified but no effect exists", job.id);
            found.push((Invariant::NoSuccessWithoutEffect, detail));
        }
    }
    if let Some(sink) = flags.receipt {
        found.extend(receipt_violation(world, sink, op));
    }
    if let Some(operation) = &flags.missing_effect {
        let detail = format!("{operation} was reported done but its effect never happened");
        found.push((Invariant::NoSuccessWithoutEffect, detail));
    }
    if flags.silent_change {
        let detail =
            "a reused key with a changed payload was accepted without an error".to_string();
        found.push((Invariant::NoSilentChange, detail));
    }
    if flags.unproven_success {
        let detail = "success was recorded without a reply or a lookup proving it".to_string();
        found.push((Invariant::NoUnprovenSuccess, detail));
    }
    if flags.resubmitted {
        let detail = "work was submitted again for a record that had already succeeded".to_string();
        found.push((Invariant::NoResubmit, detail));
    }
    if flags.promises_unique_rows {
        if let Some(detail) = duplicate_row(world, op) {
            found.push((Invariant::OneRowPerKey, detail));
        }
    }
    if let Some(action) = flags.began_after_cancel {
        let detail = format!(
            "{op}'s {} began after the cancel flag went up: no check stopped it",
            action.name()
        );
        found.push((Invariant::StopsWhenCancelled, detail));
    }
    found
}

/// The first place holding more than one effect of `op`. Reads only `op`'s records, by index:
/// the cost of a check does not grow with the number of records.
fn duplicate_effect(world: &World, op: &str) -> Option<String> {
    let provider = world.provider_effects(op);
    if provider > 1 {
        return Some(format!("{op} has {provider} effects at the provider"));
    }
    let mut sinks: Vec<&str> = world
        .effects_of(op)
        .map(|effect| effect.sink.as_str())
        .collect();
    sinks.sort_unstable();
    if let Some(pair) = sinks.windows(2).find(|pair| pair[0] == pair[1]) {
        let count = sinks.iter().filter(|sink| **sink == pair[0]).count();
        return Some(format!("{op} has {count} effects at the {}", pair[0]));
    }
    let rows = if world.table.rows_are_effects {
        world.table_rows(op)
    } else {
        0
    };
    (rows > 1).then(|| format!("{op} has {rows} effects at the database"))
}

/// A receipt that tells a customer of an effect that does not exist, or an operation marked
/// verified before its receipt went out (the receipt is one of its effects): the receipt
/// follows the effect and precedes the checkpoint.
fn receipt_violation(world: &World, sink: &str, op: &str) -> Option<(Invariant, String)> {
    let told = world.effects_of(op).any(|effect| *effect.sink == *sink);
    if told && world.provider_effects(op) == 0 {
        let detail = format!("a receipt for {op} was sent, but no charge exists");
        return Some((Invariant::NoSuccessWithoutEffect, detail));
    }
    let verified = world
        .journal
        .get(op)
        .is_some_and(|job| job.status.is_success());
    (verified && !told).then(|| {
        let detail = format!("{op} is verified, but its receipt was never sent");
        (Invariant::NoSuccessWithoutEffect, detail)
    })
}

/// A key of one of `op`'s rows that has more than one row.
fn duplicate_row(world: &World, op: &str) -> Option<String> {
    world.table.rows_of(op).find_map(|mine| {
        let count = world.table.count(&mine.key);
        (count > 1).then(|| format!("key {} has {count} rows in the results table", mine.key))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Block;

    /// `eventually_answered` is judged only for a program that can answer "in progress": the
    /// workflows it names are exactly those that offer that answer.
    #[test]
    fn eventually_answered_applies_where_in_progress_can_be_answered() {
        for workflow in WorkflowKind::ALL {
            let offers = workflow.offered().contains(&Block::ReturnInProgress);
            let applies = Invariant::EventuallyAnswered
                .workflows()
                .contains(&workflow);
            assert_eq!(applies, offers, "{workflow:?}");
        }
        for invariant in Invariant::ALL {
            assert!(!invariant.workflows().is_empty(), "{invariant:?}");
        }
    }
}
