//! Workflows: each one a declaration (its lanes, the blocks it offers, its stages, the switches a
//! learner flips, what its rows mean) and the program its design describes. The interpreter runs
//! any program of a workflow's blocks; the faults each block can suffer are the block's own, so
//! a workflow's fault table is read off its blocks.

use crate::block::{Block, AT_RECEIVE};
use crate::fault::{Action, FaultKind};
pub use crate::kind::WorkflowKind;
use crate::lane::Lane;
use crate::program::Program;
use crate::scenario::{CancelCheck, Scenario};
use crate::switch::Switch;

mod charge;
mod declaration;
mod ingest;
mod notify;
mod pipeline;
mod reserve;
mod webhook;
mod write_result;

pub use declaration::Declaration;
pub(crate) use declaration::Listing;
pub use pipeline::build_retry_batch;
pub(crate) use webhook::RECEIPT;

/// A workflow's faults by `Action as usize` (see `WorkflowKind::faults_at`).
type ByAction = [&'static [FaultKind]; Action::ALL.len()];

/// The faults that can strike each action of a program made of `blocks`: each block's own (the
/// blocks that share an action declare the same faults; a test holds them to it), and the
/// engine's own at a run's arrival.
const fn by_action(blocks: &[Block]) -> ByAction {
    let mut table: ByAction = [&[]; Action::ALL.len()];
    table[Action::Receive as usize] = AT_RECEIVE;
    let mut index = 0;
    while index < blocks.len() {
        let spec = blocks[index].spec();
        if let Some(action) = spec.action {
            if table[action as usize].is_empty() {
                table[action as usize] = spec.faults;
            }
        }
        // A transaction's faults are its statements' own.
        index += 1;
    }
    table
}

impl WorkflowKind {
    /// Every workflow, in a fixed order.
    pub const ALL: [WorkflowKind; 7] = [
        WorkflowKind::Reserve,
        WorkflowKind::WriteResult,
        WorkflowKind::Charge,
        WorkflowKind::Notify,
        WorkflowKind::Pipeline,
        WorkflowKind::Ingest,
        WorkflowKind::Webhook,
    ];

    /// The workflow's declaration.
    pub fn declaration(self) -> &'static Declaration {
        match self {
            WorkflowKind::Reserve => &reserve::DECLARATION,
            WorkflowKind::WriteResult => &write_result::DECLARATION,
            WorkflowKind::Charge => &charge::DECLARATION,
            WorkflowKind::Notify => &notify::DECLARATION,
            WorkflowKind::Pipeline => &pipeline::DECLARATION,
            WorkflowKind::Ingest => &ingest::DECLARATION,
            WorkflowKind::Webhook => &webhook::DECLARATION,
        }
    }

    const fn blocks(self) -> &'static [Block] {
        match self {
            WorkflowKind::Reserve => reserve::BLOCKS,
            WorkflowKind::WriteResult => write_result::BLOCKS,
            WorkflowKind::Charge => charge::BLOCKS,
            WorkflowKind::Notify => notify::BLOCKS,
            WorkflowKind::Pipeline => pipeline::BLOCKS,
            WorkflowKind::Ingest => ingest::BLOCKS,
            WorkflowKind::Webhook => webhook::BLOCKS,
        }
    }

    /// The name used in scenario files and messages.
    pub fn name(self) -> &'static str {
        self.declaration().name
    }

    /// Every action this workflow can take, each with the faults that can strike there, in
    /// `Action::ALL` order (faults in `FaultKind::ALL` order). Validation, the engine's fault
    /// points and the explorer all read this one table, made from the workflow's blocks.
    pub fn fault_table(self) -> Vec<(Action, &'static [FaultKind])> {
        let table = Self::tables()[self as usize];
        let used = |action: Action| {
            action == Action::Receive
                || self
                    .blocks()
                    .iter()
                    .any(|block| block.spec().action == Some(action))
        };
        Action::ALL
            .into_iter()
            .filter(|&action| used(action))
            .map(|action| (action, table[action as usize]))
            .collect()
    }

    const fn tables() -> [ByAction; WorkflowKind::ALL.len()] {
        let mut tables = [[&[] as &[FaultKind]; Action::ALL.len()]; WorkflowKind::ALL.len()];
        let mut index = 0;
        while index < WorkflowKind::ALL.len() {
            let workflow = WorkflowKind::ALL[index];
            tables[workflow as usize] = by_action(workflow.blocks());
            index += 1;
        }
        tables
    }

    /// The faults that can strike at `action` in this workflow; none at an action it never takes.
    /// Read at every step, from a table made at compile time from the blocks.
    #[inline]
    pub fn faults_at(self, action: Action) -> &'static [FaultKind] {
        const TABLES: [ByAction; WorkflowKind::ALL.len()] = WorkflowKind::tables();
        TABLES[self as usize][action as usize]
    }

    /// The actions at which `fault` can strike in this workflow, in `Action::ALL` order.
    pub fn actions_for(self, fault: FaultKind) -> impl Iterator<Item = Action> {
        self.fault_table()
            .into_iter()
            .filter(move |(_, faults)| faults.contains(&fault))
            .map(|(action, _)| action)
    }

    /// The lanes besides the workers, left to right.
    pub fn lanes(self) -> Vec<Lane> {
        self.declaration()
            .lanes
            .iter()
            .map(|&(id, label, kind)| Lane {
                id: id.to_string(),
                label: label.to_string(),
                kind,
            })
            .collect()
    }

    /// The stages a journal row records, in the order a run reaches them.
    pub fn stages(self) -> &'static [&'static str] {
        self.declaration().stages
    }

    /// The design switches this workflow reads, in the order a learner meets them.
    pub fn switches(self) -> &'static [Switch] {
        self.declaration().switches
    }

    /// The blocks a program of this workflow may use.
    pub fn offered(self) -> &'static [Block] {
        self.declaration().blocks
    }

    /// The program the scenario's design describes (its switches, its retry policy).
    pub fn design_program(self, scenario: &Scenario) -> Program {
        (self.declaration().program)(scenario)
    }
}

impl Scenario {
    /// The blocks this scenario's program may use: its workflow's, and `check_cancel` wherever
    /// the scenario's workers read their cancel flag in code (`cancel_check = "in_code"`).
    pub fn offered(&self) -> Vec<Block> {
        let mut blocks = self.workflow.offered().to_vec();
        if self.switches.cancel_check == CancelCheck::InCode {
            blocks.push(Block::CheckCancel);
        }
        blocks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks that share an action in one workflow declare the same faults, so the table by
    /// action is each block's own.
    #[test]
    fn blocks_that_share_an_action_share_its_faults() {
        for workflow in WorkflowKind::ALL {
            for block in workflow.offered() {
                let spec = block.spec();
                if let Some(action) = spec.action {
                    assert_eq!(
                        workflow.faults_at(action),
                        spec.faults,
                        "{workflow:?}: {block:?} at {action:?}"
                    );
                }
            }
        }
    }

    /// Every design of every workflow describes a program its own checker accepts.
    #[test]
    fn every_design_program_is_well_formed() {
        use crate::switch::Switch;
        for workflow in WorkflowKind::ALL {
            let text = format!(
                r#"{{"workflow":"{}","operations":[{{"id":"A"}}],"workers":[{{"name":"w","runs":[{{"op":"A"}}]}}]}}"#,
                workflow.name()
            );
            let base: Scenario = serde_json::from_str(&text).unwrap();
            let switches = workflow.switches();
            for mask in 0..1u32 << switches.len() {
                let mut scenario = base.clone();
                for (bit, switch) in switches.iter().enumerate() {
                    scenario = Switch::set(*switch, &scenario, mask & 1 << bit != 0);
                }
                for attempts in [1, 3] {
                    scenario.switches.retry.attempts_max = attempts;
                    let program = workflow.design_program(&scenario);
                    if let Err(error) = program.structure(workflow.offered()) {
                        panic!("{workflow:?} {mask:b}: {error}\n{}", program.text());
                    }
                }
            }
        }
    }
}
