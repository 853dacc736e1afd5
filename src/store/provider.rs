//! The store in the component tree: `StoreProvider` owns the state, saves it and applies the
//! settings to the document; components read it with `use_app` or only dispatch with
//! `use_app_dispatch`.

use yew::prelude::*;

use super::settings::Theme;
use super::state::{save_failed_notice, AppAction, AppState};
use super::storage::{self, PROGRESS_NAME, SETTINGS_NAME};

/// The state and a way to change it. Components that use it re-render on every change.
pub type AppContext = UseReducerHandle<AppState>;

/// Only a way to change the state: it never changes, so a component that only dispatches (the
/// lesson page) does not re-render when the state does.
pub type AppDispatcher = UseReducerDispatcher<AppState>;

#[derive(Properties, PartialEq)]
pub struct StoreProviderProps {
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn StoreProvider(props: &StoreProviderProps) -> Html {
    let state = use_reducer(storage::load);
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.progress.clone(), move |progress| {
            if let Err(reason) = storage::save(&storage::key(PROGRESS_NAME), &**progress) {
                dispatcher.dispatch(AppAction::SaveFailed(save_failed_notice(
                    "progress", &reason,
                )));
            }
        });
    }
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.settings, move |settings| {
            if let Err(reason) = storage::save(&storage::key(SETTINGS_NAME), settings) {
                dispatcher.dispatch(AppAction::SaveFailed(save_failed_notice(
                    "settings", &reason,
                )));
            }
        });
    }
    use_effect_with(state.settings.theme, |theme| apply_theme(*theme));
    use_effect_with(state.settings.presenter, |presenter| {
        apply_presenter(*presenter)
    });
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let listener = storage::follow_other_tabs(dispatcher);
            move || drop(listener)
        });
    }
    html! {
        <ContextProvider<AppContext> context={state.clone()}>
            <ContextProvider<AppDispatcher> context={state.dispatcher()}>
                { props.children.clone() }
            </ContextProvider<AppDispatcher>>
        </ContextProvider<AppContext>>
    }
}

/// The app state; re-renders the caller on every change. Call it inside `StoreProvider`.
#[hook]
pub fn use_app() -> AppContext {
    use_context::<AppContext>().expect("use_app is called inside StoreProvider")
}

/// Dispatches actions without subscribing to the state. Call it inside `StoreProvider`.
#[hook]
pub fn use_app_dispatch() -> AppDispatcher {
    use_context::<AppDispatcher>().expect("use_app_dispatch is called inside StoreProvider")
}

#[derive(Properties, PartialEq)]
pub struct RecordVisitProps {
    pub lesson: AttrValue,
    /// The 1-based step shown.
    pub step: u32,
    /// How many steps the lesson has.
    pub total: u32,
}

/// Records that the learner is at `step` of `lesson` whenever the props change; renders nothing.
/// A component rather than a hook, so a page can place it after its early returns.
#[component]
pub fn RecordVisit(props: &RecordVisitProps) -> Html {
    let dispatcher = use_app_dispatch();
    use_effect_with(
        (props.lesson.clone(), props.step, props.total),
        move |(lesson, step, total)| {
            dispatcher.dispatch(AppAction::Visit {
                lesson: lesson.to_string(),
                step: *step,
                total: *total,
                now_milliseconds: js_sys::Date::now() as u64,
            });
        },
    );
    Html::default()
}

/// Why saved data was set aside, or why saving failed, at the top of the page until dismissed.
#[component]
pub fn LoadNotice() -> Html {
    let app = use_app();
    if app.notice.is_none() && app.save_notice.is_none() {
        return Html::default();
    }
    // A save failure interrupts (it appears mid-visit, and work may be lost); the load notice is
    // there from the start and waits its turn.
    let role = if app.notice.is_none() {
        "alert"
    } else {
        "status"
    };
    let ondismiss = {
        let app = app.clone();
        Callback::from(move |_: MouseEvent| {
            app.dispatch(AppAction::DismissNotice);
            // The button disappears; keep focus in the page instead of dropping it to the body.
            focus_main();
        })
    };
    html! {
        <div class="notice load-notice" {role}>
            if let Some(notice) = app.notice.clone() {
                <span class="load-notice-text">{ notice }</span>
            }
            if let Some(notice) = app.save_notice.clone() {
                <span class="load-notice-text">{ notice }</span>
            }
            <button type="button" onclick={ondismiss}>{ "Dismiss" }</button>
        </div>
    }
}

/// Sets `data-theme` on `<html>`; the stylesheet keys its colours on it.
fn apply_theme(theme: Theme) {
    let Some(root) = gloo::utils::document().document_element() else {
        return;
    };
    let _ = match theme.attribute() {
        Some(value) => root.set_attribute("data-theme", value),
        None => root.remove_attribute("data-theme"),
    };
}

/// Toggles the `presenter` class on `<body>`.
fn apply_presenter(presenter: bool) {
    if let Some(body) = gloo::utils::document().body() {
        let _ = body.class_list().toggle_with_force("presenter", presenter);
    }
}

fn focus_main() {
    use wasm_bindgen::JsCast;
    let main = gloo::utils::document()
        .get_element_by_id("main")
        .and_then(|main| main.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(main) = main {
        let _ = main.focus();
    }
}
