//! The designs this lesson compares, in the order they play; the current one is marked.

use lab_course::names::name_of;
use lab_course::DesignKind;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DesignBarProps {
    /// Each design's label and kind (none for a free scenario).
    pub designs: Vec<(String, Option<DesignKind>)>,
    pub current: u32,
    /// The design the learner changed with the switches, if any.
    #[prop_or_default]
    pub custom: Option<u32>,
    /// The first frame of each design.
    pub starts: Vec<u32>,
    pub ongo: Callback<u32>,
}

#[component]
pub fn DesignBar(props: &DesignBarProps) -> Html {
    let items = props
        .designs
        .iter()
        .enumerate()
        .map(|(index, (label, kind))| {
            let current = index as u32 == props.current;
            let start = props.starts[index];
            let ongo = props.ongo.clone();
            let onclick = Callback::from(move |_| ongo.emit(start));
            let badge = kind.as_ref().map(name_of);
            html! {
                <li>
                    <button
                        type="button"
                        class={classes!("design", badge.clone(), current.then_some("current"))}
                        aria-current={current.then_some("step")}
                        {onclick}
                    >
                        <span class="design-number">{ format!("Design {}", index + 1) }</span>
                        if label.is_empty() {
                            <span class="design-label hidden-until">{ "named once you answer" }</span>
                        } else {
                            <span class="design-label">{ label.clone() }</span>
                        }
                        if let Some(badge) = badge {
                            <span class={classes!("badge", badge.clone())}>{ badge }</span>
                        }
                    if props.custom == Some(index as u32) {
                        <span class="badge custom">{ "your changes" }</span>
                    }
                    </button>
                </li>
            }
        });
    html! {
        <nav class="design-bar" aria-label="Designs in this lesson">
            <ol>{ for items }</ol>
        </nav>
    }
}
