//! The keyboard shortcuts, as a small dialog.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShortcutsProps {
    pub onclose: Callback<()>,
}

#[component]
pub fn Shortcuts(props: &ShortcutsProps) -> Html {
    let onclose = {
        let onclose = props.onclose.clone();
        Callback::from(move |_: MouseEvent| onclose.emit(()))
    };
    let rows = [
        ("→ or Page Down", "Next step"),
        ("← or Page Up", "Previous step"),
        ("Space", "Play or pause"),
        ("Home / End", "First / last step"),
        ("p", "Presenter mode on or off"),
        ("?", "Show or hide these shortcuts"),
        ("Tab", "Move between controls"),
    ];
    html! {
        <section class="shortcuts" role="dialog" aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">{ "Keyboard shortcuts" }</h2>
            <table aria-labelledby="shortcuts-title">
                <tbody>
                    { for rows.iter().map(|(key, what)| html! { <tr><th scope="row"><kbd>{ *key }</kbd></th><td>{ *what }</td></tr> }) }
                </tbody>
            </table>
            <button type="button" onclick={onclose} autofocus=true>{ "Close" }</button>
        </section>
    }
}
