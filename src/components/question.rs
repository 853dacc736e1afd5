//! A question: the learner picks an option and reads why it is right or wrong. Its HTML was
//! rendered from the lesson's Markdown at build time, with raw HTML escaped.

use lab_course::{Question, QuestionKind};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct QuestionCardProps {
    pub question: Question,
    /// The learner skipped this prediction to move on (shown until they answer).
    #[prop_or_default]
    pub skipped: bool,
    /// The learner picked an option.
    #[prop_or_default]
    pub onanswer: Callback<()>,
    /// Show an event of the step's design (1-based): the one an option's explanation points at.
    #[prop_or_default]
    pub onshow: Callback<u32>,
}

#[component]
pub fn QuestionCard(props: &QuestionCardProps) -> Html {
    let chosen = use_state(|| None::<usize>);
    let question = &props.question;
    let heading = match question.kind {
        QuestionKind::Predict => "Predict",
        QuestionKind::Choice => "Check",
    };
    let options = question.options.iter().enumerate().map(|(index, option)| {
        let selected = *chosen == Some(index);
        let onclick = {
            let chosen = chosen.clone();
            let onanswer = props.onanswer.clone();
            Callback::from(move |_| {
                chosen.set(Some(index));
                onanswer.emit(());
            })
        };
        html! {
            <li>
                <button type="button" class={classes!("option", selected.then_some("selected"))} aria-pressed={selected.to_string()} {onclick}>
                    { Html::from_html_unchecked(AttrValue::from(option.text_html.clone())) }
                </button>
            </li>
        }
    });
    let feedback = chosen.map(|index| {
        let option = &question.options[index];
        let verdict = if option.correct { "Correct." } else { "Not quite." };
        let show = option.shows.map(|event| {
            let onshow = props.onshow.clone();
            let onclick = Callback::from(move |_: MouseEvent| onshow.emit(event));
            html! {
                <>{ " " }<button type="button" class="link-button" {onclick}>{ format!("Show event {event}") }</button></>
            }
        });
        html! {
            <p class={classes!("feedback", if option.correct { "right" } else { "wrong" })} role="status">
                <strong>{ verdict }</strong>{ " " }{ Html::from_html_unchecked(AttrValue::from(option.explain_html.clone())) }
                { show.unwrap_or_default() }
            </p>
        }
    });
    html! {
        <div class="question" role="group" aria-label={format!("{heading}: {}", question.prompt)}>
            <p class="question-kind">{ heading }</p>
            <p class="prompt">{ Html::from_html_unchecked(AttrValue::from(question.prompt_html.clone())) }</p>
            <ul class="options">{ for options }</ul>
            if props.skipped && chosen.is_none() {
                <p class="feedback skipped" role="status">{ "Skipped: you did not predict. You can still answer." }</p>
            }
            { feedback.unwrap_or_default() }
        </div>
    }
}
