//! Property tests: what `lab run FILE` reads, a bare scenario or a lesson file (the lesson
//! loader the app's build and `lab check` use), never panics on 10,000 mutated files each. A
//! file that loads also runs: the scenario validates, or the lesson's designs have run and been
//! checked while loading.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lab_course::mutate::{mutated, Mutation};
use proptest::prelude::*;

use crate::target::scenarios_in;

const CASES: u32 = 10_000;

/// The lessons folder of the repository.
fn lessons() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

/// The text of every lesson file, by path, read once.
fn lesson_files() -> &'static [(PathBuf, String)] {
    static FILES: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    FILES.get_or_init(read_lessons)
}

fn read_lessons() -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(lessons())
        .expect("the lessons folder is there")
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .filter(|path| path.file_name().is_some_and(|name| name != "course.toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable lesson");
            (path, text)
        })
        .collect()
}

/// What matters to TOML and to a lesson file, put in more often than chance would.
const TOKENS: [&str; 16] = [
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "\n",
    "#",
    "[[designs]]",
    "0",
    "-1",
    "4294967296",
    "\"\"\"",
    "\\u0000",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    lab_course::mutate::mutation(&TOKENS)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn a_mutated_lesson_file_loads_or_says_why(
        lesson in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let files = lesson_files();
        let (path, text) = &files[lesson.index(files.len())];
        let text = mutated(text, &mutations);
        if let Err(errors) = scenarios_in(path, &text, None) {
            prop_assert!(!errors.is_empty());
            for error in errors {
                prop_assert!(error.line >= 1 && error.line as usize <= text.lines().count().max(1) + 1, "{error:?} is inside the file");
                prop_assert!(!error.message.is_empty());
            }
        }
    }

    #[test]
    fn a_mutated_scenario_file_parses_or_says_why(mutations in prop::collection::vec(mutation(), 1..5)) {
        let mut spec = lab_engine::BatchSpec::reference(3);
        spec.workers = 2;
        let text = toml::to_string(&spec.scenario()).expect("a scenario is TOML");
        let path = Path::new("batch.toml");
        match scenarios_in(path, &mutated(&text, &mutations), None) {
            Ok(targets) => {
                for target in targets {
                    let _ = target.scenario.validate();
                }
            }
            Err(errors) => prop_assert!(errors.iter().all(|error| error.line >= 1 && !error.message.is_empty()), "{errors:?}"),
        }
    }
}
