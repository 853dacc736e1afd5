//! What the course's integration tests share: the course as `lessons/` compiles it, loaded once.

use std::path::PathBuf;
use std::sync::OnceLock;

use lab_course::Course;

/// The course in `lessons/`, loaded once per test binary.
pub fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons");
        lab_course::authoring::load(&dir)
            .unwrap_or_else(|errors| panic!("lessons load: {errors:?}"))
            .course
    })
}
