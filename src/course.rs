//! The course, compiled from `lessons/` by `build.rs` and embedded at compile time: the course
//! without its lessons, and each lesson as its own JSON. A page that needs one lesson reads only
//! that one ([`lesson`]); the whole course ([`course`]) is read once, when a page needs it.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use lab_course::{Course, Lesson};

include!(concat!(env!("OUT_DIR"), "/course.rs"));

thread_local! {
    static COURSE: Rc<Course> = {
        let mut course: Course =
            serde_json::from_str(COURSE_JSON).expect("build.rs wrote a valid course");
        course.lessons = LESSONS_JSON
            .iter()
            .map(|(id, _)| Lesson::clone(&lesson(id).expect("build.rs wrote every lesson")))
            .collect();
        Rc::new(course)
    };
    static LESSONS: RefCell<BTreeMap<&'static str, Rc<Lesson>>> = const { RefCell::new(BTreeMap::new()) };
}

/// The embedded course, every lesson read.
pub fn course() -> Rc<Course> {
    COURSE.with(Rc::clone)
}

/// One lesson of the embedded course, read on its own the first time it is asked for.
pub fn lesson(id: &str) -> Option<Rc<Lesson>> {
    let (id, json) = LESSONS_JSON.iter().find(|(each, _)| *each == id)?;
    let read = LESSONS.with(|lessons| lessons.borrow().get(id).cloned());
    Some(read.unwrap_or_else(|| {
        let lesson: Rc<Lesson> =
            Rc::new(serde_json::from_str(json).expect("build.rs wrote a valid lesson"));
        LESSONS.with(|lessons| lessons.borrow_mut().insert(id, Rc::clone(&lesson)));
        lesson
    }))
}
