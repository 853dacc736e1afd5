//! Property tests: what `lab run FILE` reads, a bare scenario or a lesson file (the lesson
//! loader the app's build and `lab check` use), never panics on 10,000 mutated files each. A
//! file that loads also runs: the scenario validates, or the lesson's variants have run and been
//! checked while loading.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;

use crate::scenarios_in;

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

/// A change to a TOML text at a place chosen as a fraction of its length: lines dropped or
/// doubled (a key lost, a table repeated), a token put in or taken out, a number changed.
#[derive(Clone, Debug)]
enum Mutation {
    DropLine(prop::sample::Index),
    DoubleLine(prop::sample::Index),
    Insert(prop::sample::Index, &'static str),
    Cut(prop::sample::Index, u8),
    Digit(prop::sample::Index, char),
}

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
    "[[variants]]",
    "0",
    "-1",
    "4294967296",
    "\"\"\"",
    "\\u0000",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<prop::sample::Index>;
    prop_oneof![
        at().prop_map(Mutation::DropLine),
        at().prop_map(Mutation::DoubleLine),
        (at(), prop::sample::select(TOKENS.to_vec()))
            .prop_map(|(at, token)| Mutation::Insert(at, token)),
        (at(), 1..40u8).prop_map(|(at, length)| Mutation::Cut(at, length)),
        (at(), prop::char::range('0', '9')).prop_map(|(at, digit)| Mutation::Digit(at, digit)),
    ]
}

/// `text` with the mutations applied in order, each at a character boundary.
fn mutated(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for mutation in mutations {
        let boundaries: Vec<usize> = text
            .char_indices()
            .map(|(at, _)| at)
            .chain([text.len()])
            .collect();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        text = match mutation {
            Mutation::DropLine(at) if !lines.is_empty() => {
                let drop = at.index(lines.len());
                lines
                    .iter()
                    .enumerate()
                    .filter(|(index, _)| *index != drop)
                    .map(|(_, line)| *line)
                    .collect()
            }
            Mutation::DoubleLine(at) if !lines.is_empty() => {
                let double = at.index(lines.len());
                lines
                    .iter()
                    .enumerate()
                    .flat_map(|(index, line)| {
                        std::iter::repeat_n(*line, if index == double { 2 } else { 1 })
                    })
                    .collect()
            }
            Mutation::Insert(at, token) => {
                let at = boundaries[at.index(boundaries.len())];
                format!("{}{token}{}", &text[..at], &text[at..])
            }
            Mutation::Cut(at, length) => {
                let start = at.index(boundaries.len());
                let end = (start + usize::from(*length)).min(boundaries.len() - 1);
                format!("{}{}", &text[..boundaries[start]], &text[boundaries[end]..])
            }
            Mutation::Digit(at, digit) => {
                // The first digit at or after the place, replaced.
                let from = boundaries[at.index(boundaries.len())];
                match text[from..].find(|c: char| c.is_ascii_digit()) {
                    Some(offset) => {
                        let at = from + offset;
                        format!("{}{digit}{}", &text[..at], &text[at + 1..])
                    }
                    None => text,
                }
            }
            _ => text,
        };
    }
    text
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
