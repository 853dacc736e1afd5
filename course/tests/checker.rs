//! The checker catches a lesson that does not do what it says, and names the file and line.

use std::fs;
use std::path::PathBuf;

use lab_course::authoring;

fn lessons_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

/// A folder with a manifest listing lost-reply, and lost-reply edited by `edit`.
fn course_with(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lab-checker-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let manifest =
        "format = 1\ntitle = \"t\"\n[[sections]]\ntitle = \"s\"\nlessons = [\"lost-reply\"]\n";
    fs::write(dir.join("course.toml"), manifest).unwrap();
    let lesson = fs::read_to_string(lessons_dir().join("01-lost-reply.toml")).unwrap();
    fs::write(dir.join("01-lost-reply.toml"), edit(lesson)).unwrap();
    dir
}

fn errors(dir: &std::path::Path) -> Vec<String> {
    match authoring::load(dir) {
        Ok(_) => Vec::new(),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_unedited_lesson_passes() {
    assert_eq!(
        errors(&course_with("ok", |text| text)),
        Vec::<String>::new()
    );
}

#[test]
fn a_try_it_that_does_not_fix_the_design_is_an_error_at_its_line() {
    let dir = course_with("try", |text| {
        text.replace(
            "try = { switch = \"reconcile\", on = true, expect = \"holds\" }",
            "try = { switch = \"trust_not_found\", on = false, expect = \"holds\" }",
        )
    });
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    let line = fs::read_to_string(dir.join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .position(|line| line.starts_with("try = "))
        .unwrap()
        + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{line}:")),
        "{found:?}"
    );
    assert!(found[0].contains("breaks an invariant"), "{found:?}");
}

#[test]
fn an_unsafe_design_that_does_not_break_is_an_error() {
    let dir = course_with("unsafe", |text| {
        text.replace(
            "scenario = { design = { reconcile = false }, provider = { dedup = false } }",
            "scenario = { design = { reconcile = false }, provider = { dedup = true } }",
        )
    });
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("is unsafe but breaks no invariant")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|error| error.contains("expected provider_records = 3, but the run gives 2")),
        "{found:?}"
    );
}

#[test]
fn a_typo_is_reported_with_line_and_column() {
    let dir = course_with("typo", |text| {
        text.replacen("minutes = 10", "minuets = 10", 1)
    });
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("01-lost-reply.toml:4:1: unknown field `minuets`")),
        "{found:?}"
    );
}

#[test]
fn a_fault_the_workflow_does_not_declare_is_an_error_at_each_variant_line() {
    let dir = course_with("fault", |text| {
        text.replacen(
            "fault = \"lose_reply\"\nat = \"provider.submit\"",
            "fault = \"lose_reply\"\nat = \"journal.get\"",
            1,
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    // Each variant's id is the line after its [[variants]] header.
    let lines: Vec<&str> = text.lines().collect();
    let variant_lines: Vec<usize> = (1..lines.len())
        .filter(|&index| lines[index - 1] == "[[variants]]")
        .map(|index| index + 1)
        .collect();
    assert!(!variant_lines.is_empty());
    for line in variant_lines {
        assert!(
            found.iter().any(
                |error| error.contains(&format!("01-lost-reply.toml:{line}:"))
                    && error.contains(
                        "fault lose_reply cannot strike at journal.get in the reserve workflow; \
                     there it can strike at: provider.submit"
                    )
            ),
            "no error at line {line}: {found:?}"
        );
    }
}

#[test]
fn an_unsafe_link_or_image_is_an_error_at_its_line() {
    let dir = course_with("links", |text| {
        text.replacen(
            "(`OP-002`). Before calling out,",
            "(`OP-002`). Before [calling](&#106;ava&#x09;script:alert(1)) out,\n![a chart](https://example.org/chart.png)",
            1,
        )
    });
    let found = errors(&dir);
    assert_eq!(found.len(), 2, "{found:?}");
    let lines: Vec<String> = fs::read_to_string(dir.join("01-lost-reply.toml"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let line_of = |needle: &str| lines.iter().position(|line| line.contains(needle)).unwrap() + 1;
    assert!(
        found[0].contains(&format!("01-lost-reply.toml:{}:", line_of("[calling]")))
            && found[0].contains("not allowed"),
        "{found:?}"
    );
    assert!(
        found[1].contains(&format!("01-lost-reply.toml:{}:", line_of("![a chart]")))
            && found[1].contains("image"),
        "{found:?}"
    );
}

#[test]
fn a_lesson_file_that_no_section_lists_is_an_error() {
    let dir = course_with("unlisted", |text| text);
    let other = fs::read_to_string(lessons_dir().join("02-naive-retry.toml")).unwrap();
    fs::write(dir.join("02-naive-retry.toml"), other).unwrap();
    let found = errors(&dir);
    assert!(
        found
            .iter()
            .any(|error| error.contains("course.toml")
                && error.contains("is not listed in any section")),
        "{found:?}"
    );
}

#[test]
fn a_duplicate_lesson_id_is_an_error_where_the_second_id_is_written() {
    let dir = course_with("duplicate-id", |text| text);
    let copy = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    // The id's value starts at column 6 of line 1 (`id = "lost-reply"`).
    fs::write(dir.join("99-copy.toml"), copy).unwrap();
    let found = errors(&dir);
    assert!(
        found.iter().any(|error| error.contains(
            "99-copy.toml:1:6: lesson id \"lost-reply\" is also used by 01-lost-reply.toml"
        )),
        "{found:?}"
    );
}

#[test]
fn a_late_prerequisite_is_an_error_where_it_is_written() {
    let dir = course_with("prerequisite", |text| {
        text.replacen(
            "prerequisites = []",
            "prerequisites = [\n  \"lost-reply\",\n  \"naive-retry\",\n]",
            1,
        )
    });
    let found = errors(&dir);
    let text = fs::read_to_string(dir.join("01-lost-reply.toml")).unwrap();
    let line = |needle: &str| text.lines().position(|line| line.contains(needle)).unwrap() + 1;
    // Both are reported, each at its own line: a lesson cannot require itself, nor a later one.
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].contains(&format!(
            "01-lost-reply.toml:{}:3: prerequisite \"lost-reply\"",
            line("  \"lost-reply\",")
        )),
        "{found:?}"
    );
    assert!(
        found[1].contains(&format!(
            "01-lost-reply.toml:{}:3: prerequisite \"naive-retry\"",
            line("\"naive-retry\"")
        )),
        "{found:?}"
    );
}

#[test]
fn a_try_it_whose_changed_run_ends_before_its_step_is_an_error() {
    // Lesson 17's first design, with the key fixed at its last event: the fixed run is shorter,
    // so the lab could not stay at the step's event and the task would vanish.
    let dir = std::env::temp_dir().join(format!("lab-checker-short-try-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let manifest =
        "format = 1\ntitle = \"t\"\n[[sections]]\ntitle = \"s\"\nlessons = [\"review\"]\n";
    fs::write(dir.join("course.toml"), manifest).unwrap();
    let lesson = fs::read_to_string(lessons_dir().join("17-review.toml")).unwrap();
    let prerequisites = lesson
        .lines()
        .find(|line| line.starts_with("prerequisites = "))
        .unwrap();
    let edited = lesson
        .replacen(prerequisites, "prerequisites = []", 1)
        .replacen(
            "at = \"end\"\ntext = \"\"\"\nThree faults",
            "at = \"end\"\ntry = { switch = \"stable_key\", on = true, expect = \"holds\" }\ntext = \"\"\"\nThree faults",
            1,
        );
    assert_ne!(edited, lesson, "the edit applies");
    fs::write(dir.join("17-review.toml"), edited).unwrap();
    let found = errors(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("the task would vanish when flipped"),
        "{found:?}"
    );
}

#[test]
fn a_file_that_breaks_off_after_an_equals_sign_says_what_is_missing() {
    let broken = |text: String| format!("{text}\n[extra]\nkind =");
    let lesson = fs::read_to_string(lessons_dir().join("01-lost-reply.toml")).unwrap();
    let last_line = broken(lesson).lines().count();
    let found = errors(&course_with("breaks-off", broken));
    let expected = format!(
        "01-lost-reply.toml:{last_line}:7: the TOML breaks off here: a value, a closing quote or a bracket is missing"
    );
    assert!(
        found.iter().any(|error| error.ends_with(&expected)),
        "{found:?}"
    );
}
