//! Back, Next, Restart and where we are.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StepperProps {
    /// The current frame, 0-based.
    pub frame: u32,
    pub total: u32,
    /// Go to a frame.
    pub ongo: Callback<u32>,
}

#[component]
pub fn Stepper(props: &StepperProps) -> Html {
    let frame = props.frame;
    let last = props.total.saturating_sub(1);
    let back = {
        let ongo = props.ongo.clone();
        Callback::from(move |_| ongo.emit(frame.saturating_sub(1)))
    };
    let next = {
        let ongo = props.ongo.clone();
        Callback::from(move |_| ongo.emit((frame + 1).min(last)))
    };
    let restart = {
        let ongo = props.ongo.clone();
        Callback::from(move |_| ongo.emit(0))
    };
    html! {
        <div class="stepper" role="group" aria-label="Step through the run">
            <button type="button" onclick={restart} disabled={frame == 0}>{ "Restart" }</button>
            <button type="button" onclick={back} disabled={frame == 0}>
                <span aria-hidden="true">{ "← " }</span>{ "Back" }
            </button>
            <button type="button" class="primary" onclick={next} disabled={frame >= last}>
                { "Next" }<span aria-hidden="true">{ " →" }</span>
            </button>
            <span class="step-count" aria-live="polite">{ format!("Step {} of {}", frame + 1, props.total) }</span>
        </div>
    }
}
