//! A counter: the least a Yew app can be, for comparing the lab's size and first paint.

use yew::prelude::*;

#[component]
fn App() -> Html {
    let count = use_state(|| 0_u32);
    let onclick = {
        let count = count.clone();
        Callback::from(move |_| count.set(*count + 1))
    };
    html! {
        <main>
            <h1>{ "Counter" }</h1>
            <button type="button" {onclick}>{ format!("Clicked {} times", *count) }</button>
        </main>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
