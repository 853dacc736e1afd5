//! Restart, Back, Play/Pause, Next, a scrubber over the whole lesson with markers at faults and
//! at broken invariants, and where we are.

use lab_course::names::{by_name, name_of};
use yew::prelude::*;

use crate::store::Speed;

#[derive(Properties, PartialEq)]
pub struct StepperProps {
    /// The current frame, 0-based.
    pub frame: u32,
    pub total: u32,
    /// Go to a frame.
    pub ongo: Callback<u32>,
    /// One frame on (a lesson may hold it back until the learner predicts).
    pub onnext: Callback<()>,
    pub playing: bool,
    pub ontoggleplay: Callback<()>,
    /// Frames worth jumping to, with what happens there.
    pub markers: Vec<(u32, String)>,
    /// Playback speed, and a way to change it.
    pub speed: Speed,
    pub onspeed: Callback<Speed>,
}

#[component]
pub fn Stepper(props: &StepperProps) -> Html {
    let frame = props.frame;
    let last = props.total.saturating_sub(1);
    let go = |target: u32| {
        let ongo = props.ongo.clone();
        Callback::from(move |_: MouseEvent| ongo.emit(target))
    };
    let toggle = {
        let ontoggleplay = props.ontoggleplay.clone();
        Callback::from(move |_: MouseEvent| ontoggleplay.emit(()))
    };
    let scrub = {
        let ongo = props.ongo.clone();
        Callback::from(move |event: InputEvent| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            if let Ok(step) = input.value().parse::<u32>() {
                ongo.emit(step.saturating_sub(1));
            }
        })
    };
    let onspeedchange = {
        let onspeed = props.onspeed.clone();
        Callback::from(move |event: Event| {
            let select: web_sys::HtmlSelectElement = event.target_unchecked_into();
            if let Ok(speed) = by_name::<Speed>("speed", &select.value()) {
                onspeed.emit(speed);
            }
        })
    };
    let markers = props.markers.iter().map(|(target, label)| {
        let current = *target == frame;
        html! {
            <li>
                <button type="button" class={classes!("marker-button", current.then_some("current"))} onclick={go(*target)}>
                    { format!("Step {}: {label}", target + 1) }
                </button>
            </li>
        }
    });
    html! {
        <div class="stepper" role="group" aria-label="Step through the run">
            <div class="stepper-buttons">
                <button type="button" onclick={go(0)} disabled={frame == 0}>{ "Restart" }</button>
                <button type="button" onclick={go(frame.saturating_sub(1))} disabled={frame == 0}>
                    <span aria-hidden="true">{ "← " }</span>{ "Back" }
                </button>
                <button type="button" onclick={toggle} disabled={frame >= last && !props.playing} aria-pressed={props.playing.to_string()}>
                    { if props.playing { "Pause" } else { "Play" } }
                </button>
                <button type="button" class="primary" onclick={
                    let onnext = props.onnext.clone();
                    Callback::from(move |_: MouseEvent| onnext.emit(()))
                } disabled={frame >= last}>
                    { "Next" }<span aria-hidden="true">{ " →" }</span>
                </button>
                <label class="speed">
                    { "Speed " }
                    <select onchange={onspeedchange}>
                        { for Speed::ALL.iter().map(|speed| html! {
                            <option value={name_of(speed)} selected={*speed == props.speed}>{ speed.label() }</option>
                        }) }
                    </select>
                </label>
                <span class="step-count" aria-live="polite">{ format!("Step {} of {}", frame + 1, props.total) }</span>
            </div>
            <label class="scrubber">
                <span class="visually-hidden">{ "Step" }</span>
                <input type="range" min="1" max={props.total.to_string()} value={(frame + 1).to_string()} oninput={scrub}
                    aria-valuetext={format!("Step {} of {}", frame + 1, props.total)} />
            </label>
            if !props.markers.is_empty() {
                <ul class="markers" aria-label="Jump to">{ for markers }</ul>
            }
        </div>
    }
}
