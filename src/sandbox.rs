//! The sandbox's state: one scenario shown two ways, as forms and as TOML text, kept in step. The
//! lab always runs the last valid scenario; text that does not read keeps its errors beside it
//! until it does. The reducer does no IO: the TOML is read and written by the lab's second
//! module (`crate::text_worker`), whose answers come back as actions, and saving and the timer
//! that checks typed text are the page's effects. A change made in the forms runs at once; its
//! text follows when the worker has written it ([`Sandbox::writing`]).
//!
//! A scenario the learner did not make (a link opened, a counterexample the explorer found and
//! the learner opened) becomes the scenario the forms and the text show, so what they edit is
//! what the lab shows; the sandbox it replaced is kept beside it, with a way back, and is what
//! stays saved until the learner changes the scenario on show.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::scenario_text::TextError;
use lab_engine::{Operation, Run, Scenario, WorkerPlan, WorkflowKind};
use yew::Reducible;

use crate::store::SavedSandbox;

/// The sandbox as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sandbox {
    /// The scenario the lab runs: always a valid one.
    pub scenario: Arc<Scenario>,
    /// Counts changes of `scenario`, so the page re-runs the engine once per change without
    /// comparing whole scenarios.
    pub scenario_revision: u32,
    /// The TOML text in the text box, as the learner left it.
    pub text: Rc<str>,
    /// Counts changes of `text`, for the effect that checks it once typing pauses.
    pub text_revision: u32,
    /// Whether `text` has been read since it last changed.
    pub checked: bool,
    /// The scenario changed outside the text (the forms, a start, a link): `text` is the one
    /// before, until the worker's text of `scenario` comes ([`SandboxAction::Written`]).
    pub writing: bool,
    /// Why `text` is not the running scenario.
    pub error: Option<TextError>,
    /// Why the last edit in the forms was refused.
    pub form_error: Option<String>,
    /// What the last import did, in words: Ok for a file read, Err for a file refused.
    pub import: Option<Result<String, String>>,
    /// A scenario the learner did not make is on show, in place of their own.
    pub showing: Option<Showing>,
}

/// A scenario on show in place of the learner's own, until they change it or go back.
#[derive(Clone, Debug, PartialEq)]
pub struct Showing {
    pub what: Shown,
    /// The learner's sandbox as it was before.
    pub before: Rc<Sandbox>,
}

/// Where a scenario on show in place of the learner's came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// A link opened (the address names a sandbox scenario).
    Link,
    /// A counterexample "What could go wrong?" found, opened in the player.
    Counterexample,
}

/// What can happen to the sandbox.
#[derive(Clone, Debug, PartialEq)]
pub enum SandboxAction {
    /// A form changed the scenario, or the learner chose a design to start from.
    Edit(Scenario),
    /// The learner typed in the text box; the text is read when they pause.
    Type(String),
    /// What the worker read of the text at `revision` (of `text_revision`).
    Read {
        revision: u32,
        result: Result<Scenario, TextError>,
    },
    /// The worker's text of the scenario at `revision` (of `scenario_revision`).
    Written { revision: u32, text: String },
    /// A file the learner chose, with its name, and what the worker read of it.
    Imported {
        name: String,
        text: String,
        result: Result<Scenario, TextError>,
    },
    /// A chosen file could not be read at all; the message says why.
    ImportFailed(String),
    /// Show a scenario the learner did not make, keeping theirs to go back to.
    Show { scenario: Scenario, what: Shown },
    /// Back to the learner's own sandbox.
    Back,
}

/// The smallest scenario that runs: one operation, one worker, the default (safe) design.
pub fn blank(workflow: WorkflowKind) -> Scenario {
    Scenario {
        seed: 0,
        workflow,
        switches: Default::default(),
        provider: Default::default(),
        operations: vec![Operation {
            id: "OP-001".into(),
            ..Operation::default()
        }],
        workers: vec![WorkerPlan {
            name: "worker-1".into(),
            runs: vec![Run::of("OP-001")],
        }],
        faults: Vec::new(),
        schedule: Default::default(),
        step_cap: 500,
        program: None,
    }
}

impl Sandbox {
    /// A sandbox running `scenario`, its text to be written by the worker.
    pub fn new(scenario: Scenario) -> Sandbox {
        Sandbox {
            text: "".into(),
            scenario: Arc::new(scenario),
            scenario_revision: 0,
            text_revision: 0,
            checked: true,
            writing: true,
            error: None,
            form_error: None,
            import: None,
            showing: None,
        }
    }

    /// The sandbox as saved: its text as the learner left it, to be read again by the worker
    /// (so its errors show), and the scenario it ran. A first visit gets `start`, and so does a
    /// sandbox saved before scenarios were saved beside their text, until its text is read.
    pub fn restored(saved: &SavedSandbox, start: impl FnOnce() -> Scenario) -> Sandbox {
        if saved.text.is_empty() {
            return Sandbox::new(start());
        }
        let scenario = saved.scenario().unwrap_or_else(start);
        Sandbox {
            text: saved.text.as_str().into(),
            checked: false,
            writing: false,
            ..Sandbox::new(scenario)
        }
    }

    /// What to save: the text as the learner left it and the scenario the lab runs.
    pub fn saved(&self) -> SavedSandbox {
        SavedSandbox::new(&self.text, &self.scenario)
    }

    /// Whether the text and the scenario are settled, so saving them keeps both.
    pub fn settled(&self) -> bool {
        self.checked && !self.writing
    }

    /// `scenario` running; `text` its text, or None for the worker to write it.
    fn with_scenario(&self, scenario: Scenario, text: Option<Rc<str>>) -> Sandbox {
        Sandbox {
            scenario: Arc::new(scenario),
            scenario_revision: self.scenario_revision.wrapping_add(1),
            writing: text.is_none(),
            text: text.unwrap_or_else(|| Rc::clone(&self.text)),
            text_revision: self.text_revision.wrapping_add(1),
            checked: true,
            error: None,
            form_error: None,
            import: None,
            showing: None,
        }
    }

    /// Whether this state is the learner's to save (nothing is on show in place of theirs).
    pub fn saveable(&self) -> bool {
        self.showing.is_none()
    }
}

impl Reducible for Sandbox {
    type Action = SandboxAction;

    fn reduce(self: Rc<Self>, action: SandboxAction) -> Rc<Self> {
        match action {
            SandboxAction::Edit(scenario) => match scenario.validate() {
                Ok(()) => Rc::new(self.with_scenario(scenario, None)),
                Err(error) => Rc::new(Sandbox {
                    form_error: Some(format!("That change was not made: {error}.")),
                    ..(*self).clone()
                }),
            },
            SandboxAction::Written { revision, text }
                if self.writing && revision == self.scenario_revision =>
            {
                Rc::new(Sandbox {
                    text: text.into(),
                    text_revision: self.text_revision.wrapping_add(1),
                    writing: false,
                    ..(*self).clone()
                })
            }
            // An answer for a scenario or a text since replaced.
            SandboxAction::Written { .. } => self,
            SandboxAction::Type(text) => Rc::new(Sandbox {
                text: text.into(),
                text_revision: self.text_revision.wrapping_add(1),
                checked: false,
                writing: false,
                form_error: None,
                showing: None,
                ..(*self).clone()
            }),
            // The scenario on show already: a new lab, so it starts where the page asks
            // (a counterexample's breaking event).
            SandboxAction::Show { scenario, .. } if scenario == *self.scenario => Rc::new(Sandbox {
                scenario_revision: self.scenario_revision.wrapping_add(1),
                ..(*self).clone()
            }),
            SandboxAction::Show { scenario, what } => {
                let before = match &self.showing {
                    Some(showing) => Rc::clone(&showing.before),
                    None => Rc::clone(&self),
                };
                let mut next = self.with_scenario(scenario, None);
                next.showing = Some(Showing { what, before });
                Rc::new(next)
            }
            SandboxAction::Back => match &self.showing {
                None => self,
                // Revisions go on from here, so the lab is made anew and the text saved.
                Some(showing) => Rc::new(Sandbox {
                    scenario_revision: self.scenario_revision.wrapping_add(1),
                    text_revision: self.text_revision.wrapping_add(1),
                    ..(*showing.before).clone()
                }),
            },
            SandboxAction::Read { revision, .. }
                if self.checked || revision != self.text_revision =>
            {
                self
            }
            SandboxAction::Read { result, .. } => match result {
                // Unchanged in effect (white space, comments): the run stays as it is.
                Ok(scenario) if scenario == *self.scenario => Rc::new(Sandbox {
                    checked: true,
                    error: None,
                    ..(*self).clone()
                }),
                Ok(scenario) => {
                    let text = Rc::clone(&self.text);
                    Rc::new(Sandbox {
                        text_revision: self.text_revision,
                        ..self.with_scenario(scenario, Some(text))
                    })
                }
                Err(error) => Rc::new(Sandbox {
                    checked: true,
                    error: Some(error),
                    ..(*self).clone()
                }),
            },
            SandboxAction::ImportFailed(message) => Rc::new(Sandbox {
                import: Some(Err(message)),
                ..(*self).clone()
            }),
            SandboxAction::Imported { name, text, result } => match result {
                Ok(scenario) => {
                    let mut next = self.with_scenario(scenario, Some(text.into()));
                    next.import = Some(Ok(format!("Imported {name}.")));
                    Rc::new(next)
                }
                Err(error) => Rc::new(Sandbox {
                    import: Some(Err(format!(
                        "{name} was not imported: at line {}, column {}: {}. Your scenario is unchanged.",
                        error.line,
                        error.column,
                        crate::components::scenario_text::one_line(&error.message)
                    ))),
                    ..(*self).clone()
                }),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lab_course::scenario_text;

    fn reduce(state: &Rc<Sandbox>, action: SandboxAction) -> Rc<Sandbox> {
        Rc::clone(state).reduce(action)
    }

    /// The state once the worker has answered what it asks: the text written, or read.
    fn answered(state: Rc<Sandbox>) -> Rc<Sandbox> {
        if state.writing {
            let text = scenario_text::write(&state.scenario);
            let revision = state.scenario_revision;
            return reduce(&state, SandboxAction::Written { revision, text });
        }
        if !state.checked {
            let result = scenario_text::parse(&state.text);
            let revision = state.text_revision;
            return reduce(&state, SandboxAction::Read { revision, result });
        }
        state
    }

    fn start() -> Rc<Sandbox> {
        answered(Rc::new(Sandbox::new(blank(WorkflowKind::Reserve))))
    }

    #[test]
    fn a_form_edit_runs_at_once_and_its_text_follows() {
        let state = start();
        let mut scenario = (*state.scenario).clone();
        scenario.seed = 42;
        let next = reduce(&state, SandboxAction::Edit(scenario.clone()));
        assert_eq!(*next.scenario, scenario);
        assert_ne!(next.scenario_revision, state.scenario_revision);
        assert!(
            next.writing && !next.settled(),
            "the text is the worker's to write"
        );
        assert_eq!(
            next.text, state.text,
            "the text before, until the worker's comes"
        );
        // An answer for an earlier scenario changes nothing.
        let stale = reduce(
            &next,
            SandboxAction::Written {
                revision: state.scenario_revision,
                text: "stale".into(),
            },
        );
        assert_eq!(stale, next);
        let written = answered(next);
        assert!(written.text.contains("seed = 42"), "{}", written.text);
        assert!(written.settled());
    }

    #[test]
    fn a_form_edit_the_engine_refuses_changes_nothing() {
        let state = start();
        let mut scenario = (*state.scenario).clone();
        scenario.workers.clear();
        let next = reduce(&state, SandboxAction::Edit(scenario));
        assert_eq!(next.scenario, state.scenario);
        assert_eq!(next.text, state.text);
        assert!(next.form_error.as_deref().unwrap().contains("no workers"));
    }

    #[test]
    fn typed_text_is_read_by_the_worker_and_errors_keep_the_last_valid_scenario() {
        let state = start();
        let typed = state.text.replace("seed = 0", "seed = 9");
        let typing = reduce(&state, SandboxAction::Type(typed));
        assert_eq!(
            typing.scenario, state.scenario,
            "not read before the worker answers"
        );
        // What the worker read of an earlier text is not this text's reading.
        let earlier = reduce(
            &typing,
            SandboxAction::Read {
                revision: state.text_revision,
                result: Ok(blank(WorkflowKind::Notify)),
            },
        );
        assert_eq!(earlier, typing);
        let read = answered(typing);
        assert_eq!(read.scenario.seed, 9);
        assert_eq!(read.error, None);

        let broken = read.text.replace("seed = 9", "seed = nine");
        let typing = reduce(&read, SandboxAction::Type(broken.clone()));
        let refused = answered(typing);
        assert_eq!(
            refused.scenario, read.scenario,
            "the last valid scenario runs"
        );
        assert_eq!(&*refused.text, broken.as_str(), "the typed text is kept");
        assert_eq!(refused.error.as_ref().map(|error| error.line), Some(1));
    }

    #[test]
    fn a_bad_import_changes_nothing_and_says_where() {
        let state = start();
        let text = "workflow = \"reserve\"\nseed = -\n".to_string();
        let next = reduce(
            &state,
            SandboxAction::Imported {
                name: "mine.toml".into(),
                result: scenario_text::parse(&text),
                text,
            },
        );
        assert_eq!(next.scenario, state.scenario);
        assert_eq!(next.text, state.text);
        let message = next.import.clone().unwrap().unwrap_err();
        assert!(
            message.starts_with("mine.toml was not imported: at line 2, column"),
            "{message}"
        );
    }

    #[test]
    fn a_scenario_on_show_is_edited_as_the_learners_and_the_way_back_keeps_theirs() {
        let state = start();
        let mut found = (*state.scenario).clone();
        found.seed = 99;
        let shown = answered(reduce(
            &state,
            SandboxAction::Show {
                scenario: found.clone(),
                what: Shown::Counterexample,
            },
        ));
        assert_eq!(*shown.scenario, found, "the forms show it");
        assert!(shown.text.contains("seed = 99"), "{}", shown.text);
        assert!(!shown.saveable(), "the learner's stays saved");
        assert_eq!(
            shown.showing.as_ref().unwrap().before.scenario,
            state.scenario
        );
        // Another one on show: back still goes to the learner's own.
        found.seed = 100;
        let again = reduce(
            &shown,
            SandboxAction::Show {
                scenario: found,
                what: Shown::Link,
            },
        );
        let back = reduce(&again, SandboxAction::Back);
        assert_eq!(back.scenario, state.scenario);
        assert_eq!(back.text, state.text);
        assert!(back.saveable() && back.settled());
        assert_ne!(back.scenario_revision, again.scenario_revision);
        // A change to the scenario on show makes it the learner's.
        let mut edited = (*shown.scenario).clone();
        edited.step_cap = 77;
        let mine = reduce(&shown, SandboxAction::Edit(edited));
        assert!(mine.saveable());
        assert_eq!(reduce(&mine, SandboxAction::Back), mine);
    }

    #[test]
    fn saved_and_restored_it_is_the_same_sandbox() {
        let state = start();
        let typing = reduce(&state, SandboxAction::Type("workflow = ".into()));
        let refused = answered(typing);
        let restored = Sandbox::restored(&refused.saved(), || unreachable!("saved"));
        assert_eq!(
            restored.scenario, refused.scenario,
            "without reading the text"
        );
        assert_eq!(restored.text, refused.text);
        let read = answered(Rc::new(restored));
        assert_eq!(read.error, refused.error);
        assert_eq!(read.scenario, refused.scenario);
    }
}
