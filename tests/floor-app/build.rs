//! The course from `lessons/` as JSON (the whole floor embeds it), and its first lesson as the
//! lab's first module reads it from its file (the first module's floor embeds that).

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let lessons = root.join("../../lessons");
    println!("cargo::rerun-if-changed={}", lessons.display());
    let course = match lab_course::authoring::load(&lessons) {
        Ok(loaded) => loaded.course,
        Err(errors) => panic!("{} lesson error(s): run `lab check lessons`", errors.len()),
    };
    let json = serde_json::to_string(&course).expect("the course serializes");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("course.json"), json).expect("OUT_DIR is writable");
    let lesson = serde_json::to_string(&course.lessons[0]).expect("a lesson serializes");
    std::fs::write(out.join("lesson.json"), lesson).expect("OUT_DIR is writable");
}
