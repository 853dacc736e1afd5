//! The course, compiled from `lessons/` by `build.rs`. The app embeds only its outline
//! ([`OUTLINE`]: what the course map and the navigation need of every lesson, as Rust data, with
//! nothing to parse); each lesson is a file of its own (`lessons/lesson-ID-HASH.json` beside
//! index.html), fetched the first time a page asks for it ([`load`], [`use_lesson`]) and kept, so
//! a lesson is asked for once however many pages want it. The service worker caches the files
//! with the rest of the site, so a reload offline opens every lesson.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use lab_course::{DesignKind, Lesson};
use yew::prelude::*;

include!(concat!(env!("OUT_DIR"), "/course.rs"));

/// The course without its lessons' contents.
pub struct Outline {
    pub sections: &'static [SectionEntry],
    /// In the course's order.
    pub lessons: &'static [LessonEntry],
}

/// A group of lessons on the course map: their ids, in order.
pub struct SectionEntry {
    pub title: &'static str,
    pub lessons: &'static [&'static str],
}

/// What the map and the navigation know of a lesson before its file is fetched.
pub struct LessonEntry {
    pub id: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    pub minutes: u32,
    /// The lessons whose ideas this one uses (ids), shown on the map as "Builds on lessons ...".
    pub prerequisites: &'static [&'static str],
    pub designs: &'static [DesignEntry],
    /// The design (an index into `designs`) of the lesson's first build task, if it has one.
    pub build: Option<u32>,
    /// The lesson's file, relative to index.html's folder's `lessons/`.
    pub file: &'static str,
}

/// A design of a lesson, as a list of them names it.
pub struct DesignEntry {
    pub id: &'static str,
    pub label: &'static str,
    pub kind: Option<DesignKind>,
}

impl Outline {
    /// The lesson with this id.
    pub fn lesson(&self, id: &str) -> Option<&'static LessonEntry> {
        self.lessons.iter().find(|lesson| lesson.id == id)
    }
}

/// Where a lesson's file is.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    Loading,
    Ready(Rc<Lesson>),
    /// It could not be fetched or read: why, in words.
    Failed(Rc<str>),
}

/// What a page waiting for a lesson is told once its file is read, or why it cannot be.
type Waiting = Box<dyn FnOnce(Result<Rc<Lesson>, Rc<str>>)>;

enum Entry {
    /// Asked for; these wait for it.
    Asked(Vec<Waiting>),
    Read(Rc<Lesson>),
}

thread_local! {
    static LESSONS: RefCell<BTreeMap<&'static str, Entry>> = const { RefCell::new(BTreeMap::new()) };
}

/// The lesson, if its file was read already.
pub fn read(id: &str) -> Option<Rc<Lesson>> {
    LESSONS.with(|lessons| match lessons.borrow().get(id) {
        Some(Entry::Read(lesson)) => Some(Rc::clone(lesson)),
        _ => None,
    })
}

/// Calls `done` with the lesson once its file is read (at once when it was), or with why it
/// cannot be. One request a lesson: a page asking while it is on its way waits for the same one.
/// A failed request is forgotten, so asking again tries again.
pub fn load(id: &str, done: impl FnOnce(Result<Rc<Lesson>, Rc<str>>) + 'static) {
    let Some(entry) = OUTLINE.lesson(id) else {
        done(Err(format!("the course has no lesson \"{id}\"").into()));
        return;
    };
    if let Some(lesson) = read(entry.id) {
        return done(Ok(lesson));
    }
    let asked = LESSONS.with(|lessons| {
        let mut lessons = lessons.borrow_mut();
        if let Some(Entry::Asked(waiting)) = lessons.get_mut(entry.id) {
            waiting.push(Box::new(done));
            true
        } else {
            lessons.insert(entry.id, Entry::Asked(vec![Box::new(done)]));
            false
        }
    });
    if asked {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let result = fetch(entry).await.map(Rc::new);
        let waiting = LESSONS.with(|lessons| {
            let mut lessons = lessons.borrow_mut();
            let waiting = match lessons.remove(entry.id) {
                Some(Entry::Asked(waiting)) => waiting,
                _ => Vec::new(),
            };
            if let Ok(lesson) = &result {
                lessons.insert(entry.id, Entry::Read(Rc::clone(lesson)));
            }
            waiting
        });
        for each in waiting {
            each(result.clone());
        }
    });
}

/// The lesson's file, read.
async fn fetch(entry: &LessonEntry) -> Result<Lesson, Rc<str>> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let failed = |what: &str| -> Rc<str> { format!("{what} (lessons/{})", entry.file).into() };
    let window = gloo::utils::window();
    // Relative to the page's <base>, the public URL, as every file of the build.
    let response = JsFuture::from(window.fetch_with_str(&format!("lessons/{}", entry.file)))
        .await
        .map_err(|_| failed("the network did not answer"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| failed("the answer was not a response"))?;
    if !response.ok() {
        return Err(failed(&format!(
            "the server answered {} {}",
            response.status(),
            response.status_text()
        )));
    }
    let text = response
        .text()
        .map_err(|_| failed("the answer could not be read"))?;
    let text = JsFuture::from(text)
        .await
        .map_err(|_| failed("the answer broke off"))?
        .as_string()
        .unwrap_or_default();
    serde_json::from_str(&text)
        .map_err(|error| failed(&format!("the file is not a lesson: {error}")))
}

/// A lesson for a component: `Loading` until its file is read, then `Ready`, or `Failed` with
/// why; and the callback that asks again after a failure.
#[hook]
pub fn use_lesson(id: &str) -> (Loaded, Callback<()>) {
    let state = {
        let id = id.to_string();
        use_state(move || read(&id).map_or(Loaded::Loading, Loaded::Ready))
    };
    let attempt = use_state(|| 0_u32);
    {
        let state = state.clone();
        use_effect_with((id.to_string(), *attempt), move |(id, _)| match read(id) {
            Some(lesson) => state.set(Loaded::Ready(lesson)),
            None => {
                state.set(Loaded::Loading);
                load(id, move |result| {
                    state.set(match result {
                        Ok(lesson) => Loaded::Ready(lesson),
                        Err(why) => Loaded::Failed(why),
                    })
                });
            }
        });
    }
    let retry = Callback::from(move |()| attempt.set(*attempt + 1));
    ((*state).clone(), retry)
}

/// The whole course, every lesson read from its file: for the native tests.
#[cfg(test)]
pub fn course() -> Rc<lab_course::Course> {
    let lessons: Vec<Lesson> = LESSON_FILES
        .iter()
        .map(|json| serde_json::from_str(json).expect("build.rs wrote a valid lesson"))
        .collect();
    Rc::new(lab_course::Course {
        format: lab_course::FORMAT_VERSION,
        title: COURSE_TITLE.to_string(),
        sections: OUTLINE
            .sections
            .iter()
            .map(|section| lab_course::Section {
                title: section.title.to_string(),
                lessons: section.lessons.iter().map(|id| id.to_string()).collect(),
            })
            .collect(),
        lessons,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_names_every_lesson_file_with_its_own_lesson() {
        let course = course();
        assert_eq!(course.lessons.len(), OUTLINE.lessons.len());
        for (lesson, entry) in course.lessons.iter().zip(OUTLINE.lessons) {
            assert_eq!(lesson.id, entry.id);
            assert_eq!(lesson.title, entry.title);
            assert_eq!(lesson.designs.len(), entry.designs.len());
            assert!(
                entry.file.starts_with(&format!("lesson-{}-", entry.id)),
                "{}",
                entry.file
            );
        }
        let ids: Vec<&str> = OUTLINE
            .sections
            .iter()
            .flat_map(|section| section.lessons.iter().copied())
            .collect();
        assert!(ids.iter().all(|id| OUTLINE.lesson(id).is_some()), "{ids:?}");
    }
}
