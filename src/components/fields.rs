//! Small labelled form fields for the sandbox's editor: each is a real `<label>` around a real
//! input, and reports a committed value (on change, not on every key).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NumberFieldProps {
    pub label: AttrValue,
    pub value: u64,
    pub min: u64,
    pub max: u64,
    pub onchange: Callback<u64>,
}

/// A whole number within `min..=max`; a value outside it, or not a number, is not reported and
/// the field says why.
#[component]
pub fn NumberField(props: &NumberFieldProps) -> Html {
    let problem = use_state(|| None::<String>);
    let onchange = {
        let (min, max) = (props.min, props.max);
        let onchange = props.onchange.clone();
        let problem = problem.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            match input.value().trim().parse::<u64>() {
                Ok(value) if (min..=max).contains(&value) => {
                    problem.set(None);
                    onchange.emit(value);
                }
                _ => problem.set(Some(format!(
                    "\"{}\" is not a whole number from {min} to {max}; the scenario keeps {}.",
                    input.value(),
                    input.default_value()
                ))),
            }
        })
    };
    html! {
        <label class="field">
            <span class="field-label">{ props.label.clone() }</span>
            <input type="number" min={props.min.to_string()} max={props.max.to_string()} step="1"
                value={props.value.to_string()} {onchange}
                aria-invalid={problem.is_some().then_some("true")} />
            if let Some(problem) = &*problem {
                <span class="field-problem" role="alert">{ problem.clone() }</span>
            }
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub label: AttrValue,
    pub value: AttrValue,
    pub onchange: Callback<String>,
}

/// One line of text.
#[component]
pub fn TextField(props: &TextFieldProps) -> Html {
    let onchange = {
        let onchange = props.onchange.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            onchange.emit(input.value());
        })
    };
    html! {
        <label class="field">
            <span class="field-label">{ props.label.clone() }</span>
            <input type="text" value={props.value.clone()} {onchange} spellcheck="false" />
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct SelectFieldProps {
    pub label: AttrValue,
    /// (value, what the option says), in order.
    pub options: Vec<(String, String)>,
    pub value: AttrValue,
    pub onchange: Callback<String>,
}

/// One choice of a few. The select's value is set from the props after each render: an option's
/// `selected` attribute stops moving the selection once the learner has picked one, so a change
/// from elsewhere (a workflow that keeps the key but lists other options) would show another.
#[component]
pub fn SelectField(props: &SelectFieldProps) -> Html {
    let select = use_node_ref();
    {
        let select = select.clone();
        use_effect_with(
            (props.value.clone(), props.options.clone()),
            move |(value, _)| {
                if let Some(element) = select.cast::<HtmlSelectElement>() {
                    element.set_value(value);
                }
            },
        );
    }
    let onchange = {
        let onchange = props.onchange.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            onchange.emit(select.value());
        })
    };
    html! {
        <label class="field">
            <span class="field-label">{ props.label.clone() }</span>
            <select ref={select} {onchange}>
                { for props.options.iter().map(|(value, text)| html! {
                    <option value={value.clone()} selected={*value == *props.value}>{ text.clone() }</option>
                }) }
            </select>
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct CheckFieldProps {
    pub label: AttrValue,
    pub checked: bool,
    pub onchange: Callback<bool>,
}

/// On or off.
#[component]
pub fn CheckField(props: &CheckFieldProps) -> Html {
    let onchange = {
        let onchange = props.onchange.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            onchange.emit(input.checked());
        })
    };
    html! {
        <label class="field check">
            <input type="checkbox" checked={props.checked} {onchange} />
            { " " }{ props.label.clone() }
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextAreaFieldProps {
    pub label: AttrValue,
    pub value: AttrValue,
    /// Said under the field: what it takes.
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    #[prop_or(6)]
    pub rows: u32,
    pub onchange: Callback<String>,
}

/// Several lines of text, reported when the field is left. Its hint is outside its label, so the
/// field's name stays the label alone; the hint is its description.
#[component]
pub fn TextAreaField(props: &TextAreaFieldProps) -> Html {
    let onchange = {
        let onchange = props.onchange.clone();
        Callback::from(move |event: Event| {
            let input: web_sys::HtmlTextAreaElement = event.target_unchecked_into();
            onchange.emit(input.value());
        })
    };
    let id: String = props
        .label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let hint_id = format!("{id}-hint");
    html! {
        <div class="field">
            <label class="field-label" for={id.clone()}>{ props.label.clone() }</label>
            <textarea id={id} rows={props.rows.to_string()} value={props.value.clone()} {onchange}
                aria-describedby={props.hint.as_ref().map(|_| hint_id.clone())} />
            if let Some(hint) = &props.hint {
                <span class="hint" id={hint_id}>{ hint.clone() }</span>
            }
        </div>
    }
}
