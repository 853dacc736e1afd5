//! An exhaustive fault explorer, in the style of a model checker (Stateright), over the real
//! engine.
//!
//! Every nondeterministic choice is data (a [`Choice`]): which ready worker steps next, and
//! whether a fault strikes at its action and which one. The explorer enumerates every choice at
//! every event, depth first with an explicit stack, within two budgets kept in the explored state:
//! faults injected (at most `faults_max`) and preemptions (at most `preemptions_max`, counted as
//! in Microsoft's CHESS: stepping another worker while the one that stepped last is still ready
//! costs one; any other switch is free). A state reached twice (same [`Engine::state_hash`] and
//! same budgets used) is explored once; the number of complete schedules below each state is
//! memoised, so the count stays exact: it is the number of distinct complete runs a brute-force
//! enumeration would execute.
//!
//! The search runs in slices ([`Explorer::advance`]) so a browser can run it between frames, and
//! it never reads a clock: its limit is a number of transitions.
//!
//! Cost: every transition is one engine step and one fingerprint ([`Engine::state_hash`], which
//! reads the world's running digest rather than every record). The engine is copied only where
//! a state branches: its last successor steps it in place, so a path of single choices (most of
//! the search, once the budgets are spent) copies nothing.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

use crate::engine::{Choice, Engine, Stepped};
use crate::error::ScenarioError;
use crate::fault::{FaultKind, FaultRule};
use crate::fingerprint::Fingerprint;
use crate::invariant::Invariant;
use crate::scenario::{Scenario, Schedule};

/// The limits of one exploration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Faults the explorer may inject into one run, besides the scenario's own. Default 2, at
    /// most 3.
    pub faults_max: u32,
    /// Preemptions in one run: stepping another worker while the last one is still ready.
    /// Default 2.
    pub preemptions_max: u32,
    /// The faults the explorer may inject; `None` (the default) for every fault the workflow
    /// allows at each action.
    pub kinds: Option<Vec<FaultKind>>,
    /// The search stops, incomplete, after this many transitions. Default 2,000,000.
    pub transitions_max: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            faults_max: 2,
            preemptions_max: 2,
            kinds: None,
            transitions_max: 2_000_000,
        }
    }
}

/// Spare engines kept for branching.
const SPARE_ENGINES_MAX: usize = 16;

/// The largest fault budget: beyond it the search grows past what a lesson check can afford.
pub const FAULTS_MAX: u32 = 3;

/// How many invariants there are: the explorer's `Always` properties, one bit each in a
/// `broke_mask`.
const INVARIANTS: usize = Invariant::ALL.len();

const _: () = assert!(
    INVARIANTS <= u16::BITS as usize,
    "a broke_mask holds one bit per invariant"
);

/// How many properties there are: the invariants, then `EventuallyFinished`.
const PROPERTIES: usize = INVARIANTS + 1;

/// `EventuallyFinished`'s place in `Property::ALL` and in a summary's ways to a violation.
const FINISHED: usize = INVARIANTS;

/// A property checked over every explored schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "invariant")]
pub enum Property {
    /// The invariant holds after every event of every schedule.
    Always(Invariant),
    /// Every run of every worker eventually returns a result, in every schedule (no schedule is
    /// cut by the step cap with work left).
    EventuallyFinished,
}

impl Property {
    /// The invariants in `Invariant::ALL` order, then the liveness property.
    pub const ALL: [Property; PROPERTIES] = [
        Property::Always(Invariant::OneEffect),
        Property::Always(Invariant::VerifiedHasEffect),
        Property::Always(Invariant::NoSuccessWithoutEffect),
        Property::Always(Invariant::NoSilentChange),
        Property::Always(Invariant::NoUnprovenSuccess),
        Property::Always(Invariant::NoResubmit),
        Property::Always(Invariant::OneRowPerKey),
        Property::Always(Invariant::EventuallyAnswered),
        Property::Always(Invariant::StopsWhenCancelled),
        Property::EventuallyFinished,
    ];

    /// The id: the invariant's id, or `eventually_finished`.
    pub fn id(self) -> &'static str {
        match self {
            Property::Always(invariant) => invariant.id(),
            Property::EventuallyFinished => "eventually_finished",
        }
    }

    /// Whether a run of `scenario` can violate it (see `Invariant::applies`).
    pub fn applies(self, scenario: &Scenario) -> bool {
        match self {
            Property::Always(invariant) => invariant.applies(scenario),
            Property::EventuallyFinished => true,
        }
    }

    /// One sentence a person reads.
    pub fn statement(self) -> &'static str {
        match self {
            Property::Always(invariant) => invariant.statement(),
            Property::EventuallyFinished => "Every run eventually returns a result",
        }
    }
}

/// The verdict on one property over the whole exploration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PropertyVerdict {
    pub property: Property,
    /// `property.id()`, for readers of the JSON.
    pub id: &'static str,
    pub holds: bool,
    /// Whether a run of the scenario can break it at all (`Invariant::applies`): a report keeps
    /// every property, in `Property::ALL` order, and a reader lists only those that apply.
    pub applies: bool,
    /// The shortest schedule that violates it: fewest faults, then fewest events.
    pub counterexample: Option<Counterexample>,
}

/// A schedule that breaks a property, as a scenario that replays it with `Engine::run`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Counterexample {
    /// Faults the explorer injected (the scenario's own are not counted).
    pub faults: u32,
    /// The event that breaks the property (for `EventuallyFinished`, the last event).
    pub events: u32,
    /// The invariants that event breaks for the first time.
    pub broke: Vec<Invariant>,
    /// The original scenario, plus the injected faults as `nth` rules and, with two or more
    /// workers, `schedule = explicit` with the worker chosen at every worker step.
    pub scenario: Scenario,
    /// The schedule in words.
    pub description: String,
}

/// How far an exploration went, and within what budget: what a report says before its verdicts
/// (and what the second module's findings carry over as they are).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extent {
    /// Distinct complete schedules (start to the end of the run, or to the step cap).
    pub schedules: u64,
    /// Distinct states explored.
    pub states: u64,
    /// Engine steps taken.
    pub transitions: u64,
    /// False when the transition limit cut the search: the figures are then lower bounds.
    pub complete: bool,
    pub faults_max: u32,
    pub preemptions_max: u32,
}

/// What an exploration found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Written flat into the report's JSON, as the report's own fields.
    #[serde(flatten)]
    pub extent: Extent,
    /// One verdict per property, in `Property::ALL` order.
    pub properties: Vec<PropertyVerdict>,
    /// The shortest schedule that breaks any invariant.
    pub counterexample: Option<Counterexample>,
}

/// How far an exploration has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SearchProgress {
    pub transitions: u64,
    pub states: u64,
    /// Depth of the search stack (events into the current schedule).
    pub depth: u32,
    pub finished: bool,
}

/// The budgets used along a path: part of the explored state (see `node_key`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Used {
    faults: u32,
    preemptions: u32,
    /// The worker that stepped last, for counting preemptions.
    last: Option<u8>,
}

/// The cheapest way from a state to a violation of one property.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Best {
    faults: u32,
    events: u32,
    /// The first choice on the way; `None` when the state itself violates (a run cut by the
    /// step cap).
    via: Option<Choice>,
}

/// What is known about a fully explored state.
///
/// `best` is read only when `breaks` says some property breaks below the state: most states
/// break nothing, and opening a state then writes two numbers, not nine ways to a violation.
#[derive(Clone, Copy, Debug, Default)]
struct Summary {
    schedules: u64,
    /// Some entry of `best` is set; when false, `best` holds leftovers and stands for none.
    breaks: bool,
    best: [Option<Best>; PROPERTIES],
}

impl Summary {
    /// A summary with no schedule and no violation yet.
    const EMPTY: Summary = Summary {
        schedules: 0,
        breaks: false,
        best: [None; PROPERTIES],
    };

    /// The cheapest way to a violation of property `index`, if there is one.
    fn best(&self, index: usize) -> Option<Best> {
        self.best[index].filter(|_| self.breaks)
    }
}

/// Every state met, by key, and the summary of each fully explored one.
///
/// The table is a `HashMap` whose hasher passes a key through (a key is a fingerprint already,
/// see `node_key`); it maps a key to the state's place in `words`, the states in the order they
/// were met. A state is closed by its place, not looked up a second time: most states are closed
/// soon after they are met, near the end of `words`, where the cache still holds it. That place
/// is what the memo keeps beyond a plain map: without it, closing a state is a second lookup,
/// and the explorer in the browser takes markedly longer (`make bench`'s explorer rows).
/// Most states break nothing below them: their word is their number of schedules; the others'
/// word points into a list kept apart with their nine best ways to a violation (one per property).
#[derive(Default)]
struct Memo {
    /// The position in `words` of every state met.
    places: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
    /// The word of every state met, in the order met: `OPEN`, its number of schedules, or
    /// (with `IN_BESTS`) its position in `bests`.
    words: Vec<u64>,
    /// The summaries of the states some property breaks below (or with more schedules than a
    /// word holds beside its flag), with their schedules.
    bests: Vec<(u64, [Option<Best>; PROPERTIES])>,
    /// States closed, each key counted once.
    closed: u64,
}

/// A hasher that passes a key through: the memo's keys are hashes already.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("the memo hashes only u64 keys")
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The word of a state being explored.
const OPEN: u64 = u64::MAX;

/// A word with this bit set is a position in `Memo::bests`; else it is the number of schedules.
const IN_BESTS: u64 = 1 << 63;

/// What the memo knows of a state just reached.
enum Met {
    /// Explored before: its schedules, and its position in `Memo::bests` if it has one there.
    Known(u64, Option<u32>),
    /// New: to be explored, its summary then written at this place.
    New(u32),
}

impl Memo {
    /// The summary of state `key` if it was explored before; else gives it a place.
    fn meet(&mut self, key: u64) -> Met {
        let next = self.words.len() as u32;
        let place = *self.places.entry(key).or_insert(next);
        if place == next {
            self.words.push(OPEN);
            return Met::New(place);
        }
        match self.words[place as usize] {
            // A state is never met again while it is open (each event moves the event count
            // in its key on), but should two keys ever coincide it is explored again, as a
            // state never met would be.
            OPEN => Met::New(place),
            word if word & IN_BESTS != 0 => {
                let position = (word & !IN_BESTS) as u32;
                Met::Known(self.bests[position as usize].0, Some(position))
            }
            schedules => Met::Known(schedules, None),
        }
    }

    /// The summary of state `key`, if it was fully explored.
    fn get(&self, key: u64) -> Option<Summary> {
        let place = *self.places.get(&key)?;
        match self.words[place as usize] {
            OPEN => None,
            word if word & IN_BESTS != 0 => {
                let (schedules, best) = self.bests[(word & !IN_BESTS) as usize];
                Some(Summary {
                    schedules,
                    breaks: true,
                    best,
                })
            }
            schedules => Some(Summary {
                schedules,
                ..Summary::EMPTY
            }),
        }
    }

    /// Writes the summary of the state at `place`, now fully explored.
    fn close(&mut self, place: u32, summary: &Summary) {
        let word = match summary.breaks || summary.schedules >= IN_BESTS {
            true => {
                let best = match summary.breaks {
                    true => summary.best,
                    false => [None; PROPERTIES],
                };
                self.bests.push((summary.schedules, best));
                (self.bests.len() - 1) as u64 | IN_BESTS
            }
            false => summary.schedules,
        };
        let stored = &mut self.words[place as usize];
        self.closed += u64::from(*stored == OPEN);
        *stored = word;
    }
}

/// A successor being explored below its parent: what folding its summary into the parent's
/// needs.
#[derive(Clone, Copy)]
struct Child {
    choice: Choice,
    key: u64,
    fault_cost: u32,
    broke_mask: u16,
}

/// A state on the search path. Its successors are stepped one at a time, as they are entered,
/// from the state's own engine: the path holds one engine per state, not one per successor
/// waiting its turn, so a few spare engines serve the whole search.
#[derive(Default)]
struct Frame {
    key: u64,
    /// The state's entry in the memo.
    place: u32,
    used: Used,
    /// The state's engine, until its last successor takes it.
    engine: Option<Box<Engine>>,
    /// The successors within the budgets, in order.
    choices: Vec<Choice>,
    /// The worker that stepped last is among the ready ones (switching away costs one
    /// preemption).
    last_ready: bool,
    next: usize,
    /// The worker and fingerprint of the latest plain step, so a fault the step ignored is
    /// recognised as the same successor.
    plain: Option<(Option<u8>, u64)>,
    /// The successor being explored below this state.
    entered: Option<Child>,
    summary: Summary,
}

/// An exploration in progress.
pub struct Explorer {
    scenario: Scenario,
    budget: Budget,
    root: u64,
    /// The search path: the open states are `stack[..depth]`. The frames past it are kept for
    /// the states to come, which are written into them in place (a frame is a few hundred
    /// bytes: moving one in and out of the stack for every state would cost more than its
    /// fields), with their choice lists' buffers, so a state allocates nothing.
    stack: Vec<Frame>,
    depth: usize,
    memo: Memo,
    /// Engines no longer needed, to branch into (`Engine::clone_from` reuses their buffers).
    /// Boxed as the frames keep them, so a spare becomes a state's engine without moving one.
    #[allow(clippy::vec_box)]
    spare_engines: Vec<Box<Engine>>,
    transitions: u64,
    finished: bool,
    complete: bool,
    /// The invariants whose first break ends the search at once (one bit each in
    /// `Invariant::ALL` order; none for a whole search), and whether one broke.
    stop_on: u16,
    stopped_on_break: bool,
}

impl Explorer {
    /// Validates the scenario and the budget and sets the search up at the initial state.
    pub fn new(scenario: Scenario, budget: Budget) -> Result<Explorer, ScenarioError> {
        if budget.faults_max > FAULTS_MAX {
            return Err(ScenarioError::OutOfRange {
                field: "explore faults".into(),
                value: budget.faults_max.into(),
                min: 0,
                max: FAULTS_MAX.into(),
            });
        }
        let mut engine = Box::new(Engine::new(scenario.clone())?);
        engine.keep_digest();
        let used = Used {
            faults: 0,
            preemptions: 0,
            last: None,
        };
        let root = node_key(engine.state_hash(), used);
        let mut explorer = Explorer {
            scenario,
            budget,
            root,
            stack: Vec::new(),
            depth: 0,
            memo: Memo::default(),
            spare_engines: Vec::new(),
            transitions: 0,
            finished: false,
            complete: false,
            stop_on: 0,
            stopped_on_break: false,
        };
        explorer.expand(root, engine, used);
        let Met::New(place) = explorer.memo.meet(root) else {
            unreachable!("the memo starts empty")
        };
        explorer.enter(place);
        Ok(explorer)
    }

    /// Explores up to `max_transitions` more engine steps; true once the search is over
    /// (complete, or cut by the budget's transition limit).
    pub fn advance(&mut self, max_transitions: u32) -> bool {
        let stop_at = self.transitions.saturating_add(max_transitions.into());
        while !self.finished {
            if self.stopped_on_break {
                self.unwind();
                self.finished = true;
                break;
            }
            if self.depth == 0 {
                self.finished = true;
                self.complete = true;
                break;
            }
            if self.transitions >= self.budget.transitions_max {
                self.unwind();
                self.finished = true;
                break;
            }
            if self.transitions >= stop_at {
                return false;
            }
            self.visit_next();
        }
        true
    }

    /// Cuts the search where it is (a caller's clock ran out, or the learner cancelled): the
    /// report then counts what was explored and says it is incomplete.
    pub fn stop(&mut self) {
        if !self.finished {
            self.unwind();
            self.finished = true;
        }
    }

    /// The part of the search whose first event is a step of a worker numbered `part` modulo
    /// `parts`: the parts of one search, run apart (in as many Web Workers, say), visit every
    /// schedule of it once between them, so their schedules add up to the whole search's. Each
    /// part keeps its own memo, so a state two parts both reach is explored by both: what a
    /// split would cost is what `make bench` measures with this (engine/benches/explore.rs).
    pub fn part(
        scenario: Scenario,
        budget: Budget,
        part: u8,
        parts: u8,
    ) -> Result<Explorer, ScenarioError> {
        let mut explorer = Explorer::new(scenario, budget)?;
        let parts = parts.max(1);
        explorer.stack[0]
            .choices
            .retain(|choice| choice.worker.is_some_and(|worker| worker % parts == part));
        Ok(explorer)
    }

    /// Runs the whole search and returns its report.
    pub fn run(scenario: Scenario, budget: Budget) -> Result<Report, ScenarioError> {
        let mut explorer = Explorer::new(scenario, budget)?;
        while !explorer.advance(u32::MAX) {}
        Ok(explorer.report())
    }

    /// Whether every one of `goal` holds in every schedule within the budget: the search stops
    /// at the first schedule that breaks one, so a design that breaks costs a fraction of a whole
    /// search. `None` when the budget's transition limit cut the search first.
    pub fn holds(
        scenario: Scenario,
        budget: Budget,
        goal: &[Invariant],
    ) -> Result<Option<bool>, ScenarioError> {
        let mut explorer = Explorer::new(scenario, budget)?;
        explorer.stop_on = crate::engine::invariant_mask(goal);
        while !explorer.advance(u32::MAX) {}
        Ok(match (explorer.stopped_on_break, explorer.complete) {
            (true, _) => Some(false),
            (false, true) => Some(true),
            (false, false) => None,
        })
    }

    /// How far the search has got.
    pub fn progress(&self) -> SearchProgress {
        SearchProgress {
            transitions: self.transitions,
            states: self.memo.closed + self.depth as u64,
            depth: self.depth as u32,
            finished: self.finished,
        }
    }

    /// The findings so far; final once `advance` has returned true.
    pub fn report(&self) -> Report {
        let summary = self.memo.get(self.root).unwrap_or(Summary::EMPTY);
        let properties: Vec<PropertyVerdict> = Property::ALL
            .into_iter()
            .enumerate()
            .map(|(index, property)| {
                let counterexample = summary.best(index).map(|_| self.counterexample(index));
                PropertyVerdict {
                    property,
                    id: property.id(),
                    holds: counterexample.is_none(),
                    applies: property.applies(&self.scenario),
                    counterexample,
                }
            })
            .collect();
        let counterexample = properties
            .iter()
            .filter(|verdict| matches!(verdict.property, Property::Always(_)))
            .filter_map(|verdict| verdict.counterexample.clone())
            .min_by_key(|found| (found.faults, found.events));
        Report {
            extent: Extent {
                schedules: summary.schedules,
                states: self.memo.closed,
                transitions: self.transitions,
                complete: self.complete,
                faults_max: self.budget.faults_max,
                preemptions_max: self.budget.preemptions_max,
            },
            properties,
            counterexample,
        }
    }

    /// One step of the depth-first search: step into the next successor of the top frame (one
    /// transition), or close the frame when its successors are done.
    fn visit_next(&mut self) {
        let frame = &mut self.stack[self.depth - 1];
        let Some(&choice) = frame.choices.get(frame.next) else {
            self.close_top();
            return;
        };
        frame.next += 1;
        let used = frame.used;
        let mut engine = match frame.next == frame.choices.len() {
            true => frame
                .engine
                .take()
                .expect("the last successor takes the engine"),
            false => {
                let parent = frame
                    .engine
                    .as_deref()
                    .expect("kept until the last successor");
                branch(self.spare_engines.pop(), parent)
            }
        };
        let several = engine.worker_count() > 1;
        let stepped: Stepped = engine
            .step_with(&choice)
            .expect("a state with choices has a next event");
        self.transitions += 1;
        let hash = engine.state_hash();
        let frame = &mut self.stack[self.depth - 1];
        // A fault the step ignored, leaving the state as the plain step leaves it, is not
        // another schedule (the trace would not show it): skip it. The plain step of the same
        // worker comes first in `choices`.
        if choice.fault.is_none() {
            frame.plain = Some((choice.worker, hash));
        } else if !stepped.fault_used && frame.plain == Some((choice.worker, hash)) {
            self.recycle(engine);
            return;
        }
        self.stopped_on_break |= stepped.broke_mask & self.stop_on != 0;
        let fault_cost = u32::from(choice.fault.is_some());
        let child_used = used.after(several, frame.last_ready, &choice);
        let child = Child {
            choice,
            key: node_key(hash, child_used),
            fault_cost,
            broke_mask: stepped.broke_mask,
        };
        let place = match self.memo.meet(child.key) {
            Met::Known(schedules, position) => {
                let best = position.map(|position| &self.memo.bests[position as usize].1);
                fold(&mut frame.summary, &child, schedules, best);
                self.recycle(engine);
                return;
            }
            Met::New(place) => place,
        };
        frame.entered = Some(child);
        self.expand(child.key, engine, child_used);
        self.enter(place);
    }

    /// Closes the top frame: records its summary and folds it into its parent.
    fn close_top(&mut self) {
        let (frame, below) = self.stack[..self.depth]
            .split_last_mut()
            .expect("the caller checked");
        self.memo.close(frame.place, &frame.summary);
        if let Some(parent) = below.last_mut() {
            let child = parent
                .entered
                .take()
                .expect("the parent entered this state");
            debug_assert_eq!(child.key, frame.key);
            let best = frame.summary.breaks.then_some(&frame.summary.best);
            fold(&mut parent.summary, &child, frame.summary.schedules, best);
        }
        let engine = frame.engine.take();
        self.depth -= 1;
        if let Some(engine) = engine {
            self.recycle(engine);
        }
    }

    /// Closes every open frame with what was found so far (the search was cut).
    fn unwind(&mut self) {
        while self.depth > 0 {
            // Successors not entered yet stay unexplored: skip them.
            let frame = &mut self.stack[self.depth - 1];
            frame.next = frame.choices.len();
            self.close_top();
        }
    }

    /// Writes the frame of the state `key` just past the top of the path, with its successors
    /// within the budgets listed (none stepped yet); `enter` then opens it.
    fn expand(&mut self, key: u64, mut engine: Box<Engine>, used: Used) {
        if self.stack.len() == self.depth {
            self.stack.push(Frame::default());
        }
        let budget = &self.budget;
        let frame = &mut self.stack[self.depth];
        engine.choices_within(&mut frame.choices, used.faults < budget.faults_max);
        // The nine ways to a violation are written only once one is found (see `Summary`).
        frame.summary.schedules = 0;
        frame.summary.breaks = false;
        if frame.choices.is_empty() {
            frame.summary.schedules = 1;
            if engine.has_work() {
                frame.summary.breaks = true;
                frame.summary.best = [None; PROPERTIES];
                frame.summary.best[FINISHED] = Some(Best {
                    faults: 0,
                    events: 0,
                    via: None,
                });
            }
        }
        let several = engine.worker_count() > 1;
        let last_ready = used.last_ready(&frame.choices);
        // Budgets first, so the engine is copied only for the successors that are taken.
        frame.choices.retain(|choice| {
            let fault_cost = u32::from(choice.fault.is_some());
            let within_faults = fault_cost == 0 || allows(budget, choice.fault, used.faults);
            let preemption_cost = u32::from(used.preempts(several, last_ready, choice));
            within_faults && used.preemptions + preemption_cost <= budget.preemptions_max
        });
        frame.key = key;
        frame.used = used;
        frame.last_ready = last_ready;
        frame.next = 0;
        frame.plain = None;
        frame.entered = None;
        match frame.choices.is_empty() {
            // The run is over, or every successor was beyond the budgets.
            true => self.recycle(engine),
            false => frame.engine = Some(engine),
        }
    }

    /// Opens the frame `expand` wrote, for the state at `place` in the memo: the path's new top.
    #[inline(always)]
    fn enter(&mut self, place: u32) {
        self.stack[self.depth].place = place;
        self.depth += 1;
    }

    /// Keeps an engine no longer needed for `branch` (a few: the search needs one at a time).
    #[inline(always)]
    fn recycle(&mut self, engine: Box<Engine>) {
        if self.spare_engines.len() < SPARE_ENGINES_MAX {
            self.spare_engines.push(engine);
        }
    }

    /// Replays the cheapest violation of property `index` from the initial state, following
    /// the memoised best choices, and turns it into a scenario.
    fn counterexample(&self, index: usize) -> Counterexample {
        let mut engine = Engine::new(self.scenario.clone()).expect("validated in new()");
        engine.keep_digest();
        let several = engine.worker_count() > 1;
        let mut used = Used {
            faults: 0,
            preemptions: 0,
            last: None,
        };
        let mut key = self.root;
        let mut path: Vec<(Choice, Stepped)> = Vec::new();
        let mut broke = 0u16;
        while let Some(choice) = self
            .memo
            .get(key)
            .and_then(|summary| summary.best(index))
            .and_then(|best| best.via)
        {
            let last_ready = used.last_ready(&engine.choices());
            let stepped = engine
                .step_with(&choice)
                .expect("a memoised choice can be taken");
            used = used.after(several, last_ready, &choice);
            path.push((choice, stepped));
            if index < INVARIANTS && stepped.broke_mask & (1 << index) != 0 {
                broke = stepped.broke_mask;
                break;
            }
            key = node_key(engine.state_hash(), used);
        }
        let property = Property::ALL[index];
        self.replayable(&path, broke, property)
    }

    fn replayable(
        &self,
        path: &[(Choice, Stepped)],
        broke_mask: u16,
        property: Property,
    ) -> Counterexample {
        let mut scenario = self.scenario.clone();
        let mut order = Vec::new();
        let mut faults = Vec::new();
        for (choice, stepped) in path {
            if let Some(worker) = choice.worker {
                order.push(worker);
            }
            if let (Some(fault), Some(point)) = (choice.fault, stepped.point) {
                // The global count of the action is exact: the scenario's own rules do not
                // strike at this occurrence (the explorer injects only where they do not).
                scenario.faults.push(FaultRule {
                    fault,
                    at: point.action,
                    nth: Some(point.nth),
                    worker: None,
                    chance_permille: None,
                });
                let worker = &scenario.workers[usize::from(choice.worker.unwrap_or(0))].name;
                faults.push(format!(
                    "{} at {} of {worker} (event {})",
                    fault_phrase(fault),
                    point.action.name(),
                    stepped.event
                ));
            }
        }
        if scenario.workers.len() > 1 {
            scenario.schedule = Schedule::Explicit { order };
        }
        let broke: Vec<Invariant> = Invariant::ALL
            .into_iter()
            .enumerate()
            .filter(|(bit, _)| broke_mask & (1 << bit) != 0)
            .map(|(_, invariant)| invariant)
            .collect();
        let events = path.last().map(|(_, stepped)| stepped.event).unwrap_or(0);
        let faults_text = match faults.len() {
            // The design's own faults still strike: say so, or "no fault" reads as a fault-free run.
            0 if !scenario.faults.is_empty() => "no fault beyond the design's own".to_string(),
            0 => "no fault".to_string(),
            1 => format!("1 fault: {}", faults[0]),
            count => format!("{count} faults: {}", faults.join(", ")),
        };
        let outcome = match property {
            Property::Always(_) => {
                // Each statement quoted whole, its capital letter and all, so it reads as the
                // invariant's name inside the sentence.
                let quoted: Vec<String> = broke
                    .iter()
                    .map(|invariant| format!("“{}”", invariant.statement()))
                    .collect();
                let named = match quoted.as_slice() {
                    [only] => format!("the invariant {only}"),
                    [first @ .., last] => format!("the invariants {} and {last}", first.join(", ")),
                    [] => "no invariant".to_string(),
                };
                format!("breaks {named} at event {events}")
            }
            Property::EventuallyFinished => {
                format!("the step cap cuts the run at event {events} with work left")
            }
        };
        Counterexample {
            faults: faults.len() as u32,
            events,
            broke,
            scenario,
            description: format!("{faults_text}; {outcome}"),
        }
    }
}

impl Used {
    /// Whether the worker that stepped last is among those that can step now (`choices`).
    #[inline(always)]
    fn last_ready(&self, choices: &[Choice]) -> bool {
        self.last
            .is_some_and(|last| choices.iter().any(|choice| choice.worker == Some(last)))
    }

    /// Whether `choice` costs a preemption: with several workers, the one that stepped last is
    /// still ready (`last_ready`) and another steps.
    #[inline(always)]
    fn preempts(&self, several: bool, last_ready: bool, choice: &Choice) -> bool {
        several && last_ready && choice.worker.is_some() && choice.worker != self.last
    }

    /// The budgets used once `choice` is taken.
    #[inline(always)]
    fn after(self, several: bool, last_ready: bool, choice: &Choice) -> Used {
        Used {
            faults: self.faults + u32::from(choice.fault.is_some()),
            preemptions: self.preemptions + u32::from(self.preempts(several, last_ready, choice)),
            last: match several {
                true => choice.worker.or(self.last),
                false => None,
            },
        }
    }
}

/// Whether `budget` lets one more fault, `fault`, strike a run that used `used` already.
fn allows(budget: &Budget, fault: Option<FaultKind>, used: u32) -> bool {
    used < budget.faults_max
        && match (&budget.kinds, fault) {
            (Some(kinds), Some(fault)) => kinds.contains(&fault),
            _ => true,
        }
}

/// A copy of `engine`, made into `spare` when there is one.
fn branch(spare: Option<Box<Engine>>, engine: &Engine) -> Box<Engine> {
    match spare {
        Some(mut spare) => {
            spare.as_mut().clone_from(engine);
            spare
        }
        None => Box::new(engine.clone()),
    }
}

/// Adds one child's schedules and violations (`below`, when any property breaks below it) to
/// its parent's summary. Inline: most children break nothing, and that case is two lines.
#[inline(always)]
fn fold(
    parent: &mut Summary,
    child: &Child,
    schedules: u64,
    below: Option<&[Option<Best>; PROPERTIES]>,
) {
    parent.schedules = parent.schedules.saturating_add(schedules);
    if child.broke_mask != 0 || below.is_some() {
        fold_violations(parent, child, below);
    }
}

/// `fold`'s part for a child some property breaks at or below.
fn fold_violations(
    parent: &mut Summary,
    child: &Child,
    below: Option<&[Option<Best>; PROPERTIES]>,
) {
    if !parent.breaks {
        parent.breaks = true;
        parent.best = [None; PROPERTIES];
    }
    for (index, slot) in parent.best.iter_mut().enumerate() {
        let candidate = if index < INVARIANTS && child.broke_mask & (1 << index) != 0 {
            Some(Best {
                faults: child.fault_cost,
                events: 1,
                via: Some(child.choice),
            })
        } else {
            below.and_then(|below| below[index]).map(|best| Best {
                faults: child.fault_cost + best.faults,
                events: 1 + best.events,
                via: Some(child.choice),
            })
        };
        if let Some(candidate) = candidate {
            let better = slot.is_none_or(|current| {
                (candidate.faults, candidate.events) < (current.faults, current.events)
            });
            if better {
                *slot = Some(candidate);
            }
        }
    }
}

/// The key of a state in the memo: the engine's fingerprint and the budgets used, hashed
/// together (the memo's table takes the key as its hash).
fn node_key(engine_hash: u64, used: Used) -> u64 {
    let mut hasher = Fingerprint::default();
    hasher.write_u64(engine_hash);
    hasher.write_u32(used.faults);
    hasher.write_u32(used.preemptions);
    hasher.write_u8(used.last.map_or(0, |worker| worker + 1));
    hasher.finish()
}

/// A fault as a noun phrase: "a lost reply".
pub fn fault_phrase(fault: FaultKind) -> &'static str {
    match fault {
        FaultKind::LoseRequest => "a lost request",
        FaultKind::LoseReply => "a lost reply",
        FaultKind::Timeout => "a timeout",
        FaultKind::Busy => "a busy reply",
        FaultKind::Crash => "a crash",
        FaultKind::DeliverTwice => "a redelivery",
        FaultKind::StaleLookup => "a stale lookup",
        FaultKind::ExpireKey => "an expired key",
        FaultKind::ChangePayload => "a changed payload",
        FaultKind::InvalidInput => "an invalid-input rejection",
        FaultKind::PermissionDenied => "a permission refusal",
        FaultKind::Cancel => "a cancel",
    }
}
