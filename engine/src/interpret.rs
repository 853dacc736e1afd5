//! The interpreter: one run of a program for one operation, a step at a time.
//!
//! A run rests at the next line that takes an action (an event); the lines between two actions
//! (an `if`, an `else`, a `try`, an `except` passed by, an assignment from what the run already
//! knows) are followed at once, in [`Task::settle`]. A step runs the line the run rests at: a
//! `match` over the block kinds below, each a short function of the world, the scenario, the RNG
//! and the run's own registers. A step that raises an error goes to the innermost handler that
//! catches it; with none, the run ends at its next step saying so.

use std::hash::{Hash, Hasher};

use crate::block::{Block, Raised, Shape};
use crate::effect::{
    cancel_run, database_busy, send_effect, send_kept, write_row, Context, Lost, RowWritten, Sent,
    Step,
};
use crate::error::ScenarioError;
use crate::fault::{Action, FaultKind};
use crate::fingerprint::Fingerprint;
use crate::keys;
use crate::outcome::{Label, Outcome, Prior, Rejection, SubmitReply};
use crate::program::{Line, Program, ProgramError, Structure, NONE};
use crate::provider;
use crate::retry;
use crate::rng::Rng;
use crate::scenario::{CancelCheck, FailureClass, KeySource, Scenario, WriteMode};
use crate::text::Text;
use crate::workflow::{Listing, RECEIPT};
use crate::world::{clone_by_fields, JobRow, JobStatus, WriteOutcome};

/// The retry layers a run keeps counts for: as many as a policy may stack.
const LAYERS: usize = crate::scenario::LAYERS_MAX as usize;

/// A program ready to run: its lines, their structure, the code panel's listing, and the facts
/// of the workflow every run reads.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub(crate) lines: Vec<Line>,
    structure: Structure,
    pub(crate) listing: Listing,
    /// For each line, the index of the workflow's stage it does, if any.
    stage: Vec<Option<u8>>,
    /// The workflow's stages, in order.
    stages: &'static [&'static str],
    /// The table rows promise one row per key (the `one_row_per_key` invariant applies).
    pub(crate) promises_unique_rows: bool,
    /// The workflow's receipt sink, if it sends one (the receipt invariants apply).
    receipt: Option<&'static str>,
    /// The program can answer "in progress" (409): `eventually_answered` is judged when its
    /// run ends.
    pub(crate) answers_in_progress: bool,
    /// For each line, the registers a line the run can still reach reads (`Live`): only those
    /// tell two runs apart, so an explorer meets more states it has seen.
    live: Vec<u32>,
    /// For each line, what stands for it in a run's fingerprint: a return line by its block
    /// (every line returning the same way continues alike: the run ends), any other by itself.
    pc_key: Vec<u16>,
    /// What the program's key lines read beyond the run's own start (`None` for a program
    /// without one: its runs start with the key the design's switch makes).
    pub(crate) keys: Option<KeyFacts>,
}

/// What a key line reads beyond the run's start: the seed a saved key was drawn from, and the
/// operations whose events came without the source's id.
#[derive(Debug)]
pub(crate) struct KeyFacts {
    seed: u64,
    missing_ids: Vec<String>,
}

/// The scenario's program (its own, or its design's) and its structure, checked against its
/// workflow and its provider.
fn checked(scenario: &Scenario) -> Result<(Program, Structure), ProgramError> {
    let program = scenario.program();
    if scenario.switches.cancel_check != CancelCheck::InCode {
        refuse(&program, Block::CheckCancel, "`check_cancel` reads the cancel flag in code, but this scenario's workers are stopped by the engine before every step: set switches.cancel_check = \"in_code\"")?;
    }
    let structure = program.structure(&scenario.offered())?;
    if !scenario.provider.lookup {
        refuse(
            &program,
            Block::Lookup,
            "this provider offers no lookup (provider.lookup = false): the program cannot call one",
        )?;
    }
    if program.keyed() {
        let chosen = scenario
            .workers
            .iter()
            .flat_map(|worker| &worker.runs)
            .any(|run| run.key.is_some());
        if let Some(index) = program
            .lines
            .iter()
            .position(|line| keys::source_of(line.block).is_some())
            .filter(|_| chosen)
        {
            return Err(ProgramError {
                line: index as u32 + 1,
                message: "the caller chooses this scenario's keys (a run names its own key): the program cannot set one".into(),
            });
        }
    }
    Ok((program, structure))
}

/// Refuses the program's first line of `block`, saying `why`, if it has one.
fn refuse(program: &Program, block: Block, why: &str) -> Result<(), ProgramError> {
    match program.lines.iter().position(|line| line.block == block) {
        Some(index) => Err(ProgramError {
            line: index as u32 + 1,
            message: why.into(),
        }),
        None => Ok(()),
    }
}

/// Validation's check of the scenario's program.
pub(crate) fn check_program(scenario: &Scenario) -> Result<(), ScenarioError> {
    checked(scenario)
        .map(|_| ())
        .map_err(|error| ScenarioError::Program {
            line: error.line,
            message: error.message,
        })
}

impl Compiled {
    /// The scenario's program (its own, or its design's), checked against its workflow.
    pub(crate) fn new(scenario: &Scenario) -> Result<Compiled, ProgramError> {
        let (program, structure) = checked(scenario)?;
        let declaration = scenario.workflow.declaration();
        let stage = program
            .lines
            .iter()
            .map(|line| {
                declaration
                    .stage_blocks
                    .iter()
                    .position(|blocks| blocks.contains(&line.block))
                    .map(|index| index as u8)
            })
            .collect();
        let live = live_registers(&program.lines, &structure);
        let pc_key = program
            .lines
            .iter()
            .enumerate()
            .map(|(index, line)| match line.block.spec().shape {
                Shape::Return => 0x8000 | line.block as u16,
                _ => index as u16,
            })
            .collect();
        let answers_in_progress = program
            .lines
            .iter()
            .any(|line| line.block == Block::ReturnInProgress);
        let keys = program.keyed().then(|| KeyFacts {
            seed: scenario.seed,
            missing_ids: scenario
                .operations
                .iter()
                .filter(|operation| operation.missing_id)
                .map(|operation| operation.id.clone())
                .collect(),
        });
        Ok(Compiled {
            keys,
            answers_in_progress,
            live,
            pc_key,
            listing: Listing::of(&program, scenario),
            promises_unique_rows: (declaration.promises_unique_rows)(&program, scenario),
            receipt: declaration.receipt,
            lines: program.lines,
            structure,
            stage,
            stages: declaration.stages,
        })
    }

    fn block(&self, pc: u16) -> Option<Block> {
        self.lines.get(pc as usize).map(|line| line.block)
    }

    /// The action the line at `pc` takes: a transaction's is its first statement's; the end of
    /// the program (or an error nothing caught) is a return.
    fn action(&self, pc: u16) -> Action {
        match self.block(pc) {
            Some(Block::Transaction) => self
                .block(pc + 1)
                .and_then(|block| block.spec().action)
                .unwrap_or(Action::TableWrite),
            Some(block) => block.spec().action.unwrap_or(Action::Return),
            None => Action::Return,
        }
    }

    /// Where a false `if` at `pc` goes: into its `else` body, or past its own.
    fn skip_if(&self, pc: usize) -> u16 {
        skip_if(&self.structure, pc)
    }
}

/// The registers a run's future can depend on, one bit each.
struct Live;

impl Live {
    const ROW: u32 = 1 << 0;
    const FOUND: u32 = 1 << 1;
    const FOUND_RECEIPT: u32 = 1 << 2;
    const RECEIPT: u32 = 1 << 3;
    const REJECTION: u32 = 1 << 4;
    const ERROR: u32 = 1 << 5;
    const CLASS: u32 = 1 << 6;
    const DELAY: u32 = 1 << 7;
    const LAYERS: u32 = 1 << 8;
    const TODO: u32 = 1 << 9;
    const PRIOR_OUTPUT: u32 = 1 << 10;
    const OUTPUT: u32 = 1 << 11;
    const PRIOR_SUCCESS: u32 = 1 << 12;
    const CLAIMED: u32 = 1 << 13;
    const STORED: u32 = 1 << 14;
    const COMMITTED: u32 = 1 << 15;
    const ATTEMPTED: u32 = 1 << 16;
    const DECLINED: u32 = 1 << 17;

    /// The registers `block` reads.
    fn read_by(block: Block) -> u32 {
        use Block as B;
        match block {
            B::IfRowDiffers | B::IfRowVerified | B::IfNoRow => Live::ROW,
            B::IfFoundDiffers | B::IfNotFoundUncertain | B::IfFound => Live::FOUND,
            B::UseFoundReceipt => Live::FOUND_RECEIPT,
            B::MarkVerified | B::EmailReceipt => Live::RECEIPT,
            B::MarkRejected => Live::REJECTION,
            B::MarkFailed => Live::ERROR,
            B::ReturnExhausted => Live::CLASS,
            B::Sleep => Live::DELAY,
            B::Submit => Live::LAYERS,
            B::IfTodoModel | B::IfTodoWrite | B::IfTodoNotify => Live::TODO,
            B::ReuseOutput => Live::PRIOR_OUTPUT,
            B::IfPriorSuccess => Live::PRIOR_SUCCESS,
            B::CallModel => Live::PRIOR_SUCCESS | Live::ATTEMPTED,
            B::SaveInsert
            | B::SaveInsertOrIgnore
            | B::SaveUpsert
            | B::InsertFilterOnRead
            | B::Transaction => Live::OUTPUT | Live::PRIOR_SUCCESS | Live::ATTEMPTED,
            B::NotifyGuarded | B::NotifyUnguarded | B::MarkSuccess => Live::ATTEMPTED,
            B::IfNotClaimed | B::Charge | B::ChargeKeyed => Live::CLAIMED,
            B::RecordResult | B::InsertResult | B::ReturnCharged => Live::DECLINED,
            B::IfNoStored | B::IfStored => Live::STORED,
            B::IfNotCommitted | B::IfCommitted => Live::COMMITTED,
            _ => 0,
        }
    }
}

/// For each line, the registers a run resting there may still read: what the line reads, and
/// what the lines it can go on to read (following the program's control flow to a fixed point:
/// a retry loop goes back to its top). An error raised sets the error, its class and the pause
/// afresh, so those are not live through a raise; past a return, nothing is.
fn live_registers(lines: &[Line], structure: &Structure) -> Vec<u32> {
    const RAISED: u32 = Live::ERROR | Live::CLASS | Live::DELAY;
    let count = lines.len();
    let at = |target: u16, live: &[u32]| match target as usize {
        index if index < count => live[index],
        _ => 0,
    };
    let mut live = vec![0u32; count];
    loop {
        let mut changed = false;
        for pc in (0..count).rev() {
            let block = lines[pc].block;
            let spec = block.spec();
            let next = pc as u16 + 1;
            let mut out = 0;
            let mut raises = spec.raises;
            match spec.shape {
                Shape::Return => {}
                Shape::If => out = at(next, &live) | at(skip_if(structure, pc), &live),
                Shape::Else => out = at(structure.end[pc], &live),
                Shape::Try | Shape::Loop => out = at(next, &live),
                Shape::Handler => out = at(structure.past_handlers[pc], &live),
                Shape::Transaction => {
                    out = at(structure.end[pc], &live);
                    for inner in &lines[pc + 1..structure.end[pc] as usize] {
                        raises = raises.union(inner.block.spec().raises);
                    }
                }
                Shape::Statement if block == Block::Sleep => {
                    let header = structure
                        .enclosing(lines, pc, Shape::Loop)
                        .expect("a checked program has every sleep in a loop");
                    let refused = match structure.else_at[header] {
                        NONE => structure.end[header],
                        paired => paired + 1,
                    };
                    out = at(header as u16 + 1, &live) | at(refused, &live);
                }
                Shape::Statement => out = at(next, &live),
            }
            for error in raises.iter() {
                out |= match structure.handler_for(lines, pc, error) {
                    Some(handler) => at(handler as u16 + 1, &live) & !RAISED,
                    None => Live::ERROR,
                };
            }
            let now = Live::read_by(block) | out;
            if now != live[pc] {
                live[pc] = now;
                changed = true;
            }
        }
        if !changed {
            return live;
        }
    }
}

/// Where a false `if` at `pc` goes: into its `else` body, or past its own.
fn skip_if(structure: &Structure, pc: usize) -> u16 {
    match structure.else_at[pc] {
        NONE => structure.end[pc],
        paired => paired + 1,
    }
}

/// What a new run knows. The texts are shared: an explorer copies every run in progress at
/// every branch, and a copy then only counts a reference.
#[derive(Debug)]
pub(crate) struct Start {
    pub op: Text,
    pub payload: Text,
    pub key: Text,
    pub tick: u32,
    /// The run's position in its worker's plan (1-based): a batch position.
    pub position: u32,
    /// The fingerprint of the fields above, taken once: they never change during the run, and
    /// the run is fingerprinted after each of its steps.
    fingerprint: u64,
}

clone_by_fields!(Start {
    op,
    payload,
    key,
    tick,
    position,
    fingerprint
});

impl Start {
    pub fn new(op: Text, payload: Text, key: Text, tick: u32, position: u32) -> Start {
        let mut hasher = Fingerprint::default();
        (&*op, &*payload, &*key, tick, position).hash(&mut hasher);
        Start {
            op,
            payload,
            key,
            tick,
            position,
            fingerprint: hasher.finish(),
        }
    }
}

/// A start stands in a state's fingerprint by the fingerprint of its fields: the 64-bit state
/// key already tells states apart by a hash, and this one adds no collision of its own beyond
/// the same 2^-64 odds per pair.
impl Hash for Start {
    fn hash<H: Hasher>(&self, hasher: &mut H) {
        self.fingerprint.hash(hasher);
    }
}

/// Where a run rests past its last line: it fell off the end (`return None`).
const END: u16 = u16::MAX - 1;
/// Where a run rests once an error no handler catches was raised: its next step says so.
const UNHANDLED: u16 = u16::MAX - 2;

/// What a lookup found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Found {
    /// No lookup yet.
    #[default]
    Unasked,
    /// No record under the key.
    Absent,
    /// A record with the run's payload.
    Same,
    /// A record with another payload.
    Differs,
}

/// Conditions a run has read, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flags(u16);

impl Flags {
    /// A reply or lookup in this run proved the effect.
    const EVIDENCE: u16 = 1 << 0;
    /// The application-level check saw a row (`select_exists`).
    const EXISTS: u16 = 1 << 1;
    /// This run claimed the key.
    const CLAIMED: u16 = 1 << 2;
    /// A result is stored under the key (the claim's owner recorded it, or the select found it).
    const STORED: u16 = 1 << 3;
    /// The tracker had the key marked done.
    const DONE: u16 = 1 << 4;
    /// The tracking table had the dedup key committed.
    const COMMITTED: u16 = 1 << 5;
    /// The pipeline's prior result was a success.
    const PRIOR_SUCCESS: u16 = 1 << 6;
    /// This run counted itself as an attempt on its journal row.
    const ATTEMPTED: u16 = 1 << 7;
    /// The retry policy allows the attempt the next `sleep` would start.
    const RETRY_ALLOWED: u16 = 1 << 8;
    /// A retry layer has moved off its first attempt (its tries and delays are then hashed).
    const LAYERS_MOVED: u16 = 1 << 9;
    /// The gateway declined the card (402): nothing was charged, and that is the answer.
    const DECLINED: u16 = 1 << 10;

    fn has(self, flag: u16) -> bool {
        self.0 & flag != 0
    }

    fn set(&mut self, flag: u16, on: bool) {
        if on {
            self.0 |= flag;
        } else {
            self.0 &= !flag;
        }
    }
}

/// What a run has learned and carries from step to step.
#[derive(Debug, Default)]
struct Registers {
    flags: Flags,
    /// The journal row as read: its status and whether its payload is the run's.
    row: Option<(JobStatus, bool)>,
    /// Its submit attempts as read.
    row_attempts: Option<u32>,
    found: Found,
    found_receipt: Option<Text>,
    receipt: Option<Text>,
    /// Submits made in this run.
    attempts: u32,
    /// Why the run refused to go on, for the line that records it.
    rejection: Option<Rejection>,
    /// The last error raised, and its failure class when it was a failed submit.
    error: Option<Raised>,
    class: Option<FailureClass>,
    /// The pause the next `sleep` takes.
    delay: u32,
    /// Attempts each retry layer has made in its current round, innermost first: a layer that
    /// retries starts every layer inside it afresh, as a real stack of retry loops does.
    tries: [u32; LAYERS],
    /// The last pause each layer took (decorrelated jitter grows from it).
    last_delays: [u32; LAYERS],
    /// The pipeline's first stage still to do (`stages.len()` when all kept their output).
    todo: u8,
    prior_output: Option<Text>,
    output: Option<Text>,
}

clone_by_fields!(Registers {
    flags,
    row,
    row_attempts,
    found,
    found_receipt,
    receipt,
    attempts,
    rejection,
    error,
    class,
    delay,
    tries,
    last_delays,
    todo,
    prior_output,
    output
});

/// What a step tells the interpreter to do next.
enum Then {
    /// The next line.
    Next,
    /// Into the header's body when true, past it when false.
    Enter(bool),
    /// Raise this error.
    Raise(Raised),
    /// The next attempt of the enclosing retry loop.
    Again,
    /// The run is over.
    Over,
}

/// A run in progress: a program counter and registers, held inline (not boxed), so copying an
/// engine to branch it copies each run without allocating (its texts are shared, and
/// `clone_from` reuses what the run it overwrites holds).
#[derive(Debug)]
pub(crate) struct Task {
    pub start: Start,
    /// The line the run rests at.
    pc: u16,
    /// The action of that line.
    next: Action,
    regs: Registers,
}

clone_by_fields!(Task {
    start,
    pc,
    next,
    regs
});

impl Task {
    /// A fresh run of `program`, resting at its first action (a key line on the way may draw
    /// from `rng`).
    pub fn new(start: Start, program: &Compiled, rng: &mut Rng) -> Task {
        let mut task = Task {
            start,
            pc: 0,
            next: Action::Return,
            regs: Registers {
                tries: [1; LAYERS],
                ..Registers::default()
            },
        };
        // A run arrives only while its worker's flag is down (`Engine::receive`).
        task.settle(program, rng, false);
        task
    }

    /// The operation of this run.
    pub fn op(&self) -> &Text {
        &self.start.op
    }

    /// The action the next step will take.
    pub fn next_action(&self) -> Action {
        self.next
    }

    /// An earlier attempt, in an earlier run or in this one, may have taken effect.
    fn uncertain(&self) -> bool {
        self.regs.attempts > 0 || self.regs.row_attempts.is_some_and(|attempts| attempts > 0)
    }

    /// Feeds everything that decides the run's future steps into `hasher`, so an explorer can
    /// recognise a state it has seen: what every run carries (its start, its attempts and
    /// evidence, which a cancel reads at any step), and the registers a line it can still reach
    /// reads. Runs that differ only in what no later line reads continue the same way.
    pub fn hash_state(&self, hasher: &mut Fingerprint, program: &Compiled) {
        let regs = &self.regs;
        let live = match self.pc {
            UNHANDLED => Live::ERROR,
            pc => program.live.get(pc as usize).copied().unwrap_or(0),
        };
        let reads = |register: u32| live & register != 0;
        self.start.hash(hasher);
        let row = match regs.row {
            Some((status, same)) if reads(Live::ROW) => {
                1 | (status as u64) << 1 | u64::from(same) << 4
            }
            _ => 0,
        };
        let flag = |register: u32, flag: u16| match reads(register) && regs.flags.has(flag) {
            true => flag,
            false => 0,
        };
        let flags = (regs.flags.0 & Flags::EVIDENCE)
            | flag(Live::CLAIMED, Flags::CLAIMED)
            | flag(Live::STORED, Flags::STORED)
            | flag(Live::COMMITTED, Flags::COMMITTED)
            | flag(Live::PRIOR_SUCCESS, Flags::PRIOR_SUCCESS)
            | flag(Live::ATTEMPTED, Flags::ATTEMPTED)
            | flag(Live::DELAY, Flags::RETRY_ALLOWED)
            | flag(Live::DECLINED, Flags::DECLINED);
        let found = if reads(Live::FOUND) {
            regs.found as u64
        } else {
            0
        };
        let error = match regs.error {
            Some(error) if reads(Live::ERROR) => error as u64 + 1,
            _ => 0,
        };
        let class = match regs.class {
            Some(class) if reads(Live::CLASS) => class as u64 + 1,
            _ => 0,
        };
        let rejection = match &regs.rejection {
            Some(_) if !reads(Live::REJECTION) => 0,
            None => 0,
            Some(Rejection::ProviderPayload) => 1,
            Some(Rejection::KeyMissing) => 2,
            Some(Rejection::KeyReused { status }) => 3 | u64::from(*status) << 2,
        };
        let todo = if reads(Live::TODO) { regs.todo } else { 0 };
        let delay = if reads(Live::DELAY) { regs.delay } else { 0 };
        let texts = [
            (Live::RECEIPT, &regs.receipt),
            (Live::FOUND_RECEIPT, &regs.found_receipt),
            (Live::OUTPUT, &regs.output),
            (Live::PRIOR_OUTPUT, &regs.prior_output),
        ];
        let present = texts
            .iter()
            .enumerate()
            .fold(0u64, |bits, (bit, (register, text))| {
                bits | u64::from(reads(*register) && text.is_some()) << bit
            });
        // Small numbers packed into two words: each field has its own bits.
        let pc = program
            .pc_key
            .get(self.pc as usize)
            .copied()
            .unwrap_or(self.pc);
        hasher.write_pair(
            u64::from(pc)
                | u64::from(flags) << 16
                | row << 32
                | found << 37
                | present << 40
                | error << 44
                | class << 48
                | u64::from(todo) << 52,
            u64::from(regs.attempts)
                | u64::from(regs.row_attempts.map_or(0, |attempts| attempts + 1)) << 16
                | rejection << 32,
        );
        let layers = reads(Live::LAYERS) && regs.flags.has(Flags::LAYERS_MOVED);
        if delay > 0 || layers {
            hasher.write_pair(u64::from(delay), u64::from(layers));
        }
        if layers {
            const { assert!(LAYERS % 2 == 0, "the layers go two to a word") };
            for layer in (0..LAYERS).step_by(2) {
                let pair = |numbers: &[u32; LAYERS]| {
                    u64::from(numbers[layer]) | u64::from(numbers[layer + 1]) << 32
                };
                hasher.write_pair(pair(&regs.tries), pair(&regs.last_delays));
            }
        }
        for (register, text) in texts {
            if let Some(text) = text.as_ref().filter(|_| reads(register)) {
                hasher.write_text(text);
            }
        }
    }

    /// Stops because the cancel flag is up: one final step that records what did not begin. A
    /// run whose submit has no answer leaves its row `unknown`, not `cancelled`.
    pub fn cancel(&mut self, context: &mut Context, program: &Compiled) -> Step {
        let unresolved = self.uncertain() && !self.regs.flags.has(Flags::EVIDENCE);
        let mut step = cancel_run(context, &self.start.op, self.next, unresolved);
        step.line = program.listing.cancel_line;
        step
    }

    /// Takes one step: the line the run rests at. A run rests at a `check_cancel` line only
    /// when its flag was up there: the step stops the run, as `cancel` does, at that line.
    pub fn step(&mut self, context: &mut Context, program: &Compiled) -> Step {
        let pc = self.pc;
        if program.block(pc) == Some(Block::CheckCancel) {
            let mut step = self.cancel(context, program);
            step.line = program.listing.line_of(pc);
            self.pc = END;
            self.next = Action::Return;
            return step;
        }
        let mut step = Step {
            line: program.listing.line_of(pc),
            ..Step::default()
        };
        step.flags.promises_unique_rows = program.promises_unique_rows;
        step.flags.receipt = program.receipt;
        let then = match program.block(pc) {
            None if pc == UNHANDLED => {
                let error = self.regs.error.unwrap_or(Raised::Timeout);
                step.outcome = Some(Outcome::Raised { error });
                step.result = Some("raised");
                Then::Over
            }
            None => {
                step.finish("None");
                Then::Over
            }
            Some(block) => self.run_block(block, context, &mut step, program),
        };
        self.follow(then, program, context.rng, context.cancel_requested);
        step
    }

    /// Moves past the line just run, as `then` says, and on to the next action (or to a
    /// `check_cancel` line, when `cancel_requested`).
    fn follow(&mut self, then: Then, program: &Compiled, rng: &mut Rng, cancel_requested: bool) {
        let pc = self.pc as usize;
        self.pc = match then {
            Then::Over => END,
            // A transaction's body ran with its step.
            Then::Next if program.block(self.pc) == Some(Block::Transaction) => {
                program.structure.end[pc]
            }
            Then::Next => pc as u16 + 1,
            Then::Enter(true) => pc as u16 + 1,
            Then::Enter(false) => program.skip_if(pc),
            Then::Raise(error) => {
                self.regs.error = Some(error);
                match program.structure.handler_for(&program.lines, pc, error) {
                    Some(handler) => handler as u16 + 1,
                    None => UNHANDLED,
                }
            }
            Then::Again => match program.structure.enclosing(&program.lines, pc, Shape::Loop) {
                Some(header) => header as u16 + 1,
                None => program.structure.end[pc],
            },
        };
        self.settle(program, rng, cancel_requested);
    }

    /// Follows the lines that take no time, to the next line that takes an action. A
    /// `check_cancel` line takes no time while the flag is down; with it up (`cancel_requested`)
    /// the run rests there, and its next step stops it before the action the check guards.
    fn settle(&mut self, program: &Compiled, rng: &mut Rng, cancel_requested: bool) {
        let lines = &program.lines;
        loop {
            let pc = self.pc as usize;
            if self.pc == UNHANDLED || pc >= lines.len() {
                if self.pc != UNHANDLED {
                    self.pc = END;
                }
                self.next = Action::Return;
                return;
            }
            let block = lines[pc].block;
            let spec = block.spec();
            match spec.shape {
                Shape::If if spec.action.is_none() => {
                    self.pc = match self.condition(block) {
                        true => self.pc + 1,
                        false => program.skip_if(pc),
                    };
                }
                // Reached in order: the `if` body (or the loop) before it ran; so do the handlers
                // after a `try` body that raised nothing.
                Shape::Else => self.pc = program.structure.end[pc],
                Shape::Handler => self.pc = program.structure.past_handlers[pc],
                Shape::Try | Shape::Loop => self.pc += 1,
                _ if block == Block::CheckCancel && cancel_requested => {
                    // What never begins: the action the run would have taken past the check.
                    let mut ahead = self.clone();
                    ahead.pc += 1;
                    // A key line on the way draws from a copy: looking ahead changes no run.
                    ahead.settle(program, &mut rng.clone(), false);
                    self.next = ahead.next;
                    return;
                }
                _ if block == Block::CheckCancel => self.pc += 1,
                Shape::Statement if spec.action.is_none() => {
                    match keys::source_of(block) {
                        Some(source) => self.set_key(source, program, rng),
                        None => self.assign(block),
                    }
                    self.pc += 1;
                }
                _ if block == Block::Sleep && !self.regs.flags.has(Flags::RETRY_ALLOWED) => {
                    // No attempt is left: the loop's `else` runs, or the line after the loop.
                    let header = program
                        .structure
                        .enclosing(lines, pc, Shape::Loop)
                        .expect("a checked program has every sleep in a loop");
                    self.pc = match program.structure.else_at[header] {
                        NONE => program.structure.end[header],
                        paired => paired + 1,
                    };
                }
                _ => {
                    self.next = program.action(self.pc);
                    return;
                }
            }
        }
    }

    /// An `if` that takes no action, read from the registers.
    fn condition(&self, block: Block) -> bool {
        let regs = &self.regs;
        let flags = regs.flags;
        match block {
            Block::IfRowDiffers => matches!(regs.row, Some((_, false))),
            Block::IfRowVerified => matches!(regs.row, Some((JobStatus::Verified, _))),
            Block::IfNoRow => regs.row.is_none(),
            Block::IfFoundDiffers => regs.found == Found::Differs,
            Block::IfNotFoundUncertain => regs.found == Found::Absent && self.uncertain(),
            Block::IfFound => matches!(regs.found, Found::Same | Found::Differs),
            Block::IfNotClaimed => !flags.has(Flags::CLAIMED),
            Block::IfNoStored => !flags.has(Flags::STORED),
            Block::IfStored => flags.has(Flags::STORED),
            Block::IfPriorSuccess => flags.has(Flags::PRIOR_SUCCESS),
            Block::IfTodoModel => regs.todo == 0,
            Block::IfTodoWrite => regs.todo <= 1,
            Block::IfTodoNotify => regs.todo <= 2,
            Block::IfNotCommitted => !flags.has(Flags::COMMITTED),
            Block::IfCommitted => flags.has(Flags::COMMITTED),
            other => unreachable!("{other:?} is not a condition"),
        }
    }

    /// A key line: the run's key from now on, made by `source` from what the run received (a
    /// `uuid4()` draws anew each time the line runs).
    fn set_key(&mut self, source: KeySource, program: &Compiled, rng: &mut Rng) {
        let facts = program
            .keys
            .as_ref()
            .expect("a program with a key line has its key facts");
        let start = &self.start;
        let (op, payload) = (&start.op, &start.payload);
        let key: Text = match source {
            KeySource::SourceId => {
                keys::source_key(op, facts.missing_ids.iter().any(|id| **id == **op))
            }
            KeySource::ContentHash => keys::content_key(payload).into(),
            KeySource::FreshRandom => keys::fresh_key(rng).into(),
            KeySource::HashWithReceivedAt => keys::received_at_key(payload, start.tick).into(),
            KeySource::SavedUuid => keys::saved_key(facts.seed, op),
            KeySource::AutoIncrement | KeySource::None => {
                unreachable!("no key block draws from {source:?}")
            }
        };
        self.start = Start::new(op.clone(), payload.clone(), key, start.tick, start.position);
    }

    /// A statement that takes no action.
    fn assign(&mut self, block: Block) {
        let regs = &mut self.regs;
        match block {
            Block::UseFoundReceipt => regs.receipt.clone_from(&regs.found_receipt),
            Block::ReuseOutput => regs.output.clone_from(&regs.prior_output),
            // The first stage to do was read with the prior result.
            Block::StagesToDo => {}
            other => unreachable!("{other:?} takes an action"),
        }
    }

    fn run_block(
        &mut self,
        block: Block,
        context: &mut Context,
        step: &mut Step,
        program: &Compiled,
    ) -> Then {
        let stage = program
            .stage
            .get(self.pc as usize)
            .copied()
            .flatten()
            .map(|index| program.stages[index as usize]);
        match block {
            Block::Sleep => self.sleep(step),
            Block::Transaction => self.transaction(context, step, program),
            Block::JournalGet => self.journal_get(context, step),
            Block::JournalInsert => self.journal_insert(context, step),
            Block::Lookup => self.lookup(context, step),
            Block::Submit => self.submit(context, step, program),
            Block::MarkVerified => self.mark(context, step, JobStatus::Verified, None),
            Block::MarkNeedsReview => {
                let op = &self.start.op;
                let next = format!("settle {op} through the provider's own recovery channel (support, statement), then record its receipt or resume {op}; never resubmit");
                self.mark(
                    context,
                    step,
                    JobStatus::NeedsReview,
                    Some(("lookup inconclusive".into(), next)),
                )
            }
            Block::MarkFailed => {
                let op = &self.start.op;
                let reason = match self.regs.error {
                    Some(Raised::Invalid) => "invalid input",
                    Some(Raised::Forbidden) => "permission denied",
                    _ => "failed",
                };
                let next = format!(
                    "correct the input or the credential, then resume {op} under its own id"
                );
                self.mark(
                    context,
                    step,
                    JobStatus::Failed,
                    Some((reason.into(), next)),
                )
            }
            Block::MarkRejected => {
                let why = self
                    .regs
                    .rejection
                    .clone()
                    .unwrap_or(Rejection::ProviderPayload);
                let handover = (why.text(), why.next_action(&self.start.op));
                let then = self.mark(context, step, JobStatus::Failed, Some(handover));
                step.outcome = Some(Outcome::JournalRejected { why });
                then
            }
            Block::SelectExists => {
                let key = &self.start.key;
                let exists = context.world.table.contains(key);
                let answer = if exists { Label::OneRow } else { Label::NoRow };
                step.messages = context.call("database", Lost::Nothing, || {
                    (Label::Select { key: key.clone() }, Some(answer))
                });
                step.outcome = Some(Outcome::Checked { exists });
                self.regs.flags.set(Flags::EXISTS, exists);
                Then::Enter(exists)
            }
            Block::WriteInsert | Block::WriteInsertOrIgnore | Block::WriteUpsert => {
                let (key, value, op) = (&self.start.key, &self.start.payload, &self.start.op);
                match write_row(context, step, write_mode(block), key, value, op) {
                    RowWritten::Busy => Then::Raise(Raised::Busy),
                    RowWritten::Done { lost: true, .. } => Then::Raise(Raised::Timeout),
                    RowWritten::Done {
                        outcome: WriteOutcome::Conflict,
                        ..
                    } => Then::Raise(Raised::Conflict),
                    RowWritten::Done { .. } => Then::Next,
                }
            }
            Block::SaveInsert
            | Block::SaveInsertOrIgnore
            | Block::SaveUpsert
            | Block::InsertFilterOnRead => self.save(context, step, block, stage),
            Block::TrackingInsert => self.tracking_insert(context, step),
            Block::Claim => self.claim(context, step, false),
            Block::ClaimWithLease => self.claim(context, step, true),
            Block::SelectStored => {
                let key = &self.start.key;
                let existing = context.world.table.contains(key);
                let reply = if existing {
                    Label::Found
                } else {
                    Label::NotFound
                };
                step.messages = context.call("database", Lost::Nothing, || {
                    (Label::Select { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(Outcome::CheckFound { found: existing });
                self.regs.flags.set(Flags::STORED, existing);
                Then::Next
            }
            Block::Charge => self.charge(context, step, false),
            Block::ChargeKeyed => self.charge(context, step, true),
            Block::RecordResult | Block::InsertResult => {
                let mode = match block {
                    Block::RecordResult => WriteMode::Upsert,
                    _ => WriteMode::Insert,
                };
                let key = &self.start.key;
                // The result as the caller will read it: its status and its body.
                let result: Text = match self.regs.flags.has(Flags::DECLINED) {
                    true => Text::fixed(DECLINED),
                    false => {
                        let count = context.world.sink_effects("charge", &self.start.op);
                        format!("200 ch-{count}").into()
                    }
                };
                context.world.write_row(mode, key, &result, &self.start.op);
                step.messages = context.call("database", Lost::Nothing, || {
                    let record = Label::Record {
                        key: key.clone(),
                        result,
                    };
                    (record, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::ResultRecorded);
                Then::Next
            }
            Block::IfNotDone => {
                let key = tracker_key(&self.start.key);
                let done = context.world.tracker.contains_key(&key);
                let reply = if done { Label::Done } else { Label::NotDone };
                step.messages = context.call("tracker", Lost::Nothing, || {
                    (Label::AlreadyDone { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(if done {
                    Outcome::AlreadyNotified
                } else {
                    Outcome::NotDoneYet
                });
                self.regs.flags.set(Flags::DONE, done);
                Then::Enter(!done)
            }
            Block::MarkDoneBefore | Block::MarkDoneAfter => {
                let key = tracker_key(&self.start.key);
                context.world.insert_tracker(&key, &self.start.op);
                step.messages = context.call("tracker", Lost::Nothing, || {
                    (Label::MarkDone { key: key.clone() }, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::Marked {
                    key: context.text(&key),
                });
                Then::Next
            }
            Block::SendNotification => {
                let key = tracker_key(&self.start.key);
                let op = &self.start.op;
                let sent = send_effect(
                    context,
                    step,
                    "notification",
                    &key,
                    op,
                    || Label::Notify,
                    Label::Sent,
                );
                match sent {
                    Sent::NotSent(_) => {
                        step.outcome = Some(Outcome::NotificationNotSent);
                        Then::Raise(Raised::NotSent)
                    }
                    Sent::Done { lost } => {
                        let sent = context.world.sink_effects("notification", op);
                        step.outcome = Some(Outcome::Notifying { sent });
                        match lost {
                            true => Then::Raise(Raised::Timeout),
                            false => Then::Next,
                        }
                    }
                }
            }
            Block::PriorGet => self.prior_get(context, step, program.stages),
            Block::CallModel => self.call_model(context, step, stage),
            Block::NotifyGuarded | Block::NotifyUnguarded => {
                self.notify_stage(context, step, block == Block::NotifyGuarded, stage)
            }
            Block::MarkSuccess => {
                self.attempt(context);
                let op = &self.start.op;
                if let Some(job) = context.world.job_mut(op) {
                    job.status = JobStatus::Verified;
                    job.failed_stage = None;
                    job.reason = None;
                    job.review = None;
                }
                step.messages = context.call("journal", Lost::Nothing, || {
                    (Label::MarkSuccess, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::ItemSucceeded);
                Then::Next
            }
            Block::CheckTracking => {
                let key = &self.start.key;
                let seen = context.world.table.dedup.contains(&**key);
                let reply = if seen { Label::Found } else { Label::NotFound };
                step.messages = context.call("database", Lost::Nothing, || {
                    (Label::SelectTracking { key: key.clone() }, Some(reply))
                });
                step.outcome = Some(Outcome::DedupKey {
                    key: context.text(key),
                    seen,
                });
                self.regs.flags.set(Flags::COMMITTED, seen);
                Then::Next
            }
            Block::SendEmailLogged | Block::SendEmail => {
                self.send_email(context, step, block == Block::SendEmailLogged)
            }
            Block::EmailReceipt => self.email_receipt(context, step),
            Block::SaveProgress => {
                let position = self.start.position;
                context
                    .world
                    .set_progress(context.world.counts.progress.max(position));
                step.messages = context.call("progress", Lost::Nothing, || {
                    (Label::Save { position }, Some(Label::Ok))
                });
                step.outcome = Some(Outcome::Progress { position });
                Then::Next
            }
            block if block.spec().shape == Shape::Return => self.finish(context, step, block),
            other => unreachable!("{other:?} takes no step of its own"),
        }
    }

    /// A return line: the run ends with its result. A result that reports the work done is
    /// held to the effect existing.
    fn finish(&mut self, context: &mut Context, step: &mut Step, block: Block) -> Then {
        let result = match block {
            Block::ReturnExhausted => match self.regs.class {
                Some(FailureClass::Temporary) => "gave_up",
                _ => "unknown",
            },
            Block::ReturnCharged if self.regs.flags.has(Flags::DECLINED) => "declined",
            block => block
                .spec()
                .result
                .expect("a return block declares its result"),
        };
        step.finish(result);
        let op = &self.start.op;
        let stored = match block {
            Block::ReturnReplayed => stored_result(context.world, &self.start.key),
            _ => None,
        };
        if let Some(stored) = &stored {
            step.outcome = Some(Outcome::Replayed {
                stored: context.text(stored),
            });
        }
        let missing = match block {
            // A stored decline is an answer with no charge behind it.
            Block::ReturnReplayed => {
                context.world.sink_effects("charge", op) == 0
                    && stored.is_none_or(|stored| *stored != *DECLINED)
            }
            Block::ReturnDone => context.world.sink_effects("notification", op) == 0,
            Block::ReturnSkipped | Block::ReturnSucceeded => context.world.table_rows(op) == 0,
            _ => false,
        };
        if missing {
            step.flags.missing_effect = Some(op.to_string());
        }
        Then::Over
    }

    /// Backs off before the next attempt, which starts afresh: the failure that led here is
    /// forgotten.
    fn sleep(&mut self, step: &mut Step) -> Then {
        let ticks = std::mem::take(&mut self.regs.delay);
        self.regs.flags.set(Flags::RETRY_ALLOWED, false);
        self.regs.error = None;
        self.regs.class = None;
        step.outcome = Some(Outcome::BacksOff {
            ticks,
            attempt: self.regs.attempts + 1,
        });
        step.sleep_ticks = ticks;
        Then::Again
    }

    fn journal_get(&mut self, context: &mut Context, step: &mut Step) -> Then {
        let row = context.world.journal.get(&self.start.op);
        self.regs.row_attempts = row.map(|row| row.attempts);
        let answer = match row {
            None => Label::None,
            Some(row) => Label::Status { status: row.status },
        };
        let read = row.map(|row| (row.status, *row.payload == *self.start.payload));
        step.messages = context.call("journal", Lost::Nothing, || (Label::Get, Some(answer)));
        step.outcome = Some(match read {
            None => Outcome::NoJournalRow,
            Some((_, false)) => Outcome::JournalPayloadDiffers,
            Some((status, true)) => Outcome::JournalRow { status },
        });
        self.regs.row = read;
        Then::Next
    }

    fn journal_insert(&mut self, context: &mut Context, step: &mut Step) -> Then {
        let op = self.start.op.clone();
        // INSERT OR IGNORE: a racing worker may have written the row since our read.
        let existed = context.world.journal.contains_key(&op);
        context
            .world
            .job_insert_or_ignore(pending_row(op, self.start.payload.clone()));
        let reply = if existed { Label::RowExists } else { Label::Ok };
        step.messages = context.call("journal", Lost::Nothing, || {
            (Label::InsertPending, Some(reply))
        });
        step.outcome = Some(if existed {
            Outcome::CheckpointRaced
        } else {
            Outcome::CheckpointSaved
        });
        Then::Next
    }

    fn lookup(&mut self, context: &mut Context, step: &mut Step) -> Then {
        let key = self.start.key.clone();
        let request = || Label::Lookup { key: key.clone() };
        if matches!(
            context.fault,
            Some(FaultKind::LoseRequest | FaultKind::Busy)
        ) {
            step.fault_used = true;
            let lost = context.fault == Some(FaultKind::LoseRequest);
            let reply = (!lost).then_some(Label::Busy);
            let how = if lost { Lost::Request } else { Lost::Nothing };
            step.messages = context.call("provider", how, || (request(), reply));
            step.outcome = Some(Outcome::LookupFailed);
            return Then::Raise(if lost { Raised::Timeout } else { Raised::Busy });
        }
        let stale = context.fault == Some(FaultKind::StaleLookup);
        step.fault_used = stale;
        let found =
            provider::lookup(context.world, &context.scenario.provider, &key).filter(|_| !stale);
        match found {
            Some(found) => {
                step.messages = context.call("provider", Lost::Nothing, || {
                    let receipt = found.receipt.clone();
                    (request(), Some(Label::FoundReceipt { receipt }))
                });
                if *found.payload != *self.start.payload {
                    step.outcome = Some(Outcome::ProviderPayloadDiffers);
                    self.regs.found = Found::Differs;
                    self.regs.rejection = Some(Rejection::ProviderPayload);
                } else {
                    step.outcome = Some(Outcome::AlreadyDone {
                        receipt: context.text(&found.receipt),
                    });
                    self.regs.found = Found::Same;
                    self.regs.flags.set(Flags::EVIDENCE, true);
                }
                self.regs.found_receipt = Some(found.receipt);
            }
            None => {
                step.messages = context.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::NotFound))
                });
                step.outcome = Some(if self.uncertain() {
                    Outcome::NotFoundUnresolved
                } else {
                    Outcome::NotFound
                });
                self.regs.found = Found::Absent;
            }
        }
        Then::Next
    }

    fn submit(&mut self, context: &mut Context, step: &mut Step, program: &Compiled) -> Then {
        let op = self.start.op.clone();
        let key = self.start.key.clone();
        let payload = self.start.payload.clone();
        step.fault_used = context.fault.is_some();
        if let Some(job) = context.world.job_mut(&op) {
            step.flags.resubmitted = job.status.is_success();
            job.attempts += 1;
        }
        if context.scenario.switches.retry.retry_ratio_permille > 0 {
            context
                .world
                .count_submit(context.lane, self.regs.attempts == 0);
        }
        self.regs.attempts += 1;
        context.world.count_deepest_call();
        let config = context.scenario.provider.clone();
        let request = || Label::Submit {
            key: key.clone(),
            payload: payload.clone(),
        };
        let failure = match context.fault {
            Some(FaultKind::LoseRequest) => {
                step.messages = context.call("provider", Lost::Request, || (request(), None));
                step.outcome = Some(Outcome::SubmitRequestLost);
                FailureClass::UnknownCompletion
            }
            Some(FaultKind::LoseReply) => {
                let reply = provider::submit(context.world, &config, &key, &payload, &op);
                step.messages = context.call("provider", Lost::Reply, || {
                    (request(), Some(Label::Provider { reply }))
                });
                step.outcome = Some(Outcome::SubmitReplyLost);
                FailureClass::UnknownCompletion
            }
            Some(FaultKind::Timeout) => {
                context.world.push_in_flight(crate::world::InFlight {
                    key: key.clone(),
                    payload: payload.clone(),
                    operation: op.clone(),
                    commit_tick: context.world.tick.saturating_add(3),
                });
                step.messages = context.call("provider", Lost::Nothing, || (request(), None));
                step.outcome = Some(Outcome::SubmitTimeout);
                FailureClass::UnknownCompletion
            }
            Some(FaultKind::Busy) => {
                step.messages =
                    context.call("provider", Lost::Nothing, || (request(), Some(Label::Busy)));
                step.outcome = Some(Outcome::SubmitBusy);
                FailureClass::Temporary
            }
            Some(FaultKind::InvalidInput) => {
                step.messages = context.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::Invalid))
                });
                step.outcome = Some(Outcome::SubmitInvalid);
                FailureClass::InvalidInput
            }
            Some(FaultKind::PermissionDenied) => {
                step.messages = context.call("provider", Lost::Nothing, || {
                    (request(), Some(Label::Forbidden))
                });
                step.outcome = Some(Outcome::SubmitForbidden);
                FailureClass::Permission
            }
            other => {
                if other == Some(FaultKind::ExpireKey) {
                    context.world.expire_key(&key);
                }
                let reply = provider::submit(context.world, &config, &key, &payload, &op);
                step.messages = context.call("provider", Lost::Nothing, || {
                    let reply = reply.clone();
                    (request(), Some(Label::Provider { reply }))
                });
                return self.accept(reply, step);
            }
        };
        self.after_failure(context, failure, program)
    }

    /// The provider answered.
    fn accept(&mut self, reply: SubmitReply, step: &mut Step) -> Then {
        let then = match &reply {
            SubmitReply::Created { receipt } | SubmitReply::Replayed { receipt } => {
                self.regs.receipt = Some(receipt.clone());
                self.regs.flags.set(Flags::EVIDENCE, true);
                Then::Next
            }
            SubmitReply::SilentlyAccepted { receipt } => {
                step.flags.silent_change = true;
                self.regs.receipt = Some(receipt.clone());
                self.regs.flags.set(Flags::EVIDENCE, true);
                Then::Next
            }
            SubmitReply::Rejected { status } => {
                self.regs.rejection = Some(Rejection::KeyReused { status: *status });
                Then::Raise(Raised::Rejected)
            }
            SubmitReply::KeyMissing => {
                self.regs.rejection = Some(Rejection::KeyMissing);
                Then::Raise(Raised::Rejected)
            }
        };
        // The provider's answer already holds the receipt: the outcome takes it, no copy.
        step.outcome = Some(Outcome::Submitted { reply });
        then
    }

    /// Classify, then decide whether the retry loop may try again: the innermost layer with
    /// attempts left retries, within the deadline, when the handler that catches the error
    /// backs off (`sleep`). The pause is drawn whether or not it is taken, so the RNG stream
    /// does not depend on it.
    fn after_failure(
        &mut self,
        context: &mut Context,
        class: FailureClass,
        program: &Compiled,
    ) -> Then {
        self.regs.class = Some(class);
        let error = match class {
            FailureClass::InvalidInput => return Then::Raise(Raised::Invalid),
            FailureClass::Permission => return Then::Raise(Raised::Forbidden),
            FailureClass::Temporary => Raised::Busy,
            FailureClass::UnknownCompletion => Raised::Timeout,
        };
        let policy = &context.scenario.switches.retry;
        let layers = if policy.single_layer {
            1
        } else {
            policy.layers.clamp(1, LAYERS as u32) as usize
        };
        let regs = &mut self.regs;
        let retrying_layer = (0..layers).find(|&layer| regs.tries[layer] < policy.attempts_max);
        let layer = retrying_layer.unwrap_or(layers - 1);
        let delay = retry::delay_ticks(
            policy,
            regs.tries[layer] - 1,
            regs.last_delays[layer],
            context.rng,
        );
        let elapsed = context
            .world
            .tick
            .saturating_add(delay)
            .saturating_sub(self.start.tick);
        let in_time = policy.deadline_ticks == 0 || elapsed <= policy.deadline_ticks;
        let backs_off = program
            .structure
            .handler_for(&program.lines, self.pc as usize, error)
            .is_some_and(|handler| program.body_has(handler, Block::Sleep));
        let within_budget = match policy.retry_ratio_permille {
            0 => true,
            ratio => context.world.retry_within_budget(context.lane, ratio),
        };
        let allowed = backs_off && retrying_layer.is_some() && in_time && within_budget;
        if allowed {
            regs.tries[layer] += 1;
            regs.last_delays[layer] = delay;
            for inner in 0..layer {
                regs.tries[inner] = 1;
                regs.last_delays[inner] = 0;
            }
            regs.delay = delay;
            regs.flags.set(Flags::LAYERS_MOVED, true);
        }
        regs.flags.set(Flags::RETRY_ALLOWED, allowed);
        Then::Raise(error)
    }

    /// Records `status`; `handover` is the reason and the next permitted action of a row this
    /// run leaves to a person.
    fn mark(
        &mut self,
        context: &mut Context,
        step: &mut Step,
        status: JobStatus,
        handover: Option<(String, String)>,
    ) -> Then {
        let (reason, review) = match handover {
            Some((reason, next_action)) => (Some(reason.into()), Some(context.review(next_action))),
            None => (None, None),
        };
        let evidence = self.regs.flags.has(Flags::EVIDENCE);
        if let Some(job) = context.world.job_mut(&self.start.op) {
            job.status = status;
            job.reason = reason;
            job.review = review;
            if status == JobStatus::Verified {
                job.receipt = self.regs.receipt.clone();
                step.flags.unproven_success = !evidence;
            }
        }
        let receipt = &self.regs.receipt;
        step.messages = context.call("journal", Lost::Nothing, || {
            let detail = match (receipt, status) {
                (Some(receipt), JobStatus::Verified) => Label::SetVerified {
                    receipt: receipt.clone(),
                },
                _ => Label::SetStatus { status },
            };
            (detail, Some(Label::Ok))
        });
        step.outcome = Some(Outcome::Journal { status });
        Then::Next
    }

    /// A row written by a step that counts a conflict as the row being there: in a stage of the
    /// pipeline, a failure records the stage and keeps the outputs before it.
    fn save(
        &mut self,
        context: &mut Context,
        step: &mut Step,
        block: Block,
        stage: Option<&'static str>,
    ) -> Then {
        step.flags.resubmitted = self.regs.flags.has(Flags::PRIOR_SUCCESS);
        if stage.is_some() {
            self.attempt(context);
        }
        let key = self.start.key.clone();
        let value = self
            .regs
            .output
            .clone()
            .unwrap_or_else(|| self.start.payload.clone());
        let op = self.start.op.clone();
        let written = write_row(context, step, write_mode(block), &key, &value, &op);
        let then = match written {
            RowWritten::Busy => {
                if stage.is_some() {
                    step.outcome = Some(Outcome::WriteBusyOutputKept);
                }
                Then::Raise(Raised::Busy)
            }
            RowWritten::Done {
                outcome: write,
                lost: true,
            } => {
                if stage.is_some() {
                    let unique = context.world.table.unique;
                    step.outcome = Some(Outcome::WriteLostFailed { write, unique });
                }
                Then::Raise(Raised::Timeout)
            }
            RowWritten::Done { .. } => Then::Next,
        };
        if let Some(stage) = stage {
            self.stage_done(context, stage, &then, Text::fixed("done"));
        }
        then
    }

    /// A stage's end: its output kept on success, the stage recorded as failed on an error.
    fn stage_done(
        &mut self,
        context: &mut Context,
        stage: &'static str,
        then: &Then,
        output: Text,
    ) {
        let Some(job) = context.world.job_mut(&self.start.op) else {
            return;
        };
        match then {
            Then::Raise(_) => {
                job.status = JobStatus::Failed;
                job.failed_stage = Some(Text::fixed(stage));
                job.reason = Some(format!("failed at {stage}").into());
            }
            _ => {
                job.stages.insert(Text::fixed(stage), output);
            }
        }
    }

    /// The first time this run works on its journal row, the row counts an attempt.
    fn attempt(&mut self, context: &mut Context) {
        if self.regs.flags.has(Flags::ATTEMPTED) {
            return;
        }
        self.regs.flags.set(Flags::ATTEMPTED, true);
        if let Some(job) = context.world.job_mut(&self.start.op) {
            job.attempts += 1;
        }
    }

    /// The dedup key into the tracking table, on its own (outside a transaction).
    fn tracking_insert(&mut self, context: &mut Context, step: &mut Step) -> Then {
        let key = self.start.key.clone();
        let request = || Label::Write { key: key.clone() };
        if database_busy(context, step, request) {
            return Then::Raise(Raised::Busy);
        }
        let new = context.world.insert_dedup(&key);
        let lost = context.fault == Some(FaultKind::LoseReply);
        step.fault_used = lost;
        let how = if lost { Lost::Reply } else { Lost::Nothing };
        let write = if new {
            WriteOutcome::Inserted
        } else {
            WriteOutcome::Ignored
        };
        step.messages = context.call("database", how, || {
            (request(), Some(Label::WriteDone { write }))
        });
        step.outcome = Some(Outcome::TrackingSaved {
            key: context.text(&key),
            new,
            lost,
        });
        match lost {
            true => Then::Raise(Raised::Timeout),
            false => Then::Next,
        }
    }

    /// `with db.transaction():`: its statements commit together, in this one step. A locked
    /// database rolls all of them back; a lost acknowledgment leaves all of them committed.
    fn transaction(&mut self, context: &mut Context, step: &mut Step, program: &Compiled) -> Then {
        let header = self.pc as usize;
        let body = &program.lines[header + 1..program.structure.end[header] as usize];
        let Some(first) = body
            .iter()
            .position(|line| line.block != Block::TrackingInsert)
        else {
            // Only the dedup key: the same as inserting it alone.
            return self.tracking_insert(context, step);
        };
        let block = body[first].block;
        let (key, op) = (self.start.key.clone(), self.start.op.clone());
        let value = self
            .regs
            .output
            .clone()
            .unwrap_or_else(|| self.start.payload.clone());
        let written = write_row(context, step, write_mode(block), &key, &value, &op);
        let RowWritten::Done { outcome, lost } = written else {
            step.outcome = Some(Outcome::RolledBack);
            return Then::Raise(Raised::Busy);
        };
        let mut dedup_committed = false;
        for (index, line) in body.iter().enumerate() {
            match line.block {
                Block::TrackingInsert => {
                    context.world.insert_dedup(&key);
                    dedup_committed = true;
                }
                other if index != first => {
                    context
                        .world
                        .write_row(write_mode(other), &key, &value, &op);
                }
                _ => {}
            }
        }
        step.outcome = Some(Outcome::Ingested {
            write: outcome,
            unique: context.world.table.unique,
            lost,
            dedup_committed,
            duplicate_stored: block == Block::InsertFilterOnRead
                && context.world.table.count(&key) > 1,
        });
        match lost {
            true => Then::Raise(Raised::Timeout),
            false => Then::Next,
        }
    }

    /// Claims the key with an atomic insert (`ON CONFLICT DO NOTHING`). `leased`
    /// (`claim_with_lease`): the claim keeps its tick, and a claim older than
    /// `switches.lease_ticks` with no result stored is taken over in the same statement
    /// (`ON CONFLICT (key) DO UPDATE ... WHERE claimed_at < now - lease AND result IS NULL`).
    fn claim(&mut self, context: &mut Context, step: &mut Step, leased: bool) -> Then {
        let key = self.start.key.clone();
        let op = &self.start.op;
        let now = context.world.tick;
        let lease = context.scenario.switches.lease_ticks;
        // Without UNIQUE there is no conflict to detect, and so nothing to take over.
        let table = &context.world.table;
        let expired = (leased && table.unique)
            .then(|| table.rows_keyed(&key).next())
            .flatten()
            .and_then(|row| claimed_at(&row.value))
            .filter(|since| now.saturating_sub(*since) > lease);
        let claim: Text = match leased {
            true => format!("{IN_PROGRESS} since tick {now}").into(),
            false => Text::fixed(IN_PROGRESS),
        };
        let (claimed, outcome) = match expired {
            Some(since) => {
                context.world.write_row(WriteMode::Upsert, &key, &claim, op);
                (true, Outcome::ClaimTakenOver { claimed_at: since })
            }
            None => {
                let write = context
                    .world
                    .write_row(WriteMode::InsertOrIgnore, &key, &claim, op);
                match write == WriteOutcome::Inserted {
                    true => (true, Outcome::Claimed),
                    false => (false, Outcome::ClaimTaken),
                }
            }
        };
        let reply = if claimed {
            Label::RowClaimed
        } else {
            Label::KeyTaken
        };
        step.messages = context.call("database", Lost::Nothing, || {
            (Label::Claim { key: key.clone() }, Some(reply))
        });
        step.outcome = Some(outcome);
        // A claim whose owner has not recorded a result yet has nothing to replay: read now,
        // with the claim, as the statement's own answer.
        let pending = !claimed
            && context
                .world
                .table
                .rows_keyed(&key)
                .any(|row| is_in_progress(&row.value));
        self.regs.flags.set(Flags::CLAIMED, claimed);
        self.regs.flags.set(Flags::STORED, !claimed && !pending);
        Then::Next
    }

    /// The card charge. A card the payload marks `"card": "declined"` is declined (402): no
    /// charge, and the decline is the answer. `keyed`: the gateway keeps the idempotency key and
    /// answers a repeat under it with its first charge, charging nothing new.
    fn charge(&mut self, context: &mut Context, step: &mut Step, keyed: bool) -> Then {
        let (op, payload, key) = (&self.start.op, &self.start.payload, &self.start.key);
        let request = || Label::Charge {
            payload: payload.clone(),
        };
        let declined = payload.contains(CARD_DECLINED);
        let kept = keyed
            && context
                .world
                .effects_of(op)
                .any(|effect| *effect.sink == *"charge" && effect.key == *key);
        let sent = match (declined, kept) {
            (true, _) => send_kept(context, step, "charge", request, Label::CardDeclined),
            (false, true) => {
                let first = Label::Charged { charge: 1 };
                send_kept(context, step, "charge", request, first)
            }
            (false, false) => {
                let receipt = context.world.sink_effects("charge", op) + 1;
                let reply = Label::Charged { charge: receipt };
                send_effect(context, step, "charge", key, op, request, reply)
            }
        };
        match sent {
            Sent::NotSent(_) => {
                // Nothing was charged: give the claimed key back so a retry can charge.
                if self.regs.flags.has(Flags::CLAIMED) {
                    let claim = (context.world.table.rows_keyed(key))
                        .find(|row| is_in_progress(&row.value))
                        .map(|row| row.value.clone());
                    if let Some(claim) = claim {
                        context.world.delete_rows(key, &claim);
                    }
                }
                step.outcome = Some(Outcome::NotCharged);
                Then::Raise(Raised::NotSent)
            }
            Sent::Done { lost } => {
                self.regs.flags.set(Flags::DECLINED, declined);
                step.outcome = Some(match (declined, kept) {
                    (true, _) => Outcome::Declined,
                    (false, true) => Outcome::ChargeReplayed,
                    (false, false) => Outcome::Charged {
                        charges: context.world.sink_effects("charge", op),
                    },
                });
                match lost {
                    true => Then::Raise(Raised::Timeout),
                    false => Then::Next,
                }
            }
        }
    }

    /// The pipeline's read of its journal row: it inserts a pending row if there is none, and
    /// reads what an earlier run left: its result, and which stages kept their output.
    fn prior_get(&mut self, context: &mut Context, step: &mut Step, stages: &[&str]) -> Then {
        let op = self.start.op.clone();
        let row = context
            .world
            .job_insert_or_ignore(pending_row(op, self.start.payload.clone()));
        let (status, attempts) = (row.status, row.attempts);
        let failed_stage = row.failed_stage.clone();
        // The first stage's output is the one a later stage reuses (the model's summary).
        let model_output = stages
            .first()
            .and_then(|stage| row.stages.get(stage))
            .cloned();
        let kept = stages
            .iter()
            .take_while(|stage| row.stages.contains_key(stage))
            .count();
        let kept_total = row.stages.len() as u32;
        // What the row says of the earlier run: the stage's name is copied only when shown.
        let prior = match (&failed_stage, status) {
            (_, JobStatus::Verified) => Prior::Success,
            (Some(stage), _) => Prior::FailedAt {
                stage: context.text(stage),
            },
            (None, JobStatus::Pending) if attempts == 0 => Prior::None,
            _ => Prior::Status { status },
        };
        step.messages = context.call("journal", Lost::Nothing, || {
            let answer = match &prior {
                Prior::Success => Label::Success,
                Prior::FailedAt { stage } => Label::FailedAt {
                    stage: stage.clone(),
                },
                Prior::None => Label::None,
                Prior::Status { status } => Label::Status { status: *status },
            };
            (Label::Get, Some(answer))
        });
        let success = status.is_success();
        step.outcome = Some(Outcome::PriorRead {
            prior,
            kept: kept_total,
        });
        let regs = &mut self.regs;
        regs.flags.set(Flags::PRIOR_SUCCESS, success);
        // A record that already succeeded and is processed again starts from the top.
        regs.todo = if success { 0 } else { kept as u8 };
        regs.prior_output = model_output;
        Then::Next
    }

    fn call_model(
        &mut self,
        context: &mut Context,
        step: &mut Step,
        stage: Option<&'static str>,
    ) -> Then {
        step.flags.resubmitted = self.regs.flags.has(Flags::PRIOR_SUCCESS);
        self.attempt(context);
        if matches!(
            context.fault,
            Some(FaultKind::Busy | FaultKind::Timeout | FaultKind::LoseRequest)
        ) {
            step.fault_used = true;
            let lost = context.fault == Some(FaultKind::LoseRequest);
            let reply = match context.fault {
                Some(FaultKind::Busy) => Some(Label::RateLimited),
                _ => None,
            };
            let how = if lost { Lost::Request } else { Lost::Nothing };
            step.messages = context.call("model", how, || (Label::CallModel, reply));
            if context.fault == Some(FaultKind::Timeout) {
                context.world.count_model_call();
            }
            step.outcome = Some(Outcome::ModelFailed);
            let then = Then::Raise(match context.fault {
                Some(FaultKind::Busy) => Raised::Busy,
                _ => Raised::Timeout,
            });
            if let Some(stage) = stage {
                self.stage_done(context, stage, &then, Text::default());
            }
            return then;
        }
        context.world.count_model_call();
        let output = Text::from(format!("summary-{}", self.start.op));
        step.messages = context.call("model", Lost::Nothing, || {
            (Label::CallModel, Some(Label::Summary))
        });
        step.outcome = Some(Outcome::ModelReturned {
            calls: context.world.counts.model_calls,
        });
        if let Some(stage) = stage {
            self.stage_done(context, stage, &Then::Next, output.clone());
        }
        self.regs.output = Some(output);
        Then::Next
    }

    fn notify_stage(
        &mut self,
        context: &mut Context,
        step: &mut Step,
        guarded: bool,
        stage: Option<&'static str>,
    ) -> Then {
        self.attempt(context);
        let key = tracker_key(&self.start.key);
        let then = if guarded && context.world.tracker.contains_key(&key) {
            step.messages = context.call("notification", Lost::Nothing, || {
                (Label::Notify, Some(Label::AlreadySent))
            });
            step.outcome = Some(Outcome::NotificationSkipped);
            Then::Next
        } else {
            let op = self.start.op.clone();
            let sent = send_effect(
                context,
                step,
                "notification",
                &key,
                &op,
                || Label::Notify,
                Label::Sent,
            );
            match sent {
                Sent::NotSent(_) => {
                    step.outcome = Some(Outcome::NotificationFailed);
                    Then::Raise(Raised::NotSent)
                }
                // The worker cannot tell it was sent: no tracker mark, and the stage fails.
                Sent::Done { lost: true } => {
                    step.outcome = Some(Outcome::NotificationReplyLost);
                    Then::Raise(Raised::Timeout)
                }
                Sent::Done { lost: false } => {
                    if guarded {
                        context.world.insert_tracker(&key, &op);
                    }
                    let sent = context.world.sink_effects("notification", &op);
                    step.outcome = Some(Outcome::NotificationSent { sent });
                    Then::Next
                }
            }
        };
        if let Some(stage) = stage {
            self.stage_done(context, stage, &then, Text::fixed("sent"));
        }
        then
    }

    fn send_email(&mut self, context: &mut Context, step: &mut Step, logged: bool) -> Then {
        let key = self.start.key.clone();
        let log_key = Text::from(format!("email:{key}"));
        if logged && context.world.tracker.contains_key(&log_key) {
            step.messages = context.call("email", Lost::Nothing, || {
                (Label::Email, Some(Label::InEmailLog))
            });
            step.outcome = Some(Outcome::EmailSkipped);
            return Then::Next;
        }
        let op = self.start.op.clone();
        let sent = send_effect(
            context,
            step,
            "email",
            &key,
            &op,
            || Label::Email,
            Label::Sent,
        );
        // Sent with its reply lost, the worker cannot tell: nothing goes into the email log.
        if logged && sent == (Sent::Done { lost: false }) {
            context.world.insert_tracker(&log_key, &op);
        }
        emailed(context, step, "email", &op, sent)
    }

    /// The receipt, through a mail API that keeps each idempotency key it is given (among the
    /// operation's own receipts): a repeat under a kept key sends nothing and answers "already
    /// sent". The key is the operation's: a run whose key changes sends another receipt.
    fn email_receipt(&mut self, context: &mut Context, step: &mut Step) -> Then {
        let key = Text::from(format!("receipt:{}", self.start.key));
        let op = self.start.op.clone();
        let kept = context
            .world
            .effects_of(&op)
            .any(|effect| *effect.sink == *RECEIPT && effect.key == key);
        let sent = match kept {
            true => send_kept(context, step, RECEIPT, || Label::Email, Label::AlreadySent),
            false => send_effect(
                context,
                step,
                RECEIPT,
                &key,
                &op,
                || Label::Email,
                Label::Sent,
            ),
        };
        if kept && sent == (Sent::Done { lost: false }) {
            step.outcome = Some(Outcome::EmailSkipped);
            return Then::Next;
        }
        emailed(context, step, RECEIPT, &op, sent)
    }
}

/// What an email's send did, as the run goes on: refused or lost on the way (nothing sent), sent
/// with its reply lost (the worker times out), or sent.
fn emailed(
    context: &mut Context,
    step: &mut Step,
    sink: &'static str,
    op: &Text,
    sent: Sent,
) -> Then {
    match sent {
        Sent::NotSent(why) => {
            step.outcome = Some(Outcome::EmailNotSent { why });
            Then::Raise(Raised::NotSent)
        }
        Sent::Done { lost: true } => {
            step.outcome = Some(Outcome::EmailReplyLost);
            Then::Raise(Raised::Timeout)
        }
        Sent::Done { lost: false } => {
            let sent = context.world.sink_effects(sink, op);
            step.outcome = Some(Outcome::EmailSent { sent });
            Then::Next
        }
    }
}

impl Compiled {
    /// Whether the body of the header at `header` holds `block`, at any depth.
    fn body_has(&self, header: usize, block: Block) -> bool {
        let end = self.structure.end[header] as usize;
        self.lines[header + 1..end]
            .iter()
            .any(|line| line.block == block)
    }
}

/// The write mode a write block stands for.
fn write_mode(block: Block) -> WriteMode {
    match block {
        Block::WriteInsertOrIgnore | Block::SaveInsertOrIgnore => WriteMode::InsertOrIgnore,
        Block::WriteUpsert | Block::SaveUpsert => WriteMode::Upsert,
        _ => WriteMode::Insert,
    }
}

/// What a claim row holds until its owner records a result.
const IN_PROGRESS: &str = "in progress";

/// The stored result of a declined card: its status and its body.
const DECLINED: &str = "402 card declined";

/// What a payload says of a card the gateway declines.
const CARD_DECLINED: &str = "\"card\":\"declined\"";

/// Whether a `processed_operations` row is a claim whose owner has not recorded a result.
pub(crate) fn is_in_progress(value: &str) -> bool {
    value.starts_with(IN_PROGRESS)
}

/// The tick a claim row was claimed at (a leased claim keeps it; a plain claim has none, and
/// counts as claimed at tick 0); `None` for a row holding a result.
fn claimed_at(value: &str) -> Option<u32> {
    let rest = value.strip_prefix(IN_PROGRESS)?;
    Some(
        rest.strip_prefix(" since tick ")
            .and_then(|tick| tick.parse().ok())
            .unwrap_or(0),
    )
}

/// The result stored under `key`, if its owner recorded one.
fn stored_result(world: &crate::world::World, key: &str) -> Option<Text> {
    world
        .table
        .rows_keyed(key)
        .find(|row| !is_in_progress(&row.value))
        .map(|row| row.value.clone())
}

/// The tracker's key for a notification.
fn tracker_key(key: &Text) -> Text {
    format!("notify:{key}").into()
}

/// A fresh journal row, `pending`.
fn pending_row(id: Text, payload: Text) -> JobRow {
    JobRow {
        id,
        payload,
        status: JobStatus::Pending,
        receipt: None,
        attempts: 0,
        stages: Default::default(),
        failed_stage: None,
        reason: None,
        review: None,
    }
}

/// The program of a scenario: its own, or the one its design describes.
impl Scenario {
    pub fn program(&self) -> Program {
        match &self.program {
            Some(program) => program.clone(),
            None => self.workflow.design_program(self),
        }
    }
}
