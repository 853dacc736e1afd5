//! The player's whole state as one `Reducible`: the designs and their traces, the learner's own
//! design of one design, the frame shown, playback and the small dialogs. The reducer is pure
//! (no IO, no timers, no storage); it runs the engine only when a scenario changes, once.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;

pub use lab_course::Design;
use lab_course::{Lesson, QuestionKind};
use lab_engine::{Engine, FaultRule, Scenario, Switch, Trace};
use yew::Reducible;

use crate::frames::Frames;

/// One part of a lesson's narrative, as the player needs it: where it starts (a design and the
/// cursor in its run), whether it asks the learner to predict what happens next, and whether it
/// sets a task to do (a hunt, a build, a choice, a switch to flip).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub design: usize,
    pub at: u32,
    pub predicts: bool,
    pub task: bool,
}

impl Part {
    /// The parts of a lesson, in order.
    pub fn of_lesson(lesson: &Lesson) -> Vec<Part> {
        lesson
            .steps
            .iter()
            .map(|step| Part {
                design: step.design as usize,
                at: step.at,
                predicts: step
                    .questions
                    .iter()
                    .any(|question| question.kind == QuestionKind::Predict),
                task: step.try_it.is_some(),
            })
            .collect()
    }
}

/// What the learner did with a part's prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prediction {
    Answered,
    Skipped,
}

/// Where the player starts, or what a link asks it to show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// The learner's own scenario for one design (by index), in place of that design's.
    pub custom: Option<(usize, Scenario)>,
    /// The frame to show (0-based; clamped to the last).
    pub frame: u32,
    /// The board of the build task of the part shown (0-based), as the learner left it.
    pub board: Option<(usize, lab_engine::Program)>,
}

/// Everything the player does.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerAction {
    /// One frame on; stops playback at the last.
    Next,
    /// One frame back.
    Back,
    /// Go to a frame (clamped to the last).
    Seek(u32),
    /// Go to the event (1-based) of the design on show.
    SeekEvent(u32),
    /// Start or stop playback.
    TogglePlay,
    /// One frame of playback: like `Next`, but ignored unless playing.
    Tick,
    /// Flip a design switch of the design on show.
    FlipSwitch(Switch),
    /// Add this fault rule to the design on show, or take it out if it is there.
    ToggleFault(FaultRule),
    /// Show the design on show as the lesson (or the sandbox) wrote it.
    Reset,
    /// Show what a link names (also when the address changes under the player).
    Load(Setup),
    /// Replace the design on show with a counterexample's scenario, at the event that breaks it.
    OpenCounterexample {
        scenario: Scenario,
        event: u32,
    },
    /// Show or hide the keyboard shortcuts.
    ToggleHelp,
    CloseHelp,
    /// Show or hide every design side by side.
    ToggleCompare,
    /// Show this scenario in place of the design on show, at the same event.
    Apply(Scenario),
    /// The learner answered the prediction of this part (0-based).
    Answer(usize),
    /// The learner chose not to predict the part that holds Next back, and moves on.
    SkipPrediction,
    /// The learner did the task of this part (0-based): found the fault, built the program,
    /// chose, flipped.
    Solved(usize),
    /// The board of the build task of the part shown, as the learner arranged it.
    SetBoard(lab_engine::Program),
    /// Go to an event (1-based) of a design as the lesson wrote it: an option's refuting event.
    ShowEvent {
        design: usize,
        event: u32,
    },
}

/// The player's state.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerState {
    designs: Rc<Vec<Design>>,
    /// Each design's own trace, run once when the player is made.
    base: Vec<Rc<Trace>>,
    /// The learner's own scenario for one design, and its trace.
    custom: Option<(usize, Arc<Scenario>, Rc<Trace>)>,
    frames: Frames,
    frame: u32,
    playing: bool,
    help: bool,
    comparing: bool,
    /// Why the designs could not run, or why the learner's change could not.
    error: Option<String>,
    notice: Option<String>,
    /// Engine runs so far: one per design at the start, then one per change of scenario.
    runs: u64,
    /// The last change came from a link (`Load`) or the start, not from the learner.
    from_link: bool,
    /// A lesson's parts: moving on from a part that asks a prediction waits for an answer (or a
    /// skip). Empty outside a lesson.
    parts: Rc<Vec<Part>>,
    /// What the learner did with each part's prediction, by part.
    predictions: BTreeMap<usize, Prediction>,
    /// The part whose prediction holds Next back, after the learner pressed it.
    held: Option<usize>,
    /// The parts whose task the learner did.
    solved: BTreeSet<usize>,
    /// The parts the learner moved on from while their question or task was still open.
    passed: BTreeSet<usize>,
    /// A build task's board, and the part (0-based) it belongs to.
    board: Option<(usize, lab_engine::Program)>,
}

impl PlayerState {
    /// Runs every design once, then applies the setup (running the custom scenario, if any).
    pub fn new(designs: Rc<Vec<Design>>, setup: Setup) -> PlayerState {
        let mut runs = 0;
        let base: Result<Vec<Rc<Trace>>, String> = designs
            .iter()
            .map(|design| {
                runs += 1;
                Engine::run((*design.scenario).clone())
                    .map(Rc::new)
                    .map_err(|error| error.to_string())
            })
            .collect();
        let (base, error) = match base {
            Ok(base) => (base, None),
            Err(error) => (Vec::new(), Some(error)),
        };
        let frames = Frames::new(base.iter().map(|trace| trace.len()));
        let state = PlayerState {
            designs,
            base,
            custom: None,
            frames,
            frame: 0,
            playing: false,
            help: false,
            comparing: false,
            error,
            notice: None,
            runs,
            from_link: true,
            parts: Rc::new(Vec::new()),
            predictions: BTreeMap::new(),
            held: None,
            solved: BTreeSet::new(),
            passed: BTreeSet::new(),
            board: None,
        };
        match state.error {
            Some(_) => state,
            None => state.load(setup),
        }
    }

    /// The same player, for a lesson with these parts: Next waits at a prediction.
    pub fn with_parts(mut self, parts: Rc<Vec<Part>>) -> PlayerState {
        self.parts = parts;
        self
    }

    /// The same player, remembering what the learner already did with these parts' predictions
    /// (from saved progress: a reload does not ask again).
    pub fn with_predictions(mut self, predictions: BTreeMap<usize, Prediction>) -> PlayerState {
        self.predictions = predictions;
        self
    }

    /// The part shown at the current frame: the last that starts at or before it; but while the
    /// learner's own program for a build task runs in its design, that task's part, wherever in
    /// the run the player is.
    pub fn part(&self) -> Option<usize> {
        let here = self.located();
        if let (Some((part, _)), Some((design, _, _))) = (&self.board, &self.custom) {
            let own = self
                .parts
                .get(*part)
                .is_some_and(|part| part.design == here.0);
            if own && *design == here.0 {
                return Some(*part);
            }
        }
        self.parts
            .iter()
            .rposition(|part| (part.design, part.at) <= here)
    }

    /// The part whose prediction holds Next back, once the learner pressed it.
    pub fn held(&self) -> Option<usize> {
        self.held
    }

    /// What the learner did with each part's prediction, by part (0-based).
    pub fn predictions(&self) -> &BTreeMap<usize, Prediction> {
        &self.predictions
    }

    /// The part shown, if it asks a prediction the learner has neither answered nor skipped.
    fn waiting(&self) -> Option<usize> {
        self.part()
            .filter(|&part| self.parts[part].predicts && !self.predictions.contains_key(&part))
    }

    /// The designs as written (not as the learner changed them).
    pub fn designs(&self) -> &Rc<Vec<Design>> {
        &self.designs
    }

    /// The traces as shown: each design's, with the learner's run in place of its design's.
    pub fn traces(&self) -> Vec<Rc<Trace>> {
        self.base
            .iter()
            .enumerate()
            .map(|(index, trace)| match &self.custom {
                Some((design, _, mine)) if *design == index => Rc::clone(mine),
                _ => Rc::clone(trace),
            })
            .collect()
    }

    pub fn frames(&self) -> &Frames {
        &self.frames
    }

    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// The design on show and the cursor in its trace.
    pub fn located(&self) -> (usize, u32) {
        self.frames.locate(self.frame)
    }

    /// The trace of the design on show.
    pub fn trace(&self) -> Rc<Trace> {
        let (design, _) = self.located();
        self.trace_of(design)
    }

    fn trace_of(&self, design: usize) -> Rc<Trace> {
        match &self.custom {
            Some((index, _, mine)) if *index == design => Rc::clone(mine),
            _ => Rc::clone(&self.base[design]),
        }
    }

    /// The scenario of a design as shown (the learner's, if they changed it).
    pub fn scenario_of(&self, design: usize) -> &Arc<Scenario> {
        match &self.custom {
            Some((index, scenario, _)) if *index == design => scenario,
            _ => &self.designs[design].scenario,
        }
    }

    /// The learner's own scenario and the design it replaces.
    pub fn custom(&self) -> Option<(usize, &Scenario)> {
        self.custom
            .as_ref()
            .map(|(design, scenario, _)| (*design, &**scenario))
    }

    /// What a link must hold to show exactly this.
    pub fn setup(&self) -> Setup {
        Setup {
            custom: self
                .custom()
                .map(|(design, scenario)| (design, (*scenario).clone())),
            frame: self.frame,
            board: self
                .board()
                .and_then(|board| Some((self.part()?, board.clone()))),
        }
    }

    /// The board of the part shown, if the learner has one there.
    pub fn board(&self) -> Option<&lab_engine::Program> {
        let part = self.part()?;
        self.board
            .as_ref()
            .filter(|(own, _)| *own == part)
            .map(|(_, board)| board)
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    pub fn help(&self) -> bool {
        self.help
    }

    pub fn comparing(&self) -> bool {
        self.comparing
    }

    /// Why the designs could not run at all.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Why the learner's last change, or a link, could not be shown as asked.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Engine runs so far.
    #[cfg(test)]
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// The last change came from a link or the start, so the address already says it.
    pub fn linked(&self) -> bool {
        self.from_link
    }

    /// The part shown, if its question or task is still open: a prediction neither answered nor
    /// skipped, or a task not done, that the learner has not moved on from, at a place with
    /// something still to come in its run.
    fn open(&self) -> Option<usize> {
        let part = self.part()?;
        let shown = &self.parts[part];
        let asks = (shown.predicts && !self.predictions.contains_key(&part))
            || (shown.task && !self.solved.contains(&part));
        let ahead = shown.at < self.frames.events_of(shown.design);
        (asks && ahead && !self.passed.contains(&part)).then_some(part)
    }

    /// Whether the part shown still asks its question or sets its task: until the learner
    /// answers (or does the task, or moves on), nothing on the page states the outcome ahead (a
    /// design's label and kind, the faults and breaks still to come, another design's run).
    pub fn outcome_hidden(&self) -> bool {
        self.open().is_some()
    }

    /// Frames worth a marker on the scrubber: every fault, where each design first breaks, and
    /// where each design after the first starts; while the outcome is hidden, no fault and no
    /// break ahead of the frame shown, and no design's label.
    pub fn markers(&self) -> Vec<(u32, String)> {
        let hidden = self.outcome_hidden();
        let told = |frame: u32| !hidden || frame <= self.frame;
        let several = self.designs.len() > 1;
        let mut markers = Vec::new();
        for (index, trace) in self.traces().iter().enumerate() {
            let design = match several {
                true => format!(" (design {})", index + 1),
                false => String::new(),
            };
            for event in trace.events.iter() {
                let frame = self.frames.frame(index, event.index);
                if let Some(fault) = event.fault.filter(|_| told(frame)) {
                    let fault = fault.name().replace('_', " ");
                    markers.push((frame, format!("{fault}{design}")));
                }
            }
            let broken = trace
                .first_broken()
                .map(|broken| self.frames.frame(index, broken));
            if let Some(frame) = broken.filter(|&frame| told(frame)) {
                markers.push((frame, format!("invariant broken{design}")));
            }
            if index > 0 {
                let name = match hidden {
                    true => format!("design {}", index + 1),
                    false => self.designs[index].label.clone(),
                };
                markers.push((self.frames.start_of(index), format!("{name} starts")));
            }
        }
        markers.sort();
        markers.dedup_by_key(|marker| marker.0);
        markers
    }

    /// Goes to a frame; moving on from a part whose question or task is open leaves it behind
    /// (its outcome is no longer hidden when the learner comes back).
    fn seek(mut self, frame: u32) -> PlayerState {
        let open = self.open();
        self.frame = frame.min(self.frames.last());
        self.held = None;
        if let Some(open) = open.filter(|&open| self.part().is_some_and(|now| now > open)) {
            self.passed.insert(open);
        }
        self
    }

    /// One frame on, unless the part shown waits for a prediction: then Next is held back (and
    /// playback stops) until the learner answers or skips.
    fn forward(mut self) -> PlayerState {
        if let Some(part) = self.waiting() {
            self.held = Some(part);
            self.playing = false;
            return self;
        }
        let frame = self.frame + 1;
        self.seek(frame)
    }

    /// Shows `custom` (or the designs as written, for `None`), at the frame `at` picks in the
    /// new frames. Runs the engine only for a scenario not already shown.
    fn show(mut self, custom: Option<(usize, Scenario)>, at: impl Fn(&Frames) -> u32) -> Self {
        let custom = custom.filter(|(design, scenario)| {
            *design < self.designs.len() && *scenario != *self.designs[*design].scenario
        });
        self.notice = None;
        let next = match custom {
            None => None,
            Some((design, scenario)) => match &self.custom {
                Some((index, shown, trace)) if *index == design && **shown == scenario => {
                    Some((design, Arc::clone(shown), Rc::clone(trace)))
                }
                _ => {
                    self.runs += 1;
                    match Engine::run(scenario.clone()) {
                        Ok(trace) => Some((design, Arc::new(scenario), Rc::new(trace))),
                        Err(error) => {
                            // The learner keeps what they had; the notice says why.
                            self.notice =
                                Some(format!("This scenario cannot run: {error}. Showing the last one that could."));
                            return self;
                        }
                    }
                }
            },
        };
        self.custom = next;
        self.frames = Frames::new(self.traces().iter().map(|trace| trace.len()));
        let frame = at(&self.frames);
        self.seek(frame)
    }

    /// Changes the scenario of the design on show, staying at the same event (or the last one
    /// the new run has).
    fn change(self, scenario: Scenario) -> PlayerState {
        let (design, cursor) = self.located();
        self.show(Some((design, scenario)), move |frames| {
            frames.start_of(design) + cursor.min(frames.events_of(design))
        })
    }

    /// A frame past the end (a link to a step the run does not have) shows the first.
    fn load(self, setup: Setup) -> PlayerState {
        let frame = setup.frame;
        let mut state = self.show(setup.custom, move |frames| match frame > frames.last() {
            true => 0,
            false => frame,
        });
        state.playing = false;
        if let Some((part, board)) = setup.board {
            state.board = (part < state.parts.len()).then_some((part, board));
        }
        state
    }
}

impl Reducible for PlayerState {
    type Action = PlayerAction;

    fn reduce(self: Rc<Self>, action: PlayerAction) -> Rc<Self> {
        if self.error.is_some() {
            return self;
        }
        let mut state = (*self).clone();
        state.from_link = false;
        let state = match action {
            PlayerAction::Next => state.forward(),
            PlayerAction::Back => {
                let frame = state.frame.saturating_sub(1);
                state.seek(frame)
            }
            PlayerAction::Seek(frame) => state.seek(frame),
            PlayerAction::SeekEvent(event) => {
                let (design, _) = state.located();
                let frame = state.frames.frame(design, event);
                state.seek(frame)
            }
            PlayerAction::TogglePlay => {
                // Play from the start when at the end.
                if !state.playing && state.frame >= state.frames.last() {
                    state.frame = 0;
                }
                if !state.playing {
                    if let Some(part) = state.waiting() {
                        state.held = Some(part);
                        return Rc::new(state);
                    }
                }
                state.playing = !state.playing;
                state
            }
            PlayerAction::Tick if !state.playing => return self,
            PlayerAction::Tick => {
                let mut state = state.forward();
                state.playing = state.playing && state.frame < state.frames.last();
                state
            }
            PlayerAction::FlipSwitch(switch) => {
                let (design, _) = state.located();
                let scenario = state.scenario_of(design);
                let flipped = switch.set(scenario, !switch.get(scenario));
                state.change(flipped)
            }
            PlayerAction::ToggleFault(rule) => {
                let (design, _) = state.located();
                let mut scenario = (**state.scenario_of(design)).clone();
                match scenario
                    .faults
                    .iter()
                    .position(|existing| existing == &rule)
                {
                    Some(position) => {
                        scenario.faults.remove(position);
                    }
                    None => {
                        // A design's own fault goes back to its place, so switching it off and
                        // on again is the design as written; the learner's own come after.
                        scenario.faults.push(rule);
                        let written = &state.designs[design].scenario.faults;
                        scenario.faults.sort_by_key(|rule| {
                            written
                                .iter()
                                .position(|own| own == rule)
                                .unwrap_or(usize::MAX)
                        });
                    }
                }
                state.change(scenario)
            }
            PlayerAction::Reset => {
                let (design, cursor) = state.located();
                state.show(None, move |frames| {
                    frames.start_of(design) + cursor.min(frames.events_of(design))
                })
            }
            PlayerAction::Load(setup) => {
                let mut state = state.load(setup);
                state.from_link = true;
                state
            }
            PlayerAction::OpenCounterexample { scenario, event } => {
                let (design, _) = state.located();
                let mut state = state.show(Some((design, scenario)), move |frames| {
                    frames.frame(design, event)
                });
                state.playing = false;
                state
            }
            PlayerAction::ToggleHelp => {
                state.help = !state.help;
                state
            }
            PlayerAction::CloseHelp => {
                state.help = false;
                state
            }
            PlayerAction::ToggleCompare => {
                state.comparing = !state.comparing;
                state
            }
            PlayerAction::Apply(scenario) => state.change(scenario),
            PlayerAction::SetBoard(board) => {
                state.board = state.part().map(|part| (part, board));
                state
            }
            PlayerAction::Answer(part) => {
                state.predictions.insert(part, Prediction::Answered);
                if state.held == Some(part) {
                    state.held = None;
                }
                state
            }
            PlayerAction::ShowEvent { design, event } => {
                let at = move |frames: &Frames| frames.frame(design, event);
                match state.custom() {
                    Some((changed, _)) if changed == design => state.show(None, at),
                    _ => {
                        let frame = at(&state.frames);
                        state.seek(frame)
                    }
                }
            }
            PlayerAction::Solved(part) => {
                state.solved.insert(part);
                state
            }
            PlayerAction::SkipPrediction => match state.held.take() {
                Some(part) => {
                    state.predictions.entry(part).or_insert(Prediction::Skipped);
                    state.forward()
                }
                None => state,
            },
        };
        Rc::new(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(id: &str) -> Lesson {
        crate::course::course()
            .lesson(id)
            .expect("the lesson exists")
            .clone()
    }

    fn player(id: &str) -> Rc<PlayerState> {
        Rc::new(PlayerState::new(
            Rc::new(lesson(id).designs.clone()),
            Setup::default(),
        ))
    }

    fn reduce(state: &Rc<PlayerState>, action: PlayerAction) -> Rc<PlayerState> {
        Rc::clone(state).reduce(action)
    }

    #[test]
    fn the_engine_runs_once_per_design_and_once_per_change_of_scenario() {
        let state = player("lost-reply");
        let designs = state.designs().len() as u64;
        assert_eq!(state.runs(), designs, "one run per design at the start");
        // Moving never runs the engine.
        let mut moved = Rc::clone(&state);
        for action in [
            PlayerAction::Next,
            PlayerAction::Next,
            PlayerAction::Back,
            PlayerAction::Seek(7),
            PlayerAction::SeekEvent(2),
            PlayerAction::TogglePlay,
            PlayerAction::Tick,
            PlayerAction::TogglePlay,
            PlayerAction::ToggleCompare,
        ] {
            moved = reduce(&moved, action);
        }
        assert_eq!(moved.runs(), designs);
        // A switch flip runs the changed scenario once (the old page ran it twice).
        let flipped = reduce(&moved, PlayerAction::FlipSwitch(Switch::ProviderDedup));
        assert_eq!(flipped.runs(), designs + 1);
        assert!(flipped.custom().is_some());
        // Going back to the lesson's design reuses its trace.
        let reset = reduce(&flipped, PlayerAction::Reset);
        assert_eq!(reset.runs(), designs + 1);
        assert!(reset.custom().is_none());
        // Loading the state a link names, when it is already shown, runs nothing.
        let again = reduce(&flipped, PlayerAction::Load(flipped.setup()));
        assert_eq!(again.runs(), designs + 1);
        assert_eq!(again.setup(), flipped.setup());
    }

    #[test]
    fn a_switch_flip_stays_at_the_same_event_and_flipping_back_is_the_lesson() {
        let state = player("lost-reply");
        let at = reduce(&state, PlayerAction::Seek(4));
        let flipped = reduce(&at, PlayerAction::FlipSwitch(Switch::ProviderDedup));
        assert_eq!(flipped.located(), (0, 4));
        let back = reduce(&flipped, PlayerAction::FlipSwitch(Switch::ProviderDedup));
        assert!(back.custom().is_none(), "the lesson's own design again");
        assert_eq!(back.frames(), state.frames());
    }

    #[test]
    fn a_fault_toggles_off_and_on() {
        let state = player("lost-reply");
        let rule = state.designs()[0].scenario.faults[0].clone();
        let off = reduce(&state, PlayerAction::ToggleFault(rule.clone()));
        assert!(!off.scenario_of(0).faults.contains(&rule));
        let on = reduce(&off, PlayerAction::ToggleFault(rule));
        assert!(on.custom().is_none());
    }

    fn lesson_player(id: &str) -> Rc<PlayerState> {
        let lesson = lesson(id);
        Rc::new(
            PlayerState::new(Rc::new(lesson.designs.clone()), Setup::default())
                .with_parts(Rc::new(Part::of_lesson(&lesson))),
        )
    }

    #[test]
    fn next_waits_at_a_prediction_until_it_is_answered() {
        // Lesson 01's first part asks a prediction at frame 0.
        let state = lesson_player("lost-reply");
        assert_eq!(state.part(), Some(0));
        let held = reduce(&state, PlayerAction::Next);
        assert_eq!(held.frame(), 0, "Next does not move");
        assert_eq!(held.held(), Some(0));
        let played = reduce(&state, PlayerAction::TogglePlay);
        assert!(!played.playing(), "nor does Play");
        assert_eq!(played.held(), Some(0));
        let answered = reduce(&held, PlayerAction::Answer(0));
        assert_eq!(answered.held(), None);
        assert_eq!(answered.predictions().get(&0), Some(&Prediction::Answered));
        assert_eq!(reduce(&answered, PlayerAction::Next).frame(), 1);
        // The scrubber and the markers are not held.
        assert_eq!(reduce(&state, PlayerAction::Seek(3)).frame(), 3);
    }

    #[test]
    fn an_open_hunt_hides_the_faults_and_breaks_ahead_until_it_is_found_or_left() {
        // Lesson 04b's hunt for the stuck claim: a later design crashes where the hunt's answer
        // lies, and its marker and kind would say so.
        let lesson = lesson("claim-lease");
        let hunt = lesson
            .steps
            .iter()
            .position(|step| matches!(step.try_it, Some(lab_course::Task::Hunt(_))))
            .expect("the lesson has a hunt");
        let state = lesson_player("claim-lease");
        let step = &lesson.steps[hunt];
        let at = reduce(
            &state,
            PlayerAction::Seek(state.frames().frame(step.design as usize, step.at)),
        );
        assert_eq!(at.part(), Some(hunt));
        assert!(at.outcome_hidden());
        let ahead = |state: &PlayerState| {
            state
                .markers()
                .into_iter()
                .filter(|(frame, label)| {
                    *frame > state.frame()
                        && (label.contains("crash") || label.contains("invariant broken"))
                })
                .count()
        };
        assert_eq!(ahead(&at), 0, "{:?}", at.markers());
        let found = reduce(&at, PlayerAction::Solved(hunt));
        assert!(!found.outcome_hidden());
        assert!(ahead(&found) > 0, "{:?}", found.markers());
        // Moving on and coming back: the outcome is no longer hidden there.
        let later = reduce(&at, PlayerAction::Seek(state.frames().last()));
        let back = reduce(
            &later,
            PlayerAction::Seek(state.frames().frame(step.design as usize, step.at)),
        );
        assert_eq!(back.part(), Some(hunt));
        assert!(!back.outcome_hidden());
    }

    #[test]
    fn a_prediction_hides_only_what_lies_ahead() {
        let state = lesson_player("lost-reply");
        assert!(state.outcome_hidden(), "part 1 asks a prediction");
        let answered = reduce(&state, PlayerAction::Answer(0));
        assert!(!answered.outcome_hidden());
        let every = answered.markers();
        let before = state.markers();
        assert!(before.len() < every.len());
        // What is hidden lies ahead of the frame shown; what is shown is told the same.
        for marker in every.iter().filter(|(_, label)| !label.ends_with("starts")) {
            let kept = before.contains(marker);
            assert_eq!(kept, marker.0 <= state.frame(), "{marker:?}");
        }
    }

    #[test]
    fn a_skipped_prediction_is_recorded_and_moves_on() {
        let state = lesson_player("lost-reply");
        let skipped = reduce(
            &reduce(&state, PlayerAction::Next),
            PlayerAction::SkipPrediction,
        );
        assert_eq!(skipped.frame(), 1);
        assert_eq!(skipped.predictions().get(&0), Some(&Prediction::Skipped));
        // A skip with nothing held does nothing.
        let idle = reduce(&state, PlayerAction::SkipPrediction);
        assert_eq!(idle.frame(), 0);
        assert!(idle.predictions().is_empty());
        // Answering after a skip counts as answered.
        let later = reduce(&skipped, PlayerAction::Answer(0));
        assert_eq!(later.predictions().get(&0), Some(&Prediction::Answered));
        // Without parts (the sandbox), Next never waits.
        assert_eq!(reduce(&player("lost-reply"), PlayerAction::Next).frame(), 1);
    }

    #[test]
    fn playback_stops_at_the_end() {
        let state = player("lost-reply");
        let last = state.frames().last();
        let mut playing = reduce(
            &reduce(&state, PlayerAction::Seek(last - 1)),
            PlayerAction::TogglePlay,
        );
        assert!(playing.playing());
        playing = reduce(&playing, PlayerAction::Tick);
        assert_eq!(playing.frame(), last);
        assert!(!playing.playing());
        let ignored = reduce(&playing, PlayerAction::Tick);
        assert!(
            Rc::ptr_eq(&ignored, &playing),
            "a late tick changes nothing"
        );
    }

    #[test]
    fn a_scenario_that_cannot_run_keeps_what_was_shown() {
        let state = player("lost-reply");
        let mut broken = (*state.designs()[0].scenario).clone();
        broken.workers.clear();
        let after = reduce(
            &state,
            PlayerAction::OpenCounterexample {
                scenario: broken,
                event: 3,
            },
        );
        assert!(after.notice().is_some());
        assert!(after.custom().is_none());
        assert_eq!(after.frame(), state.frame());
    }

    #[test]
    fn a_counterexample_opens_at_its_event() {
        let state = player("lost-reply");
        let design = &state.designs()[0];
        let report = lab_engine::Explorer::run((*design.scenario).clone(), design.explore.budget())
            .expect("explores");
        let counterexample = report.counterexample.expect("the unsafe design breaks");
        let opened = reduce(
            &state,
            PlayerAction::OpenCounterexample {
                scenario: counterexample.scenario.clone(),
                event: counterexample.events,
            },
        );
        let (design, cursor) = opened.located();
        assert_eq!((design, cursor), (0, counterexample.events));
        let trace = opened.trace();
        assert!(
            !trace.events[cursor as usize - 1].broke.is_empty(),
            "the event shown breaks an invariant"
        );
    }
}
