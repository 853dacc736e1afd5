//! Reads, checks and compiles `lessons/` at build time into `$OUT_DIR/course.json`, which the app
//! embeds. A malformed lesson fails the build with file:line:column and the reason, so no TOML or
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
            let json = serde_json::to_string(&loaded.course).expect("the course serializes");
            let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
                .join("course.json");
            std::fs::write(&out, json).expect("OUT_DIR is writable");
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
