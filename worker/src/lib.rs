//! The lab's second WebAssembly module, run as a Web Worker (`src/main.rs`), and the messages the
//! page and it exchange. The page's first module holds what a lesson needs to step and flip; the
//! explorer lives here, so a search never runs on the page's thread: the page posts a
//! [`Request`], the worker answers with [`Reply`]s, each one postcard message, and Cancel ends
//! the worker (the page makes another). A scenario travels in the share codec's compact form
//! ([`WholeScenario`]), since the engine's own serde form is for self-describing formats. Both
//! modules read one [`clock`]. The sandbox's TOML is read and written here too
//! ([`Request::Read`], [`Request::Write`]), so the page's module holds no TOML parser; the
//! worker's own work ([`answer`]) is behind the feature `module`, which the page leaves off.

pub mod clock;

use lab_course::build_task::Judged;
#[cfg(feature = "module")]
use lab_course::challenge;
use lab_course::challenge::Challenge;
use lab_course::rich::Rich;
use lab_course::scenario_text::TextError;
use lab_course::share::{ShareError, WholeScenario};
#[cfg(feature = "module")]
use lab_engine::Explorer;
use lab_engine::{Budget, Contention, Extent, FaultKind, PolicyRun, Report, Scenario, Seeds};
use serde::{Deserialize, Serialize};

/// What the page asks of the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Explore every schedule of a scenario within a budget: [`Reply::Progress`] as it goes,
    /// then [`Reply::Explored`] (or [`Reply::Refused`]).
    Explore {
        scenario: WholeScenario,
        budget: Limits,
    },
    /// Run every retry policy in one contention experiment (the retry lab):
    /// [`Reply::Contended`] (or [`Reply::Refused`]).
    Contend(Contention),
    /// Run every retry policy from many seeds, the experiment's and the ones after it:
    /// [`Reply::Seeded`] (or [`Reply::Refused`]).
    ContendSeeds { spec: Contention, seeds: u32 },
    /// Hold an instructor's challenge to every promise `lab check` holds a build task to, count
    /// the arrangements that hold, and write it as a lesson file: [`Reply::Counting`] as it
    /// goes, then [`Reply::Judged`].
    Judge(Box<Challenge>),
    /// A learner opens a challenge: is it one the learner can solve (its answer holds, its start
    /// does not), and its texts to draw: [`Reply::Opened`].
    Open(Box<Challenge>),
    /// Read a scenario's TOML text (the sandbox's text box, a chosen file): [`Reply::Read`]
    /// with the same tag.
    Read { tag: u32, text: String },
    /// Write a scenario as TOML text: [`Reply::Written`] with the same tag.
    Write { tag: u32, scenario: WholeScenario },
}

/// The worker's answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has started and reads requests.
    Ready,
    /// How far a search has got.
    Progress {
        states: u64,
        transitions: u64,
        /// Milliseconds spent searching so far.
        milliseconds: f64,
    },
    /// A search ended: what it found.
    Explored(Box<Findings>),
    /// A contention experiment's runs, one per policy in `Policy::ALL` order.
    Contended {
        spec: Contention,
        runs: Vec<PolicyRun>,
        /// Milliseconds the worker spent on all of them.
        milliseconds: f64,
    },
    /// Every policy's mean and spread over many seeds.
    Seeded {
        seeds: Seeds,
        /// Milliseconds the worker spent on them.
        milliseconds: f64,
    },
    /// How many of a challenge's arrangements are explored, of how many.
    Counting { done: u64, total: u64 },
    /// What a challenge's checks found.
    Judged(Box<Judgement>),
    /// A challenge as a learner opens it.
    Opened(Box<Opening>),
    /// The scenario a text describes, or where and why it does not read.
    Read {
        tag: u32,
        result: Result<WholeScenario, TextError>,
    },
    /// A scenario's TOML text, or why the scenario sent cannot be written.
    Written {
        tag: u32,
        text: Result<String, String>,
    },
    /// The request cannot be carried out; the words say why.
    Refused(String),
}

/// A challenge's texts, drawn from the instructor's Markdown as text ([`Rich`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Texts {
    pub brief: Rich,
    pub hints: Vec<Rich>,
}

impl Texts {
    #[cfg(feature = "module")]
    pub fn of(challenge: &Challenge) -> Texts {
        Texts {
            brief: lab_course::markdown::rich(&challenge.brief),
            hints: challenge
                .hints
                .iter()
                .map(|hint| lab_course::markdown::rich(hint))
                .collect(),
        }
    }
}

/// What the builder's check found of a challenge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub texts: Texts,
    /// The figures and the lesson file, or the first broken promise in words.
    pub verdict: Result<Approved, String>,
    /// Milliseconds the worker spent.
    pub milliseconds: f64,
}

/// A challenge that keeps its promises, approved for sharing: what the checks found of its
/// build task, and the challenge as a lesson file `lab check` accepts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Approved {
    pub judged: Judged,
    pub lesson: String,
}

/// A challenge as a learner opens it: its texts, or why it cannot be solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    pub texts: Texts,
    pub problem: Option<String>,
}

/// A search's limits: [`Budget`], field for field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub faults_max: u32,
    pub preemptions_max: u32,
    pub kinds: Option<Vec<FaultKind>>,
    pub transitions_max: u64,
}

impl From<&Budget> for Limits {
    fn from(budget: &Budget) -> Limits {
        Limits {
            faults_max: budget.faults_max,
            preemptions_max: budget.preemptions_max,
            kinds: budget.kinds.clone(),
            transitions_max: budget.transitions_max,
        }
    }
}

impl From<Limits> for Budget {
    fn from(limits: Limits) -> Budget {
        Budget {
            faults_max: limits.faults_max,
            preemptions_max: limits.preemptions_max,
            kinds: limits.kinds,
            transitions_max: limits.transitions_max,
        }
    }
}

/// What a search found: the engine's [`Report`] as the explorer panel shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// How far the search went, within what budget: the report's own.
    pub extent: Extent,
    /// Every property's statement and whether it holds, in `Property::ALL` order.
    pub verdicts: Vec<VerdictInWords>,
    /// The shortest schedule that breaks any invariant.
    pub counterexample: Option<FoundSchedule>,
    /// Milliseconds the worker spent searching.
    pub milliseconds: f64,
}

/// One property over the whole search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerdictInWords {
    pub statement: String,
    pub holds: bool,
    /// Whether the scenario's runs can break it at all: the explorer's panel lists only these.
    pub applies: bool,
}

/// The shortest counterexample: a scenario that replays it, and the event that breaks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FoundSchedule {
    pub scenario: WholeScenario,
    pub events: u32,
    /// The schedule in words.
    pub description: String,
}

impl Findings {
    pub fn of(report: &Report, milliseconds: f64) -> Findings {
        Findings {
            extent: report.extent,
            verdicts: report
                .properties
                .iter()
                .map(|verdict| VerdictInWords {
                    statement: verdict.property.statement().to_string(),
                    holds: verdict.holds,
                    applies: verdict.applies,
                })
                .collect(),
            counterexample: report.counterexample.as_ref().map(|found| FoundSchedule {
                scenario: WholeScenario::of(&found.scenario),
                events: found.events,
                description: found.description.clone(),
            }),
            milliseconds,
        }
    }
}

impl FoundSchedule {
    /// The scenario that replays the counterexample.
    pub fn scenario(&self) -> Result<Scenario, ShareError> {
        self.scenario.read()
    }
}

/// A message as the bytes posted.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    postcard::to_allocvec(message).expect("postcard writes every message")
}

/// The message in posted bytes.
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, postcard::Error> {
    postcard::from_bytes(bytes)
}

/// Engine steps between two looks at the clock.
#[cfg(feature = "module")]
const TRANSITIONS_PER_CHECK: u32 = 500;
/// Milliseconds between two progress replies: the page's progress line moves as a person reads it.
#[cfg(feature = "module")]
const PROGRESS_MILLISECONDS: f64 = 100.0;

#[cfg(feature = "module")]
/// Carries out one request, posting every reply; `now` is a clock in milliseconds.
pub fn answer(request: Request, now: impl Fn() -> f64, mut post: impl FnMut(&Reply)) {
    match request {
        Request::Explore { scenario, budget } => {
            let explorer =
                scenario
                    .read()
                    .map_err(|error| error.to_string())
                    .and_then(|scenario| {
                        Explorer::new(scenario, budget.into()).map_err(|error| error.to_string())
                    });
            let mut explorer = match explorer {
                Ok(explorer) => explorer,
                Err(error) => {
                    return post(&Reply::Refused(format!(
                        "The explorer cannot run this scenario: {error}"
                    )))
                }
            };
            let start = now();
            let mut told = start;
            while !explorer.advance(TRANSITIONS_PER_CHECK) {
                let at = now();
                if at - told >= PROGRESS_MILLISECONDS {
                    told = at;
                    let progress = explorer.progress();
                    post(&Reply::Progress {
                        states: progress.states,
                        transitions: progress.transitions,
                        milliseconds: at - start,
                    });
                }
            }
            let findings = Findings::of(&explorer.report(), now() - start);
            post(&Reply::Explored(Box::new(findings)));
        }
        Request::Judge(challenge) => {
            let start = now();
            let mut told = start;
            let verdict = judge(&challenge, |done, total| {
                let at = now();
                if at - told >= PROGRESS_MILLISECONDS {
                    told = at;
                    post(&Reply::Counting { done, total });
                }
            });
            post(&Reply::Judged(Box::new(Judgement {
                texts: Texts::of(&challenge),
                verdict,
                milliseconds: now() - start,
            })));
        }
        Request::Open(challenge) => {
            let within = challenge.budget_words();
            let problem = challenge.open().and_then(|opened| {
                opened
                    .task()
                    .verify(&challenge.wording(&within))
                    .map(|_| ())
            });
            post(&Reply::Opened(Box::new(Opening {
                texts: Texts::of(&challenge),
                problem: problem.err(),
            })));
        }
        Request::Read { tag, text } => post(&Reply::Read {
            tag,
            result: lab_course::scenario_text::parse(&text)
                .map(|scenario| WholeScenario::of(&scenario)),
        }),
        Request::Write { tag, scenario } => post(&Reply::Written {
            tag,
            text: scenario
                .read()
                .map(|scenario| lab_course::scenario_text::write(&scenario))
                .map_err(|error| format!("the scenario sent cannot be written: {error}")),
        }),
        Request::Contend(spec) | Request::ContendSeeds { spec, .. } if spec.check().is_err() => {
            let error = spec.check().err().unwrap_or_default();
            post(&Reply::Refused(format!(
                "The contention experiment cannot run: {error}"
            )));
        }
        Request::ContendSeeds { spec, seeds } => {
            let start = now();
            let seeds = spec.run_seeds(&lab_engine::Policy::ALL, seeds);
            post(&Reply::Seeded {
                seeds,
                milliseconds: now() - start,
            });
        }
        Request::Contend(spec) => {
            let start = now();
            let runs = spec.run_all();
            post(&Reply::Contended {
                spec,
                runs,
                milliseconds: now() - start,
            });
        }
    }
}

#[cfg(feature = "module")]
/// A challenge held to its promises, its arrangements counted, and written as a lesson file
/// whose one design is declared safe or unsafe as the explorer finds it.
fn judge(challenge: &Challenge, counted: impl FnMut(u64, u64)) -> Result<Approved, String> {
    let opened = challenge.open()?;
    let within = challenge.budget_words();
    let judged = opened.task().judge(
        challenge::ARRANGEMENTS_MAX,
        &challenge.wording(&within),
        counted,
    )?;
    let mut shown = opened.scenario.clone();
    let start = lab_course::build_task::program_of(&challenge.start);
    if start.structure(&shown.offered()).is_ok() {
        shown.program = Some(start);
    }
    let report = Explorer::run(shown, opened.build.explore.budget())
        .map_err(|error| format!("the design cannot run: {error}"))?;
    if !report.extent.complete {
        return Err("the explorer's step limit cut the search of the design as it opens: make the scenario smaller or the budget lower".into());
    }
    let safe = report.counterexample.is_none();
    Ok(Approved {
        judged,
        lesson: challenge::lesson::text(challenge, safe)?,
    })
}

#[cfg(all(test, feature = "module"))]
mod tests {
    use super::*;

    fn explore(scenario: &Scenario, budget: &Budget) -> Vec<Reply> {
        replies_to(Request::Explore {
            scenario: WholeScenario::of(scenario),
            budget: budget.into(),
        })
    }

    #[test]
    fn a_search_in_the_worker_finds_what_the_engine_finds() {
        let scenario = lab_engine::BatchSpec::reference(3).scenario();
        let budget = Budget {
            faults_max: 1,
            ..Budget::default()
        };
        let report = Explorer::run(scenario.clone(), budget.clone()).expect("explores");
        let replies = explore(&scenario, &budget);
        let Some(Reply::Explored(findings)) = replies.last() else {
            panic!("the last reply is the findings: {replies:?}");
        };
        assert_eq!(**findings, Findings::of(&report, 0.0));
        if let (Some(found), Some(expected)) = (&findings.counterexample, &report.counterexample) {
            assert_eq!(found.scenario().expect("replays"), expected.scenario);
        }
    }

    #[test]
    fn a_contention_experiment_in_the_worker_is_the_engine_s() {
        let spec = Contention {
            clients: 20,
            ..Contention::default()
        };
        assert_eq!(
            replies_to(Request::Contend(spec.clone())),
            [Reply::Contended {
                runs: spec.run_all(),
                spec,
                milliseconds: 0.0
            }]
        );
    }

    #[test]
    fn many_seeds_in_the_worker_are_the_engine_s_and_a_bad_experiment_is_refused() {
        let spec = Contention {
            clients: 10,
            ..Contention::default()
        };
        assert_eq!(
            replies_to(Request::ContendSeeds {
                spec: spec.clone(),
                seeds: 3
            }),
            [Reply::Seeded {
                seeds: spec.run_seeds(&lab_engine::Policy::ALL, 3),
                milliseconds: 0.0
            }]
        );
        let wrong = Contention {
            capacity_per_tick: Some(3),
            ..spec
        };
        assert!(matches!(
            replies_to(Request::Contend(wrong)).as_slice(),
            [Reply::Refused(words)] if words.contains("capacity_per_tick is read only by model")
        ));
    }

    #[test]
    fn a_scenario_is_read_and_written_as_the_sandbox_s_text() {
        let scenario = lab_engine::BatchSpec::reference(3).scenario();
        let text = lab_course::scenario_text::write(&scenario);
        let replies = replies_to(Request::Write {
            tag: 7,
            scenario: WholeScenario::of(&scenario),
        });
        assert_eq!(
            replies,
            [Reply::Written {
                tag: 7,
                text: Ok(text.clone())
            }]
        );
        let replies = replies_to(Request::Read { tag: 8, text });
        let [Reply::Read {
            tag: 8,
            result: Ok(read),
        }] = replies.as_slice()
        else {
            panic!("{replies:?}");
        };
        assert_eq!(read.read(), Ok(scenario));
        let replies = replies_to(Request::Read {
            tag: 9,
            text: "workflow = \"reserve\"\nseed = -\n".into(),
        });
        let [Reply::Read {
            tag: 9,
            result: Err(error),
        }] = replies.as_slice()
        else {
            panic!("{replies:?}");
        };
        assert_eq!(error.line, 2, "{error}");
    }

    #[test]
    fn a_scenario_the_explorer_cannot_run_is_refused_in_words() {
        let mut scenario = lab_engine::BatchSpec::reference(3).scenario();
        scenario.workers.clear();
        let replies = explore(&scenario, &Budget::default());
        assert!(
            matches!(replies.as_slice(), [Reply::Refused(words)] if words.starts_with("The explorer cannot run")),
            "{replies:?}"
        );
    }

    /// Lesson 03's tracker task, as an instructor could have made it.
    fn tracker_challenge() -> Challenge {
        let scenario: Scenario = serde_json::from_str(
            r#"{"workflow":"notify","operations":[{"id":"order-17","payload":{"status":"shipped"}}],
                "workers":[{"name":"worker","runs":[{"op":"order-17"},{"op":"order-17"}]}],
                "faults":[{"fault":"lose_reply","at":"table.write","nth":1}]}"#,
        )
        .expect("a scenario");
        let mut challenge = Challenge::draft(&scenario);
        challenge.title = "Guard the notification".into();
        challenge.brief = "Send it **once**.".into();
        challenge.reference = lab_engine::Program::parse(
            "try\n  if_not_done\n    send_notification\n    mark_done_after\n  save_upsert\nexcept_all\n  return_unknown\nreturn_done\n",
        )
        .expect("parses");
        challenge.start = lab_engine::Program::parse(
            "try\n  send_notification\n  save_upsert\nexcept_all\n  return_unknown\nreturn_done\n",
        )
        .expect("parses")
        .lines
        .iter()
        .map(|line| lab_course::Placed {
            block: line.block,
            depth: line.depth,
            locked: line.block != lab_engine::Block::SendNotification,
        })
        .collect();
        challenge.explore.kinds = vec![FaultKind::LoseRequest, FaultKind::Busy];
        challenge.with_distractors(&[lab_engine::Block::MarkDoneBefore])
    }

    /// What the worker replies to `request`, each as posted bytes read back.
    fn replies_to(request: Request) -> Vec<Reply> {
        let request = decode(&encode(&request)).expect("reads back");
        let mut replies = Vec::new();
        answer(
            request,
            || 0.0,
            |reply| replies.push(decode(&encode(reply)).expect("reads back")),
        );
        replies
    }

    #[test]
    fn a_challenge_is_judged_and_written_as_a_lesson() {
        let challenge = tracker_challenge();
        let replies = replies_to(Request::Judge(Box::new(challenge)));
        let Some(Reply::Judged(judgement)) = replies.last() else {
            panic!("{replies:?}");
        };
        let approved = judgement.verdict.as_ref().expect("it keeps its promises");
        assert!(approved.judged.figures.hold >= 1, "{approved:?}");
        assert!(
            approved.judged.figures.hold < approved.judged.figures.arrangements,
            "{approved:?}"
        );
        assert!(approved.judged.start_breaks.is_some());
        assert!(
            approved.lesson.contains("kind = \"unsafe\""),
            "{}",
            approved.lesson
        );
        assert_eq!(judgement.texts.brief.plain(), "Send it once.");
    }

    #[test]
    fn a_challenge_whose_answer_breaks_opens_with_its_problem() {
        let mut challenge = tracker_challenge();
        let replies = replies_to(Request::Open(Box::new(challenge.clone())));
        assert!(
            matches!(replies.as_slice(), [Reply::Opened(opening)] if opening.problem.is_none()),
            "{replies:?}"
        );
        // The start as the answer: it breaks.
        challenge.reference = lab_course::build_task::program_of(&challenge.start);
        challenge = challenge.clone().with_distractors(&[]);
        let replies = replies_to(Request::Open(Box::new(challenge)));
        let [Reply::Opened(opening)] = replies.as_slice() else {
            panic!("{replies:?}");
        };
        let problem = opening.problem.as_deref().unwrap_or_default();
        assert!(
            problem.starts_with("the answer does not hold within 2 faults (lose_request, busy)"),
            "{problem}"
        );
    }
}
