//! The lesson's text for the current point of the run.

use lab_course::{QuestionKind, Step};
use yew::prelude::*;

use crate::components::question::QuestionCard;
use crate::player::Prediction;

#[derive(Properties, PartialEq)]
pub struct NarrativeProps {
    pub step: Option<Step>,
    /// 1-based number of this narrative step, and how many there are.
    pub number: u32,
    pub count: u32,
    /// Collapsed by the learner (presenter mode gives the lab the whole screen).
    #[prop_or_default]
    pub hidden: bool,
    /// The step's task, rendered by the page (it needs the lab's state).
    #[prop_or_default]
    pub task: Html,
    /// Which run the lab shows (its trace's address): Yew compares the components inside `task`
    /// by type only, so a task whose state follows the run (a hunt's placement, a flip's done)
    /// would not be drawn again without it.
    #[prop_or_default]
    pub revision: usize,
    /// What the learner did with this step's prediction, if anything yet.
    #[prop_or_default]
    pub prediction: Option<Prediction>,
    /// The learner answered a predict question of this step.
    #[prop_or_default]
    pub onanswer: Callback<()>,
    /// The step's task is done (the page tells the lab once, so the outcome ahead may show).
    #[prop_or_default]
    pub solved: bool,
    #[prop_or_default]
    pub onsolved: Callback<()>,
    /// Show an event of the step's design (an option's refuting event, 1-based).
    #[prop_or_default]
    pub onshow: Callback<u32>,
    /// The previous step's "run until" is done here, where this step begins: says so.
    #[prop_or_default]
    pub reached: Option<AttrValue>,
}

#[component]
pub fn Narrative(props: &NarrativeProps) -> Html {
    {
        let onsolved = props.onsolved.clone();
        use_effect_with(props.solved, move |&solved| {
            if solved {
                onsolved.emit(());
            }
        });
    }
    let Some(step) = &props.step else {
        return html! { <section id="lesson-text" class="narrative" aria-label="Lesson text" hidden={props.hidden}><p>{ "Press Next to begin." }</p></section> };
    };
    // The HTML was rendered from the lesson's Markdown at build time, with raw HTML escaped; it
    // never contains text from a link or a learner's file.
    let body = Html::from_html_unchecked(AttrValue::from(step.html.clone()));
    let skipped = props.prediction == Some(Prediction::Skipped);
    let questions = step.questions.iter().map(|question| {
        let predicts = question.kind == QuestionKind::Predict;
        html! {
            <QuestionCard
                question={question.clone()}
                skipped={predicts && skipped}
                onanswer={if predicts { props.onanswer.clone() } else { Callback::noop() }}
                onshow={props.onshow.clone()}
            />
        }
    });
    html! {
        <section id="lesson-text" class="narrative" aria-labelledby="narrative-title" hidden={props.hidden}>
            <p class="narrative-count">{ format!("Part {} of {}", props.number, props.count) }</p>
            <h2 id="narrative-title">{ step.title.clone() }</h2>
            if let Some(reached) = &props.reached {
                <p class="feedback right" role="status">{ reached.clone() }</p>
            }
            <div class="prose">{ body }</div>
            { props.task.clone() }
            { for questions }
        </section>
    }
}
