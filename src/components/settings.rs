//! The header's display settings: the colour theme and presenter mode.

use lab_course::names::{by_name, name_of};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::store::{use_app, AppAction, Theme};

#[component]
pub fn SettingsMenu() -> Html {
    let app = use_app();
    let settings = app.settings;
    let select = use_node_ref();
    // A select the learner has touched ignores later `selected` attributes, so a change from
    // another tab is set as the value instead.
    {
        let select = select.clone();
        use_effect_with(settings.theme, move |theme| {
            if let Some(select) = select.cast::<HtmlSelectElement>() {
                select.set_value(&name_of(&theme));
            }
        });
    }
    let onchange = {
        let app = app.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(theme) = by_name::<Theme>("theme", &select.value()) {
                app.dispatch(AppAction::SetTheme(theme));
            }
        })
    };
    let ontoggle = {
        let app = app.clone();
        Callback::from(move |_: MouseEvent| app.dispatch(AppAction::TogglePresenter))
    };
    let options = Theme::ALL.into_iter().map(|theme| {
        html! {
            <option value={name_of(&theme)} selected={theme == settings.theme}>{ theme.label() }</option>
        }
    });
    html! {
        <div class="settings-menu" role="group" aria-label="Display settings">
            <span class="theme-setting">
                <label for="theme-select">{ "Theme" }</label>
                <select id="theme-select" ref={select} {onchange}>{ for options }</select>
            </span>
            <button
                type="button"
                class="presenter-toggle"
                aria-pressed={settings.presenter.to_string()}
                title="Larger text and a wider lab, for a projector"
                onclick={ontoggle}
            >
                { "Presenter mode" }
            </button>
        </div>
    }
}
