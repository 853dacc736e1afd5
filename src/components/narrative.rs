//! The lesson's text for the current point of the run.

use lab_course::Step;
use yew::prelude::*;

use crate::components::question::QuestionCard;

#[derive(Properties, PartialEq)]
pub struct NarrativeProps {
    pub step: Option<Step>,
    /// 1-based number of this narrative step, and how many there are.
    pub number: u32,
    pub count: u32,
    /// Collapsed by the learner (presenter mode gives the lab the whole screen).
    #[prop_or_default]
    pub hidden: bool,
    /// Whether the step's "try it" switch is already set as asked, in the design shown.
    #[prop_or_default]
    pub tried: bool,
    /// Sets the step's "try it" switch on the lab.
    #[prop_or_default]
    pub ontry: Callback<()>,
}

#[component]
pub fn Narrative(props: &NarrativeProps) -> Html {
    let Some(step) = &props.step else {
        return html! { <section id="lesson-text" class="narrative" aria-label="Lesson text" hidden={props.hidden}><p>{ "Press Next to begin." }</p></section> };
    };
    // The HTML was rendered from the lesson's Markdown at build time, with raw HTML escaped; it
    // never contains text from a link or a learner's file.
    let body = Html::from_html_unchecked(AttrValue::from(step.html.clone()));
    html! {
        <section id="lesson-text" class="narrative" aria-labelledby="narrative-title" hidden={props.hidden}>
            <p class="narrative-count">{ format!("Part {} of {}", props.number, props.count) }</p>
            <h2 id="narrative-title">{ step.title.clone() }</h2>
            <div class="prose">{ body }</div>
            if let Some(try_it) = &step.try_it {
                <div class="try-it" role="group" aria-label="Try it">
                    <p class="question-kind">{ "Try it" }</p>
                    <p>
                        { format!("Turn {} the switch ", if try_it.on { "on" } else { "off" }) }
                        <strong>{ try_it.switch.label() }</strong>
                        { " under Try it yourself, and watch the Records and the Invariants." }
                    </p>
                    if props.tried {
                        <p class="feedback right" role="status">
                            { match try_it.expect {
                                lab_course::TryExpect::Holds => "Done: in this run every invariant holds.",
                                lab_course::TryExpect::Breaks => "Done: in this run an invariant breaks.",
                            } }
                        </p>
                    } else {
                        <button type="button" onclick={
                            let ontry = props.ontry.clone();
                            Callback::from(move |_: MouseEvent| ontry.emit(()))
                        }>{ "Flip it for me" }</button>
                    }
                </div>
            }
            { for step.questions.iter().map(|question| html! { <QuestionCard question={question.clone()} /> }) }
        </section>
    }
}
