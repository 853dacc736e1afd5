//! Every lesson in `lessons/` passes the checker: ids unique, references resolve, scenarios
//! parse, unsafe designs really break, safe designs really hold.

use std::path::PathBuf;

use lab_course::authoring;

fn lessons_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

#[test]
fn every_lesson_passes_the_checker() {
    match authoring::load(&lessons_dir()) {
        Ok(loaded) => assert!(!loaded.course.lessons.is_empty()),
        Err(errors) => {
            let report: Vec<String> = errors.iter().map(ToString::to_string).collect();
            panic!("lesson check failed:\n{}", report.join("\n"));
        }
    }
}
