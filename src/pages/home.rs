//! The course map: sections, lessons, minutes, what each lesson builds on, and how far the learner
//! got.

use std::collections::HashMap;

use yew::prelude::*;
use yew_router::prelude::*;

use crate::components::progress_io::ProgressIo;
use crate::course::OUTLINE;
use crate::route::Route;
use crate::store::{use_app, LessonProgress, Predictions};

/// A lesson's progress in words: a tick and "completed", or how many steps were reached.
fn lesson_progress(progress: Option<&LessonProgress>) -> Html {
    match progress {
        None => Html::default(),
        Some(progress) if progress.completed => html! {
            <p class="lesson-progress done"><span aria-hidden="true">{ "✓ " }</span>{ "completed" }</p>
        },
        Some(progress) => html! {
            <p class="lesson-progress">{ format!("{} of {} steps", progress.furthest, progress.total) }</p>
        },
    }
}

/// The lesson's predictions in words: how many were answered and how many skipped.
fn predictions(parts: Option<&Predictions>) -> Html {
    let Some(parts) = parts.filter(|parts| !parts.answered.is_empty() || !parts.skipped.is_empty())
    else {
        return Html::default();
    };
    let count = |n: usize| match n {
        1 => "1 prediction".to_string(),
        n => format!("{n} predictions"),
    };
    html! {
        <p class="lesson-progress">
            { format!("{} answered, {} skipped", count(parts.answered.len()), parts.skipped.len()) }
        </p>
    }
}

/// The challenges the learner opened, most recent first, each a link back to it.
fn challenges(progress: &crate::store::Progress) -> Html {
    if progress.challenges.is_empty() {
        return Html::default();
    }
    let mut opened: Vec<_> = progress.challenges.values().collect();
    opened.sort_by_key(|entry| std::cmp::Reverse(entry.saved_milliseconds));
    let items = opened.into_iter().map(|attempt| {
        html! {
            <li class="lesson-card">
                <h3>
                    <Link<Route> to={Route::challenge(attempt.link.clone(), false)}>{ attempt.title.clone() }</Link<Route>>
                </h3>
                if attempt.solved {
                    <p class="lesson-progress done"><span aria-hidden="true">{ "✓ " }</span>{ "solved" }</p>
                } else {
                    <p class="lesson-progress">{ "not solved yet" }</p>
                }
            </li>
        }
    });
    html! {
        <section class="course-section" aria-labelledby="your-challenges">
            <h2 id="your-challenges">{ "Your challenges" }</h2>
            <ol class="lesson-list">{ for items }</ol>
        </section>
    }
}

/// The lessons a lesson builds on, by their numbers on the map: "Builds on lessons 2 and 3.".
/// Plain text: the map already links every lesson once, by its title.
fn builds_on(prerequisites: &[&str], numbers: &HashMap<&str, usize>) -> Html {
    let mut listed: Vec<usize> = prerequisites
        .iter()
        .filter_map(|id| numbers.get(id).copied())
        .collect();
    listed.sort_unstable();
    let Some((last, before)) = listed.split_last() else {
        return Html::default();
    };
    let text = match before {
        [] => format!("Builds on lesson {last}."),
        _ => {
            let before: Vec<String> = before.iter().map(ToString::to_string).collect();
            format!("Builds on lessons {} and {last}.", before.join(", "))
        }
    };
    html! { <p class="meta prerequisites">{ text }</p> }
}

#[derive(Properties, PartialEq)]
pub struct HomeProps {
    /// Why the page asked for shows the map instead (a challenge link that cannot be used).
    #[prop_or_default]
    pub notice: Option<AttrValue>,
}

#[component]
pub fn Home(props: &HomeProps) -> Html {
    let course = &OUTLINE;
    let app = use_app();
    let progress = app.progress.clone();
    let total_minutes: u32 = course.lessons.iter().map(|lesson| lesson.minutes).sum();
    // Each lesson's number on the map, in course order.
    let numbers: HashMap<&str, usize> = course
        .sections
        .iter()
        .flat_map(|section| section.lessons.iter().copied())
        .filter(|id| course.lesson(id).is_some())
        .enumerate()
        .map(|(index, id)| (id, index + 1))
        .collect();
    let mut number = 0;
    let sections = course.sections.iter().enumerate().map(|(index, section)| {
        let heading = format!("section-{}", index + 1);
        let items = section.lessons.iter().filter_map(|id| course.lesson(id)).map(|lesson| {
            number += 1;
            html! {
                <li class="lesson-card">
                    <h3>
                        <Link<Route> to={Route::Lesson { id: lesson.id.to_string() }}>
                            <span class="lesson-number">{ format!("{number}. ") }</span>
                            { lesson.title }
                        </Link<Route>>
                    </h3>
                    <p>{ lesson.summary }</p>
                    <p class="meta">{ format!("{} min · {} designs compared", lesson.minutes, lesson.designs.len()) }</p>
                    { builds_on(lesson.prerequisites, &numbers) }
                    { lesson_progress(progress.lessons.get(lesson.id)) }
                    { predictions(progress.predictions.get(lesson.id)) }
                </li>
            }
        });
        html! {
            <section class="course-section" aria-labelledby={heading.clone()}>
                <h2 id={heading}>{ section.title }</h2>
                <ol class="lesson-list">{ for items }</ol>
            </section>
        }
    });
    // Only a lesson the course still has: an id from an older course would lead nowhere.
    let resume = progress.last.as_ref().and_then(|(id, step)| {
        let lesson = course.lesson(id)?;
        Some(html! {
            <p class="continue">
                <Link<Route> to={Route::LessonStep { id: id.clone(), step: step.to_string() }}>
                    { "Continue where you left off" }
                </Link<Route>>
                { format!(": {}, step {step}", lesson.title) }
            </p>
        })
    });
    html! {
        <main id="main" tabindex="-1" class="page home">
            <h1>{ "Idempotency Lab" }</h1>
            if let Some(notice) = &props.notice {
                <p class="notice" role="alert">{ notice.clone() }</p>
            }
            <p class="lead">
                { "Networks lose replies, workers crash, and two retries race each other. Each lesson runs a small, deterministic simulation of a real recovery workflow. You step through it, forward and back, and watch every record change. First the unsafe design shows its duplicate, then the fix holds." }
            </p>
            <p class="meta">{ format!("{} {} · about {} minutes", course.lessons.len(), if course.lessons.len() == 1 { "lesson" } else { "lessons" }, total_minutes) }</p>
            { for resume }
            { for sections }
            <p class="lab-link">
                <Link<Route> to={Route::Retries}>{ "Retry policies" }</Link<Route>>
                { ": a lab beside the course. Many clients contend for one resource under six retry policies, and retry loops stack up in layers." }
            </p>
            <p class="sandbox-link">
                <Link<Route> to={Route::Sandbox}>{ "Open the sandbox" }</Link<Route>>
                { ": build a scenario of your own, from any lesson's design or from blank." }
            </p>
            <p class="sandbox-link">
                <Link<Route> to={Route::MakeChallenge}>{ "Make a challenge" }</Link<Route>>
                { ": for instructors. Turn a scenario into a task for your class, checked as the lessons are, and hand it out by link." }
            </p>
            { challenges(&progress) }
            <section class="course-section your-progress" aria-labelledby="your-progress">
                <h2 id="your-progress">{ "Your progress" }</h2>
                <p class="meta">{ "Progress is saved in this browser only. Export it to keep a copy or move it to another browser." }</p>
                <ProgressIo />
            </section>
        </main>
    }
}
