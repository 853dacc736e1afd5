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
            { for step.questions.iter().map(|question| html! { <QuestionCard question={question.clone()} /> }) }
        </section>
    }
}
