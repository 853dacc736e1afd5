//! A search in the lab's second module, as a panel sees it: where it is (loading the module,
//! running with its progress, done with the findings, cancelled, failed) and how to start one.
//! The explorer's panel and a build task's board both search through it.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::share::WholeScenario;
use lab_engine::{Budget, Scenario};
use lab_worker::{Findings, Reply, Request};
use yew::prelude::*;

use crate::worker_module::{self, Heard, Module, Readiness};

/// How far a search has got: distinct states, engine steps, milliseconds.
pub(crate) type SoFar = Option<(u64, u64, f64)>;

/// Where a search is: shared by every panel that explores in the second module.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Status {
    Idle,
    /// The second module is still loading; the search starts as soon as it is ready.
    Loading {
        scenario: Arc<Scenario>,
    },
    Running {
        scenario: Arc<Scenario>,
        progress: SoFar,
    },
    Done {
        findings: Rc<Findings>,
        scenario: Arc<Scenario>,
    },
    Cancelled {
        progress: SoFar,
    },
    Failed(String),
}

pub(crate) enum ExploreAction {
    /// A search was asked for; whether the module was ready for it.
    Start {
        scenario: Arc<Scenario>,
        ready: bool,
    },
    Heard(Heard),
    Cancel,
}

impl Reducible for Status {
    type Action = ExploreAction;

    fn reduce(self: Rc<Self>, action: ExploreAction) -> Rc<Self> {
        let scenario = match &*self {
            Status::Loading { scenario } | Status::Running { scenario, .. } => Arc::clone(scenario),
            // What a module says after its search was cancelled or replaced is not news.
            _ => {
                return match action {
                    ExploreAction::Start { scenario, ready } => Rc::new(started(scenario, ready)),
                    _ => self,
                }
            }
        };
        let progress = match &*self {
            Status::Running { progress, .. } => *progress,
            _ => None,
        };
        Rc::new(match action {
            ExploreAction::Start { scenario, ready } => started(scenario, ready),
            ExploreAction::Cancel => Status::Cancelled { progress },
            ExploreAction::Heard(Heard::Ready) => Status::Running {
                scenario,
                progress: None,
            },
            ExploreAction::Heard(Heard::Reply(Reply::Progress {
                states,
                transitions,
                milliseconds,
            })) => Status::Running {
                scenario,
                progress: Some((states, transitions, milliseconds)),
            },
            ExploreAction::Heard(Heard::Reply(Reply::Explored(findings))) => Status::Done {
                findings: Rc::from(findings),
                scenario,
            },
            ExploreAction::Heard(Heard::Reply(Reply::Refused(words))) => Status::Failed(words),
            ExploreAction::Heard(Heard::Reply(
                Reply::Ready
                | Reply::Contended { .. }
                | Reply::Seeded { .. }
                | Reply::Counting { .. }
                | Reply::Judged(_)
                | Reply::Read { .. }
                | Reply::Written { .. }
                | Reply::Opened(_),
            )) => {
                return self
            }
            ExploreAction::Heard(Heard::Failed(words)) => Status::Failed(match &*self {
                Status::Loading { .. } => format!(
                    "The explorer could not be loaded: {words}. The lesson works without it; reload the page to try again."
                ),
                _ => format!("The explorer stopped: {words}. Ask again to start it anew."),
            }),
        })
    }
}

fn started(scenario: Arc<Scenario>, ready: bool) -> Status {
    match ready {
        true => Status::Running {
            scenario,
            progress: None,
        },
        false => Status::Loading { scenario },
    }
}

/// The module a component talks to: the one it has, unless that one failed, else a new one (the
/// spare when there is one). What it says goes to `onheard`.
pub(crate) fn module_for(
    slot: &mut Option<Module>,
    onheard: Callback<Heard>,
) -> (&Module, Readiness) {
    if slot
        .as_ref()
        .is_none_or(|module| matches!(module.readiness(), Readiness::Failed(_)))
    {
        *slot = Some(worker_module::take());
    }
    let module = slot.as_ref().expect("a module was just put there");
    module.listen(onheard);
    let readiness = module.readiness();
    (module, readiness)
}

/// The module each panel talks to, kept between its searches.
pub(crate) type Slot = Rc<std::cell::RefCell<Option<Module>>>;

/// Starts a search of `scenario` within `budget` in the panel's module; what it hears goes to
/// `status`.
pub(crate) fn search(
    status: &UseReducerHandle<Status>,
    module: &Slot,
    scenario: &Arc<Scenario>,
    budget: &Budget,
) {
    let dispatcher = status.dispatcher();
    let onheard = Callback::from(move |heard| dispatcher.dispatch(ExploreAction::Heard(heard)));
    let mut slot = module.borrow_mut();
    let (module, readiness) = module_for(&mut slot, onheard);
    module.send(&Request::Explore {
        scenario: WholeScenario::of(scenario),
        budget: budget.into(),
    });
    status.dispatch(ExploreAction::Start {
        scenario: Arc::clone(scenario),
        ready: readiness == Readiness::Ready,
    });
    if let Readiness::Failed(words) = readiness {
        status.dispatch(ExploreAction::Heard(Heard::Failed(words)));
    }
}
