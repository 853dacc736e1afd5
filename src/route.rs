//! Every place in the app has a URL; a deep link opens exactly that state. A lesson's address
//! holds its step and, once the learner changed a design, the changes (`lab_course::share`); a
//! shared scenario's address holds the whole scenario and its step, and so does the sandbox's
//! (`#/sandbox/STATE`, written as the learner works). Embeds have the same
//! addresses under `/embed`. A link's state takes the rest of the address (`*`), slashes and all,
//! so a damaged one still reaches its page, which says what is wrong with it. Which page each
//! route renders is `app::switch`'s to say: this file knows no page.

use yew_router::prelude::*;

#[derive(Clone, Debug, PartialEq, Routable)]
pub enum Route {
    #[at("/")]
    Home,
    #[at("/lesson/:id")]
    Lesson { id: String },
    #[at("/lesson/:id/:step")]
    LessonStep { id: String, step: String },
    #[at("/lesson/:id/:step/*changes")]
    LessonChanged {
        id: String,
        step: String,
        changes: String,
    },
    #[at("/scenario/*state")]
    Scenario { state: String },
    #[at("/embed/lesson/:id/:step")]
    EmbedLesson { id: String, step: String },
    #[at("/embed/lesson/:id/:step/*changes")]
    EmbedLessonChanged {
        id: String,
        step: String,
        changes: String,
    },
    #[at("/embed/*state")]
    EmbedScenario { state: String },
    #[at("/engine")]
    Engine,
    #[at("/retries")]
    Retries,
    #[at("/sandbox")]
    Sandbox,
    /// The sandbox with its scenario and step, as `lab_course::share` encodes them.
    #[at("/sandbox/*state")]
    SandboxState { state: String },
    /// A challenge an instructor made, as `lab_course::share` encodes it.
    #[at("/challenge/*state")]
    Challenge { state: String },
    #[at("/embed/challenge/*state")]
    EmbedChallenge { state: String },
    /// The challenge builder: the last draft, or the one the address holds.
    #[at("/make-challenge")]
    MakeChallenge,
    #[at("/make-challenge/*state")]
    MakeChallengeDraft { state: String },
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// The page's address's hash (`#/…`, or empty).
pub fn current_hash() -> String {
    gloo::utils::window().location().hash().unwrap_or_default()
}

/// Whether the first module (the course map and the lessons: `app::lesson_pages`) serves the
/// address in a location's hash (`#/…`, or empty); if not, the whole app does. The page's loader
/// decides the same before either starts (scripts/postbuild.mjs, `WHOLE_ADDRESS`), so the first
/// module is not fetched only to hand over.
pub fn in_first_module(hash: &str) -> bool {
    let path = hash.strip_prefix('#').unwrap_or(hash);
    let path = if path.is_empty() { "/" } else { path };
    Route::recognize(path).is_none_or(|route| route.in_first_module())
}

impl Route {
    /// Whether the first module holds this route's page.
    pub fn in_first_module(&self) -> bool {
        matches!(
            self,
            Route::Home
                | Route::Lesson { .. }
                | Route::LessonStep { .. }
                | Route::LessonChanged { .. }
                | Route::EmbedLesson { .. }
                | Route::EmbedLessonChanged { .. }
                | Route::NotFound
        )
    }

    /// An embed shows only the lab: no site header, footer or course map.
    pub fn is_embed(&self) -> bool {
        matches!(
            self,
            Route::EmbedLesson { .. }
                | Route::EmbedLessonChanged { .. }
                | Route::EmbedScenario { .. }
                | Route::EmbedChallenge { .. }
        )
    }

    /// The address of a lesson's step, with the learner's changes if any.
    pub fn lesson(id: &str, step: u32, changes: Option<String>, embedded: bool) -> Route {
        let (id, step) = (id.to_string(), step.to_string());
        match (changes, embedded) {
            (None, false) => Route::LessonStep { id, step },
            (None, true) => Route::EmbedLesson { id, step },
            (Some(changes), false) => Route::LessonChanged { id, step, changes },
            (Some(changes), true) => Route::EmbedLessonChanged { id, step, changes },
        }
    }

    /// The address of a challenge.
    pub fn challenge(state: String, embedded: bool) -> Route {
        match embedded {
            false => Route::Challenge { state },
            true => Route::EmbedChallenge { state },
        }
    }

    /// The address of a shared scenario.
    pub fn scenario(state: String, embedded: bool) -> Route {
        match embedded {
            false => Route::Scenario { state },
            true => Route::EmbedScenario { state },
        }
    }
}
