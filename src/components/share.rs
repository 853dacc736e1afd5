//! "Copy link" and "Embed": the exact state on show as an address, and as an `<iframe>` snippet.
//! Both are also shown as text in a read-only field, so a browser that refuses the clipboard
//! still lets the learner copy them.

use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// The full page's address of this state.
    pub link: AttrValue,
    /// The embed's address of this state.
    pub embed: AttrValue,
    /// Names the embedded frame for screen readers.
    pub title: AttrValue,
    /// The panel's heading, and the link field's label.
    #[prop_or(AttrValue::from("Share this state"))]
    pub heading: AttrValue,
    #[prop_or(AttrValue::from("Link to this state"))]
    pub link_label: AttrValue,
}

/// Copies `text`; `done` hears whether the browser allowed it.
fn copy(text: String, done: Callback<bool>) {
    let clipboard = gloo::utils::window().navigator().clipboard();
    spawn_local(async move {
        let copied = JsFuture::from(clipboard.write_text(&text)).await.is_ok();
        done.emit(copied);
    });
}

/// The `<iframe>` that shows `src` at 800×600. Attribute values are escaped: the address is the
/// app's own, but the snippet is text a learner pastes into another page.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<iframe src=\"{}\" width=\"800\" height=\"600\" title=\"{}\" loading=\"lazy\" style=\"border:0\"></iframe>",
        escape(src),
        escape(title)
    )
}

#[component]
pub fn Share(props: &ShareProps) -> Html {
    // What the last copy did, said in the status line.
    let status = use_state(String::new);
    let embed_open = use_state(|| false);
    let link_open = use_state(|| false);
    let snippet = iframe_snippet(&props.embed, &props.title);
    let reporter = |what: &'static str| {
        let status = status.clone();
        Callback::from(move |copied: bool| {
            status.set(match copied {
                true => format!("{what} copied to the clipboard."),
                false => format!(
                    "This browser did not allow copying: select the {} below and copy it.",
                    what.to_lowercase()
                ),
            })
        })
    };
    let oncopylink = {
        let link = props.link.to_string();
        let done = reporter("Link");
        let link_open = link_open.clone();
        Callback::from(move |_: MouseEvent| {
            link_open.set(true);
            copy(link.clone(), done.clone());
        })
    };
    let oncopyembed = {
        let snippet = snippet.clone();
        let done = reporter("Embed code");
        Callback::from(move |_: MouseEvent| copy(snippet.clone(), done.clone()))
    };
    let ontoggleembed = {
        let embed_open = embed_open.clone();
        Callback::from(move |_: MouseEvent| embed_open.set(!*embed_open))
    };
    html! {
        <section class="share" aria-labelledby="share-title">
            <h2 id="share-title" class="panel-title">{ props.heading.clone() }</h2>
            <p class="share-buttons">
                <button type="button" onclick={oncopylink}>{ "Copy link" }</button>
                { " " }
                <button type="button" aria-expanded={embed_open.to_string()} aria-controls="embed-code" onclick={ontoggleembed}>{ "Embed" }</button>
            </p>
            if *link_open {
                <p class="share-field">
                    <label for="share-link">{ props.link_label.clone() }</label>
                    <input id="share-link" type="text" readonly=true value={props.link.clone()} />
                </p>
            }
            if *embed_open {
                <div class="share-field" id="embed-code">
                    <label for="embed-snippet">{ "Embed code (800×600)" }</label>
                    <textarea id="embed-snippet" readonly=true rows="3" value={snippet.clone()} />
                    <button type="button" onclick={oncopyembed}>{ "Copy embed code" }</button>
                </div>
            }
            <p role="status" class="share-status">{ (*status).clone() }</p>
        </section>
    }
}
