//! A step's task: what the learner does on the lab with their own hands (flip a switch, inject a
//! fault, run until an event, choose a design or a policy, pick the wrong line), and whether it is
//! done. The lesson's checker has run every outcome shown here before the course was built.

use lab_course::names::by_name;
use lab_course::{DesignChange, Task, TaskOption, TryExpect};
use lab_engine::Invariant;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TaskCardProps {
    pub task: Task,
    /// The switch or fault is set on the lab as asked; or the run has reached the event.
    #[prop_or_default]
    pub done: bool,
    /// The step's prediction is answered or skipped: an injected fault's outcome shows only then.
    #[prop_or_default]
    pub predicted: bool,
    /// For a choice of designs: which options the lab shows now (by option), and whether that
    /// run breaks an invariant.
    #[prop_or_default]
    pub shown: Vec<bool>,
    #[prop_or_default]
    pub broken: bool,
    /// For a goal: the learner changed the design, and the first invariant its run breaks
    /// (the event, and the invariant in words), if any.
    #[prop_or_default]
    pub changed: bool,
    #[prop_or_default]
    pub refuted: Option<(u32, AttrValue)>,
    /// Seeks the lab to an event of the design on show.
    #[prop_or_default]
    pub onshow: Callback<u32>,
    /// For "find the line": the line the learner picked.
    #[prop_or_default]
    pub picked: Option<AttrValue>,
    /// Does the task on the lab (flip, inject).
    #[prop_or_default]
    pub onact: Callback<()>,
    /// An option chosen (by index).
    #[prop_or_default]
    pub onchoose: Callback<usize>,
    /// A build task's board.
    #[prop_or_default]
    pub children: Html,
}

/// Rendered from the lesson's Markdown at build time, raw HTML escaped.
fn built(html: &str) -> Html {
    Html::from_html_unchecked(AttrValue::from(html.to_string()))
}

fn done(text: String) -> Html {
    html! { <p class="feedback right" role="status">{ text }</p> }
}

fn outcome(expect: TryExpect) -> &'static str {
    match expect {
        TryExpect::Holds => "in this run every invariant holds.",
        TryExpect::Breaks => "in this run an invariant breaks.",
    }
}

pub(crate) fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[component]
pub fn TaskCard(props: &TaskCardProps) -> Html {
    let chosen = use_state(|| None::<usize>);
    let act = |label: &'static str| {
        let onact = props.onact.clone();
        html! { <button type="button" onclick={Callback::from(move |_: MouseEvent| onact.emit(()))}>{ label }</button> }
    };
    let body = match &props.task {
        Task::Flip {
            switch,
            on,
            goal: Some(goal),
            ..
        } => {
            let answer = html! {
                <>
                    { format!("turn {} ", if *on { "on" } else { "off" }) }
                    <strong>{ switch.label() }</strong>
                </>
            };
            let not_yet = match (&props.refuted, props.changed) {
                (Some((event, statement)), true) if !props.done => {
                    let onshow = props.onshow.clone();
                    let event = *event;
                    let onclick = Callback::from(move |_: MouseEvent| onshow.emit(event));
                    html! {
                        <p class="feedback wrong" role="status">
                            { format!("Not yet: in your design, \"{statement}\" breaks at event {event}. ") }
                            <button type="button" class="link-button" {onclick}>{ format!("Show event {event}") }</button>
                        </p>
                    }
                }
                _ => html! {},
            };
            html! {
                <>
                    <p><strong>{ "Goal: " }</strong>{ goal.clone() }</p>
                    <p>{ "Use any switch under Try it yourself; the lesson's faults stay in. The Invariants say whether your design holds." }</p>
                    if props.done {
                        <p class="feedback right" role="status">
                            { "Done: every invariant holds in your design. The lesson's own answer: " }{ answer }{ "." }
                        </p>
                    } else {
                        { not_yet }
                        <details class="stuck">
                            <summary>{ "Stuck?" }</summary>
                            <p>{ "One answer: " }{ answer }{ ". " }{ act("Flip it for me") }</p>
                        </details>
                    }
                </>
            }
        }
        Task::Flip {
            switch, on, expect, ..
        } => html! {
            <>
                <p>
                    { format!("Turn {} the switch ", if *on { "on" } else { "off" }) }
                    <strong>{ switch.label() }</strong>
                    { " under Try it yourself, and watch the Records and the Invariants." }
                </p>
                if props.done { { done(format!("Done: {}", outcome(*expect))) } } else { { act("Flip it for me") } }
            </>
        },
        Task::Inject {
            fault,
            expect,
            breaks,
        } => {
            let place = match fault.nth {
                Some(nth) => format!(" (its {} occurrence)", ordinal(nth)),
                None => String::new(),
            };
            let worker = fault
                .worker
                .as_ref()
                .map(|worker| format!(", by {worker}"))
                .unwrap_or_default();
            let broken = breaks
                .as_deref()
                .and_then(|id| by_name::<Invariant>("invariant", id).ok())
                .map(|invariant| format!(" Broken: {}.", invariant.statement()))
                .unwrap_or_default();
            html! {
                <>
                    <p>
                        { "Inject the fault " }<strong>{ fault.fault.name().replace('_', " ") }</strong>
                        { " at " }<code>{ fault.at.name() }</code>{ format!("{place}{worker}, predict what it does, then step on.") }
                    </p>
                    if !props.done {
                        { act("Inject it for me") }
                    } else if props.predicted {
                        { done(format!("Done: the fault is in, and {}{broken}", outcome(*expect))) }
                    } else {
                        <p class="feedback" role="status">{ "The fault is in. Answer the prediction below, then step on to see what it does." }</p>
                    }
                </>
            }
        }
        Task::Until { event, what } => html! {
            <>
                <p>{ format!("Run until event {event}: {what}. Use Next or Play.") }</p>
                if props.done { { done(format!("Done: you ran until event {event}.")) } }
            </>
        },
        Task::Choose {
            prompt_html,
            options,
            contention,
            ..
        } => {
            let buttons = options.iter().enumerate().map(|(index, option)| {
                let selected = *chosen == Some(index);
                let onclick = {
                    let chosen = chosen.clone();
                    let onchoose = props.onchoose.clone();
                    Callback::from(move |_: MouseEvent| {
                        chosen.set(Some(index));
                        onchoose.emit(index);
                    })
                };
                html! {
                    <li>
                        <button type="button" class={classes!("option", selected.then_some("selected"))} aria-pressed={selected.to_string()} {onclick}>
                            { option.label.clone() }
                        </button>
                    </li>
                }
            });
            let feedback = chosen
                .and_then(|index| options.get(index).map(|option| (index, option)))
                .map(|(index, option)| {
                    let figures = match (&option.change, contention) {
                        (DesignChange::Policy { policy }, Some(contention)) => {
                            let run = contention.run(*policy);
                            format!(
                                " {}: {} calls from {} clients; the last at tick {}.",
                                policy.label(),
                                run.calls,
                                contention.clients,
                                run.completed_tick
                            )
                        }
                        _ if props.shown.get(index).copied().unwrap_or(false) => {
                            format!(
                                " The lab now runs this design: {}",
                                if props.broken {
                                    "an invariant breaks."
                                } else {
                                    "every invariant holds."
                                }
                            )
                        }
                        _ => String::new(),
                    };
                    verdict(option, figures)
                });
            html! {
                <>
                    <p class="prompt">{ built(prompt_html) }</p>
                    <ul class="options">{ for buttons }</ul>
                    { feedback.unwrap_or_default() }
                </>
            }
        }
        Task::Hunt(_) => html! {
            <>
                { props.children.clone() }
                if props.done { { done("Done: you found a fault that beats the design.".into()) } }
            </>
        },
        Task::Build(_) => html! {
            <>
                { props.children.clone() }
                if props.done { { done("Done: your program holds under every schedule in the budget.".into()) } }
            </>
        },
        Task::FindLine { line, explain_html } => {
            let feedback = props.picked.as_ref().map(|picked| {
                if picked.as_str() == line {
                    html! {
                        <p class="feedback right" role="status"><strong>{ "Correct." }</strong>{ " " }{ built(explain_html) }</p>
                    }
                } else {
                    html! {
                        <p class="feedback wrong" role="status"><strong>{ "Not this line." }</strong>{ format!(" You picked \u{201c}{picked}\u{201d}. Try another.") }</p>
                    }
                }
            });
            html! {
                <>
                    <p>{ "Find the line that is wrong: in the Code panel every line is now a button. Pick one." }</p>
                    { feedback.unwrap_or_default() }
                </>
            }
        }
    };
    html! {
        <div class="try-it" role="group" aria-label="Try it">
            <p class="question-kind">{ "Try it" }</p>
            { body }
        </div>
    }
}

/// Right or wrong, why, and what the choice did.
fn verdict(option: &TaskOption, figures: String) -> Html {
    let (class, word) = match option.correct {
        true => ("right", "Correct."),
        false => ("wrong", "Not quite."),
    };
    html! {
        <p class={classes!("feedback", class)} role="status">
            <strong>{ word }</strong>{ " " }{ built(&option.explain_html) }{ figures }
        </p>
    }
}
