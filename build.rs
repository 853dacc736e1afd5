//! Reads, checks and compiles `lessons/` at build time: the course's outline, which the app
//! embeds (src/course.rs), and each lesson as its own file, which the app fetches when a page
//! needs it (see `write_course`). A malformed lesson fails the build with file:line:column and
//! the reason, so no TOML or Markdown parser ships in the WebAssembly.

use std::path::PathBuf;

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    // LAB_LESSONS_DIR builds the app with another lessons folder (an instructor's own course).
    println!("cargo::rerun-if-env-changed=LAB_LESSONS_DIR");
    let lessons = match std::env::var_os("LAB_LESSONS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root.join("lessons"),
    };
    println!("cargo::rerun-if-changed={}", lessons.display());
    match lab_course::authoring::load(&lessons) {
        Ok(loaded) => {
            // A warning does not stop the build (a lesson's declared minutes are off, say).
            for warning in &loaded.warnings {
                let relative = warning.file.strip_prefix(&root).unwrap_or(&warning.file);
                println!(
                    "cargo::warning={}:{}:{}: {}",
                    relative.display(),
                    warning.line,
                    warning.column,
                    warning.message
                );
            }
            write_course(loaded.course);
        }
        Err(errors) => {
            for error in &errors {
                let relative = error.file.strip_prefix(&root).unwrap_or(&error.file);
                eprintln!(
                    "error: {}:{}:{}: {}",
                    relative.display(),
                    error.line,
                    error.column,
                    error.message
                );
            }
            eprintln!("{} lesson error(s); fix them and build again", errors.len());
            std::process::exit(1);
        }
    }
}

/// `$OUT_DIR/course.rs`: `OUTLINE`, what the course map and the navigation need of every lesson
/// (its id, title, summary, minutes, designs and first build task, and the name of its file), as Rust
/// data the app reads without parsing anything; and `$OUT_DIR/lessons/`, each lesson as its own
/// JSON file named with a hash of its content (`lesson-ID-HASH.json`), which Trunk's post-build
/// hook (scripts/lesson-files.mjs) copies to `dist/lessons/` and the app fetches when a page needs
/// that lesson. A changed lesson is a new name, so no cache ever serves an old one.
fn write_course(course: lab_course::Course) {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let folder = out.join("lessons");
    // Only this build's files: the hook copies the whole folder.
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("OUT_DIR is writable");
    let mut lessons = String::new();
    let mut files = String::new();
    for lesson in &course.lessons {
        let json = serde_json::to_string(lesson).expect("a lesson serializes");
        let file = format!("lesson-{}-{:016x}.json", lesson.id, fnv1a(json.as_bytes()));
        std::fs::write(folder.join(&file), &json).expect("OUT_DIR is writable");
        files.push_str(&format!(
            "    include_str!(concat!(env!(\"OUT_DIR\"), \"/lessons/{file}\")),\n"
        ));
        let designs: String = lesson
            .designs
            .iter()
            .map(|design| {
                let kind = match design.kind {
                    Some(lab_course::DesignKind::Safe) => "Some(DesignKind::Safe)",
                    Some(lab_course::DesignKind::Unsafe) => "Some(DesignKind::Unsafe)",
                    None => "None",
                };
                format!(
                    "DesignEntry {{ id: {:?}, label: {:?}, kind: {kind} }}, ",
                    design.id, design.label
                )
            })
            .collect();
        // The design of the lesson's first build task, the challenge builder's first draft.
        let build = lesson
            .steps
            .iter()
            .find(|step| matches!(step.try_it, Some(lab_course::Task::Build(_))))
            .map(|step| step.design);
        lessons.push_str(&format!(
            "    LessonEntry {{ id: {:?}, title: {:?}, summary: {:?}, minutes: {}, prerequisites: &{prerequisites:?}, designs: &[{designs}], build: {build:?}, file: {file:?} }},\n",
            lesson.id, lesson.title, lesson.summary, lesson.minutes,
            prerequisites = lesson.prerequisites,
        ));
    }
    let sections: String = course
        .sections
        .iter()
        .map(|section| {
            format!(
                "    SectionEntry {{ title: {:?}, lessons: &{:?} }},\n",
                section.title, section.lessons
            )
        })
        .collect();
    let code = format!(
        "pub static OUTLINE: Outline = Outline {{\n  sections: &[\n{sections}  ],\n  lessons: &[\n{lessons}  ],\n}};\n\n\
         /// Every lesson's file, for the native tests (never in the WebAssembly).\n\
         #[cfg(test)]\nconst LESSON_FILES: &[&str] = &[\n{files}];\n\
         #[cfg(test)]\nconst COURSE_TITLE: &str = {:?};\n",
        course.title
    );
    std::fs::write(out.join("course.rs"), code).expect("OUT_DIR is writable");
}

/// The 64-bit FNV-1a hash of some bytes: a lesson file's name changes with its content.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
