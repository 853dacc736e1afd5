//! The course map: sections, lessons, minutes.

use yew::prelude::*;
use yew_router::prelude::*;

use crate::course::course;
use crate::route::Route;

#[component]
pub fn Home() -> Html {
    let course = course();
    let total_minutes: u32 = course.lessons.iter().map(|lesson| lesson.minutes).sum();
    let mut number = 0;
    let sections = course.sections.iter().enumerate().map(|(index, section)| {
        let heading = format!("section-{}", index + 1);
        let items = section.lessons.iter().filter_map(|id| course.lesson(id)).map(|lesson| {
            number += 1;
            html! {
                <li class="lesson-card">
                    <h3>
                        <Link<Route> to={Route::Lesson { id: lesson.id.clone() }}>
                            <span class="lesson-number">{ format!("{number}. ") }</span>
                            { lesson.title.clone() }
                        </Link<Route>>
                    </h3>
                    <p>{ lesson.summary.clone() }</p>
                    <p class="meta">{ format!("{} min · {} designs compared", lesson.minutes, lesson.variants.len()) }</p>
                </li>
            }
        });
        html! {
            <section class="course-section" aria-labelledby={heading.clone()}>
                <h2 id={heading}>{ section.title.clone() }</h2>
                <ol class="lesson-list">{ for items }</ol>
            </section>
        }
    });
    html! {
        <main id="main" tabindex="-1" class="page home">
            <h1>{ "Idempotency Lab" }</h1>
            <p class="lead">
                { "Networks lose replies, workers crash, and two retries race each other. Each lesson runs a small, deterministic simulation of a real recovery workflow. You step through it, forward and back, and watch every record change. First the unsafe design shows its duplicate, then the fix holds." }
            </p>
            <p class="meta">{ format!("{} {} · about {} minutes", course.lessons.len(), if course.lessons.len() == 1 { "lesson" } else { "lessons" }, total_minutes) }</p>
            { for sections }
        </main>
    }
}
