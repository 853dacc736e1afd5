//! The course, compiled from `lessons/` by `build.rs` and embedded at compile time.

use std::rc::Rc;

use lab_course::Course;

const COURSE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/course.json"));

thread_local! {
    static COURSE: Rc<Course> = Rc::new(
        serde_json::from_str(COURSE_JSON).expect("build.rs wrote a valid course"),
    );
}

/// The embedded course.
pub fn course() -> Rc<Course> {
    COURSE.with(Rc::clone)
}
