//! Reads, checks and compiles `lessons/` at build time into `$OUT_DIR/course.rs`, which the app
//! embeds (src/course.rs): the course without its lessons, and each lesson as its own JSON, so a
//! page that needs one lesson reads only that one. A malformed lesson fails the build with file:line:column and the reason, so no TOML or
//! Markdown parser ships in the WebAssembly.

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

/// `$OUT_DIR/course.rs`: `COURSE_JSON`, the course with no lessons, and `LESSONS_JSON`, each
/// lesson's id and JSON in the course's order.
fn write_course(mut course: lab_course::Course) {
    let lessons = std::mem::take(&mut course.lessons);
    let json = |text: serde_json::Result<String>| text.expect("the course serializes");
    let mut code = format!(
        "const COURSE_JSON: &str = {:?};\n",
        json(serde_json::to_string(&course))
    );
    code.push_str("const LESSONS_JSON: &[(&str, &str)] = &[\n");
    for lesson in &lessons {
        let text = json(serde_json::to_string(lesson));
        code.push_str(&format!("    ({:?}, {:?}),\n", lesson.id, text));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("course.rs");
    std::fs::write(&out, code).expect("OUT_DIR is writable");
}
