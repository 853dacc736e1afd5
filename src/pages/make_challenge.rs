//! The challenge builder (`#/make-challenge/…`), for instructors: a scenario from the sandbox
//! becomes a task for a class. The instructor writes a title and a brief, arranges the answer and
//! the start on two boards (locking the lines learners get in place), picks the distractors, the
//! goal and the budget, and presses **Check the challenge**: the second module holds it to every
//! promise `lab check` holds a lesson's build task to, and counts the arrangements that hold.
//! Only then is it shared: a link, an embed, and a lesson file for `lessons/`. The draft lives in
//! the address (a reload keeps it) and among the saved drafts, so leaving never loses it.

use std::rc::Rc;
use std::sync::Arc;

use lab_course::challenge::{Challenge, Job, FAULTS_MAX, HINTS_MAX, PREEMPTIONS_MAX};
use lab_course::share::{decode, encode, encode_within, Shared, LINK_CHARS_MAX};
use lab_course::Placed;
use lab_engine::{FaultKind, Invariant, Program, Scenario, WorkflowKind};
use lab_worker::{Judgement, Reply, Request};
use yew::prelude::*;
use yew_router::prelude::*;

use crate::board::{locked_lines, locked_of, words};
use crate::components::board::Board;
use crate::components::completion::VerifyCode;
use crate::components::fields::{CheckField, SelectField, TextAreaField, TextField};
use crate::components::rich::rich;
use crate::components::share::Share;
use crate::components::waiting::Waiting;
use crate::course::{use_lesson, Loaded, OUTLINE};
use crate::format::{count, thousands};
use crate::player::absolute;
use crate::route::Route;
use crate::search::{module_for, Slot};
use crate::store::{load_drafts, save_drafts};
use crate::worker_module::Heard;

#[derive(Properties, PartialEq)]
pub struct MakeChallengePageProps {
    /// The draft the address holds, as `lab_course::share` encodes it; none for the last draft.
    pub state: Option<AttrValue>,
}

/// The address of a draft.
pub fn draft_route(draft: &Challenge) -> Route {
    Route::MakeChallengeDraft {
        state: encode(&Shared::Challenge(Box::new(draft.clone()))),
    }
}

/// A draft from a scenario (the sandbox's "Make a challenge" sends one here).
pub fn route_from(scenario: &Scenario) -> Route {
    draft_route(&Challenge::draft(scenario))
}

/// The draft a link holds.
fn read(state: &str) -> Result<Challenge, String> {
    match decode(state) {
        Ok(Shared::Challenge(challenge)) => Ok(*challenge),
        Ok(_) => Err("it is a link to something else".into()),
        Err(error) => Err(error.to_string()),
    }
}

/// Where the first draft comes from when there is none: the course's first build task's design
/// (its lesson, and the design's index), or else the first lesson's first design.
fn first_design() -> (&'static str, usize) {
    OUTLINE
        .lessons
        .iter()
        .find_map(|lesson| Some((lesson.id, lesson.build? as usize)))
        .unwrap_or((OUTLINE.lessons[0].id, 0))
}

/// Where the check of a draft is.
#[derive(Clone, PartialEq)]
enum Checking {
    Idle,
    /// Started, for this draft: arrangements explored of how many, once counting.
    Running {
        draft: Rc<Challenge>,
        counted: Option<(u64, u64)>,
    },
    Done {
        draft: Rc<Challenge>,
        judgement: Rc<Judgement>,
    },
    Cancelled,
    Failed(String),
}

#[component]
pub fn MakeChallengePage(props: &MakeChallengePageProps) -> Html {
    // The address's draft or the last one saved, when there is one; else the first draft, from
    // a lesson's file. Decided once: the page writes its draft to the address as it goes.
    let needs_first = use_memo((), |_| {
        props
            .state
            .as_deref()
            .map(read)
            .is_none_or(|read| read.is_err())
            && load_drafts().0.read().is_empty()
    });
    let state = props.state.clone();
    if *needs_first {
        html! { <FirstDraft {state} /> }
    } else {
        html! { <Drafting {state} first={None::<Rc<Challenge>>} /> }
    }
}

/// The builder once the first draft's lesson is read.
#[component]
fn FirstDraft(props: &MakeChallengePageProps) -> Html {
    let (lesson, design) = first_design();
    let (loaded, retry) = use_lesson(lesson);
    let body = match loaded {
        Loaded::Ready(lesson) => {
            let first = lesson
                .designs
                .get(design)
                .map(|design| Rc::new(Challenge::draft(&design.scenario)));
            return html! { <Drafting state={props.state.clone()} {first} /> };
        }
        loaded => html! {
            <Waiting {loaded} {retry} loading="Loading the first draft…"
                failed="The first draft comes from a lesson, which could not be loaded" />
        },
    };
    html! {
        <main id="main" tabindex="-1" class="page make-challenge">
            <h1>{ "Make a challenge" }</h1>
            { body }
        </main>
    }
}

#[derive(Properties, PartialEq)]
struct DraftingProps {
    state: Option<AttrValue>,
    /// The draft when the address holds none and none is saved.
    first: Option<Rc<Challenge>>,
}

#[component]
fn Drafting(props: &DraftingProps) -> Html {
    let navigator = use_navigator();
    let saved = use_mut_ref(load_drafts);
    let notices = use_state(|| {
        saved
            .borrow()
            .1
            .clone()
            .into_iter()
            .collect::<Vec<String>>()
    });
    let draft = {
        let state = props.state.clone();
        let first = props.first.clone();
        let saved = Rc::clone(&saved);
        let notices = notices.clone();
        use_state(move || {
            let last = || {
                saved
                    .borrow()
                    .0
                    .read()
                    .into_iter()
                    .next()
                    .or_else(|| first.as_deref().cloned())
                    .unwrap_or_else(|| {
                        Challenge::draft(&crate::sandbox::blank(WorkflowKind::Charge))
                    })
            };
            match state.as_deref().map(read) {
                None => last(),
                Some(Ok(draft)) => draft,
                Some(Err(problem)) => {
                    let mut said = (*notices).clone();
                    said.push(format!(
                        "This draft link cannot be opened: {problem}. Showing your last draft instead."
                    ));
                    notices.set(said);
                    last()
                }
            }
        })
    };
    // The address the page last wrote: another one (back, forward, a pasted link) is news.
    let written = use_mut_ref(|| props.state.as_deref().map(str::to_string));
    {
        let navigator = navigator.clone();
        let draft = draft.clone();
        let written = Rc::clone(&written);
        use_effect_with(props.state.clone(), move |state| {
            let known = written.borrow().clone();
            match state.as_deref() {
                None => {
                    if let Some(navigator) = &navigator {
                        let route = draft_route(&draft);
                        if let Route::MakeChallengeDraft { state } = &route {
                            *written.borrow_mut() = Some(state.clone());
                        }
                        navigator.replace(&route);
                    }
                }
                Some(state) if known.as_deref() != Some(state) => {
                    *written.borrow_mut() = Some(state.to_string());
                    if let Ok(read) = read(state) {
                        draft.set(read);
                    }
                }
                Some(_) => {}
            }
        });
    }
    let onchange = {
        let draft = draft.clone();
        let saved = Rc::clone(&saved);
        let written = Rc::clone(&written);
        let notices = notices.clone();
        Callback::from(move |next: Challenge| {
            if next == *draft {
                return;
            }
            let drafts = saved.borrow().0.updated(&draft, &next);
            if let Err(error) = save_drafts(&drafts) {
                notices.set(vec![format!(
                    "Your draft could not be saved in this browser ({error}); its address still holds it: bookmark it or copy it."
                )]);
            }
            saved.borrow_mut().0 = drafts;
            let route = draft_route(&next);
            if let Route::MakeChallengeDraft { state } = &route {
                *written.borrow_mut() = Some(state.clone());
            }
            if let Some(navigator) = &navigator {
                navigator.replace(&route);
            }
            draft.set(next);
        })
    };
    let others: Vec<Challenge> = saved
        .borrow()
        .0
        .read()
        .into_iter()
        .filter(|other| *other != *draft)
        .collect();
    html! {
        <main id="main" tabindex="-1" class="page make-challenge">
            <nav class="breadcrumb" aria-label="Breadcrumb">
                <Link<Route> to={Route::Home}>{ "Course" }</Link<Route>>
                <span aria-hidden="true">{ " / " }</span>
                <span aria-current="page">{ "Make a challenge" }</span>
            </nav>
            <h1>{ "Make a challenge" }</h1>
            <p class="lead">{ "Turn a scenario into a task for your class. Learners arrange blocks into a program that must hold under every schedule of the faults you choose. Before you share it, the page checks it as the course's own tasks are checked." }</p>
            { for notices.iter().map(|notice| html! { <p class="notice" role="status">{ notice.clone() }</p> }) }
            <Builder draft={Rc::new((*draft).clone())} {onchange} />
            if !others.is_empty() {
                <section class="builder-section" aria-labelledby="other-drafts">
                    <h2 id="other-drafts">{ "Your other drafts" }</h2>
                    <ul>
                        { for others.iter().map(|other| html! {
                            <li>
                                <Link<Route> to={draft_route(other)}>{ draft_title(other) }</Link<Route>>
                                { format!(": the {} workflow", workflow_name(other)) }
                            </li>
                        }) }
                    </ul>
                </section>
            }
        </main>
    }
}

fn draft_title(draft: &Challenge) -> String {
    match draft.title.trim() {
        "" => "Untitled draft".into(),
        title => title.into(),
    }
}

fn workflow_name(draft: &Challenge) -> &'static str {
    draft
        .scenario
        .read()
        .map(|scenario| scenario.workflow.name())
        .unwrap_or("unknown")
}

#[derive(Properties, PartialEq)]
struct BuilderProps {
    draft: Rc<Challenge>,
    onchange: Callback<Challenge>,
}

/// The draft's forms, its boards, its check and, once it passes, its links.
#[component]
fn Builder(props: &BuilderProps) -> Html {
    let draft = &props.draft;
    let scenario = match draft.scenario() {
        Ok(scenario) => scenario,
        Err(problem) => {
            return html! {
                <p class="notice" role="status">{ format!("This draft's scenario cannot be used: {problem}. Make a challenge from another scenario in the sandbox.") }</p>
            }
        }
    };
    let scenario = Arc::new(scenario);
    // Every change of the answer or the start makes the bank again: what the answer needs
    // beyond the start, and the distractors chosen.
    let with_bank =
        |draft: &Challenge, next: Challenge| next.with_distractors(&draft.distractors());
    let offered = scenario.offered();
    let ontitle = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |title: String| {
            onchange.emit(Challenge {
                title,
                ..(*draft).clone()
            })
        })
    };
    let onbrief = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |brief: String| {
            onchange.emit(Challenge {
                brief,
                ..(*draft).clone()
            })
        })
    };
    let onanswer = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |reference: Program| {
            let next = Challenge {
                reference,
                ..(*draft).clone()
            };
            onchange.emit(with_bank(&draft, next));
        })
    };
    let locked = locked_of(&draft.start);
    let start_program = lab_course::build_task::program_of(&draft.start);
    let onstart = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        let locked = locked.clone();
        Callback::from(move |program: Program| {
            let flags = locked_lines(&locked, &program);
            let start = placed(&program, &flags);
            onchange.emit(with_bank(
                &draft,
                Challenge {
                    start,
                    ..(*draft).clone()
                },
            ));
        })
    };
    let onlock = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |index: usize| {
            let mut start = draft.start.clone();
            if let Some(line) = start.get_mut(index) {
                line.locked = !line.locked;
            }
            onchange.emit(Challenge {
                start,
                ..(*draft).clone()
            });
        })
    };
    let onclearstart = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |_: MouseEvent| {
            onchange.emit(with_bank(
                &draft,
                Challenge {
                    start: Vec::new(),
                    ..(*draft).clone()
                },
            ))
        })
    };
    let oncopyanswer = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |_: MouseEvent| {
            let flags = vec![true; draft.reference.lines.len()];
            let start = placed(&draft.reference, &flags);
            onchange.emit(with_bank(
                &draft,
                Challenge {
                    start,
                    ..(*draft).clone()
                },
            ));
        })
    };
    let needed = draft.needed();
    let distractors = draft.distractors();
    let distractor_fields = offered.iter().map(|&block| {
        let on = distractors.contains(&block);
        let onchange = {
            let draft = Rc::clone(draft);
            let onchange = props.onchange.clone();
            Callback::from(move |checked: bool| {
                let mut chosen = draft.distractors();
                chosen.retain(|known| *known != block);
                if checked {
                    chosen.push(block);
                }
                onchange.emit((*draft).clone().with_distractors(&chosen));
            })
        };
        let label = words(block, &scenario).1;
        html! { <li><CheckField {label} checked={on} {onchange} /></li> }
    });
    // Only what the scenario's runs can break: the others hold by construction.
    let breakable = Invariant::applying(&scenario);
    let goal_fields = breakable.iter().map(|&invariant| {
        let on = draft.goal.contains(&invariant);
        let onchange = {
            let draft = Rc::clone(draft);
            let onchange = props.onchange.clone();
            let breakable = breakable.clone();
            Callback::from(move |checked: bool| {
                let goal = breakable
                    .iter()
                    .copied()
                    .filter(|known| match *known == invariant {
                        true => checked,
                        false => draft.goal.contains(known),
                    })
                    .collect();
                onchange.emit(Challenge {
                    goal,
                    ..(*draft).clone()
                });
            })
        };
        html! { <li><CheckField label={invariant.statement()} checked={on} {onchange} /></li> }
    });
    let kinds = Challenge::kinds_of(&scenario);
    let kind_fields = kinds.iter().map(|&kind| {
        let chosen = &draft.explore.kinds;
        let on = chosen.is_empty() || chosen.contains(&kind);
        let onchange = {
            let draft = Rc::clone(draft);
            let onchange = props.onchange.clone();
            let kinds = kinds.clone();
            Callback::from(move |checked: bool| {
                let was: Vec<FaultKind> = match draft.explore.kinds.is_empty() {
                    true => kinds.clone(),
                    false => draft.explore.kinds.clone(),
                };
                let now: Vec<FaultKind> = kinds
                    .iter()
                    .copied()
                    .filter(|known| match *known == kind {
                        true => checked,
                        false => was.contains(known),
                    })
                    .collect();
                // None chosen would mean every kind: at least one stays.
                if now.is_empty() {
                    return;
                }
                let mut next = (*draft).clone();
                next.explore.kinds = match now.len() == kinds.len() {
                    true => Vec::new(),
                    false => now,
                };
                onchange.emit(next);
            })
        };
        html! { <li><CheckField label={kind.name()} checked={on} {onchange} /></li> }
    });
    let number_options = |max: u32| -> Vec<(String, String)> {
        (0..=max)
            .map(|number| (number.to_string(), number.to_string()))
            .collect()
    };
    let onfaults = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |value: String| {
            if let Ok(faults) = value.parse() {
                let mut next = (*draft).clone();
                next.explore.faults = faults;
                onchange.emit(next);
            }
        })
    };
    let onpreemptions = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |value: String| {
            if let Ok(preemptions) = value.parse() {
                let mut next = (*draft).clone();
                next.explore.preemptions = preemptions;
                onchange.emit(next);
            }
        })
    };
    let job = job_fields(draft, &scenario, &props.onchange);
    let hint_fields = draft.hints.iter().enumerate().map(|(index, hint)| {
        let onedit = {
            let draft = Rc::clone(draft);
            let onchange = props.onchange.clone();
            Callback::from(move |text: String| {
                let mut next = (*draft).clone();
                next.hints[index] = text;
                onchange.emit(next);
            })
        };
        let onremove = {
            let draft = Rc::clone(draft);
            let onchange = props.onchange.clone();
            Callback::from(move |_: MouseEvent| {
                let mut next = (*draft).clone();
                next.hints.remove(index);
                onchange.emit(next);
            })
        };
        html! {
            <li>
                <TextAreaField label={format!("Hint {}", index + 1)} value={hint.clone()} rows={2} onchange={onedit} />
                <button type="button" onclick={onremove}>{ format!("Remove hint {}", index + 1) }</button>
            </li>
        }
    });
    let onaddhint = {
        let draft = Rc::clone(draft);
        let onchange = props.onchange.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*draft).clone();
            next.hints.push(String::new());
            onchange.emit(next);
        })
    };
    let sandbox = Route::SandboxState {
        state: encode(&Shared::Scenario {
            scenario: draft.scenario.clone(),
            step: 1,
        }),
    };
    let needed_words = match needed.as_slice() {
        [] => "nothing beyond the start's lines".to_string(),
        blocks => blocks
            .iter()
            .map(|block| format!("“{}”", words(*block, &scenario).1))
            .collect::<Vec<_>>()
            .join(", "),
    };
    html! {
        <>
            <section class="builder-section" aria-labelledby="builder-scenario">
                <h2 id="builder-scenario">{ "The scenario" }</h2>
                <p>{ scenario_words(&scenario) }</p>
                <p><Link<Route> to={sandbox}>{ "Change the scenario in the sandbox" }</Link<Route>>
                    { ", then press Make a challenge there: this draft stays among your drafts." }</p>
            </section>
            <section class="builder-section" aria-labelledby="builder-words">
                <h2 id="builder-words">{ "Title and brief" }</h2>
                <TextField label="Title" value={draft.title.clone()} onchange={ontitle} />
                <TextAreaField label="Brief" value={draft.brief.clone()} rows={6} onchange={onbrief}
                    hint={Some(AttrValue::from("What to build and why, in the lessons' Markdown: *emphasis*, **strong**, `code`, lists, and https: links. Shown as text: no HTML."))} />
            </section>
            <section class="builder-section" aria-labelledby="builder-goal">
                <h2 id="builder-goal">{ "The goal and the budget" }</h2>
                <fieldset>
                    <legend>{ "Invariants that must hold" }</legend>
                    <p class="hint">{ "The ones this scenario's runs can break; the others hold whatever the learner builds." }</p>
                    <ul class="field-list columns">{ for goal_fields }</ul>
                </fieldset>
                <div class="field-row">
                    <SelectField label="Faults in one run" options={number_options(FAULTS_MAX)} value={draft.explore.faults.to_string()} onchange={onfaults} />
                    <SelectField label="Preemptions in one run" options={number_options(PREEMPTIONS_MAX)} value={draft.explore.preemptions.to_string()} onchange={onpreemptions} />
                </div>
                <fieldset>
                    <legend>{ "Faults the explorer may inject" }</legend>
                    <ul class="field-list columns">{ for kind_fields }</ul>
                </fieldset>
            </section>
            <section class="builder-section board" aria-labelledby="builder-answer">
                <h2 id="builder-answer">{ "The answer" }</h2>
                <p class="hint">{ "A program that holds. Learners see it only as the last hint." }</p>
                <Board id="answer" title="The answer's lines" name="the answer" bank_title="Blocks for the answer" board={draft.reference.clone()}
                    bank={offered.clone()} locked={Vec::<lab_engine::Line>::new()} scenario={Arc::clone(&scenario)}
                    onchange={onanswer} ready_words="The answer reads as Python would." />
            </section>
            <section class="builder-section board" aria-labelledby="builder-start">
                <h2 id="builder-start">{ "Where learners start" }</h2>
                <p class="hint">{ "An empty board, a scaffold of locked lines (learners build around them), or a broken program to repair (lines not locked). Select a line and press Locked to lock or unlock it." }</p>
                <div class="board-actions">
                    <button type="button" onclick={onclearstart}>{ "Empty the start" }</button>
                    <button type="button" onclick={oncopyanswer}>{ "Start from the answer, every line locked" }</button>
                </div>
                <Board id="start" title="The starting lines" name="the start" bank_title="Blocks for the start" board={start_program}
                    bank={offered.clone()} {locked} scenario={Arc::clone(&scenario)} onchange={onstart}
                    onlock={Some(onlock)} ready_words="The start reads as Python would." />
            </section>
            <section class="builder-section" aria-labelledby="builder-bank">
                <h2 id="builder-bank">{ "Blocks on offer" }</h2>
                <p>{ format!("The bank holds what the answer needs beyond the start: {needed_words}; and the distractors you choose below.") }</p>
                <fieldset>
                    <legend>{ "Distractors: blocks a wrong program would use" }</legend>
                    <ul class="field-list columns">{ for distractor_fields }</ul>
                </fieldset>
            </section>
            <section class="builder-section" aria-labelledby="builder-job">
                <h2 id="builder-job">{ "What a program must also do" }</h2>
                <p class="hint">{ "A program that does nothing breaks no invariant. A learner's program must also do the job, as the answer's own run does it:" }</p>
                { job }
            </section>
            <section class="builder-section" aria-labelledby="builder-hints">
                <h2 id="builder-hints">{ "Hints" }</h2>
                <p class="hint">{ "The board gives three hints of its own: what breaks, which line is out of place, and at last the answer. Yours come before the answer." }</p>
                <ol class="field-list">{ for hint_fields }</ol>
                if draft.hints.len() < HINTS_MAX {
                    <button type="button" onclick={onaddhint}>{ "Add a hint" }</button>
                }
            </section>
            <CheckAndShare draft={Rc::clone(draft)} />
            <section class="builder-section" aria-labelledby="builder-verify">
                <h2 id="builder-verify">{ "Completion codes" }</h2>
                <p>{ "A learner who solves the challenge gets a completion code for it. Paste one here to see whether it is this challenge's." }</p>
                <VerifyCode challenge={Rc::clone(draft)} />
            </section>
        </>
    }
}

/// The start's lines, each locked as `flags` says.
fn placed(program: &Program, flags: &[bool]) -> Vec<Placed> {
    program
        .lines
        .iter()
        .zip(flags.iter().copied().chain(std::iter::repeat(false)))
        .map(|(line, locked)| Placed {
            block: line.block,
            depth: line.depth,
            locked,
        })
        .collect()
}

/// The scenario in a sentence: its workflow, its operations and runs, its faults.
fn scenario_words(scenario: &Scenario) -> String {
    let runs: usize = scenario
        .workers
        .iter()
        .map(|worker| worker.runs.len())
        .sum();
    let faults = match scenario.faults.as_slice() {
        [] => "no fault of its own".to_string(),
        rules => rules
            .iter()
            .map(|rule| format!("{} at {}", rule.fault.name(), rule.at.name()))
            .collect::<Vec<_>>()
            .join(", "),
    };
    format!(
        "The {} workflow: {}, {} over {}; {faults}.",
        scenario.workflow.name(),
        count(scenario.operations.len() as u64, "operation", "operations"),
        count(runs as u64, "run", "runs"),
        count(scenario.workers.len() as u64, "worker", "workers"),
    )
}

/// The job's three parts, each with what the answer's run does.
fn job_fields(draft: &Rc<Challenge>, scenario: &Scenario, onchange: &Callback<Challenge>) -> Html {
    let everything = Challenge {
        job: Job {
            results: true,
            effects: true,
            records: true,
        },
        ..(**draft).clone()
    };
    let expect = match everything.expect(scenario) {
        Ok(expect) => expect,
        Err(problem) => return html! { <p class="notice" role="status">{ problem }</p> },
    };
    let results = expect
        .results
        .iter()
        .map(|(worker, results)| format!("{worker}: {}", results.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    let effects = match expect.effects.is_empty() {
        true => "none".to_string(),
        false => expect
            .effects
            .iter()
            .map(|(sink, count)| format!("{count} {sink}"))
            .collect::<Vec<_>>()
            .join(", "),
    };
    let records = format!(
        "{} at the provider, {} in the table",
        count(
            u64::from(expect.provider_records.unwrap_or(0)),
            "record",
            "records"
        ),
        count(u64::from(expect.table_rows.unwrap_or(0)), "row", "rows")
    );
    let field = |label: String, on: bool, set: fn(&mut Job, bool)| {
        let draft = Rc::clone(draft);
        let onchange = onchange.clone();
        let onchange = Callback::from(move |checked: bool| {
            let mut next = (*draft).clone();
            set(&mut next.job, checked);
            onchange.emit(next);
        });
        html! { <li><CheckField {label} checked={on} {onchange} /></li> }
    };
    html! {
        <ul class="field-list">
            { field(format!("The same external effects ({effects})"), draft.job.effects, |job, on| job.effects = on) }
            { field(format!("As many records ({records})"), draft.job.records, |job, on| job.records = on) }
            { field(format!("Each run returns what the answer's does ({results})"), draft.job.results, |job, on| job.results = on) }
        </ul>
    }
}

#[derive(Properties, PartialEq)]
struct CheckAndShareProps {
    draft: Rc<Challenge>,
}

/// The check, in the second module, and the links once the draft passes it.
#[component]
fn CheckAndShare(props: &CheckAndShareProps) -> Html {
    let draft = &props.draft;
    let status = use_state(|| Checking::Idle);
    let module: Slot = use_mut_ref(|| None);
    let opened = draft.open();
    let oncheck = {
        let status = status.clone();
        let module = Rc::clone(&module);
        let draft = Rc::clone(draft);
        Callback::from(move |_: MouseEvent| {
            let asked = Rc::clone(&draft);
            let heard = status.clone();
            let onheard = Callback::from(move |heard_now: Heard| {
                match heard_now {
                Heard::Reply(Reply::Counting { done, total }) => heard.set(Checking::Running {
                    draft: Rc::clone(&asked),
                    counted: Some((done, total)),
                }),
                Heard::Reply(Reply::Judged(judgement)) => heard.set(Checking::Done {
                    draft: Rc::clone(&asked),
                    judgement: Rc::from(judgement),
                }),
                Heard::Reply(Reply::Refused(words)) => heard.set(Checking::Failed(words)),
                Heard::Failed(words) => heard.set(Checking::Failed(format!(
                    "The lab's second module could not run the check: {words}. Reload the page to try again."
                ))),
                _ => {}
            }
            });
            let mut slot = module.borrow_mut();
            let (module, _) = module_for(&mut slot, onheard);
            module.send(&Request::Judge(Box::new((*draft).clone())));
            status.set(Checking::Running {
                draft: Rc::clone(&draft),
                counted: None,
            });
        })
    };
    let oncancel = {
        let status = status.clone();
        let module = Rc::clone(&module);
        Callback::from(move |_: MouseEvent| {
            // Ending the module ends the search at once.
            module.borrow_mut().take();
            status.set(Checking::Cancelled);
        })
    };
    let running = matches!(&*status, Checking::Running { .. });
    let result = match &*status {
        Checking::Idle => Html::default(),
        Checking::Cancelled => html! { <p role="status">{ "Check cancelled." }</p> },
        Checking::Failed(words) => html! { <p class="notice" role="status">{ words.clone() }</p> },
        Checking::Running { counted, .. } => html! {
            <p class="explore-progress" role="status">
                { match counted {
                    Some((done, total)) => format!("Checking: {} of {} arrangements explored…", thousands(*done), thousands(*total)),
                    None => "Checking the answer and the start…".to_string(),
                } }
                { " " }<button type="button" onclick={oncancel}>{ "Cancel" }</button>
            </p>
        },
        Checking::Done {
            draft: checked,
            judgement,
        } => {
            let stale = **checked != **draft;
            verdict(checked, judgement, stale)
        }
    };
    html! {
        <section class="builder-section" aria-labelledby="builder-check">
            <h2 id="builder-check">{ "Check and share" }</h2>
            <p>{ "The check holds the challenge to what the course's own tasks promise: the answer does the job and holds under every schedule of the budget, the start does not, and it counts how many arrangements of the answer's blocks hold. Only a challenge that passes can be shared." }</p>
            if let Err(problem) = &opened {
                <p class="notice" role="status">{ format!("Before it can be checked: {problem}.") }</p>
            }
            <button type="button" class="primary" onclick={oncheck} disabled={opened.is_err() || running}>{ "Check the challenge" }</button>
            { result }
        </section>
    }
}

/// What the check of `draft` found, and the links when it passed; `stale` when the draft changed
/// since.
fn verdict(draft: &Rc<Challenge>, judgement: &Judgement, stale: bool) -> Html {
    let approved = match &judgement.verdict {
        Err(problem) => {
            return html! {
                <div class="feedback wrong" role="status">
                    <p><strong>{ "Not ready to share: " }</strong>{ problem.clone() }</p>
                    if stale { <p>{ "(This was the draft before your last change: check it again.)" }</p> }
                </div>
            }
        }
        Ok(approved) => approved,
    };
    let figures = &approved.judged.figures;
    let start = match (&approved.judged.start_breaks, draft.start.is_empty()) {
        (Some(breaks), _) => format!("The start does not hold: {breaks}"),
        (None, true) => "Learners start from an empty board.".to_string(),
        (None, false) => {
            "Learners start from locked lines, which are not a whole program yet.".to_string()
        }
    };
    let passed = html! {
        <div class="feedback right" role="status">
            <p><strong>{ "Ready to share." }</strong>{ format!(" The answer does the job and holds under every schedule of up to {}.", draft.budget_words()) }</p>
            <p>{ start }</p>
            <p>{ format!("{} of {} arrangements of the answer's blocks hold.", thousands(figures.hold), thousands(figures.arrangements)) }</p>
            if let Some(warning) = &approved.judged.warning {
                <p class="notice">{ format!("A warning: {warning}.") }</p>
            }
        </div>
    };
    if stale {
        return html! {
            <>
                { passed }
                <p role="status">{ "You changed the draft since this check: check it again to share it." }</p>
            </>
        };
    }
    let link = encode_within(&Shared::Challenge(Box::new((**draft).clone())));
    let share = match link {
        Err(error) => html! {
            <p class="notice" role="status">{ format!("This challenge cannot travel in a link: {error}. Shorten the brief or the hints; the lesson file below holds it whole.") }</p>
        },
        Ok(state) => {
            let full = absolute(&Route::challenge(state.clone(), false));
            let embed = absolute(&Route::challenge(state.clone(), true));
            html! {
                <>
                    <p>{ format!("The link is {} characters long (a link holds at most {}).", thousands(full.len() as u64), thousands(LINK_CHARS_MAX as u64)) }</p>
                    <Share link={full} {embed} title={format!("Idempotency Lab challenge: {}", draft.title.trim())}
                        heading="Share this challenge" link_label="Link to this challenge" />
                    <p><Link<Route> to={Route::challenge(state, false)}>{ "Open it as a learner" }</Link<Route>></p>
                </>
            }
        }
    };
    let ondownload = {
        let lesson = approved.lesson.clone();
        let name = format!("{}.toml", lesson_id(&approved.lesson));
        Callback::from(move |_: MouseEvent| {
            crate::download::offer(&name, "application/toml", Ok(lesson.clone()))
        })
    };
    html! {
        <>
            { passed }
            <h3>{ "The brief, as learners see it" }</h3>
            <div class="challenge-preview">{ rich(&judgement.texts.brief) }</div>
            { share }
            <p>
                <button type="button" onclick={ondownload}>{ "Download as a lesson file" }</button>
                { " A TOML lesson that " }<code>{ "lab check FILE.toml" }</code>{ " accepts; to add it to the course, put it in " }<code>{ "lessons/" }</code>{ " and list its id in " }<code>{ "lessons/course.toml" }</code>{ "." }
            </p>
        </>
    }
}

/// The lesson file's id: its `id = "…"` line.
fn lesson_id(lesson: &str) -> String {
    lesson
        .lines()
        .find_map(|line| line.strip_prefix("id = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or("challenge")
        .to_string()
}
