//! The sandbox's reader and writer of scenario text: the TOML reader and writer live in the lab's
//! second module (`lab_worker::Request::Read` and `Write`), so the first module holds no TOML
//! parser. One module for the sandbox page's life, asked one thing at a time; each request
//! carries a tag, and the answer comes back with what it was asked for.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use lab_course::scenario_text::TextError;
use lab_course::share::WholeScenario;
use lab_engine::Scenario;
use lab_worker::{Reply, Request};
use yew::Callback;

use crate::worker_module::{self, Heard, Module, Readiness};

/// What a request was for.
#[derive(Clone, Debug, PartialEq)]
pub enum Purpose {
    /// Reading the text box at this `text_revision`.
    Check { revision: u32 },
    /// Writing the scenario at this `scenario_revision`.
    Write { revision: u32 },
    /// Reading a chosen file.
    Import { name: String, text: String },
    /// Writing the running scenario for a download.
    Download,
}

/// The worker's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Read(Box<Result<Scenario, TextError>>),
    Written(String),
}

/// What the page hears: where the module is, and each answer with its purpose.
#[derive(Clone, Debug, PartialEq)]
pub enum Told {
    Readiness(Readiness),
    Answer(Purpose, Answer),
}

/// The sandbox's module and the requests it has not answered.
pub struct TextWorker {
    module: Module,
    pending: Rc<RefCell<Pending>>,
}

#[derive(Default)]
struct Pending {
    next: u32,
    asked: HashMap<u32, Purpose>,
}

impl TextWorker {
    /// A module for the sandbox (the spare one, if it is loading or ready).
    pub fn start(ontold: Callback<Told>) -> TextWorker {
        let module = worker_module::take();
        let pending = Rc::new(RefCell::new(Pending::default()));
        let onheard = {
            let pending = Rc::clone(&pending);
            Callback::from(move |heard: Heard| match heard {
                Heard::Ready => ontold.emit(Told::Readiness(Readiness::Ready)),
                Heard::Failed(why) => ontold.emit(Told::Readiness(Readiness::Failed(why))),
                Heard::Reply(reply) => {
                    let (tag, answer) = match reply {
                        Reply::Read { tag, result } => (tag, Answer::Read(Box::new(read(result)))),
                        Reply::Written {
                            tag,
                            text: Ok(text),
                        } => (tag, Answer::Written(text)),
                        Reply::Written { text: Err(why), .. } | Reply::Refused(why) => {
                            return ontold.emit(Told::Readiness(Readiness::Failed(why)))
                        }
                        _ => return,
                    };
                    let purpose = pending.borrow_mut().asked.remove(&tag);
                    if let Some(purpose) = purpose {
                        ontold.emit(Told::Answer(purpose, answer));
                    }
                }
            })
        };
        module.listen(onheard);
        TextWorker { module, pending }
    }

    pub fn readiness(&self) -> Readiness {
        self.module.readiness()
    }

    /// Asks the worker to read `text`.
    pub fn read(&self, text: &str, purpose: Purpose) {
        let tag = self.tag(purpose);
        self.module.send(&Request::Read {
            tag,
            text: text.to_string(),
        });
    }

    /// Asks the worker to write `scenario`.
    pub fn write(&self, scenario: &Scenario, purpose: Purpose) {
        let tag = self.tag(purpose);
        self.module.send(&Request::Write {
            tag,
            scenario: WholeScenario::of(scenario),
        });
    }

    fn tag(&self, purpose: Purpose) -> u32 {
        let mut pending = self.pending.borrow_mut();
        let tag = pending.next;
        pending.next = pending.next.wrapping_add(1);
        pending.asked.insert(tag, purpose);
        tag
    }
}

/// The scenario the worker read, as the page's engine reads its compact form.
fn read(result: Result<WholeScenario, TextError>) -> Result<Scenario, TextError> {
    result?.read().map_err(|error| TextError {
        line: 1,
        column: 1,
        message: error.to_string(),
    })
}
