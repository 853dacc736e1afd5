//! A challenge's completion code: the learner's, once the challenge is solved, to hand to their
//! instructor; and the field where an instructor pastes one to verify it. No server: the code
//! carries the challenge's id, the checks run, the hints seen and a checksum, and the page says
//! plainly that a determined student could forge one.

use std::rc::Rc;

use lab_course::challenge::{Challenge, Completion};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::format::count;

#[derive(Properties, PartialEq)]
pub struct CompletionCodeProps {
    pub challenge: Rc<Challenge>,
    pub checks: u32,
    pub hints: u32,
}

/// What a code is, said where it is given and where it is verified.
const WHAT_IT_IS: &str = "A completion code says this challenge was solved, after how many checks and with how many hints. It is a classroom convenience: anyone who reads the lab's source could make one, so it is not an exam.";

/// The learner's code, with a button that copies it.
#[component]
pub fn CompletionCode(props: &CompletionCodeProps) -> Html {
    let copied = use_state(String::new);
    let code = Completion {
        checks: props.checks.min(255) as u8,
        hints: props.hints.min(255) as u8,
    }
    .code(&props.challenge);
    let oncopy = {
        let code = code.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let clipboard = gloo::utils::window().navigator().clipboard();
            let code = code.clone();
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let done = wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&code))
                    .await
                    .is_ok();
                copied.set(match done {
                    true => "Code copied to the clipboard.".into(),
                    false => {
                        "This browser did not allow copying: select the code and copy it.".into()
                    }
                });
            });
        })
    };
    html! {
        <section class="completion" aria-labelledby="completion-title">
            <h2 id="completion-title">{ "Challenge solved" }</h2>
            <p>{ "Your completion code, for your instructor:" }</p>
            <p class="completion-code"><output aria-label="Completion code">{ code.clone() }</output>
                { " " }<button type="button" onclick={oncopy}>{ "Copy code" }</button></p>
            <p class="hint">{ WHAT_IT_IS }</p>
            <p role="status" class="share-status">{ (*copied).clone() }</p>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct VerifyCodeProps {
    pub challenge: Rc<Challenge>,
}

/// An instructor's check of a pasted code, against this challenge.
#[component]
pub fn VerifyCode(props: &VerifyCodeProps) -> Html {
    let typed = use_state(String::new);
    let verdict = use_state(|| None::<(bool, String)>);
    let oninput = {
        let typed = typed.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            typed.set(input.value());
        })
    };
    let onsubmit = {
        let typed = typed.clone();
        let verdict = verdict.clone();
        let challenge = Rc::clone(&props.challenge);
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let total = 3 + challenge.hints.len() as u32;
            verdict.set(Some(match Completion::read(&typed, &challenge) {
                Ok(done) => (true, verified_words(done, total)),
                Err(error) => (false, format!("Not verified: {error}.")),
            }));
        })
    };
    html! {
        <details class="verify-code">
            <summary>{ "For instructors: verify a completion code" }</summary>
            <form onsubmit={onsubmit}>
                <label class="field">
                    <span class="field-label">{ "Completion code" }</span>
                    <input type="text" value={(*typed).clone()} {oninput} spellcheck="false" autocomplete="off" />
                </label>
                <button type="submit">{ "Verify" }</button>
            </form>
            if let Some((right, words)) = &*verdict {
                <p class={classes!("feedback", if *right { "right" } else { "wrong" })} role="status">{ words.clone() }</p>
            }
            <p class="hint">{ WHAT_IT_IS }</p>
        </details>
    }
}

/// "Verified: solved after 3 checks, with 1 of 4 hints (not the answer)."
fn verified_words(done: Completion, total_hints: u32) -> String {
    let hints = u32::from(done.hints);
    let answer = match hints >= total_hints {
        true => "the answer shown",
        false => "not the answer",
    };
    format!(
        "Verified: this challenge, solved after {}, with {} of {total_hints} hints ({answer}).",
        count(u64::from(done.checks), "check", "checks"),
        hints
    )
}
