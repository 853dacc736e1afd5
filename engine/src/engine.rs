//! The engine: a plain struct that owns the world, the workers, the fault plan and the RNG, and
//! produces one event per `step()`.

use std::cell::Cell;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use crate::effect::{Context, Step};
use crate::error::ScenarioError;
use crate::fault::{Action, FaultKind, FaultPoint};
use crate::interpret::{Compiled, Start, Task};
use crate::invariant::{Checker, Invariant, StepFlags};
use crate::keys::{content_key, fresh_key, received_at_key, saved_key, source_key};
use crate::lane::{Lane, LaneKind};
use crate::outcome::{Arrival, Outcome, SubmitReply};
use crate::provider;
use crate::rng::Rng;
use crate::scenario::{
    canonical_json, CancelCheck, KeySource, Payload, Scalar, Scenario, Schedule,
};
use crate::text::Text;
use crate::trace::{Checkpoints, Event, Seeks, Stop, Trace, TRACE_FORMAT};
use crate::world::{clone_by_fields, WorkerState, WorkerView, World};

/// Ticks a crashed worker stays down before it restarts.
const RESTART_DELAY_TICKS: u32 = 2;

/// The answers that end an operation: a charge, a decline, or the stored result replayed.
const FINAL_ANSWERS: [&str; 3] = ["charged", "declined", "replayed"];

/// The most steps the retry that judges `eventually_answered` may take before it counts as
/// never answering.
const RETRY_STEPS_MAX: u32 = 64;

/// The provider's lane id, and the actor of a late commit there.
const PROVIDER: &str = "provider";

/// The room a run's trace starts with, in events.
const EVENTS_FIRST: usize = 64;

/// A deterministic simulation of one scenario. Cloning it branches the run (for the explorer);
/// `clone_from` branches it into an engine no longer needed, reusing its buffers.
pub struct Engine {
    /// Shared, so branching the engine does not copy the scenario.
    scenario: Rc<Scenario>,
    world: World,
    rng: Rng,
    workers: Vec<Worker>,
    checker: Checker,
    /// The program every worker runs, with its listing: shared, as the scenario is.
    program: Rc<Compiled>,
    events: u32,
    /// Occurrences of each action so far across workers, by `Action as usize` (each worker
    /// counts its own): an array, so a copy of the engine allocates nothing for them.
    occurrences: Occurrences,
    /// What each run sends, by worker and by run: a run reads it rather than serializing the
    /// payload again.
    payloads: Rc<[Box<[RunPayload]>]>,
    /// Each operation's id, by the same position: a run shares it rather than copying it.
    operation_ids: Rc<[Text]>,
    /// Each worker's lane id, by position: every event and message names one.
    lane_ids: Rc<[Text]>,
    /// The actions whose occurrences decide where the scenario's own `nth` rules strike, one
    /// bit each by `Action as usize`: counted across workers, and per worker.
    nth_actions: (u16, u16),
    /// The actions any of the scenario's own fault rules names, one bit each by `Action as
    /// usize`: a step at any other action reads no rule.
    rule_actions: u16,
    fault_points: Vec<FaultPoint>,
    /// Position in an explicit schedule, and the next worker in round robin.
    schedule_position: usize,
    round_robin_next: usize,
    /// The auto-increment sequence behind `key = "auto_increment"`.
    sequence: u32,
    stop: Option<Stop>,
    /// The invariants broken so far, one bit each in `Invariant::ALL` order.
    broken_mask: u16,
    /// For a program that can answer "in progress" (`eventually_answered`): by operation
    /// position, the worker and run that gave its last answer, while that answer is not final.
    /// Empty for any other program.
    unanswered: Vec<Option<(u32, u32)>>,
    /// The explorer's choice for the step being taken, if the explorer is driving.
    forced: Option<Forced>,
    /// The step being taken is recorded as an event: only then are its messages and the text
    /// its outcome names built.
    recording: bool,
    /// The ready workers `choices_into` found, until the next step uses them rather than
    /// looking again (an explorer lists the choices, then steps one).
    ready_listed: Option<Ready>,
}

/// One nondeterministic choice the world can make at the next event: which worker steps, and
/// which fault (if any) the explorer injects at its action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Choice {
    /// The worker (index in the scenario) that steps; `None` for a provider's late commit, which
    /// is never a choice.
    pub worker: Option<u8>,
    /// The action that worker takes next.
    pub action: Action,
    /// The fault injected at that action; `None` for the step as planned.
    pub fault: Option<FaultKind>,
}

/// What one `step_with` did, as an explorer needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// The event's number (1-based).
    pub event: u32,
    /// For a worker step: the action's occurrence, counted as fault rules count it: across
    /// workers (`nth`) and for this worker alone (`nth_by_worker`).
    pub point: Option<FaultAt>,
    /// The step used the fault it was given (the trace shows it at this event).
    pub fault_used: bool,
    /// The invariants this event broke for the first time, one bit each in `Invariant::ALL`
    /// order.
    pub broke_mask: u16,
}

/// Where a worker step fell, in the terms of a fault rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultAt {
    pub action: Action,
    pub nth: u32,
    pub nth_by_worker: u32,
}

#[derive(Clone, Copy, Debug)]
struct Forced {
    /// `None` lets the scenario's own schedule pick (one worker: it picks the only one, with the
    /// same use of the RNG as a plain run).
    worker: Option<usize>,
    fault: Option<FaultKind>,
    point: Option<FaultAt>,
    /// The step says it used the fault it was given.
    used: bool,
}

/// What is due next, before any worker is picked.
enum Upcoming {
    Ready(Ready),
    Commit,
    Finished,
    TimeLimit,
}

/// The workers ready to step, one bit each by index (a scenario has at most 64): a set that
/// costs no allocation, as `upcoming` runs before every step.
#[derive(Clone, Copy, Debug)]
struct Ready(u64);

impl Ready {
    /// The ready workers' indices, in order.
    fn iter(self) -> impl Iterator<Item = usize> {
        let mut left = self.0;
        std::iter::from_fn(move || {
            let index = (left != 0).then(|| left.trailing_zeros() as usize)?;
            left &= left - 1;
            Some(index)
        })
    }

    fn contains(self, index: usize) -> bool {
        index < 64 && self.0 & 1 << index != 0
    }

    /// The lowest ready index; the set is never empty.
    fn first(self) -> usize {
        self.0.trailing_zeros() as usize
    }
}

/// What the engine does next.
enum Next {
    Worker(usize),
    Commit,
    Finished,
    /// Work is left, but only at or past the last tick, where no event fits.
    TimeLimit,
}

/// How many times each action occurred, by `Action as usize`.
type Occurrences = [u32; Action::ALL.len()];

// `Action::ALL` lists the actions in declaration order, so `Action as usize` indexes it.
const _: () = {
    let mut position = 0;
    while position < Action::ALL.len() {
        assert!(Action::ALL[position] as usize == position);
        position += 1;
    }
};

/// Feeds the counts of the actions among `actions` (one bit each) taken so far into `hasher`,
/// each with its action, in action order: the part of the counters a state's future depends on.
#[inline(always)]
fn hash_taken(counts: &Occurrences, actions: u16, hasher: &mut crate::fingerprint::Fingerprint) {
    let mut left = actions;
    while left != 0 {
        let action = left.trailing_zeros() as usize;
        left &= left - 1;
        if counts[action] > 0 {
            hasher.write_u64(action as u64 | u64::from(counts[action]) << 32);
        }
    }
}

/// The actions at which the scenario's own `nth` rules count, across workers or per worker
/// (`by_worker`): one bit each by `Action as usize`.
fn nth_actions(scenario: &Scenario, by_worker: bool) -> u16 {
    scenario
        .faults
        .iter()
        .filter(|rule| rule.nth.is_some() && rule.worker.is_some() == by_worker)
        .fold(0, |mask, rule| mask | 1 << rule.at as usize)
}

clone_by_fields!(Engine {
    scenario,
    world,
    rng,
    workers,
    checker,
    program,
    events,
    occurrences,
    payloads,
    operation_ids,
    lane_ids,
    nth_actions,
    rule_actions,
    fault_points,
    schedule_position,
    round_robin_next,
    sequence,
    stop,
    broken_mask,
    unanswered,
    forced,
    recording,
    ready_listed
});

struct Worker {
    /// Shared: an explorer copies the engine at every branch.
    name: Text,
    queue: VecDeque<Queued>,
    task: Option<Task>,
    /// The run number of the current task, and the position of its operation.
    run: u32,
    operation: u32,
    wake_tick: u32,
    state: WorkerState,
    /// The next run is a restart after a crash.
    restarting: bool,
    /// This worker's occurrences of each action, by `Action as usize`.
    occurrences: Occurrences,
    /// This worker's part of `Engine::state_hash`, kept until it steps again: an explorer's
    /// step moves one worker, so the others are not hashed again.
    fingerprint: Cell<Option<u64>>,
}

clone_by_fields!(Worker {
    name,
    queue,
    task,
    run,
    operation,
    wake_tick,
    state,
    restarting,
    occurrences,
    fingerprint
});

/// A run waiting in a worker's queue: its plan's run `number` (`Scenario::workers[..].runs`),
/// which the worker reads when it receives it.
#[derive(Clone, Copy, Debug)]
struct Queued {
    number: u32,
    /// The run's `not_before`, so a readiness check needs no look-up.
    not_before: u32,
    /// The position of the run's operation in `Scenario::operations`.
    operation: u32,
    redelivered: bool,
}

impl Engine {
    /// Validates the scenario and sets the world up.
    pub fn new(scenario: Scenario) -> Result<Engine, ScenarioError> {
        scenario.validate()?;
        let program = Compiled::new(&scenario).map_err(|error| ScenarioError::Program {
            line: error.line,
            message: error.message,
        })?;
        // Each run finds its operation by position, not by a search per run.
        // Hashed: built and read once per run, in O(1) each at any size.
        let positions: HashMap<&str, u32, BuildHasherDefault<DefaultHasher>> = scenario
            .operations
            .iter()
            .enumerate()
            .map(|(position, operation)| (operation.id.as_str(), position as u32))
            .collect();
        let workers: Vec<Worker> = scenario
            .workers
            .iter()
            .map(|plan| Worker {
                name: plan.name.as_str().into(),
                queue: plan
                    .runs
                    .iter()
                    .enumerate()
                    .map(|(index, run)| Queued {
                        number: index as u32 + 1,
                        not_before: run.not_before,
                        operation: positions[run.op.as_str()],
                        redelivered: false,
                    })
                    .collect(),
                task: None,
                run: 0,
                operation: 0,
                wake_tick: 0,
                state: WorkerState::Idle,
                restarting: false,
                occurrences: [0; Action::ALL.len()],
                fingerprint: Cell::new(None),
            })
            .collect();
        let operation_ids = scenario
            .operations
            .iter()
            .map(|operation| operation.id.as_str().into())
            .collect();
        let payloads = RunPayload::of_every_run(&scenario, &workers);
        let mut table = crate::world::Table::new(scenario.switches.unique);
        table.rows_are_effects = scenario.workflow.declaration().rows_are_effects;
        let world = World::new(table, workers.iter().map(view).collect());
        let nth_actions = (nth_actions(&scenario, false), nth_actions(&scenario, true));
        let rule_actions = scenario
            .faults
            .iter()
            .fold(0, |mask, rule| mask | 1 << rule.at as usize);
        let lane_ids = (0..workers.len())
            .map(|index| lane_id(index).into())
            .collect();
        let unanswered = match program.answers_in_progress {
            true => vec![None; scenario.operations.len()],
            false => Vec::new(),
        };
        Ok(Engine {
            unanswered,
            rng: Rng::new(scenario.seed),
            scenario: Rc::new(scenario),
            world,
            workers,
            checker: Checker::default(),
            program: Rc::new(program),
            events: 0,
            occurrences: [0; Action::ALL.len()],
            payloads,
            operation_ids,
            lane_ids,
            nth_actions,
            rule_actions,
            fault_points: Vec::new(),
            schedule_position: 0,
            round_robin_next: 0,
            sequence: 0,
            stop: None,
            broken_mask: 0,
            forced: None,
            recording: false,
            ready_listed: None,
        })
    }

    /// Runs a scenario to the end and returns its trace.
    pub fn run(scenario: Scenario) -> Result<Trace, ScenarioError> {
        let mut engine = Engine::new(scenario)?;
        let initial = engine.world.clone();
        engine.world.start_log();
        let mut events = Vec::new();
        // Checkpoints follow each event's changes as the run passes it, exactly as a trace read
        // back rebuilds them.
        let mut checkpoints = Checkpoints::new(&initial);
        while let Some(event) = engine.step() {
            checkpoints.passed(&event);
            if events.len() == events.capacity() {
                // Room for as many events as the runs begun so far foretell. A large batch's
                // events are megabytes: grown by doubling, they were copied to fresh memory a
                // dozen times, a third of the time of a 10,000-record run (`make bench`). At
                // least half again, so a poor guess still grows geometrically.
                let more = engine.events_expected(events.len()) - events.len();
                events.reserve_exact(more.max(events.len() / 2).max(EVENTS_FIRST));
            }
            events.push(event);
        }
        // A guess far past the end gives its room back (in place: nothing is copied). Not a
        // close one: room never written costs no memory, and giving it back made glibc map
        // the next run's events afresh (a shrunk block, once freed, sets the size it maps
        // from just under the next run's same guess): a page fault every 16 events, at 100
        // records as at 10,000.
        if events.capacity() - events.len() > events.len() / 4 {
            events.shrink_to_fit();
        }
        Ok(engine.into_trace(initial, events, checkpoints))
    }

    /// The events a whole run will likely hold, given the `so_far` it has: as many per run as
    /// the runs begun so far took (the run in progress counted whole), and an eighth more.
    fn events_expected(&self, so_far: usize) -> usize {
        let begun: usize = self.workers.iter().map(|worker| worker.run as usize).sum();
        let queued: usize = self.workers.iter().map(|worker| worker.queue.len()).sum();
        let expected = so_far.saturating_mul(begun + queued) / begun.max(1);
        so_far.max(expected.saturating_add(expected / 8))
    }

    /// Runs to the end without storing events; returns the number of events and the final state.
    /// For benchmarks and explorers that need only the verdicts.
    pub fn run_quiet(
        scenario: Scenario,
    ) -> Result<(u32, World, Vec<crate::Verdict>), ScenarioError> {
        let mut engine = Engine::new(scenario)?;
        let mut count = 0;
        while engine.step_inner(false).is_some() {
            count += 1;
        }
        Ok((count, engine.world, engine.checker.verdicts()))
    }

    /// The state now.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Why the run stopped, once it has.
    pub fn stopped(&self) -> Option<Stop> {
        self.stop
    }

    /// Advances by one event; `None` once the run has stopped.
    #[must_use]
    pub fn step(&mut self) -> Option<Event> {
        self.step_inner(true).flatten()
    }

    /// Every choice the world can make at the next event, for an explorer: each ready worker,
    /// with its action as planned and with each fault the workflow allows there (none where the
    /// scenario's own rules already strike). Empty once the run is over. Advances the clock
    /// while everyone waits, as `step` would.
    pub fn choices(&mut self) -> Vec<Choice> {
        let mut choices = Vec::new();
        self.choices_into(&mut choices);
        choices
    }

    /// `choices()` into a buffer the caller keeps (cleared first), so an explorer allocates
    /// nothing per state.
    pub fn choices_into(&mut self, choices: &mut Vec<Choice>) {
        self.choices_within(choices, true);
    }

    /// `choices_into`, with the faulty choices only when `faults` (an explorer whose run has
    /// used its fault budget lists none, rather than dropping them one by one).
    pub(crate) fn choices_within(&mut self, choices: &mut Vec<Choice>, faults: bool) {
        choices.clear();
        self.ready_listed = None;
        if self.stop.is_some() || self.events >= self.scenario.step_cap {
            return;
        }
        let ready = match self.upcoming() {
            Upcoming::Finished | Upcoming::TimeLimit => return,
            Upcoming::Commit => {
                choices.push(Choice {
                    worker: None,
                    action: Action::ProviderSubmit,
                    fault: None,
                });
                return;
            }
            Upcoming::Ready(ready) => ready,
        };
        self.ready_listed = Some(ready);
        for index in ready.iter() {
            let action = match &self.workers[index].task {
                None => Action::Receive,
                Some(task) => task.next_action(),
            };
            let worker = Some(index as u8);
            choices.push(Choice {
                worker,
                action,
                fault: None,
            });
            if !faults || self.planned_fault_peek(index, action).is_some() {
                continue;
            }
            for &fault in self.scenario.workflow.faults_at(action) {
                choices.push(Choice {
                    worker,
                    action,
                    fault: Some(fault),
                });
            }
        }
    }

    /// Takes one event as `choice` says (one of `choices()`); records nothing. `None` once the
    /// run is over.
    #[inline(always)]
    pub fn step_with(&mut self, choice: &Choice) -> Option<Stepped> {
        let several = self.workers.len() > 1;
        self.forced = Some(Forced {
            worker: choice.worker.filter(|_| several).map(usize::from),
            fault: choice.fault,
            point: None,
            used: false,
        });
        let before = self.broken_mask;
        let stepped = self.step_inner(false);
        let forced = self.forced.take();
        // Tested by reference: `stepped?` would move the whole (empty) event to test it, a
        // copy of over a kilobyte per step in the size-optimised wasm build.
        stepped.as_ref()?;
        Some(Stepped {
            event: self.events,
            point: forced.and_then(|forced| forced.point),
            fault_used: forced.is_some_and(|forced| forced.used),
            broke_mask: self.broken_mask & !before,
        })
    }

    /// Keeps a running digest of the world from now on, so `state_hash` costs O(1) in the
    /// records (the explorer calls this once on its root engine; copies keep it).
    pub fn keep_digest(&mut self) {
        self.world.keep_digest();
    }

    /// A hash of everything that decides the rest of the run: the world, the workers' queues and
    /// runs in progress, the RNG, the occurrence counters behind `nth`, the schedule's position,
    /// the key sequence, the event count (the step cap) and the invariants already broken. Two
    /// engines with the same hash continue the same way. The same on every platform.
    pub fn state_hash(&self) -> u64 {
        let mut hasher = crate::fingerprint::Fingerprint::default();
        crate::world::hash_world(&self.world, &mut hasher);
        self.rng.hash(&mut hasher);
        for (index, worker) in self.workers.iter().enumerate() {
            let part = worker.fingerprint.get().unwrap_or_else(|| {
                let part = self.worker_hash(index);
                worker.fingerprint.set(Some(part));
                part
            });
            hasher.write_u64(part);
        }
        // The occurrence counters decide only where the scenario's own `nth` rules strike: count
        // them only for those actions, so runs that took other actions a different number of
        // times can meet in one state.
        hash_taken(&self.occurrences, self.nth_actions.0, &mut hasher);
        // Two numbers to a word: each pair still stands for its two numbers exactly.
        let stop = self.stop.map_or(0, |stop| stop as u64 + 1);
        hasher.write_pair(
            self.schedule_position as u64 | (self.round_robin_next as u64) << 32,
            u64::from(self.sequence) | u64::from(self.events) << 32,
        );
        hasher.write_u64(u64::from(self.broken_mask) | stop << 16);
        // Which operations' last answer is not final, and whose: `eventually_answered` reads it
        // when the run ends.
        for (position, open) in self.unanswered.iter().enumerate() {
            if let Some((worker, run)) = open {
                hasher.write_pair(position as u64, u64::from(*worker) | u64::from(*run) << 32);
            }
        }
        hasher.finish()
    }

    /// Worker `index`'s part of `state_hash`: its queue, its run in progress, its clock, the
    /// results its view shows and its own counters behind `nth` rules.
    fn worker_hash(&self, index: usize) -> u64 {
        let mut hasher = crate::fingerprint::Fingerprint::default();
        let worker = &self.workers[index];
        let results = &self.world.workers[index].results;
        // The counts first, then what they count: each part then reads one way only. A queued
        // run is always its plan's run `number` (a redelivery or a restart copies it), so the
        // number and the flag stand for it.
        hasher.write_pair(
            worker.queue.len() as u64 | (results.len() as u64) << 32,
            u64::from(worker.run) | u64::from(worker.wake_tick) << 32,
        );
        hasher.write_u64(
            worker.state as u64
                | u64::from(worker.restarting) << 8
                | u64::from(worker.task.is_some()) << 9,
        );
        for queued in &worker.queue {
            hasher.write_u64(u64::from(queued.number) | u64::from(queued.redelivered) << 32);
        }
        for result in results {
            hasher.write_text(result);
        }
        if let Some(task) = &worker.task {
            task.hash_state(&mut hasher, &self.program);
        }
        hash_taken(&worker.occurrences, self.nth_actions.1, &mut hasher);
        hasher.finish()
    }

    /// The number of workers in the scenario.
    pub fn worker_count(&self) -> usize {
        self.workers.len()
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The fault the scenario's own rules would strike with at `worker`'s next `action`, without
    /// counting the occurrence or drawing from the RNG.
    fn planned_fault_peek(&self, index: usize, action: Action) -> Option<FaultKind> {
        let nth = self.occurrences[action as usize] + 1;
        let nth_by_worker = self.workers[index].occurrences[action as usize] + 1;
        let mut rng = self.rng.clone();
        planned_fault(
            &self.scenario,
            self.rule_actions,
            &self.workers[index].name,
            action,
            (nth, nth_by_worker),
            &mut rng,
        )
    }

    /// One event; the outer `None` means stopped, the inner one means not recorded.
    fn step_inner(&mut self, record: bool) -> Option<Option<Event>> {
        if self.stop.is_some() {
            return None;
        }
        self.recording = record;
        if self.events >= self.scenario.step_cap {
            // A run that needed exactly step_cap events finished; only one with work left was cut.
            self.stop = Some(if self.has_work() {
                Stop::StepCap
            } else {
                Stop::Finished
            });
            return None;
        }
        let records_before = self.world.settled_digest();
        let stepped_and_step = match self.next() {
            Next::Finished => {
                self.stop = Some(Stop::Finished);
                return None;
            }
            Next::TimeLimit => {
                self.stop = Some(Stop::TimeLimit);
                return None;
            }
            Next::Commit => (None, self.commit_late_request()),
            Next::Worker(index) => (Some(index), self.step_worker(index)),
        };
        let (stepped, (action, run, op, step, fault)) = (stepped_and_step.0, stepped_and_step.1);
        if let Some(forced) = &mut self.forced {
            forced.used = step.fault_used;
        }
        self.events += 1;
        let event_tick = self.world.tick;
        // next() only lets an event happen before the last tick, so this cannot overflow.
        self.world.tick += 1;
        if let Some(index) = stepped {
            let worker = &mut self.workers[index];
            worker.fingerprint.set(None);
            if step.sleep_ticks > 0 {
                // A wake past the last tick stays at it, where next() stops the run.
                worker.wake_tick = self.world.tick.saturating_add(step.sleep_ticks);
                worker.state = WorkerState::Sleeping;
            }
            if let Some(result) = step.result {
                self.world.push_result(index as u32, Text::fixed(result));
                // A cancel's `not_started` stands for runs that never began: it answers none.
                let answered = self.unanswered.get_mut(worker.operation as usize);
                if let Some(open) = answered.filter(|_| result != "not_started") {
                    let last = (index as u32, worker.run);
                    *open = (!FINAL_ANSWERS.contains(&result)).then_some(last);
                }
                worker.task = None;
                worker.state = if worker.queue.is_empty() {
                    WorkerState::Done
                } else {
                    WorkerState::Idle
                };
            }
            // Only the worker that stepped changed: its view is brought up to date, no other.
            let op = worker.task.as_ref().map(|task| task.op());
            self.world
                .set_worker(index as u32, worker.state, op, worker.run);
        }
        // Journal rows changed in place rejoin the running digest, if one is kept.
        self.world.settle_digest();
        let mut broke = match records_before.is_some()
            && records_before == self.world.settled_digest()
            && step.flags == StepFlags::default()
        {
            // No record changed and the step says nothing the records do not show, so nothing
            // can break for the first time now: every step checks the records it changes.
            // Only an explorer keeps the digest; a trace checks every event.
            true => {
                debug_assert!(
                    self.checker
                        .clone()
                        .check(self.events, &self.world, &step.flags, &op)
                        .is_empty(),
                    "a step that changed no record broke an invariant"
                );
                Vec::new()
            }
            false => self
                .checker
                .check(self.events, &self.world, &step.flags, &op),
        };
        // The last event ends the run: only now can an operation be left without an answer.
        if self.program.answers_in_progress && !self.has_work() {
            if let Some(detail) = self.unanswered() {
                let invariant = Invariant::EventuallyAnswered;
                if self.checker.broke(self.events, invariant, detail) {
                    broke.push(invariant);
                }
            }
        }
        self.broken_mask |= invariant_mask(&broke);
        self.assert_world();
        if !record {
            return Some(None);
        }
        let changes = self.world.take_changes();
        // A worker steps on its own lane; a late commit happens at the provider.
        let (actor, lane) = match stepped {
            Some(index) => (
                self.workers[index].name.clone(),
                self.lane_ids[index].clone(),
            ),
            None => (Text::fixed(PROVIDER), Text::fixed(PROVIDER)),
        };
        Some(Some(Event {
            index: self.events,
            tick: event_tick,
            actor,
            lane,
            action,
            run,
            op,
            messages: step.messages,
            outcome: step.outcome.expect("every step says what happened"),
            line: step.line,
            fault: step.marks.or(fault.filter(|_| step.fault_used)),
            broke: broke.into_iter().collect(),
            changes,
        }))
    }

    /// `eventually_answered`, judged once the run has ended: for each operation whose last
    /// answer is not final (`in_progress`, `unknown`, ...), a fault-free retry of the run that
    /// gave it, on a copy of the world, after every lease has run out. The first operation that
    /// retry still leaves without a final answer, with why. The engine's own world and RNG are
    /// untouched: the copy is thrown away.
    fn unanswered(&self) -> Option<String> {
        self.unanswered
            .iter()
            .enumerate()
            .filter_map(|(position, open)| open.map(|last| (position, last)))
            .find_map(|(position, (worker, run))| {
                let answer = self.retry_after_leases(position, worker as usize, run);
                let answered = answer.is_some_and(|answer| FINAL_ANSWERS.contains(&answer));
                (!answered).then(|| {
                    let op = &self.operation_ids[position];
                    let answer = answer.unwrap_or("no answer");
                    format!(
                        "{op} never gets a final answer: a retry after every lease has run out still gets \"{answer}\""
                    )
                })
            })
    }

    /// The answer a fault-free retry of run `run` of worker `index` (of the operation at
    /// `position`) gets, on a copy of the world whose clock has moved past every lease; `None`
    /// if it takes more than `RETRY_STEPS_MAX` steps.
    fn retry_after_leases(&self, position: usize, index: usize, run: u32) -> Option<&'static str> {
        let mut world = self.world.clone();
        let mut rng = self.rng.clone();
        let lease = self.scenario.switches.lease_ticks;
        world.tick = world.tick.saturating_add(lease).saturating_add(1);
        let number = run.max(1);
        let payload = self.payloads[index][(number - 1) as usize].sent.clone();
        let op = self.operation_ids[position].clone();
        let plan = &self.scenario.workers[index].runs[(number - 1) as usize];
        let key: Text = match (
            &plan.key,
            stable_key(&self.scenario, position, &op, &payload),
        ) {
            // The program's key line makes it.
            _ if self.program.keys.is_some() => Text::default(),
            (Some(key), _) => key.as_str().into(),
            (None, Some(key)) => key,
            // A key made per attempt is a new key for the retry too.
            (None, None) => format!("{op}:retry").into(),
        };
        let start = Start::new(op, payload, key, world.tick, number);
        let program = &*self.program;
        let mut task = Task::new(start, program, &mut rng);
        for _ in 0..RETRY_STEPS_MAX {
            let mut context = Context {
                world: &mut world,
                scenario: &self.scenario,
                rng: &mut rng,
                lane: &self.lane_ids[index],
                fault: None,
                record: false,
                cancel_requested: false,
            };
            let step = task.step(&mut context, program);
            if step.result.is_some() {
                return step.result;
            }
            world.tick = world
                .tick
                .saturating_add(1)
                .saturating_add(step.sleep_ticks);
        }
        None
    }

    /// Whether anything is left to happen: a run in progress or queued, or a request in flight.
    pub(crate) fn has_work(&self) -> bool {
        !self.world.in_flight.is_empty()
            || self
                .workers
                .iter()
                .any(|worker| worker.task.is_some() || !worker.queue.is_empty())
    }

    /// What happens next, advancing time while everyone waits: a late commit at the provider,
    /// a worker's step, or nothing more. Every event moves the clock on by one tick, so none can
    /// happen at `u32::MAX`: work due then or later stops the run instead.
    fn next(&mut self) -> Next {
        let upcoming = match self.ready_listed.take() {
            // Nothing changed since `choices_into` looked: the same workers are ready.
            Some(ready) => Upcoming::Ready(ready),
            None => self.upcoming(),
        };
        match upcoming {
            Upcoming::Commit => Next::Commit,
            Upcoming::Finished => Next::Finished,
            Upcoming::TimeLimit => Next::TimeLimit,
            Upcoming::Ready(ready) => match self.forced.and_then(|forced| forced.worker) {
                Some(index) => {
                    debug_assert!(ready.contains(index), "the explorer picks a ready worker");
                    Next::Worker(index)
                }
                None => Next::Worker(self.pick(ready)),
            },
        }
    }

    /// What is due next, advancing time while everyone waits; picks no worker, so calling it
    /// twice gives the same answer.
    fn upcoming(&mut self) -> Upcoming {
        loop {
            let now = self.world.tick;
            if now == u32::MAX {
                return match self.has_work() {
                    true => Upcoming::TimeLimit,
                    false => Upcoming::Finished,
                };
            }
            if self
                .world
                .in_flight
                .iter()
                .any(|request| request.commit_tick <= now)
            {
                return Upcoming::Commit;
            }
            let ready = (0..self.workers.len())
                .filter(|&index| self.workers[index].ready_at(now))
                .fold(Ready(0), |ready, index| Ready(ready.0 | 1 << index));
            if ready.0 != 0 {
                return Upcoming::Ready(ready);
            }
            let workers_next = self.workers.iter().filter_map(Worker::next_ready_tick);
            let commits_next = self
                .world
                .in_flight
                .iter()
                .map(|request| request.commit_tick);
            match workers_next.chain(commits_next).min() {
                Some(u32::MAX) => return Upcoming::TimeLimit,
                Some(tick) if tick > now => self.world.tick = tick,
                _ => return Upcoming::Finished,
            }
        }
    }

    /// A request that timed out at the caller reaches the provider late and commits: an event of
    /// the provider's own, so the effect never appears unexplained.
    fn commit_late_request(&mut self) -> (Action, u32, Text, Step, Option<FaultKind>) {
        let now = self.world.tick;
        let index = self
            .world
            .in_flight
            .iter()
            .position(|request| request.commit_tick <= now)
            .expect("next() saw a due request");
        let request = self.world.land(index as u32);
        let reply = provider::submit(
            &mut self.world,
            &self.scenario.provider,
            &request.key,
            &request.payload,
            &request.operation,
        );
        let silent = matches!(reply, SubmitReply::SilentlyAccepted { .. });
        let mut step = Step {
            outcome: Some(Outcome::LateCommit { reply }),
            ..Step::default()
        };
        step.flags.silent_change = silent;
        (Action::ProviderSubmit, 0, request.operation, step, None)
    }

    fn pick(&mut self, ready: Ready) -> usize {
        match &self.scenario.schedule {
            Schedule::Sequential => ready.first(),
            Schedule::Seeded => {
                let chosen = self.rng.below(ready.0.count_ones()) as usize;
                ready.iter().nth(chosen).expect("one of the ready workers")
            }
            Schedule::Explicit { order } => {
                while let Some(&wanted) = order.get(self.schedule_position) {
                    self.schedule_position += 1;
                    if ready.contains(wanted as usize) {
                        return wanted as usize;
                    }
                }
                self.round_robin(ready)
            }
            Schedule::RoundRobin => self.round_robin(ready),
        }
    }

    fn round_robin(&mut self, ready: Ready) -> usize {
        let count = self.workers.len();
        let chosen = (0..count)
            .map(|offset| (self.round_robin_next + offset) % count)
            .find(|&index| ready.contains(index))
            .unwrap_or(ready.first());
        self.round_robin_next = (chosen + 1) % count;
        chosen
    }

    /// One step of one worker: receive a run, crash, cancel, or a workflow step.
    fn step_worker(&mut self, index: usize) -> (Action, u32, Text, Step, Option<FaultKind>) {
        let action = match &self.workers[index].task {
            None => Action::Receive,
            Some(task) => task.next_action(),
        };
        let fault = self.fault_for(index, action);
        if action == Action::Receive {
            let step = self.receive(index, fault);
            let worker = &self.workers[index];
            let op = worker
                .task
                .as_ref()
                .map_or_else(Text::default, |task| task.op().clone());
            return (action, worker.run, op, step, fault);
        }
        self.workers[index].state = WorkerState::Running;
        let run = self.workers[index].run;
        if fault == Some(FaultKind::Crash) {
            let task = self.workers[index].task.take();
            let op = task.expect("a stepping worker has a task").op().clone();
            return (action, run, op, self.crash(index), fault);
        }
        let in_code = self.scenario.switches.cancel_check == CancelCheck::InCode;
        let raised_before = self.world.is_cancelled(index as u32);
        if fault == Some(FaultKind::Cancel) {
            self.world.cancel(index as u32);
        }
        let cancelled = self.world.is_cancelled(index as u32);
        // The task steps where it is: moving it out and back would copy it twice per step.
        let task = self.workers[index]
            .task
            .as_mut()
            .expect("a stepping worker has a task");
        let op = task.op().clone();
        let program = &*self.program;
        let mut context = Context {
            world: &mut self.world,
            scenario: &self.scenario,
            rng: &mut self.rng,
            lane: &self.lane_ids[index],
            fault,
            record: self.recording,
            cancel_requested: in_code && cancelled,
        };
        let step = match fault {
            // Read in code, a flag raised now lets this step finish: only a `check_cancel` line
            // stops the run.
            Some(FaultKind::Cancel) if in_code => {
                context.fault = None;
                let mut step = task.step(&mut context, program);
                step.fault_used = true;
                step
            }
            _ if in_code => {
                let mut step = task.step(&mut context, program);
                if raised_before && step.action.is_none() && begins_work(action) {
                    step.flags.began_after_cancel = Some(action);
                }
                step
            }
            Some(FaultKind::Cancel) => {
                let mut step = task.cancel(&mut context, program);
                step.fault_used = true;
                step
            }
            _ if cancelled => {
                context.fault = None;
                task.cancel(&mut context, program)
            }
            _ => task.step(&mut context, program),
        };
        let action = step.action.unwrap_or(action);
        (action, run, op, step, fault)
    }

    /// A run begins: the worker takes the next message from its queue.
    fn receive(&mut self, index: usize, fault: Option<FaultKind>) -> Step {
        let worker = &mut self.workers[index];
        let queued = worker
            .queue
            .pop_front()
            .expect("a receiving worker has a queued run");
        let restarting = std::mem::take(&mut worker.restarting);
        if self.world.is_cancelled(index as u32) {
            let dropped = worker.queue.len() as u32 + 1;
            worker.queue.clear();
            worker.run = queued.number;
            return Step {
                outcome: Some(Outcome::NotStarted { runs: dropped }),
                result: Some("not_started"),
                ..Step::default()
            };
        }
        if fault == Some(FaultKind::DeliverTwice) {
            let mut again = queued;
            again.redelivered = true;
            worker.queue.push_front(again);
        }
        let scenario = Rc::clone(&self.scenario);
        let run = &scenario.workers[index].runs[(queued.number - 1) as usize];
        let operation = &scenario.operations[queued.operation as usize];
        let payloads = &self.payloads[index][(queued.number - 1) as usize];
        let payload = match fault == Some(FaultKind::ChangePayload) {
            false => payloads.sent.clone(),
            true => payloads
                .changed
                .get_or_init(|| {
                    let mut payload = run.payload.as_ref().unwrap_or(&operation.payload).clone();
                    change(&mut payload);
                    canonical_json(&payload).into()
                })
                .clone(),
        };
        // The run's operation is the one at its queued position (`new` looked it up by id).
        let op = self.operation_ids[queued.operation as usize].clone();
        let position = queued.operation as usize;
        let keyed = self.program.keys.is_some();
        let key: Text = match (&run.key, stable_key(&scenario, position, &op, &payload)) {
            // The program's key line makes it, when the run reaches it.
            _ if keyed => Text::default(),
            (Some(key), _) => key.as_str().into(),
            (None, Some(key)) => key,
            (None, None) => self.key_for(&payload).into(),
        };
        // The outcome shares the texts only when it will be shown.
        let (said_payload, said_key) = match self.recording {
            true => (payload.clone(), key.clone()),
            false => (Text::default(), Text::default()),
        };
        let worker = &mut self.workers[index];
        worker.run = queued.number;
        worker.operation = queued.operation;
        worker.state = WorkerState::Running;
        let start = Start::new(op, payload, key, self.world.tick, queued.number);
        worker.task = Some(Task::new(start, &self.program, &mut self.rng));
        let arrival = match (restarting, queued.redelivered) {
            (true, _) => Arrival::Restart,
            (_, true) => Arrival::Redelivered,
            _ => Arrival::First,
        };
        Step {
            outcome: Some(Outcome::Received {
                arrival,
                payload: said_payload,
                key: said_key,
                keyed,
            }),
            line: self.program.listing.def_line,
            // A redelivery is marked on the copy the learner sees arrive, not on the original.
            fault_used: fault == Some(FaultKind::ChangePayload),
            marks: queued.redelivered.then_some(FaultKind::DeliverTwice),
            ..Step::default()
        }
    }

    /// The key of one attempt, for a key source that makes a new one each time (`stable_key`
    /// gives the others).
    fn key_for(&mut self, payload: &str) -> String {
        match self.scenario.switches.key {
            KeySource::AutoIncrement => {
                self.sequence += 1;
                format!("seq-{}", self.sequence)
            }
            KeySource::FreshRandom => fresh_key(&mut self.rng),
            KeySource::HashWithReceivedAt => received_at_key(payload, self.world.tick),
            KeySource::SourceId
            | KeySource::ContentHash
            | KeySource::SavedUuid
            | KeySource::None => String::new(),
        }
    }

    /// The worker dies before `action`; its run will be received again after a restart.
    fn crash(&mut self, index: usize) -> Step {
        let worker = &mut self.workers[index];
        worker.state = WorkerState::Crashed;
        // The restart counts from the tick after this event; past the last tick, next() stops.
        worker.wake_tick = self
            .world
            .tick
            .saturating_add(1)
            .saturating_add(RESTART_DELAY_TICKS);
        worker.restarting = true;
        let queued = Queued {
            number: worker.run,
            not_before: self.scenario.workers[index].runs[(worker.run - 1) as usize].not_before,
            operation: worker.operation,
            redelivered: false,
        };
        worker.queue.push_front(queued);
        Step {
            outcome: Some(Outcome::Crashed),
            fault_used: true,
            ..Step::default()
        }
    }

    /// The fault planned for this occurrence of `action` by worker `index`, if any.
    fn fault_for(&mut self, index: usize, action: Action) -> Option<FaultKind> {
        let nth = {
            let count = &mut self.occurrences[action as usize];
            *count += 1;
            *count
        };
        let nth_by_worker = {
            let count = &mut self.workers[index].occurrences[action as usize];
            *count += 1;
            *count
        };
        let applicable = self.scenario.workflow.faults_at(action);
        // Only a trace lists the fault points: a quiet run would drop them, and an explorer's
        // steps (forced) would copy them at every branch, for nothing.
        if !applicable.is_empty() && self.recording && self.forced.is_none() {
            self.fault_points.push(FaultPoint {
                at: action,
                nth,
                faults: std::borrow::Cow::Borrowed(applicable),
            });
        }
        let chosen = planned_fault(
            &self.scenario,
            self.rule_actions,
            &self.workers[index].name,
            action,
            (nth, nth_by_worker),
            &mut self.rng,
        );
        if let Some(forced) = &mut self.forced {
            forced.point = Some(FaultAt {
                action,
                nth,
                nth_by_worker,
            });
            // The scenario's own rules strike first; the explorer injects only where they do not.
            return chosen.or(forced.fault);
        }
        chosen
    }

    /// Invariants of the engine itself (not of the design under test).
    fn assert_world(&self) {
        debug_assert!(self.events <= self.scenario.step_cap);
        debug_assert_eq!(self.world.workers.len(), self.workers.len());
        // Rows are appended with growing rowids and deleted in place, so their order holds when the
        // newest pair is in order (checking all of them would cost O(records) per event).
        debug_assert!(self
            .world
            .table
            .rows
            .rchunks(2)
            .next()
            .is_none_or(|pair| pair.len() < 2 || pair[0].rowid < pair[1].rowid));
    }

    fn into_trace(self, initial: World, events: Vec<Event>, checkpoints: Checkpoints) -> Trace {
        let mut lanes: Vec<Lane> = (0..self.workers.len())
            .map(|index| Lane {
                id: lane_id(index),
                label: self.workers[index].name.to_string(),
                kind: LaneKind::Worker,
            })
            .collect();
        lanes.extend(self.scenario.workflow.lanes());
        Trace {
            format: TRACE_FORMAT,
            workflow: self.scenario.workflow,
            seed: self.scenario.seed,
            code: self.program.listing.code.clone(),
            lanes,
            stages: self
                .scenario
                .workflow
                .stages()
                .iter()
                .map(|stage| stage.to_string())
                .collect(),
            initial,
            events,
            verdicts: self.checker.verdicts(),
            fault_points: self.fault_points,
            stop: self.stop.unwrap_or(Stop::Finished),
            checkpoints: Seeks::taken(checkpoints),
        }
    }
}

impl Worker {
    fn ready_at(&self, now: u32) -> bool {
        self.wake_tick <= now
            && (self.task.is_some()
                || self
                    .queue
                    .front()
                    .is_some_and(|queued| queued.not_before <= now))
    }

    fn next_ready_tick(&self) -> Option<u32> {
        if self.task.is_some() {
            return Some(self.wake_tick);
        }
        self.queue
            .front()
            .map(|queued| queued.not_before.max(self.wake_tick))
    }
}

fn view(worker: &Worker) -> WorkerView {
    WorkerView {
        name: worker.name.clone(),
        state: worker.state,
        op: worker.task.as_ref().map(|task| task.op().clone()),
        run: worker.run,
        results: Vec::new(),
    }
}

/// The fault the scenario's own rules plan for this occurrence of `action` by the worker called
/// `name`. Every rule is evaluated, in order, so chance rules draw from `rng` exactly as often
/// whichever rule strikes. `rule_actions` (the engine's) names the actions any rule is at: at
/// most steps none is, and no rule is read.
fn planned_fault(
    scenario: &Scenario,
    rule_actions: u16,
    name: &str,
    action: Action,
    (nth, nth_by_worker): (u32, u32),
    rng: &mut Rng,
) -> Option<FaultKind> {
    if rule_actions & 1 << action as usize == 0 {
        return None;
    }
    let rules = scenario.faults.iter().filter(|rule| rule.at == action);
    let mut chosen = None;
    for rule in rules {
        let (count, matches_worker) = match &rule.worker {
            Some(worker) => (nth_by_worker, worker == name),
            None => (nth, true),
        };
        let strikes = matches_worker
            && match (rule.nth, rule.chance_permille) {
                (Some(wanted), _) => wanted == count,
                (None, Some(permille)) => rng.chance(permille),
                (None, None) => true,
            };
        if strikes && chosen.is_none() {
            chosen = Some(rule.fault);
        }
    }
    chosen
}

/// The key of the operation at `position` (named `op`, sending `payload`), when its key source
/// gives every attempt of it the same key: the source's id (`"None"` for an event that lacks
/// one: shared, not copied, otherwise), a hash of the content, or the UUID drawn once when the
/// intention was born. `None` for a source that makes a key per attempt.
fn stable_key(scenario: &Scenario, position: usize, op: &Text, payload: &str) -> Option<Text> {
    match scenario.switches.key {
        KeySource::SourceId => Some(source_key(op, scenario.operations[position].missing_id)),
        KeySource::ContentHash => Some(content_key(payload).into()),
        // Drawn once per intention (see `saved_key`).
        KeySource::SavedUuid => Some(saved_key(scenario.seed, op)),
        _ => None,
    }
}

/// Whether a step taking `action` begins work a cancel should have stopped: a call that costs
/// or changes something outside the run's own records (a model call, a row, a message, a
/// submit). Reads and the journal's bookkeeping are not work begun.
fn begins_work(action: Action) -> bool {
    matches!(
        action,
        Action::ModelCall | Action::TableWrite | Action::SinkSend | Action::ProviderSubmit
    )
}

/// One bit per invariant, in `Invariant::ALL` order.
pub(crate) fn invariant_mask(invariants: &[Invariant]) -> u16 {
    invariants.iter().fold(0, |mask, invariant| {
        let position = Invariant::ALL
            .iter()
            .position(|known| known == invariant)
            .expect("Invariant::ALL lists every invariant");
        mask | 1 << position
    })
}

/// The lane id of worker `index`: "worker-1", "worker-2", ...
pub fn lane_id(index: usize) -> String {
    format!("worker-{}", index + 1)
}

/// What one run sends: canonical JSON, or its own body's bytes when the design compares raw
/// bytes (`switches.canonical_payload = false`).
struct RunPayload {
    /// Its own payload, or its operation's (one text shared by every run that sends it).
    sent: Text,
    /// The same payload changed (`change`), made the first time a fault changes it: an
    /// explorer changes it in many schedules, a plain run in few or none. Shared by the copies
    /// of an engine, as the scenario is.
    changed: std::cell::OnceCell<Text>,
}

impl RunPayload {
    /// By worker, then by run; `workers` have every run of their plan queued, in order.
    fn of_every_run(scenario: &Scenario, workers: &[Worker]) -> Rc<[Box<[RunPayload]>]> {
        let operations: Vec<Text> = scenario
            .operations
            .iter()
            .map(|operation| canonical_json(&operation.payload).into())
            .collect();
        let plans = scenario.workers.iter().zip(workers);
        plans
            .map(|(plan, worker)| {
                let runs = plan.runs.iter().zip(&worker.queue);
                runs.map(|(run, queued)| RunPayload {
                    sent: match (&run.body, &run.payload) {
                        (Some(body), _) if !scenario.switches.canonical_payload => {
                            body.as_str().into()
                        }
                        (_, Some(own)) => canonical_json(own).into(),
                        (_, None) => operations[queued.operation as usize].clone(),
                    },
                    changed: std::cell::OnceCell::new(),
                })
                .collect()
            })
            .collect()
    }
}

/// A changed intention: the first number grows by one, or the first text gains " (changed)".
fn change(payload: &mut Payload) {
    if let Some(value) = payload
        .values_mut()
        .find(|value| matches!(value, Scalar::Int(_)))
    {
        if let Scalar::Int(number) = value {
            *number += 1;
        }
        return;
    }
    if let Some(Scalar::Text(text)) = payload
        .values_mut()
        .find(|value| matches!(value, Scalar::Text(_)))
    {
        text.push_str(" (changed)");
        return;
    }
    payload.insert("changed".into(), Scalar::Bool(true));
}
